import CEtPan
import TriageCore
import TriageTLS

/// The certificate check of a libetpan stream after its TLS handshake, by the one
/// policy (`CertificatePolicy`): for IMAP and ManageSieve alike.
enum StreamCertificate {
    /// Throws `MailError` (`.tls`, or `.configuration` for an unreadable `ca_file`)
    /// unless the peer's chain is valid for `host`; returns the anchors that settled it.
    @discardableResult
    static func verify(_ stream: UnsafeMutablePointer<mailstream>, caFile: String?, host: String,
                       server: String) throws -> CertificatePolicy.Anchors {
        guard let chain = mailstream_low_get_certificate_chain(mailstream_get_low(stream)) else {
            throw MailError(.tls, server: server, "no certificate chain after the TLS handshake")
        }
        defer { mailstream_certificate_chain_free(chain) }
        var certificates: [[UInt8]] = []
        for index in 0..<Int(chain.pointee.len) {
            guard let element = chain.pointee.array[index] else { continue }
            let string = element.assumingMemoryBound(to: MMAPString.self)
            guard let bytes = string.pointee.str else { continue }
            certificates.append(Array(UnsafeRawBufferPointer(start: bytes, count: string.pointee.len)))
        }
        do {
            return try CertificatePolicy(caFile: caFile).check(chain: certificates, host: host)
        } catch {
            throw MailError(error.kind == .configuration ? .configuration : .tls, server: server, error.reason)
        }
    }
}
