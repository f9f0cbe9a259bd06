import CCurl

/// Where a URL leads: scheme, host and port, read by libcurl's own URL parser (the
/// one that connects, so no look-alike such as `https://a.example:443@b.example/`
/// reads one way here and another there). The host is compared without case, and a
/// missing port is the scheme's default: `https://H/` and `https://h:443/` are one
/// origin. Userinfo, path, query and fragment play no part.
public struct URLOrigin: Sendable, Equatable {
    /// The scheme, lower case (`https`).
    public var scheme: String
    /// The host, lower case (an IPv6 address in brackets, as libcurl gives it).
    public var host: String
    /// The port, the scheme's default when the URL names none.
    public var port: Int

    /// The origin of the absolute URL `url`; nil when libcurl cannot read it.
    public init?(_ url: String) {
        guard let parsed = curl_url() else { return nil }
        defer { curl_url_cleanup(parsed) }
        guard curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var text: UnsafeMutablePointer<CChar>?
            guard curl_url_get(parsed, which, &text, flags) == CURLUE_OK, let text else { return nil }
            defer { curl_free(text) }
            return String(cString: text)
        }
        guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST),
              let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) }) else { return nil }
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    /// `scheme://host:port`, for messages.
    public var text: String { "\(scheme)://\(host):\(port)" }
}
