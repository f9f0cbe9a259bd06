/// An account's IMAP server address: `imaps://host[:port]` (TLS from the first
/// byte, default port 993) or `imap://host[:port]` (STARTTLS, default port 143).
public struct MailServerURL: Hashable, Sendable, CustomStringConvertible {
    /// How the connection is secured.
    public enum Scheme: String, Sendable {
        /// Implicit TLS.
        case imaps
        /// STARTTLS (or, with `tls = off` and a loopback host, plain).
        case imap
    }

    /// `imaps` or `imap`.
    public var scheme: Scheme
    /// The host name or IP address, without IPv6 brackets.
    public var host: String
    /// The TCP port.
    public var port: UInt16

    /// Creates an address.
    public init(scheme: Scheme, host: String, port: UInt16? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port ?? (scheme == .imaps ? 993 : 143)
    }

    /// Parses `imaps://host[:port]` or `imap://host[:port]` (an IPv6 host in
    /// brackets); a trailing `/` is allowed. Throws a `.configuration` `MailError`.
    public static func parse(_ text: String) throws -> MailServerURL {
        func bad(_ why: String) -> MailError {
            MailError(.configuration, server: text, "\(why); write imaps://HOST[:PORT] or imap://HOST[:PORT]")
        }
        let scheme: Scheme
        var rest: Substring
        if text.hasPrefix("imaps://") {
            scheme = .imaps
            rest = text.dropFirst(8)
        } else if text.hasPrefix("imap://") {
            scheme = .imap
            rest = text.dropFirst(7)
        } else {
            throw bad("not an IMAP URL")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("@"), !rest.contains("?") else {
            throw bad("a user name, path or query does not belong in the URL")
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw bad("unclosed [ in the host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw bad("junk after the host") }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw bad("no host") }
        var port: UInt16?
        if let portText {
            guard let value = UInt16(portText), value > 0 else { throw bad("bad port '\(portText)'") }
            port = value
        }
        return MailServerURL(scheme: scheme, host: String(host), port: port)
    }

    /// Whether `host` is this machine's loopback (`localhost`, `127.0.0.0/8`, `::1`),
    /// the only place a plain connection (`tls = off`) may go.
    public var isLoopback: Bool { Self.isLoopback(host: host) }

    /// Whether `host` names this machine's loopback (`localhost`, `127.0.0.0/8`, `::1`).
    public static func isLoopback(host: String) -> Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower == "localhost." || lower == "::1" { return true }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `host:port`, the name errors and traces use.
    public var serverName: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public var description: String { "\(scheme.rawValue)://\(serverName)" }
}
