import CCurl
import CShims

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

    /// Verified TLS (certificate chain against `trust`, and the host name) and
    /// the connect and overall time limits, in seconds: the same for every
    /// transfer triage makes, SMTP or webhook.
    func setVerifiedTLS(_ trust: TLSTrust, connectTimeout: Double, timeout: Double) throws {
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        if let path = trust.systemCAPath, FileSystem.isDirectory(path) { try set(CURLOPT_CAPATH, path) }
        if let caFile = trust.caFile { try set(CURLOPT_CAINFO, caFile) }
        try set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
        try set(CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
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
    }

    private static let responseLimit = 512

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
        let keep = min(n, responseLimit - io.response.count)
        if keep > 0 {
            io.response += UnsafeRawBufferPointer(start: buffer, count: keep)
        }
        return n  // the rest is read and dropped: only a prefix is ever shown
    }

    private static let debug: @convention(c) (UnsafeMutableRawPointer?, curl_infotype, UnsafeMutablePointer<CChar>?, Int, UnsafeMutableRawPointer?) -> Int32 = {
        _, type, data, size, context in
        guard let data, let context else { return 0 }
        // Only text, headers and commands; never payload or TLS bytes.
        guard type == CURLINFO_TEXT || type == CURLINFO_HEADER_IN || type == CURLINFO_HEADER_OUT else { return 0 }
        let io = Unmanaged<IOContext>.fromOpaque(context).takeUnretainedValue()
        guard let observer = io.observer else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: data, count: size)
        observer(type, String(decoding: bytes, as: UTF8.self))
        return 0
    }
}
