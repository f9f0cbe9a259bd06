import CEtPan
import Glibc
import TriageCore
import TriageMIME

/// What a failure means for the user: libetpan's result codes, the stream guard's
/// verdict and the server's words turned into `MailError`s, and when the stream is
/// out of step so that nothing more may be sent.
extension IMAPConnection {
    /// A command libetpan reports as failed, as `perform` hands it to the mapping.
    struct FailedCommand {
        /// The command as errors name it: the checkpoint name, then the mailbox if any.
        let name: String
        /// libetpan's result code.
        let result: Int32
        /// When the command was sent (a stream error after the whole timeout is a timeout).
        let started: ContinuousClock.Instant
    }

    /// Maps a libetpan result to an error: timeouts and lost connections are 75
    /// like every protocol refusal; the caller refines `NO` answers it understands.
    func commandFailure(_ failed: FailedCommand) -> MailError {
        let command = failed.name
        if let failure = guardFailure(command) { return failure }
        // After a lost stream or an answer that could not be parsed, the two sides no
        // longer agree where one answer ends: send nothing more (not even LOGOUT).
        if failed.result == Int32(MAILIMAP_ERROR_STREAM) || failed.result == Int32(MAILIMAP_ERROR_SSL)
            || failed.result == Int32(MAILIMAP_ERROR_PARSE) { streamBroken = true }
        switch Int(failed.result) {
        case MAILIMAP_ERROR_STREAM:
            if timedOut(since: failed.started, limit: settings.commandTimeout) {
                return MailError(.timeout, server: serverName,
                                 "no answer to \(command) within \(settings.commandTimeout) s; try again later")
            }
            return MailError(.connect, server: serverName, "the connection was lost during \(command); try again later")
        case MAILIMAP_ERROR_PARSE:
            return MailError(.protocol, server: serverName, "could not read the server's answer to \(command)")
        case MAILIMAP_ERROR_SSL:
            return MailError(.tls, server: serverName, "TLS failed during \(command)")
        default:
            let text = responseText()
            return MailError(.protocol, server: serverName,
                             "the server refused \(command)\(text.isEmpty ? "" : ": \(text)")")
        }
    }

    /// Whether `failure` (from `commandFailure`) is the server's refusal of a command
    /// on a stream still in step, after which the session can go on.
    func isRefusal(_ failure: MailError) -> Bool {
        failure.kind == .protocol && !streamBroken
    }

    /// A refused LOGIN or AUTHENTICATE is the credential's fault (77), unless the
    /// server says the refusal is temporary.
    func loginFailure(_ failed: FailedCommand) -> MailError {
        guard failed.result == Int32(MAILIMAP_ERROR_LOGIN) || failed.result == Int32(MAILIMAP_ERROR_SASL) else {
            return commandFailure(failed)
        }
        let text = responseText()
        let line = streamGuard.map { String(decoding: $0.lastLine, as: UTF8.self) } ?? ""
        if let limit = Self.connectionLimit(text: text, line: line) {
            // Not the password's fault: too many connections of this user (from this
            // address) are open already, triage's own among them (issue 26).
            return MailError(.connectionLimit, server: serverName,
                             "the server refused the login for \(settings.credential.user) because too many connections are "
                             + "open already (\(limit)); lower max_connections in this account's section of the "
                             + "configuration (triage watch holds up to that many), close other mail clients, or raise "
                             + "the server's limit (Dovecot: mail_max_userip_connections); try again later")
        }
        // Dovecot says "Temporary authentication failure" when its backend is down.
        if text.lowercased().contains("temporar") || text.uppercased().contains("UNAVAILABLE")
            || line.uppercased().contains("[UNAVAILABLE]") {
            return MailError(.protocol, server: serverName, "login failed for a temporary reason: \(text)")
        }
        return MailError(.authentication, server: serverName,
                         "the server refused the login for \(settings.credential.user)\(text.isEmpty ? "" : " (\(text))"); "
                         + "check the user and the password or token command")
    }

