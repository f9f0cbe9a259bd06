import TriageCore
import TriageMIME

/// The actionable digest's pieces that need the outside world: the secret's
/// random bytes, the Gmail accounts, the Trash folder of a server.
package enum DigestCommands {
    /// 32 bytes from the system's cryptographic random source (getrandom on Linux).
    package static func randomSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The store's command key, made on first use; nil when `create` is off and there is none yet.
    package static func key(_ store: Store, create: Bool = true) throws -> DigestKey? {
        create ? try store.commandSecret(generate: randomSecret) : try store.readCommandSecret()
    }

    /// The user's addresses: the digest's recipients.
    package static func addresses(_ settings: DigestSection) -> [String] {
        DigestMessageBuilder.addresses(settings.to).map(\.address)
    }

    /// Accounts whose server is Gmail's.
    package static func gmailAccounts(_ config: Configuration) -> Set<String> {
        Set(config.accounts.compactMap { account in
            guard case .imap(let url) = account.endpoint else { return nil }
            let host = url.host.lowercased()
            return host == "imap.gmail.com" || host == "imap.googlemail.com" ? account.name : nil
        })
    }

    /// The digest's links: Done links to the first recipient, under the store's key.
    package static func links(setup: RunSetup, settings: DigestSection) throws -> DigestLinks {
        DigestLinks(address: addresses(settings).first, key: try key(setup.store),
                    gmailAccounts: gmailAccounts(setup.config))
    }

    /// The command handling of an account's INBOX: nil without a `[digest]`, or in a
    /// dry run before any key exists (no digest with links was ever sent). The trash is
    /// `[digest] trash`, else the folder the IMAP server marks `\Trash`.
    package static func inbox(setup: RunSetup, connection: MailConnection, dryRun: Bool) throws -> DigestCommandInbox? {
        guard let settings = setup.config.digest, let key = try key(setup.store, create: !dryRun) else { return nil }
        let trash = TrashFolder(configured: settings.trash, connection: connection)
        var reader = DigestCommandReader(addresses: addresses(settings), key: key)
        reader.replyDays = settings.replyDays
        return DigestCommandInbox(reader: reader, trash: trash.name,
                                  replyBody: { MessageParser.replyBody($0, complete: $1) })
    }

    /// The trash folder, looked up once and only when first needed.
    private final class TrashFolder {
        let configured: String?
        let connection: MailConnection
        var found: String??

        init(configured: String?, connection: MailConnection) {
            self.configured = configured
            self.connection = connection
        }

        func name() throws -> String? {
            if let configured { return configured }
            if let found { return found }
            let name = try connection.specialUseFolder("\\Trash")
            found = .some(name)
            return name
        }
    }
}
