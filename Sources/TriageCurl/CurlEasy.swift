import CCurl
import CShims
import Glibc
import TriageTLS

/// One libcurl easy handle with the plumbing every transfer here needs: typed
/// options, an error buffer, string lists, an upload body, a bounded response
/// body, and a protocol observer. Used by one thread at a time.
final class CurlEasy {
    /// Called for each piece of the protocol conversation (CURLOPT_DEBUGFUNCTION).
    typealias Observer = (_ type: curl_infotype, _ text: String) -> Void

    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private let io = IOContext()

    /// The first bytes of the response body (for webhook failure reasons).
    var responsePrefix: [UInt8] { io.response }

    /// How many bytes of the response body are kept (default 512). With
    /// `abortBeyondLimit`, a longer body stops the transfer (`responseTooLarge`).
    func keepResponse(upTo limit: Int, abortBeyondLimit: Bool) {
        io.responseLimit = limit
        io.abortBeyondLimit = abortBeyondLimit
    }

    /// Whether the body was longer than the limit and the transfer was stopped.
    var responseTooLarge: Bool { io.tooLarge }

    /// libcurl's global state is set up once per process, before the first handle.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Creates a handle, or nil when libcurl cannot.
    init?() {
        guard Self.globalInit == CURLE_OK, let handle = curl_easy_init() else { return nil }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let context = Unmanaged.passUnretained(io).toOpaque()
        var ok = triage_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer) == CURLE_OK
        ok = ok && triage_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1) == CURLE_OK
        ok = ok && triage_curl_setopt_write_callback(handle, CurlEasy.write) == CURLE_OK
        ok = ok && triage_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context) == CURLE_OK
        ok = ok && triage_curl_setopt_read_callback(handle, CurlEasy.read) == CURLE_OK
        ok = ok && triage_curl_setopt_pointer(handle, CURLOPT_READDATA, context) == CURLE_OK
        ok = ok && triage_curl_setopt_debug_callback(handle, CurlEasy.debug) == CURLE_OK
        ok = ok && triage_curl_setopt_pointer(handle, CURLOPT_DEBUGDATA, context) == CURLE_OK
        // Verbose only feeds the debug callback above; nothing is ever printed.
        ok = ok && triage_curl_setopt_long(handle, CURLOPT_VERBOSE, 1) == CURLE_OK
        if !ok {
            curl_easy_cleanup(handle)
            errorBuffer.deallocate()
            return nil
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        for list in lists { curl_slist_free_all(list) }
        errorBuffer.deallocate()
    }

    /// The option that could not be set (a libcurl built without a feature).
    struct OptionError: Error {
        var option: CURLoption
        var code: CURLcode
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        let code = triage_curl_setopt_long(handle, option, value)
        if code != CURLE_OK { throw OptionError(option: option, code: code) }
    }

    func set(_ option: CURLoption, _ value: String) throws {
        // libcurl copies string options (since 7.17), so the temporary C string may go.
        let code = value.withCString { triage_curl_setopt_string(handle, option, $0) }
        if code != CURLE_OK { throw OptionError(option: option, code: code) }
    }

    /// Sets a `struct curl_slist *` option; the list lives as long as the handle.
    func set(_ option: CURLoption, list strings: [String]) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for s in strings {
            guard let appended = curl_slist_append(list, s) else {
                if let list { curl_slist_free_all(list) }
                throw OptionError(option: option, code: CURLE_OUT_OF_MEMORY)
            }
            list = appended
        }
        guard let list else { return }
        lists.append(list)
        let code = triage_curl_setopt_pointer(handle, option, UnsafeMutableRawPointer(list))
        if code != CURLE_OK { throw OptionError(option: option, code: code) }
    }

    /// Verified TLS and the connect and overall time limits, in seconds: the same
    /// for every transfer triage makes, SMTP or webhook. The certificate is checked
    /// by triage's one policy (`CertificatePolicy`, shared with IMAP) through a
    /// `TLSGate`, not by libcurl, whose GnuTLS backend ignores the key usage.
    ///
    /// - Parameters:
    ///   - host: the name or address the certificate must be for.
    ///   - implicitTLS: TLS from the first byte (smtps://, https://), not STARTTLS.
    ///   - required: the request may go out only over a verified TLS connection.
    func setVerifiedTLS(_ trust: TLSTrust, host: String, implicitTLS: Bool, required: Bool,
                        connectTimeout: Double, timeout: Double) throws {
        let gate = TLSGate(policy: CertificatePolicy(caFile: trust.caFile, trustDirectory: trust.systemCAPath),
                           host: host, implicitTLS: implicitTLS, required: required)
        io.gate = gate
        // The gate decides; libcurl's own checks would be a second, different policy.
        try set(CURLOPT_SSL_VERIFYPEER, 0)
        try set(CURLOPT_SSL_VERIFYHOST, 0)
        let context = Unmanaged.passUnretained(io).toOpaque()
        var code = triage_curl_setopt_opensocket_callback(handle, CurlEasy.openSocket)
        if code == CURLE_OK { code = triage_curl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, context) }
        if code == CURLE_OK { code = triage_curl_setopt_closesocket_callback(handle, CurlEasy.closeSocket) }
        if code == CURLE_OK { code = triage_curl_setopt_pointer(handle, CURLOPT_CLOSESOCKETDATA, context) }
        if code == CURLE_OK { code = triage_curl_setopt_prereq_callback(handle, CurlEasy.prerequest) }
        if code == CURLE_OK { code = triage_curl_setopt_pointer(handle, CURLOPT_PREREQDATA, context) }
        if code != CURLE_OK { throw OptionError(option: CURLOPT_PREREQFUNCTION, code: code) }
        try set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
        try set(CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
    }

    /// Why the server's certificate was refused, when it was.
    var tlsRefusal: CertificateRefusal? { io.gate?.refusal }

    /// The host part of a URL (an IPv6 address without brackets), by libcurl's parser.
    static func host(ofURL url: String) -> String? {
        guard let parsed = curl_url() else { return nil }
        defer { curl_url_cleanup(parsed) }
        guard curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
        var part: UnsafeMutablePointer<CChar>?
        guard curl_url_get(parsed, CURLUPART_HOST, &part, 0) == CURLUE_OK, let part else { return nil }
        defer { curl_free(part) }
        var host = String(cString: part)
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// The bytes the read callback uploads.
    func setUpload(_ bytes: [UInt8]) throws {
        io.upload = bytes
        io.uploadOffset = 0
        try set(CURLOPT_UPLOAD, 1)
    }

    /// Receives the protocol conversation during `perform()`.
    func observe(_ observer: @escaping Observer) { io.observer = observer }

    /// Runs the transfer; returns libcurl's result and its error text.
    func perform() -> (code: CURLcode, error: String) {
        errorBuffer[0] = 0
        let code = curl_easy_perform(handle)
        let message = String(cString: errorBuffer)
        return (code, message.isEmpty ? String(cString: curl_easy_strerror(code)) : message)
    }

    /// What a failed HTTP transfer's `code` means in a user's words (webhooks and
    /// CalDAV say it the same way); `otherwise` for the codes not named here.
    static func httpFailure(_ code: CURLcode, timeout: String, otherwise: String) -> String {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST: return "cannot resolve the host"
        case CURLE_COULDNT_CONNECT: return "cannot connect"
        case CURLE_OPERATION_TIMEDOUT: return timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            return "TLS failed"
        default: return otherwise
        }
    }

    /// A `long` from curl_easy_getinfo, e.g. CURLINFO_RESPONSE_CODE.
    func info(_ what: CURLINFO) -> Int {
        var value = 0
        return triage_curl_getinfo_long(handle, what, &value) == CURLE_OK ? value : 0
    }

    /// State the C callbacks reach through their `void *` argument.
    private final class IOContext {
        var upload: [UInt8] = []
        var uploadOffset = 0
        var response: [UInt8] = []
        var observer: Observer?
        var gate: TLSGate?
        var responseLimit = 512
        var abortBeyondLimit = false
        var tooLarge = false
    }

    private static let read: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let io = Unmanaged<IOContext>.fromOpaque(context).takeUnretainedValue()
        let n = min(size * count, io.upload.count - io.uploadOffset)
        guard n > 0 else { return 0 }
        io.upload.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + io.uploadOffset, byteCount: n)
        }
        io.uploadOffset += n
        return n
    }

    private static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        buffer, size, count, context in
        let n = size * count
        guard let buffer, let context else { return n }
        let io = Unmanaged<IOContext>.fromOpaque(context).takeUnretainedValue()
        let keep = min(n, io.responseLimit - io.response.count)
        if keep < n, io.abortBeyondLimit {
            io.tooLarge = true
            return 0  // CURLE_WRITE_ERROR: a body beyond the bound is not read on
        }
        if keep > 0 {
            io.response += UnsafeRawBufferPointer(start: buffer, count: keep)
        }
        return n  // the rest is read and dropped: only a prefix is ever shown
    }

    private static let debug: @convention(c) (UnsafeMutableRawPointer?, curl_infotype, UnsafeMutablePointer<CChar>?, Int, UnsafeMutableRawPointer?) -> Int32 = {
        handle, type, data, size, context in
        guard let data, let context else { return 0 }
        let io = Unmanaged<IOContext>.fromOpaque(context).takeUnretainedValue()
        let bytes = UnsafeRawBufferPointer(start: data, count: size)
        if let gate = io.gate, let handle {
            gate.observe(handle, type: type) { String(decoding: bytes.prefix(16), as: UTF8.self) }
        }
        // Only text, headers and commands; never payload or TLS bytes.
        guard type == CURLINFO_TEXT || type == CURLINFO_HEADER_IN || type == CURLINFO_HEADER_OUT else { return 0 }
        guard let observer = io.observer else { return 0 }
        observer(type, String(decoding: bytes, as: UTF8.self))
        return 0
    }

    private static let openSocket: @convention(c) (UnsafeMutableRawPointer?, curlsocktype, UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t = {
        context, _, address in
        guard let context, let address else { return -1 }
        let io = Unmanaged<IOContext>.fromOpaque(context).takeUnretainedValue()
        guard let gate = io.gate else { return -1 }
        return gate.openSocket(family: address.pointee.family, type: address.pointee.socktype,
                               protocol: address.pointee.protocol)
    }

    private static let closeSocket: @convention(c) (UnsafeMutableRawPointer?, curl_socket_t) -> Int32 = {
        context, fd in
        guard let context, let gate = Unmanaged<IOContext>.fromOpaque(context).takeUnretainedValue().gate else {
            return close(fd)
        }
        return gate.closeSocket(fd)
    }

    /// Runs before the request (SMTP: MAIL FROM): only over a connection the gate passed.
    private static let prerequest: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int32, Int32) -> Int32 = {
        context, _, _, _, _ in
        guard let context, let gate = Unmanaged<IOContext>.fromOpaque(context).takeUnretainedValue().gate else {
            return Int32(CURL_PREREQFUNC_ABORT)
        }
        return Int32(gate.mayProceed ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT)
    }
}
