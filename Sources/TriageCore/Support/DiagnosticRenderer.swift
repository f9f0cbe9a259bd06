/// Prints diagnostics the way compilers do, for standard error:
/// ```
/// Rules/default.rules:12:8: error: unknown operator 'form:'; did you mean 'from:'?
///    12 |   when form:boss@example.test
///       |        ^~~~~
/// ```
/// Line 0 means the whole file (no position, no excerpt); column 0 means the
/// whole line (no column, no excerpt).
public enum DiagnosticRenderer {
    /// One diagnostic, with an excerpt of `source` (the file's text) when given.
    public static func render(_ diagnostic: Diagnostic, source: String?) -> String {
        let d = diagnostic
        var position = d.path
        if d.line > 0 {
            position += ":\(d.line)"
            if d.column > 0 { position += ":\(d.column)" }
        }
        var out = "\(position): \(d.severity.rawValue): \(d.message)\n"
        guard d.line > 0, d.column > 0, let source else { return out }
        let lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard d.line <= lines.count else { return out }
        let line = Array(lines[d.line - 1])
        let number = String(d.line)
        let width = max(5, number.count + 1)
        out += String(repeating: " ", count: width - number.count) + number + " | " + String(line) + "\n"
        // Tabs before the caret are kept so the caret lines up under any tab width.
        var pad = ""
        for i in 0..<(d.column - 1) { pad.append(i < line.count && line[i] == "\t" ? "\t" : " ") }
        let room = max(1, line.count - (d.column - 1))
        let length = min(max(1, d.length), room)
        out += String(repeating: " ", count: width) + " | " + pad + "^" + String(repeating: "~", count: length - 1) + "\n"
        return out
    }

    /// Every diagnostic in order; `sources` maps paths to file text for excerpts.
    public static func render(_ diagnostics: [Diagnostic], sources: [String: String]) -> String {
        diagnostics.map { render($0, source: sources[$0.path]) }.joined()
    }
}
