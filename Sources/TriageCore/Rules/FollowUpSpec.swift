import Foundation

/// When a `follow up` action's reminder is due, counted from when the message was
/// SENT (its Date header, else the server's arrival date), not from the day triage
/// handles it: `follow up in 3 days` on a quote sent Monday is due Thursday even
/// when the Sent folder is first read on Wednesday.
public struct FollowUpSpec: Hashable, Sendable {
    /// How long to wait.
    public enum Wait: Hashable, Sendable {
        /// `in N hours`: the due day and time are N hours after sending.
        case hours(Int)
        /// `in N days|weeks`, `tomorrow`, `next WEEKDAY`, `on WEEKDAY` (the first such
        /// day after the sent day) or `on YYYY-MM-DD`, counted from the sent day.
        case day(DueSpec)
    }

    /// How long to wait.
    public var wait: Wait
    /// The time of day on the due day (`at 9am`); never with `hours`, whose time is the sending time plus N hours.
    public var at: TimeOfDay?

    /// Creates a spec.
    public init(wait: Wait, at: TimeOfDay? = nil) {
        self.wait = wait
        self.at = at
    }

    /// The title prefix: `No reply from Client 2: Quote 2`.
    public static let titlePrefix = "No reply from "

    /// The due day and time for a message sent at `sent` (seconds since 1970), in `timeZone`.
    public func due(sent: Int64, timeZone: TimeZone) -> (day: CivilDate, at: TimeOfDay?) {
        switch wait {
        case .hours(let hours):
            let seconds = sent + Int64(hours) * 3600
            let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let local = seconds + Int64(offset)
            let minuteOfDay = Int(((local % 86_400) + 86_400) % 86_400) / 60
            return (ZonedTime.civilDate(at: seconds, in: timeZone), TimeOfDay(hour: minuteOfDay / 60, minute: minuteOfDay % 60))
        case .day(let spec):
            return (spec.resolve(today: ZonedTime.civilDate(at: sent, in: timeZone)), at)
        }
    }

    /// The reminder's title for `message`: its first To (else Cc) recipient's display
    /// name, else address, and its subject, each flattened to one line of at most 80
    /// characters (they are the user's own words, but a sent message may quote anyone's).
    public static func title(for message: Message) -> String {
        let subject = DigestFormat.oneLine(message.subject ?? "", limit: 80)
        return titlePrefix + recipient(of: message) + ": " + (subject.isEmpty ? "(no subject)" : subject)
    }

    /// The first To (else Cc, Bcc) recipient: the display name, else (or when the name
    /// shows another domain) the address; one line, at most 80 characters.
    public static func recipient(of message: Message) -> String {
        (message.to.first ?? message.cc.first ?? message.bcc.first).map { address -> String in
            let name = DigestFormat.oneLine(address.name ?? "", limit: 80)
            return name.isEmpty || address.impersonatedDomain != nil ? DigestFormat.oneLine(address.address, limit: 80) : name
        } ?? "(no recipient)"
    }
}
