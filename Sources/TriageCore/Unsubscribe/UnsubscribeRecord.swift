import Foundation

/// One unsubscribe the user asked for (a digest's Unsubscribe link, or `triage
/// unsubscribe`), and, once carried out, how and with what answer:
/// `STORE/unsubscribe/pending/ID.json` until the next run (or the command) does
/// it, then `STORE/unsubscribe/done/ID.json`, kept (it is how `triage suggest`
/// and the 7-day check know the list was left). The id is the digest entry's.
public struct UnsubscribeRecord: StoreRecord, Hashable {
    public static let kindFolder = "unsubscribe"
    /// `pending` until carried out (or given up), then `done`.
    public static let statusFolders = ["pending", "done"]
    public static let activeFolder = "pending"
    public static let noun = "unsubscribe"

    /// How it was (or is to be) carried out.
    public enum Method: String, Sendable, Hashable, Decodable {
        /// RFC 8058: `POST List-Unsubscribe=One-Click` to the https URI.
        case oneClick = "one-click"
        /// RFC 2369: a message to the `mailto:` URI.
        case mailto
        /// Only an https link the user opens: reported, not followed.
        case link
    }

    /// The digest entry's full id.
    public var id: String
    /// The list: its List-Id, else the sender's address (lower-cased): what later mail is matched on.
    public var list: String
    /// When it was asked for.
    public var requested: Timestamp
    /// `link` (a digest's Unsubscribe link) or `command` (`triage unsubscribe`).
    public var via: String
    /// The message it was asked from, with its `unsubscribe` offer.
    public var message: MessageSummary
    /// How it was carried out; nil while pending.
    public var method: Method?
    /// The answer: `HTTP 200`, `sent to leave@list.example`, the link to open, or why it failed.
    public var answer: String?
    /// When it was carried out (or given up); nil while pending.
    public var done: Timestamp?
    /// Whether it worked (a 2xx, a message accepted); false for a failure and for a link left to the user.
    public var succeeded: Bool = false
    /// Failed attempts while pending (a run that could not reach the server tries again, `maxAttempts` in all).
    public var attempts: Int = 0
    /// When mail of the list was first seen `stillSendingDays` days or more after it was done; nil: none yet.
    public var stillSending: Timestamp?

    enum CodingKeys: String, CodingKey {
        case id, list, requested, via, message, method, answer, done, succeeded, attempts
        case stillSending = "still_sending"
    }

    /// Attempts before a failing unsubscribe is given up (and said in Problems).
    public static let maxAttempts = 3
    /// Days after an unsubscribe from which more mail of the list is a Problem.
    public static let stillSendingDays = 7

    /// Creates a pending unsubscribe of `entry`.
    public init(entry: DigestEntry, requested: Timestamp, via: String) {
        id = entry.id
        list = Self.listKey(entry.message)
        self.requested = requested
        self.via = via
        message = entry.message
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        list = try c.decode(String.self, forKey: .list)
        requested = try c.decode(Timestamp.self, forKey: .requested)
        via = try c.decode(String.self, forKey: .via)
        message = try c.decode(MessageSummary.self, forKey: .message)
        method = try c.decodeIfPresent(Method.self, forKey: .method)
        answer = try c.decodeIfPresent(String.self, forKey: .answer)
        done = try c.decodeIfPresent(Timestamp.self, forKey: .done)
        succeeded = try c.decodeIfPresent(Bool.self, forKey: .succeeded) ?? false
        attempts = try c.decodeIfPresent(Int.self, forKey: .attempts) ?? 0
        stillSending = try c.decodeIfPresent(Timestamp.self, forKey: .stillSending)
    }

    /// The List-Id, else the From address, lower-cased.
    public static func listKey(_ message: MessageSummary) -> String {
        (message.list ?? message.from?.address ?? "").lowercased()
    }

    public var statusFolder: String { done == nil ? "pending" : "done" }

    public var candidateLabel: String { "unsubscribe from \(DigestFormat.oneLine(list, limit: 60))" }

    public var json: JSONValue {
        .object([
            ("id", .string(id)),
            ("list", .string(list)),
            ("requested", .string(requested.rfc3339)),
            ("via", .string(via)),
            ("method", .optional(method?.rawValue)),
            ("answer", .optional(answer)),
            ("done", .optional(done?.rfc3339)),
            ("succeeded", .bool(succeeded)),
            ("attempts", .int(Int64(attempts))),
            ("still_sending", .optional(stillSending?.rfc3339)),
            ("message", message.json),
        ])
    }

    /// How it is to be carried out (RFC 8058 one-click only when offered and vouched for,
    /// else the mailto, else the link), with the URI; nil when the message offers none.
    public var plan: (method: Method, uri: String)? {
        guard let offer = message.unsubscribe else { return nil }
        if offer.allowsOneClick, let https = offer.https { return (.oneClick, https) }
        if let mailto = offer.mailto { return (.mailto, mailto) }
        if let https = offer.https { return (.link, https) }
        return nil
    }
}
