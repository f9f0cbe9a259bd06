import TriageCore

/// The name under which a MIME part counts as an attachment: the one rule for a
/// message parsed here (`triage test`, Maildir, a fetched body) and for the
/// server's BODYSTRUCTURE (`triage run` over IMAP), so `filename:` and
/// `has:attachment` read the same either way.
public enum AttachmentName {
    /// The part's attachment name, or nil when it is not an attachment.
    ///
    /// A part is an attachment when it has a file name (disposition `filename`,
    /// else content-type `name`, both decoded by `MIMEParameters`), or when its
    /// disposition is `attachment` (named `attachment`); an attached message
    /// (`message/rfc822`) that is not `inline` counts as `message.eml`.
    ///
    /// - Parameters:
    ///   - disposition: the Content-Disposition type, any case (nil: none).
    ///   - isMessage: whether the part is `message/rfc822`.
    public static func of(disposition: String?, dispositionParameters: MIMEParameters,
                          typeParameters: MIMEParameters, isMessage: Bool) -> String? {
        if let name = fileName(dispositionParameters: dispositionParameters, typeParameters: typeParameters) {
            return name
        }
        let disposition = disposition?.trimmingASCIIWhitespace().lowercased()
        if disposition == "attachment" { return isMessage ? "message.eml" : "attachment" }
        if isMessage, disposition != "inline" { return "message.eml" }
        return nil
    }

    /// The decoded file name (disposition `filename`, else content-type `name`),
    /// shown like a header: one line, no controls; nil when absent or blank.
    static func fileName(dispositionParameters: MIMEParameters, typeParameters: MIMEParameters) -> String? {
        guard let name = dispositionParameters.value("filename") ?? typeParameters.value("name") else { return nil }
        let trimmed = ControlCharacters.replaced(in: name).trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}
