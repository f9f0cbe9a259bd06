/// Where the digest goes, parsed from the `[digest] smtp` setting.
public enum DeliveryEndpoint: Hashable, Sendable {
    /// `smtps://host[:port]`: TLS from the first byte (default port 465).
    case smtps(host: String, port: Int)
    /// `smtp://host[:port]`: STARTTLS, which is required (default port 587, submission).
    case smtp(host: String, port: Int)
    /// `file:DIR`: each message written as one `.eml` file into DIR.
    case directory(path: String)
    /// `sendmail` or `sendmail:PATH`: the message piped to the local MTA's
    /// `PATH -t -oi` (default `/usr/sbin/sendmail`).
    case sendmail(path: String)

    /// The program `smtp = sendmail` runs.
    public static let defaultSendmail = "/usr/sbin/sendmail"

    /// Parses `smtps://host[:port]`, `smtp://host[:port]`, `file:DIR`, `sendmail`
    /// or `sendmail:PATH` (an absolute path). Host
    /// may be a name, an IPv4 address or a bracketed IPv6 address. Credentials,
    /// paths and queries in the URL are refused (use `user` and `password_command`).
    public init(parsing text: String) throws {
        func fail(_ why: String, echo: Bool = true) -> ConfigError {
            let shown = echo ? " = " + MailText.neutralizingControls(text) : ""
            return ConfigError([ConfigProblem(path: "[digest]", line: 0, message: "smtp\(shown): \(why)")])
        }
        if text.hasPrefix("file:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw fail("file: needs a folder, e.g. file:/var/mail/triage") }
            self = .directory(path: path)
            return
        }
        if text == "sendmail" {
            self = .sendmail(path: Self.defaultSendmail)
            return
        }
        if text.hasPrefix("sendmail:") {
            let path = String(text.dropFirst(9))
            guard path.hasPrefix("/") else { throw fail("sendmail: needs the program's absolute path, e.g. sendmail:/usr/sbin/sendmail") }
            self = .sendmail(path: path)
            return
        }
        let secure: Bool
        let rest: Substring
        if text.hasPrefix("smtps://") { secure = true; rest = text.dropFirst(8) }
        else if text.hasPrefix("smtp://") { secure = false; rest = text.dropFirst(7) }
        else { throw fail("expected smtps://host[:port], smtp://host[:port], file:DIR, sendmail or sendmail:PATH") }

        var authority = rest
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        if authority.contains("@") { throw fail("put the login in 'user' and the password in 'password_command', not in the URL", echo: false) }
        if authority.contains(where: { "/?#".contains($0) }) { throw fail("only a host and an optional port are allowed") }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail("unclosed '[' in the IPv6 address") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 address") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw fail("'\(host)' is not an IPv6 address")
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw fail("write an IPv6 address in brackets, e.g. smtp://[::1]:587") }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty, host.utf8.allSatisfy({ b in
                (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || (b >= 48 && b <= 57) || b == 45 || b == 46 || b == 95
            }) else { throw fail("'\(host)' is not a host name") }
        }
        var port = secure ? 465 : 587
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else { throw fail("'\(portText)' is not a port number") }
            port = p
        }
        self = secure ? .smtps(host: String(host), port: port) : .smtp(host: String(host), port: port)
    }

    /// `host:port` (IPv6 in brackets) or the folder, for messages.
    public var displayName: String {
        switch self {
        case .smtps(let host, let port), .smtp(let host, let port):
            return (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        case .directory(let path), .sendmail(let path):
            return path
        }
    }

    /// The SMTP server's host, for `smtp://` and `smtps://`.
    public var host: String? {
        switch self {
        case .smtps(let host, _), .smtp(let host, _): return host
        case .directory, .sendmail: return nil
        }
    }
}
