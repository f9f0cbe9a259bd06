/// Parses the reminder grammar shared by the `remind` rule action and
/// `triage remind add`: `"TITLE" [in N days | on YYYY-MM-DD] [at HH:MM]
/// [near LAT,LON radius N m|km|mi [arriving|leaving]] [note "TEXT"]`.
public enum ReminderSyntax {
    /// Parses `source` (the text after `remind`); `path` names it in diagnostics.
    /// Returns the spec, or nil with at least one diagnostic.
    public static func parse(_ source: String, path: String = "<command line>") -> (ReminderSpec?, [Diagnostic]) {
        // Implemented with the rule language (issue 3).
        (nil, [Diagnostic(path: path, line: 1, column: 1, message: "reminder syntax is not available yet")])
    }
}
