import Foundation

/// What `triage deploy sieve` put on an account's server: the folders its script
/// files mail into. `triage run` (and `watch`) read those folders besides
/// `mailboxes =`, so mail filed at delivery still gets its rule's local actions.
/// Without a deployment they read only `mailboxes =`: a message that triage moved
/// itself into such a folder is never fetched and classified a second time.
public struct SieveDeployment: Codable, Equatable, Sendable {
    /// The folders the deployed script files into, as the rules name them.
    public var folders: [String]
    /// When it was deployed.
    public var deployed: Timestamp

    /// Creates a record of a deployment.
    public init(folders: [String], deployed: Timestamp) {
        self.folders = folders
        self.deployed = deployed
    }

    /// `STORE/state/ACCOUNT/.sieve-deployed.json`: beside the account's mailbox states,
    /// whose escaped names never start with a dot.
    public static func path(store: String, account: String) -> String {
        store + "/state/" + MailboxState.escape(account) + "/.sieve-deployed.json"
    }

    /// The account's deployment; nil when triage deployed none. A file that cannot be
    /// read is an error (65) naming it, as for the mailbox states.
    public static func load(store: String, account: String) throws -> SieveDeployment? {
        let file = path(store: store, account: account)
        guard let data = try StoreFiles.read(file) else { return nil }
        do {
            return try JSONDecoder().decode(SieveDeployment.self, from: data)
        } catch {
            throw SimpleError(.dataError, "\(file): the record of the deployed Sieve script cannot be read (\(error)); "
                              + "run triage deploy sieve again, or delete it (then only mailboxes = are read)")
        }
    }

    /// Writes it atomically and durably (call holding the store lock).
    public func save(store: String, account: String) throws {
        try StoreFiles.writeJSON(self, to: Self.path(store: store, account: account), durable: true)
    }
}
