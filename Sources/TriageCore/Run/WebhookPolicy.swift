import Foundation

/// How hard `triage run` tries to deliver webhooks, so that pending webhooks
/// never stall a run: a time budget per run, exponential backoff between the
/// attempts of one webhook, a point where it gives up, and a per-host circuit
/// breaker. Pure: every decision takes the time it is made at.
public struct WebhookPolicy: Sendable, Hashable {
    /// Seconds all of a run's POSTs may take together (`webhook_budget`).
    public var budget: Double
    /// Seconds one POST may take (`webhook_timeout`); never more than what is left of the budget.
    public var requestTimeout: Double
    /// Seconds one connection attempt may take, within `requestTimeout`.
    public var connectTimeout: Double
    /// A POST is not started with less than this left of the budget.
    public var minimumAttemptTime: Double
    /// Consecutive failures to one host (scheme, host and port) after which a run
    /// skips that host's other webhooks.
    public var hostFailureLimit: Int
    /// The wait after the first failure; it doubles with each further failure...
    public var firstRetryDelay: Double
    /// ...up to this.
    public var maxRetryDelay: Double
    /// Failed attempts after which a webhook is given up (and reported in the digest).
    public var maxAttempts: Int

    /// The defaults: 60 s per run, 20 s per POST, 2 failures in a row close a host
    /// for the run, retries after 5 min, 10 min, 20 min, ... up to 6 h, given up
    /// after 10 failed attempts (about a day after the first).
    public init(budget: Double = 60, requestTimeout: Double = 20, connectTimeout: Double = 10,
                minimumAttemptTime: Double = 1, hostFailureLimit: Int = 2,
                firstRetryDelay: Double = 300, maxRetryDelay: Double = 6 * 3600, maxAttempts: Int = 10) {
        self.budget = budget
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.minimumAttemptTime = minimumAttemptTime
        self.hostFailureLimit = hostFailureLimit
        self.firstRetryDelay = firstRetryDelay
        self.maxRetryDelay = maxRetryDelay
        self.maxAttempts = maxAttempts
    }

    /// The wait before the next attempt of a webhook that has failed `failures` times (at least 1).
    public func retryDelay(afterFailures failures: Int) -> Double {
        let doublings = min(max(failures - 1, 0), 40)
        return min(firstRetryDelay * pow(2, Double(doublings)), maxRetryDelay)
    }

    /// Whether `delivery` may be tried at `now` (its backoff is over).
    public func isDue(_ delivery: WebhookDelivery, now: Date) -> Bool {
        guard let next = delivery.nextAttempt else { return true }
        return next.date <= now
    }
}
