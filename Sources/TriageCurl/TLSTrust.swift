/// Which certificate authorities a TLS connection trusts: the system's, plus
/// an optional extra CA file (`ca_file`). The certificate is checked by
/// `CertificatePolicy` (TriageTLS), the same policy as IMAP's.
public struct TLSTrust: Sendable, Hashable {
    /// An extra PEM file of trust anchors, or nil.
    public var caFile: String?
    /// A folder of PEM trust anchors standing in for the system trust store, or
    /// nil for the system store itself; tests point it elsewhere.
    public var systemCAPath: String?

    /// Creates a trust setting: system trust plus `caFile`.
    public init(caFile: String? = nil, systemCAPath: String? = nil) {
        self.caFile = caFile
        self.systemCAPath = systemCAPath
    }
}
