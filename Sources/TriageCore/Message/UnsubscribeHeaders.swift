/// The header fields a one-tap unsubscribe reads, as the message carries them
/// (unfolded, undecoded: URIs and authentication results are ASCII): kept by the
/// parser only when the message has `List-Unsubscribe` (RFC 2369), and turned into
/// an `UnsubscribeOffer` by the run, which knows the account's `authserv_id`.
public struct UnsubscribeHeaders: Hashable, Sendable {
    /// The first `List-Unsubscribe` field's value.
    public var listUnsubscribe: String
    /// The first `List-Unsubscribe-Post` field's value (RFC 8058), if any.
    public var post: String?
    /// Every `Authentication-Results` field (RFC 8601), topmost first.
    public var authenticationResults: [String]
    /// Every `DKIM-Signature` field (RFC 6376), topmost first.
    public var dkimSignatures: [String]

    /// Creates the fields.
    public init(listUnsubscribe: String, post: String? = nil, authenticationResults: [String] = [], dkimSignatures: [String] = []) {
        self.listUnsubscribe = listUnsubscribe
        self.post = post
        self.authenticationResults = authenticationResults
        self.dkimSignatures = dkimSignatures
    }

    /// At most this many `Authentication-Results` and `DKIM-Signature` fields are
    /// kept (a sender can add any number below the server's).
    public static let fieldLimit = 16
    /// The longest field value kept, in bytes; longer ones are cut.
    public static let valueLimit = 4096
}
