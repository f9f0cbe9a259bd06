import TriageCore

/// Makes the `MailDelivery` for a `[digest] smtp` endpoint, so the digest code
/// never needs to know whether it writes files or talks SMTP.
public enum MailDeliveryFactory {
    /// The delivery for `endpoint`; credentials, trust and `tlsOff` (`[digest] tls = off`:
    /// plain `smtp://`, loopback only) apply to SMTP only. `smtp = sendmail` runs a program,
    /// which the command line does (`SendmailDelivery`): here it is a delivery that refuses.
    public static func make(_ endpoint: DeliveryEndpoint, credentials: SMTPCredentials? = nil,
                            trust: TLSTrust = TLSTrust(), tlsOff: Bool = false, connectTimeout: Double = 20,
                            timeout: Double = 120) -> any MailDelivery {
        switch endpoint {
        case .smtps(let host, let port):
            return SMTPSender(host: host, port: port, security: .implicitTLS, credentials: credentials,
                              trust: trust, connectTimeout: connectTimeout, timeout: timeout)
        case .smtp(let host, let port):
            return SMTPSender(host: host, port: port, security: tlsOff ? .plain : .startTLS, credentials: credentials,
                              trust: trust, connectTimeout: connectTimeout, timeout: timeout)
        case .directory(let path):
            return FileDelivery(directory: path)
        case .sendmail(let path):
            return NoProgramDelivery(path: path)
        }
    }

    /// What `make` returns for `smtp = sendmail`: this library runs no programs.
    private struct NoProgramDelivery: MailDelivery {
        var path: String
        func deliver(_ message: ComposedMessage) throws {
            throw MailDeliveryError(step: .other, server: path, message: "smtp = sendmail is delivered by the triage command, not here")
        }
    }
}
