import CEtPan
import TriageCore

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
    /// Set when the text is a prefix (`MessageParser.parse(prefix:)`): encoded text is
    /// cut back to its last line end, so no base64 quantum or quoted-printable escape is cut.
    var prefix = false
    /// Whether `plainText` decodes the same from a prefix as from the whole part (its
    /// charset maps bytes one way whatever follows, and it is no opaque multipart).
    private(set) var plainIsPrefixStable = false
    /// Set when reading a reply (`MessageParser.replyBody`): the first HTML part is
    /// read too when there is a text part (multipart/alternative), each up to
    /// `ParserLimits.replyTextBytes`, and `reply` holds both.
    var readsReply = false
    /// The parts of a reply (with `readsReply`).
    private(set) var reply = ReplyBody()

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
            if readsReply {
                readReply(mime, part)
                return
            }
            // A multipart without a usable boundary is one opaque part: show its text.
            let isPlain = part.contentType == "text/plain" || part.contentType.hasPrefix("multipart/")
            if isPlain, plainText == nil {
                // An empty part (blank lines only) does not hide the text of a later one.
                var ascii = false
                plainText = Self.text(of: mime, charset: part.charset, limit: ParserLimits.plainTextBytes, cut: prefix,
                                      ascii: &ascii)
                    .flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
                if prefix, plainText != nil, !part.contentType.hasPrefix("multipart/") {
                    // Unlabelled text is UTF-8 only if all of it is valid: unsure unless ASCII.
                    switch CharsetDecoder.kind(of: part.charset?.trimmingASCIIWhitespace().lowercased() ?? "") {
                    case .utf8, .windows1252: plainIsPrefixStable = true
                    case .unlabelled: plainIsPrefixStable = ascii
                    case .other: plainIsPrefixStable = false
                    }
                }
            } else if part.contentType == "text/html", htmlText == nil, plainText == nil {
                var ascii = false
                htmlText = Self.text(of: mime, charset: part.charset, limit: ParserLimits.htmlTextBytes, cut: prefix, ascii: &ascii)
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

    /// A single part of a reply: the first text/plain (unflowed) and the first
    /// text/html (as lines, up to its quote structure), whichever comes first.
    private mutating func readReply(_ mime: UnsafeMutablePointer<mailmime>, _ part: MIMEPart) {
        let limit = ParserLimits.replyTextBytes
        var ascii = false
        let cut = (mime.pointee.mm_data.mm_single?.pointee.dt_data.dt_text.dt_length ?? 0) > limit
        if part.contentType == "text/plain" || part.contentType.hasPrefix("multipart/"), reply.plain == nil {
            guard var text = Self.text(of: mime, charset: part.charset, limit: limit, cut: prefix || cut, ascii: &ascii),
                  !text.allSatisfy(\.isWhitespace) else { return }
            if part.isFlowed { text = FlowedText.unflow(text, deleteSpace: part.deletesSpace) }
            reply.plain = ReplyBody.Part(text: text, cut: cut)
        } else if part.contentType == "text/html", reply.html == nil {
            guard let html = Self.text(of: mime, charset: part.charset, limit: limit, cut: prefix || cut, ascii: &ascii) else { return }
            let (lines, quoteFound) = HTMLText.lines(html)
            reply.html = ReplyBody.Part(lines: lines, quoteFound: quoteFound, cut: cut)
        }
    }

    /// The transfer-decoded, charset-converted text of a single part, from at
    /// most `limit` encoded bytes; with `cut`, base64 and quoted-printable end at their
    /// last line end. `ascii` tells whether the decoded bytes were all ASCII.
    private static func text(of mime: UnsafeMutablePointer<mailmime>, charset: String?, limit: Int, cut: Bool,
                             ascii: inout Bool) -> String? {
        guard let body = mime.pointee.mm_data.mm_single,
              body.pointee.dt_type == Int32(MAILMIME_DATA_TEXT),
              let data = body.pointee.dt_data.dt_text.dt_data else { return nil }
        let length = min(body.pointee.dt_data.dt_text.dt_length, limit)
        var raw = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
        let encoding = body.pointee.dt_encoding
        if cut, encoding == Int32(MAILMIME_MECHANISM_BASE64) || encoding == Int32(MAILMIME_MECHANISM_QUOTED_PRINTABLE) {
            if let lineEnd = raw.lastIndex(of: 0x0A) {
                raw.removeSubrange((lineEnd + 1)...)
            } else if encoding == Int32(MAILMIME_MECHANISM_BASE64) {
                raw.removeLast(raw.count % 4)
            }
        }
        if encoding == Int32(MAILMIME_MECHANISM_QUOTED_PRINTABLE) {
            raw = keepingInvalidEscapes(raw)
        }
        var index = 0
        var decoded: UnsafeMutablePointer<CChar>?
        var decodedLength = 0
        let status = raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                mailmime_part_parse(chars.baseAddress, chars.count, &index, body.pointee.dt_encoding,
                                    &decoded, &decodedLength)
            }
        }
        guard status == Int32(MAILIMF_NO_ERROR), let decoded else {
            // Undecodable transfer encoding: show the raw bytes rather than nothing.
            if cut { ascii = raw.allSatisfy { $0 < 0x80 } }
            return CharsetDecoder.decode(raw, charset: charset)
        }
        defer { mailmime_decoded_part_free(decoded) }
        let bytes = decoded.withMemoryRebound(to: UInt8.self, capacity: decodedLength) {
            Array(UnsafeBufferPointer(start: $0, count: decodedLength))
        }
        if cut { ascii = bytes.allSatisfy { $0 < 0x80 } }
        return CharsetDecoder.decode(bytes, charset: charset)
    }

    /// Quoted-printable `bytes` with every `=` that starts no escape written as
    /// `=3D`, so libetpan's decoder keeps it and what follows, as RFC 2045 §6.7
    /// (and Python's email) do: `=od` and `=UTF8` stay as written. An escape is
    /// `=` and two hex digits, or a soft line break (`=` then optional blanks and
    /// a line end). This also keeps an escape cut at the end of a part (`=4`),
    /// where libetpan read one byte too far (found by fuzzing).
    static func keepingInvalidEscapes(_ bytes: [UInt8]) -> [UInt8] {
        let equals = UInt8(ascii: "=")
        guard bytes.contains(equals) else { return bytes }
        func isHex(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x30...0x39, 0x41...0x46, 0x61...0x66: return true
            default: return false
            }
        }
        let n = bytes.count
        var out: [UInt8] = []
        out.reserveCapacity(n + 16)
        var i = 0
        while i < n {
            let byte = bytes[i]
            out.append(byte)
            i += 1
            guard byte == equals else { continue }
            if i + 1 < n, isHex(bytes[i]), isHex(bytes[i + 1]) { continue }
            var j = i
            while j < n, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
            if j < n, bytes[j] == 0x0D || bytes[j] == 0x0A { continue }   // soft line break
            out += [UInt8(ascii: "3"), UInt8(ascii: "D")]
        }
        return out
    }
}
