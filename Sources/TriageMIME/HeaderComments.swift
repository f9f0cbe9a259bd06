/// Removes RFC 5322 comments (`(...)`, nestable) outside quoted strings.
///
/// libetpan's address grammar counts `(` and `)` as atom characters, so a
/// comment in a display name (`Sam (phone) <sam@x>`) would end up in the
/// name; RFC 5322 (and Python's `email`) treat it as whitespace.
enum HeaderComments {
    /// `raw` with each comment replaced by one space (unchanged if a comment never closes).
    static func strip(_ raw: [UInt8]) -> [UInt8] {
        guard raw.contains(0x28) else { return raw }      // no '(': nothing to do
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var inQuote = false, depth = 0, escaped = false
        for byte in raw {
            if escaped {
                escaped = false
                if depth == 0 { out.append(byte) }
                continue
            }
            switch byte {
            case 0x5C where inQuote || depth > 0:         // backslash escape
                escaped = true
                if depth == 0 { out.append(byte) }
            case 0x22 where depth == 0:                   // "
                inQuote.toggle()
                out.append(byte)
            case 0x28 where !inQuote:                     // (
                if depth == 0 { out.append(0x20) }
                depth += 1
            case 0x29 where !inQuote && depth > 0:        // )
                depth -= 1
            default:
                if depth == 0 { out.append(byte) }
            }
        }
        // An unclosed comment would swallow the rest: keep the value as written.
        return depth == 0 ? out : raw
    }
}
