import Foundation

/// `triage-uidlist`: the UID of every message in a Maildir folder, by base name.
///
/// Format (text): a first line `V<uidvalidity> N<next uid>`, then one `UID BASENAME`
/// line per message. Replaced atomically and durably (`MaildirFile` says why).
struct UIDList {
    /// UIDVALIDITY for the folder.
    var validity: UInt32
    /// The next UID to give.
    var next: UInt32 = 1
    /// UID by base name.
    private(set) var entries: [String: UInt32] = [:]

    init(validity: UInt32) {
        self.validity = max(1, validity)
    }

    /// Loads a list, or nil when there is none or it cannot be read (then UIDs start over
    /// with a new UIDVALIDITY, which the run handles by reprocessing without duplicates).
    static func load(from path: String) -> UIDList? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard let header = lines.first else { return nil }
        let fields = header.split(separator: " ")
        guard fields.count == 2, fields[0].hasPrefix("V"), fields[1].hasPrefix("N"),
              let v = UInt32(fields[0].dropFirst()), let n = UInt32(fields[1].dropFirst()),
              n <= highest else { return nil }
        var list = UIDList(validity: v)
        list.next = max(1, n)
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let uid = UInt32(parts[0]), uid > 0 else { continue }
            // Near the last UID there are none left to give: start over (a new UIDVALIDITY)
            // rather than trap on a later one (a file another program wrote, or a damaged one).
            guard uid < highest else { return nil }
            list.entries[String(parts[1])] = uid
            list.next = max(list.next, uid + 1)
        }
        return list
    }

    /// The UID of a base name, if it has one.
    func uid(of base: String) -> UInt32? { entries[base] }

    /// The highest next UID a loaded list may have: far beyond any real folder's
    /// lifetime, and far enough below `UInt32.max` that `assign` never overflows.
    static let highest = UInt32.max / 2

    /// Gives a new base name the next UID.
    mutating func assign(_ base: String) -> UInt32 {
        let uid = next
        entries[base] = uid
        next += 1
        return uid
    }

    /// Forgets messages that are gone; returns whether anything was removed.
    mutating func prune(keeping present: Set<String>) -> Bool {
        let before = entries.count
        entries = entries.filter { present.contains($0.key) }
        return entries.count != before
    }

    /// Writes the list atomically; a failure is a `MailError` for `server`.
    func save(to path: String, server: String) throws {
        var text = "V\(validity) N\(next)\n"
        for (base, uid) in entries.sorted(by: { $0.value < $1.value }) { text += "\(uid) \(base)\n" }
        try MaildirFile.write(text, to: path, server: server)
    }
}
