import CCurl
import TriageCore

/// HTTP(S) through libcurl with triage's one TLS policy (`TLSGate`, as SMTP and
/// webhooks), Basic authentication only over verified TLS (or to a loopback host),
/// a time limit per request and a size limit per answer. For CalDAV: any method,
/// a text body, no redirects followed (the caller decides; see `CalDAVClient`).
public struct HTTPClient: Sendable {
    /// Trusted certificate authorities for https.
    public var trust: TLSTrust
    /// The login, or nil for none.
    public var user: String?
    /// The password (never logged or shown).
    public var password: String?
    /// Seconds allowed to connect.
    public var connectTimeout: Double
    /// Seconds allowed for one whole request.
    public var timeout: Double
    /// The largest answer body read, in bytes; a longer one fails the request.
    public var maxResponseBytes: Int

    /// Creates a client.
    public init(trust: TLSTrust = TLSTrust(), user: String? = nil, password: String? = nil,
                connectTimeout: Double = 15, timeout: Double = 60, maxResponseBytes: Int = 16 << 20) {
        self.trust = trust
        self.user = user
        self.password = password
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// Whether `url` may carry a password: https, or http to this machine.
    public static func isSafe(_ url: String) -> Bool {
        if url.lowercased().hasPrefix("https://") { return true }
        guard url.lowercased().hasPrefix("http://"), let host = CurlEasy.host(ofURL: url) else { return false }
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Sends `request`; throws `HTTPFailure` when no answer came (refused TLS,
    /// no connection, a timeout, an answer beyond the size limit).
    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let origin = WebhookPoster.origin(of: request.url)
        let lower = request.url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
            throw HTTPFailure(reason: "\(origin): the URL must start with https:// (or http:// to this machine)", tls: false)
        }
        guard Self.isSafe(request.url) else {
            throw HTTPFailure(reason: "\(origin): refusing plain http:// to another machine; use https://", tls: false)
        }
        guard let curl = CurlEasy() else { throw HTTPFailure(reason: "libcurl could not start a session for \(origin)", tls: false) }
        var headers: [String: String] = [:]
        var statusSeen = false
        curl.observe { type, text in
            guard type == CURLINFO_HEADER_IN else { return }
            for line in text.split(whereSeparator: \.isNewline) {
                if line.hasPrefix("HTTP/") {
                    // A new answer (after 100 Continue or an auth round): its own headers.
                    if statusSeen { headers = [:] }
                    statusSeen = true
                    continue
                }
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                var value = line[line.index(after: colon)...]
                while value.first == " " || value.first == "\t" { value.removeFirst() }
                headers[name] = String(value.prefix(2048))
            }
        }
        do {
            try curl.set(CURLOPT_URL, request.url)
            try curl.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try curl.set(CURLOPT_FOLLOWLOCATION, 0)
            let https = lower.hasPrefix("https://")
            try curl.setVerifiedTLS(trust, host: CurlEasy.host(ofURL: request.url) ?? "", implicitTLS: https, required: https,
                                    connectTimeout: connectTimeout, timeout: timeout)
            curl.keepResponse(upTo: maxResponseBytes, abortBeyondLimit: true)
            if let user {
                try curl.set(CURLOPT_USERNAME, user)
                try curl.set(CURLOPT_PASSWORD, password ?? "")
                try curl.set(CURLOPT_HTTPAUTH, 1)  // CURLAUTH_BASIC (a macro Swift does not import)
            }
            if let body = request.body {
                let bytes = Array(body.utf8)
                try curl.set(CURLOPT_POST, 1)
                try curl.set(CURLOPT_POSTFIELDSIZE, bytes.count)
                try curl.set(CURLOPT_COPYPOSTFIELDS, body)
            }
            if request.method != "GET" && !(request.method == "POST" && request.body != nil) {
                try curl.set(CURLOPT_CUSTOMREQUEST, request.method)
            }
            try curl.set(CURLOPT_HTTPHEADER, list: request.headers + [
                "User-Agent: triage/\(TriageVersion.string)",
                "Expect:",  // no 100-continue round trip
            ])
        } catch {
            throw HTTPFailure(reason: "libcurl refused an HTTP option for \(origin)", tls: false)
        }
        let (code, text) = curl.perform()
        if let refusal = curl.tlsRefusal {
            throw HTTPFailure(reason: "\(origin): TLS failed: \(refusal.reason)", tls: true)
        }
        if curl.responseTooLarge {
            throw HTTPFailure(reason: "\(origin): the answer to \(request.method) is larger than \(maxResponseBytes) bytes; stopped reading", tls: false)
        }
        guard code == CURLE_OK else {
            let what = CurlEasy.httpFailure(code, timeout: "timed out after \(Int(timeout)) s", otherwise: "\(request.method) failed")
            throw HTTPFailure(reason: "\(origin): \(what): \(WebhookPoster.redacting(text, url: request.url))",
                              tls: what == "TLS failed")
        }
        return HTTPResponse(status: curl.info(CURLINFO_RESPONSE_CODE), headers: headers, body: curl.responsePrefix)
    }
}
