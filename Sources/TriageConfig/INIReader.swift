import CInih
import TriageCore

/// One `key = value` from an INI file, with where it stood.
public struct INIEntry: Sendable, Equatable {
    /// The section name as written (`triage`, `account personal`).
    public var section: String
    /// The key.
    public var key: String
    /// The value, with inline ` ;` and ` #` comments removed (` #` kept in `_command` values).
    public var value: String
    /// 1-based line number.
    public var line: Int
    /// The text after the `=` (or `:`) on its line as written, comments included:
    /// a quoted value is read from it (`QuotedValue`), since inih cuts at ` ;`.
    public var raw: String = ""
}

/// Reads INI text with inih, keeping line numbers (Debian's inih is built without
/// `INI_HANDLER_LINENO`, so lines are counted in our own line reader).
public enum INIReader {
    /// What reading produced: the entries, the sections in order with their lines,
    /// and the first syntax error's line, if any.
    public struct Result: Sendable {
        /// Every entry, in file order.
        public var entries: [INIEntry] = []
        /// Every section header, in file order, with its line.
        public var sections: [(name: String, line: Int)] = []
        /// The line of the first syntax error inih reported, if any.
        public var errorLine: Int?
    }

    private final class State {
        var lines: [[UInt8]]
        var next = 0
        var result = Result()
        init(text: String) {
            // Split on the LF byte: as Characters, "\r\n" is one grapheme and would never
            // match "\n", so a file with Windows line ends would read as one line.
            lines = Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false).map { line in
                Array(line.last == 13 ? line.dropLast() : line[...]) + [10]
            }
        }
    }

    /// Parses INI text.
    public static func read(_ text: String) -> Result {
        let state = State(text: text)
        let pointer = Unmanaged.passUnretained(state).toOpaque()
        let reader: ini_reader = { buffer, size, stream in
            let state = Unmanaged<State>.fromOpaque(stream!).takeUnretainedValue()
            guard state.next < state.lines.count, let buffer else { return nil }
            var line = state.lines[state.next]
            state.next += 1
            // inih reads at most size-1 bytes per call; a longer line would be split
            // and miscounted, so it is cut (no configuration line is that long).
            if line.count > Int(size) - 1 { line = Array(line.prefix(Int(size) - 2)) + [10] }
            line.withUnsafeBufferPointer { src in
                buffer.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { dst in
                    dst.update(from: src.baseAddress!, count: src.count)
                    dst[src.count] = 0
                }
            }
            return buffer
        }
        let handler: ini_handler = { user, section, name, value in
            let state = Unmanaged<State>.fromOpaque(user!).takeUnretainedValue()
            let sectionName = section.map { String(cString: $0) } ?? ""
            let line = state.next
            if name == nil {
                // inih calls with a nil name for a new section when INI_CALL_HANDLER_ON_NEW_SECTION is set.
                state.result.sections.append((sectionName, line))
                return 1
            }
            if state.result.sections.last?.name != sectionName {
                state.result.sections.append((sectionName, INIReader.sectionLine(state, before: line)))
            }
            let text = value.map { String(cString: $0) } ?? ""
            let key = String(cString: name!)
            let raw = INIReader.rawValue(state, line: line, value: text)
            state.result.entries.append(INIEntry(section: sectionName, key: key, value: INIReader.cutHashComment(text, key: key, raw: raw),
                                                 line: line, raw: raw))
            return 1
        }
        let rc = ini_parse_stream(reader, pointer, handler, pointer)
        var result = state.result
        if rc > 0 { result.errorLine = Int(rc) }
        // Sections with no keys never reach the handler; find their headers by text.
        for (index, raw) in state.lines.enumerated() {
            let trimmed = String(decoding: raw, as: UTF8.self).trimmingWhitespace
            guard trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") else { continue }
            let name = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close]).trimmingWhitespace
            if !result.sections.contains(where: { $0.line == index + 1 }) {
                result.sections.append((name, index + 1))
            }
        }
        result.sections.sort { $0.line < $1.line }
        return result
    }

    /// `value` without a ` # comment`: a `#` after a space or tab (or first in the value,
    /// with space after the `=`) starts a comment, as inih does for `;` (Debian's inih
    /// is built with `;` alone, and docs/caldav.md's examples comment with `#`). A `#`
    /// with no space before it is kept (`https://h/#x`). A `_command` value goes to
    /// `/bin/sh` as written: the shell reads ` # ...` as a comment itself, and keeps a
    /// `#` inside its own quotes, which cutting here would break.
    static func cutHashComment(_ value: String, key: String, raw: String) -> String {
        guard !key.hasSuffix("_command"), value.contains("#") else { return value }
        let chars = Array(value)
        let startsAfterSpace = raw.first == " " || raw.first == "\t"
        for i in chars.indices where chars[i] == "#" {
            if i == 0 ? startsAfterSpace : (chars[i - 1] == " " || chars[i - 1] == "\t") {
                return String(chars[..<i]).trimmingWhitespace
            }
        }
        return value
    }

    /// The text after the first `=` or `:` of line `line` (where inih splits), or the
    /// whole line when it is a continuation line (it starts with the value itself).
    private static func rawValue(_ state: State, line: Int, value: String) -> String {
        guard line >= 1, line <= state.lines.count else { return value }
        let text = String(decoding: state.lines[line - 1], as: UTF8.self).trimmingWhitespace
        if !value.isEmpty && text.hasPrefix(value) { return text }
        guard let split = text.firstIndex(where: { $0 == "=" || $0 == ":" }) else { return value }
        return String(text[text.index(after: split)...])
    }

    private static func sectionLine(_ state: State, before line: Int) -> Int {
        var i = min(line, state.lines.count) - 1
        while i >= 0 {
            let text = String(decoding: state.lines[i], as: UTF8.self).trimmingWhitespace
            if text.hasPrefix("[") { return i + 1 }
            i -= 1
        }
        return line
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line ends.
    var trimmingWhitespace: String {
        let ws: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !ws($0) }), let end = lastIndex(where: { !ws($0) }) else { return "" }
        return String(self[start...end])
    }
}
