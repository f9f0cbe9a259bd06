import Foundation

/// Writing: new records, status changes, and the commit every write goes through.
extension Store {
    /// Writes the records that do not exist yet (in any status); an existing
    /// record is left exactly as it is, so a done reminder stays done.
    ///
    /// Durability costs one fsync per new file (one syncfs for more than
    /// `perFileFlushLimit`) plus one per folder touched.
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
                files.append(PendingFile(record, in: folderOf(record)))
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

    /// Removes a record (full id) wherever its status put it; a record that is not
    /// there is fine. For a record written as a marker of an attempt that was then
    /// refused (a snooze's "Back today" entry when the server kept the message).
    public func remove<R: StoreRecord>(_ type: R.Type, id: String) throws {
        for status in R.statusFolders { try StoreFiles.remove(filePath(R.self, status, id)) }
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
                files.append(PendingFile(record, in: folderOf(record), obsolete: obsolete))
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
        try finishInterruptedUpdates(UnsubscribeRecord.self)
        try finishInterruptedUpdates(SnoozeRecord.self)
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

    // MARK: - Committing files

    /// A file to write into `folder` as `id.json`, and older copies to remove after.
    struct PendingFile {
        var folder: String?
        var id: String
        var data: Data
        var obsolete: [String]

        init(folder: String?, id: String, data: Data, obsolete: [String]) {
            self.folder = folder
            self.id = id
            self.data = data
            self.obsolete = obsolete
        }

        /// A record's file: its ordered JSON (`id` first, every key present), indented.
        /// The one way a record becomes bytes; reading is `Decodable`.
        init(_ record: some StoreRecord, in folder: String, obsolete: [String] = []) {
            self.init(folder: folder, id: record.id,
                      data: Data(record.json.prettySerialized.utf8), obsolete: obsolete)
        }
    }

    /// Temp files of every new file (all written, then each fsynced), then the renames, then the
    /// removals of obsolete copies, then one fsync of each folder touched. A crash
    /// before a rename leaves only a temp file, which listings ignore and the next
    /// writer removes; after it, the whole new file.
    func commit(_ files: [PendingFile]) throws {
        guard !files.isEmpty else { return }
        var staged: [AtomicFile.Staged] = []
        var touched: [String] = []
        func touch(_ folder: String) { if !touched.contains(folder) { touched.append(folder) } }
        do {
            for file in files {
                guard let folder = file.folder else { continue }
                try prepare(folder)
                staged.append(try AtomicFile.Staged(path: folder + "/" + file.id + ".json", data: file.data))
                touch(folder)
            }
            // All written first, then flushed. A large batch (a run's records) is
            // made durable by one syncfs of the store's file system: one journal
            // commit for all of them, where an fsync of each costs a commit per
            // record (docs/BENCHMARKS.md). A few files are cheaper to fsync one by one.
            if synchronous {
                if staged.count > Store.perFileFlushLimit {
                    try AtomicFile.syncFileSystem(of: root)
                } else {
                    for file in staged { try file.flush() }
                }
            }
        } catch {
            for file in staged { file.discard() }
            throw error
        }
        if !staged.isEmpty, let checkpoint {
            var folders: [String] = []
            for file in staged where !folders.contains(Store.kindName(file.path)) { folders.append(Store.kindName(file.path)) }
            checkpoint("store staged " + folders.joined(separator: ", "))
        }
        for file in staged {
            try file.rename()
            checkpoint?("store write " + Store.kindName(file.path))
        }
        for file in files {
            for old in file.obsolete {
                try StoreFiles.remove(old)
                touch((old as NSString).deletingLastPathComponent)
                checkpoint?("store remove " + Store.kindName(old))
            }
        }
        if synchronous {
            for folder in touched { try AtomicFile.syncFolder(folder) }
        }
    }

    /// Up to this many new files a commit fsyncs each; above, one syncfs flushes them all.
    static let perFileFlushLimit = 8

    /// `queue/open` of `ROOT/queue/open/ID.json`, for checkpoint names.
    private static func kindName(_ path: String) -> String {
        path.split(separator: "/").suffix(3).dropLast().joined(separator: "/")
    }

    /// Makes sure a folder exists and, once per lock, clears temp files that a
    /// killed writer left there (no writer can be using them: we hold the lock).
    private func prepare(_ folder: String) throws {
        guard !cleanedFolders.contains(folder) else { return }
        if try StoreFiles.makeFolder(folder) {
            if synchronous { try AtomicFile.syncFolder((folder as NSString).deletingLastPathComponent) }
        } else {
            for name in StoreFiles.names(in: folder) where name.hasPrefix(AtomicFile.tempPrefix) {
                try StoreFiles.remove(folder + "/" + name)
            }
        }
        cleanedFolders.insert(folder)
    }
}
