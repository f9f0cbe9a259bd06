import TriageCore

/// A delivery that calls a checkpoint once the message was accepted: the crash
/// tests kill the run between sending the digest and recording it as sent.
package struct CheckpointedDelivery: MailDelivery {
    package let inner: any MailDelivery
    package let checkpoint: @Sendable (String) -> Void

    package func deliver(_ message: ComposedMessage) throws {
        try inner.deliver(message)
        checkpoint("digest delivered")
    }
}
