import Foundation
import TriageCore
import TriageCurl

/// Posts the pending `webhook` deliveries after the mail actions are done, within
/// the run's webhook budget (`WebhookRound` decides; this does the POSTs). A
/// failure stays pending, with its reason and the time of its next attempt; one
/// failed `maxAttempts` times is given up and reported in the digest's Problems.
package enum WebhookDispatcher {
    /// The policy of a configuration: its `webhook_budget` and `webhook_timeout`.
    package static func policy(_ config: Configuration) -> WebhookPolicy {
        var policy = WebhookPolicy()
        if let budget = config.triage.webhookBudget { policy.budget = Double(budget) }
        if let timeout = config.triage.webhookTimeout { policy.requestTimeout = Double(timeout) }
        return policy
    }

    /// Delivers what is pending and due; returns messages for standard error.
    /// `checkpoint` is called after each POST, before its outcome is recorded.
    package static func deliverPending(store: Store, policy: WebhookPolicy, context: Context,
                               checkpoint: (String) -> Void = { _ in }) throws -> [String] {
        let pending = store.records(WebhookDelivery.self, in: [WebhookDelivery.activeFolder]).records
            .sorted { ($0.created, $0.id) < ($1.created, $1.id) }
        guard !pending.isEmpty else { return [] }
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        let now = context.now
        let created = Timestamp(now, timeZone: store.timeZone)
        var round = WebhookRound(policy: policy)
        var messages: [String] = []
        for delivery in pending {
            let host = WebhookPoster.origin(of: delivery.url)
            guard case .post(let timeout, let connectTimeout) = round.decide(delivery, host: host, now: now, elapsed: elapsed()) else {
                continue
            }
            let result = WebhookPoster(connectTimeout: connectTimeout, timeout: timeout).post(url: delivery.url, json: delivery.payload)
            checkpoint("webhook posted")
            var updated = delivery
            let reason: String?
            if case .failed(let why) = result { reason = why } else { reason = nil }
            let change = round.record(succeeded: result.succeeded, reason: reason, for: &updated, host: host,
                                      now: now, zone: store.timeZone)
            if change == .gaveUp {
                // The report first: a crash before the webhook is marked retries it and
                // writes the same entry again, which makes one.
                var batch = StoreBatch()
                batch.add(WebhookRound.problemEntry(for: updated, host: host, created: created))
                _ = try store.write(batch)
            }
            try store.update(WebhookDelivery.self, ids: [delivery.id]) { $0 = updated }
            switch change {
            case .delivered:
                break
            case .retry(let at):
                messages.append("webhook of rule '\(delivery.rule)' failed (\(reason ?? "")); attempt \(updated.attempts) of "
                    + "\(policy.maxAttempts), the next not before \(Timestamp(at, timeZone: store.timeZone).rfc3339)")
            case .gaveUp:
                messages.append("webhook of rule '\(delivery.rule)' failed (\(reason ?? "")), \(updated.attempts) failed attempts in all: "
                    + "given up; it is in the digest's Problems and in \(store.folder(WebhookDelivery.self, "failed"))")
            }
        }
        for (host, count) in round.skippedForHost.sorted(by: { $0.key < $1.key }) {
            messages.append("webhook: \(count) more to \(host) not tried in this run after \(Counted.of(policy.hostFailureLimit, "failure")) "
                + "in a row; the next run tries again")
        }
        if round.leftForBudget > 0 {
            messages.append("webhook: this run's time for webhooks (\(Int(policy.budget)) s, webhook_budget in [triage]) is spent; "
                + "\(round.leftForBudget) left for the next run")
        }
        return messages
    }
}
