/// One section of a test's `triage.conf`: `[name]` and its `key = value` lines, in order.
struct ConfigSection {
    var name: String
    var lines: [(key: String, value: String)]

    init(_ name: String, _ lines: KeyValuePairs<String, String>) {
        self.name = name
        self.lines = lines.map { ($0.key, $0.value) }
    }

    /// `[triage]`: rules and store in the configuration's folder; `me` and `timezone`
    /// unless nil.
    static func triage(me: String? = "me@example.test", timezone: String? = "UTC") -> ConfigSection {
        var section = ConfigSection("triage", [:])
        if let me { section.lines.append(("me", me)) }
        section.lines += [("rules", "rules"), ("store", "store")]
        if let timezone { section.lines.append(("timezone", timezone)) }
        return section
    }

    /// The section as the file holds it.
    var text: String {
        "[\(name)]\n" + lines.map { "\($0.key) = \($0.value)\n" }.joined()
    }
}
