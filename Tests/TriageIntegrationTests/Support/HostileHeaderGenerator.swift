import Foundation

/// Makes messages whose address and list headers are written in the ways that trip
/// parsers: duplicate and malformed fields, display names holding addresses, RFC 2047
/// encoded words (encoded names and encoded addresses), empty fields, route addresses,
/// groups, comments, missing fields, odd case and white space in field names, folding.
/// Deterministic: the same seed gives the same messages (for `SieveDifferentialTests`).
struct HostileHeaderGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64: small, and the same on every platform.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Addresses the differential rules name (and near misses of them).
    static let addresses = [
        "a@b.example", "A@B.Example", "evil@x.example", "me@example.test", "Me.Alias@Example.Test",
        "x@mail.b.example", "y@notb.example", "list-bot@lists.b.example", "c@d.example",
    ]

    private mutating func address() -> String { pick(Self.addresses) }

    private static func encoded(_ text: String, base64: Bool) -> String {
        if base64 { return "=?utf-8?b?" + Data(text.utf8).base64EncodedString() + "?=" }
        let bytes = text.utf8.map { byte -> String in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return String(UnicodeScalar(byte))
            case UInt8(ascii: " "): return "_"
            default: return String(format: "=%02X", byte)
            }
        }
        return "=?utf-8?q?" + bytes.joined() + "?="
    }

    /// Percent of mailboxes written in a hostile form, per message (the rest in forms
    /// mail really has, which the exported script must read exactly as triage).
    private var hostility = 50

    /// Forms mail really has, quirks included (quoted names holding commas or
    /// addresses, encoded names, tabs, no space before `<`).
    private static let usual: Set<Int> = [0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 24, 26, 28, 29, 30, 33]

    /// One mailbox (or something a sender writes where one belongs).
    private mutating func mailbox() -> String {
        let a = address(), b = address()
        var form = below(34)
        if !chance(hostility) { while !Self.usual.contains(form) { form = below(34) } }
        switch form {
        case 0, 1, 2: return a
        case 3, 4: return "<\(a)>"
        case 5, 6: return "Ann Example <\(a)>"
        case 7: return "\"Ann Example\" <\(a)>"
        case 8: return "\"\(b)\" <\(a)>"                       // display name holding an address
        case 9: return "\(b) <\(a)>"                           // the same, unquoted
        case 10: return "\"Evil\" <\(a)> <\(b)>"               // two angle addresses
        case 11: return "<@route.example:\(a)>"                // route address
        case 12: return "<@r1.example,@r2.example:\(a)>"
        case 13: return "Ann <\(a)> (\(b))"                    // comment holding an address
        case 14: return "\(a) (Ann Example)"
        case 15: return "\(Self.encoded(b, base64: false)) <\(a)>"   // encoded name holding an address
        case 16: return Self.encoded(a, base64: chance(50))          // encoded address
        case 17: return "<\(Self.encoded(a, base64: false))>"
        case 18: return "\(Self.encoded("Ann Exämple", base64: chance(50))) <\(a)>"
        case 19: return "<>"
        case 20: return "Ann <\(a)"                            // unclosed
        case 21: return "\(a)>"
        case 22: return "Ann Example"                          // no address at all
        case 23: return "\(a) \(b)"                            // no comma
        case 24: return "\"Smith, Ann\" <\(a)>"
        case 25: return "\"a b\"@b.example"                    // quoted local part
        case 26: return "A. Smith <\(a)>"
        case 27: return "\"unterminated <\(a)>"
        case 28: return "Ann\t<\(a)>"
        case 29: return "Ann<\(a)>"
        case 30: return "\"Ann \\\"Q\\\" E\" <\(a)>"              // escaped quotes
        case 31: return "<\(a)>\(b)"
        case 32: return "(\(b)) \(a)"
        default: return "\(a.uppercased())"
        }
    }

    /// A whole address field value.
    private mutating func addressValue() -> String {
        switch chance(hostility) ? below(20) : 6 + below(14) {
        case 0: return ""
        case 1: return "   "
        case 2: return "undisclosed-recipients:;"
        case 3: return "Team: \(mailbox()), \(mailbox());"      // group
        case 4: return "\(mailbox()), , \(mailbox())"
        case 5: return "\(mailbox()),"
        case 6, 7, 8: return "\(mailbox()), \(mailbox())"
        case 9: return "\(mailbox()), \(mailbox()), \(mailbox())"
        default: return mailbox()
        }
    }

    private mutating func listValue() -> String {
        switch below(16) {
        case 0: return ""
        case 1: return "  "
        case 2: return "<>"
        case 3: return "Dev List <>"
        case 4: return "<  >"
        case 5: return "dev.lists.b.example"
        case 6: return "Dev <dev.lists.b.example> <other.example"
        case 7: return "\(Self.encoded("Dev <x.example>", base64: false))"
        case 8: return "<dev.lists.b.example"
        case 9: return "(comment) <dev.lists.b.example>"
        case 10: return "\(Self.encoded(" ", base64: true))"
        default: return "Dev List <dev.lists.b.example>"
        }
    }

    /// A field name as senders write it: usual, other case, white space before the colon.
    private mutating func name(_ name: String) -> String {
        switch below(12) {
        case 0: return name.uppercased()
        case 1: return name.lowercased()
        case 2: return name + " "
        case 3: return name + "\t"
        default: return name
        }
    }

    /// A field, sometimes folded onto a second line.
    private mutating func field(_ name: String, _ value: String, _ eol: String) -> String {
        let head = self.name(name) + ":"
        if value.contains(" "), chance(15), let space = value.firstIndex(of: " ") {
            return head + " " + value[..<space] + eol + (chance(50) ? " " : "\t") + value[value.index(after: space)...] + eol
        }
        return head + (value.isEmpty || chance(5) ? "" : " ") + value + eol
    }

    /// The next message: its bytes.
    mutating func message(_ number: Int) -> String {
        let eol = chance(50) ? "\r\n" : "\n"
        // Half the messages are hostile throughout, the other half only here and there.
        hostility = number % 2 == 0 ? 50 : 4
        var fields: [String] = []
        for header in ["From", "To", "Cc", "Reply-To", "Sender"] {
            let present = header == "From" ? 90 : header == "To" ? 80 : 40
            guard chance(present) else { continue }
            fields.append(field(header, addressValue(), eol))
            if chance(12) { fields.append(field(header, addressValue(), eol)) }     // a duplicate field
        }
        if chance(45) {
            fields.append(field("List-Id", listValue(), eol))
            if chance(15) { fields.append(field("List-Id", listValue(), eol)) }
        }
        if chance(30) { fields.append(field("X-Mailer", chance(20) ? "" : "Mailer 1.0", eol)) }
        // Field order is not fixed: a sender may put anything first.
        for i in stride(from: fields.count - 1, to: 0, by: -1) {
            let j = below(i + 1)
            fields.swapAt(i, j)
        }
        fields.append(field("Subject", "hostile \(number)", eol))
        fields.append(field("Message-ID", "<hostile-\(number)@generator.example>", eol))
        fields.append(field("Date", "Mon, 02 Mar 2026 08:00:00 -0600", eol))
        return fields.joined() + eol + "Body of message \(number)." + eol
    }
}
