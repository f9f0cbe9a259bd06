import CEtPan
import TriageCore

/// Copies the header fields libetpan parsed (`mailimf_fields`) into a `Message`.
///
/// When a header occurs more than once, the first one wins (as in Python's
/// `email`). A header libetpan could not parse with its typed grammar arrives as
/// an optional field under its own name; the address, id and date headers are
/// then recovered from the raw value as well as possible.
struct HeaderReader {
    private var seen: Set<String> = []

    /// Reads `fields` into `message`.
    static func read(_ fields: UnsafeMutablePointer<mailimf_fields>, into message: inout Message) {
        var reader = HeaderReader()
        for field in CList.items(fields.pointee.fld_list, as: mailimf_field.self) {
            reader.read(field, into: &message)
        }
    }

    private mutating func first(_ name: String) -> Bool {
        seen.insert(name).inserted
    }

    private mutating func read(_ field: UnsafeMutablePointer<mailimf_field>, into message: inout Message) {
        let data = field.pointee.fld_data
        switch Int(field.pointee.fld_type) {
        case Int(MAILIMF_FIELD_FROM):
            if first("from") { message.from = AddressReader.mailboxes(data.fld_from?.pointee.frm_mb_list) }
        case Int(MAILIMF_FIELD_TO):
            if first("to") { message.to = AddressReader.addresses(data.fld_to?.pointee.to_addr_list) }
        case Int(MAILIMF_FIELD_CC):
            if first("cc") { message.cc = AddressReader.addresses(data.fld_cc?.pointee.cc_addr_list) }
        case Int(MAILIMF_FIELD_BCC):
            if first("bcc") { message.bcc = AddressReader.addresses(data.fld_bcc?.pointee.bcc_addr_list) }
        case Int(MAILIMF_FIELD_REPLY_TO):
            if first("reply-to") { message.replyTo = AddressReader.addresses(data.fld_reply_to?.pointee.rt_addr_list) }
        case Int(MAILIMF_FIELD_SUBJECT):
            if first("subject") { message.subject = HeaderText.decode(CString.bytes(data.fld_subject?.pointee.sbj_value)) }
        case Int(MAILIMF_FIELD_ORIG_DATE):
            if first("date"), let dateTime = data.fld_orig_date?.pointee.dt_date_time {
                message.date = Self.date(dateTime.pointee)
            }
        case Int(MAILIMF_FIELD_MESSAGE_ID):
            if first("message-id"), let value = data.fld_message_id?.pointee.mid_value {
                message.messageID = Self.nonEmpty(CString.text(value))
            }
        case Int(MAILIMF_FIELD_IN_REPLY_TO):
            if first("in-reply-to") {
                let ids = CList.strings(data.fld_in_reply_to?.pointee.mid_list)
                message.inReplyTo = ids.first.map(CharsetDecoder.decodeUnlabelled)
            }
        case Int(MAILIMF_FIELD_REFERENCES):
            if first("references") {
                message.references = CList.strings(data.fld_references?.pointee.mid_list).map(CharsetDecoder.decodeUnlabelled)
            }
        case Int(MAILIMF_FIELD_OPTIONAL_FIELD):
            if let optional = data.fld_optional_field {
                readOptional(name: CString.bytes(optional.pointee.fld_name),
                             value: CString.bytes(optional.pointee.fld_value), into: &message)
            }
        default:
            break
        }
    }

    private mutating func readOptional(name rawName: [UInt8], value: [UInt8], into message: inout Message) {
        let name = String(decoding: rawName, as: UTF8.self).lowercased()
        switch name {
        case "delivered-to":
            let text = Self.unbracketed(CharsetDecoder.decodeUnlabelled(value))
            if !text.isEmpty { message.deliveredTo.append(text) }
        case "list-id":
            guard first(name) else { return }
            let text = HeaderText.decode(value)
            if let open = text.lastIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
                message.listID = Self.nonEmpty(String(text[text.index(after: open)..<close]).trimmingASCIIWhitespace())
            } else {
                message.listID = Self.nonEmpty(text)
            }
        // The typed grammar failed for these; recover from the raw value.
        case "from":
            if first(name) { message.from = AddressReader.recover(value) }
        case "to":
            if first(name) { message.to = AddressReader.recover(value) }
        case "cc":
            if first(name) { message.cc = AddressReader.recover(value) }
        case "bcc":
            if first(name) { message.bcc = AddressReader.recover(value) }
        case "reply-to":
            if first(name) { message.replyTo = AddressReader.recover(value) }
        case "subject":
            if first(name) { message.subject = HeaderText.decode(value) }
        case "date":
            _ = first(name)   // unreadable date: stays nil, but later Date headers do not count
        case "message-id":
            if first(name) { message.messageID = Self.nonEmpty(Self.firstID(value)) }
        case "in-reply-to":
            if first(name) { message.inReplyTo = Self.nonEmpty(Self.firstID(value)) }
        case "references":
            if first(name) { message.references = Self.ids(value) }
        default:
            break
        }
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

    /// The ids inside `<...>` in a raw value, or the whitespace-separated words when there are none.
    private static func ids(_ raw: [UInt8]) -> [String] {
        let text = CharsetDecoder.decodeUnlabelled(raw)
        var result: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let id = rest[rest.index(after: open)..<close].filter { !$0.isWhitespace }
            if !id.isEmpty { result.append(String(id)) }
            rest = rest[rest.index(after: close)...]
        }
        if result.isEmpty {
            result = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        }
        return result
    }

    private static func firstID(_ raw: [UInt8]) -> String {
        ids(raw).first ?? ""
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
