import TriageCore
import TriageCurl
import TriageXML

/// The CalDAV requests triage makes (RFC 4791, RFC 6578, RFC 6764), over
/// `HTTPClient`, with answers read by `TriageXML`. Says nothing itself.
public struct CalDAVClient: Sendable {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"

    /// The HTTP side (TLS, credentials, limits).
    public var http: HTTPClient
    /// Where the credentials may go: the configured url's origin, nowhere else.
    let origin: CalDAVOrigin
    /// Called after each request that changes the server (`caldav PUT`), for the crash tests.
    public var checkpoint: (@Sendable (String) -> Void)?
    /// Receives one line per request (method, path, status) for --verbose.
    public var trace: (@Sendable (String) -> Void)?

    /// Creates a client for the section whose `url` is `configuredURL`: every
    /// request goes to that url's scheme, host and port, or is not made.
    public init(http: HTTPClient, configuredURL: String) {
        self.http = http
        self.origin = CalDAVOrigin(configuredURL: configuredURL)
    }

    /// Sends a request, following up to three redirects (discovery answers 301/302);
    /// `kind` names a REPORT in the trace (`sync-collection`).
    /// With `remembered` (a URL kept from an earlier sync, which may have moved) a
    /// redirect or a 403 is returned to the caller, not followed or thrown.
    /// Nothing is sent off the configured origin (`CalDAVOrigin`): a URL from an
    /// href or a redirect that leads elsewhere is a configuration error (78).
    func send(_ request: HTTPRequest, kind: String? = nil, remembered: Bool = false) throws -> HTTPResponse {
        var request = request
        // Every URL but the configured one came from an answer (an href, a remembered discovery).
        try origin.check(request.url, "pointed (in an href of its answer) to")
        for _ in 0..<4 {
            let response: HTTPResponse
            do {
                response = try http.send(request)
            } catch let failure as HTTPFailure {
                throw CalDAVError(.tempFail, "CalDAV \(failure.reason)")
            }
            trace?("\(request.method)\(kind.map { " " + $0 } ?? "") \(CalDAVURL.path(of: request.url)) -> \(response.status)")
            if !remembered, [301, 302, 307, 308].contains(response.status), let location = response.headers["location"] {
                let next = CalDAVURL.resolve(location, against: request.url)
                try origin.check(next, "redirected \(request.method) \(ControlCharacters.replaced(in: CalDAVURL.path(of: request.url))) "
                                 + "(HTTP \(response.status)) to")
                request.url = next
                continue
            }
            if response.status == 401 || response.status == 403 && request.method == "PROPFIND" && !remembered {
                let what = response.status == 401 ? "refused the login" : "refused access"
                throw CalDAVError(.noPermission, "CalDAV \(WebhookPoster.origin(of: request.url)): the server \(what) (HTTP \(response.status)); "
                                  + "check user and password (an app-specific one where the service asks for it) and the url")
            }
            return response
        }
        throw CalDAVError(.tempFail, "CalDAV \(WebhookPoster.origin(of: request.url)): too many redirects")
    }

    /// A multistatus answer's responses; throws unless the answer is a 207 with XML.
    func multistatus(_ response: HTTPResponse, _ what: String, url: String) throws -> [XMLElement] {
        guard response.status == 207 else {
            throw CalDAVError(.tempFail, "CalDAV \(WebhookPoster.origin(of: url)): \(what) answered HTTP \(response.status), not 207")
        }
        do {
            let root = try XMLDocument.parse(response.body)
            guard root.is(Self.dav, "multistatus") else {
                throw CalDAVError(.tempFail, "CalDAV \(WebhookPoster.origin(of: url)): \(what) answered \(root.name), not a multistatus")
            }
            return root.all(Self.dav, "response")
        } catch let error as XMLDocument.ParseError {
            throw CalDAVError(.tempFail, "CalDAV \(WebhookPoster.origin(of: url)): \(what) answered XML that cannot be read: \(ControlCharacters.replaced(in: error.reason))")
        }
    }

