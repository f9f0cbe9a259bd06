/// Where a server keeps personal folders (its NAMESPACE, RFC 2342): a prefix and a
/// hierarchy separator. Rules and `mailboxes =` name folders one way everywhere,
/// `/` between levels (`Lists/dev`); on Courier, or Cyrus with its default
/// `altnamespace: no`, that folder is `INBOX.Lists.dev`, on Dovecot and Fastmail
/// `Lists/dev`. This maps between the two.
public struct FolderNamespace: Sendable, Equatable {
    /// The personal namespace's prefix: `""` (Dovecot, Fastmail) or `INBOX.` (Courier).
    public var prefix: String
    /// The hierarchy separator, or nil for a flat server (no hierarchy).
    public var separator: Character?

    /// The namespace of a server that says nothing: names as written.
    public static let plain = FolderNamespace(prefix: "", separator: "/")

    /// Creates a namespace.
    public init(prefix: String, separator: Character?) {
        self.prefix = prefix
        self.separator = separator
    }

    /// The server's name of a folder written as in rules: `Lists/dev` becomes
    /// `INBOX.Lists.dev` under prefix `INBOX.` and separator `.`. INBOX stays INBOX, and
    /// a name already under the prefix (`INBOX.Lists.dev`) is taken as the server's own.
    public func serverName(_ ruleName: String) -> String {
        if ruleName.uppercased() == "INBOX" { return "INBOX" }
        if !prefix.isEmpty, hasPrefix(ruleName) { return ruleName }
        let path = separator.map { ruleName.replacingOccurrences(of: "/", with: String($0)) } ?? ruleName
        return prefix + path
    }

    /// The rule form of a server's folder name: the prefix off, `/` between levels.
    public func ruleName(_ serverName: String) -> String {
        if serverName.uppercased() == "INBOX" { return "INBOX" }
        var rest = Substring(serverName)
        if !prefix.isEmpty, hasPrefix(serverName) { rest = rest.dropFirst(prefix.count) }
        guard let separator, separator != "/" else { return String(rest) }
        return rest.replacingOccurrences(of: String(separator), with: "/")
    }

    /// `INBOX.` matches `inbox.x` too: INBOX is case-insensitive (RFC 3501).
    private func hasPrefix(_ name: String) -> Bool {
        if prefix.uppercased().hasPrefix("INBOX") {
            return name.count > prefix.count && name.prefix(prefix.count).uppercased() == prefix.uppercased()
        }
        return name.count > prefix.count && name.hasPrefix(prefix)
    }
}
