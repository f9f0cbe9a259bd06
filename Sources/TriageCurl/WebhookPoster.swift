import CCurl
import TriageCore

/// POSTs a JSON body to an HTTP(S) URL through libcurl, with a timeout and
/// verified TLS, and reports the outcome as a value: a failed webhook never
/// throws, so it cannot block the mail actions; the run retries it later.
///
/// Webhook URLs often carry a secret in their path or query (a token), so
/// failure reasons name only the scheme, host and port.
public struct WebhookPoster: Sendable {
    /// Trusted certificate authorities for https.
    public var trust: TLSTrust
    /// Seconds allowed to connect.
    public var connectTimeout: Double
    /// Seconds allowed for the whole request.
    public var timeout: Double

    /// Creates a poster.
    public init(trust: TLSTrust = TLSTrust(), connectTimeout: Double = 10, timeout: Double = 20) {
        self.trust = trust
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// POSTs `json` (a complete JSON text) to `url` with `Content-Type: application/json`.
    public func post(url: String, json: String) -> WebhookResult {
        let origin = Self.origin(of: url)
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            return .failed(reason: "webhook URL must start with https:// or http:// (\(origin))")
        }
        guard let curl = CurlEasy() else { return .failed(reason: "libcurl could not start a session for \(origin)") }
        let body = Array(json.utf8)
        do {
            try curl.set(CURLOPT_URL, url)
            try curl.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try curl.set(CURLOPT_FOLLOWLOCATION, 0)
            let https = url.hasPrefix("https://")
            try curl.setVerifiedTLS(trust, host: CurlEasy.host(ofURL: url) ?? "", implicitTLS: https, required: https,
                                    connectTimeout: connectTimeout, timeout: timeout)
            try curl.set(CURLOPT_POST, 1)
            try curl.set(CURLOPT_POSTFIELDSIZE, body.count)
            try curl.set(CURLOPT_COPYPOSTFIELDS, json)
            try curl.set(CURLOPT_HTTPHEADER, list: [
                "Content-Type: application/json",
                "User-Agent: triage/\(TriageVersion.string)",
                "Expect:",  // no 100-continue round trip
            ])
        } catch {
            return .failed(reason: "libcurl refused an HTTP option for \(origin)")
        }
        let (code, text) = curl.perform()
        if let refusal = curl.tlsRefusal {
            return .failed(reason: "webhook \(origin): TLS failed: \(refusal.reason)")
        }
        guard code == CURLE_OK else {
            let what = CurlEasy.httpFailure(code, timeout: "timed out", otherwise: "request failed")
            return .failed(reason: "webhook \(origin): \(what): \(Self.redacting(text, url: url))")
        }
        let status = curl.info(CURLINFO_RESPONSE_CODE)
        if (200..<300).contains(status) { return .delivered(status: status) }
        let snippet = SMTPConversation.printable(String(decoding: curl.responsePrefix.prefix(120), as: UTF8.self))
        return .failed(reason: "webhook \(origin): HTTP \(status)" + (snippet.isEmpty ? "" : " (\(snippet))"))
    }

    /// `scheme://host[:port]` of a URL, without credentials, path or query.
    public static func origin(of url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return "(not a URL)" }
        let scheme = url[..<schemeEnd.lowerBound]
        var authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return SMTPConversation.printable(scheme + "://" + authority)
    }

    /// libcurl's message with anything of the URL beyond its origin removed.
    static func redacting(_ text: String, url: String) -> String {
        var out = text
        if let schemeEnd = url.firstRange(of: "://") {
            let afterScheme = String(url[schemeEnd.upperBound...])
            let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            // (An empty user part is skipped: replacing "" would insert *** everywhere.)
            if let at = authority.lastIndex(of: "@"), at > authority.startIndex {
                out = out.replacing(String(authority[..<at]), with: "***")
            }
            let rest = String(afterScheme.dropFirst(authority.count))
            if rest.count > 1 { out = out.replacing(rest, with: "/…") }
        }
        return out
    }
}