    /// The properties of a response that came with 200 OK, and its href.
    static func okProps(_ response: XMLElement) -> (href: String, props: XMLElement?) {
        let href = response.child(dav, "href")?.text.trimmedDAV ?? ""
        let ok = response.all(dav, "propstat").first { ($0.child(dav, "status")?.text ?? "").contains(" 200") }
        return (href, ok?.child(dav, "prop"))
    }

    private func propfind(_ url: String, depth: Int, props: String) throws -> [XMLElement] {
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"><d:prop>\(props)</d:prop></d:propfind>
        """
        let response = try send(HTTPRequest("PROPFIND", url, headers: ["Depth: \(depth)", "Content-Type: application/xml; charset=utf-8"], body: body))
        return try multistatus(response, "PROPFIND", url: url)
    }

    /// The calendar home (RFC 6764 discovery: `/.well-known/caldav` when the URL has
    /// no path, then current-user-principal, then calendar-home-set).
    public func calendarHome(_ url: String) throws -> String {
        var start = url
        if CalDAVURL.path(of: url) == "/" || CalDAVURL.path(of: url).isEmpty {
            start = CalDAVURL.origin(of: url) + "/.well-known/caldav"
        }
        let origin = WebhookPoster.origin(of: url)
        let first = try propfind(start, depth: 0, props: "<d:current-user-principal/><c:calendar-home-set/>")
        var principal: String?
        for r in first {
            let (_, props) = Self.okProps(r)
            if let home = props?.child(Self.caldav, "calendar-home-set")?.child(Self.dav, "href")?.text.trimmedDAV, !home.isEmpty {
                return CalDAVURL.resolve(home, against: start)
            }
            if let p = props?.child(Self.dav, "current-user-principal")?.child(Self.dav, "href")?.text.trimmedDAV, !p.isEmpty {
                principal = CalDAVURL.resolve(p, against: start)
            }
        }
        guard let principal else {
            throw CalDAVError(.config, "CalDAV \(origin): no current-user-principal at \(ControlCharacters.replaced(in: CalDAVURL.path(of: start))); "
                              + "give the url of your calendars (see docs/caldav.md)")
        }
        for r in try propfind(principal, depth: 0, props: "<c:calendar-home-set/>") {
            if let home = Self.okProps(r).props?.child(Self.caldav, "calendar-home-set")?.child(Self.dav, "href")?.text.trimmedDAV, !home.isEmpty {
                return CalDAVURL.resolve(home, against: principal)
            }
        }
        throw CalDAVError(.config, "CalDAV \(origin): the principal has no calendar-home-set; give the url of your calendars (see docs/caldav.md)")
    }

    static let collectionProps = "<d:resourcetype/><d:displayname/><c:supported-calendar-component-set/><d:sync-token/><cs:getctag/>"

    /// The calendars in `home`.
    public func calendars(in home: String) throws -> [CalDAVCalendar] {
        try propfind(home, depth: 1, props: Self.collectionProps).compactMap { calendar(from: $0, base: home) }
    }

    /// The collection at `url` itself (for its sync-token and ctag).
    public func collection(_ url: String) throws -> CalDAVCalendar? {
        try propfind(url, depth: 0, props: Self.collectionProps).compactMap { calendar(from: $0, base: url) }.first
    }

    /// The calendars in a `home` remembered from an earlier discovery; nil when it is
    /// gone, moved or no longer ours (404, 410, 403 or a redirect), so the caller
    /// discovers it again.
    public func calendars(inRemembered home: String) throws -> [CalDAVCalendar]? {
        // Found elsewhere by an older triage: discover again (which refuses it, saying why).
        guard origin.admits(home) else { return nil }
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"><d:prop>\(Self.collectionProps)</d:prop></d:propfind>
        """
        let response = try send(HTTPRequest("PROPFIND", home, headers: ["Depth: 1", "Content-Type: application/xml; charset=utf-8"], body: body),
                                remembered: true)
        if [301, 302, 307, 308, 403, 404, 410].contains(response.status) { return nil }
        return try multistatus(response, "PROPFIND", url: home).compactMap { calendar(from: $0, base: home) }
    }

