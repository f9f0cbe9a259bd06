/// A count and its noun agreeing in number, for everything triage prints:
/// "1 message", "2 messages", never "1 messages" or "message(s)".
public enum Counted {
    /// `1 reminder`, `0 reminders`, `3 queue entries` (with `plural` for the irregular ones).
    public static func of(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// A count before a digest section's name, which the user chose (`digest "Lists"`)
    /// or is triage's own "Problems": `5 Lists`, `1 List`, `1 FYI`.
    ///
    /// After 1, a last word that is a regular English plural loses its `s`
    /// (Lists, Problems, newsletters, Mailing lists). Any other ending is kept
    /// as written, since guessing wrong is worse than "1 News": words in `ss`,
    /// `us`, `is`, `ws`, `ics`, `es` after s/x/z/ch/sh, `ies`, words under 4
    /// letters and anything not all letters (FYI stays FYI; it has no `s`).
    public static func section(_ n: Int, _ name: String) -> String {
        "\(n) " + (n == 1 ? singularOfRegularPlural(name) : name)
    }

    /// `name` with its last word's plural `s` dropped when the word is plainly a
    /// regular plural, else `name` unchanged.
    static func singularOfRegularPlural(_ name: String) -> String {
        let word = name.split(separator: " ").last.map(String.init) ?? name
        let lower = word.lowercased()
        guard lower.count >= 4, lower.hasSuffix("s"), name.hasSuffix(word),
              lower.allSatisfy({ $0.isASCII && $0.isLetter }) else { return name }
        let kept = ["ss", "us", "is", "ws", "ics", "ies", "ses", "xes", "zes", "ches", "shes"]
        guard !kept.contains(where: lower.hasSuffix) else { return name }
        return String(name.dropLast())
    }
}
