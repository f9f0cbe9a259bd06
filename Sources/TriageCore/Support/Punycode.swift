/// Punycode (RFC 3492), decoding only: turns an IDNA `xn--` label back into the
/// Unicode a reader sees, so a domain written either way compares equal.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 0x80

    /// The Unicode label of an ACE label (`xn--bnk-sna` → `bänk`), or nil when it
    /// is not one or does not decode. A label without the prefix is not touched.
    static func decodeLabel(_ label: Substring) -> String? {
        guard label.count > 4, label.prefix(4).lowercased() == "xn--" else { return nil }
        return decode(label.dropFirst(4))
    }

    /// RFC 3492 section 6.2; nil on any malformed input (never traps).
    static func decode(_ input: Substring) -> String? {
        let bytes = Array(input.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }), bytes.count <= 256 else { return nil }
        var output: [UInt32] = []
        var start = 0
        if let delimiter = bytes.lastIndex(of: UInt8(ascii: "-")) {
            output = bytes[..<delimiter].map(UInt32.init)
            start = delimiter + 1
        }
        var n = initialN, i = 0, bias = initialBias
        var position = start
        while position < bytes.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position < bytes.count, let digit = digitValue(bytes[position]) else { return nil }
                position += 1
                let (product, overflow) = digit.multipliedReportingOverflow(by: w)
                guard !overflow, i <= Int(Int32.max) - product else { return nil }
                i += product
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (next, overflowW) = w.multipliedReportingOverflow(by: base - t)
                guard !overflowW, next <= Int(Int32.max) else { return nil }
                w = next
                k += base
            }
            let length = output.count + 1
            bias = adapt(delta: i - oldI, length: length, first: oldI == 0)
            guard i / length <= 0x10FFFF - n else { return nil }
            n += i / length
            i %= length
            guard n >= 0x80, let scalar = Unicode.Scalar(UInt32(n)) else { return nil }
            output.insert(scalar.value, at: i)
            i += 1
        }
        // An ACE label stands for some non-ASCII; `xn--a-` is no IDN label.
        guard output.contains(where: { $0 >= 0x80 }) else { return nil }
        var text = ""
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0")) + 26
        default: return nil
        }
    }

    private static func adapt(delta: Int, length: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / length
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
