import Foundation
import TriageConfig
import TriageCore
import TriageMIME

/// Reads an account's history for `triage suggest`: the header fields `MailHistory`
/// names and the flags of every message of INBOX, of the folders the user files into,
/// and of the Sent folder, without bodies and without changing anything (EXAMINE).
/// Each folder is fetched in chunks and each chunk parsed before the next, so memory
/// holds parsed headers only, never a folder's raw bytes.
package enum HistoryCollector {
    /// UIDs per FETCH.
    package static let chunk = 1000

    /// What was read of one account.
    package struct Collected {
        package var messages: [HistoryMessage] = []
        /// Folders that are no user's filing (the server's archive, trash, junk, drafts, sent).
        package var systemFolders: Set<String> = []
        /// The folders read, with how many messages each gave (for `--verbose`-like notes).
        package var folders: [(name: String, messages: Int)] = []
        /// The Sent folder read, if any.
        package var sent: String?
        /// Folders that could not be read (refused, gone since LIST), with the server's word.
        package var unreadable: [(name: String, reason: String)] = []
    }

    /// Reads `account`'s history on `connection`: received mail dated at or after
    /// `since` (seconds since 1970), and all of the user's sent mail (whom the user
    /// writes to does not expire). `keep` are extra header fields to keep (the
    /// current rules' `header:` names), `fields` extra ones to fetch.
    package static func collect(_ account: AccountSection, on connection: MailConnection, since: Int64,
                                keep: [String], fields: [String]) throws -> Collected {
        var collected = Collected()
        let sent = try AccountSession.sentFolder(account, on: connection)
        collected.sent = sent
        // Trash, junk and drafts say nothing of a sender (Gmail's All Mail repeats every
        // other folder); the archive says mail was read and put away: read, but no one's filing.
        var skipped = Set<String>()
        for attribute in ["\\Trash", "\\Junk", "\\Drafts", "\\All"] {
            if let folder = try connection.specialUseFolder(attribute) { skipped.insert(folder) }
        }
        collected.systemFolders = skipped
        if let archive = try account.archive ?? connection.specialUseFolder("\\Archive") { collected.systemFolders.insert(archive) }
        if let sent { collected.systemFolders.insert(sent) }
        var names = try connection.folderList() ?? account.mailboxes
        if !names.contains(where: { $0.uppercased() == "INBOX" }) { names.insert("INBOX", at: 0) }
        if let sent, !names.contains(sent) { names.append(sent) }
        let headerFields = Array(Set(MailHistory.headerFields + fields.map { $0.uppercased() })).sorted()
        let kept = Array(Set(MailHistory.keptFields + keep.map { $0.lowercased() })).sorted()
        for name in names {
            let isSent = name == sent
            if !isSent, skipped.contains(where: { $0.lowercased() == name.lowercased() }) { continue }
            let status: MailboxStatus
            do {
                status = try connection.open(name, readOnly: true)
            } catch let error as MailError where error.kind == .missingFolder || error.kind == .refused {
                if isSent, account.sent != nil { throw SimpleError(.config, "[account \(account.name)] sent = \(name): \(error.message)") }
                // One folder the server will not open blocks none of the others.
                collected.unreadable.append((name, error.message))
                continue
            }
            _ = status
            let uids = try connection.uids(above: 0)
            var count = 0
            // Newest first (UIDs grow with arrival): a folder's old mail (a large archive) is not
            // fetched beyond the first chunk that holds nothing of the window.
            var end = uids.count
            while end > 0 {
                let part = Array(uids[max(0, end - chunk)..<end])
                end -= chunk
                var inWindow = false
                for fetched in try connection.fetch(part, parts: [], headerFields: headerFields) {
                    var message = MessageParser.parse(fetched.header, keepingHeaders: kept)
                    message.server = fetched.serverFacts(account: account.name, mailbox: name)
                    message.size = fetched.size
                    let item = HistoryMessage(message: message, isSent: isSent)
                    // Received mail outside the window is dropped at once: memory holds the window only.
                    // A chunk keeps the walk going when something in it is of the window by its Date or its
                    // arrival (an old Date on recent mail must not stop it early).
                    if (fetched.internalDate ?? Int64.max) >= since { inWindow = true }
                    if !isSent, let seconds = item.seconds, seconds < since { continue }
                    inWindow = true
                    collected.messages.append(item)
                    count += 1
                }
                if !isSent, !inWindow { break }
            }
            collected.folders.append((name, count))
        }
        return collected
    }
}
