import CGnuTLS
import Glibc
import TriageCore

/// Verifies the certificate chain a TLS server presented, with GnuTLS.
///
/// libetpan's GnuTLS build checks neither the chain nor the host name. Of the two
/// ways that work (see the project's libetpan notes), triage takes the chain from
/// libetpan's stream right after the handshake and verifies it here, before any
/// command that carries a credential is sent: it keeps libetpan's own, tested TLS
/// stream (timeouts, STARTTLS swap) and needs no hand-written stream driver. The
/// server's greeting has been read by then, but nothing of ours has been sent.
///
/// Trust anchors: the system store plus an optional PEM file. Checks: chain to an
/// anchor, validity dates, the host name (or IP address) against the certificate,
/// and the TLS server key purpose.
enum CertificateVerifier {
    /// Throws a `.tls` `MailError` naming `server` and the reason unless `chain`
    /// (DER certificates, leaf first) is valid for `host`.
    static func verify(chain: [[UInt8]], host: String, caFile: String?, server: String) throws {
        guard !chain.isEmpty else {
            throw MailError(.tls, server: server, "the server presented no certificate")
        }
        var list: gnutls_x509_trust_list_t?
        guard gnutls_x509_trust_list_init(&list, 0) == GNUTLS_E_SUCCESS, let list else {
            throw MailError(.tls, server: server, "cannot set up certificate verification")
        }
        defer { gnutls_x509_trust_list_deinit(list, 1) }
        let system = gnutls_x509_trust_list_add_system_trust(list, 0, 0)
        var anchors = max(0, Int(system))
        if let caFile {
            let added = gnutls_x509_trust_list_add_trust_file(list, caFile, nil, GNUTLS_X509_FMT_PEM, 0, 0)
            guard added > 0 else {
                throw MailError(.configuration, server: server,
                                "ca_file \(caFile) holds no readable PEM certificate; check the path and its contents")
            }
            anchors += Int(added)
        }
        guard anchors > 0 else {
            throw MailError(.tls, server: server,
                            "no trusted certificates: the system trust store is empty and no ca_file is set; install ca-certificates")
        }

        var certificates: [gnutls_x509_crt_t?] = []
        defer { for certificate in certificates { gnutls_x509_crt_deinit(certificate) } }
        for der in chain {
            var certificate: gnutls_x509_crt_t?
            guard gnutls_x509_crt_init(&certificate) == GNUTLS_E_SUCCESS else {
                throw MailError(.tls, server: server, "cannot read the server's certificate")
            }
            certificates.append(certificate)
            var bytes = der
            let imported = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
                return gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_DER)
            }
            guard imported == GNUTLS_E_SUCCESS else {
                throw MailError(.tls, server: server, "the server sent a certificate that cannot be parsed")
            }
        }

        var status: UInt32 = 0
        let result: Int32 = host.withCString { hostPointer in
            GNUTLS_KP_TLS_WWW_SERVER.withCString { purposePointer in
                var data = [
                    gnutls_typed_vdata_st(type: GNUTLS_DT_DNS_HOSTNAME,
                                          data: UnsafeMutableRawPointer(mutating: hostPointer)
                                              .assumingMemoryBound(to: UInt8.self), size: 0),
                    gnutls_typed_vdata_st(type: GNUTLS_DT_KEY_PURPOSE_OID,
                                          data: UnsafeMutableRawPointer(mutating: purposePointer)
                                              .assumingMemoryBound(to: UInt8.self), size: 0),
                ]
                return gnutls_x509_trust_list_verify_crt2(list, &certificates, UInt32(certificates.count),
                                                          &data, UInt32(data.count), 0, &status, nil)
            }
        }
        guard result == GNUTLS_E_SUCCESS else {
            throw MailError(.tls, server: server, "certificate verification failed: \(errorText(result))")
        }
        guard status == 0 else {
            throw MailError(.tls, server: server,
                            "the server's certificate is not trusted for \(host): \(reason(status)); "
                            + "if the server uses a private CA, set ca_file to its certificate")
        }
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
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(out.size)), as: UTF8.self)
    }

    private static func errorText(_ code: Int32) -> String {
        guard let text = gnutls_strerror(code) else { return "GnuTLS error \(code)" }
        return String(cString: text)
    }
}
