import CEtPan
import Glibc
import TriageCore

/// An IMAP session with libetpan: verified TLS, login, and the few commands
/// `triage run` needs, each batch in one command.
///
/// `imaps://` is TLS from the first byte; `imap://` must upgrade with STARTTLS
/// (plain only with `tlsOff` and a loopback host). The certificate chain and host
/// name are verified (`CertificatePolicy`, shared with SMTP) before the credential is sent.
/// Not thread-safe: use one connection from one thread at a time.
///
/// By concern: connecting, TLS, login and logout in `IMAPConnection+Session`; the
/// open mailbox (SELECT, UIDs, FETCH) in `+Mailbox`; folder names, LIST and STATUS
/// in `+Folders`; flags in `+Store`; moves in `+Move`; what a failure means in
/// `+Errors`. Every command goes through `perform`.
public final class IMAPConnection: MailConnection {
    public let serverName: String
    /// Capabilities after login, upper-cased (`MOVE`, `UIDPLUS`, `X-GM-EXT-1`, ...).
    public internal(set) var capabilities: Set<String> = []
    /// Whether the connection is encrypted (false only with `tlsOff`).
    public internal(set) var isEncrypted = false

    let settings: IMAPSettings
    var session: UnsafeMutablePointer<mailimap>?
    var tracer: IMAPTracer?
    /// Limits each answer's size and duration; also feeds the tracer.
    var streamGuard: StreamGuard?
    /// The host name for SNI, alive as long as the session (the TLS callback reads it).
    var sniHost: UnsafeMutablePointer<CChar>?
    var selectedReadOnly = false
    /// The mailbox open now and its UIDVALIDITY, to come back to after a look elsewhere.
    var selected: (name: String, uidValidity: UInt32)?
    /// The personal namespace, asked for the first time a folder other than INBOX is named.
    var namespace: FolderNamespace?
    /// The open mailbox's UIDNEXT (from SELECT or STATUS), 0 when unknown.
    var selectedUIDNext: UInt32 = 0
    /// What the server did that the user should hear of, for the caller to report.
    var notices: [String] = []
    /// After NOTIFY: the server's names of the watched mailboxes (INBOX upper-case), to
    /// the names the rules use.
    var notifyNames: [String: String] = [:]
    /// After NOTIFY: mailboxes that got mail while open and were left before it was
    /// announced (`noteMailLeftBehind`).
    var leftBehind: Set<String> = []
    /// Set when the stream failed (timeout, reset): nothing more is sent.
    var streamBroken = false

    /// Takes the notices gathered since the last call (`UID SEARCH` contradicted by
    /// the mailbox, so UIDs were found by `UID FETCH`).
    public func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    /// What the server announced (`capabilities`): SEARCH is asked, a text is fetched
    /// as far as asked, PERMANENTFLAGS decide keywords, the archive folder is looked up.
    public var traits: ServerTraits {
        ServerTraits(capabilities: capabilities, canSearch: true, fetchesTextPrefix: true, takesAnyKeyword: false,
                     makesArchiveFolder: false)
    }

    /// Whether the server moves atomically (RFC 6851).
    public var hasMove: Bool { capabilities.contains("MOVE") }
    /// Whether the server can expunge given UIDs only (RFC 4315).
    public var hasUIDPlus: Bool { capabilities.contains("UIDPLUS") }
    /// Whether the server is Gmail (labels through X-GM-LABELS).
    public var isGmail: Bool { capabilities.contains("X-GM-EXT-1") }

    init(settings: IMAPSettings) {
        self.settings = settings
        self.serverName = settings.url.serverName
    }

    deinit {
        close()
        free(sniHost)
    }

    // MARK: - Commands

    /// How many command timeouts one answer may take in all, however steadily it drips in.
    static let deadlineFactor = 5

    /// Sends one command: `call` runs it on the live session, the checkpoint named
    /// `command` marks its answer (the crash tests' step names, docs/RELIABILITY.md),
    /// and a failure becomes the error `failure` makes of it (`commandFailure` by
    /// default), which names the same command, followed by `mailbox` when given.
    /// One name for the step and the error, so the two cannot drift apart.
    func perform(_ command: String, mailbox: String? = nil, failure: ((FailedCommand) -> MailError)? = nil,
                 _ call: (UnsafeMutablePointer<mailimap>) -> Int32) throws {
        let session = try liveSession()
        let started = ContinuousClock.now
        let result = call(session)
        settings.checkpoint?(command)
        guard !isSuccess(result) else { return }
        let failed = FailedCommand(name: mailbox.map { "\(command) \($0)" } ?? command, result: result, started: started)
        throw failure?(failed) ?? commandFailure(failed)
    }

    /// Whether libetpan's result code means success (connecting has two of its own).
    func isSuccess(_ result: Int32) -> Bool {
        result == Int32(MAILIMAP_NO_ERROR) || result == Int32(MAILIMAP_NO_ERROR_AUTHENTICATED)
            || result == Int32(MAILIMAP_NO_ERROR_NON_AUTHENTICATED)
    }

    func liveSession() throws -> UnsafeMutablePointer<mailimap> {
        guard let session, session.pointee.imap_stream != nil else {
            throw MailError(.connect, server: serverName, "the connection is closed")
        }
        return session
    }
}
