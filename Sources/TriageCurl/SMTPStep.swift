/// The protocol steps the conversation distinguishes (finer than the
/// user-facing `MailDeliveryError.Step` at the start: connect, then the EHLO greeting).
enum SMTPStep: Equatable {
    case connect, greeting, startTLS, authentication, sender, recipient, data
}
