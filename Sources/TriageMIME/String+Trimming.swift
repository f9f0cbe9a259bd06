extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF.
    ///
    /// Works on the UTF-8 view: these are single ASCII bytes, so the cut points
    /// are always character boundaries.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        let view = utf8
        guard let start = view.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = view.lastIndex(where: { !isSpace($0) })!
        if start == view.startIndex, view.index(after: last) == view.endIndex { return self }
        return String(self[start...last])
    }
}
