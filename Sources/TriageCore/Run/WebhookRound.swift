import Foundation

/// One run's webhook deliveries, decided one at a time: which to POST now and
/// with what timeout, which to leave for a later run, and what a result does to
/// the record. Keeps the run's budget and the per-host circuit breaker. Pure: the
/// caller passes the time (`now`, for backoff and the records) and the seconds
/// spent so far (`elapsed`, for the budget), and does the POSTs itself.
public struct WebhookRound: Sendable {
    /// What to do with one pending webhook now.
    public enum Decision: Sendable, Hashable {
        /// POST it, allowing this many seconds for the request and for connecting.
        case post(timeout: Double, connectTimeout: Double)
        /// Its backoff is not over: not before this time.
        case notDue(until: Date)
        /// Its host failed `hostFailureLimit` times in a row in this run.
        case hostSkipped
        /// The run's webhook budget is spent.
        case budgetSpent
    }

    /// What a POST's result did to the webhook.
    public enum Change: Sendable, Hashable {
        /// Delivered.
        case delivered
        /// Failed; retried not before this time.
        case retry(at: Date)
        /// Failed for the last time: given up.
        case gaveUp
    }

    /// The rules applied.
    public let policy: WebhookPolicy
    /// Webhooks skipped in this run because their host's circuit was open, by host.
    public private(set) var skippedForHost: [String: Int] = [:]
    /// How many were left because the budget was spent.
    public private(set) var leftForBudget = 0
    private var failuresInARow: [String: Int] = [:]

    /// A round under `policy`.
    public init(policy: WebhookPolicy) {
        self.policy = policy
    }

    /// Whether `host`'s circuit is open for the rest of this run.
    public func isOpen(_ host: String) -> Bool {
        failuresInARow[host, default: 0] >= policy.hostFailureLimit
    }

    /// What to do with `delivery` (to `host`, its scheme, host and port) at `now`,
    /// `elapsed` seconds into the run's webhooks.
    public mutating func decide(_ delivery: WebhookDelivery, host: String, now: Date, elapsed: Double) -> Decision {
        if !policy.isDue(delivery, now: now), let next = delivery.nextAttempt { return .notDue(until: next.date) }
        if isOpen(host) {
            skippedForHost[host, default: 0] += 1
            return .hostSkipped
        }
        let left = policy.budget - elapsed
        guard left >= policy.minimumAttemptTime else {
            leftForBudget += 1
            return .budgetSpent
        }
        let timeout = min(policy.requestTimeout, left)
        return .post(timeout: timeout, connectTimeout: min(policy.connectTimeout, timeout))
    }

    /// Records the result of a POST of `delivery` to `host` at `now` into `delivery`
    /// (`zone` gives the timestamps their offset), and says what it did.
    @discardableResult
    public mutating func record(succeeded: Bool, reason: String?, for delivery: inout WebhookDelivery, host: String,
                                now: Date, zone: TimeZone) -> Change {
        if succeeded {
            failuresInARow[host] = 0
            delivery.delivered = Timestamp(now, timeZone: zone)
            delivery.lastError = nil
            delivery.nextAttempt = nil
            return .delivered
        }
        failuresInARow[host, default: 0] += 1
        delivery.attempts += 1
        delivery.lastError = reason
        if delivery.attempts >= policy.maxAttempts {
            delivery.gaveUp = Timestamp(now, timeZone: zone)
            delivery.nextAttempt = nil
            return .gaveUp
        }
        let next = now.addingTimeInterval(policy.retryDelay(afterFailures: delivery.attempts))
        delivery.nextAttempt = Timestamp(next, timeZone: zone)
        return .retry(at: next)
    }

    /// The digest entry (section `Problems`) that reports a webhook given up: its id
    /// derives from the webhook's, so writing it twice (a crash in between) makes one.
    public static func problemEntry(for delivery: WebhookDelivery, host: String, created: Timestamp) -> DigestEntry {
        let problem = "webhook of rule '\(delivery.rule)' to \(host) given up after \(delivery.attempts) failed attempts"
            + (delivery.lastError.map { " (last: \($0))" } ?? "")
        let section = MailboxRunner.problemsSection
        let id = RecordID.forMessage(account: delivery.message.account ?? "", messageKey: "webhook:" + delivery.id,
                                     rule: delivery.rule, actionKey: RecordID.actionKey(.digest(section: section)))
        var entry = DigestEntry(id: id, section: section, created: created, rule: delivery.rule, message: delivery.message)
        entry.message.snippet = problem + (entry.message.snippet.isEmpty ? "" : " — " + entry.message.snippet)
        return entry
    }
}
