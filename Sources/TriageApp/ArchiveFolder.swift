import TriageConfig
import TriageCore
import TriageMaildir

/// Where the `archive` action takes an account's mail (`ArchiveTarget`): asked of the
/// connection once, only when a rule archives.
package enum ArchiveFolder {
    /// The default folder of a Maildir account.
    package static let maildirDefault = MaildirConnection.defaultArchiveFolder

    /// Whether any rule archives.
    package static func used(by rules: CompiledRules?) -> Bool {
        (rules?.rules ?? []).contains { $0.actions.contains(.archive) }
    }

    /// Gmail: the `\Inbox` label; else `archive = FOLDER`; else the SPECIAL-USE
    /// `\Archive` folder (IMAP) or `Archive` (Maildir, made when `create` and missing);
    /// nil when an IMAP account has neither. The connection says which
    /// (`MailConnection.archiveFolder(create:)`).
    package static func target(for account: AccountSection, on connection: MailConnection, create: Bool) throws -> ArchiveTarget? {
        if connection.traits.isGmail { return .removeInboxLabel }
        if let folder = account.archive { return .folder(folder) }
        return try connection.archiveFolder(create: create).map { .folder($0) }
    }

    /// `target(for:on:create:)` asked once, when first needed: a run that archives
    /// nothing sends no LIST for it.
    package final class Lookup {
        private let find: () throws -> ArchiveTarget?
        private var found: ArchiveTarget??

        package init(_ find: @escaping () throws -> ArchiveTarget?) { self.find = find }

        package func target() throws -> ArchiveTarget? {
            if let found { return found }
            let target = try find()
            found = .some(target)
            return target
        }
    }

    /// What `check --connect` says of an IMAP account whose rules archive but that has
    /// no archive folder.
    package static func missingLine(account: AccountSection, server: String) -> String {
        "rules archive mail, but \(server) marks no folder \\Archive (SPECIAL-USE) and [account \(account.name)] sets no "
            + "archive = FOLDER; a run would leave such mail where it is: set archive = FOLDER"
    }
}
