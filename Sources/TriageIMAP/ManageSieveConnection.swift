import CEtPan
import Foundation
import Glibc
import TriageCore

/// A ManageSieve session (RFC 5804) over libetpan's stream: STARTTLS with the same
/// certificate check as IMAP (`StreamCertificate`, before any credential is sent),
/// SASL PLAIN, and the few commands `triage deploy sieve` needs. Answers are read by
/// `ManageSieveReader` (bounded in size, lines and literal lengths); each read is
/// bounded in time, and each answer by a deadline (`StreamGuard`).
public final class ManageSieveConnection {
    /// `host:port`, for messages.
    public let serverName: String
    private let host: String
    private var stream: UnsafeMutablePointer<mailstream>?
    private var sniHost: UnsafeMutablePointer<CChar>?
    /// Capabilities of the last greeting (`SIEVE`, `STARTTLS`, `SASL` ...), upper-cased names.
    public private(set) var capabilities: [String: String] = [:]
    /// Drops the connection when one answer goes on past a deadline (a server that
    /// drips a byte at a time would otherwise hold every read just under the timeout).
    private var streamGuard: StreamGuard?
    /// Set once an answer could not be read: the session is out of step, so `close`
    /// sends no LOGOUT and waits for no answer.
    private var broken = false

    private init(host: String, port: UInt16) {
        self.host = host
        serverName = "\(host):\(port)"
    }

    deinit {
        close()
        free(sniHost)
    }

