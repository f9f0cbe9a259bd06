/// How `label:` compares names: Gmail's way, case-insensitive, with spaces,
/// underscores and slashes the same as hyphens, so `label:no-push` finds "no push"
/// and `label:lists-dev` finds "Lists/dev".
public enum LabelName {
    /// The comparison form of a label name.
    public static func normalize(_ name: String) -> String {
        var out = ""
        out.reserveCapacity(name.utf8.count)
        for ch in name.lowercased() {
            out.append(ch == " " || ch == "_" || ch == "/" ? "-" : ch)
        }
        return out
    }

    /// The form `label:` compares: a keyword as the server stores it (shortened
    /// when long, `LabelCodec.stored`), then normalized. Every side of the
    /// comparison (the message's labels, planned labels, the query) goes through
    /// it, so a long label matches however it was written.
    public static func key(_ name: String) -> String {
        normalize(LabelCodec.stored(name))
    }
}
