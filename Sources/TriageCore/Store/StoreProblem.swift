/// A record file the store could not read: reported with its path and skipped,
/// never deleted or overwritten.
public struct StoreProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// Creates a problem.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `PATH: cannot read this record (REASON); it is skipped — fix or move the file`.
    public var description: String {
        "\(path): cannot read this record (\(reason)); it is skipped and left as it is — fix or move the file"
    }
}
