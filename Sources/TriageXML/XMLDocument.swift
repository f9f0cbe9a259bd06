import CXML2

/// Parses XML with libxml2 into `XMLElement`s, safely for text from a server:
/// no network access, no external entities or DTD loading, no entity expansion
/// beyond the predefined ones, and a limit on size and depth.
public enum XMLDocument {
    /// Why a document could not be read.
    public struct ParseError: Error, Sendable, Equatable {
        /// libxml2's message (one line), or what limit was hit.
        public var reason: String
    }

    /// The deepest nesting accepted (WebDAV answers nest about eight levels).
    public static let maxDepth = 64

    /// The root element of `bytes`.
    public static func parse(_ bytes: [UInt8]) throws -> XMLElement {
        guard !bytes.isEmpty else { throw ParseError(reason: "empty document") }
        guard bytes.count < Int(Int32.max) else { throw ParseError(reason: "document too large") }
        // XML_PARSE_NONET: never fetch anything; no XML_PARSE_NOENT / DTDLOAD, so
        // entities are not substituted from outside; NOERROR/NOWARNING: nothing printed.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOBLANKS.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlReadMemory($0, Int32(buffer.count), "answer.xml", nil, options)
            }
        }
        guard let document else {
            let message = xmlGetLastError().map { String(cString: $0.pointee.message).trimmingCharacters() } ?? "not well-formed"
            throw ParseError(reason: message.isEmpty ? "not well-formed" : message)
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { throw ParseError(reason: "no root element") }
        return try element(root, depth: 0)
    }

    private static func element(_ node: xmlNodePtr, depth: Int) throws -> XMLElement {
        guard depth < maxDepth else { throw ParseError(reason: "nested deeper than \(maxDepth) elements") }
        var e = XMLElement(namespace: node.pointee.ns.map { string($0.pointee.href) } ?? "",
                           name: string(node.pointee.name))
        var attribute = node.pointee.properties
        while let a = attribute {
            if a.pointee.ns == nil {
                // An attribute's value is its text children (no entity nodes: entities are not loaded).
                var value = ""
                var text = a.pointee.children
                while let t = text {
                    value += string(t.pointee.content)
                    text = t.pointee.next
                }
                e.attributes[string(a.pointee.name)] = value
            }
            attribute = a.pointee.next
        }
        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE: e.children.append(try element(c, depth: depth + 1))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: e.text += string(c.pointee.content)
            default: break
            }
            child = c.pointee.next
        }
        return e
    }

    private static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }

    /// `text` with XML's five special characters escaped, for building request bodies.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
