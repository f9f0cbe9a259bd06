import Foundation

/// What `triage init` asks for (or takes as options), each value checked before
/// anything is written: an address that looks like one, a URL triage can use, an
/// hour of the day, and no value that could break out of its line in triage.conf.
///
/// The checks return the problem in words (nil when the value is fine); they never
/// repeat a password command, which may hold a secret.
public struct SetupAnswers: Sendable, Equatable {
    /// Your address (`me`), also the digest's `from`.
    public var me: String
    /// `imaps://HOST[:PORT]`, `imap://HOST[:PORT]` or `maildir:PATH` (an absolute path or `~/...`).
    public var url: String
    /// The IMAP login (nil for a Maildir).
    public var user: String?
    /// The command that prints the password (nil: none yet).
    public var passwordCommand: String?
    /// Where the digest goes.
    public var digestTo: String
    /// The local hour from which the day's digest is due.
    public var hour: Int
    /// How the digest is sent: `sendmail`, `file:DIR`, `smtps://...` or `smtp://...`.
    public var smtp: String

    /// The answers.
    public init(me: String, url: String, user: String?, passwordCommand: String?, digestTo: String, hour: Int, smtp: String) {
        self.me = me
        self.url = url
        self.user = user
        self.passwordCommand = passwordCommand
        self.digestTo = digestTo
        self.hour = hour
        self.smtp = smtp
    }

    /// Whether the account is a local Maildir.
    public var isMaildir: Bool { url.hasPrefix("maildir:") }

    /// Every problem of these answers, each naming the option it belongs to.
    public var problems: [String] {
        var found: [String] = []
        if let p = Self.addressProblem(me) { found.append("--me: " + p) }
        if let p = Self.urlProblem(url) { found.append("--url: " + p) }
        if let user, let p = Self.textProblem(user, what: "the user name") { found.append("--user: " + p) }
        if let passwordCommand, let p = Self.commandProblem(passwordCommand) { found.append("--password-command: " + p) }
        if let p = Self.addressProblem(digestTo) { found.append("--digest-to: " + p) }
        if !(0...23).contains(hour) { found.append("--hour: \(hour) is not an hour of the day; give 0 to 23") }
        if let p = Self.smtpProblem(smtp) { found.append("--smtp: " + p) }
        return found
    }

    /// An address must be `local@domain`: one `@`, no spaces, quotes, brackets or
    /// commas (`me` is a comma-separated list), and a domain of dot-separated labels
    /// of letters, digits and hyphens (`localhost` is the one without a dot).
    public static func addressProblem(_ text: String) -> String? {
        let shown = String(reflecting: text)
        if let p = textProblem(text, what: "the address") { return p }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return "\(shown) is not an address; write it as name@example.com"
        }
        let forbidden = Set(" \t<>()[],;:\"\\")
        if parts[0].contains(where: { forbidden.contains($0) }) {
            return "\(shown) is not an address: the part before @ holds a space or one of < > ( ) [ ] , ; : \" \\"
        }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        let goodLabels = labels.allSatisfy { label in
            !label.isEmpty && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
        guard goodLabels, labels.count >= 2 || parts[1].lowercased() == "localhost" else {
            return "\(shown) is not an address: '\(parts[1])' is not a domain such as example.com"
        }
        return nil
    }

    /// A URL must be `imaps://HOST[:PORT]`, `imap://HOST[:PORT]` (STARTTLS) or `maildir:PATH`.
    public static func urlProblem(_ text: String) -> String? {
        if let p = textProblem(text, what: "the URL") { return p }
        if text.hasPrefix("maildir:") {
            let path = text.dropFirst(8)
            guard path.hasPrefix("/") || path.hasPrefix("~/") else {
                return "maildir: needs the Maildir's absolute path (or ~/...), as in maildir:~/Maildir"
            }
            return nil
        }
        guard text.hasPrefix("imaps://") || text.hasPrefix("imap://") else {
            return "\(String(reflecting: text)) is not a URL triage reads mail from; "
                + "write imaps://HOST (IMAP over TLS), imap://HOST (STARTTLS) or maildir:PATH"
        }
        do {
            _ = try MailServerURL.parse(text)
        } catch let error as MailError {
            return error.message
        } catch {
            return "\(error)"
        }
        return nil
    }

    /// A password command: one line for `/bin/sh`. triage.conf has no quoting for
    /// `_command` values (the shell quotes), so a value that would start a comment
    /// (a `;` or `#` first, or ` ;` inside: inih cuts there) is refused rather than
    /// silently cut. The message never shows the command.
    public static func commandProblem(_ text: String) -> String? {
        if text.unicodeScalars.contains(where: ControlCharacters.isControl) {
            return "the command holds a line break or another control character; give it on one line"
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "the command is empty; leave the option out to set it later" }
        if trimmed.hasPrefix(";") || trimmed.hasPrefix("#") {
            return "the command starts with ; or #, which triage.conf reads as a comment"
        }
        if trimmed.contains(" ;") || trimmed.contains("\t;") {
            return "the command holds ' ;', where triage.conf starts a comment; put the commands in a script and give its path"
        }
        return nil
    }

    /// How the digest is sent, as `[digest] smtp` takes it.
    public static func smtpProblem(_ text: String) -> String? {
        if let p = textProblem(text, what: "the digest's delivery") { return p }
        do {
            _ = try DeliveryEndpoint(parsing: text)
        } catch let error as ConfigError {
            return error.problems.map(\.message).joined(separator: "; ")
        } catch {
            return "\(error)"
        }
        return nil
    }

    /// An hour of the day, 0 to 23, as typed.
    public static func hour(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 2, let hour = Int(trimmed), (0...23).contains(hour) else { return nil }
        return hour
    }

    /// Any value: not empty, on one line, no control characters, no spaces at either end.
    public static func textProblem(_ text: String, what: String) -> String? {
        if text.isEmpty { return "\(what) is empty" }
        if text.unicodeScalars.contains(where: ControlCharacters.isControl) {
            return "\(what) holds a line break or another control character"
        }
        if text != text.trimmingCharacters(in: .whitespaces) { return "\(what) starts or ends with a space" }
        return nil
    }
}
