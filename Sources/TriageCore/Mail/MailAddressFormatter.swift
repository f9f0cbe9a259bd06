/// Renders `From`/`To` address lists: display names as atoms, a quoted string
/// or RFC 2047 encoded-words, and validated ASCII addresses in angle brackets.
enum MailAddressFormatter {
    /// `Name: mailbox, mailbox`, folded.
    static func header(name: String, addresses: [Address], role: String) throws -> String {
        var tokens: [String] = []
        for (index, address) in addresses.enumerated() {
            var mailbox = try tokensFor(address, role: role)
            if index < addresses.count - 1 { mailbox[mailbox.count - 1] += "," }
            tokens += mailbox
        }
        return HeaderFolder.fold(name: name, tokens: tokens, limit: HeaderFolder.maxEncodedLineLength)
    }

    /// The address checked as a plain ASCII `local@domain`, the form SMTP envelopes need.
    static func validatedAddress(_ address: String, role: String) throws -> String {
        let forbidden = Set("<>()[]\\,;:\" ".utf8)
        let bytes = Array(address.utf8)
        let at = bytes.lastIndex(of: UInt8(ascii: "@"))
        guard let at, at > 0, at < bytes.count - 1,
              bytes.allSatisfy({ $0 > 32 && $0 < 127 && !forbidden.contains($0) })
        else {
            throw MailCompositionError(.config,
                "the \(role) address '\(MailText.neutralizingControls(address))' is not a plain ASCII address "
                + "like name@example.org; correct it in the configuration")
        }
        return address
    }

    private static func tokensFor(_ address: Address, role: String) throws -> [String] {
        let addr = try validatedAddress(address.address, role: role)
        guard let rawName = address.name else { return [addr] }
        let name = MailText.neutralizingControls(rawName).trimmingSpaces
        if name.isEmpty { return [addr] }
        let angle = "<" + addr + ">"
        let words = name.split(separator: " ").map(String.init)
        if MailText.isPrintableASCII(name), words.allSatisfy({ $0.count < 70 && !$0.contains("=?") }) {
            if words.allSatisfy(isAtom) { return words + [angle] }
            // A quoted string may be folded at its spaces (RFC 5322 allows FWS inside it),
            // so it is split into tokens there.
            var quoted = name.replacingBackslashAndQuote.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            quoted[0] = "\"" + quoted[0]
            quoted[quoted.count - 1] += "\""
            return quoted + [angle]
        }
        // Words of at most 60 characters fit after "From: " or a fold, with room to spare.
        return RFC2047.encode(name, maxLength: 60) + [angle]
    }

    private static func isAtom(_ word: String) -> Bool {
        let specials = Set("!#$%&'*+-/=?^_`{|}~".utf8)
        return !word.isEmpty && word.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || specials.contains(b)
        }
    }
}

private extension String {
    var replacingBackslashAndQuote: String {
        var out = ""
        for c in self {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
