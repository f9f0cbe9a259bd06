/// Delivers a composed message somewhere: an SMTP server, or a folder of
/// `.eml` files. The digest code depends on this protocol only.
public protocol MailDelivery: Sendable {
    /// Hands the message over and returns once it was accepted (the server
    /// answered the end of DATA with 250, or the file is in place). Throws a
    /// `MailDeliveryError` that says which step failed.
    func deliver(_ message: ComposedMessage) throws
}
