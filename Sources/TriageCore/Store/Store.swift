import Foundation

/// The plain file store: one JSON file per record, in a folder per kind and
/// status (layout in docs/store.md).
///
/// Writes are crash-safe (temporary file in the same folder, fsync, rename,
/// fsync of the folder) and happen under a writer lock; reads take no lock and
/// see either the old or the new version of a record, never half of one. Files
/// that cannot be read are reported and skipped, never changed.
///
/// The store never reads the clock: callers pass `now`, and `timeZone` gives
/// timestamps their offset. Not thread-safe: use one instance per thread.
public final class Store {
    /// The store folder.
    public let root: String
    /// The zone timestamps are written in and "today" is computed in.
    public let timeZone: TimeZone
    /// Whether writes are fsynced. Only benchmarks and test set-up turn this off.
    public var synchronous = true
    /// Called after each file the store puts in place or removes (`store write queue`);
    /// the crash tests kill the process here.
    public var checkpoint: ((String) -> Void)?

    private var heldLock: StoreLock?
    private var lockDepth = 0
    private var cleanedFolders: Set<String> = []
    private let decoder = JSONDecoder()

    /// A store at `path` (created on the first write, mode 0700).
    public init(path: String, timeZone: TimeZone) {
        var p = path
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        root = p
        self.timeZone = timeZone
    }

    // MARK: - Locking

