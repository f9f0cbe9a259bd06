/// A mailbox server session as `triage run` uses it: an IMAP connection, or a
/// local Maildir that behaves the same way. The mail driver: everything triage does
/// with mail goes through it, so a new backend (JMAP, an in-memory one for tests) is
/// one type conforming to this protocol and no caller asks which type it holds.
///
/// The run programs against this protocol only, so it never sees libetpan. A
/// connection is used from one thread at a time. Every operation that talks to a
/// server throws `MailError` (exit 75 for connection, TLS, timeout and protocol
/// trouble, 77 for refused credentials, 78 for a missing move target).
///
/// The requirements a backend must implement are the session (`open`, `uids`,
/// `fetch(_:)` with a `FetchRequest`, `store`, `move(_:to:recorder:resuming:)`,
/// `close`); the rest have defaults for a local store without a server (no
/// capabilities, no SEARCH, folders named as written, no special-use folders, no
/// notices), which a server's connection replaces.
public protocol MailConnection: AnyObject {
    /// The server (or Maildir) this connection talks to, for messages: `imap.example.test:993`.
    var serverName: String { get }

    /// What the server can do (Gmail, IDLE, NOTIFY, MOVE, SEARCH, keywords), as known
    /// after login. Default: `ServerTraits.local`.
    var traits: ServerTraits { get }

    /// Opens a mailbox: read-write (IMAP `SELECT`) or read-only (`EXAMINE`, for
    /// `--dry-run`; nothing on the server changes). Replaces any open mailbox.
    func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus

    /// The UIDs in the open mailbox greater than `uid`, ascending.
    func uids(above uid: UInt32) throws -> [UInt32]

    /// Fetches `request.uids` of the open mailbox in one command, without marking
    /// anything read: header (or only `request.headerFields`), flags, size and arrival
    /// date, plus `request.parts` (at most `request.textPrefix` bytes of text where the
    /// traits say `fetchesTextPrefix`). A connection that can leave nothing out brings
    /// everything. UIDs that no longer exist are simply absent from the result.
    func fetch(_ request: FetchRequest) throws -> [FetchedMessage]

    /// Adds or removes system flags and labels on the given UIDs, one command per
    /// kind of change. Idempotent: adding a flag twice changes nothing.
    func store(_ change: FlagChange, uids: [UInt32]) throws

    /// Moves the given UIDs of the open mailbox to `folder`, and only those, telling
    /// `recorder` what a move in several steps has done before it goes on (see
    /// `MoveRecorder`), so a rerun can resume it.
    ///
    /// With `attempts` (a move an earlier, interrupted run may have begun, from the
    /// journal) a connection that moves in several steps first looks in `folder` for
    /// the copies they prove (`CopyEvidence`) and only removes from here the originals
    /// whose copy is proven; the others are copied (again) and moved as usual. A
    /// connection whose moves are atomic (a Maildir rename) simply moves.
    ///
    /// When `folder` does not exist the messages stay where they are and
    /// `MailError` with kind `.missingFolder` is thrown.
    @discardableResult
    func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod

    /// The UIDs in `uids` that the server's `UID SEARCH` finds for `key`, ascending;
    /// nil when the connection cannot search or the server refuses the key. Narrows a
    /// run (`ServerNarrowing`); triage's own matcher still decides. Default: nil.
    func search(_ key: SearchKey, uids: ClosedRange<UInt32>) throws -> [UInt32]?

    /// The server's name of a folder written as in rules (`Lists/dev` is
    /// `INBOX.Lists.dev` on Courier). Default: as written.
    func serverFolder(_ ruleName: String) throws -> String

    /// The namespace that maps folder names between the rules and the server (IMAP
    /// NAMESPACE, asked once). Default: `FolderNamespace.plain`.
    func folderNamespace() throws -> FolderNamespace

    /// Every folder of the account as the rules name them (IMAP `LIST`), or nil when
    /// the connection cannot list them and each must be opened to be found (default).
    func folderList() throws -> [String]?

