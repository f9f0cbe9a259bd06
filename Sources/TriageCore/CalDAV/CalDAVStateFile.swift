import Foundation

/// The sync state of one `[caldav NAME]`: `STORE/caldav/NAME.json` (mode 0600), a
/// `CalDAVListState` per list. Replaced whole by rename (`AtomicFile`) after every
/// server write, so a crash leaves either the old or the new state, and the next
/// sync finishes what the old one lacks (an item PUT but not yet remembered is
/// found on the server by its UID and adopted, never created twice).
public struct CalDAVStateFile: Sendable {
    /// The file's path.
    public let path: String
    /// The lists' states by list name.
    public var lists: [String: CalDAVListState] = [:]
    /// The section's `url` the lists were discovered from, and the calendar home
    /// found there: while `url` is unchanged and each list's collection answers,
    /// a sync skips discovery.
    public var discoveredFrom: String?
    /// The calendar home found by discovery (where a missing list is made).
    public var home: String?

    /// The state of `name` in `store` (empty when there is none yet).
    public init(store: Store, name: String) throws {
        path = store.root + "/caldav/" + name + ".json"
        guard let data = try StoreFiles.read(path) else { return }
        do {
            let stored = try JSONDecoder().decode(Stored.self, from: data)
            (lists, discoveredFrom, home) = (stored.lists, stored.discoveredFrom, stored.home)
        } catch {
            throw SimpleError(.dataError, "the CalDAV sync state \(path) cannot be read (\(error.localizedDescription)); "
                              + "move it away and sync again: items already on the server are found by their UID")
        }
    }

    private struct Stored: Codable {
        var format = 1
        var lists: [String: CalDAVListState]
        var discoveredFrom: String?
        var home: String?

        enum CodingKeys: String, CodingKey {
            case format, lists, home
            case discoveredFrom = "discovered_from"
        }
    }

    /// Writes the state (temporary file, fsync, rename, fsync of the folder).
    public func save() throws {
        let folder = (path as NSString).deletingLastPathComponent
        _ = try StoreFiles.makeFolder(folder)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try AtomicFile.write(path: path, data: try encoder.encode(Stored(lists: lists, discoveredFrom: discoveredFrom, home: home)), mode: 0o600)
    }
}
