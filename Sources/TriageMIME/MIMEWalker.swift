import CEtPan

/// Walks a libetpan MIME tree, depth-first in document order (as Python's
/// `Message.walk()` does), collecting attachment names and the snippet text.
struct MIMEWalker {
    /// File names of attachment parts, in order.
    private(set) var attachments: [String] = []
    /// The first text/plain body text found, decoded.
    private(set) var plainText: String?
    /// The first text/html body converted to text, used when there is no text/plain.
    private(set) var htmlText: String?
    private var partsSeen = 0

    /// Visits `mime` and its children; nesting beyond `ParserLimits.maxDepth` is ignored.
    mutating func walk(_ mime: UnsafeMutablePointer<mailmime>, depth: Int = 0) {
        guard depth <= ParserLimits.maxDepth, partsSeen < ParserLimits.maxParts else { return }
        partsSeen += 1
        let part = MIMEPart(mime)
        if let name = part.fileName { attachments.append(name) }
        switch Int(mime.pointee.mm_type) {
        case Int(MAILMIME_SINGLE):
            guard !part.isDispositionAttachment else { return }
            // A multipart without a usable boundary is one opaque part: show its text.
            let isPlain = part.contentType == "text/plain" || part.contentType.hasPrefix("multipart/")
            if isPlain, plainText == nil {
                plainText = Self.text(of: mime, charset: part.charset, limit: ParserLimits.plainTextBytes)
            } else if part.contentType == "text/html", htmlText == nil, plainText == nil {
                htmlText = Self.text(of: mime, charset: part.charset, limit: ParserLimits.htmlTextBytes)
                    .map(HTMLText.plainText)
            }
        case Int(MAILMIME_MULTIPLE):
            for child in CList.items(mime.pointee.mm_data.mm_multipart.mm_mp_list, as: mailmime.self) {
                walk(child, depth: depth + 1)
            }
        case Int(MAILMIME_MESSAGE):
            if let inner = mime.pointee.mm_data.mm_message.mm_msg_mime {
                walk(inner, depth: depth + 1)
            }
        default:
            break
        }
    }

    /// The transfer-decoded, charset-converted text of a single part, from at
    /// most `limit` encoded bytes.
    private static func text(of mime: UnsafeMutablePointer<mailmime>, charset: String?, limit: Int) -> String? {
        guard let body = mime.pointee.mm_data.mm_single,
              body.pointee.dt_type == Int32(MAILMIME_DATA_TEXT),
              let data = body.pointee.dt_data.dt_text.dt_data else { return nil }
        let length = min(body.pointee.dt_data.dt_text.dt_length, limit)
        var index = 0
        var decoded: UnsafeMutablePointer<CChar>?
        var decodedLength = 0
        let status = mailmime_part_parse(data, length, &index, body.pointee.dt_encoding, &decoded, &decodedLength)
        guard status == Int32(MAILIMF_NO_ERROR), let decoded else {
            // Undecodable transfer encoding: show the raw bytes rather than nothing.
            let raw = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
            return CharsetDecoder.decode(raw, charset: charset)
        }
        defer { mailmime_decoded_part_free(decoded) }
        let bytes = decoded.withMemoryRebound(to: UInt8.self, capacity: decodedLength) {
            Array(UnsafeBufferPointer(start: $0, count: decodedLength))
        }
        return CharsetDecoder.decode(bytes, charset: charset)
    }
}