    /// The server's words when a refused login means "too many connections" (Dovecot:
    /// `NO [LIMIT] Maximum number of connections from user+IP exceeded`, or `[UNAVAILABLE]`
    /// in older versions; Cyrus, Courier and others: "Too many connections"), or nil.
    /// `text` is the answer's human text, `line` the start of the tagged line (with its
    /// response code). Nothing a server says reaches the message unescaped.
    static func connectionLimit(text: String, line: String) -> String? {
        let lower = text.lowercased()
        let wording = ["maximum number of connections", "too many connections", "too many simultaneous",
                       "connection limit", "too many open connections", "too many sessions"]
        let code = line.uppercased().contains("[LIMIT]")
        guard code || wording.contains(where: lower.contains) else { return nil }
        let said = ControlCharacters.replaced(in: text.isEmpty ? "[LIMIT]" : text)
        return code && !text.isEmpty ? "[LIMIT] \(said)" : said
    }

    /// A failed STARTTLS: bytes injected before the handshake come first, whatever
    /// libetpan made of them; then a refusal, which means "use imaps://".
    func startTLSFailure(_ failed: FailedCommand, stream: UnsafeMutablePointer<mailstream>) -> MailError {
        if stream.pointee.read_buffer_len != 0 { return injectionError(stream.pointee.read_buffer_len) }
        if failed.result == Int32(MAILIMAP_ERROR_STARTTLS) {
            return MailError(.tls, server: serverName, "the server refused STARTTLS (\(responseText())); use imaps://")
        }
        return commandFailure(failed)
    }

    func injectionError(_ count: Int) -> MailError {
        MailError(.tls, server: serverName,
                  "the server sent \(count) bytes after its STARTTLS answer, before the TLS handshake; refusing "
                  + "them (CVE-2020-15953). Something between you and the server may be tampering with the connection")
    }

    /// A refused SELECT or EXAMINE of a mailbox that does not exist says so.
    func selectFailure(_ failed: FailedCommand, mailbox: String, wire: String) -> MailError {
        let failure = commandFailure(failed)
        if failure.kind == .protocol, (try? folderExists(wire)) == false {
            return MailError(.missingFolder, server: serverName,
                             "mailbox \(mailbox) does not exist; check `mailboxes =` for this account")
        }
        return failure
    }

    /// A refused move (or its STATUS or COPY) into a folder that does not exist says so.
    func moveFailure(_ failed: FailedCommand, folder: String, wire: String) -> MailError {
        let failure = commandFailure(failed)
        guard failure.kind == .protocol else { return failure }
        let tryCreate = session?.pointee.imap_response_info?.pointee.rsp_trycreate ?? 0 != 0
        if tryCreate || (try? folderExists(wire)) == false {
            return missingFolder(folder)
        }
        return failure
    }

    /// A move's target folder that does not exist.
    func missingFolder(_ folder: String) -> MailError {
        MailError(.missingFolder, server: serverName,
                  "folder \(folder) does not exist, so the messages stay where they are; create the folder or fix the rule")
    }

    /// A tagged NO or BAD to STORE is a refusal of this change for these messages
    /// (`.refused`: the run reports them and goes on); anything else (a lost
    /// connection, a timeout, an unreadable answer) stays a temporary failure.
    func storeFailure(_ failed: FailedCommand) -> MailError {
        let failure = commandFailure(failed)
        guard isRefusal(failure) else { return failure }
        // libetpan: NO is ERROR_UID_STORE; BAD is ERROR_PROTOCOL, as is a tag that
        // does not match (a stream out of step, which is no refusal): look at the line.
        let result = failed.result
        let refused = result == Int32(MAILIMAP_ERROR_UID_STORE) || result == Int32(MAILIMAP_ERROR_STORE)
            || (result == Int32(MAILIMAP_ERROR_PROTOCOL) && lastAnswerIsTaggedRefusal())
        return refused ? MailError(.refused, server: serverName, failure.detail) : failure
    }

    /// Whether the last line the server sent is the tagged NO or BAD of the command just sent.
    private func lastAnswerIsTaggedRefusal() -> Bool {
        guard let session, let line = streamGuard?.lastLine else { return false }
        let text = String(decoding: line, as: UTF8.self).uppercased()
        return ["\(session.pointee.imap_tag) ", "C\(session.pointee.imap_tag) "].contains { tag in
            text.hasPrefix(tag + "NO") || text.hasPrefix(tag + "BAD")
        }
    }

