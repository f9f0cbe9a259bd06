import Foundation

/// Reading: listings (decoded on every core), single records, and which copy of a
/// record a status change cut short by a crash left as the one to use.
extension Store {
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

    /// The record with full id `id`, or nil when there is none; throws
    /// `StoreError.unreadable` when its file cannot be read.
    public func record<R: StoreRecord>(_ type: R.Type, id: String) throws -> R? {
        guard RecordID.isValid(id), let (status, _) = copies(R.self, id: id).first else { return nil }
        switch read(R.self, path: filePath(R.self, status, id), id: id, status: status) {
        case .success(let record): return record
        case .failure(let problem): throw StoreError.unreadable(problem)
        }
    }

    /// Whether a record with this kind and id exists in any status (readable or not).
    public func exists(_ record: some StoreRecord) -> Bool {
        exists(type(of: record), id: record.id)
    }

    /// Whether `id` exists in any status of kind `R`.
    public func exists<R: StoreRecord>(_ type: R.Type, id: String) -> Bool {
        R.statusFolders.contains { StoreFiles.exists(filePath(R.self, $0, id)) }
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

    /// Open queue entries.
    public func openQueueEntries() -> StoreListing<QueueEntry> {
        queueEntries([.open])
    }

    /// Open reminders.
    public func openReminders() -> StoreListing<Reminder> {
        reminders([.open])
    }

    /// Unsubscribes carried out successfully whose list still sent mail 7 days or more
    /// after (`still_sending` set): what `triage suggest` proposes to archive.
    public func unsubscribesStillSending() -> StoreListing<UnsubscribeRecord> {
        var listing = records(UnsubscribeRecord.self, in: ["done"])
        listing.records.removeAll { !$0.succeeded || $0.stillSending == nil || $0.done == nil }
        return listing
    }

    /// Digest entries not yet reported in any digest.
    public func unreportedDigestEntries() -> StoreListing<DigestEntry> {
        records(DigestEntry.self, in: [DigestEntry.activeFolder])
    }

    // MARK: - Copies

    /// The status folders holding a copy of `id`, newest first.
    /// Ties go to the later folder in the kind's order, as in `isNewestCopy`.
    func copies<R: StoreRecord>(_ type: R.Type, id: String) -> [(String, Int64)] {
        R.statusFolders.enumerated().compactMap { index, status in
            StoreFiles.modificationTime(filePath(R.self, status, id)).map { (status, $0, index) }
        }.sorted { ($0.1, $0.2) > ($1.1, $1.2) }.map { ($0.0, $0.1) }
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

    // MARK: - Decoding

    func read<R: StoreRecord>(_ type: R.Type, path: String, id: String, status: String) -> Result<R, StoreProblem> {
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

    private static func describe(_ error: DecodingError) -> String {
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
}

/// Carries a value into `concurrentPerform`'s workers. Safe here because each
/// worker writes only its own slots and `body` reads only immutable captures.
private struct UnsafeSendable<V>: @unchecked Sendable {
    let value: V
    init(_ value: V) { self.value = value }
}
