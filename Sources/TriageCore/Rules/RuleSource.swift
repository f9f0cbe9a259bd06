/// The text of one rule file and the path to show in diagnostics. Reading files
/// is the caller's business, so everything from here on is pure.
public struct RuleSource: Hashable, Sendable {
    /// The path as shown in diagnostics.
    public var path: String
    /// The file's contents.
    public var text: String

    /// Creates a source.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
