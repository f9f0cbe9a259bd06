import TriageCore

/// A delivery that calls a checkpoint once the message was accepted: the crash
/// tests kill the run between sending the digest and recording it as sent.
struct CheckpointedDelivery: MailDelivery {
    let inner: any MailDelivery
    let checkpoint: @Sendable (String) -> Void

    func deliver(_ message: ComposedMessage) throws {
        try inner.deliver(message)
        checkpoint("digest delivered")
    }
}
