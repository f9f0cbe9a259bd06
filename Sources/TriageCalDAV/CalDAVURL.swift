/// URL arithmetic for CalDAV hrefs (which servers give as absolute paths).
enum CalDAVURL {
    /// `scheme://host[:port]` (with any userinfo) of an absolute URL.
    static func origin(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "" }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(url[..<schemeEnd.upperBound]) + authority
    }

    /// The path of an absolute URL ("/" at least); a path stays a path.
    static func path(of url: String) -> String {
        guard url.contains("://") else { return url }
        let rest = url.dropFirst(origin(of: url).count)
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        return path.isEmpty ? "/" : String(path)
    }

    /// `href` (absolute URL, absolute path, or relative path) against `base`.
    static func resolve(_ href: String, against base: String) -> String {
        if let schemeEnd = href.firstRange(of: "://"), href[..<schemeEnd.lowerBound].first?.isLetter == true,
           href[..<schemeEnd.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            return href  // absolute (its origin is checked before any request)
        }
        // A network-path reference (`//host/path`): another host, which `CalDAVOrigin` then refuses.
        if href.hasPrefix("//"), let colon = base.firstIndex(of: ":") { return base[..<colon] + ":" + href }
        if href.hasPrefix("/") { return origin(of: base) + href }
        var folder = path(of: base)
        if !folder.hasSuffix("/") { folder = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]) + "/" }
        return origin(of: base) + folder + href
    }

    /// `name` under the collection `collection`.
    static func child(_ collection: String, _ name: String) -> String {
        (collection.hasSuffix("/") ? collection : collection + "/") + name
    }

    /// A path segment for a list name: letters, digits, `-` and `_`; others become `-`.
    static func slug(_ name: String) -> String {
        let s = String(name.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" ? $0 : "-" })
        return s.isEmpty ? "list" : s
    }
}

extension String {
    /// Without leading and trailing white space (servers pretty-print their XML).
    var trimmedDAV: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
