/// A problem found in a source file (a rule file, a command-line reminder), as a
/// value: parsers return these and never print. `DiagnosticRenderer` prints them.
public struct Diagnostic: Hashable, Sendable {
    /// Error or warning.
    public enum Severity: String, Sendable { case error, warning, note }

    /// The file (or a pseudo-name such as `<command line>`).
    public var path: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int
    /// How many characters the caret underline spans (at least 1).
    public var length: Int
    /// Error or warning.
    public var severity: Severity
    /// What is wrong, and a suggestion where there is one.
    public var message: String

    /// Creates a diagnostic.
    public init(path: String, line: Int, column: Int, length: Int = 1, severity: Severity = .error, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.length = max(1, length)
        self.severity = severity
        self.message = message
    }
}
