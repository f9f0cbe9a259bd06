/// What `MailboxRunner` needs to obey command messages of the digest in the
/// inbox (Done links, replies with commands) before the user's rules see them.
public struct DigestCommandInbox {
    /// Recognises and verifies them.
    public var reader: DigestCommandReader
    /// The folder (as rules name folders) that handled command messages move to,
    /// after they are marked read; nil leaves them in the inbox, read. Asked only
    /// when a command is obeyed (finding `\Trash` costs a LIST of every folder).
    public var trash: () throws -> String?
    /// The decoded text of a raw message, lines kept (TriageMIME's `MessageParser.bodyText`).
    public var bodyText: ([UInt8]) -> String

    /// The rule name that handled command messages are reported under.
    public static let ruleName = "digest command"

    /// Creates the inbox's command handling.
    public init(reader: DigestCommandReader, trash: @escaping () throws -> String?, bodyText: @escaping ([UInt8]) -> String) {
        self.reader = reader
        self.trash = trash
        self.bodyText = bodyText
    }
}
