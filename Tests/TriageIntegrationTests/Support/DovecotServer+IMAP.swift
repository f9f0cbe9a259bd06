import TriageCore
import TriageIMAP

extension DovecotServer {
    /// Settings to reach this server as `user`, by default over imaps:// to
    /// localhost with the test CA as `caFile`.
    func settings(user: String, host: String = "localhost", scheme: MailServerURL.Scheme = .imaps,
                  password: String = DovecotServer.password, caFile: String?? = nil,
                  trace: TraceRecorder? = nil) -> IMAPSettings {
        let port = scheme == .imaps ? imapsPort : imapPort
        var settings = IMAPSettings(url: MailServerURL(scheme: scheme, host: host, port: port),
                                    credential: .password(user: user, password),
                                    caFile: caFile ?? self.caFile, trace: trace?.sink)
        settings.connectTimeout = 5
        settings.commandTimeout = 10
        return settings
    }

    /// A logged-in connection as `user`.
    func connect(user: String, host: String = "localhost", scheme: MailServerURL.Scheme = .imaps) throws -> IMAPConnection {
        try IMAPConnection.connect(settings(user: user, host: host, scheme: scheme))
    }
}
