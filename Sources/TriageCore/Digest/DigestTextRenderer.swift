/// The text/plain part: plain UTF-8 that reads well in a terminal (`triage
/// digest --preview`, mutt) and in any mail client, wrapped at 72 columns.
/// Where the HTML part has Done links, it says in words what to reply.
public struct DigestTextRenderer: Sendable {
    /// The wrap width in characters.
    public static let width = 72

    /// Creates a renderer.
    public init() {}

    /// The text body of `view`, LF line ends (the composer turns them into CRLF).
    public func render(_ view: DigestView) -> String {
        var lines: [String] = []
        lines.append("triage · " + view.title)
        lines += wrap(view.summary, indent: "")
        if let comingUp = view.comingUp { lines += wrap(comingUp, indent: "  ", first: "") }
        for section in view.sections {
            lines.append("")
            var heading = (section.warning ? "! " : "") + "\(section.heading) · \(section.count)"
            if let note = section.note { heading += " · " + note }
            lines.append(heading)
            lines.append(String(repeating: section.warning ? "!" : "-", count: min(heading.count, Self.width)))
            for item in section.items {
                lines.append("")
                lines += render(item)
            }
            for group in section.groups {
                if let heading = group.heading {
                    lines.append("")
                    lines += wrap(heading, indent: "  ", first: "")
                }
                for line in group.lines {
                    let count = line.count > 1 ? " (\(line.count))" : ""
                    let text = [line.sender, line.subject + count, line.time].compactMap { $0 }.joined(separator: " · ")
                    lines += wrap((line.shortID.map { "[\($0)] " } ?? "") + text, indent: "    ", first: "  ")
                    if let warning = line.warning { lines += wrap(warning, indent: "  ") }
                    if let subject = line.unsubscribeSubject { lines += wrap(Self.unsubscribeHint(subject), indent: "      ", first: "    ") }
                }
            }
        }
        lines.append("")
        lines.append("-- ")
        if let id = view.sections.lazy.flatMap(\.items).compactMap(\.reply).first?.split(separator: " ").last {
            // Spelled out with an id of this digest: the text part has no links.
            lines.append("Reply to this digest with one command a line:")
            lines.append("  done \(id) [more ids]   it is done")
            lines.append("  snooze \(id) 3 days     due again in 3 days (or: tomorrow, 2 weeks)")
            lines.append("  reopen \(id)            open it again")
            lines.append("Open items come back in every digest until done.")
        }
        if let id = view.firstSnoozable {
            lines.append("Reply with snooze \(id) until monday (or tomorrow, YYYY-MM-DD, at 9am)")
            lines.append("to put the message [\(id)] out of INBOX until then.")
        }
        lines.append("triage digest for \(view.day.iso)")
        return lines.joined(separator: "\n") + "\n"
    }

    private func render(_ item: DigestView.Item) -> [String] {
        var lines: [String] = []
        let head = "• " + item.title + (item.status.map { " — " + $0 } ?? "")
        lines += wrap(head, indent: "  ", first: "")
        for detail in item.details { lines += wrap(detail, indent: "  ") }
        if let place = item.placeText {
            lines += wrap(place + (item.placeGeo.map { " (" + $0 + ")" } ?? ""), indent: "  ")
        }
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
        if let reply = item.reply { lines.append("  reply with: " + reply) }
        if let subject = item.unsubscribe { lines += wrap(Self.unsubscribeHint(subject), indent: "    ", first: "  ") }
        return lines
    }

    /// The text part's Unsubscribe link, in words (it has no links): the subject to send.
    static func unsubscribeHint(_ subject: String) -> String {
        "unsubscribe: send yourself “" + subject + "”"
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
