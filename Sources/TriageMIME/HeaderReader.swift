import CEtPan
import TriageCore
#if canImport(Glibc)
import Glibc
#endif

/// Copies header fields into a `Message`.
///
/// The header block is read by libetpan as raw name/value fields
/// (`mailimf_optional_fields_parse`); each field triage needs is then parsed
/// with libetpan's grammar for it (address lists, date-time, msg-id lists).
/// When a header occurs more than once the first one wins (as `msg[name]` in
/// Python's `email`), except `To`, `Cc`, `Bcc` and `Delivered-To`, whose every
/// occurrence is read, in order: RFC 5322 allows one of each, but mail from real
/// MTAs and lists has several, and mail clients show them all. A value the grammar
/// refuses is recovered as well as possible rather than dropped.
struct HeaderReader {
    /// One bit per entry of `names`: whether that header was already read.
    private var seen: UInt32 = 0
    /// The unsubscribe fields seen so far (`UnsubscribeHeaders`), kept only when
    /// the message turns out to have `List-Unsubscribe`.
    private var listUnsubscribe: String?
    private var listUnsubscribePost: String?
    private var authenticationResults: [String] = []
    private var dkimSignatures: [String] = []

    /// Reads `fields` into `message`; the fields named in `keeping` (lower-case) are
    /// also copied whole, decoded, into `message.headers`. Returns whether a field's
    /// name starts with `Content-` (those shape the MIME structure).
    @discardableResult
    static func read(_ fields: UnsafeMutablePointer<mailimf_fields>, keeping: [String] = [], into message: inout Message) -> Bool {
        var reader = HeaderReader()
        var content = false
        for field in CList.items(fields.pointee.fld_list, as: mailimf_field.self)
        where field.pointee.fld_type == Int32(MAILIMF_FIELD_OPTIONAL_FIELD) {
            guard let optional = field.pointee.fld_data.fld_optional_field else { continue }
            if !content, let raw = optional.pointee.fld_name { content = strncasecmp(raw, "content-", 8) == 0 }
            if !keeping.isEmpty, let raw = optional.pointee.fld_name {
                let name = String(cString: raw)
                if keeping.contains(name.lowercased()) {
                    message.headers.append(HeaderField(name, HeaderText.decode(CString.bytes(optional.pointee.fld_value))))
                }
            }
            // Only the values of headers triage reads are copied (not Received, DKIM, ...).
            guard let name = knownName(optional.pointee.fld_name) else { continue }
            reader.read(name: name, value: CString.bytes(optional.pointee.fld_value), into: &message)
        }
        if let unsubscribe = reader.listUnsubscribe {
            message.unsubscribeHeaders = UnsubscribeHeaders(listUnsubscribe: unsubscribe, post: reader.listUnsubscribePost,
                                                            authenticationResults: reader.authenticationResults,
                                                            dkimSignatures: reader.dkimSignatures)
        }
        return content
    }

    private mutating func first(_ name: String) -> Bool {
        guard let index = Self.names.firstIndex(of: name) else { return true }
        let bit: UInt32 = 1 << UInt32(index)
        defer { seen |= bit }
        return seen & bit == 0
    }

