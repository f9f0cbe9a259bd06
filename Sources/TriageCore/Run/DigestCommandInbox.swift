/// What `MailboxRunner` needs to obey command messages of the digest in the
/// inbox (Done links, replies with commands) before the user's rules see them.
public struct DigestCommandInbox {
    /// Recognises and verifies them.
    public var reader: DigestCommandReader
    /// The folder (as rules name folders) that handled command messages move to,
    /// after they are marked read; nil leaves them in the inbox, read. Asked only
    /// when a command is obeyed (finding `\Trash` costs a LIST of every folder).
    public var trash: () throws -> String?
    /// The decoded text and HTML parts of a raw message (TriageMIME's
    /// `MessageParser.replyBody`); the flag says whether the bytes are the whole message.
    public var replyBody: ([UInt8], Bool) -> ReplyBody

    /// The rule name that handled command messages are reported under.
    public static let ruleName = "digest command"

    /// Creates the inbox's command handling.
    public init(reader: DigestCommandReader, trash: @escaping () throws -> String?, replyBody: @escaping ([UInt8], Bool) -> ReplyBody) {
        self.reader = reader
        self.trash = trash
        self.replyBody = replyBody
    }
}

extension DigestCommandInbox {
    /// The rule key of a refused command's Problems entry (`DigestView` shows at most
    /// `problemLimit` of them a digest).
    public static let refusedKey = "digest command refused"

    /// Refused commands shown in one digest; the others are counted in one line.
    public static let problemLimit = 10

    /// The longest part of a refused message's subject shown, in characters.
    public static let subjectLimit = 80

    /// The Problems entry of a refused command message: who sent it and when, the
    /// start of its subject (quoted, one line) and why, never its text (what the
    /// next digest shows is in the quote of a reply to it, where a command line
    /// copied from a refused message would read as the user's).
    public static func problem(_ message: Message, reason: String, created: Timestamp) -> StoreBatch {
        let action = Action.digest(section: MailboxRunner.problemsSection)
        var summary = MessageSummary(message)
        let subject = DigestFormat.oneLine(message.subject ?? "", limit: subjectLimit)
        let words = DigestCommandReader.subjectWords(message.subject)
        let what = words == nil ? "a reply to the digest"
            : words?.first?.lowercased() == "unsubscribe" ? "an Unsubscribe link's message" : "a Done link's message"
        summary.subject = what + " (subject \u{201C}" + subject + "\u{201D})"
        summary.snippet = "refused: " + reason
        let entry = DigestEntry(id: RecordID.forMessage(message, rule: refusedKey, action: action),
                                section: MailboxRunner.problemsSection, created: created, rule: refusedKey, message: summary)
        var batch = StoreBatch()
        batch.add(entry)
        return batch
    }
}
