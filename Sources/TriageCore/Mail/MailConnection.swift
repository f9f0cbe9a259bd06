/// A mailbox server session as `triage run` uses it: an IMAP connection, or a
/// local Maildir that behaves the same way.
///
/// The run programs against this protocol only, so it never sees libetpan. A
/// connection is used from one thread at a time. Every operation that talks to a
/// server throws `MailError` (exit 75 for connection, TLS, timeout and protocol
/// trouble, 77 for refused credentials, 78 for a missing move target).
public protocol MailConnection: AnyObject {
    /// The server (or Maildir) this connection talks to, for messages: `imap.example.test:993`.
    var serverName: String { get }

    /// Opens a mailbox: read-write (IMAP `SELECT`) or read-only (`EXAMINE`, for
    /// `--dry-run`; nothing on the server changes). Replaces any open mailbox.
    func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus

    /// The UIDs in the open mailbox greater than `uid`, ascending.
    func uids(above uid: UInt32) throws -> [UInt32]

    /// Fetches the given UIDs of the open mailbox in one command, without marking
    /// anything read. UIDs that no longer exist are simply absent from the result.
    func fetch(_ uids: [UInt32]) throws -> [FetchedMessage]

    /// Like `fetch(_:)`, but only the header, flags, size and arrival date plus
    /// `parts`: a connection that can leave the rest out (IMAP) saves the bytes and
    /// the server's work. The default fetches everything.
    func fetch(_ uids: [UInt32], parts: MessageParts) throws -> [FetchedMessage]

    /// Like `fetch(_:parts:)`, but with only the named header fields (upper-case,
    /// `CompiledRules.neededHeaderFields`) in `FetchedMessage.header` instead of the
    /// whole header block, when `headerFields` is not nil and the connection can
    /// ask for fewer (IMAP `HEADER.FIELDS`). The default brings the whole header.
    func fetch(_ uids: [UInt32], parts: MessageParts, headerFields: [String]?) throws -> [FetchedMessage]

    /// Like `fetch(_:parts: .all)`, but with at most `textPrefix` bytes of each
    /// message's text, for a snippet that a short prefix usually settles; nil when the
    /// connection cannot fetch less (the default: a Maildir reads the file anyway).
    func fetch(_ uids: [UInt32], textPrefix: Int) throws -> [FetchedMessage]?

    /// Like `fetch(_:textPrefix:)`, but with only the named header fields (upper-case)
    /// in `FetchedMessage.header` (IMAP `HEADER.FIELDS`) and no MIME structure: what a
    /// record's snippet needs of a message already classified from its header. At most
    /// `textPrefix` bytes of text (a shorter text is the whole text, as far as any
    /// fetch of this connection brings it). Nil when the connection cannot fetch less
    /// (the default).
    func fetch(_ uids: [UInt32], textPrefix: Int, headerFields: [String]) throws -> [FetchedMessage]?

    /// Adds or removes system flags and labels on the given UIDs, one command per
    /// kind of change. Idempotent: adding a flag twice changes nothing.
    func store(_ change: FlagChange, uids: [UInt32]) throws

    /// Moves the given UIDs of the open mailbox to `folder`, and only those.
    ///
    /// When `folder` does not exist the messages stay where they are and
    /// `MailError` with kind `.missingFolder` is thrown.
    @discardableResult
    func move(_ uids: [UInt32], to folder: String) throws -> MoveMethod

