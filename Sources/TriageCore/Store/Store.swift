import Foundation

/// The plain file store: one JSON file per record, in a folder per kind and
/// status (layout in docs/store.md).
///
/// Writes are crash-safe (`AtomicFile`: temporary file in the same folder, fsync,
/// rename, fsync of the folder) and happen under a writer lock; reads take no lock
/// and see either the old or the new version of a record, never half of one. Files
/// that cannot be read are reported and skipped, never changed.
///
/// What lives where: this file has the lock, the paths and the format marker;
/// `Store+Reading` the listings, `Store+IDs` short ids, `Store+Commit` every write,
/// and `DigestLedger` the record of digests sent.
///
/// The store never reads the clock: callers pass `now`, and `timeZone` gives
/// timestamps their offset. Not thread-safe: use one instance per thread.
public final class Store {
    /// The layout this code reads and writes, kept in `STORE/format`. Raise it when
    /// a change would mislead an older triage; it then refuses the store rather than
    /// misreading it (like isync's journal version).
    public static let format = 1

    /// The store folder.
    public let root: String
    /// The zone timestamps are written in and "today" is computed in.
    public let timeZone: TimeZone
    /// Whether writes are fsynced. Only benchmarks and test set-up turn this off.
    public var synchronous = true
    /// Called at each step of a write (`store staged queue/open, digest/pending` once
    /// a batch's files are all written under temporary names, none renamed, naming
    /// their folders; `store write queue/open` after each rename; `store remove ...`
    /// after each removal): the crash tests kill the process here.
    public var checkpoint: ((String) -> Void)?

    private var heldLock: StoreLock?
    private var lockDepth = 0
    /// Folders whose leftover temp files were cleared under the current lock.
    var cleanedFolders: Set<String> = []
    let decoder = JSONDecoder()

    /// A store at `path` (created on the first write, mode 0700). Checks nothing:
    /// commands use `open`, which refuses a store of a newer format.
    public init(path: String, timeZone: TimeZone) {
        var p = path
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        root = p
        self.timeZone = timeZone
    }

    /// The store at `path`, after checking its format: throws `StoreError.format`
    /// (exit 65) for a store written by a newer triage. Writing nothing, it leaves an
    /// old store without the marker as it is until the first write adds it.
    public static func open(path: String, timeZone: TimeZone) throws -> Store {
        let store = Store(path: path, timeZone: timeZone)
        _ = try store.checkFormat()
        return store
    }

    // MARK: - Locking

    /// Takes the writer lock (creating the store if needed, and writing its format
    /// marker if it has none); nests. Throws `StoreError.locked` (exit 75) when
    /// another process holds it, `StoreError.format` (exit 65) for a store
    /// of a newer format.
    public func lock() throws {
        if lockDepth == 0 {
            try StoreFiles.makeFolder(root)
            let lock = try StoreLock.acquire(store: root)
            if try checkFormat() == nil {
                // A new store, or one written before the marker existed (the same layout).
                try AtomicFile.write(path: formatPath, data: Data("\(Store.format)\n".utf8), durable: synchronous)
            }
            heldLock = lock
            cleanedFolders = []
        }
        lockDepth += 1
    }

    /// Releases one level of `lock()`.
    public func unlock() {
        guard lockDepth > 0 else { return }
        lockDepth -= 1
        if lockDepth == 0 {
            heldLock?.release()
            heldLock = nil
        }
    }

    /// Runs `body` holding the writer lock. `triage run` wraps its whole run in
    /// this so that two runs never interleave.
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        try lock()
        defer { unlock() }
        return try body()
    }

    // MARK: - Format

    /// `STORE/format`: the format number and a newline.
    var formatPath: String { root + "/format" }

    /// The store's format number, or nil when it has no marker (a new or an old
    /// store). Throws for a newer format or a marker that is not a number.
    func checkFormat() throws -> Int? {
        guard let data = try StoreFiles.read(formatPath) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let found = Int(text), found >= 1, found <= Store.format else {
            throw StoreError.format(store: root, found: String(text.prefix(40)), supported: Store.format)
        }
        return found
    }

    // MARK: - Paths

    /// The store folder and the folders directly in it, whose owner and mode the
    /// commands check before using the store (`digest/` holds the command secret,
    /// `state/` where each mailbox's run stopped): whoever may write one of them could
    /// plant a secret or records, or rewind a run. Paths only; the caller checks them.
    public var trustedFolders: [String] {
        [root] + [QueueEntry.kindFolder, Reminder.kindFolder, DigestEntry.kindFolder, WebhookDelivery.kindFolder,
                  UnsubscribeRecord.kindFolder, SnoozeRecord.kindFolder, "state", "caldav"]
            .map { root + "/" + $0 }
    }

    /// The folder of a kind's status (`ROOT/queue/open`).
    public func folder<R: StoreRecord>(_ type: R.Type, _ status: String) -> String {
        root + "/" + R.kindFolder + "/" + status
    }

    /// The file of a record (`ROOT/queue/open/ID.json`).
    public func path(of record: some StoreRecord) -> String {
        filePath(type(of: record), record.statusFolder, record.id)
    }

    func filePath<R: StoreRecord>(_ type: R.Type, _ status: String, _ id: String) -> String {
        Store.filePath(root, R.self, status, id)
    }

    static func filePath<R: StoreRecord>(_ root: String, _ type: R.Type, _ status: String, _ id: String) -> String {
        root + "/" + R.kindFolder + "/" + status + "/" + id + ".json"
    }

    func folderOf(_ record: some StoreRecord) -> String {
        folder(type(of: record), record.statusFolder)
    }

    /// The record of digests sent.
    public var digestLedger: DigestLedger { DigestLedger(store: self) }

    /// What each sent digest showed, for replies to it.
    public var digestShown: DigestShownLedger { DigestShownLedger(store: self) }
}
