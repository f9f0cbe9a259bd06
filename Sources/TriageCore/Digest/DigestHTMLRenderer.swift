/// The text/html part, made for what mail clients actually render (Gmail's web
/// and app, Apple Mail, Thunderbird): inline styles only (Gmail drops `<style>`),
/// no images or other remote resources, one column at most 600px wide that
/// shrinks to a phone's width, and colours that stay readable when a dark mode
/// inverts them: the page says it is light only (`color-scheme: light`), so
/// Apple Mail and Gmail's app invert it whole; explicit light backgrounds, dark
/// text, mid-tone accents, and no meaning carried by colour alone. Every
/// string from mail or from the store goes through `HTMLEscaper`; links are
/// `mailto:`, `message:`, `geo:` and Gmail's web search only.
public struct DigestHTMLRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    private static let font = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
    private static let ellipsis = "white-space:nowrap;overflow:hidden;text-overflow:ellipsis;"
    private static let wrap = "overflow-wrap:break-word;word-wrap:break-word;word-break:break-word;"

    /// The HTML document of `view`, LF line ends.
    public func render(_ view: DigestView) -> String {
        let e = HTMLEscaper.escape
        var h = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light">
        <meta name="supported-color-schemes" content="light">
        <title>\(e(view.subject))</title>
        </head>
        <body style="margin:0;padding:0;background-color:#f3f4f6;">
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
        <tr><td align="center" style="padding:8px 4px;">
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;table-layout:fixed;background-color:#ffffff;border:1px solid #d1d5db;border-radius:8px;font-family:\(Self.font);color:#1f2937;">
        <tr><td style="padding:12px 14px 6px 14px;">
        <div style="font-size:18px;line-height:24px;font-weight:700;">\(e(view.title))</div>
        <div style="margin-top:2px;font-size:14px;line-height:19px;color:#4b5563;">\(summary(view))</div>

        """
        if let comingUp = view.comingUp {
            h += "<div style=\"margin-top:4px;font-size:14px;line-height:19px;color:#4b5563;\(Self.wrap)\">\(e(comingUp))</div>\n"
        }
        h += "</td></tr>\n"
        for section in view.sections {
            let colour = section.warning ? "#b45309" : "#6b7280"
            let mark = section.warning ? "⚠ " : ""
            let note = section.note.map { " <span style=\"font-weight:400;text-transform:none;letter-spacing:0;\">· \(e($0))</span>" } ?? ""
            h += """
            <tr><td style="padding:12px 14px 0 14px;">
            <div style="padding-bottom:3px;border-bottom:2px solid \(colour);font-size:12px;line-height:16px;letter-spacing:0.05em;text-transform:uppercase;font-weight:700;color:\(colour);">\(mark)\(e(section.heading)) \(section.count)\(note)</div>
            </td></tr>

            """
            for item in section.items { h += render(item, warning: section.warning) }
            if section.compact {
                h += "<tr><td style=\"padding:4px 14px 0 14px;\">\n"
                for group in section.groups {
                    if let heading = group.heading {
                        h += "<div style=\"margin-top:4px;font-size:13px;line-height:18px;font-weight:600;color:#4b5563;\">\(e(heading))</div>\n"
                    }
                    for line in group.lines { h += render(line) }
                }
                h += "</td></tr>\n"
            }
        }
        var footer = ""
        if view.hasActions {
            footer += "Done and Tomorrow open a message to yourself: send it, and the next run closes or snoozes the item. "
        }
        if let id = view.sections.lazy.flatMap(\.items).compactMap(\.reply).first?.split(separator: " ").last {
            // An id of this digest, so the example reads as something to do.
            let e = HTMLEscaper.escape
            footer += "Or reply with one command a line: done \(e(String(id))), snooze \(e(String(id))) 3 days, reopen \(e(String(id))).<br>"
        }
        if let id = view.firstSnoozable {
            let e = HTMLEscaper.escape
            footer += "Snooze puts a message out of INBOX until tomorrow 08:00; or reply snooze \(e(id)) until monday "
                + "(or tomorrow, YYYY-MM-DD, at 9am).<br>"
        }
        h += """
        <tr><td style="padding:12px 14px 12px 14px;font-size:12px;line-height:16px;color:#6b7280;">
        \(footer)triage digest for \(e(view.day.iso))
        </td></tr>
        </table>
        </td></tr>
        </table>
        </body>
        </html>

        """
        return h
    }

    /// The counts, each kept whole on narrow screens.
    private func summary(_ view: DigestView) -> String {
        guard !view.summaryParts.isEmpty else { return HTMLEscaper.escape(view.summary) }
        return view.summaryParts.map { "<span style=\"white-space:nowrap;\">\(HTMLEscaper.escape($0))</span>" }
            .joined(separator: " · ")
    }

    /// `text` as a link to `href` when there is one (the colour inherited, so dark mode keeps it readable).
    private func link(_ text: String, _ href: String?, style: String = "color:inherit;text-decoration:none;") -> String {
        guard let href else { return text }
        return "<a href=\"\(HTMLEscaper.escape(href))\" style=\"\(style)\">\(text)</a>"
    }

    private func render(_ line: DigestView.Line) -> String {
        let e = HTMLEscaper.escape
        let count = line.count > 1 ? " <span style=\"color:#6b7280;\">(\(line.count))</span>" : ""
        var stamp = [line.time, line.shortID].compactMap { $0 }.map { e($0) }.joined(separator: " · ")
        if let snooze = line.snooze {
            stamp += (stamp.isEmpty ? "" : " · ") + "<a href=\"\(e(snooze))\" style=\"color:#2563eb;\">Snooze</a>"
        }
        let time = stamp.isEmpty ? "" : "<span style=\"float:right;padding-left:6px;color:#6b7280;font-size:12px;\">\(stamp)</span>"
        return "<div style=\"font-size:14px;line-height:21px;\(Self.ellipsis)\">\(time)"
            + "<span style=\"font-weight:600;\">\(e(line.sender))</span> "
            + link(e(line.subject), line.link) + count + "</div>\n"
            + (line.unsubscribe.map {
                "<div style=\"font-size:12px;line-height:18px;\">"
                    + link(e($0.label), $0.mailto, style: "color:#2563eb;text-decoration:underline;") + "</div>\n"
            } ?? "")
            + (line.warning.map { "<div style=\"font-size:13px;line-height:18px;color:#b45309;\(Self.wrap)\">⚠ \(e($0))</div>\n" } ?? "")
    }

    private func render(_ item: DigestView.Item, warning: Bool) -> String {
        let e = HTMLEscaper.escape
        var h = "<tr><td style=\"padding:8px 14px;border-bottom:1px solid #e5e7eb;\(Self.wrap)\">\n"
        var title = link(e(item.title), item.link)
        if let status = item.status {
            // Words and a border, not colour alone: an inverted badge still reads.
            title += " <span style=\"display:inline-block;padding:0 6px;border:1px solid #b91c1c;border-radius:9px;font-size:12px;line-height:17px;font-weight:600;color:#b91c1c;\">\(e(status))</span>"
        }
        h += "<div style=\"font-size:15px;line-height:20px;font-weight:600;\">\(title)</div>\n"
        var meta: [String] = []
        if let address = item.senderAddress {
            meta.append(item.senderName.map { "\(e($0)) &lt;\(e(address))&gt;" } ?? e(address))
        }
        if let date = item.date { meta.append("<span style=\"white-space:nowrap;\">\(e(date))</span>") }
        if !meta.isEmpty {
            h += "<div style=\"font-size:13px;line-height:18px;color:#6b7280;\">\(meta.joined(separator: " · "))</div>\n"
        }
        for detail in item.details {
            h += "<div style=\"font-size:14px;line-height:19px;\">\(e(detail))</div>\n"
        }
        if let place = item.placeText {
            h += "<div style=\"font-size:14px;line-height:19px;\">\(e(place))"
                + (item.placeGeo.map { " · " + link("map", $0, style: "color:#2563eb;") } ?? "") + "</div>\n"
        }
        if let subject = item.subject {
            h += "<div style=\"font-size:14px;line-height:19px;\">“\(e(subject))”</div>\n"
        }
        if let snippet = item.snippet {
            h += "<div style=\"font-size:13px;line-height:18px;color:\(warning ? "#92400e" : "#6b7280");\">\(e(snippet))</div>\n"
        }
        if !item.actions.isEmpty || item.reply != nil {
            let buttons = item.actions.map {
                link(e($0.label), $0.mailto,
                     style: "display:inline-block;margin-right:6px;padding:2px 12px;border:1px solid #2563eb;border-radius:12px;color:#2563eb;font-size:13px;line-height:20px;font-weight:600;text-decoration:none;")
            }.joined()
            let id = item.reply.map { "<span style=\"font-size:12px;color:#6b7280;\">or reply “\(e($0))”</span>" } ?? ""
            h += "<div style=\"margin-top:5px;\">\(buttons)\(id)</div>\n"
        }
        h += "</td></tr>\n"
        return h
    }
}
