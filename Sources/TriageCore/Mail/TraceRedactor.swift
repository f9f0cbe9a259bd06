/// Removes secrets from a protocol trace line before it is shown (`--verbose`).
///
/// `a1 LOGIN me secret` → `a1 LOGIN me ***`; `a2 AUTHENTICATE XOAUTH2 dXNl…` →
/// `a2 AUTHENTICATE XOAUTH2 ***`. The IMAP adapter already replaces the bytes
/// libetpan marks as private; this is the second line of defence for every line.
public enum TraceRedactor {
    /// The line with any credential replaced by `***`.
    public static func redact(_ line: String) -> String {
        let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard words.count >= 3 else { return line }
        switch words[1].uppercased() {
        case "LOGIN":
            // tag LOGIN user password: keep the user, hide the rest.
            return words.count >= 4 ? "\(words[0]) LOGIN \(words[2]) ***" : line
        case "AUTHENTICATE":
            return words.count >= 4 ? "\(words[0]) AUTHENTICATE \(words[2]) ***" : line
        default:
            return line
        }
    }
}
