import CCurl
import TriageCore

/// Sends a composed message through an SMTP server with libcurl.
///
/// - `smtps://` is TLS from the first byte; `smtp://` must upgrade with
///   STARTTLS (`CURLUSESSL_ALL`): a server that does not offer it is refused
///   before anything, credentials included, is sent.
/// - The certificate chain is verified against the system trust plus the
///   optional CA file, and the host name is checked, by the policy IMAP uses
///   too (`CertificatePolicy` through `TLSGate`), before AUTH is sent.
/// - AUTH uses the given credentials (libcurl picks the mechanism).
/// - Failures are `MailDeliveryError`s naming the step and server (exit 75;
///   77 for refused credentials, 78 for smtps:// on a STARTTLS port).
public struct SMTPSender: MailDelivery {
    /// Implicit TLS (`smtps://`) or STARTTLS (`smtp://`).
    public enum Security: Sendable, Hashable {
        /// TLS from the first byte.
        case implicitTLS
        /// Plain connection upgraded with STARTTLS, which is required.
        case startTLS
        /// `[digest] tls = off`: plain SMTP, no TLS at all; only to a loopback host.
        case plain
    }

    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// How TLS starts.
    public var security: Security
    /// The login, or nil to send without AUTH.
    public var credentials: SMTPCredentials?
    /// Trusted certificate authorities.
    public var trust: TLSTrust
    /// Seconds allowed to connect (TCP and TLS handshake).
    public var connectTimeout: Double
    /// Seconds allowed for the whole session.
    public var timeout: Double

