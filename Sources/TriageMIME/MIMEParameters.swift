/// The parameters of a Content-Type or Content-Disposition header as libetpan
/// parsed them, with RFC 2231 (continuations, charset, percent-encoding) and the
/// common non-standard RFC 2047 encoded values resolved on top.
///
/// libetpan 1.9 leaves `name*0*=...` parameters as plain attribute/value pairs,
/// so the assembly happens here. Public so that the IMAP adapter decodes the
/// parameters of a BODYSTRUCTURE with the same code (`AttachmentName`).
public struct MIMEParameters: Sendable {
    /// Attribute (lower-cased) and raw value bytes, in header order.
    private(set) var pairs: [(name: String, value: [UInt8])] = []

    /// No parameters.
    public init() {}

    /// Adds one parameter: its attribute and value as the header (or the server) gave them.
    public mutating func append(name: [UInt8], value: [UInt8]) {
        pairs.append((String(decoding: name, as: UTF8.self).lowercased(), value))
    }

    /// Whether no parameters were given.
    var isEmpty: Bool { pairs.isEmpty }

    /// The decoded value of parameter `name` (lower-case), or nil.
    public func value(_ name: String) -> String? {
        // RFC 2231 single extended value: name*=charset'lang'percent-encoded
        if let extended = pairs.first(where: { $0.name == name + "*" }) {
            return Self.decodeExtended(extended.value, isFirst: true, charset: nil).text
        }
        // RFC 2231 continuations: name*0, name*1*, ...
        var segments: [(index: Int, encoded: Bool, value: [UInt8])] = []
        let prefix = name + "*"
        for pair in pairs where pair.name.hasPrefix(prefix) {
            var rest = pair.name.dropFirst(prefix.count)
            let encoded = rest.hasSuffix("*")
            if encoded { rest = rest.dropLast() }
            guard let index = Int(rest), index >= 0, index < 1000 else { continue }
            if !segments.contains(where: { $0.index == index }) {
                segments.append((index, encoded, pair.value))
            }
        }
        if !segments.isEmpty {
            segments.sort { $0.index < $1.index }
            var bytes: [UInt8] = []
            var charset: String?
            for (position, segment) in segments.enumerated() {
                // Continuations must count up from 0; stop at the first gap.
                if segment.index != position { break }
                if segment.encoded {
                    let decoded = Self.decodeExtended(segment.value, isFirst: position == 0, charset: charset)
                    if position == 0 { charset = decoded.charset }
                    bytes += decoded.bytes
                } else {
                    bytes += segment.value
                }
            }
            return CharsetDecoder.decode(bytes, charset: charset)
        }
        if let plain = pairs.first(where: { $0.name == name }) {
            // Many mailers put RFC 2047 encoded words in parameters; decode them too.
            return HeaderText.decode(plain.value)
        }
        return nil
    }

    /// Splits `charset'language'percent-encoded` (first segment) and percent-decodes.
    private static func decodeExtended(_ raw: [UInt8], isFirst: Bool, charset: String?)
        -> (bytes: [UInt8], charset: String?, text: String) {
        var body = raw[...]
        var foundCharset = charset
        if isFirst {
            let quotes = raw.indices.filter { raw[$0] == 0x27 }   // '
            if quotes.count >= 2 {
                let label = String(decoding: raw[..<quotes[0]], as: UTF8.self)
                foundCharset = label.isEmpty ? nil : label
                body = raw[(quotes[1] + 1)...]
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count)
        var i = body.startIndex
        while i < body.endIndex {
            let byte = body[i]
            if byte == 0x25, i + 2 < body.endIndex, let hi = hexValue(body[i + 1]), let lo = hexValue(body[i + 2]) {
                bytes.append(hi << 4 | lo)
                i += 3
            } else {
                bytes.append(byte)
                i += 1
            }
        }
        return (bytes, foundCharset, CharsetDecoder.decode(bytes, charset: foundCharset))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