    /// The folder (as the rules name folders) marked with a SPECIAL-USE `attribute`
    /// (`\Trash`, `\Archive`, `\Sent`, RFC 6154), or nil when none is. A Maildir answers for
    /// `\Sent` with its `Sent` folder (`.Sent`) when there is one. Default: nil.
    func specialUseFolder(_ attribute: String) throws -> String?

    /// Where `archive` files mail when the account names no folder: a server's
    /// `\Archive` folder (nil without one), or a local store's own default (made when
    /// `create` and missing; `ServerTraits.makesArchiveFolder`). Default:
    /// `specialUseFolder("\\Archive")`.
    func archiveFolder(create: Bool) throws -> String?

    /// Makes the folder `name` (as the rules name it) unless it exists. Default: throws
    /// `MailError` (configuration): the connection cannot make folders.
    func createFolder(_ name: String) throws

    /// Takes what the server did that the user should hear of since the last call
    /// (`UID SEARCH` contradicted by the mailbox, so UIDs were found by `UID FETCH`).
    /// Default: none.
    func takeNotices() -> [String]

    /// Ends the session politely (IMAP `LOGOUT`); never throws, safe to call twice.
    func close()

    // MARK: Watching (`triage watch`, issue 26)

    /// Whether the server tells of changes to the selected mailbox while idling
    /// (IMAP IDLE, RFC 2177). Default: no.
    var canIdle: Bool { get }
    /// Whether one connection can be told of changes to many mailboxes (IMAP NOTIFY,
    /// RFC 5465). Default: no.
    var canNotify: Bool { get }
    /// Whether `pollStatus` can look at a mailbox without opening it (IMAP STATUS).
    /// Default: no (the mailbox's pass looks instead).
    var canPollStatus: Bool { get }

    /// Starts idling: the connection waits for the server to speak (`idleDescriptor`
    /// turns readable). Throws `MailError` as every command does.
    func startIdle() throws
    /// Ends idling and reads the answer within the command timeout; a server that
    /// does not answer is a dead connection (`MailError`).
    func finishIdle() throws
    /// The descriptor to wait on (poll) while idling; -1 when there is none.
    var idleDescriptor: Int32 { get }
    /// Whether bytes the server sent are read already (the descriptor would not show them).
    var hasBufferedInput: Bool { get }

    /// Asks to be told of new and expunged mail in `mailboxes` (as the rules name
    /// them) and the selected one, from now on (`NOTIFY SET`); what is said is
    /// gathered for `takeMailboxNews`, during IDLE or any command.
    func notify(_ mailboxes: [String]) throws
    /// Takes what the server said of the watched mailboxes since the last call.
    func takeMailboxNews() -> MailboxNews
    /// The counters of a mailbox (as the rules name it) without opening it (`STATUS`).
    func pollStatus(_ mailbox: String) throws -> MailboxCounters

    /// The UIDs in the open mailbox of the messages whose Message-ID is `messageID`
    /// (without angle brackets), ascending: how the wake finds a snoozed message again
    /// whatever UID the move gave it.
    func messageUIDs(withMessageID messageID: String) throws -> [UInt32]
}

extension MailConnection {
    /// No IDLE: `triage watch` looks every `poll_interval`.
    public var canIdle: Bool { false }
    /// No NOTIFY: a connection watches one mailbox at most.
    public var canNotify: Bool { false }
    /// No STATUS: the mailbox's pass looks.
    public var canPollStatus: Bool { false }

    /// Not supported (`canIdle` is false).
    public func startIdle() throws {
        throw MailError(.protocol, server: serverName, "this connection cannot IDLE")
    }

    /// Nothing to end (`canIdle` is false).
    public func finishIdle() throws {}

    /// Nothing to wait on.
    public var idleDescriptor: Int32 { -1 }

    /// Nothing buffered.
    public var hasBufferedInput: Bool { false }

    /// Not supported (`canNotify` is false).
    public func notify(_ mailboxes: [String]) throws {
        throw MailError(.protocol, server: serverName, "this connection cannot NOTIFY")
    }

    /// No news: nothing was asked for.
    public func takeMailboxNews() -> MailboxNews { MailboxNews() }

    /// Not supported (`canPollStatus` is false).
    public func pollStatus(_ mailbox: String) throws -> MailboxCounters {
        throw MailError(.protocol, server: serverName, "this connection cannot look at a mailbox without opening it")
    }
}