    private mutating func read(name: String, value: [UInt8], into message: inout Message) {
        switch name {
        case "delivered-to":
            let text = Self.unbracketed(HeaderText.plain(value))
            if !text.isEmpty { message.deliveredTo.append(text) }
        case "list-id":
            guard first(name) else { return }
            let text = HeaderText.decode(value)
            if let open = text.lastIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
                message.listID = Self.nonEmpty(String(text[text.index(after: open)..<close]).trimmingASCIIWhitespace())
            } else {
                message.listID = Self.nonEmpty(text)
            }
        case "from":
            if first(name) { message.from = AddressReader.parse(value) }
        case "to":
            message.to += AddressReader.parse(value)
        case "cc":
            message.cc += AddressReader.parse(value)
        case "bcc":
            message.bcc += AddressReader.parse(value)
        case "reply-to":
            if first(name) { message.replyTo = AddressReader.parse(value) }
        case "subject":
            if first(name) { message.subject = HeaderText.decode(value) }
        case "date":
            if first(name) { message.date = Self.date(value) }
        case "message-id":
            if first(name) { message.messageID = Self.nonEmpty(Self.ids(value).first) }
        case "in-reply-to":
            if first(name) { message.inReplyTo = Self.nonEmpty(Self.bracketedIDs(value).first) }
        case "references":
            if first(name) { message.references = Self.bracketedIDs(value) }
        case "list-unsubscribe":
            if first(name) { listUnsubscribe = Self.raw(value) }
        case "list-unsubscribe-post":
            if first(name) { listUnsubscribePost = Self.raw(value) }
        case "authentication-results":
            if authenticationResults.count < UnsubscribeHeaders.fieldLimit { authenticationResults.append(Self.raw(value)) }
        case "dkim-signature":
            if dkimSignatures.count < UnsubscribeHeaders.fieldLimit { dkimSignatures.append(Self.raw(value)) }
        default:
            break
        }
    }

    private static let names = ["from", "to", "cc", "bcc", "reply-to", "subject", "date", "message-id",
                                "in-reply-to", "references", "list-id", "delivered-to",
                                "list-unsubscribe", "list-unsubscribe-post", "authentication-results", "dkim-signature"]
    private static let nameBytes = names.map { Array($0.utf8) }

    /// The lower-cased name if it is one triage reads, else nil. Header names are
    /// ASCII: compared case-insensitively in place, without building a String.
    private static func knownName(_ raw: UnsafeMutablePointer<CChar>?) -> String? {
        guard let raw else { return nil }
        let length = strlen(raw)
        return raw.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            for (index, candidate) in nameBytes.enumerated() where candidate.count == length {
                var equal = true
                for i in 0..<length where bytes[i] | 0x20 != candidate[i] {
                    equal = false
                    break
                }
                if equal { return names[index] }
            }
            return nil
        }
    }

    /// A field value as written, unfolded (line breaks as spaces), at most
    /// `UnsubscribeHeaders.valueLimit` bytes; bytes beyond ASCII are replaced.
    private static func raw(_ value: [UInt8]) -> String {
        String(decoding: value.prefix(UnsubscribeHeaders.valueLimit).map { $0 == 13 || $0 == 10 || $0 == 9 ? 32 : $0 },
               as: UTF8.self)
    }

    /// The Date header through `mailimf_date_time_parse`; nil when unreadable.
    private static func date(_ raw: [UInt8]) -> MessageDate? {
        // The value without comments only when the value as written does not parse.
        for attempt in 0..<2 {
            let candidate = attempt == 0 ? raw : HeaderComments.strip(raw)
            var index = 0
            var dateTime: UnsafeMutablePointer<mailimf_date_time>?
            let status = candidate.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    mailimf_date_time_parse(chars.baseAddress, chars.count, &index, &dateTime)
                }
            }
            if status == Int32(MAILIMF_NO_ERROR), let dateTime {
                defer { mailimf_date_time_free(dateTime) }
                var value = dateTime.pointee
                if isUniversalZone(raw) { value.dt_zone = 0 }
                return date(value)
            }
        }
        return nil
    }

    /// Whether the zone after the time is `UT` or `UTC`: libetpan reads both as
    /// +0001 (one minute off). RFC 5322 §4.3 makes `UT` +0000; `UTC`, not in the
    /// grammar but common, means the same (as in Python's `email`).
    private static func isUniversalZone(_ raw: [UInt8]) -> Bool {
        let text = HeaderComments.strip(raw)
        guard let lastDigit = text.lastIndex(where: { (0x30...0x39).contains($0) }) else { return false }
        let zone = text[(lastDigit + 1)...].filter { $0 > 0x20 }.map { $0 | 0x20 }
        return zone == Array("ut".utf8) || zone == Array("utc".utf8)
    }

    /// Converts libetpan's broken-down date; nil for impossible values.
    static func date(_ dt: mailimf_date_time) -> MessageDate? {
        var year = Int(dt.dt_year)
        // RFC 5322 obsolete two- and three-digit years.
        if year < 50 { year += 2000 } else if year < 1000 { year += 1900 }
        let zone = Int(dt.dt_zone)
        guard (1...12).contains(Int(dt.dt_month)), (1...31).contains(Int(dt.dt_day)),
              (0...23).contains(Int(dt.dt_hour)), (0...59).contains(Int(dt.dt_min)),
              (0...60).contains(Int(dt.dt_sec)), year <= 9999,
              abs(zone) <= 9959, abs(zone) % 100 < 60 else { return nil }
        let offset = (zone < 0 ? -1 : 1) * (abs(zone) / 100 * 3600 + abs(zone) % 100 * 60)
        return MessageDate(year: year, month: Int(dt.dt_month), day: Int(dt.dt_day),
                           hour: Int(dt.dt_hour), minute: Int(dt.dt_min), second: min(Int(dt.dt_sec), 59),
                           utcOffsetSeconds: offset)
    }

    /// Message ids without brackets: libetpan's `msg-id` list grammar, else the
    /// text inside each `<...>`, else the whitespace-separated words.
    private static func ids(_ raw: [UInt8]) -> [String] {
        var index = 0
        var list: UnsafeMutablePointer<clist>?
        let status = raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                mailimf_msg_id_list_parse(chars.baseAddress, chars.count, &index, &list)
            }
        }
        if status == Int32(MAILIMF_NO_ERROR), let list {
            let ids = CList.strings(list).map(HeaderText.plain)
            CList.items(list, as: CChar.self).forEach { mailimf_msg_id_free($0) }
            clist_free(list)
            if !ids.isEmpty { return ids }
        }
        let text = HeaderText.plain(raw)
        var result = bracketed(text)
        if result.isEmpty {
            // An id missing its closing `>` (`<a@b`) loses the opening `<` as well.
            result = text.split(whereSeparator: { $0.isWhitespace }).compactMap { word in
                let id = word.hasPrefix("<") ? word.dropFirst() : word[...]
                return id.isEmpty ? nil : String(id)
            }
        }
        return result
    }

    /// The ids of In-Reply-To or References: only what stands in `<...>`
    /// (RFC 5322 §3.6.4), comments left out. Older mail writes a phrase there
    /// (`Jim's message of "Tue, 3 Sep"`); its words are no ids, and taking them
    /// as ids would thread unrelated mail together.
    private static func bracketedIDs(_ raw: [UInt8]) -> [String] {
        bracketed(HeaderText.plain(HeaderComments.strip(raw)))
    }

    /// What stands inside each `<...>` of `text`, white space removed.
    private static func bracketed(_ text: String) -> [String] {
        var result: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let id = rest[rest.index(after: open)..<close].filter { !$0.isWhitespace }
            if !id.isEmpty { result.append(String(id)) }
            rest = rest[rest.index(after: close)...]
        }
        return result
    }

    private static func unbracketed(_ text: String) -> String {
        let trimmed = text.trimmingASCIIWhitespace()
        if trimmed.hasPrefix("<"), trimmed.hasSuffix(">"), trimmed.count >= 2 {
            return String(trimmed.dropFirst().dropLast()).trimmingASCIIWhitespace()
        }
        return trimmed
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
