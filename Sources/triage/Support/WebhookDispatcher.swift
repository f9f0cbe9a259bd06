import TriageCore
import TriageSMTP

/// Posts the pending `webhook` deliveries after the mail actions are done; a
/// failure stays pending, with its reason, for the next run.
enum WebhookDispatcher {
    /// Delivers what is pending; returns the failures' messages (for standard error).
    /// `checkpoint` is called after each POST, before its outcome is recorded.
    static func deliverPending(store: Store, context: Context, checkpoint: (String) -> Void = { _ in }) throws -> [String] {
        let pending = store.records(WebhookDelivery.self, in: [WebhookDelivery.activeFolder]).records
        guard !pending.isEmpty else { return [] }
        let poster = WebhookPoster()
        let now = Timestamp(context.now, timeZone: store.timeZone)
        var failures: [String] = []
        for delivery in pending {
            let result = poster.post(url: delivery.url, json: delivery.payload)
            checkpoint("webhook posted")
            try store.update(WebhookDelivery.self, ids: [delivery.id]) { record in
                switch result {
                case .delivered:
                    record.delivered = now
                    record.lastError = nil
                case .failed(let reason):
                    record.attempts += 1
                    record.lastError = reason
                }
            }
            if case .failed(let reason) = result {
                failures.append("webhook of rule '\(delivery.rule)' failed (\(reason)); it will be retried on the next run")
            }
        }
        return failures
    }
}
