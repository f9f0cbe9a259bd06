import CGnuTLS
import Glibc

/// triage's one TLS verification policy, used by IMAP (libetpan) and by SMTP and
/// webhooks (libcurl) alike, so that a certificate one accepts the other accepts too.
///
/// Neither library's own checks decide: libetpan's GnuTLS build checks nothing, and
/// libcurl's GnuTLS backend does not check the extended key usage (it accepted a
/// clientAuth-only certificate that IMAP refused). Both adapters hand the chain the
/// server presented to `check` right after the handshake and before anything of
/// theirs (credentials included) is sent.
///
/// Checks: the chain leads to a trust anchor (the system store, or `trustDirectory`
/// standing in for it, plus `caFile`), every certificate is within its validity
/// dates, each issuer is a CA, the leaf is for a TLS server (extended key usage
/// serverAuth, when the certificate restricts it), and the host matches: a DNS name
/// by RFC 6125 rules (a wildcard covers exactly one label), an IP address only by an
/// IP address entry (an address written as a DNS name does not count, RFC 9525).
public struct CertificatePolicy: Sendable, Hashable {
    /// An extra PEM file of trust anchors (`ca_file`), or nil.
    public var caFile: String?
    /// A folder of PEM trust anchors used instead of the system store, or nil for
    /// the system store (tests stand in for it with their own folder).
    public var trustDirectory: String?

    /// Creates a policy: the system trust store (or `trustDirectory`) plus `caFile`.
    public init(caFile: String? = nil, trustDirectory: String? = nil) {
        self.caFile = caFile
        self.trustDirectory = trustDirectory
    }

    /// The trust anchors a chain was verified against.
    public enum Anchors: Sendable, Equatable {
        /// The account's `ca_file` alone: the system store was not read.
        case caFile
        /// The system trust store (or `trustDirectory`), plus `caFile` when set.
        case systemStore
    }

