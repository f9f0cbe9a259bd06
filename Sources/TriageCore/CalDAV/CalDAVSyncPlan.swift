/// A sync's decisions for one list, and what the verbose output says about them.
public struct CalDAVSyncPlan: Hashable, Sendable {
    /// The steps, per item: record changes before server writes.
    public var steps: [CalDAVStep] = []
    /// Changes on both sides to the same field, and how each was settled (one line each).
    public var conflicts: [String] = []
    /// Other things worth saying (an item deleted on the phone marked done).
    public var notes: [String] = []

    /// Creates an empty plan.
    public init() {}
}
