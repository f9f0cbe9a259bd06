import TriageCore
import TriageCurl

/// Where a `[caldav NAME]` section's password may go: the one rule, for redirects and
/// for hrefs alike. Only to the configured url's origin (scheme, host and port, by
/// `URLOrigin`): a server that redirects, or names a principal, home or calendar,
/// elsewhere gets no request from triage; the sync stops with 78 and says which url
/// to configure if the other server is meant. So an https account never makes a plain
/// http request, not even to the same host.
struct CalDAVOrigin: Sendable {
    /// The configured url, as shown (without userinfo).
    let configured: String
    private let origin: URLOrigin?

    /// The origin of the section's `url`.
    init(configuredURL: String) {
        configured = Self.shown(configuredURL)
        origin = URLOrigin(configuredURL)
    }

    /// Whether `url` is at the configured origin (and may carry the password).
    func admits(_ url: String) -> Bool {
        guard let origin else { return false }
        return URLOrigin(url) == origin
    }

    /// Throws a configuration error (78) unless `url` is at the configured origin;
    /// `how` says how the server named it ("redirected PROPFIND /x (HTTP 302) to").
    func check(_ url: String, _ how: String) throws {
        guard !admits(url) else { return }
        let other = Self.shown(url)
        throw CalDAVError(.config, "CalDAV \(configured): the server \(how) \(other), which is not on the configured url's "
                          + "scheme, host and port; triage sends the password nowhere else and stopped without a request there. "
                          + "If that server is meant, make \(other) the url of this section")
    }

    /// `url` for a message: without userinfo (a password may be in it), query or
    /// fragment, control characters replaced, at most 200 characters.
    static func shown(_ url: String) -> String {
        var text = Substring(url)
        if let schemeEnd = text.firstRange(of: "://") {
            let rest = text[schemeEnd.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            if let at = authority.lastIndex(of: "@") {
                text = text[..<schemeEnd.upperBound] + text[text.index(after: at)...]
            }
        }
        let cut = text.prefix { $0 != "?" && $0 != "#" }
        let clean = ControlCharacters.replaced(in: String(cut))
        return clean.count > 200 ? String(clean.prefix(200)) + "…" : clean
    }
}
