import Foundation

/// Record ids: 32 lower-case hex digits (128 bits), which is also the file name.
///
/// A record made from mail takes its id from what it is, so the same message
/// through the same rule action always maps to the same file, whatever its UID.
public enum RecordID {
    /// The number of hex digits in an id.
    public static let length = 32
    /// The fewest digits shown or accepted as a short id.
    public static let minimumShortLength = 4

    /// The id of the record that `action` of rule `rule` makes from `message`.
    ///
    /// Identity is (account, Message-ID — or the header hash when there is none —,
    /// rule name, action key); the UID and mailbox are left out on purpose.
    public static func forMessage(_ message: Message, rule: String, action: Action) -> String {
        forMessage(account: message.server.account ?? "",
                   messageKey: message.messageID.map { "mid:" + $0 } ?? "hdr:" + message.headerHash,
                   rule: rule, actionKey: actionKey(action))
    }

    /// The id from explicit parts (`messageKey` distinguishes Message-ID from header hash).
    public static func forMessage(account: String, messageKey: String, rule: String, actionKey: String) -> String {
        // NUL separators keep ("a b", "c") and ("a", "b c") apart.
        let text = ["triage-record-1", account, messageKey, rule, actionKey].joined(separator: "\u{0}")
        return String(SHA256.hex(text).prefix(length))
    }

    /// What of an action is part of identity: its kind and what names its target
    /// (queue name, digest section, reminder title as written in the rule). A change
    /// of due days or time does not make a second record.
    public static func actionKey(_ action: Action) -> String {
        switch action {
        case .queue(let name, _): return "queue\u{0}" + name
        case .remind(let spec): return "remind\u{0}" + spec.title
        // One follow-up per sent message and rule, whatever the wait.
        case .followUp: return "follow up"
        case .digest(let section): return "digest\u{0}" + section
        case .label(let l): return "label\u{0}" + l
        case .unlabel(let l): return "unlabel\u{0}" + l
        case .move(let m): return "move\u{0}" + m
        case .markRead: return "read"
        case .markUnread: return "unread"
        case .flag: return "flag"
        case .archive: return "archive"
        case .webhook(let url): return "webhook\u{0}" + url
        case .stop: return "stop"
        // Not the time: one record per message and rule, so a message that came back
        // is never snoozed again by the same rule.
        case .snooze: return "snooze"
        }
    }

    /// A fresh id for a record that has no message (a reminder added on the command line).
    public static func random() -> String {
        String(UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(length))
    }

    /// Whether `text` is a well-formed full id.
    public static func isValid(_ text: some StringProtocol) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy(isHexDigit)
    }

    static func isHexDigit(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b >= 97 && b <= 102) }
}
