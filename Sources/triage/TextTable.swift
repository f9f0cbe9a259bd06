import TriageCore

/// Left-aligned columns for list output: each column as wide as its widest cell
/// (the last one is not padded).
struct TextTable {
    private var rows: [[String]] = []

    /// Adds a row. A cell is one line: control characters in it (CR, LF, ESC from
    /// a stored subject) become spaces, so a cell can neither forge a row nor act
    /// on the terminal.
    mutating func add(_ cells: [String]) { rows.append(cells.map { ControlCharacters.replaced(in: $0) }) }

    /// The rows, each indented by `indent` and ending in a newline.
    func render(indent: String = "  ") -> String {
        var widths: [Int] = []
        for row in rows {
            for (i, cell) in row.enumerated() {
                if i >= widths.count { widths.append(0) }
                widths[i] = max(widths[i], cell.count)
            }
        }
        var out = ""
        for row in rows {
            var line = indent
            for (i, cell) in row.enumerated() {
                line += cell
                if i < row.count - 1 { line += String(repeating: " ", count: widths[i] - cell.count + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    /// `text` cut to `limit` characters, with an ellipsis when cut.
    static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
