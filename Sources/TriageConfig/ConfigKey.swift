import Foundation
import TriageCore

/// One key of a configuration section: its name and how its value is read into
/// the section. A section's table of keys is the one list of what it accepts:
/// the loader reads by it, and an unknown key's message lists its names.
struct ConfigKey<Section>: Sendable {
    let name: String
    let read: @Sendable (inout Section, INIEntry, inout ConfigValues) -> Void

    init(_ name: String, _ read: @escaping @Sendable (inout Section, INIEntry, inout ConfigValues) -> Void) {
        self.name = name
        self.read = read
    }

    /// Reads `e` into `section` by `table`, or reports an unknown key with the
    /// known ones; returns whether the key was known.
    @discardableResult
    static func read(_ e: INIEntry, into section: inout Section, by table: [ConfigKey], in values: inout ConfigValues) -> Bool {
        guard let key = table.first(where: { $0.name == e.key }) else {
            values.problem(e.line, "unknown key '\(e.key)' in [\(e.section)]; known: \(table.map(\.name).joined(separator: ", "))")
            return false
        }
        switch QuotedValue.read(e) {
        case .value(let value):
            var entry = e
            entry.value = value
            key.read(&section, entry, &values)
        case .problem(let message):
            values.problem(e.line, message)
        }
        return true
    }
}