    /// Like `move(_:to:)`, telling `recorder` what a move in several steps has
    /// done before it goes on (see `MoveRecorder`), so a rerun can resume it.
    @discardableResult
    func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?) throws -> MoveMethod

    /// Finishes a move that an earlier, interrupted run may have begun: like
    /// `move(_:to:recorder:)`, but a connection that moves in several steps first
    /// looks in `folder` for the copies the journal's `attempts` prove
    /// (`CopyEvidence`) and only removes from here the originals whose copy is
    /// proven; the others are copied (again) and moved as usual.
    @discardableResult
    func resumeMove(_ uids: [UInt32], to folder: String, attempts: [CopyAttempt], recorder: MoveRecorder?) throws -> MoveMethod

    /// Whether `search(_:above:)` asks a server (IMAP); false for a Maildir, which
    /// reads every file anyway.
    var canSearch: Bool { get }

    /// The server's capabilities (upper-case), for what depends on the kind of server
    /// (Gmail's `X-GM-EXT-1`); empty for a Maildir.
    var serverCapabilities: Set<String> { get }

    /// The UIDs in `uids` that the server's `UID SEARCH` finds for `key`, ascending;
    /// nil when the connection cannot search or the server refuses the key. Narrows a
    /// run (`ServerNarrowing`); triage's own matcher still decides.
    func search(_ key: SearchKey, uids: ClosedRange<UInt32>) throws -> [UInt32]?

    /// Ends the session politely (IMAP `LOGOUT`); never throws, safe to call twice.
    func close()

    /// Makes the folder `name` (as rules name it) unless it exists: the snoozed folder.
    func createFolder(_ name: String) throws

    /// The UIDs in the open mailbox of the messages whose Message-ID is `messageID`
    /// (without angle brackets), ascending: how the wake finds a snoozed message again
    /// whatever UID the move gave it.
    func messageUIDs(withMessageID messageID: String) throws -> [UInt32]
}

extension MailConnection {
    /// Connections whose moves are atomic (a Maildir rename) have nothing to record.
    @discardableResult
    public func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?) throws -> MoveMethod {
        try move(uids, to: folder)
    }

    /// Connections whose moves are atomic simply move: nothing was half done.
    @discardableResult
    public func resumeMove(_ uids: [UInt32], to folder: String, attempts: [CopyAttempt], recorder: MoveRecorder?) throws -> MoveMethod {
        try move(uids, to: folder, recorder: recorder)
    }

    /// Fetches everything: for connections where leaving parts out saves nothing.
    public func fetch(_ uids: [UInt32], parts: MessageParts) throws -> [FetchedMessage] {
        try fetch(uids)
    }

    /// The whole header: for connections where leaving fields out saves nothing.
    public func fetch(_ uids: [UInt32], parts: MessageParts, headerFields: [String]?) throws -> [FetchedMessage] {
        try fetch(uids, parts: parts)
    }

    /// No server to ask: a Maildir reads every message.
    public var canSearch: Bool { false }

    /// No capabilities: not an IMAP server.
    public var serverCapabilities: Set<String> { [] }

    /// Cannot search: every message is fetched.
    public func search(_ key: SearchKey, uids: ClosedRange<UInt32>) throws -> [UInt32]? {
        nil
    }

    /// No shorter text: for connections where it saves nothing.
    public func fetch(_ uids: [UInt32], textPrefix: Int) throws -> [FetchedMessage]? {
        nil
    }

    /// No fewer fields: for connections where it saves nothing.
    public func fetch(_ uids: [UInt32], textPrefix: Int, headerFields: [String]) throws -> [FetchedMessage]? {
        nil
    }

    /// Cannot make folders: says so.
    public func createFolder(_ name: String) throws {
        throw MailError(.configuration, server: serverName, "cannot create the folder \(name) here; create it yourself")
    }

    /// Reads the Message-ID of every message of the open mailbox (a snoozed folder is
    /// small): for connections that cannot search.
    public func messageUIDs(withMessageID messageID: String) throws -> [UInt32] {
        let all = try uids(above: 0)
        guard !all.isEmpty else { return [] }
        return try fetch(all, parts: [], headerFields: ["MESSAGE-ID"])
            .filter { HeaderField.messageID(in: $0.header) == messageID }.map(\.uid).sorted()
    }
}

/// How a move was carried out, for `--verbose` and the tests.
public enum MoveMethod: String, Sendable {
    /// The server has MOVE (RFC 6851).
    case move
    /// `UID COPY`, `UID STORE +FLAGS (\Deleted)`, `UID EXPUNGE` of exactly those UIDs (UIDPLUS).
    case copyAndExpunge
    /// A local rename (Maildir).
    case rename
}
