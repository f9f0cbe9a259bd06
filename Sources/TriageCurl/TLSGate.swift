import CCurl
import CShims
import Glibc
import TriageTLS

/// Verifies the server's certificate with triage's one policy (`CertificatePolicy`,
/// the same as IMAP's) inside a libcurl transfer, before any credential goes out.
///
/// libcurl's GnuTLS backend neither checks the extended key usage nor lets a program
/// verify inside the handshake (no CURLOPT_SSL_CTX_FUNCTION), and CURLOPT_PREREQFUNCTION
/// runs too late for SMTP: curl sends AUTH while it "connects", before that callback.
/// So libcurl's own verification is off and the gate works from curl's debug
/// callback, which curl calls synchronously for everything it does:
///
/// - As soon as the TLS session holds the server's chain (curl reports the handshake's
///   outcome right after it finishes, before sending anything over TLS), the chain
///   is checked. A refusal shuts the connection's sockets down, so nothing more can
///   leave: not EHLO, not AUTH, not the message.
/// - Fail-closed: if a command goes out while TLS should be up (any command with
///   implicit TLS, any after STARTTLS) and no chain was checked, the sockets are shut
///   down too. With STARTTLS, the EHLO that must follow the handshake comes before
///   AUTH, so AUTH can never be the first command over an unchecked connection.
/// - The prerequest callback (before MAIL FROM, or before an HTTP request) refuses
///   to go on unless the chain passed.
///
/// The sockets are opened and closed through the gate (CURLOPT_OPENSOCKETFUNCTION,
/// CURLOPT_CLOSESOCKETFUNCTION), so it knows exactly which ones are live.
final class TLSGate {
    private let policy: CertificatePolicy
    private let host: String
    /// TLS from the first byte (smtps://, https://) rather than after STARTTLS.
    private let implicitTLS: Bool
    /// Whether the request may only go out once the chain passed (always for SMTP,
    /// which requires TLS; https webhooks).
    private let required: Bool

    /// Set once the chain passed the policy.
    private(set) var verified = false
    /// Set when the chain was refused (or could not be checked): why.
    private(set) var refusal: CertificateRefusal?
    private var startTLSSent = false
    private var sockets: Set<Int32> = []

    init(policy: CertificatePolicy, host: String, implicitTLS: Bool, required: Bool) {
        self.policy = policy
        self.host = host
        self.implicitTLS = implicitTLS
        self.required = required
    }

    /// Called from the debug callback for every event of the transfer.
    func observe(_ handle: UnsafeMutableRawPointer, type: curl_infotype, text: () -> String) {
        guard !verified, refusal == nil else { return }
        if let session = triage_curl_gnutls_session(handle),
           let chain = TLSPeerChain.of(gnutlsSession: OpaquePointer(session)) {
            do {
                try policy.check(chain: chain, host: host)
                verified = true
            } catch {
                refuse(error)
            }
            return
        }
        guard type == CURLINFO_HEADER_OUT else { return }
        if implicitTLS || startTLSSent {
            refuse(CertificateRefusal(.untrusted, "the server's certificate could not be read after the TLS handshake"))
            return
        }
        if text().uppercased().hasPrefix("STARTTLS") { startTLSSent = true }
    }

    /// Whether the request may go out (the prerequest callback).
    var mayProceed: Bool { refusal == nil && (verified || !required) }

    /// Opens a socket for curl and remembers it.
    func openSocket(family: Int32, type: Int32, protocol: Int32) -> Int32 {
        guard refusal == nil else { return -1 }  // no second attempt after a refusal
        let fd = socket(family, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
        if fd >= 0 { sockets.insert(fd) }
        return fd
    }

    /// Closes a socket for curl.
    func closeSocket(_ fd: Int32) -> Int32 {
        sockets.remove(fd)
        return close(fd)
    }

    private func refuse(_ reason: CertificateRefusal) {
        refusal = reason
        // The kernel refuses every later send: nothing of ours leaves after this.
        for fd in sockets { shutdown(fd, Int32(SHUT_RDWR)) }
    }
}
