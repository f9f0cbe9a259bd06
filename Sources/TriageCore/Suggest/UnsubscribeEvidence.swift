/// Why a list the user unsubscribed from gets a suggested rule: the unsubscribe
/// (`STORE/unsubscribe/done/ID.json` with `still_sending` set), and what of its mail
/// the history holds since.
public struct UnsubscribeEvidence: Sendable, Equatable {
    /// The list as the record names it: its List-Id, else the sender's address (lower-cased).
    public var list: String
    /// When the unsubscribe was carried out.
    public var done: Timestamp
    /// How: `one-click` or `mailto`.
    public var method: String
    /// When mail of the list was first seen 7 days or more after it (the record's `still_sending`).
    public var stillSending: Timestamp
    /// Messages of the history's window from the list dated at or after `done`.
    public var since: Int

    /// Creates the evidence of an unsubscribe.
    public init(list: String, done: Timestamp, method: String, stillSending: Timestamp, since: Int) {
        self.list = list
        self.done = done
        self.method = method
        self.stillSending = stillSending
        self.since = since
    }
}