    /// Connects to `host:port`, upgrades with STARTTLS (refused without it), verifies
    /// the certificate with `caFile` as an extra anchor, and logs in with `credential`.
    public static func connect(host: String, port: UInt16, credential: MailCredential, caFile: String?,
                               timeout: Int = 30) throws -> ManageSieveConnection {
        let connection = ManageSieveConnection(host: host, port: port)
        do {
            try connection.open(port: port, timeout: timeout)
            try connection.startTLS(caFile: caFile, timeout: timeout)
            try connection.logIn(credential)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    /// The user's scripts, with which one is active.
    public func scripts() throws -> [(name: String, active: Bool)] {
        let answer = try command("LISTSCRIPTS")
        guard answer.ok else { throw refusal("LISTSCRIPTS", answer) }
        return answer.stringLines.map { line in (line.strings[0], line.atoms.first?.uppercased() == "ACTIVE") }
    }

    /// Uploads `content` as the script `name` (replacing a script of that name only).
    /// The server checks it first: a script it refuses is not stored.
    public func putScript(_ name: String, content: String) throws {
        let bytes = Array(content.utf8)
        let answer = try command("PUTSCRIPT \(Self.quote(name)) {\(bytes.count)+}", literal: bytes)
        guard answer.ok else { throw refusal("PUTSCRIPT", answer) }
    }

    /// Makes `name` the active script (the one run at delivery).
    public func setActive(_ name: String) throws {
        let answer = try command("SETACTIVE \(Self.quote(name))")
        guard answer.ok else { throw refusal("SETACTIVE", answer) }
    }

    /// Ends the session politely; never throws, safe to call twice.
    public func close() {
        guard let stream else { return }
        if !broken {
            _ = try? send("LOGOUT\r\n")
            _ = try? readAnswer()
        }
        StreamGuard.detach(from: stream)
        mailstream_close(stream)
        self.stream = nil
    }

    // MARK: - Session

    private func open(port: UInt16, timeout: Int) throws {
        let fd: Int32
        do throws(PortProbe.Failure) {
            fd = try PortProbe.connect(host: host, port: port, timeout: Double(max(1, timeout)))
        } catch {
            switch error {
            case .unresolved(let reason): throw MailError(.connect, server: serverName, "cannot resolve the host name \(host) (\(reason))")
            case .unreachable(let reason):
                throw MailError(.connect, server: serverName, "nothing accepts ManageSieve connections on port \(port) (\(reason)); "
                                + "check sieve_port in the account (4190 is usual) and that the server offers ManageSieve")
            case .timedOut: throw MailError(.timeout, server: serverName, "no connection within \(timeout) s")
            }
        }
        guard let stream = mailstream_socket_open_timeout(fd, time_t(max(1, timeout))) else {
            Glibc.close(fd)
            throw MailError(.protocol, server: serverName, "out of memory")
        }
        self.stream = stream
        let streamGuard = StreamGuard(tracer: nil, maxBytes: 2 * ManageSieveReader.maxAnswerBytes,
                                      deadline: .seconds(max(1, timeout) * IMAPConnection.deadlineFactor))
        streamGuard.attach(to: stream)
        self.streamGuard = streamGuard
        let greeting = try readAnswer()
        guard greeting.ok else { throw refusal("the greeting", greeting) }
        readCapabilities(greeting)
    }

    /// STARTTLS by hand, refusing bytes sent before the handshake (as IMAP does).
    private func startTLS(caFile: String?, timeout: Int) throws {
        guard capabilities["STARTTLS"] != nil else {
            throw MailError(.tls, server: serverName, "the server does not offer STARTTLS; triage never logs in without TLS")
        }
        let answer = try command("STARTTLS")
        guard answer.ok, let stream else { throw refusal("STARTTLS", answer) }
        guard stream.pointee.read_buffer_len == 0 else {
            throw MailError(.tls, server: serverName, "the server sent bytes before the TLS handshake (a STARTTLS injection); not logging in")
        }
        sniHost = strdup(host)
        let setServerName: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { context, data in
            guard let context, let data else { return }
            _ = mailstream_ssl_set_server_name(context, data.assumingMemoryBound(to: CChar.self))
        }
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        let low = mailstream_get_low(stream)
        let fd = mailstream_low_get_fd(low)
        guard fd >= 0, let secured = mailstream_low_tls_open_with_callback_timeout(
            fd, time_t(max(1, timeout)), setServerName, isAddress ? nil : UnsafeMutableRawPointer(sniHost)) else {
            throw MailError(.tls, server: serverName, "the TLS handshake after STARTTLS failed")
        }
        mailstream_low_free(low)
        mailstream_set_low(stream, secured)
        try StreamCertificate.verify(stream, caFile: caFile, host: host, server: serverName)
        // RFC 5804: the server sends its capabilities again after the handshake.
        let again = try readAnswer()
        guard again.ok else { throw refusal("the capabilities after STARTTLS", again) }
        readCapabilities(again)
    }

    private func logIn(_ credential: MailCredential) throws {
        guard case .password(let password) = credential.method else {
            throw MailError(.configuration, server: serverName, "ManageSieve login takes a password here, not an OAuth2 token")
        }
        let mechanisms = (capabilities["SASL"] ?? "").uppercased().split(separator: " ")
        guard mechanisms.contains("PLAIN") else {
            throw MailError(.configuration, server: serverName, "the server offers no SASL PLAIN login (it offers \(capabilities["SASL"] ?? "none"))")
        }
        let token = Data(([0] + Array(credential.user.utf8) + [0] + Array(password.utf8))).base64EncodedString()
        let answer = try command("AUTHENTICATE \"PLAIN\" \(Self.quote(token))")
        guard answer.ok else {
            throw MailError(.authentication, server: serverName, "the server refused the login of \(credential.user) (\(answer.text))")
        }
    }

    /// `"NAME" ["VALUE"]` lines (RFC 5804 single-capability).
    private func readCapabilities(_ answer: ManageSieveAnswer) {
        capabilities = [:]
        for line in answer.stringLines {
            capabilities[line.strings[0].uppercased()] = line.strings.count > 1 ? line.strings[1] : ""
        }
    }

    // MARK: - Protocol

    private func command(_ line: String, literal: [UInt8]? = nil) throws -> ManageSieveAnswer {
        try send(line + "\r\n")
        if let literal {
            try send(bytes: literal)
            try send("\r\n")
        }
        return try readAnswer()
    }

    private func send(_ text: String) throws {
        try send(bytes: Array(text.utf8))
    }

    private func send(bytes: [UInt8]) throws {
        guard let stream else { throw MailError(.connect, server: serverName, "the connection is closed") }
        let written = bytes.withUnsafeBytes { mailstream_write(stream, $0.baseAddress, $0.count) }
        guard written == bytes.count, mailstream_flush(stream) == 0 else {
            throw MailError(.connect, server: serverName, "the connection closed while sending")
        }
    }

    /// Reads one answer (`ManageSieveReader`) from the stream, a byte at a time
    /// (libetpan buffers the socket), so nothing after it is taken from the buffer.
    private func readAnswer() throws -> ManageSieveAnswer {
        guard let stream, !broken else { throw MailError(.connect, server: serverName, "the connection is closed") }
        var reader = ManageSieveReader {
            var byte: UInt8 = 0
            return mailstream_read(stream, &byte, 1) == 1 ? byte : nil
        }
        do {
            return try reader.readAnswer()
        } catch {
            broken = true
            switch error {
            case .closed:
                if let reason = streamGuard?.tripped { throw MailError(.protocol, server: serverName, reason) }
                throw MailError(.connect, server: serverName, "the connection closed or timed out while waiting for an answer")
            case .malformed(let what):
                throw MailError(.protocol, server: serverName, "the server's answer is not ManageSieve (RFC 5804): "
                                + "\(ControlCharacters.replaced(in: what)); giving up. Check sieve_port (4190 is usual)")
            case .tooLong(let what):
                throw MailError(.protocol, server: serverName, "the server sent \(what); giving up")
            }
        }
    }

    private func refusal(_ what: String, _ answer: ManageSieveAnswer) -> MailError {
        MailError(.refused, server: serverName, "the server refused \(what): \(answer.text.isEmpty ? "(no reason given)" : answer.text)")
    }

    /// A quoted string (`\` and `"` escaped).
    static func quote(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