    /// The guard's reason when it dropped the connection during `command`.
    private func guardFailure(_ command: String) -> MailError? {
        guard let reason = streamGuard?.tripped else { return nil }
        streamBroken = true
        return MailError(.protocol, server: serverName, "\(reason) (during \(command)); a broken or hostile server, try again later")
    }

    /// The human text of the server's last tagged answer, e.g. "Mailbox doesn't exist".
    func responseText() -> String {
        CString.string(session?.pointee.imap_response) ?? ""
    }

    private func timedOut(since started: ContinuousClock.Instant, limit: Int) -> Bool {
        ContinuousClock.now - started >= .seconds(max(1, limit)) - .milliseconds(500)
    }

    // MARK: - Connecting

    /// What a failed connection (TCP, TLS or the greeting) means for the user.
    func connectFailure(_ result: Int32, started: ContinuousClock.Instant) -> MailError {
        streamBroken = true
        if let failure = guardFailure("the greeting") { return failure }
        let url = settings.url
        switch Int(result) {
        case MAILIMAP_ERROR_CONNECTION_REFUSED:
            if timedOut(since: started, limit: settings.connectTimeout) {
                return MailError(.timeout, server: serverName, "no connection within \(settings.connectTimeout) s; check the network and the port")
            }
            // libetpan says the same for both: ask again to tell the user which.
            do throws(PortProbe.Failure) {
                Glibc.close(try PortProbe.connect(host: url.host, port: url.port, timeout: 2))
            } catch {
                return connectError(error)
            }
            return MailError(.connect, server: serverName, "cannot connect to port \(url.port); try again later")
        case MAILIMAP_ERROR_SSL where timedOut(since: started, limit: settings.connectTimeout):
            return MailError(.timeout, server: serverName, "the TLS handshake did not finish within \(settings.connectTimeout) s; try again later")
        // A plain IMAP server greets at once; a TLS server sends nothing first.
        case MAILIMAP_ERROR_SSL where url.scheme == .imaps && PortProbe.greetsInPlainText(host: url.host, port: url.port, timeout: 1):
            return MailError(.configuration, server: serverName,
                             "port \(url.port) greets in plain text (IMAP with STARTTLS), not with TLS; "
                             + "use imap://\(url.host):\(url.port), or the IMAPS port (usually 993) with imaps://")
        case MAILIMAP_ERROR_SSL:
            return MailError(.tls, server: serverName,
                             "the TLS handshake failed: the connection was cut or port \(url.port) is not "
                             + "\(url.scheme == .imaps ? "IMAPS (TLS)" : "IMAP"); try again later, and check the port if it persists")
        case MAILIMAP_ERROR_DONT_ACCEPT_CONNECTION:
            return MailError(.connect, server: serverName, "the server refused the connection (\(responseText()))")
        case MAILIMAP_ERROR_STREAM:
            if timedOut(since: started, limit: settings.connectTimeout) {
                return MailError(.timeout, server: serverName, "no greeting within \(settings.connectTimeout) s")
            }
            return MailError(.connect, server: serverName, "the connection closed before the server's greeting")
        default:
            return MailError(.protocol, server: serverName, "unexpected greeting (libetpan error \(result))")
        }
    }

    /// What a failed TCP connection means for the user: a name that does not
    /// resolve, a port where nothing listens, or no answer at all.
    func connectError(_ failure: PortProbe.Failure) -> MailError {
        let url = settings.url
        switch failure {
        case .unresolved(let reason):
            return MailError(.connect, server: serverName,
                             "cannot resolve the host name \(url.host) (\(reason)); check the host in the url and the network")
        case .unreachable(let reason):
            return MailError(.connect, server: serverName,
                             "nothing accepts connections on port \(url.port) (\(reason)); check the port in the url "
                             + "(usually 993 for imaps://, 143 for imap://) and that the server is running")
        case .timedOut:
            return MailError(.timeout, server: serverName,
                             "no connection within \(settings.connectTimeout) s; check the network and the port")
        }
    }
}
