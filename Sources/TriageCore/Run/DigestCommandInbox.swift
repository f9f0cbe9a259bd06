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
