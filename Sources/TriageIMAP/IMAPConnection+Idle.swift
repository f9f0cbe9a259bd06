import CEtPan
import Glibc
import TriageCore

/// IDLE (RFC 2177) for `triage watch`: wait on the open mailbox until the server
/// says something, then DONE. The caller waits on `idleDescriptor` itself (poll),
/// so that one thread can watch several connections and a stop signal at once.
extension IMAPConnection {
    /// Whether the server announced IDLE after login.
    public var hasIdle: Bool { capabilities.contains("IDLE") }

    /// Sends IDLE on the open mailbox and reads the server's `+` continuation.
    /// Throws `MailError` as every command does.
    public func startIdle() throws {
        guard selected != nil, session?.pointee.imap_selection_info != nil else {
            throw MailError(.protocol, server: serverName, "IDLE needs an open mailbox")
        }
        do {
            try perform("IDLE", mailbox: selected?.name) { mailimap_idle($0) }
        } catch {
            // Half in IDLE or not: the two sides may disagree; nothing more goes on this session.
            streamBroken = true
            throw error
        }
    }

    /// The socket to wait on (readable: the server said something) while idling; -1 when closed.
    public var idleDescriptor: Int32 {
        guard let session, session.pointee.imap_stream != nil else { return -1 }
        return mailimap_idle_get_fd(session)
    }

    /// Whether bytes the server sent are already read into libetpan's buffer (they
    /// came with the `+` continuation): the socket would not show them as readable.
    public var hasBufferedInput: Bool {
        guard let stream = session?.pointee.imap_stream else { return false }
        return stream.pointee.read_buffer_len > 0
    }

    /// Ends IDLE (DONE) and reads the server's answer, with whatever it announced
    /// meanwhile (EXISTS, EXPUNGE), within the command timeout: a server that does not
    /// answer DONE is a dead connection (`MailError`, kind `.timeout` or `.connect`).
    public func finishIdle() throws {
        do {
            try perform("DONE", mailbox: selected?.name) { mailimap_idle_done($0) }
        } catch {
            streamBroken = true
            throw error
        }
    }
}
