/// The text/html part, made for what mail clients actually render (Gmail,
/// Apple Mail, Thunderbird): inline styles only (Gmail drops `<style>` in many
/// views), no images or other remote resources, and one column in a table at
/// most 600px wide that shrinks to a phone's width. Every string from mail or
/// from the store goes through `HTMLEscaper`.
public struct DigestHTMLRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    private static let font = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
    private static let mono = "ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace"

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
        <title>\(e(view.subject))</title>
        </head>
        <body style="margin:0;padding:0;background-color:#f3f4f6;">
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
        <tr><td align="center" style="padding:16px 8px;">
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border:1px solid #e5e7eb;border-radius:8px;font-family:\(Self.font);color:#111827;">
        <tr><td style="padding:20px 20px 12px 20px;">
        <div style="font-size:12px;line-height:16px;letter-spacing:0.08em;text-transform:uppercase;color:#6b7280;">triage digest</div>
        <h1 style="margin:4px 0 0 0;font-size:22px;line-height:28px;font-weight:700;color:#111827;">\(e(view.title))</h1>
        <div style="margin-top:6px;font-size:15px;line-height:21px;color:#374151;">\(summary(view))</div>
        </td></tr>

        """
        for section in view.sections {
            h += """
            <tr><td style="padding:18px 20px 0 20px;">
            <h2 style="margin:0;padding-bottom:6px;border-bottom:2px solid #e5e7eb;font-size:13px;line-height:18px;letter-spacing:0.06em;text-transform:uppercase;font-weight:700;color:#4b5563;">\(e(section.heading)) <span style="font-weight:400;color:#9ca3af;">\(section.items.count)</span></h2>
            </td></tr>

            """
            for item in section.items { h += render(item) }
        }
        let hasCommands = view.sections.contains { $0.items.contains { $0.command != nil } }
        h += """
        <tr><td style="padding:18px 20px 20px 20px;font-size:12px;line-height:17px;color:#9ca3af;">
        \(hasCommands ? "Run the command under an item once it is dealt with; open items come back in every digest until then.<br>" : "")triage digest for \(e(view.day.iso))
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

    private func render(_ item: DigestView.Item) -> String {
        let e = HTMLEscaper.escape
        let wrap = "overflow-wrap:break-word;word-wrap:break-word;word-break:break-word;"
        var h = "<tr><td style=\"padding:12px 20px;border-bottom:1px solid #f0f1f3;\(wrap)\">\n"
        h += "<div style=\"font-size:16px;line-height:22px;font-weight:600;color:#111827;\">\(e(item.title))</div>\n"
        if let status = item.status {
            let colours = item.overdue ? "background-color:#fee2e2;color:#991b1b;" : "background-color:#e0f2fe;color:#075985;"
            h += "<div style=\"margin-top:4px;\"><span style=\"display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;line-height:18px;font-weight:600;\(colours)\">\(e(status))</span></div>\n"
        }
        for detail in item.details {
            h += "<div style=\"margin-top:3px;font-size:14px;line-height:20px;color:#374151;\">\(e(detail))</div>\n"
        }
        if item.senderAddress != nil || item.date != nil {
            // Address and date are inline blocks: on a narrow screen each moves to
            // the next line whole instead of breaking at a hyphen.
            var sender: String?
            if let address = item.senderAddress {
                let block = "<span style=\"display:inline-block;max-width:100%;color:#6b7280;\">"
                if let name = item.senderName {
                    sender = "<span style=\"color:#374151;font-weight:600;\">\(e(name))</span> \(block)&lt;\(e(address))&gt;</span>"
                } else {
                    sender = "\(block)\(e(address))</span>"
                }
            }
            let date = item.date.map { "<span style=\"display:inline-block;color:#6b7280;white-space:nowrap;\">\(e($0))</span>" }
            h += "<div style=\"margin-top:3px;font-size:13px;line-height:19px;color:#6b7280;\">"
                + [sender, date].compactMap { $0 }.joined(separator: " · ") + "</div>\n"
        }
        if let subject = item.subject {
            h += "<div style=\"margin-top:3px;font-size:14px;line-height:20px;color:#374151;\">“\(e(subject))”</div>\n"
        }
        if let snippet = item.snippet {
            h += "<div style=\"margin-top:4px;font-size:14px;line-height:20px;color:#6b7280;\">\(e(snippet))</div>\n"
        }
        if let command = item.command {
            h += "<div style=\"margin-top:8px;font-size:12px;line-height:18px;color:#6b7280;\">when done: "
                + "<code style=\"font-family:\(Self.mono);font-size:12px;background-color:#f3f4f6;border:1px solid #e5e7eb;border-radius:4px;padding:1px 5px;color:#111827;\">\(e(command))</code></div>\n"
        }
        h += "</td></tr>\n"
        return h
    }
}
