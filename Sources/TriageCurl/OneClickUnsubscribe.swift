import TriageCore

/// RFC 8058 one-click unsubscribe: one `POST` of `List-Unsubscribe=One-Click`
/// (`application/x-www-form-urlencoded`) to the https URI of `List-Unsubscribe`,
/// through `HTTPClient` (the one TLS policy, `TLSGate`): https only, no cookies
/// (no cookie engine is ever started) and no credentials, no redirect followed,
/// bounded in time and in the size of the answer read.
public struct OneClickUnsubscribe: Sendable {
    /// Trusted certificate authorities (the system's; tests add their CA).
    public var trust: TLSTrust
    /// Seconds for the whole request.
    public var timeout: Double
    /// The largest answer read, in bytes.
    public var maxResponseBytes: Int

    /// Creates a poster.
    public init(trust: TLSTrust = TLSTrust(), timeout: Double = 20, maxResponseBytes: Int = 64 << 10) {
        self.trust = trust
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// The body RFC 8058 §3.2 prescribes.
    public static let body = "List-Unsubscribe=One-Click"

    /// What came of it.
    public enum Outcome: Sendable, Equatable {
        /// The server answered with this status (2xx: done; 3xx: a redirect, not followed).
        case answered(Int)
        /// Refused before sending (not https).
        case refused(String)
        /// No answer: connection, TLS, time or size limit (worth another try).
        case failed(String)
    }

    /// POSTs to `url` (which must be https).
    public func post(_ url: String) -> Outcome {
        guard url.lowercased().hasPrefix("https://"), CurlEasy.host(ofURL: url) != nil else {
            return .refused("\(WebhookPoster.origin(of: url)): one-click unsubscribe is sent over https:// only")
        }
        let client = HTTPClient(trust: trust, connectTimeout: min(10, timeout), timeout: timeout, maxResponseBytes: maxResponseBytes)
        do {
            let answer = try client.send(HTTPRequest("POST", url, headers: ["Content-Type: application/x-www-form-urlencoded"],
                                                     body: Self.body))
            return .answered(answer.status)
        } catch let failure as HTTPFailure {
            return .failed(failure.reason)
        } catch {
            return .failed("\(WebhookPoster.origin(of: url)): \(error)")
        }
    }
}
