import CGnuTLS

/// The certificate chain a TLS server presented, read from a GnuTLS session that
/// another library (libcurl) owns, for `CertificatePolicy`.
public enum TLSPeerChain {
    /// The DER certificates, leaf first, of the GnuTLS session `session` (a
    /// `gnutls_session_t`); nil while the server has sent none (handshake not done).
    public static func of(gnutlsSession session: OpaquePointer) -> [[UInt8]]? {
        var count: UInt32 = 0
        guard let list = gnutls_certificate_get_peers(session, &count), count > 0 else { return nil }
        return (0..<Int(count)).map { index in
            let datum = list[index]
            guard let data = datum.data else { return [] }
            return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
        }
    }
}
