extension JSONValue {
    /// Indented serialisation (two spaces, keys in order, a final newline), for
    /// files people read, such as store records.
    public var prettySerialized: String {
        var out = ""
        out.reserveCapacity(1024)  // a store record: one allocation, not a dozen
        writePretty(to: &out, indent: "")
        out += "\n"
        return out
    }

    private func writePretty(to out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .object(let pairs) where !pairs.isEmpty:
            out += "{\n"
            for (i, (key, value)) in pairs.enumerated() {
                out += inner
                JSONValue.writeString(key, to: &out)
                out += ": "
                value.writePretty(to: &out, indent: inner)
                out += i < pairs.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                item.writePretty(to: &out, indent: inner)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        default:
            write(to: &out)
        }
    }
}
