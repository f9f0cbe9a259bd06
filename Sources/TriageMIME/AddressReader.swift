import CEtPan
import TriageCore

/// Turns libetpan's parsed mailboxes and address lists into `Address` values
/// (groups flattened, names decoded), and recovers what it can from address
/// headers libetpan refused.
enum AddressReader {
    /// The mailboxes of an address list, groups flattened.
    static func addresses(_ list: UnsafeMutablePointer<mailimf_address_list>?) -> [Address] {
        var result: [Address] = []
        for address in CList.items(list?.pointee.ad_list, as: mailimf_address.self) {
            switch Int(address.pointee.ad_type) {
            case Int(MAILIMF_ADDRESS_MAILBOX):
                if let mailbox = address.pointee.ad_data.ad_mailbox { result.append(self.address(mailbox)) }
            case Int(MAILIMF_ADDRESS_GROUP):
                if let group = address.pointee.ad_data.ad_group {
                    result += mailboxes(group.pointee.grp_mb_list)
                }
            default:
                break
            }
        }
        return result
    }

    /// The mailboxes of a mailbox list.
    static func mailboxes(_ list: UnsafeMutablePointer<mailimf_mailbox_list>?) -> [Address] {
        CList.items(list?.pointee.mb_list, as: mailimf_mailbox.self).map(address)
    }

    /// One mailbox: the display name RFC 2047-decoded, nil when absent or empty.
    static func address(_ mailbox: UnsafeMutablePointer<mailimf_mailbox>) -> Address {
        let spec = HeaderText.plain(CString.bytes(mailbox.pointee.mb_addr_spec))
        var name: String?
        if let raw = mailbox.pointee.mb_display_name {
            let decoded = HeaderText.decode(CString.bytes(raw))
            name = decoded.isEmpty ? nil : decoded
        }
        return Address(name: name, address: spec)
    }

    /// The addresses of a raw address header value (From, To, Cc, Bcc, Reply-To).
    ///
    /// Comments are removed first, then libetpan's address-list grammar runs. When
    /// it refuses the whole value, each comma-separated piece is parsed on its own,
    /// and a piece that still fails yields the text inside `<...>`, or a bare word
    /// containing `@`.
    static func parse(_ raw: [UInt8]) -> [Address] {
        let raw = HeaderComments.strip(raw)
        if let parsed = parseList(raw) { return restoringQuotedLocalParts(parsed, raw: raw) }
        var result: [Address] = []
        for piece in split(raw) {
            if let parsed = parseList(piece) {
                result += parsed
                continue
            }
            let text = HeaderText.plain(piece).trimmingASCIIWhitespace()
            if let open = text.lastIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
                let address = String(text[text.index(after: open)..<close]).trimmingASCIIWhitespace()
                var name = String(text[..<open]).trimmingASCIIWhitespace()
                name = name.trimming("\"")
                let decoded = HeaderText.decode(Array(name.utf8))
                // `Mail Delivery System <>` (a bounce: the null reverse-path) keeps its name.
                guard !address.isEmpty || !decoded.isEmpty else { continue }
                result.append(Address(name: decoded.isEmpty ? nil : decoded, address: address))
            } else if let word = text.split(separator: " ").first(where: { $0.contains("@") }) {
                result.append(Address(name: nil, address: String(word).trimming("<>\"(),;")))
            }
        }
        return result
    }

    /// libetpan drops the white space inside a quoted local part
    /// (`"System Administrator"@x` becomes `"SystemAdministrator"@x`, another
    /// mailbox): put back the quoted string as written in `raw`.
    private static func restoringQuotedLocalParts(_ addresses: [Address], raw: [UInt8]) -> [Address] {
        guard addresses.contains(where: { $0.address.hasPrefix("\"") }) else { return addresses }
        // Each quoted string in `raw` that is directly followed by `@`.
        var quoted: [String] = []
        var i = 0
        while i < raw.count {
            guard raw[i] == 0x22 else { i += 1; continue }
            var j = i + 1
            while j < raw.count, raw[j] != 0x22 { j += raw[j] == 0x5C ? 2 : 1 }
            guard j < raw.count else { break }
            if j + 1 < raw.count, raw[j + 1] == UInt8(ascii: "@") {
                quoted.append(HeaderText.plain(Array(raw[i...j])))
            }
            i = j + 1
        }
        return addresses.map { address in
            guard address.address.hasPrefix("\""), let close = address.address.dropFirst().firstIndex(of: "\"")
            else { return address }
            let local = address.address[...close]
            guard let written = quoted.first(where: { $0.filter { !$0.isWhitespace } == local }) else { return address }
            return Address(name: address.name, address: written + address.address[address.address.index(after: close)...])
        }
    }

    private static func parseList(_ raw: [UInt8]) -> [Address]? {
        var index = 0
        var list: UnsafeMutablePointer<mailimf_address_list>?
        let status = raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                mailimf_address_list_parse(chars.baseAddress, chars.count, &index, &list)
            }
        }
        guard status == Int32(MAILIMF_NO_ERROR), let list else { return nil }
        defer { mailimf_address_list_free(list) }
        // Only a parse that used (nearly) the whole value counts.
        let rest = raw[index...].filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }
        return rest.isEmpty ? addresses(list) : nil
    }

    /// Splits at commas outside quotes, comments and angle brackets.
    private static func split(_ raw: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var current: [UInt8] = []
        var inQuote = false, depth = 0, inAngle = false, escaped = false
        for byte in raw {
            if escaped { escaped = false; current.append(byte); continue }
            switch byte {
            case 0x5C: escaped = inQuote || depth > 0      // backslash
            case 0x22 where depth == 0: inQuote.toggle()
            case 0x28 where !inQuote: depth += 1
            case 0x29 where !inQuote && depth > 0: depth -= 1
            case 0x3C where !inQuote && depth == 0: inAngle = true
            case 0x3E where !inQuote && depth == 0: inAngle = false
            case 0x2C where !inQuote && depth == 0 && !inAngle:
                pieces.append(current); current = []; continue
            default: break
            }
            current.append(byte)
        }
        pieces.append(current)
        return pieces.filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A } }
    }
}

private extension String {
    func trimming(_ set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