extension MailConnection {
    /// No server: `ServerTraits.local`.
    public var traits: ServerTraits { .local }

    /// Cannot search: every message is fetched.
    public func search(_ key: SearchKey, uids: ClosedRange<UInt32>) throws -> [UInt32]? {
        nil
    }

    /// Folders are named as written.
    public func serverFolder(_ ruleName: String) throws -> String { ruleName }

    /// Folders are named as written.
    public func folderNamespace() throws -> FolderNamespace { .plain }

    /// Cannot list: each folder is opened to be found.
    public func folderList() throws -> [String]? { nil }

    /// No special-use folders.
    public func specialUseFolder(_ attribute: String) throws -> String? { nil }

    /// The `\Archive` folder, if the connection marks one.
    public func archiveFolder(create: Bool) throws -> String? { try specialUseFolder("\\Archive") }

    /// Cannot make folders: says so.
    public func createFolder(_ name: String) throws {
        throw MailError(.configuration, server: serverName,
                        "cannot create the folder \(String(reflecting: name)) here; create it with another client")
    }

    /// Nothing to tell.
    public func takeNotices() -> [String] { [] }

    // MARK: The shorter call shapes, built on the requirements

    /// Whether `search(_:uids:)` asks a server (`traits.canSearch`).
    public var canSearch: Bool { traits.canSearch }

    /// The server's capabilities, upper-case (`traits.capabilities`).
    public var serverCapabilities: Set<String> { traits.capabilities }

    /// Everything of each message: `fetch(FetchRequest(uids))`.
    public func fetch(_ uids: [UInt32]) throws -> [FetchedMessage] {
        try fetch(FetchRequest(uids))
    }

    /// Only the header, flags, size and arrival date plus `parts`.
    public func fetch(_ uids: [UInt32], parts: MessageParts) throws -> [FetchedMessage] {
        try fetch(FetchRequest(uids, parts: parts))
    }

    /// Like `fetch(_:parts:)`, with only the named header fields when `headerFields` is
    /// not nil and `parts` has no text (a text's MIME parse needs the Content-* fields:
    /// then the whole header).
    public func fetch(_ uids: [UInt32], parts: MessageParts, headerFields: [String]?) throws -> [FetchedMessage] {
        try fetch(FetchRequest(uids, parts: parts, headerFields: parts.contains(.text) ? nil : headerFields))
    }

    /// Everything, with at most `textPrefix` bytes of each message's text, for a
    /// snippet that a short prefix usually settles; nil when the connection cannot
    /// fetch less (`traits.fetchesTextPrefix`).
    public func fetch(_ uids: [UInt32], textPrefix: Int) throws -> [FetchedMessage]? {
        guard traits.fetchesTextPrefix else { return nil }
        return try fetch(FetchRequest(uids, parts: .all, textPrefix: textPrefix))
    }

    /// The named header fields (upper-case) and at most `textPrefix` bytes of text, no
    /// MIME structure: what a record's snippet needs of a message already classified
    /// from its header. Nil when the connection cannot fetch less.
    public func fetch(_ uids: [UInt32], textPrefix: Int, headerFields: [String]) throws -> [FetchedMessage]? {
        guard traits.fetchesTextPrefix else { return nil }
        return try fetch(FetchRequest(uids, parts: .text, headerFields: headerFields, textPrefix: textPrefix))
    }

    /// A new move, nothing recorded.
    @discardableResult
    public func move(_ uids: [UInt32], to folder: String) throws -> MoveMethod {
        try move(uids, to: folder, recorder: nil, resuming: nil)
    }

    /// A new move, its steps told to `recorder`.
    @discardableResult
    public func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?) throws -> MoveMethod {
        try move(uids, to: folder, recorder: recorder, resuming: nil)
    }

    /// Finishes a move an earlier, interrupted run may have begun (`attempts` from the journal).
    @discardableResult
    public func resumeMove(_ uids: [UInt32], to folder: String, attempts: [CopyAttempt], recorder: MoveRecorder?) throws -> MoveMethod {
        try move(uids, to: folder, recorder: recorder, resuming: attempts)
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
