import CEtPan
import TriageCore

/// Turns raw RFC 5322 / MIME bytes into a `Message`, using libetpan's parsers
/// (`mailimf` for the header fields, `mailmime` for the body structure).
///
/// Never crashes or hangs on malformed input; yields whatever can be read:
/// headers up to the first line that is not a header, the MIME structure as far
/// as libetpan understands it, within the caps in `ParserLimits`.
public enum MessageParser {
    /// Parses one whole message: headers, attachments, snippet and size. The fields
    /// named in `keepingHeaders` (lower-case, e.g. `CompiledRules.headerNames`) are
    /// also kept whole in `Message.headers`, for `header:` rules.
    public static func parse(_ bytes: [UInt8], keepingHeaders: [String] = []) -> Message {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, body: true, keeping: keepingHeaders) }
    }

    /// Parses one whole message and attaches what the server knows about it.
    public static func parse(_ bytes: [UInt8], server: ServerFacts) -> Message {
        var message = parse(bytes)
        message.server = server
        return message
    }

    /// The decoded text of a message as written, lines kept: its first text/plain
    /// part, else its HTML as text, up to `ParserLimits.plainTextBytes`. For reading
    /// the commands of a reply to the digest, where lines matter (a snippet is one line).
    public static func bodyText(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, body: true, text: .whole) }.snippet
    }

    /// The parts of a reply to the digest, for `ReplyReader`: its first text/plain
    /// part (format=flowed joined) and its first text/html part as lines up to the
    /// quote's structure, each decoded from up to `ParserLimits.replyTextBytes`.
    /// `complete` says whether `bytes` is the whole message; when it is only a
    /// prefix, an encoded part is read up to its last whole line.
    public static func replyBody(_ bytes: [UInt8], complete: Bool) -> ReplyBody {
        let capture = ReplyCapture(complete: complete)
        _ = bytes.withUnsafeBufferPointer { parse(buffer: $0, body: true, text: .reply(capture)) }
        return capture.body
    }

    /// Which text `readStructure` keeps: the snippet, the whole first text
    /// (`bodyText`), or a reply's parts (`replyBody`).
    enum TextMode {
        case snippet, whole
        case reply(ReplyCapture)
    }

    /// Where `replyBody`'s parse leaves the reply's parts.
    final class ReplyCapture {
        let complete: Bool
        var body = ReplyBody()
        init(complete: Bool) { self.complete = complete }
    }

    /// Parses a message whose text is only a prefix (an IMAP `BODY.PEEK[TEXT]<0.N>`
    /// that the text is longer than): the message `parse` gives, when its snippet is
    /// certainly the one the longer text gives too, else nil (fetch more). Certain
    /// means: taken from a text/plain part that begins inside the prefix, whose
    /// decoding does not depend on the bytes after it (UTF-8 or windows-1252 labels,
    /// or unlabelled ASCII), and that fills the snippet well before the cut (a cut
    /// base64 quantum, quoted-printable escape or UTF-8 sequence only changes the
    /// end). An HTML snippet is never certain: a later text/plain part would win.
    public static func parse(prefix bytes: [UInt8], keepingHeaders: [String] = []) -> Message? {
        let (message, settled) = bytes.withUnsafeBufferPointer {
            parseSettling(buffer: $0, body: true, keeping: keepingHeaders, prefix: true)
        }
        return settled ? message : nil
    }

    /// Parses only the header block (for example an IMAP `BODY.PEEK[HEADER]`):
    /// everything except attachments and snippet, which need the body. `size` is
    /// the byte count given, so callers that know the full size set it afterwards.
    public static func parseHeader(_ bytes: [UInt8]) -> Message {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, body: false) }
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, body: Bool, keeping: [String] = [],
                              text: TextMode = .snippet) -> Message {
        parseSettling(buffer: buffer, body: body, keeping: keeping, text: text, prefix: false).message
    }

    /// `parse`, also saying whether the snippet is settled (always, unless `prefix`).
    private static func parseSettling(buffer: UnsafeBufferPointer<UInt8>, body: Bool, keeping: [String] = [],
                                      text: TextMode = .snippet, prefix: Bool) -> (message: Message, settled: Bool) {
        // libetpan decodes Content-Type values and encoded words with our charset rules.
        CharsetDecoder.installInLibetpan()
        var message = Message()
        message.size = buffer.count
        guard buffer.baseAddress != nil, buffer.count > 0 else {
            message.headerHash = SHA256.hex(bytes: SHA256.hash([UInt8]()))
            return (message, !prefix)
        }
        // Pathologically nested comments would overflow libetpan's recursion, and
        // an mbox `From ` line among the fields would end the header: parse a
        // same-length copy with the excess parentheses blanked and such lines hidden.
        var safe = CommentNesting.sanitized(buffer)
        let envelopeLines = MisplacedEnvelopeLines.offsets(buffer)
        if !envelopeLines.isEmpty {
            if safe == nil { safe = Array(buffer) }
            MisplacedEnvelopeLines.hide(&safe!, at: envelopeLines)
        }
        let settled: Bool
        if let safe {
            settled = safe.withUnsafeBufferPointer {
                parse(buffer: $0, original: buffer, body: body, keeping: keeping, text: text, prefix: prefix, into: &message)
            }
        } else {
            settled = parse(buffer: buffer, original: buffer, body: body, keeping: keeping, text: text, prefix: prefix,
                            into: &message)
        }
        return (message, settled)
    }

    /// Parses `buffer`; the header hash is taken from `original` (same length and offsets).
    /// Returns whether the snippet is settled (see `parse(prefix:)`).
    private static func parse(buffer: UnsafeBufferPointer<UInt8>, original: UnsafeBufferPointer<UInt8>,
                              body: Bool, keeping: [String], text: TextMode = .snippet, prefix: Bool,
                              into message: inout Message) -> Bool {
        guard let base = buffer.baseAddress else { return !prefix }
        let start = continuationLinesEnd(buffer, from: mboxSeparatorEnd(buffer))
        let (headerEnd, shapesMIME) = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
            readHeader(chars, count: buffer.count, from: start, keeping: keeping, into: &message)
        }
        message.headerHash = SHA256.hex(bytes: SHA256.hash(buffer: UnsafeRawBufferPointer(
            UnsafeBufferPointer(rebasing: original[start..<headerEnd]))))
        guard body else { return !prefix }
        // A header block and nothing after it (an IMAP header fetch, the common case of a
        // run): without Content-* fields its MIME structure is one empty text/plain part,
        // which has no attachment and no text. The MIME parse would read the header a
        // second time to say so.
        if !prefix, !shapesMIME, isBlank(UnsafeBufferPointer(rebasing: buffer[headerEnd...])) { return true }
        return readBody(UnsafeBufferPointer(rebasing: buffer[start...]), text: text, prefix: prefix, into: &message)
    }

    /// Parses the header fields starting at `start`; returns where the header block ends,
    /// and whether a Content-* field is among them (see `HeaderReader.read`).
    private static func readHeader(_ chars: UnsafePointer<CChar>, count: Int, from start: Int,
                                   keeping: [String], into message: inout Message) -> (end: Int, shapesMIME: Bool) {
        var index = start
        var fields: UnsafeMutablePointer<mailimf_fields>?
        let status = mailimf_optional_fields_parse(chars, count, &index, &fields)
        guard status == Int32(MAILIMF_NO_ERROR), let fields else { return (start, true) }
        defer { mailimf_fields_free(fields) }
        let shapesMIME = HeaderReader.read(fields, keeping: keeping, into: &message)
        return (max(start, min(index, count)), shapesMIME)
    }

    /// Whether `bytes` is at most the blank line that ends a header block.
    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x0D || $0 == 0x0A } && bytes.count <= 2
    }

    /// Parses the MIME structure for attachment names and the snippet.
    private static func readBody(_ buffer: UnsafeBufferPointer<UInt8>, text: TextMode = .snippet, prefix: Bool,
                                 into message: inout Message) -> Bool {
        // The limit first: the repair then scans and copies no more than the parser reads,
        // and what it appends (closing delimiters) stays within what is parsed.
        let limited = UnsafeBufferPointer(rebasing: buffer[..<min(buffer.count, ParserLimits.maxStructureBytes)])
        if let repaired = MIMEStructureRepair.repaired(limited) {
            return repaired.withUnsafeBufferPointer { readStructure($0, text: text, prefix: prefix, into: &message) }
        } else {
            return readStructure(limited, text: text, prefix: prefix, into: &message)
        }
    }

    /// `limited` is at most `ParserLimits.maxStructureBytes`, plus what the repair added.
    /// With `text` `.whole` the snippet is the whole decoded text instead (`bodyText`); with `.reply`
    /// only the reply's parts are read, into its capture.
    /// With `prefix` returns whether the snippet is settled (see `parse(prefix:)`), else true.
    private static func readStructure(_ limited: UnsafeBufferPointer<UInt8>, text: TextMode = .snippet, prefix: Bool,
                                      into message: inout Message) -> Bool {
        let length = limited.count
        // libetpan recurses once per nesting level with no limit: refuse input that
        // could nest deeper than we are willing to recurse (headers are still read).
        guard NestingEstimate.tokenCount(limited, limit: ParserLimits.maxNestingTokens)
                <= ParserLimits.maxNestingTokens,
              let base = limited.baseAddress else { return !prefix }
        var index = 0
        var mime: UnsafeMutablePointer<mailmime>?
        let status = base.withMemoryRebound(to: CChar.self, capacity: length) { chars in
            mailmime_parse(chars, length, &index, &mime)
        }
        guard status == Int32(MAILIMF_NO_ERROR), let mime else { return !prefix }
        defer { mailmime_free(mime) }
        var walker = MIMEWalker()
        walker.prefix = prefix
        if case .reply(let capture) = text {
            walker.prefix = !capture.complete
            walker.readsReply = true
            walker.walk(mime)
            capture.body = walker.reply
            return true
        }
        walker.walk(mime)
        message.attachments = walker.attachments
        let found = walker.plainText ?? walker.htmlText ?? ""
        if case .whole = text { message.snippet = found } else { message.snippet = Snippet.make(found) }
        guard prefix else { return true }
        // Settled when the text fills the snippet without its last characters, where
        // the cut may have left a partial escape, quantum or sequence.
        guard let plain = walker.plainText, walker.plainIsPrefixStable else { return false }
        return Snippet.make(String(plain.dropLast(Self.cutMargin))).count >= ParserLimits.snippetLength
    }

    /// Characters at the end of a cut text that are not trusted (`parse(prefix:)`).
    static let cutMargin = 64

    /// The index after the lines at `start` that begin with white space: a first
    /// line like that continues no header, and libetpan would then read no header
    /// and no structure at all. Python's email skips them too.
    private static func continuationLinesEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < buffer.count, buffer[index] == 0x20 || buffer[index] == 0x09 {
            while index < buffer.count, buffer[index] != 0x0A { index += 1 }
            index = min(index + 1, buffer.count)
        }
        return index
    }

    /// The index after a leading mbox `From ` line, or 0 when there is none.
    private static func mboxSeparatorEnd(_ buffer: UnsafeBufferPointer<UInt8>) -> Int {
        guard MisplacedEnvelopeLines.startsWithEnvelope(buffer, at: 0) else { return 0 }
        guard let newline = buffer.firstIndex(of: 0x0A) else { return 0 }
        return newline + 1
    }
}
