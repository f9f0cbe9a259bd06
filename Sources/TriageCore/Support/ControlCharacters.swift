/// Control characters in text that comes from outside (what a sender wrote, what a
/// server answered), replaced by spaces before triage shows, stores or exports it.
///
/// A control character reaching a terminal is an instruction, not text: ESC and
/// the C1 CSI (U+009B) start sequences that set the window title, clear the
/// screen or recolour; a bare CR moves back over what was printed; CR or LF inside
/// a one-line value forges whole output lines. Header decoding (TriageMIME's
/// `HeaderText`), placeholders, the iCalendar export and every write to the
/// terminal go through `replaced(in:keepingLineBreaks:)`, so each place agrees on
/// what a control is.
public enum ControlCharacters {
    /// Whether `scalar` is a control character: C0 (U+0000–U+001F), DEL (U+007F)
    /// or C1 (U+0080–U+009F). TAB is one too; `replaced` keeps it.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` with every control character except TAB replaced by one space.
    ///
    /// With `keepingLineBreaks` (multi-line text: a note, what a command prints),
    /// LF and CR LF are kept as well; a CR not followed by LF is still replaced,
    /// since it would let the next characters overwrite the line.
    public static func replaced(in text: String, keepingLineBreaks: Bool = false) -> String {
        // Fast path on the UTF-8 bytes: C0 and DEL are single bytes, C1 characters
        // start with 0xC2 (as do U+00A0–U+00BF, which the slow path keeps).
        func isSuspect(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x09: return false
            case 0x0A: return !keepingLineBreaks
            case 0..<0x20, 0x7F, 0xC2: return true
            default: return false
            }
        }
        // On the contiguous bytes of a native string when it has them (every header
        // value goes through here: the UTF-8 view's iterator costs several times more).
        let needsWork = text.utf8.withContiguousStorageIfAvailable { $0.contains(where: isSuspect) }
            ?? text.utf8.contains(where: isSuspect)
        guard needsWork else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        out.reserveCapacity(scalars.count)
        for (index, scalar) in scalars.enumerated() {
            guard isControl(scalar), scalar != "\t" else {
                out.append(scalar)
                continue
            }
            if keepingLineBreaks {
                if scalar == "\n" { out.append(scalar); continue }
                if scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" { out.append(scalar); continue }
            }
            out.append(" ")
        }
        return String(out)
    }
}
