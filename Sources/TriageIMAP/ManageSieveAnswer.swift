import TriageCore

/// One ManageSieve answer (RFC 5804): the data lines before the status line, each
/// as its words, and the status line (`OK`, `NO` or `BYE`, an optional response
/// code, an optional text).
public struct ManageSieveAnswer: Sendable, Equatable {
    /// A word of a line: a string (quoted or literal, unescaped), an atom (a bare
    /// word such as `ACTIVE`), or a parenthesis of a response code.
    public enum Word: Sendable, Equatable {
        case string(String)
        case atom(String)
        case open
        case close
    }

    /// The data lines (capabilities, script names), without empty ones.
    public var lines: [[Word]] = []
    /// `OK`, `NO` or `BYE`, upper-cased.
    public var status = ""
    /// The response code and text of the status line, as one line for messages,
    /// control characters replaced (`(NONEXISTENT) There is no such script`).
    public var text = ""

    /// Creates an empty answer.
    public init() {}

    /// Whether the status is `OK`.
    public var ok: Bool { status == "OK" }

    /// The strings at the start of each data line, up to the first word that is not
    /// one, with the atoms that follow: `"SASL" "PLAIN"` → (["SASL", "PLAIN"], []),
    /// `"triage" ACTIVE` → (["triage"], ["ACTIVE"]). Lines that start with no string are left out.
    public var stringLines: [(strings: [String], atoms: [String])] {
        lines.compactMap { words in
            var strings: [String] = []
            var atoms: [String] = []
            for word in words {
                switch word {
                case .string(let s) where atoms.isEmpty: strings.append(s)
                case .atom(let a): atoms.append(a)
                default: break
                }
            }
            return strings.isEmpty ? nil : (strings, atoms)
        }
    }

    /// The status line's words after the status, as text for a message.
    static func text(of words: ArraySlice<Word>) -> String {
        var out = ""
        var previous: Word?
        for word in words {
            let piece: String
            switch word {
            case .string(let s): piece = s
            case .atom(let a): piece = a
            case .open: piece = "("
            case .close: piece = ")"
            }
            // No space after "(" or before ")".
            if !out.isEmpty, previous != .open, word != .close { out += " " }
            out += piece
            previous = word
        }
        return ControlCharacters.replaced(in: out)
    }
}
