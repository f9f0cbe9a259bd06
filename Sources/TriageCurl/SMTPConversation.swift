import CCurl

/// Follows libcurl's view of an SMTP session to tell which step failed: the
/// last command sent (its verb only) and the server's last reply.
///
/// What the client sends during AUTH (user name and password, Base64) is never
/// looked at beyond knowing that AUTH is in progress.
final class SMTPConversation {
    /// Whether the TCP connection was established.
    private(set) var connected = false
    /// The step of the last command sent.
    private(set) var step: SMTPStep = .connect
    /// The recipient of the last `RCPT TO`.
    private(set) var lastRecipient: String?
    /// The server's last reply line, printable ASCII, shortened.
    private(set) var lastReply: String?
    /// Whether the server's greeting arrived.
    private(set) var greeted = false

    private var inAuthExchange = false
    private var quitting = false

    func observe(_ type: curl_infotype, _ text: String) {
        if type == CURLINFO_TEXT {
            if text.hasPrefix("Connected to ") { connected = true }
            return
        }
        if type == CURLINFO_HEADER_IN {
            let line = Self.printable(text)
            if line.isEmpty || quitting { return }
            lastReply = line
            greeted = true
            // 334 is a SASL challenge: the client's next lines are AUTH data.
            inAuthExchange = step == .authentication && line.hasPrefix("334")
            return
        }
        guard type == CURLINFO_HEADER_OUT, !inAuthExchange else { return }
        // Scalars, not Characters: "\r\n" is one Character and would stick to the verb.
        let verb = String(String.UnicodeScalarView(text.unicodeScalars.prefix { $0 != " " && $0 != "\r" && $0 != "\n" })).uppercased()
        switch verb {
        case "EHLO", "HELO": step = .greeting
        case "STARTTLS": step = .startTLS
        case "AUTH": step = .authentication
        case "MAIL": step = .sender
        case "RCPT":
            step = .recipient
            if let open = text.firstIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
                lastRecipient = String(text[text.index(after: open)..<close])
            }
        case "DATA": step = .data
        case "QUIT": quitting = true  // the failed step stays the one to report
        default: break
        }
    }

    /// A reply line as printable ASCII, at most 200 characters.
    static func printable(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.filter { $0.value >= 32 && $0.value < 127 }.prefix(200).map(Character.init))
        return cleaned.trimmingSpaces
    }
}
