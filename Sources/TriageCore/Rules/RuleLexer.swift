/// Turns rule source into tokens, in one pass, never failing: an unterminated
/// string is reported and ends at the end of its line so parsing can go on.
///
/// Comments run from `#` to the end of the line; line breaks are white space.
public struct RuleLexer {
    private let chars: [Character]
    private let path: String
    private var index = 0
    private var line = 1
    private var column = 1
    private var tokens: [Token] = []
    private var diagnostics: [Diagnostic] = []

    private init(source: String, path: String) {
        var chars = Array(source)
        // A byte-order mark some editors write is not part of the first line's text.
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        self.chars = chars
        self.path = path
    }

    /// Every token of `source`, ending with `.end`, and any lexical diagnostics.
    public static func tokenize(_ source: String, path: String) -> ([Token], [Diagnostic]) {
        var lexer = RuleLexer(source: source, path: path)
        lexer.run()
        return (lexer.tokens, lexer.diagnostics)
    }

    /// Characters that end a bare word.
    static func isDelimiter(_ c: Character) -> Bool {
        c.isWhitespace || c == "(" || c == ")" || c == "{" || c == "}" || c == "\"" || c == "," || c == "#"
    }

    private var atEnd: Bool { index >= chars.count }
    private var peek: Character { chars[index] }

    private mutating func advance() -> Character {
        let c = chars[index]
        index += 1
        if c.isNewline { line += 1; column = 1 } else { column += 1 }
        return c
    }

    private mutating func run() {
        var spaceBefore = true
        while true {
            // White space and comments.
            while !atEnd, peek.isWhitespace || peek == "#" {
                spaceBefore = true
                if peek == "#" {
                    while !atEnd, !peek.isNewline { _ = advance() }
                } else {
                    _ = advance()
                }
            }
            let startLine = line, startColumn = column
            func emit(_ kind: Token.Kind, _ text: String, length: Int) {
                tokens.append(Token(kind: kind, text: text, span: SourceSpan(line: startLine, column: startColumn, length: length),
                                    spaceBefore: spaceBefore))
            }
            guard !atEnd else {
                emit(.end, "", length: 1)
                return
            }
            let c = advance()
            switch c {
            case "(": emit(.leftParen, "(", length: 1)
            case ")": emit(.rightParen, ")", length: 1)
            case "{": emit(.leftBrace, "{", length: 1)
            case "}": emit(.rightBrace, "}", length: 1)
            case ",": emit(.comma, ",", length: 1)
            case "-": emit(.minus, "-", length: 1)
            case "\"":
                var text = ""
                var length = 1
                var closed = false
                while !atEnd, !peek.isNewline {
                    let d = advance()
                    length += 1
                    if d == "\"" { closed = true; break }
                    if d == "\\", !atEnd, peek == "\"" || peek == "\\" {
                        text.append(advance())
                        length += 1
                    } else {
                        text.append(d)
                    }
                }
                if !closed {
                    diagnostics.append(Diagnostic(path: path, line: startLine, column: startColumn, length: length,
                                                  message: "unterminated string; close it with '\"' on the same line"))
                }
                emit(.string, text, length: length)
            default:
                var text = String(c)
                // In header:Precedence:bulk the header's name is no operator, whatever its letters.
                let afterHeader = !spaceBefore && tokens.last.map { $0.kind == .op && $0.text == "header" } == true
                while true {
                    while !atEnd, !RuleLexer.isDelimiter(peek), peek != ":" { text.append(advance()) }
                    guard !atEnd, peek == ":" else { break }
                    if RuleLexer.isOperatorName(text), !afterHeader {
                        _ = advance()
                        emit(.op, text.lowercased(), length: text.count + 1)
                        text = ""
                        break
                    }
                    // A colon inside a value such as 09:00 belongs to the word.
                    text.append(advance())
                }
                if !text.isEmpty { emit(.word, text, length: text.count) }
            }
            spaceBefore = false
        }
    }

    /// Operator names are letters and underscores (`older_than`); `09:00` is a word.
    static func isOperatorName(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { ($0.isLetter && $0.isASCII) || $0 == "_" }
    }
}
