import CEtPan
import TriageMIME
#if canImport(Glibc)
import Glibc
#endif

/// Finds attachment names in an IMAP BODYSTRUCTURE, so `has:attachment` is right
/// even when the attachment lies beyond the fetched body prefix.
///
/// Only the walk over the server's structure is here: which part is an
/// attachment and how its name is decoded (RFC 2231 continuations and charsets,
/// RFC 2047 words, raw 8-bit) is TriageMIME's `AttachmentName` and
/// `MIMEParameters`, the same code that reads a saved message, so `triage run`
/// and `triage test` give the same names. Attached messages are walked into, as
/// the MIME parser does.
enum BodyStructureReader {
    static func attachments(_ body: UnsafeMutablePointer<mailimap_body>) -> [String] {
        var names: [String] = []
        walk(body, depth: 0, into: &names)
        return names
    }

    private static func walk(_ body: UnsafeMutablePointer<mailimap_body>, depth: Int, into names: inout [String]) {
        guard depth <= ParserLimits.maxDepth else { return }
        switch Int(body.pointee.bd_type) {
        case MAILIMAP_BODY_MPART:
            guard let multipart = body.pointee.bd_data.bd_body_mpart else { return }
            for part in CList.items(multipart.pointee.bd_list, as: mailimap_body.self) {
                walk(part, depth: depth + 1, into: &names)
            }
        case MAILIMAP_BODY_1PART:
            guard let single = body.pointee.bd_data.bd_body_1part else { return }
            let disposition = single.pointee.bd_ext_1part?.pointee.bd_disposition
            var fields: UnsafeMutablePointer<mailimap_body_fields>?
            var inner: UnsafeMutablePointer<mailimap_body>?
            switch Int(single.pointee.bd_type) {
            case MAILIMAP_BODY_TYPE_1PART_BASIC:
                fields = single.pointee.bd_data.bd_type_basic?.pointee.bd_fields
            case MAILIMAP_BODY_TYPE_1PART_TEXT:
                fields = single.pointee.bd_data.bd_type_text?.pointee.bd_fields
            case MAILIMAP_BODY_TYPE_1PART_MSG:
                fields = single.pointee.bd_data.bd_type_msg?.pointee.bd_fields
                inner = single.pointee.bd_data.bd_type_msg?.pointee.bd_body
            default:
                break
            }
            let dispositionType = disposition?.pointee.dsp_type.map { String(decoding: CString.bytes($0), as: UTF8.self) }
            let name = AttachmentName.of(disposition: dispositionType,
                                         dispositionParameters: parameters(disposition?.pointee.dsp_attributes),
                                         typeParameters: parameters(fields?.pointee.bd_parameter),
                                         isMessage: inner != nil)
            if let name { names.append(name) }
            if let inner { walk(inner, depth: depth + 1, into: &names) }
        default:
            break
        }
    }

    /// A parameter list as the server sent it (attribute and raw value bytes).
    private static func parameters(_ list: UnsafeMutablePointer<mailimap_body_fld_param>?) -> MIMEParameters {
        var result = MIMEParameters()
        guard let list else { return result }
        for param in CList.items(list.pointee.pa_list, as: mailimap_single_body_fld_param.self) {
            result.append(name: CString.bytes(param.pointee.pa_name), value: CString.bytes(param.pointee.pa_value))
        }
        return result
    }
}
