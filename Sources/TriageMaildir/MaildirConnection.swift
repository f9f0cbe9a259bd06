import Foundation
import TriageCore

/// A local Maildir that behaves like an IMAP mailbox for `triage run`.
///
/// Mailbox `INBOX` is the Maildir itself; any other mailbox `A/B` is the Maildir++
/// subfolder `.A.B`. Maildir has no UIDs, so, like Dovecot's `dovecot-uidlist`, a
/// `triage-uidlist` file in each folder gives every message (by its unique base
/// name) a number that only grows. Flags map to the Maildir info letters (`S` read,
/// `F` flagged, `R` answered, `T` trashed, `D` draft) and labels to Dovecot's
/// keyword letters (`a`...`z` listed in `dovecot-keywords`), written as the same
/// `LabelCodec` keywords an IMAP server would store.
public final class MaildirConnection: MailConnection {
    /// The Maildir root (the INBOX).
    public let root: String
    /// How many bytes of the body `fetch` returns beyond the header.
    public let bodyPrefixLength: Int

    public var serverName: String { "maildir:" + root }

    private var folder: String?
    private var readOnly = true
    private var uidList = UIDList(validity: 1)
    /// Current path of each message of the open folder, relative to the folder.
    private var paths: [UInt32: String] = [:]

    /// Opens nothing yet; `root` must be a Maildir (with `cur/` and `new/`).
    public init(root: String, bodyPrefixLength: Int = 16 * 1024) throws {
        self.root = root
        self.bodyPrefixLength = bodyPrefixLength
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + "/cur", isDirectory: &isDir), isDir.boolValue else {
            throw MailError(.configuration, server: "maildir:" + root,
                            "this is not a Maildir (no cur/ folder); check the account's url")
        }
    }

    /// The folder path of a mailbox name.
    public func path(of mailbox: String) -> String {
        if mailbox.uppercased() == "INBOX" { return root }
        let parts = mailbox.split(whereSeparator: { $0 == "/" || $0 == "." }).map(String.init)
        return root + "/." + parts.joined(separator: ".")
    }

    public func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus {
        let dir = path(of: mailbox)
        guard FileManager.default.fileExists(atPath: dir + "/cur") else {
            // As on IMAP: a configuration problem (78), not a temporary one.
            throw MailError(.missingFolder, server: serverName,
                            "mailbox \(mailbox) does not exist (no \(dir)/cur); check `mailboxes =` for this account")
        }
        folder = dir
        self.readOnly = readOnly
        // A lost list means new UIDs; a random UIDVALIDITY makes sure the run sees that.
        let saved = UIDList.load(from: dir + "/triage-uidlist")
        uidList = saved ?? UIDList(validity: UInt32.random(in: 1...UInt32.max))
        let files = try scan(dir)
        // An empty folder's list is saved too: else each open would make up a new
        // UIDVALIDITY and the first message to arrive would look like a renumbering.
        var changed = saved == nil || (uidList.entries.isEmpty && !files.isEmpty)
        paths = [:]
        var present = Set<String>()
        // Each base name once, not in every comparison of the sort (most of a 10,000-file open).
        for (base, relative) in files.map({ (baseName($0), $0) }).sorted(by: { $0.0 < $1.0 }) {
            present.insert(base)
            if let uid = uidList.uid(of: base) {
                paths[uid] = relative
            } else {
                paths[uidList.assign(base)] = relative
                changed = true
            }
        }
        if uidList.prune(keeping: present) { changed = true }
        if changed && !readOnly { try uidList.save(to: dir + "/triage-uidlist", server: serverName) }
        return MailboxStatus(name: mailbox, uidValidity: uidList.validity, uidNext: uidList.next,
                             exists: UInt32(paths.count), readOnly: readOnly)
    }

    public func uids(above uid: UInt32) throws -> [UInt32] {
        paths.keys.filter { $0 > uid }.sorted()
    }

    /// What a Maildir is: a local store, any keyword, the default archive folder made here.
    public var traits: ServerTraits {
        ServerTraits(capabilities: [], canSearch: false, fetchesTextPrefix: false, takesAnyKeyword: true, makesArchiveFolder: true)
    }

    /// The folder `archive` files into when the account names none.
    public static let defaultArchiveFolder = "Archive"

    /// The whole header and the body prefix of each message, whatever `request` leaves
    /// out: the file is read anyway, and less would save nothing.
    public func fetch(_ request: FetchRequest) throws -> [FetchedMessage] {
        let uids = request.uids
        let dir = try openFolder()
        let keywords = KeywordFile.load(dir)
        var result: [FetchedMessage] = []
        for uid in uids {
            guard let relative = paths[uid] else { continue }
            let full = dir + "/" + relative
            guard let handle = FileHandle(forReadingAtPath: full) else { continue }
            defer { try? handle.close() }
            let attributes = try? FileManager.default.attributesOfItem(atPath: full)
            let size = (attributes?[.size] as? Int) ?? 0
            let mtime = (attributes?[.modificationDate] as? Date).map { Int64($0.timeIntervalSince1970) }
            var bytes: [UInt8] = []
            var headerEnd: Int?
            // Read until the header has ended and the body prefix is complete.
            while true {
                let chunk = handle.readData(ofLength: 64 * 1024)
                if chunk.isEmpty { break }
                bytes.append(contentsOf: chunk)
                if headerEnd == nil { headerEnd = MaildirConnection.headerEnd(bytes) }
                if let end = headerEnd, bytes.count >= end + bodyPrefixLength { break }
            }
            let end = headerEnd ?? bytes.count
            let body = bytes[end...].prefix(bodyPrefixLength)
            let info = MaildirInfo(fileName: relative)
            result.append(FetchedMessage(uid: uid, flags: info.systemFlags,
                                         labels: Set(info.keywordLetters.compactMap { keywords.name(of: $0) }.map(LabelCodec.label(for:))),
                                         size: size, internalDate: mtime,
                                         header: Array(bytes[..<end]), bodyPrefix: Array(body)))
        }
        return result
    }

    public func store(_ change: FlagChange, uids: [UInt32]) throws {
        let dir = try openFolder()
        guard !readOnly else { throw MailError(.protocol, server: serverName, "the mailbox was opened read-only") }
        var keywords = KeywordFile.load(dir)
        let adding = change.operation == .add
        // Removing takes off the legacy `+20` spelling too; a spelling the folder never had is skipped.
        let spellings = adding ? change.labels.compactMap(LabelCodec.keyword(for:)) : change.labels.flatMap(LabelCodec.keywords(for:))
        let letters = try spellings.compactMap { keyword -> Character? in
            guard let letter = keywords.letter(for: keyword, create: adding) else {
                guard adding else { return nil }
                // Maildir names keywords by the letters a-z: a 27th is a refusal, like a
                // server's NO, not a broken connection.
                throw MailError(.refused, server: serverName,
                                "the folder \(dir) already has 26 keywords, all Maildir can name (a-z); cannot add '\(keyword)'")
            }
            return letter
        }
        if keywords.changed { try keywords.save(dir, server: serverName) }
        for uid in uids {
            guard let relative = paths[uid] else { continue }
            var info = MaildirInfo(fileName: relative)
            let before = info
            for flag in change.flags { info.set(flag: flag, change.operation == .add) }
            for letter in letters { info.set(letter: letter, change.operation == .add) }
            // A message whose flags change has been seen by a client: it belongs in cur/.
            guard info != before || relative.hasPrefix("new/") else { continue }
            let target = "cur/" + baseName(relative) + ":2," + info.letters
            try rename(dir + "/" + relative, dir + "/" + target)
            paths[uid] = target
        }
    }

    /// A rename, atomic: a resumed move (`attempts`) has nothing half done to look for.
    @discardableResult
    public func move(_ uids: [UInt32], to folderName: String, recorder: MoveRecorder?, resuming attempts: [CopyAttempt]?) throws -> MoveMethod {
        let dir = try openFolder()
        guard !readOnly else { throw MailError(.protocol, server: serverName, "the mailbox was opened read-only") }
        let target = path(of: folderName)
        guard FileManager.default.fileExists(atPath: target + "/cur") else {
            throw MailError(.missingFolder, server: serverName,
                            "cannot move to \(folderName): the folder does not exist; create it (\(target)) or fix the rule; the messages stay where they are")
        }
        let sourceKeywords = KeywordFile.load(dir)
        var targetKeywords = KeywordFile.load(target)
        // Keyword letters are per folder: translate them by name. The target's new
        // letters are saved before any message carries them into it, so a crash never
        // leaves a message with a letter its folder does not define.
        var letters: [UInt32: Set<Character>] = [:]
        for uid in uids {
            guard let relative = paths[uid] else { continue }
            let names = MaildirInfo(fileName: relative).keywordLetters.compactMap { sourceKeywords.name(of: $0) }
            letters[uid] = Set(names.compactMap { targetKeywords.letter(for: $0, create: true) })
        }
        if targetKeywords.changed { try targetKeywords.save(target, server: serverName) }
        for uid in uids {
            guard let relative = paths[uid] else { continue }
            var info = MaildirInfo(fileName: relative)
            info.keywordLetters = letters[uid] ?? []
            let folderPart = relative.hasPrefix("new/") && info.letters.isEmpty ? "new/" : "cur/"
            let name = folderPart + baseName(relative) + (folderPart == "new/" ? "" : ":2," + info.letters)
            try rename(dir + "/" + relative, target + "/" + name)
            paths[uid] = nil
        }
        return .rename
    }

    /// A Maildir has no attributes: the folder of the usual name (Dovecot's and most
    /// clients'), when it exists: `Sent` (`.Sent`, also `Sent Messages`, `Sent Items`),
    /// `Trash`, `Junk` (or `Spam`), `Drafts`, `Archive`.
    public func specialUseFolder(_ attribute: String) throws -> String? {
        let usual: [String: [String]] = ["sent": ["Sent", "Sent Messages", "Sent Items"], "trash": ["Trash", "Deleted Messages"],
                                         "junk": ["Junk", "Spam"], "drafts": ["Drafts"], "archive": ["Archive"]]
        let wanted = attribute.hasPrefix("\\") ? String(attribute.dropFirst()).lowercased() : attribute.lowercased()
        return usual[wanted]?.first { FileManager.default.fileExists(atPath: path(of: $0) + "/cur") }
    }

    /// Makes the folder `name` (its `cur/`, `new/` and `tmp/`, private) unless it exists:
    /// the default `Archive` of a Maildir account, which the user never named.
    public func createFolder(_ name: String) throws {
        let target = path(of: name)
        for sub in ["cur", "new", "tmp"] where !FileManager.default.fileExists(atPath: target + "/" + sub) {
            do {
                try FileManager.default.createDirectory(atPath: target + "/" + sub, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw MailError(.configuration, server: serverName,
                                "cannot create the folder \(name) (\(target)): \(error.localizedDescription); create it yourself")
            }
        }
    }

    /// Folders are named as written (`Lists/dev` is `.Lists.dev`, `path(of:)`).
    public func serverFolder(_ ruleName: String) throws -> String { ruleName }

    /// Names as written.
    public func folderNamespace() throws -> FolderNamespace { .plain }

    /// INBOX and every Maildir++ subfolder (`.A.B` is `A/B`) with a `cur/`, in name order.
    public func folderList() throws -> [String]? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let folders = names.filter { $0.hasPrefix(".") && $0.count > 1 && $0 != ".." }
            .filter { FileManager.default.fileExists(atPath: root + "/" + $0 + "/cur") }
            .map { String($0.dropFirst()).replacingOccurrences(of: ".", with: "/") }
            .sorted()
        return ["INBOX"] + folders
    }

    /// `Archive` (`defaultArchiveFolder`), made when `create` and missing.
    public func archiveFolder(create: Bool) throws -> String? {
        if create { try createFolder(Self.defaultArchiveFolder) }
        return Self.defaultArchiveFolder
    }

    /// Nothing to tell: no server.
    public func takeNotices() -> [String] { [] }

    public func close() {
        folder = nil
        paths = [:]
    }

    /// The flags and labels a Maildir file's name (and its folder's `dovecot-keywords`)
    /// give, or nil when the file is not in a Maildir's `cur/` or `new/`.
    public static func serverFacts(ofFile path: String) -> ServerFacts? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[parts.count - 2] == "cur" || parts[parts.count - 2] == "new" else { return nil }
        let folder = parts.dropLast(2).joined(separator: "/")
        let info = MaildirInfo(fileName: String(parts[parts.count - 1]))
        let keywords = KeywordFile.load(folder.isEmpty ? "." : folder)
        var facts = ServerFacts()
        facts.flags = info.systemFlags
        facts.labels = Set(info.keywordLetters.compactMap { keywords.name(of: $0) }.map(LabelCodec.label(for:)))
        return facts
    }

    // MARK: - Helpers

    private func openFolder() throws -> String {
        guard let folder else { throw MailError(.protocol, server: serverName, "no mailbox is open") }
        return folder
    }

    private func scan(_ dir: String) throws -> [String] {
        var result: [String] = []
        for sub in ["new", "cur"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/" + sub)) ?? []
            result += names.filter { !$0.hasPrefix(".") }.map { sub + "/" + $0 }
        }
        return result
    }

    private func baseName(_ relative: String) -> String {
        let name = relative.split(separator: "/").last.map(String.init) ?? relative
        return name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
    }

    private func rename(_ from: String, _ to: String) throws {
        guard Foundation.rename(from, to) == 0 else {
            throw MailError(.protocol, server: serverName, "cannot rename \(from) to \(to): \(String(cString: strerror(errno)))")
        }
    }

    /// Offset just past the empty line that ends the header, if present.
    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            if bytes[i] == 10 {
                if i + 1 < bytes.count, bytes[i + 1] == 10 { return i + 2 }
                if i + 2 < bytes.count, bytes[i + 1] == 13, bytes[i + 2] == 10 { return i + 3 }
            }
            i += 1
        }
        return nil
    }
}
