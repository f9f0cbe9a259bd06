/// A command's table: its name, its synopsis, the prose around its options, and
/// the options themselves. `Arguments` parses against it and `help` renders it,
/// so what the parser accepts and what `--help` says come from the same lines.
struct CommandSpec: Sendable {
    /// The word after `triage`.
    let name: String
    /// One line for `triage --help`.
    let summary: String
    /// The synopsis lines, each as typed after `triage ` (`run [--all] ...`).
    let usage: [String]
    /// What the command does: paragraphs before the options.
    let about: String
    /// The options, in the order the help lists them (`--help` is added).
    let options: [Option]
    /// Paragraphs after the options (exit status and the like); may be empty.
    var notes: String = ""
    /// Whether a word with one dash that is no option of the table is an
    /// argument (`remind add Buy milk -urgent`), rather than an unknown option.
    var dashWords = false

    /// Help text width.
    static let width = 79

    /// Every option the command accepts: its own, then `-h, --help`.
    var allOptions: [Option] { options + [.help] }

    /// The option one of whose names is `name`.
    func option(named name: String) -> Option? {
        allOptions.first { $0.names.contains(name) }
    }

    /// The `--help` text (also `triage help NAME`).
    var help: String {
        var text = ""
        for (i, line) in usage.enumerated() {
            text += Self.wrap(synopsis: "triage " + line, prefix: i == 0 ? "usage: " : "       ")
        }
        text += "\n" + Self.paragraphs(about) + "\nOptions:\n" + optionLines
        if !notes.isEmpty { text += "\n" + Self.paragraphs(notes) }
        return text
    }

    /// The options block: `  -v, --verbose    help`, long-only names aligned
    /// under the long names, sub-options indented, help wrapped in its column.
    private var optionLines: String {
        let anyShort = allOptions.contains { $0.names.count > 1 }
        func label(_ option: Option) -> String {
            let pad = anyShort && option.names.count == 1 ? "    " : ""
            return "  " + (option.isSubOption ? "  " : "") + pad + option.label
        }
        let column = min(28, allOptions.map { label($0).count }.max()! + 3)
        var out = ""
        for option in allOptions {
            let head = label(option)
            var lines = Self.wrap(option.help, width: Self.width - column)
            if head.count + 1 >= column {
                out += head + "\n"
            } else {
                out += head + String(repeating: " ", count: column - head.count) + lines.removeFirst() + "\n"
            }
            for line in lines { out += String(repeating: " ", count: column) + line + "\n" }
        }
        return out
    }

    /// A synopsis wrapped at `width`, continuation lines under the first
    /// argument; a bracketed group (`[--since YYYY-MM-DD]`) is never split.
    static func wrap(synopsis: String, prefix: String) -> String {
        var groups: [String] = []
        var depth = 0
        var current = ""
        for c in synopsis {
            if c == " " && depth == 0 {
                if !current.isEmpty { groups.append(current) }
                current = ""
                continue
            }
            if c == "[" { depth += 1 } else if c == "]" { depth = max(0, depth - 1) }
            current.append(c)
        }
        if !current.isEmpty { groups.append(current) }
        let indent = String(repeating: " ", count: prefix.count + (groups.first?.count ?? 0) + (groups.count > 1 ? groups[1].count + 2 : 1))
        var out = prefix
        var line = prefix
        for (i, group) in groups.enumerated() {
            let piece = (i == 0 ? "" : " ") + group
            if i > 2 && line.count + piece.count > width {
                out += "\n" + indent + group
                line = indent + group
            } else {
                out += piece
                line += piece
            }
        }
        return out + "\n"
    }

    /// Prose, each paragraph (separated by a blank line) refilled to the width.
    static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n")
            .map { wrap($0.split(whereSeparator: \.isNewline).joined(separator: " "), width: width).joined(separator: "\n") + "\n" }
            .filter { $0 != "\n" }
            .joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}
