/// What a STATUS poll of a mailbox says (`UIDVALIDITY`, `UIDNEXT`, `MESSAGES`):
/// `triage watch` compares it with the last one and runs the mailbox's pass only
/// when it changed, so a look at a quiet mailbox costs one command, not a SELECT.
public struct MailboxCounters: Equatable, Sendable {
    /// The mailbox's UIDVALIDITY (0 when the server did not say).
    public var uidValidity: UInt32
    /// The UID the next message will get (0 when the server did not say).
    public var uidNext: UInt32
    /// How many messages are in it.
    public var messages: UInt32

    /// Counters as the server gave them.
    public init(uidValidity: UInt32, uidNext: UInt32, messages: UInt32) {
        self.uidValidity = uidValidity
        self.uidNext = uidNext
        self.messages = messages
    }
}
