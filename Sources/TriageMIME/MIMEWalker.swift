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
        // The root is the message itself, not an attached one.
        if depth > 0, let name = part.attachmentName { attachments.append(name) }
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
        var length = min(body.pointee.dt_data.dt_text.dt_length, limit)
        let raw = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
        // libetpan's quoted-printable decoder reads one byte past the end of a part
        // that ends in a cut escape `=X` (found by fuzzing): decode the part without
        // it and keep those two bytes as they are, as Python's email does.
        var tail: [UInt8] = []
        if body.pointee.dt_encoding == Int32(MAILMIME_MECHANISM_QUOTED_PRINTABLE), endsInCutEscape(raw) {
            tail = Array(raw.suffix(2))
            length -= 2
        }
        var index = 0
        var decoded: UnsafeMutablePointer<CChar>?
        var decodedLength = 0
        let status = mailmime_part_parse(data, length, &index, body.pointee.dt_encoding, &decoded, &decodedLength)
        guard status == Int32(MAILIMF_NO_ERROR), let decoded else {
            // Undecodable transfer encoding: show the raw bytes rather than nothing.
            return CharsetDecoder.decode(raw, charset: charset)
        }
        defer { mailmime_decoded_part_free(decoded) }
        let bytes = decoded.withMemoryRebound(to: UInt8.self, capacity: decodedLength) {
            Array(UnsafeBufferPointer(start: $0, count: decodedLength))
        }
        return CharsetDecoder.decode(bytes + tail, charset: charset)
    }

    /// Whether quoted-printable `bytes` end in an escape cut after its first
    /// character (`=` then one byte that is not a line end), scanning escapes
    /// as libetpan does: `=` with two bytes, `=\n`, `=\r\n` or `=\r`.
    static func endsInCutEscape(_ bytes: [UInt8]) -> Bool {
        let n = bytes.count
        var i = 0
        while i < n {
            guard bytes[i] == UInt8(ascii: "=") else { i += 1; continue }
            if i + 1 >= n { return false }
            switch bytes[i + 1] {
            case UInt8(ascii: "\n"): i += 2
            case UInt8(ascii: "\r"): i += (i + 2 < n && bytes[i + 2] == UInt8(ascii: "\n")) ? 3 : 2
            default:
                if i + 2 >= n { return true }
                i += 3
            }
        }
        return false
    }
}
