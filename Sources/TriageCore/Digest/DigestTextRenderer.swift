/// The text/plain part: plain UTF-8 that reads well in a terminal (`triage
/// digest --preview`, mutt) and in any mail client, wrapped at 72 columns.
public struct DigestTextRenderer: Sendable {
    /// The wrap width in characters.
    public static let width = 72

    /// Creates a renderer.
    public init() {}

    /// The text body of `view`, LF line ends (the composer turns them into CRLF).
    public func render(_ view: DigestView) -> String {
        var lines: [String] = []
        lines.append("triage · " + view.title)
        lines.append(view.summary)
        for section in view.sections {
            lines.append("")
            let heading = "\(section.heading) · \(section.items.count)"
            lines.append(heading)
            lines.append(String(repeating: "-", count: min(heading.count, Self.width)))
            for item in section.items {
                lines.append("")
                lines += render(item)
            }
        }
        lines.append("")
        lines.append("-- ")
        if view.sections.contains(where: { $0.items.contains { $0.command != nil } }) {
            lines += wrap("Run the command under an item once it is dealt with; open items come back in every digest until then.", indent: "")
        }
        lines.append("triage digest for \(view.day.iso)")
        return lines.joined(separator: "\n") + "\n"
    }

    private func render(_ item: DigestView.Item) -> [String] {
        var lines: [String] = []
        let head = "• " + item.title + (item.status.map { " — " + $0 } ?? "")
        lines += wrap(head, indent: "  ", first: "")
        for detail in item.details { lines += wrap(detail, indent: "  ") }
        let from = [item.sender, item.date].compactMap { $0 }.joined(separator: " · ")
        if let sender = item.sender, let date = item.date, 2 + from.count > Self.width {
            // Keep the date whole on a line of its own rather than split it.
            lines += wrap(sender + " ·", indent: "  ")
            lines.append("  " + date)
        } else if !from.isEmpty {
            lines += wrap(from, indent: "  ")
        }
        if let subject = item.subject { lines += wrap("“" + subject + "”", indent: "  ") }
        if let snippet = item.snippet { lines += wrap(snippet, indent: "  ") }
        if let command = item.command { lines.append("  when done: " + command) }
        return lines
    }

    /// Word-wraps `text` to the width: the first line starts with `first`
    /// (default: `indent`), the others with `indent`. Words longer than a line
    /// (URLs) are left whole rather than broken.
    func wrap(_ text: String, indent: String, first: String? = nil) -> [String] {
        var lines: [String] = []
        var line = first ?? indent
        var lineHasWord = false
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if lineHasWord && line.count + 1 + word.count > Self.width {
                lines.append(line)
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}
