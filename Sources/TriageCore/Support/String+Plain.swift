// A small string helper shared by TriageCore and the adapters.
extension String {
    /// The string without leading and trailing spaces (U+0020 only).
    public var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
