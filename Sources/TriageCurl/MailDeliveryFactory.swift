import TriageCore

/// Makes the `MailDelivery` for a `[digest] smtp` endpoint, so the digest code
/// never needs to know whether it writes files or talks SMTP.
public enum MailDeliveryFactory {
    /// The delivery for `endpoint`; credentials and trust apply to SMTP only.
    public static func make(_ endpoint: DeliveryEndpoint, credentials: SMTPCredentials? = nil,
                            trust: TLSTrust = TLSTrust(), connectTimeout: Double = 20,
                            timeout: Double = 120) -> any MailDelivery {
        switch endpoint {
        case .smtps(let host, let port):
            return SMTPSender(host: host, port: port, security: .implicitTLS, credentials: credentials,
                              trust: trust, connectTimeout: connectTimeout, timeout: timeout)
        case .smtp(let host, let port):
            return SMTPSender(host: host, port: port, security: .startTLS, credentials: credentials,
                              trust: trust, connectTimeout: connectTimeout, timeout: timeout)
        case .directory(let path):
            return FileDelivery(directory: path)
        }
    }
}
