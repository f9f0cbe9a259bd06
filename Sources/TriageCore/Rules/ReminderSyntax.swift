/// Parses the reminder grammar shared by the `remind` rule action and
/// `triage remind add`: `"TITLE" [in N days | on YYYY-MM-DD] [at HH:MM]
/// [near LAT,LON radius N m|km|mi [arriving|leaving]] [note "TEXT"]`.
///
/// The clauses may come in any order, each at most once. On the command line the
/// title may also be bare words up to the first clause keyword.
public enum ReminderSyntax {
    /// Parses `source` (the text after `remind`); `path` names it in diagnostics.
    /// Returns the spec, or nil with at least one diagnostic.
    public static func parse(_ source: String, path: String = "<command line>") -> (ReminderSpec?, [Diagnostic]) {
        RuleParser.parseReminder(source, path: path)
    }
}
