/// One mailbox from an address header: an optional display name and an address.
///
/// Groups are flattened into their members; names are RFC 2047-decoded to UTF-8.
public struct Address: Hashable, Sendable, Codable {
    /// The display name, decoded, or nil when the header had none.
    public var name: String?
    /// The address as written (`local@domain`), without angle brackets.
    public var address: String

    /// Creates an address.
    public init(name: String? = nil, address: String) {
        self.name = name
        self.address = address
    }

    /// The local part (before the last `@`), or the whole address when there is no `@`.
    public var localPart: Substring {
        guard let at = address.lastIndex(of: "@") else { return Substring(address) }
        return address[..<at]
    }

    /// The domain (after the last `@`), lower-cased, or empty when there is none.
    public var domain: String {
        guard let at = address.lastIndex(of: "@") else { return "" }
        return address[address.index(after: at)...].lowercased()
    }

    /// The domain the display name shows when it is neither this address's domain nor
    /// a parent or subdomain of it (`bank.example` for `"statements@bank.example"
    /// <x@evil.example>`), else nil: the name impersonates another sender. See `NameDisguise`.
    public var impersonatedDomain: String? { NameDisguise.foreignDomain(name: name, address: address) }

    /// `Name <address>` when there is a name, else the bare address.
    public var displayString: String {
        if let name, !name.isEmpty { return "\(name) <\(address)>" }
        return address
    }
}
