/// `text/plain; format=flowed` (RFC 3676) made into the lines the writer meant:
/// a line ending in a space is soft-broken and joins the next one (of the same
/// quote depth), the space that stuffs a line starting with a space, `>` or
/// `From ` is removed, and with `delsp=yes` the soft break's space goes too.
/// The signature separator `-- ` is never soft-broken. Quote marks are kept
/// (`> `, one per level) so quoted lines stay recognisable.
enum FlowedText {
    /// The unflowed text of `text` (any line ends), lines joined with LF.
    static func unflow(_ text: String, deleteSpace: Bool) -> String {
        var out: [String] = []
        var current: String?
        var currentDepth = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = Substring(raw)
            var depth = 0
            while line.first == ">" {
                depth += 1
                line = line.dropFirst()
            }
            if line.first == " " { line = line.dropFirst() }   // stuffing
            let soft = line.last == " " && line != "-- "
            var content = String(line)
            if soft, deleteSpace { content.removeLast() }
            if let open = current, currentDepth == depth {
                current = open + content
            } else {
                if let open = current { out.append(quoted(open, depth: currentDepth)) }
                current = content
                currentDepth = depth
            }
            if !soft, let closed = current {
                out.append(quoted(closed, depth: depth))
                current = nil
            }
        }
        if let open = current { out.append(quoted(open, depth: currentDepth)) }
        return out.joined(separator: "\n")
    }

    private static func quoted(_ line: String, depth: Int) -> String {
        depth == 0 ? line : String(repeating: ">", count: depth) + " " + line
    }
}