    /// Takes the writer lock (creating the store if needed); nests. Throws
    /// `StoreError.locked` (exit 75) when another process holds it.
    public func lock() throws {
        if lockDepth == 0 {
            try StoreFiles.makeFolder(root)
            heldLock = try StoreLock.acquire(store: root)
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

    // MARK: - Paths

    /// The folder of a kind's status (`ROOT/queue/open`).
    public func folder<R: StoreRecord>(_ type: R.Type, _ status: String) -> String {
        root + "/" + R.kindFolder + "/" + status
    }

    /// The file of a record (`ROOT/queue/open/ID.json`).
    public func path(of record: some StoreRecord) -> String {
        filePath(type(of: record), record.statusFolder, record.id)
    }

    private func filePath<R: StoreRecord>(_ type: R.Type, _ status: String, _ id: String) -> String {
        Store.filePath(root, R.self, status, id)
    }

    private static func filePath<R: StoreRecord>(_ root: String, _ type: R.Type, _ status: String, _ id: String) -> String {
        root + "/" + R.kindFolder + "/" + status + "/" + id + ".json"
    }

    // MARK: - Reading

    /// The records of a kind in the given status folders (all when nil).
    ///
    /// A record found in two folders (a status change cut short by a crash) is
    /// taken from the newer file only. Files are read and decoded on every core.
    public func records<R: StoreRecord>(_ type: R.Type, in statuses: [String]? = nil) -> StoreListing<R> {
        let listed = statuses ?? R.statusFolders
        var listing = StoreListing<R>()
        var names: [String: Set<String>] = [:]
        var items: [(status: String, id: String)] = []
        for status in listed {
            do {
                let ids = try StoreFiles.recordIDs(in: folder(R.self, status)) ?? []
                items += ids.map { (status, $0) }
                if listed.count > 1 { names[status] = Set(ids) }
            } catch {
                listing.problems.append(StoreProblem(path: folder(R.self, status), reason: "\(error)"))
            }
        }
        let root = self.root
        let results = Store.parallelMap(items.count) { decoder, i -> Result<R, StoreProblem>? in
            let (status, id) = items[i]
            guard Store.isNewestCopy(R.self, root: root, id: id, in: status, listedNames: names) else { return nil }
            return Store.read(R.self, path: Store.filePath(root, R.self, status, id), id: id, status: status, decoder: decoder)
        }
        listing.records.reserveCapacity(results.count)
        for result in results {
            switch result {
            case .success(let record): listing.records.append(record)
            case .failure(let problem): listing.problems.append(problem)
            case nil: continue
            }
        }
        return listing
    }

    /// `body(decoder, i)` for i in 0..<count, spread over the cores, results in order.
    private static func parallelMap<T>(_ count: Int, _ body: (JSONDecoder, Int) -> T?) -> [T?] {
        let buffer = UnsafeMutablePointer<T?>.allocate(capacity: max(count, 1))
        buffer.initialize(repeating: nil, count: count)
        defer {
            buffer.deinitialize(count: count)
            buffer.deallocate()
        }
        let workers = count < 256 ? 1 : max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let chunks = workers == 1 ? 1 : workers * 4
        let out = UnsafeSendable(buffer)
        withoutActuallyEscaping(body) { body in
            let work = UnsafeSendable(body)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let decoder = JSONDecoder()
                var i = chunk * count / chunks
                let end = (chunk + 1) * count / chunks
                while i < end {
                    out.value[i] = work.value(decoder, i)
                    i += 1
                }
            }
        }
        return Array(UnsafeBufferPointer(start: buffer, count: count))
    }

    /// Carries a value into `concurrentPerform`'s workers. Safe here because each
    /// worker writes only its own slots and `body` reads only immutable captures.
    private struct UnsafeSendable<V>: @unchecked Sendable {
        let value: V
        init(_ value: V) { self.value = value }
    }

    /// Whether the copy of `id` in `status` is the one to use: it is, unless a
    /// newer copy exists in another status folder.
    private static func isNewestCopy<R: StoreRecord>(_ type: R.Type, root: String, id: String, in status: String,
                                                    listedNames: [String: Set<String>]) -> Bool {
        let others = R.statusFolders
        var mine: Int64?
        for other in others where other != status {
            if let set = listedNames[other], !set.contains(id) { continue }
            guard let theirs = StoreFiles.modificationTime(filePath(root, R.self, other, id)) else { continue }
            if mine == nil { mine = StoreFiles.modificationTime(filePath(root, R.self, status, id)) ?? 0 }
            // Ties go to the later folder in the kind's order (done over open).
            if theirs > mine! || (theirs == mine! && others.firstIndex(of: other)! > others.firstIndex(of: status)!) {
                return false
            }
        }
        return true
    }

    private func read<R: StoreRecord>(_ type: R.Type, path: String, id: String, status: String) -> Result<R, StoreProblem> {
        Store.read(R.self, path: path, id: id, status: status, decoder: decoder)
    }

    private static func read<R: StoreRecord>(_ type: R.Type, path: String, id: String, status: String,
                                            decoder: JSONDecoder) -> Result<R, StoreProblem> {
        do {
            guard let data = try StoreFiles.read(path) else {
                return .failure(StoreProblem(path: path, reason: "it disappeared while being read"))
            }
            let record = try decoder.decode(R.self, from: data)
            if record.id != id {
                return .failure(StoreProblem(path: path, reason: "its id \(record.id) does not match its file name"))
            }
            if record.statusFolder != status {
                return .failure(StoreProblem(path: path, reason: "its status says \(record.statusFolder) but it is in the \(status) folder"))
            }
            return .success(record)
        } catch let error as DecodingError {
            return .failure(StoreProblem(path: path, reason: Store.describe(error)))
        } catch {
            return .failure(StoreProblem(path: path, reason: "\(error)"))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func field(_ path: [CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .keyNotFound(let key, let ctx): return "missing field '\(field(ctx.codingPath + [key]))'"
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx):
            return "field '\(field(ctx.codingPath))' has the wrong type"
        case .dataCorrupted(let ctx):
            if ctx.codingPath.isEmpty { return "not valid JSON" }
            return "field '\(field(ctx.codingPath))': \(ctx.debugDescription)"
        @unknown default: return "not a valid record"
        }
    }

    /// The record with full id `id`, or nil when there is none; throws
    /// `StoreError.unreadable` when its file cannot be read.
    public func record<R: StoreRecord>(_ type: R.Type, id: String) throws -> R? {
        guard RecordID.isValid(id), let (status, _) = newestCopy(R.self, id: id) else { return nil }
        switch read(R.self, path: filePath(R.self, status, id), id: id, status: status) {
        case .success(let record): return record
        case .failure(let problem): throw StoreError.unreadable(problem)
        }
    }

    /// The status folders holding a copy of `id`, newest first.
    /// Ties go to the later folder in the kind's order, as in `isNewestCopy`.
    private func copies<R: StoreRecord>(_ type: R.Type, id: String) -> [(String, Int64)] {
        R.statusFolders.enumerated().compactMap { index, status in
            StoreFiles.modificationTime(filePath(R.self, status, id)).map { (status, $0, index) }
        }.sorted { ($0.1, $0.2) > ($1.1, $1.2) }.map { ($0.0, $0.1) }
    }

    private func newestCopy<R: StoreRecord>(_ type: R.Type, id: String) -> (String, Int64)? {
        copies(R.self, id: id).first
    }

    /// Every id of a kind, in any status (for short ids).
    public func allIDs<R: StoreRecord>(_ type: R.Type) -> [String] {
        var ids: [String] = []
        for status in R.statusFolders {
            ids += (try? StoreFiles.recordIDs(in: folder(R.self, status))) ?? []
        }
        return ids
    }

    /// The short-id index of a kind, over its ids in every status.
    public func shortIDs<R: StoreRecord>(_ type: R.Type) -> ShortIDIndex {
        var keys: [ShortIDIndex.Key] = []
        for status in R.statusFolders {
            _ = try? StoreFiles.forEachRecordName(in: folder(R.self, status)) { bytes in
                if let key = ShortIDIndex.Key(hex: bytes) { keys.append(key) }
            }
        }
        return ShortIDIndex(keys: keys)
    }

    /// Full ids for what a person typed (full ids or unique prefixes), in order,
    /// without repeats. Throws `StoreError.ids` naming every id that is unknown,
    /// ambiguous (with its candidates) or malformed.
    public func resolve<R: StoreRecord>(_ type: R.Type, _ typed: [String]) throws -> [String] {
        let index = shortIDs(R.self)
        var result: [String] = []
        var problems: [StoreError.IDProblem] = []
        for text in typed {
            switch index.match(text) {
            case .one(let id): if !result.contains(id) { result.append(id) }
            case .none: problems.append(.unknown(id: text, noun: R.noun))
            case .malformed: problems.append(.malformed(id: text, noun: R.noun))
            case .many(let ids):
                let candidates = ids.map { id -> String in
                    let what = (try? record(R.self, id: id)).flatMap { $0.map(Store.label) } ?? ""
                    return index.short(id) + (what.isEmpty ? "" : "  " + what)
                }
                problems.append(.ambiguous(id: text, noun: R.noun, candidates: candidates))
            }
        }
        if !problems.isEmpty { throw StoreError.ids(problems) }
        return result
    }

    /// A one-line description of a record for candidate lists.
    static func label(_ record: some StoreRecord) -> String {
        switch record {
        case let q as QueueEntry: return "\(q.queue), due \(q.due.iso): \(q.message.subject ?? "(no subject)") [\(q.status.rawValue)]"
        case let r as Reminder: return "due \(r.due.iso): \(r.title) [\(r.status.rawValue)]"
        case let d as DigestEntry: return "\(d.section): \(d.message.subject ?? "(no subject)")"
        default: return ""
        }
    }

    // MARK: - Listing each kind
    // Concrete entry points: the generic reader is specialised here, in its own
    // module, which makes listing several times faster than calling it generically.

    /// Queue entries with the given statuses.
    public func queueEntries(_ statuses: [WorkStatus] = WorkStatus.allCases) -> StoreListing<QueueEntry> {
        records(QueueEntry.self, in: statuses.map(\.rawValue))
    }

    /// Reminders with the given statuses.
    public func reminders(_ statuses: [WorkStatus] = WorkStatus.allCases) -> StoreListing<Reminder> {
        records(Reminder.self, in: statuses.map(\.rawValue))
    }

    /// All digest entries, reported or not.
    public func digestEntries() -> StoreListing<DigestEntry> {
        records(DigestEntry.self)
    }

    // MARK: - The day's plan

    /// Open queue entries.
    public func openQueueEntries() -> StoreListing<QueueEntry> {
        queueEntries([.open])
    }

    /// Open reminders.
    public func openReminders() -> StoreListing<Reminder> {
        reminders([.open])
    }

    /// Digest entries not yet reported in any digest.
    public func unreportedDigestEntries() -> StoreListing<DigestEntry> {
        records(DigestEntry.self, in: [DigestEntry.activeFolder])
    }

    // MARK: - Writing

    /// Writes the records that do not exist yet (in any status); an existing
    /// record is left exactly as it is, so a done reminder stays done.
    ///
    /// Durability costs one fsync per new file plus one per folder touched.
    public func write(_ batch: StoreBatch) throws -> StoreWriteResult {
        try withLock {
            var result = StoreWriteResult()
            var files: [PendingFile] = []
            var seen = Set<String>()
            let malformed = batch.records.filter { !RecordID.isValid($0.id) }
            if !malformed.isEmpty {
                // Such a file would never be listed: refuse rather than lose it.
                throw StoreError.ids(malformed.map { .malformed(id: $0.id, noun: type(of: $0).noun) })
            }
            for record in batch.records {
                let key = type(of: record).kindFolder + "/" + record.id
                if seen.contains(key) || exists(record) {
                    result.existing.append(record.id)
                    continue
                }
                seen.insert(key)
                files.append(PendingFile(folder: folderOf(record), id: record.id, data: try encode(record), obsolete: []))
                result.created.append(record.id)
            }
            try commit(files)
            return result
        }
    }

    /// Writes one record unless it exists; returns whether it was new.
    @discardableResult
    public func put(_ record: some StoreRecord) throws -> Bool {
        var batch = StoreBatch()
        batch.add(record)
        return try !write(batch).created.isEmpty
    }

    /// Whether a record with this kind and id exists in any status (readable or not).
    public func exists(_ record: some StoreRecord) -> Bool {
        exists(type(of: record), id: record.id)
    }

    /// Whether `id` exists in any status of kind `R`.
    public func exists<R: StoreRecord>(_ type: R.Type, id: String) -> Bool {
        R.statusFolders.contains { StoreFiles.exists(filePath(R.self, $0, id)) }
    }

    /// Changes existing records (full ids) with `change`, moving each to the
    /// folder of its new status. Records `change` leaves equal are not rewritten.
    /// Throws for an id with no record or an unreadable one, before changing anything.
    @discardableResult
    public func update<R: StoreRecord & Equatable>(_ type: R.Type, ids: [String], _ change: (inout R) -> Void) throws -> [R] {
        try withLock {
            var files: [PendingFile] = []
            var results: [R] = []
            var missing: [StoreError.IDProblem] = []
            var seen = Set<String>()
            for id in ids where seen.insert(id).inserted {
                guard RecordID.isValid(id) else {
                    missing.append(.malformed(id: id, noun: R.noun))
                    continue
                }
                let found = copies(R.self, id: id)
                guard let newest = found.first else {
                    missing.append(.unknown(id: id, noun: R.noun))
                    continue
                }
                let path = filePath(R.self, newest.0, id)
                var record: R
                switch read(R.self, path: path, id: id, status: newest.0) {
                case .success(let r): record = r
                case .failure(let problem): throw StoreError.unreadable(problem)
                }
                let before = record
                change(&record)
                results.append(record)
                let target = record.statusFolder
                let stale = found.dropFirst().map { filePath(R.self, $0.0, id) }
                if record == before && stale.isEmpty { continue }
                if record == before {
                    // Only clean up a copy a crash left behind.
                    files.append(PendingFile(folder: nil, id: id, data: Data(), obsolete: stale))
                    continue
                }
                let obsolete = found.map(\.0).filter { $0 != target }.map { filePath(R.self, $0, id) }
                files.append(PendingFile(folder: folderOf(record), id: id, data: try encode(record), obsolete: obsolete))
            }
            if !missing.isEmpty { throw StoreError.ids(missing) }
            try commit(files)
            return results
        }
    }

    /// Finishes status changes a crash cut short. A change writes the record into its
    /// new status folder, then removes the old copy; a crash in between leaves both.
    /// Listings already take the newer copy, but the older one would stay forever:
    /// remove it. Cheap (it only lists folder names); `triage run` calls it first.
    public func finishInterruptedUpdates() throws {
        try finishInterruptedUpdates(QueueEntry.self)
        try finishInterruptedUpdates(Reminder.self)
        try finishInterruptedUpdates(DigestEntry.self)
        try finishInterruptedUpdates(WebhookDelivery.self)
    }

    private func finishInterruptedUpdates<R: StoreRecord & Equatable>(_ type: R.Type) throws {
        var seen = Set<String>()
        var doubled: [String] = []
        for status in R.statusFolders {
            for id in try StoreFiles.recordIDs(in: folder(R.self, status)) ?? [] where !seen.insert(id).inserted {
                doubled.append(id)
            }
        }
        // An unchanged record with a stale copy: `update` removes only the stale copy.
        if !doubled.isEmpty { try update(R.self, ids: doubled) { _ in } }
    }

    /// Sets the status of queue entries, stamping when it changed.
    @discardableResult
    public func setStatus(queueEntries ids: [String], to status: WorkStatus, now: Date) throws -> [QueueEntry] {
        let stamp = Timestamp(now, timeZone: timeZone)
        return try update(QueueEntry.self, ids: ids) { entry in
            if entry.status != status { entry.status = status; entry.statusChanged = stamp }
        }
    }

    /// Sets the status of reminders, stamping when it changed.
    @discardableResult
    public func setStatus(reminders ids: [String], to status: WorkStatus, now: Date) throws -> [Reminder] {
        let stamp = Timestamp(now, timeZone: timeZone)
        return try update(Reminder.self, ids: ids) { reminder in
            if reminder.status != status { reminder.status = status; reminder.statusChanged = stamp }
        }
    }

    /// Marks digest entries as reported in the digest of `day`; entries already
    /// reported keep their first day.
    @discardableResult
    public func markReported(_ ids: [String], day: CivilDate) throws -> [DigestEntry] {
        try update(DigestEntry.self, ids: ids) { entry in
            if entry.reported == nil { entry.reported = day }
        }
    }

    // MARK: - Digests sent

    private var sentFolder: String { root + "/" + DigestEntry.kindFolder + "/sent" }

    /// The days whose digest has been sent (`digest/sent/YYYY-MM-DD.json`).
    public func digestSentDays() throws -> Set<CivilDate> {
        var days = Set<CivilDate>()
        for name in StoreFiles.names(in: sentFolder) where name.hasSuffix(".json") && !name.hasPrefix(".") {
            if let day = CivilDate(iso: name.dropLast(5)) { days.insert(day) }
        }
        return days
    }

    /// Whether the digest of `day` has been sent.
    public func isDigestSent(_ day: CivilDate) -> Bool {
        StoreFiles.exists(sentFolder + "/" + day.iso + ".json")
    }

    /// Records that the digest of `day` was sent at `now` with the digest entries
    /// `entries` (kept so that a crash before they are all marked reported can be
    /// finished, see `finishDigestReporting`); returns false (and changes nothing)
    /// when it was already recorded.
    @discardableResult
    public func markDigestSent(_ day: CivilDate, now: Date, entries: [String] = []) throws -> Bool {
        try withLock {
            if isDigestSent(day) { return false }
            var fields: [(String, JSONValue)] = [("day", .string(day.iso)), ("sent", .string(Timestamp(now, timeZone: timeZone).rfc3339))]
            if !entries.isEmpty { fields.append(("entries", .array(entries.sorted().map { .string($0) }))) }
            let json = JSONValue.object(fields)
            try commit([PendingFile(folder: sentFolder, id: day.iso, data: Data(json.prettySerialized.utf8), obsolete: [])])
            return true
        }
    }

    /// Marks reported the entries of the last digest sent that are still pending:
    /// a crash after the digest was recorded as sent but before all its entries
    /// were marked would otherwise report them again in the next digest.
    public func finishDigestReporting() throws {
        guard let day = try digestSentDays().max(),
              let data = try StoreFiles.read(sentFolder + "/" + day.iso + ".json"),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let ids = object["entries"] as? [String] else { return }
        let pending = ids.filter { RecordID.isValid($0) && StoreFiles.exists(filePath(DigestEntry.self, DigestEntry.activeFolder, $0)) }
        if !pending.isEmpty { try markReported(pending, day: day) }
    }

    // MARK: - Committing files

    /// A file to write into `folder` as `id.json`, and older copies to remove after.
    private struct PendingFile {
        var folder: String?
        var id: String
        var data: Data
        var obsolete: [String]
    }

    private func folderOf(_ record: some StoreRecord) -> String {
        folder(type(of: record), record.statusFolder)
    }

    /// The file text: the record's ordered JSON (`id` first, every key present), indented.
    private func encode(_ record: some StoreRecord) throws -> Data {
        Data(record.json.prettySerialized.utf8)
    }

    /// Temp files of every new file (all written, then each fsynced), then the renames, then the
    /// removals of obsolete copies, then one fsync of each folder touched. A crash
    /// before a rename leaves only a temp file, which listings ignore and the next
    /// writer removes; after it, the whole new file.
    private func commit(_ files: [PendingFile]) throws {
        guard !files.isEmpty else { return }
        var temps: [(String, String)] = []
        var touched: [String] = []
        func touch(_ folder: String) { if !touched.contains(folder) { touched.append(folder) } }
        do {
            for file in files {
                guard let folder = file.folder else { continue }
                try prepare(folder)
                let temp = folder + "/" + StoreFiles.tempPrefix + file.id + "." + String(getpid())
                try StoreFiles.writeNew(temp, file.data, sync: false)
                temps.append((temp, folder + "/" + file.id + ".json"))
                touch(folder)
            }
            // All written first, then flushed: the first fsync commits the file
            // system's journal with every temp file in it, and the rest find their
            // data already on disk. One fsync right after each write would cost a
            // journal commit per record (see docs/BENCHMARKS.md).
            if synchronous {
                for (temp, _) in temps { try StoreFiles.syncFile(temp) }
            }
        } catch {
            for (temp, _) in temps { try? StoreFiles.remove(temp) }
            throw error
        }
        for (temp, final) in temps {
            try StoreFiles.rename(temp, final)
            checkpoint?("store write " + Store.kindName(final))
        }
        for file in files {
            for old in file.obsolete {
                try StoreFiles.remove(old)
                touch((old as NSString).deletingLastPathComponent)
                checkpoint?("store remove " + Store.kindName(old))
            }
        }
        if synchronous {
            for folder in touched { try StoreFiles.syncFolder(folder) }
        }
    }

    /// `queue/open` of `ROOT/queue/open/ID.json`, for checkpoint names.
    private static func kindName(_ path: String) -> String {
        path.split(separator: "/").suffix(3).dropLast().joined(separator: "/")
    }

    /// Makes sure a folder exists and, once per lock, clears temp files that a
    /// killed writer left there (no writer can be using them: we hold the lock).
    private func prepare(_ folder: String) throws {
        guard !cleanedFolders.contains(folder) else { return }
        if try StoreFiles.makeFolder(folder) {
            if synchronous { try StoreFiles.syncFolder((folder as NSString).deletingLastPathComponent) }
        } else {
            for name in StoreFiles.names(in: folder) where name.hasPrefix(StoreFiles.tempPrefix) {
                try StoreFiles.remove(folder + "/" + name)
            }
        }
        cleanedFolders.insert(folder)
    }
}