    /// Creates a sender.
    public init(host: String, port: Int, security: Security, credentials: SMTPCredentials? = nil,
                trust: TLSTrust = TLSTrust(), connectTimeout: Double = 20, timeout: Double = 120) {
        self.host = host
        self.port = port
        self.security = security
        self.credentials = credentials
        self.trust = trust
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// `host:port`, for messages.
    public var server: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// The URL handed to libcurl.
    var url: String {
        (security == .implicitTLS ? "smtps://" : "smtp://") + server
    }

    public func deliver(_ message: ComposedMessage) throws {
        if security == .plain && !MailServerURL.isLoopback(host: host) {
            // The configuration refuses this already; checked here too, where the bytes go.
            throw MailDeliveryError(step: .tlsMode, server: server,
                message: "tls = off is only allowed for a loopback host, not \(host): triage never sends mail in clear "
                    + "text over the network. Remove tls = off from [digest]. Nothing was sent.")
        }
        if let caFile = trust.caFile, !FileSystem.isReadableFile(caFile) {
            throw MailDeliveryError(step: .tls, server: server,
                message: "cannot read the CA file \(caFile) for the SMTP server \(server); check [digest] ca_file")
        }
        guard let curl = CurlEasy() else {
            throw MailDeliveryError(step: .other, server: server, message: "libcurl could not start a session for \(server)")
        }
        let conversation = SMTPConversation()
        curl.observe { conversation.observe($0, $1) }
        do {
            try curl.set(CURLOPT_URL, url)
            try curl.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
            if security == .plain {
                try curl.set(CURLOPT_USE_SSL, Int(CURLUSESSL_NONE.rawValue))
                try curl.set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
                try curl.set(CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
            } else {
                try curl.set(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))
                try curl.setVerifiedTLS(trust, host: host, implicitTLS: security == .implicitTLS, required: true,
                                        connectTimeout: connectTimeout, timeout: timeout)
            }
            if let credentials {
                try curl.set(CURLOPT_USERNAME, credentials.user)
                try curl.set(CURLOPT_PASSWORD, credentials.password)
            }
            try curl.set(CURLOPT_MAIL_FROM, "<\(message.envelopeFrom)>")
            try curl.set(CURLOPT_MAIL_RCPT, list: message.envelopeTo.map { "<\($0)>" })
            try curl.setUpload(message.bytes)
        } catch let error as CurlEasy.OptionError {
            throw MailDeliveryError(step: .other, server: server,
                message: "libcurl refused an SMTP option for \(server): \(String(cString: curl_easy_strerror(error.code)))")
        }
        let (code, text) = curl.perform()
        if let refusal = curl.tlsRefusal {
            // The gate shut the connection after the handshake: nothing of ours was sent.
            throw MailDeliveryError(step: .tls, server: server,
                message: "TLS with the SMTP server \(server) failed: \(refusal.reason). Nothing was sent; the next run retries.")
        }
        guard code != CURLE_OK else { return }
        throw Self.error(code: code, curlMessage: text, conversation: conversation, server: server,
                         user: credentials?.user, secret: credentials?.password, sender: message.envelopeFrom,
                         implicitTLS: security == .implicitTLS)
    }

    /// Turns a libcurl failure into a message that names the step and the server.
    static func error(code: CURLcode, curlMessage: String, conversation: SMTPConversation, server: String,
                      user: String?, secret: String?, sender: String, implicitTLS: Bool = false) -> MailDeliveryError {
        let reply = conversation.lastReply.map { " (server said: \($0))" } ?? ""
        let retry = " Nothing was sent; the next run retries."
        var step: MailDeliveryError.Step
        var message: String
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            step = .resolve
            message = "cannot resolve the SMTP server \(server): \(curlMessage). Check [digest] smtp and the network." + retry
        case CURLE_COULDNT_CONNECT:
            step = .connect
            message = "cannot connect to the SMTP server \(server): \(curlMessage). Check the host and port in [digest] smtp." + retry
        case CURLE_USE_SSL_FAILED:
            step = .startTLS
            message = "the SMTP server \(server) does not offer STARTTLS, which smtp:// requires; refusing to send in "
                + "clear text. Use smtps:// if the server speaks TLS from the start." + retry
        case CURLE_SSL_CONNECT_ERROR where plainTextAnswer(curlMessage) && !conversation.greeted:
            // GnuTLS read "220 ..." as a TLS record: the port greets in plain text.
            step = .tlsMode
            message = "the SMTP server \(server) answered in plain text, not with TLS: smtps:// is for ports that speak "
                + "TLS from the first byte (usually 465); this looks like a STARTTLS port (usually 587 or 25), so use "
                + "smtp://\(server) in [digest] smtp. Nothing was sent."
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_INITFAILED:
            step = .tls
            message = "the TLS handshake with the SMTP server \(server) failed: \(tlsReason(curlMessage)). Check the port "
                + "and the scheme in [digest] smtp (smtps:// for TLS from the first byte, smtp:// for STARTTLS)." + retry
        case CURLE_LOGIN_DENIED:
            step = .authentication
            message = "the SMTP server \(server) refused authentication" + (user.map { " as \($0)" } ?? "")
                + "\(reply). Check [digest] user and password_command. Nothing was sent."
        case CURLE_OPERATION_TIMEDOUT:
            step = .timeout
            // smtp:// on a port that waits for a TLS handshake looks like a silent server.
            let hint = conversation.connected && !conversation.greeted && !implicitTLS
                ? " If the port expects TLS from the first byte (usually 465), use smtps:// in [digest] smtp." : ""
            message = "the SMTP server \(server) did not answer in time (\(describe(conversation))): \(curlMessage).\(hint)" + retry
        default:
            switch conversation.step {
            case .recipient:
                step = .recipient
                message = "the SMTP server \(server) refused the recipient <\(conversation.lastRecipient ?? "?")>\(reply). "
                    + "Check [digest] to." + retry
            case .sender:
                step = .sender
                message = "the SMTP server \(server) refused the sender <\(sender)>\(reply). Check [digest] from; "
                    + "many servers accept only the login's own address." + retry
            case .data:
                step = .data
                message = "the SMTP server \(server) refused the message\(reply)." + retry
            case .authentication:
                // Not a refusal of the credentials (that is CURLE_LOGIN_DENIED): the connection failed meanwhile.
                step = .other
                message = "authentication with the SMTP server \(server) failed: \(curlMessage)\(reply)." + retry
            case .startTLS:
                step = .tls
                message = "STARTTLS with the SMTP server \(server) failed: \(curlMessage)\(reply)." + retry
            default:
                step = conversation.connected ? .other : .connect
                message = "sending through the SMTP server \(server) failed (\(describe(conversation))): \(curlMessage)\(reply)." + retry
            }
        }
        if let secret, !secret.isEmpty {
            // Belt and braces: a server could echo anything back.
            message = message.replacing(secret, with: "***")
        }
        return MailDeliveryError(step: step, server: server, message: message)
    }

    /// Whether GnuTLS failed because the first bytes were not a TLS record (a plain
    /// text greeting such as "220 ...").
    private static func plainTextAnswer(_ text: String) -> Bool {
        text.contains("unexpected TLS packet") || text.contains("TLS packet with unexpected length")
    }

    /// GnuTLS-build messages end in "CAfile: none CRLfile: none" even when the
    /// system folder is in use; that tail would mislead, so it goes.
    private static func tlsReason(_ text: String) -> String {
        var reason = Substring(text)
        if let tail = reason.firstRange(of: " CAfile:") { reason = reason[..<tail.lowerBound] }
        while reason.last == "." || reason.last == " " { reason = reason.dropLast() }
        return String(reason)
    }

    private static func describe(_ conversation: SMTPConversation) -> String {
        if !conversation.connected { return "while connecting" }
        if !conversation.greeted { return "waiting for the greeting or TLS handshake" }
        switch conversation.step {
        case .connect, .greeting: return "at the greeting"
        case .startTLS: return "during STARTTLS"
        case .authentication: return "during authentication"
        case .sender: return "at MAIL FROM"
        case .recipient: return "at RCPT TO"
        case .data: return "while sending the message"
        }
    }
}
