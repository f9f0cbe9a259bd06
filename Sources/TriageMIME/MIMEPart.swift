import CEtPan
import TriageCore

/// What one node of libetpan's MIME tree says about itself: content type,
/// charset, disposition and file name.
struct MIMEPart {
    /// `type/subtype`, lower-cased (`text/plain` when the part declares none).
    var contentType = "text/plain"
    /// The `charset` parameter, if any.
    var charset: String?
    /// `format=flowed` (RFC 3676), and its `delsp=yes`.
    var isFlowed = false
    var deletesSpace = false
    /// Whether `Content-Disposition: attachment`.
    var isDispositionAttachment = false
    /// The name under which the part counts as an attachment (`AttachmentName`), or nil.
    var attachmentName: String?

    /// Reads the facts of `mime`.
    init(_ mime: UnsafeMutablePointer<mailmime>) {
        var typeParameters = MIMEParameters()
        if let content = mime.pointee.mm_content_type {
            contentType = Self.typeName(content)
            for parameter in CList.items(content.pointee.ct_parameters, as: mailmime_parameter.self) {
                typeParameters.append(name: CString.bytes(parameter.pointee.pa_name),
                                      value: CString.bytes(parameter.pointee.pa_value))
            }
            charset = typeParameters.value("charset")
            isFlowed = typeParameters.value("format")?.trimmingASCIIWhitespace().lowercased() == "flowed"
            deletesSpace = typeParameters.value("delsp")?.trimmingASCIIWhitespace().lowercased() == "yes"
        }
        var dispositionParameters = MIMEParameters()
        var dispositionType: String?
        if let fields = mime.pointee.mm_mime_fields {
            for field in CList.items(fields.pointee.fld_list, as: mailmime_field.self)
            where field.pointee.fld_type == Int32(MAILMIME_FIELD_DISPOSITION) {
                guard let disposition = field.pointee.fld_data.fld_disposition else { continue }
                if let type = disposition.pointee.dsp_type {
                    switch Int(type.pointee.dsp_type) {
                    case Int(MAILMIME_DISPOSITION_TYPE_ATTACHMENT):
                        isDispositionAttachment = true
                        dispositionType = "attachment"
                    case Int(MAILMIME_DISPOSITION_TYPE_INLINE):
                        dispositionType = "inline"
                    default:
                        dispositionType = CString.text(type.pointee.dsp_extension)
                    }
                }
                for parm in CList.items(disposition.pointee.dsp_parms, as: mailmime_disposition_parm.self) {
                    switch Int(parm.pointee.pa_type) {
                    case Int(MAILMIME_DISPOSITION_PARM_FILENAME):
                        dispositionParameters.append(name: Array("filename".utf8),
                                                     value: CString.bytes(parm.pointee.pa_data.pa_filename))
                    case Int(MAILMIME_DISPOSITION_PARM_PARAMETER):
                        if let p = parm.pointee.pa_data.pa_parameter {
                            dispositionParameters.append(name: CString.bytes(p.pointee.pa_name),
                                                         value: CString.bytes(p.pointee.pa_value))
                        }
                    default:
                        break
                    }
                }
                break
            }
        }
        attachmentName = AttachmentName.of(disposition: dispositionType, dispositionParameters: dispositionParameters,
                                           typeParameters: typeParameters, isMessage: contentType == "message/rfc822")
    }

    private static func typeName(_ content: UnsafeMutablePointer<mailmime_content>) -> String {
        var major = "application"
        if let type = content.pointee.ct_type {
            switch Int(type.pointee.tp_type) {
            case Int(MAILMIME_TYPE_DISCRETE_TYPE):
                if let discrete = type.pointee.tp_data.tp_discrete_type {
                    switch Int(discrete.pointee.dt_type) {
                    case Int(MAILMIME_DISCRETE_TYPE_TEXT): major = "text"
                    case Int(MAILMIME_DISCRETE_TYPE_IMAGE): major = "image"
                    case Int(MAILMIME_DISCRETE_TYPE_AUDIO): major = "audio"
                    case Int(MAILMIME_DISCRETE_TYPE_VIDEO): major = "video"
                    case Int(MAILMIME_DISCRETE_TYPE_APPLICATION): major = "application"
                    default: major = CString.text(discrete.pointee.dt_extension) ?? "application"
                    }
                }
            case Int(MAILMIME_TYPE_COMPOSITE_TYPE):
                if let composite = type.pointee.tp_data.tp_composite_type {
                    switch Int(composite.pointee.ct_type) {
                    case Int(MAILMIME_COMPOSITE_TYPE_MESSAGE): major = "message"
                    case Int(MAILMIME_COMPOSITE_TYPE_MULTIPART): major = "multipart"
                    default: major = CString.text(composite.pointee.ct_token) ?? "application"
                    }
                }
            default:
                break
            }
        }
        let minor = CString.text(content.pointee.ct_subtype) ?? "octet-stream"
        return (major + "/" + minor).lowercased()
    }
}
