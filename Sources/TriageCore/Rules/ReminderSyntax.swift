/// Parses the reminder grammar shared by the `remind` rule action and
/// `triage remind add`: `"TITLE" [in N days | on YYYY-MM-DD] [at HH:MM]
/// [near LAT,LON radius N m|km|mi [arriving|leaving]] [note "TEXT"]`.
///
/// The clauses may come in any order, each at most once. The title is always a
/// quoted string here; the command line quotes the user's words before parsing.
public enum ReminderSyntax {
    /// The words that start a clause (matched without regard to case).
    public static let clauses = ["in", "on", "at", "near", "note"]

    /// Parses `source` (the text after `remind`); `path` names it in diagnostics.
    /// Returns the spec, or nil with at least one diagnostic.
    public static func parse(_ source: String, path: String = "<command line>") -> (ReminderSpec?, [Diagnostic]) {
        RuleParser.parseReminder(source, path: path)
    }
}