    private func calendar(from r: XMLElement, base: String) -> CalDAVCalendar? {
        let (href, props) = Self.okProps(r)
        guard let props, props.child(Self.dav, "resourcetype")?.child(Self.caldav, "calendar") != nil else { return nil }
        let names = (props.child(Self.caldav, "supported-calendar-component-set")?.all(Self.caldav, "comp") ?? []).compactMap { $0.attributes["name"] }
        return CalDAVCalendar(url: CalDAVURL.resolve(href, against: base),
                              displayName: props.child(Self.dav, "displayname")?.text,
                              takesTodos: names.isEmpty || names.contains("VTODO"),
                              syncToken: props.child(Self.dav, "sync-token").map { $0.text.trimmedDAV }.flatMap { $0.isEmpty ? nil : $0 },
                              ctag: props.child(Self.calendarServer, "getctag").map { $0.text.trimmedDAV }.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Creates a task list `name` under `home` (MKCALENDAR, VTODO only).
    public func makeCalendar(in home: String, name: String) throws -> String {
        let url = CalDAVURL.child(home, CalDAVURL.slug(name) + "/")
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>\(XMLDocument.escaped(name))</d:displayname><c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>
        """
        let response = try send(HTTPRequest("MKCALENDAR", url, headers: ["Content-Type: application/xml; charset=utf-8"], body: body))
        guard response.status == 201 else {
            throw CalDAVError(.tempFail, "CalDAV \(WebhookPoster.origin(of: url)): creating the list \"\(ControlCharacters.replaced(in: name))\" (MKCALENDAR) answered HTTP \(response.status)")
        }
        checkpoint?("caldav MKCALENDAR")
        return url
    }

    /// One VTODO resource: href, ETag and the calendar text.
    public struct Resource: Sendable {
        /// Its absolute URL.
        public var url: String
        /// Its ETag.
        public var etag: String?
        /// Its iCalendar text.
        public var text: String
    }

    /// Every VTODO of the collection (calendar-query REPORT with the data).
    public func allTodos(_ collection: String) throws -> [Resource] {
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>
        """
        let response = try send(HTTPRequest("REPORT", collection, headers: ["Depth: 1", "Content-Type: application/xml; charset=utf-8"], body: body),
                                kind: "calendar-query")
        return try resources(multistatus(response, "REPORT calendar-query", url: collection), base: collection)
    }

    /// The given resources' data (calendar-multiget REPORT).
    public func todos(_ collection: String, hrefs: [String]) throws -> [Resource] {
        guard !hrefs.isEmpty else { return [] }
        let list = hrefs.map { "<d:href>\(XMLDocument.escaped(CalDAVURL.path(of: $0)))</d:href>" }.joined()
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>\(list)</c:calendar-multiget>
        """
        let response = try send(HTTPRequest("REPORT", collection, headers: ["Depth: 1", "Content-Type: application/xml; charset=utf-8"], body: body),
                                kind: "calendar-multiget")
        return try resources(multistatus(response, "REPORT calendar-multiget", url: collection), base: collection)
    }

    private func resources(_ responses: [XMLElement], base: String) -> [Resource] {
        responses.compactMap { r in
            let (href, props) = Self.okProps(r)
            guard let props, let data = props.child(Self.caldav, "calendar-data")?.text, !data.isEmpty else { return nil }
            return Resource(url: CalDAVURL.resolve(href, against: base), etag: props.child(Self.dav, "getetag")?.text.trimmedDAV, text: data)
        }
    }

    /// What changed since `token` (RFC 6578): changed resources' URLs, deleted ones'
    /// URLs, and the new token; nil when the server refuses the token (then list all).
    public func changes(_ collection: String, since token: String) throws -> (changed: [String], deleted: [String], token: String?)? {
        let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(XMLDocument.escaped(token))</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
        """
        let response = try send(HTTPRequest("REPORT", collection, headers: ["Content-Type: application/xml; charset=utf-8"], body: body),
                                kind: "sync-collection")
        // 403/409 with valid-sync-token: the token expired; 400/501: not supported.
        if [400, 403, 409, 412, 415, 501].contains(response.status) { return nil }
        guard response.status == 207, let root = try? XMLDocument.parse(response.body), root.is(Self.dav, "multistatus") else {
            _ = try multistatus(response, "REPORT sync-collection", url: collection)
            return nil
        }
        var changed: [String] = []
        var deleted: [String] = []
        for r in root.all(Self.dav, "response") {
            guard let href = r.child(Self.dav, "href")?.text.trimmedDAV, !href.isEmpty else { continue }
            let url = CalDAVURL.resolve(href, against: collection)
            if (r.child(Self.dav, "status")?.text ?? "").contains(" 404") {
                deleted.append(url)
            } else if CalDAVURL.path(of: url) != CalDAVURL.path(of: collection) {
                changed.append(url)
            }
        }
        let newToken = root.child(Self.dav, "sync-token")?.text.trimmedDAV
        return (changed, deleted, newToken)
    }

    /// The outcome of a conditional write.
    public enum WriteResult: Sendable, Equatable {
        /// Written; the new ETag when the server gave one.
        case written(etag: String?)
        /// 412: the item changed (or, for a new one, exists) on the server.
        case preconditionFailed
    }

    /// PUTs a VTODO: `If-None-Match: *` for a new one (`etag` nil and `new`), else `If-Match: etag`.
    public func put(_ url: String, text: String, new: Bool, etag: String?) throws -> WriteResult {
        var headers = ["Content-Type: text/calendar; charset=utf-8"]
        if new { headers.append("If-None-Match: *") } else if let etag { headers.append("If-Match: \(etag)") }
        let response = try send(HTTPRequest("PUT", url, headers: headers, body: text))
        if response.status == 412 { return .preconditionFailed }
        guard response.ok else {
            throw CalDAVError(.tempFail, "CalDAV \(WebhookPoster.origin(of: url)): PUT \(ControlCharacters.replaced(in: CalDAVURL.path(of: url))) answered HTTP \(response.status)")
        }
        checkpoint?("caldav PUT")
        return .written(etag: response.headers["etag"])
    }

    /// DELETEs an item (`If-Match: etag` when known); a 404 counts as deleted.
    public func delete(_ url: String, etag: String?) throws -> WriteResult {
        let response = try send(HTTPRequest("DELETE", url, headers: etag.map { ["If-Match: \($0)"] } ?? []))
        if response.status == 412 { return .preconditionFailed }
        guard response.ok || response.status == 404 else {
            throw CalDAVError(.tempFail, "CalDAV \(WebhookPoster.origin(of: url)): DELETE \(ControlCharacters.replaced(in: CalDAVURL.path(of: url))) answered HTTP \(response.status)")
        }
        checkpoint?("caldav DELETE")
        return .written(etag: nil)
    }

    /// GETs one item; nil when it is gone.
    public func get(_ url: String) throws -> Resource? {
        let response = try send(HTTPRequest("GET", url))
        if response.status == 404 || response.status == 410 { return nil }
        guard response.ok else {
            throw CalDAVError(.tempFail, "CalDAV \(WebhookPoster.origin(of: url)): GET answered HTTP \(response.status)")
        }
        return Resource(url: url, etag: response.headers["etag"], text: String(decoding: response.body, as: UTF8.self))
    }
}
