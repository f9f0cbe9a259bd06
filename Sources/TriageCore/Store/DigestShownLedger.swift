import Foundation

/// What each sent digest showed, by its Message-ID: the records (reminders and
/// queue entries) a reply to it, or one of its Done links, may act on, and when it
/// was sent (a reply counts for `[digest] reply_days` after). One small file per
/// sent digest, `digest/shown/LOCALPART.json` (the Message-ID's local part, which
/// triage made: `digest-2026-11-30.b78bdef85b16.z2fouj5y6pid4bmt`), written with
/// the store's one atomic commit like the digest ledger's, and pruned when a
/// digest is sent.
public struct DigestShownLedger {
    /// The store it belongs to.
    public let store: Store

    /// What one file says.
    public struct Shown: Sendable, Hashable, Decodable {
        /// The digest's Message-ID, without brackets.
        public var messageID: String
        /// The digest's day, `YYYY-MM-DD`.
        public var day: String
        /// When it was sent (RFC 3339).
        public var sent: String
        /// The full ids of the reminders and queue entries it showed, sorted (the same
        /// file whatever order equal items were shown in).
        public var ids: [String]
        /// The full ids of the digest entries it showed that a reply may snooze
        /// (`snooze ID until DAY`: those with a Message-ID); nil in records written before.
        public var entries: [String]?

        /// Creates a record.
        public init(messageID: String, day: String, sent: String, ids: [String], entries: [String]? = nil) {
            self.messageID = messageID
            self.day = day
            self.sent = sent
            self.ids = ids
            self.entries = entries
        }

        /// When it was sent, seconds since 1970; nil when unreadable.
        public var sentSeconds: Int64? { Timestamp(rfc3339: sent)?.secondsSince1970 }

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("messageID", .string(messageID)), ("day", .string(day)), ("sent", .string(sent)),
                                                 ("ids", .array(ids.map { .string($0) }))]
            if let entries, !entries.isEmpty { fields.append(("entries", .array(entries.map { .string($0) }))) }
            return .object(fields)
        }
    }

    /// `STORE/digest/shown`.
    var folder: String { store.root + "/" + DigestEntry.kindFolder + "/shown" }

    /// The file name (without `.json`) of a Message-ID triage made; nil for any
    /// other (a name that is not a plain `digest-…` local part is never a path).
    static func name(_ messageID: String) -> String? {
        let suffix = "@" + DigestMessageBuilder.messageIDDomain
        guard messageID.lowercased().hasSuffix(suffix) else { return nil }
        let local = messageID.dropLast(suffix.count)
        guard local.hasPrefix("digest-"), local.count <= 120,
              local.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                  || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }) else { return nil }
        return String(local)
    }

    /// The file that records that the digest `messageID` of `day`, sent at `now`,
    /// showed `ids` (committed with the digest's sent marker, `DigestLedger.markSent`).
    func file(messageID: String, day: CivilDate, now: Date, ids: [String], entries: [String] = []) -> Store.PendingFile? {
        guard let name = Self.name(messageID) else { return nil }
        let shown = Shown(messageID: messageID, day: day.iso, sent: Timestamp(now, timeZone: store.timeZone).rfc3339,
                          ids: Array(Set(ids)).sorted(), entries: Array(Set(entries)).sorted())
        return Store.PendingFile(folder: folder, id: name, data: Data(shown.json.prettySerialized.utf8), obsolete: [])
    }

    /// Records that the digest `messageID` of `day`, sent at `now`, showed `ids`.
    public func record(messageID: String, day: CivilDate, now: Date, ids: [String], entries: [String] = []) throws {
        guard let file = file(messageID: messageID, day: day, now: now, ids: ids, entries: entries) else { return }
        try store.withLock { try store.commit([file]) }
    }

    /// What the digest `messageID` showed; nil when there is no (readable) record of it.
    public func shown(_ messageID: String) -> Shown? {
        guard let name = Self.name(messageID),
              let data = try? StoreFiles.read(folder + "/" + name + ".json"),
              let shown = try? JSONDecoder().decode(Shown.self, from: data),
              shown.messageID == messageID else { return nil }
        return shown
    }

    /// Every readable record, in no order (a few dozen: they are pruned).
    public func all() -> [Shown] {
        StoreFiles.names(in: folder).compactMap { name in
            guard name.hasSuffix(".json"), !name.hasPrefix("."),
                  let data = try? StoreFiles.read(folder + "/" + name) else { return nil }
            return try? JSONDecoder().decode(Shown.self, from: data)
        }
    }

    /// Removes the records of digests sent more than `days` days before `now`
    /// (a reply to them is refused anyway). Unreadable files are left alone.
    public func prune(now: Date, days: Int) throws {
        let cutoff = Int64(now.timeIntervalSince1970.rounded(.down)) - Int64(days) * 86_400
        try store.withLock {
            for name in StoreFiles.names(in: folder) where name.hasSuffix(".json") && !name.hasPrefix(".") {
                let path = folder + "/" + name
                guard let data = try? StoreFiles.read(path),
                      let sent = (try? JSONDecoder().decode(Shown.self, from: data))?.sentSeconds, sent < cutoff else { continue }
                try StoreFiles.remove(path)
            }
        }
    }
}
