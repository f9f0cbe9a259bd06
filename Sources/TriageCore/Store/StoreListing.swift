/// The readable records of a kind, and the files that could not be read.
public struct StoreListing<R: StoreRecord>: Sendable {
    /// Records in file-name order (callers sort for display).
    public var records: [R]
    /// Unreadable record files, each skipped.
    public var problems: [StoreProblem]

    /// Creates a listing.
    public init(records: [R] = [], problems: [StoreProblem] = []) {
        self.records = records
        self.problems = problems
    }
}
