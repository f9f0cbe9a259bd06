/// `[digest]` keys that the chosen `smtp` never uses: `user`, `password`,
/// `password_command`, `ca_file` and `tls` are for an SMTP server; with
/// `smtp = sendmail` or `file:DIR` they are ignored, and a user who set them
/// believes the digest goes through that server. `triage check` says so.
public enum DigestIgnoredKeys {
    /// The warning for `configuration`, or nil when every key set is used.
    public static func warning(_ configuration: Configuration) -> String? {
        guard let digest = configuration.digest else { return nil }
        let how: String
        switch digest.smtp {
        case .smtps, .smtp: return nil
        case .sendmail(let path): how = "smtp = sendmail (\(path) sends the digest with its own settings)"
        case .directory: how = "smtp = file: (the digest is written to a folder)"
        }
        let set = [("user", digest.user != nil), ("password", digest.password != nil),
                   ("password_command", digest.passwordCommand != nil), ("ca_file", digest.caFile != nil),
                   ("tls", digest.tlsOff)].filter(\.1).map(\.0)
        guard !set.isEmpty else { return nil }
        return "[digest] \(set.joined(separator: ", ")) \(set.count == 1 ? "is" : "are") ignored with \(how); "
            + "remove \(set.count == 1 ? "it" : "them"), or set smtp = smtps://HOST to send through that server"
    }
}
