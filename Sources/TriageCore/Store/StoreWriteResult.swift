/// What `Store.write` did.
public struct StoreWriteResult: Equatable, Sendable {
    /// Ids written now, in batch order.
    public var created: [String] = []
    /// Ids that already existed (in any status) and were left unchanged.
    public var existing: [String] = []

    /// Creates a result.
    public init(created: [String] = [], existing: [String] = []) {
        self.created = created
        self.existing = existing
    }
}
