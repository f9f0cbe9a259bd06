import Foundation

/// When `triage watch` tries a lost connection again, and when it says so.
///
/// An *outage* starts with a failure (an attempt that did not get in, or a connection
/// lost) and lasts until a connection has stayed up for `settle` seconds. A connection
/// that fails sooner counts as part of the same outage: a server or proxy that closes
/// every connection right after login, or on IDLE, would otherwise reset the pause at
/// each login and be tried once a second forever. Within an outage the pause doubles
/// from `first` up to `cap`; the outage is said once when it starts (again only when
/// its cause changes) and once when it is over.
///
/// Pure: every event carries its instant, read by the caller.
public struct ReconnectPolicy: Sendable, Equatable {
    /// How long a connection must stay up before a failure counts as a new outage
    /// (and the last one as over), in seconds.
    public static let settleSeconds = 60.0

    /// The first pause of an outage, in seconds.
    public let first: Double
    /// The longest pause, in seconds.
    public let cap: Double
    /// See `settleSeconds`.
    public let settle: Double

    /// Failures in the current outage; 0 when there is none.
    public private(set) var failures = 0
    /// When the connection now up was made; nil while it is down.
    public private(set) var upSince: Date?
    /// The cause last said in the current outage.
    private var saidCause: ExitStatus?

    /// What to do after a failure.
    public struct Failure: Sendable, Equatable {
        /// Seconds to wait before the next attempt.
        public var pause: Double
        /// Whether to say so: the outage starts here, or its cause changed.
        public var say: Bool
        /// Whether a previous outage was over before this failure (the connection had
        /// held for `settle` seconds but that was not said yet): say that first.
        public var recoveredFirst: Bool

        /// A decision: wait `pause` seconds, say the failure or not, say the recovery first or not.
        public init(pause: Double, say: Bool, recoveredFirst: Bool = false) {
            self.pause = pause
            self.say = say
            self.recoveredFirst = recoveredFirst
        }
    }

    /// A policy pausing `first` seconds, doubling up to `cap`, whose outages end once a
    /// connection stayed up `settle` seconds (defaults: 1 s, 5 minutes, one minute).
    public init(first: Double = 1, cap: Double = 300, settle: Double = ReconnectPolicy.settleSeconds) {
        self.first = first
        self.cap = cap
        self.settle = settle
    }

    /// The default policy with every duration multiplied by `scale` (tests run it faster).
    public static func scaled(_ scale: Double) -> ReconnectPolicy {
        let defaults = ReconnectPolicy()
        return ReconnectPolicy(first: defaults.first * scale, cap: defaults.cap * scale, settle: defaults.settle * scale)
    }

    /// Whether an outage is under way (a failure not yet followed by a connection that held).
    public var inOutage: Bool { failures > 0 }

    /// The connection was made (logged in, set up) at `now`.
    public mutating func connected(at now: Date) {
        upSince = now
    }

    /// The connection, or an attempt to make one, failed at `now` with `cause`.
    public mutating func failed(at now: Date, cause: ExitStatus) -> Failure {
        var recoveredFirst = false
        if let upSince, now.timeIntervalSince(upSince) >= settle {
            // It held: whatever outage came before is over, this failure starts a new one.
            recoveredFirst = inOutage
            failures = 0
            saidCause = nil
        }
        upSince = nil
        // 2^failures overflows nothing: past the cap it stops growing.
        let pause = failures >= 30 ? cap : min(cap, first * Double(1 << failures))
        failures += 1
        let say = saidCause != cause
        saidCause = cause
        return Failure(pause: pause, say: say, recoveredFirst: recoveredFirst)
    }

    /// When the connection now up will have held long enough to end the outage;
    /// nil when there is nothing to end (no outage, or the connection is down).
    public var settlesAt: Date? {
        guard inOutage, let upSince else { return nil }
        return upSince.addingTimeInterval(settle)
    }

    /// Whether the outage is over at `now` (the connection held for `settle` seconds):
    /// true once per outage, the moment to say it is connected again.
    public mutating func recovered(at now: Date) -> Bool {
        guard let settlesAt, now >= settlesAt else { return false }
        failures = 0
        saidCause = nil
        return true
    }
}
