/// Where a piece of rule source stands: a line, a 1-based character column and
/// a length in characters. Tokens never span lines, so one line is enough.
public struct SourceSpan: Hashable, Sendable {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int
    /// Length in characters (at least 1 when underlined).
    public var length: Int

    /// Creates a span.
    public init(line: Int, column: Int, length: Int) {
        self.line = line
        self.column = column
        self.length = length
    }

    /// The span from the start of `self` to the end of `other`, when both are on one line;
    /// otherwise `self` alone (a diagnostic underlines one line).
    public func through(_ other: SourceSpan) -> SourceSpan {
        guard other.line == line, other.column >= column else { return self }
        return SourceSpan(line: line, column: column, length: other.column + other.length - column)
    }
}
