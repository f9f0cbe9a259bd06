import CXML2

/// A parsed XML element: namespace, local name, text and children. Small and
/// immutable, so the rest of the program never touches libxml2's tree.
public struct XMLElement: Sendable, Equatable {
    /// The namespace URI ("DAV:", "urn:ietf:params:xml:ns:caldav"), or "" for none.
    public var namespace: String
    /// The local name (`href`, `getetag`).
    public var name: String
    /// The text directly inside the element (character data and CDATA), concatenated.
    public var text: String
    /// The child elements, in document order.
    public var children: [XMLElement]
    /// The attributes without a namespace, by name (`name` of `<c:comp name="VTODO"/>`).
    public var attributes: [String: String] = [:]

    /// Creates an element.
    public init(namespace: String, name: String, text: String = "", children: [XMLElement] = []) {
        self.namespace = namespace
        self.name = name
        self.text = text
        self.children = children
    }

    /// Whether this element is `{namespace}name`.
    public func `is`(_ namespace: String, _ name: String) -> Bool {
        self.namespace == namespace && self.name == name
    }

    /// The first child `{namespace}name`.
    public func child(_ namespace: String, _ name: String) -> XMLElement? {
        children.first { $0.is(namespace, name) }
    }

    /// Every child `{namespace}name`.
    public func all(_ namespace: String, _ name: String) -> [XMLElement] {
        children.filter { $0.is(namespace, name) }
    }

    /// Every descendant `{namespace}name`, depth first.
    public func descendants(_ namespace: String, _ name: String) -> [XMLElement] {
        var found: [XMLElement] = []
        for c in children {
            if c.is(namespace, name) { found.append(c) }
            found += c.descendants(namespace, name)
        }
        return found
    }
}
