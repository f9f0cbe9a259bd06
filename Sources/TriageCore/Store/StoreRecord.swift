/// A record kind the store keeps: one JSON file per record, named `ID.json`, in
/// the folder of its kind and status (`queue/open/ID.json`).
///
/// Records are `Decodable` only: they are written one way, as their ordered `json`
/// (`Store+Commit`), and read back with `JSONDecoder`.
public protocol StoreRecord: Decodable, Sendable {
    /// The kind's folder under the store root (`queue`).
    static var kindFolder: String { get }
    /// The status folders of the kind, in the order lists show them.
    static var statusFolders: [String] { get }
    /// The folder with records still to handle (`open`, `pending`).
    static var activeFolder: String { get }
    /// What a person calls one record, for messages (`queue entry`).
    static var noun: String { get }
    /// The full id.
    var id: String { get }
    /// The status folder this record belongs in.
    var statusFolder: String { get }
    /// The record as ordered JSON (the `--json` output; `id` first).
    var json: JSONValue { get }
    /// A one-line description among the candidates of an ambiguous short id.
    var candidateLabel: String { get }
}

extension StoreRecord {
    /// No description: the candidate shows its short id only.
    public var candidateLabel: String { "" }
}
