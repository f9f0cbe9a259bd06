/// Which certificate authorities a TLS connection trusts: the system's, plus
/// an optional extra CA file (`ca_file`).
///
/// In Debian's GnuTLS build of libcurl, `CURLOPT_CAINFO` adds to the trust
/// from `CURLOPT_CAPATH` rather than replacing it (checked on this system and
/// pinned by `SMTPSenderTests`), so both are set and both are trusted.
public struct TLSTrust: Sendable, Hashable {
    /// The system's hashed certificate folder.
    public static let systemCertificates = "/etc/ssl/certs"

    /// An extra PEM file of trust anchors, or nil.
    public var caFile: String?
    /// The folder of system trust anchors (OpenSSL hash links); tests point it elsewhere.
    public var systemCAPath: String?

    /// Creates a trust setting: system trust plus `caFile`.
    public init(caFile: String? = nil, systemCAPath: String? = TLSTrust.systemCertificates) {
        self.caFile = caFile
        self.systemCAPath = systemCAPath
    }
}