    /// Throws `CertificateRefusal` unless `chain` (DER certificates, leaf first, as
    /// the server sent them) is valid for `host` (a name or a textual IP address);
    /// returns the anchors that settled it.
    ///
    /// With a `caFile`, the chain is first verified against it alone: the system
    /// store is some 150 anchors in one file whose parse costs more than the rest of a
    /// no-op run's TLS (about 13 ms), and a server with a private CA, the reason a
    /// `ca_file` is set, never needs it. Adding anchors cannot make a verified chain
    /// fail, so what this accepts is what the whole set accepts; every chain it does
    /// not accept is verified again against the system store plus `caFile`, and that
    /// outcome (and its refusal) is the answer, exactly as when both were read at once.
    @discardableResult
    public func check(chain: [[UInt8]], host: String) throws(CertificateRefusal) -> Anchors {
        guard !chain.isEmpty else { throw CertificateRefusal(.untrusted, "the server presented no certificate") }
        // The ca_file is read before the chain, as always: an unreadable one is a
        // configuration error whatever the server sent.
        let caFileOnly = caFile == nil ? nil : try Self.trustList()
        defer { if let caFileOnly { gnutls_x509_trust_list_deinit(caFileOnly, 1) } }
        if let caFileOnly { _ = try addCAFile(to: caFileOnly) }

        var certificates: [gnutls_x509_crt_t?] = []
        defer { for certificate in certificates { gnutls_x509_crt_deinit(certificate) } }
        for der in chain {
            var certificate: gnutls_x509_crt_t?
            guard gnutls_x509_crt_init(&certificate) == GNUTLS_E_SUCCESS else {
                throw CertificateRefusal(.untrusted, "cannot read the server's certificate")
            }
            certificates.append(certificate)
            var bytes = der
            let imported = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
                return gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_DER)
            }
            guard imported == GNUTLS_E_SUCCESS else {
                throw CertificateRefusal(.untrusted, "the server sent a certificate that cannot be parsed")
            }
        }

        if let caFileOnly {
            let (result, status) = Self.verify(&certificates, against: caFileOnly, host: host)
            if result == GNUTLS_E_SUCCESS && status == 0 { return .caFile }
        }

        let list = try Self.trustList()
        defer { gnutls_x509_trust_list_deinit(list, 1) }
        var anchors: Int
        if let trustDirectory {
            anchors = max(0, Int(gnutls_x509_trust_list_add_trust_dir(list, trustDirectory, nil, GNUTLS_X509_FMT_PEM, 0, 0)))
        } else {
            anchors = max(0, Int(gnutls_x509_trust_list_add_system_trust(list, 0, 0)))
        }
        anchors += try addCAFile(to: list)
        guard anchors > 0 else {
            throw CertificateRefusal(.untrusted,
                                     "no trusted certificates: the system trust store is empty and no ca_file is set; install ca-certificates")
        }
        let (result, status) = Self.verify(&certificates, against: list, host: host)
        guard result == GNUTLS_E_SUCCESS else {
            throw CertificateRefusal(.untrusted, "certificate verification failed: \(Self.errorText(result))")
        }
        guard status == 0 else {
            throw CertificateRefusal(.untrusted, Self.explain(status, host: host, leaf: certificates[0]))
        }
        return .systemStore
    }

    private static func trustList() throws(CertificateRefusal) -> gnutls_x509_trust_list_t {
        var list: gnutls_x509_trust_list_t?
        guard gnutls_x509_trust_list_init(&list, 0) == GNUTLS_E_SUCCESS, let list else {
            throw CertificateRefusal(.untrusted, "cannot set up certificate verification")
        }
        return list
    }

    /// Adds `caFile`'s anchors to `list`; how many (0 without a `caFile`).
    private func addCAFile(to list: gnutls_x509_trust_list_t) throws(CertificateRefusal) -> Int {
        guard let caFile else { return 0 }
        let added = gnutls_x509_trust_list_add_trust_file(list, caFile, nil, GNUTLS_X509_FMT_PEM, 0, 0)
        guard added > 0 else {
            throw CertificateRefusal(.configuration,
                                     "ca_file \(caFile) holds no readable PEM certificate; check the path and its contents")
        }
        return Int(added)
    }

    /// GnuTLS's verification of `certificates` against `list`'s anchors for `host`:
    /// its result code and, when that is success, the status bits (0: valid).
    private static func verify(_ certificates: inout [gnutls_x509_crt_t?], against list: gnutls_x509_trust_list_t,
                               host: String) -> (result: Int32, status: UInt32) {
        var status: UInt32 = 0
        let address = ipAddressBytes(host)
        let result: Int32 = host.withCString { hostPointer in
            GNUTLS_KP_TLS_WWW_SERVER.withCString { purposePointer in
                var addressBytes = address ?? []
                return addressBytes.withUnsafeMutableBufferPointer { raw in
                    // An address is matched against IP address entries only; a name by DNS rules.
                    let identity = address != nil
                        ? gnutls_typed_vdata_st(type: GNUTLS_DT_IP_ADDRESS, data: raw.baseAddress, size: UInt32(raw.count))
                        : gnutls_typed_vdata_st(type: GNUTLS_DT_DNS_HOSTNAME,
                                                data: UnsafeMutableRawPointer(mutating: hostPointer)
                                                    .assumingMemoryBound(to: UInt8.self), size: 0)
                    var data = [
                        identity,
                        gnutls_typed_vdata_st(type: GNUTLS_DT_KEY_PURPOSE_OID,
                                              data: UnsafeMutableRawPointer(mutating: purposePointer)
                                                  .assumingMemoryBound(to: UInt8.self), size: 0),
                    ]
                    return gnutls_x509_trust_list_verify_crt2(list, &certificates, UInt32(certificates.count),
                                                              &data, UInt32(data.count), 0, &status, nil)
                }
            }
        }
        return (result, status)
    }

    /// What is wrong, in GnuTLS's words, with the names the certificate is for
    /// instead of "does not match the expected", and what to do.
    private static func explain(_ status: UInt32, host: String, leaf: gnutls_x509_crt_t?) -> String {
        let owner = GNUTLS_CERT_UNEXPECTED_OWNER.rawValue
        var parts: [String] = []
        let rest = status & ~owner
        if rest & ~GNUTLS_CERT_INVALID.rawValue != 0 || status & owner == 0 { parts.append(reason(rest == 0 ? status : rest)) }
        if status & owner != 0 {
            let names = leaf.map(Self.names) ?? []
            let wanted = ipAddressBytes(host) != nil ? "IP:\(host)" : "DNS:\(host)"
            parts.append(names.isEmpty
                ? "the certificate names no host, so not \(wanted)"
                : "the certificate is for \(names.joined(separator: ", ")), which does not match \(wanted)")
        }
        let hint: String
        if status & (GNUTLS_CERT_SIGNER_NOT_FOUND.rawValue | GNUTLS_CERT_SIGNER_NOT_CA.rawValue) != 0 {
            hint = "if the server uses a private CA, set ca_file to its certificate; a server must also send its intermediate certificates"
        } else if status & owner != 0 {
            hint = "connect to a name the certificate is for (an IP address matches only an IP entry, "
                + "a wildcard only one label)"
        } else if status & GNUTLS_CERT_PURPOSE_MISMATCH.rawValue != 0 {
            hint = "the certificate is not meant for a TLS server (extended key usage); the server needs a serverAuth certificate"
        } else {
            hint = "if the server uses a private CA, set ca_file to its certificate"
        }
        return "the server's certificate is not trusted for \(host): \(parts.joined(separator: "; ")); \(hint)"
    }

    /// The DNS names and IP addresses the certificate is for (subjectAltName), as
    /// `DNS:name` and `IP:address` in printable text: they come from the server, so
    /// nothing else may reach a terminal.
    private static func names(_ certificate: gnutls_x509_crt_t?) -> [String] {
        var names: [String] = []
        for index in 0..<16 {
            var buffer = [UInt8](repeating: 0, count: 256)
            var size = buffer.count
            var type: UInt32 = 0
            let result = gnutls_x509_crt_get_subject_alt_name2(certificate, UInt32(index), &buffer, &size, &type, nil)
            if result == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE { break }
            guard result >= 0 else { continue }
            let value = Array(buffer.prefix(size))
            switch UInt32(result) {
            case GNUTLS_SAN_DNSNAME.rawValue:
                names.append("DNS:" + String(decoding: value.map { (33..<127).contains($0) ? $0 : UInt8(ascii: "?") }.prefix(100),
                                             as: UTF8.self))
            case GNUTLS_SAN_IPADDRESS.rawValue:
                names.append("IP:" + ipAddressText(value))
            default:
                continue
            }
        }
        return names
    }

    /// The 4 or 16 bytes of a textual IPv4 or IPv6 address, or nil for a name.
    static func ipAddressBytes(_ host: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    private static func ipAddressText(_ bytes: [UInt8]) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = bytes.count == 4 ? AF_INET : bytes.count == 16 ? AF_INET6 : -1
        guard family >= 0, bytes.withUnsafeBytes({ inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }) != nil else {
            return "(an IP address of \(bytes.count) bytes)"
        }
        let length = text.firstIndex(of: 0) ?? text.count
        return String(decoding: text[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// GnuTLS's own words for a verification status, e.g. "The certificate is NOT
    /// trusted. The certificate issuer is unknown."
    private static func reason(_ status: UInt32) -> String {
        var out = gnutls_datum_t()
        guard gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &out, 0) == GNUTLS_E_SUCCESS,
              let data = out.data else {
            return "verification status \(status)"
        }
        // gnutls_free is a global function pointer (Swift 6 refuses to read it); it is
        // free(3) since GnuTLS 3.3 made custom allocators a no-op.
        defer { free(data) }
        // "The certificate is NOT trusted. The certificate issuer is unknown. " -> the reasons only.
        let text = String(decoding: UnsafeBufferPointer(start: data, count: Int(out.size)), as: UTF8.self)
        let sentences = text.split(separator: ".").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            .filter { !$0.isEmpty && $0 != "The certificate is NOT trusted" }
        return sentences.isEmpty ? "the certificate is NOT trusted" : sentences.joined(separator: "; ")
    }

    private static func errorText(_ code: Int32) -> String {
        guard let text = gnutls_strerror(code) else { return "GnuTLS error \(code)" }
        return String(cString: text)
    }
}
