import Foundation

/// Reads a reply to the digest as the user meant it: the lines written above the
/// quoted digest, and nothing of the quote.
///
/// The quote is found by structure first (the MIME layer stops an HTML part
/// where a `blockquote`, `gmail_quote`, `divRplyFwdMsg`, ... begins: `ReplyBody`),
/// then by text (`QuoteMarkers`): a `>` line, an attribution ("On … wrote:",
/// "Am … schrieb …:", "… написал(а):", wrapped over up to three lines), a
/// separator ("-----Original Message-----" and its translations, Outlook's `____`
/// rule), a copied header block ("From: … Sent: …", "Von: … Gesendet: …"), a
/// signature (`-- `, "Sent from my iPhone" and its translations), or the digest's
/// own first line (`triage · `). Everything from the first of these on is dropped.
///
/// Only a prefix of a long reply is fetched: when the end of the user's part is
/// not within what was read, what was read may be the quote itself (a client that
/// quotes without markers), so the reply is refused, never obeyed; a reply read
/// whole has no such doubt, and then all of it is the user's.
public enum ReplyReader {
    /// The user's lines of `body`. `complete` says whether the whole message was
    /// read (not only a prefix). A multipart/alternative reply is read from its
    /// text part when that has a command line, else from its HTML.
    public static func read(_ body: ReplyBody, complete: Bool) -> ReplyText {
        let plain = body.plain.map { read($0, complete: complete) }
        let html = body.html.map { read($0, complete: complete) }
        for result in [plain, html] {
            if case .userLines(let lines)? = result, lines.contains(where: DigestCommandReader.isCommandLine) { return result! }
        }
        for result in [plain, html] {
            if case .refused? = result { return result! }
        }
        return plain ?? html ?? .userLines([])
    }

    /// One part's user lines, or a refusal when its end is not in what was read.
    static func read(_ part: ReplyBody.Part, complete: Bool) -> ReplyText {
        let lines = part.lines.map(normalized)
        let end = userPartEnd(lines)
        if end == nil, !part.quoteFound, !complete || part.cut {
            return .refused("the end of the reply's own text (the quoted digest below it) is not within the part of the "
                + "message that was read, so the quote cannot be told apart; reply with the commands above the quote, "
                + "or trim the quote")
        }
        return .userLines(Array(lines[..<(end ?? lines.count)]))
    }

    /// The index of the first line that begins the quote (or signature), or nil.
    public static func userPartEnd(_ lines: [String]) -> Int? {
        for i in lines.indices where isMarker(lines, at: i) { return i }
        return nil
    }

    /// `line` trimmed, with no-break and other spaces as plain spaces and
    /// zero-width characters removed (HTML replies are full of `&nbsp;`).
    static func normalized(_ line: String) -> String {
        var scalars = String.UnicodeScalarView()
        for s in line.unicodeScalars {
            switch s.value {
            case 0x200B...0x200D, 0x2060, 0xFEFF, 0xAD: continue
            case 0x09, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: scalars.append(" ")
            default: scalars.append(s)
            }
        }
        return String(scalars).trimmingCharacters(in: .whitespaces)
    }

    // MARK: - Markers

    /// Whether the quote (or the signature) begins at line `i`. A command line never
    /// begins it: cutting there would drop what the user asked for.
    static func isMarker(_ lines: [String], at i: Int) -> Bool {
        let line = lines[i]
        if line.isEmpty || DigestCommandReader.isCommandLine(line) { return false }
        if line.hasPrefix(">") || line == "--" || line.hasPrefix("triage · ") { return true }
        if isSeparator(line) || isSignature(line) { return true }
        if isHeaderBlock(lines, at: i) { return true }
        // An attribution, on this line or wrapped onto the next one or two (never
        // across a blank or a command line).
        var joined = line
        for next in i..<min(i + 3, lines.count) {
            if next > i {
                let more = lines[next]
                if more.isEmpty || DigestCommandReader.isCommandLine(more) { break }
                joined += " " + more
            }
            if isAttribution(joined, before: lines.dropFirst(next + 1).first { !$0.isEmpty }) { return true }
        }
        return false
    }

    /// "-----Original Message-----", "-------- Message d'origine --------",
    /// "---------- Forwarded message ---------", Outlook's `________________` rule.
    static func isSeparator(_ line: String) -> Bool {
        if line.hasPrefix("-----") || line.hasPrefix("____") { return true }
        guard line.hasPrefix("--") || line.hasPrefix("__") else { return false }
        let words = line.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "-_ "))
        return QuoteMarkers.originalMessages.contains(words)
    }

    /// "Sent from my iPhone", "Von meinem iPhone gesendet", "iPhoneから送信", "Get Outlook for Android".
    static func isSignature(_ line: String) -> Bool {
        let lower = line.lowercased()
        guard lower.count <= 80 else { return false }
        return QuoteMarkers.sentFromStarts.contains(where: lower.hasPrefix)
            || QuoteMarkers.sentFromEnds.contains(where: lower.hasSuffix)
    }

    /// A header block a client copies above the quoted message: a field line
    /// ("From: …", "*Von:* …", "De : …", "差出人: …") followed by another one (a
    /// blank line between them allowed); or a sender field alone that names an address.
    static func isHeaderBlock(_ lines: [String], at i: Int) -> Bool {
        guard let (name, value) = field(lines[i]), QuoteMarkers.headerFields.contains(name) else { return false }
        if QuoteMarkers.fromFields.contains(name), value.contains("@") { return true }
        let following = lines[(i + 1)...].prefix(3).filter { !$0.isEmpty }.prefix(1)
        return following.contains { field($0).map { QuoteMarkers.headerFields.contains($0.name) } ?? false }
    }

    /// The lower-cased name and the value of a header-like line (`Name: value`),
    /// bold markers (`*From:*`) and a space before the colon (`De :`) allowed.
    static func field(_ line: String) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(where: { $0 == ":" || $0 == "：" }),
              line.distance(from: line.startIndex, to: colon) <= 24 else { return nil }
        let name = line[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "* ")).lowercased()
        guard !name.isEmpty else { return nil }
        let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: "* "))
        return (name, value)
    }

    /// An attribution line: ends in `:` (also `：`, ` :`) and either holds an
    /// attribution word ("wrote", "schrieb", "a écrit", "が書きました", ...), or is
    /// Gmail's form without a verb (a date and an address: "ср, 30 апр. 2025 г. в
    /// 15:19, Name <name@example.org>:"), or is followed by a `>` line.
    static func isAttribution(_ text: String, before next: String?) -> Bool {
        var t = text.lowercased()
        while let last = t.last, last == "-" || last == " " { t.removeLast() }
        guard t.hasSuffix(":") || t.hasSuffix("：") else { return false }
        if next?.hasPrefix(">") ?? false { return true }
        let words = t.split(whereSeparator: { !$0.isLetter }).map(String.init)
        if words.contains(where: QuoteMarkers.wroteWords.contains) { return true }
        if QuoteMarkers.wroteFragments.contains(where: t.contains) { return true }
        return t.contains("@") && t.contains(where: \.isNumber)
    }
}
