/// How long `triage watch` waits before it tries a lost connection again: 1 s,
/// then doubling with each failed attempt, up to `cap`. Pure arithmetic; the
/// caller keeps the clock.
public struct ReconnectBackoff: Sendable, Equatable {
    /// The first wait, in seconds.
    public var first: Double
    /// The longest wait, in seconds.
    public var cap: Double
    /// Failed attempts since the connection was last up.
    public private(set) var failures = 0

    /// A backoff starting at `first` seconds and doubling up to `cap` (default 1 s and 5 minutes).
    public init(first: Double = 1, cap: Double = 300) {
        self.first = first
        self.cap = cap
    }

    /// Notes a failed attempt and returns how long to wait before the next one.
    public mutating func failed() -> Double {
        // 2^failures overflows nothing: past the cap it stops growing.
        let wait = failures >= 30 ? cap : min(cap, first * Double(1 << failures))
        failures += 1
        return wait
    }

    /// Notes that the connection is up again: the next loss starts from `first`.
    public mutating func succeeded() {
        failures = 0
    }

    /// Whether an attempt has failed since the connection was last up.
    public var isFailing: Bool { failures > 0 }
}
