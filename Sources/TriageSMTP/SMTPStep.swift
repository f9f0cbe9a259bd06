/// The protocol steps the conversation distinguishes (a superset of the
/// user-facing `MailDeliveryError.Step`, e.g. the EHLO greeting and QUIT).
enum SMTPStep: Equatable {
    case connect, greeting, startTLS, authentication, sender, recipient, data, quit
}
