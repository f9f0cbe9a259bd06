import CEtPan
import TriageMIME

/// Finds attachment names in an IMAP BODYSTRUCTURE, so `has:attachment` is right
/// even when the attachment lies beyond the fetched body prefix.
///
/// A part is an attachment when its disposition is `attachment`, or when it has a
/// file name (disposition `filename`, or content-type `name`); an attached message
/// (`message/rfc822`) without a name counts as `message.eml`. Names are as the
/// server reports them (RFC 2047 encoded-words are left to the caller).
enum BodyStructureReader {
    static func attachments(_ body: UnsafeMutablePointer<mailimap_body>) -> [String] {
        var names: [String] = []
        walk(body, into: &names)
        return names
    }

    private static func walk(_ body: UnsafeMutablePointer<mailimap_body>, into names: inout [String]) {
        switch Int(body.pointee.bd_type) {
        case MAILIMAP_BODY_MPART:
            guard let multipart = body.pointee.bd_data.bd_body_mpart else { return }
            for part in CList.items(multipart.pointee.bd_list, as: mailimap_body.self) {
                walk(part, into: &names)
            }
        case MAILIMAP_BODY_1PART:
            guard let single = body.pointee.bd_data.bd_body_1part else { return }
            let disposition = single.pointee.bd_ext_1part?.pointee.bd_disposition
            let dispositionType = CString.string(disposition?.pointee.dsp_type)?.lowercased()
            let fileName = parameter(disposition?.pointee.dsp_attributes, "filename")
            var fields: UnsafeMutablePointer<mailimap_body_fields>?
            var isMessage = false
            switch Int(single.pointee.bd_type) {
            case MAILIMAP_BODY_TYPE_1PART_BASIC:
                fields = single.pointee.bd_data.bd_type_basic?.pointee.bd_fields
            case MAILIMAP_BODY_TYPE_1PART_TEXT:
                fields = single.pointee.bd_data.bd_type_text?.pointee.bd_fields
            case MAILIMAP_BODY_TYPE_1PART_MSG:
                fields = single.pointee.bd_data.bd_type_msg?.pointee.bd_fields
                isMessage = true
            default:
                break
            }
            let name = fileName ?? parameter(fields?.pointee.bd_parameter, "name")
            if let name, !name.isEmpty {
                names.append(name)
            } else if dispositionType == "attachment" {
                names.append(isMessage ? "message.eml" : "attachment")
            } else if isMessage, dispositionType != "inline" {
                names.append("message.eml")
            }
        default:
            break
        }
    }

    /// A parameter's value by name (case-insensitive), also its RFC 2231 `name*` form.
    private static func parameter(_ list: UnsafeMutablePointer<mailimap_body_fld_param>?, _ wanted: String) -> String? {
        guard let list else { return nil }
        var starred: String?
        for param in CList.items(list.pointee.pa_list, as: mailimap_single_body_fld_param.self) {
            guard let name = CString.string(param.pointee.pa_name)?.lowercased() else { continue }
            let value = CString.string(param.pointee.pa_value)
            if name == wanted { return value }
            if name == wanted + "*" || name == wanted + "*0*" || name == wanted + "*0" { starred = value.map(decode2231) }
        }
        return starred
    }

    /// `utf-8''na%C3%AFve.pdf` → `naïve.pdf` (RFC 2231 extended value, UTF-8 or ASCII only).
    private static func decode2231(_ value: String) -> String {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return value }
        var bytes: [UInt8] = []
        var iterator = Array(parts[2].utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
