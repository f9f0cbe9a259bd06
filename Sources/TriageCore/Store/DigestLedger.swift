import Foundation

/// Which days' digests have been sent: one small file per day,
/// `digest/sent/YYYY-MM-DD.json`, holding the day, when it was sent and the ids of
/// the digest entries it reported. Written and read through `SentDigest`, the same
/// JSON route as the records (written as ordered JSON, read with `Decodable`).
public struct DigestLedger {
    /// The store it belongs to.
    public let store: Store

    /// What one file says.
    struct SentDigest: Decodable {
        var day: String
        var sent: String
        /// Absent in files written before it was recorded.
        var entries: [String]?

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("day", .string(day)), ("sent", .string(sent))]
            if let entries, !entries.isEmpty { fields.append(("entries", .array(entries.map { .string($0) }))) }
            return .object(fields)
        }
    }

    /// `STORE/digest/sent`.
    var folder: String { store.root + "/" + DigestEntry.kindFolder + "/sent" }

    private func path(_ day: CivilDate) -> String { folder + "/" + day.iso + ".json" }

    /// The days whose digest has been sent.
    public func sentDays() throws -> Set<CivilDate> {
        var days = Set<CivilDate>()
        for name in StoreFiles.names(in: folder) where name.hasSuffix(".json") && !name.hasPrefix(".") {
            if let day = CivilDate(iso: name.dropLast(5)) { days.insert(day) }
        }
        return days
    }

    /// Whether the digest of `day` has been sent.
    public func isSent(_ day: CivilDate) -> Bool {
        StoreFiles.exists(path(day))
    }

    /// Records that the digest of `day` was sent at `now` with the digest entries
    /// `entries` (kept so that a crash before they are all marked reported can be
    /// finished, see `finishReporting`); returns false (and changes nothing)
    /// when it was already recorded.
    @discardableResult
    public func markSent(_ day: CivilDate, now: Date, entries: [String] = []) throws -> Bool {
        try markSent(day, now: now, entries: entries, with: [])
    }

    /// `markSent` with `files` committed with the marker, renamed before it (what the
    /// digest showed, `DigestShownLedger.file`), so that a digest on record as sent has them.
    func markSent(_ day: CivilDate, now: Date, entries: [String], with files: [Store.PendingFile]) throws -> Bool {
        try store.withLock {
            if isSent(day) { return false }
            let record = SentDigest(day: day.iso, sent: Timestamp(now, timeZone: store.timeZone).rfc3339,
                                    entries: entries.sorted())
            try store.commit(files + [Store.PendingFile(folder: folder, id: day.iso,
                                                        data: Data(record.json.prettySerialized.utf8), obsolete: [])])
            return true
        }
    }

    /// Marks reported the entries of the last digest sent that are still pending:
    /// a crash after the digest was recorded as sent but before all its entries
    /// were marked would otherwise report them again in the next digest. A file that
    /// cannot be read proves nothing and is left alone.
    public func finishReporting() throws {
        guard let day = try sentDays().max(),
              let data = try StoreFiles.read(path(day)),
              let ids = (try? JSONDecoder().decode(SentDigest.self, from: data))?.entries else { return }
        let pending = ids.filter {
            RecordID.isValid($0) && StoreFiles.exists(store.filePath(DigestEntry.self, DigestEntry.activeFolder, $0))
        }
        if !pending.isEmpty { try store.markReported(pending, day: day) }
    }
}
