/// `[triage] quiet_failures = DURATION`: a temporary failure (exit 75: a server
/// down, a network gone) is kept in the run record and said on standard error only
/// once it has lasted `threshold` seconds, and once more when it ends ("recovered
/// after ..."), so that cron does not mail every run while a server reboots.
/// Anything else (77 credentials, 78 configuration) is said at once.
///
/// Without it (`threshold` nil) every failure is said at once and no recovery is
/// said, as before; the record is kept either way (`triage status` shows it).
public struct QuietFailures: Sendable, Equatable {
    /// Seconds a temporary failure may last unsaid; nil when off.
    public var threshold: Int?

    /// Creates the policy.
    public init(threshold: Int?) {
        self.threshold = threshold
    }

    /// Records how a run went for one source (`label`: "account home", "digest") in
    /// `source`, and returns the line to say on standard error, if any. `failure` is
    /// nil when it went well.
    public func settle(_ source: inout RunRecord.Source, label: String, failure: (ExitStatus, String)?,
                       now: Timestamp) -> String? {
        source.lastRun = now
        guard let (status, message) = failure else {
            source.lastSuccess = now
            defer { source.failure = nil }
            guard threshold != nil, let ended = source.failure else { return nil }
            let runs = ended.runs == 1 ? "1 failed run" : "\(ended.runs) failed runs"
            return "\(label): recovered after \(Self.duration(now.secondsSince1970 - ended.since.secondsSince1970)) "
                + "(\(runs); last error: \(ended.message))"
        }
        // A message that already names its source ("digest of 2026-12-01 not sent ...") keeps its words.
        let line = message.hasPrefix(label) ? message : "\(label): \(message)"
        var record = RunRecord.Failure(exitStatus: status.rawValue, message: message, since: now, last: now, reported: false)
        if let previous = source.failure {
            record.since = previous.since
            record.runs = previous.runs + 1
            record.reported = previous.reported
        }
        defer { source.failure = record }
        guard let threshold, status == .tempFail else {
            record.reported = true
            return line
        }
        let lasted = now.secondsSince1970 - record.since.secondsSince1970
        guard lasted >= Int64(threshold) else { return nil }
        record.reported = true
        return "\(line) (failing since \(record.since.rfc3339), \(Self.duration(lasted)))"
    }

    /// `45s`, `12m`, `2h 5m`, `3d 4h`: two units at most.
    public static func duration(_ seconds: Int64) -> String {
        let s = max(0, seconds)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86400 { return "\(s / 3600)h" + (s % 3600 / 60 > 0 ? " \(s % 3600 / 60)m" : "") }
        return "\(s / 86400)d" + (s % 86400 / 3600 > 0 ? " \(s % 86400 / 3600)h" : "")
    }

    /// Parses `off`, or a number and a unit: `90s`, `30m`, `1h`, `2d` (up to 30 days).
    /// Nil for anything else; `.some(nil)` for off.
    public static func parse(_ text: String) -> Int?? {
        let t = text.lowercased().filter { $0 != " " }
        if ["off", "no", "0"].contains(t) { return .some(nil) }
        guard let unit = t.last, let n = Int(t.dropLast()), n > 0 else { return nil }
        let factor: Int
        switch unit {
        case "s": factor = 1
        case "m": factor = 60
        case "h": factor = 3600
        case "d": factor = 86400
        default: return nil
        }
        guard n * factor <= 30 * 86400 else { return nil }
        return .some(n * factor)
    }
}
