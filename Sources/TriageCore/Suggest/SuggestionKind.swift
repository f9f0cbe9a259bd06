/// What kind of mail a suggested rule handles, which decides its actions.
public enum SuggestionKind: String, Sendable, CaseIterable {
    /// Bulk mail with List-Unsubscribe or Precedence bulk: `label "no push", archive, digest "Newsletters"`.
    case newsletter
    /// A discussion list (List-Id with List-Post) left in the inbox: `label "no push", archive, digest "Lists"`.
    case list
    /// A list the user files into a folder by hand: `move` there.
    case filedList = "filed-list"
    /// Automatic mail (Auto-Submitted, a no-reply sender): `digest "Notifications"`, `mark read` when never opened.
    case notification
    /// Receipts and invoices the user files by hand: `move` to that folder, `queue rec`.
    case receipt
    /// Other mail of one sender the user files into one folder by hand: `move` there.
    case filed
    /// A list (or sender) still sending after the user unsubscribed from it (issue 28):
    /// `label "no push", archive, digest "Lists"`, whatever its headers or numbers.
    case unsubscribed
}
