import CEtPan
import Glibc
import TriageCore
import TriageMIME
import TriageTLS

/// The session: connecting, TLS (from the first byte or by STARTTLS), certificate
/// verification, login, capabilities, and logout.
extension IMAPConnection {
    /// Connects, secures, verifies and logs in. Throws `MailError`: 75 for network
    /// and TLS trouble, 77 when the server refuses the credential, 78 for settings
    /// that cannot work (plain IMAP to a remote host, unreadable `caFile`).
    public static func connect(_ settings: IMAPSettings) throws -> IMAPConnection {
        // libetpan writes plain sockets with send(..., 0) and Linux has no SO_NOSIGPIPE:
        // a server that drops the connection would kill the process with SIGPIPE
        // instead of giving an error (exit 75). Ignoring it is right for a CLI.
        signal(SIGPIPE, SIG_IGN)
        let connection = IMAPConnection(settings: settings)
        do {
            try connection.establish()
            // A server that lists its capabilities in LOGIN's answer (Dovecot, Cyrus)
            // is not asked again: one round trip less on every run.
            if try !connection.logIn() || !connection.readCapabilities() {
                try connection.refreshCapabilities()
            }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    public func close() {
        guard let session else { return }
        self.session = nil
        // After a lost connection or a timeout, LOGOUT would only wait again.
        if !streamBroken, Int(session.pointee.imap_state) != MAILIMAP_STATE_DISCONNECTED,
           let stream = session.pointee.imap_stream {
            mailstream_low_set_timeout(mailstream_get_low(stream), time_t(min(5, settings.commandTimeout)))
            _ = mailimap_logout(session)
        }
        if streamGuard != nil, let stream = session.pointee.imap_stream { StreamGuard.detach(from: stream) }
        if streamBroken, let stream = session.pointee.imap_stream {
            // Closing TLS sends close_notify and waits for the peer's: a server that
            // stopped answering would hold the run for another timeout.
            let fd = mailstream_low_get_fd(mailstream_get_low(stream))
            if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        }
        mailimap_free(session)
        tracer = nil
        streamGuard = nil
    }

    // MARK: - Connecting

    private func establish() throws {
        let url = settings.url
        if url.scheme == .imap, settings.tlsOff, !url.isLoopback {
            throw MailError(.configuration, server: serverName,
                            "tls = off is only allowed for a loopback host; use imaps:// or STARTTLS for \(url.host)")
        }
        guard let session = mailimap_new(0, nil) else {
            throw MailError(.protocol, server: serverName, "out of memory")
        }
        self.session = session
        mailimap_set_timeout(session, time_t(settings.connectTimeout))
        sniHost = strdup(url.host)
        // SNI only for names: RFC 6066 forbids IP literals in server_name.
        let sniData = isIPAddress(url.host) ? nil : UnsafeMutableRawPointer(sniHost)
        let setServerName: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { context, data in
            guard let context, let data else { return }
            _ = mailstream_ssl_set_server_name(context, data.assumingMemoryBound(to: CChar.self))
        }

        let started = ContinuousClock.now
        let result: Int32
        switch url.scheme {
        case .imaps:
            result = mailimap_ssl_connect_with_callback(session, url.host, url.port, setServerName, sniData)
        case .imap:
            result = try connectPlain(session)
        }
        guard isSuccess(result) else { throw connectFailure(result, started: started) }
        let tracer = settings.trace.map { IMAPTracer(sink: $0) }
        let streamGuard = StreamGuard(tracer: tracer, maxBytes: settings.maxAnswerBytes,
                                      deadline: .seconds(max(1, settings.commandTimeout) * Self.deadlineFactor))
        if let stream = session.pointee.imap_stream { streamGuard.attach(to: stream) }
        tracer?.note("connected to \(serverName)\(url.scheme == .imaps ? " with TLS" : "")")
        self.tracer = tracer
        self.streamGuard = streamGuard

        if url.scheme == .imap {
            try refreshCapabilities()
            if settings.tlsOff {
                tracer?.note("tls = off: plain connection to loopback host \(url.host)")
                setTimeout(settings.commandTimeout)
                return
            }
            guard capabilities.contains("STARTTLS") else {
                throw MailError(.tls, server: serverName,
                                "the server does not offer STARTTLS; use imaps:// (triage never logs in without TLS)")
            }
            try startTLS(setServerName: setServerName, sniData: sniData)
        }
        isEncrypted = true
        try verifyCertificate()
        setTimeout(settings.commandTimeout)
    }

    /// How long `imap://` waits for the greeting before asking whether the port
    /// speaks TLS from the first byte; servers greet at once.
    public static let greetingGrace = 3.0

    /// `imap://`: the TCP connection, then the greeting. A port that stays silent for
    /// `greetingGrace` is asked whether it speaks TLS from the first byte: an IMAPS
    /// port given as imap:// would otherwise look like a slow server until the
    /// connect timeout (30 s by default), with nothing to say what is wrong.
    private func connectPlain(_ session: UnsafeMutablePointer<mailimap>) throws -> Int32 {
        let url = settings.url
        let limit = Double(max(1, settings.connectTimeout))
        let fd: Int32
        do throws(PortProbe.Failure) {
            fd = try PortProbe.connect(host: url.host, port: url.port, timeout: limit)
        } catch {
            streamBroken = true
            throw connectError(error)
        }
        let grace = min(limit, Self.greetingGrace)
        if !PortProbe.readable(fd, within: grace), PortProbe.speaksTLS(host: url.host, port: url.port, timeout: grace) {
            Glibc.close(fd)
            streamBroken = true
            throw MailError(.configuration, server: serverName,
                            "port \(url.port) expects TLS from the first byte (IMAPS) and sends no greeting in plain text; "
                            + "use imaps://\(url.host):\(url.port) (imap:// is for STARTTLS)")
        }
        guard let stream = mailstream_socket_open_timeout(fd, time_t(settings.connectTimeout)) else {
            Glibc.close(fd)
            throw MailError(.protocol, server: serverName, "out of memory")
        }
        return mailimap_connect(session, stream)
    }

    /// libetpan gives a stream the session's timeout when it makes it; later
    /// changes must go to the stream itself (it is a per-read inactivity limit).
    private func setTimeout(_ seconds: Int) {
        guard let session else { return }
        mailimap_set_timeout(session, time_t(seconds))
        if let stream = session.pointee.imap_stream {
            mailstream_low_set_timeout(mailstream_get_low(stream), time_t(seconds))
        }
    }

    /// STARTTLS done by hand to refuse bytes the server sent before the handshake
    /// (CVE-2020-15953: libetpan 1.9.4 would read them as if they came over TLS).
    private func startTLS(setServerName: @escaping @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void,
                          sniData: UnsafeMutableRawPointer?) throws {
        guard let stream = session?.pointee.imap_stream else {
            throw MailError(.connect, server: serverName, "the connection closed")
        }
        try perform("STARTTLS", failure: { self.startTLSFailure($0, stream: stream) }) { mailimap_starttls($0) }
        // Debian's libetpan 1.9.4-3 already fails STARTTLS when bytes follow the
        // answer (`startTLSFailure` looks first); builds without that patch do not.
        guard stream.pointee.read_buffer_len == 0 else {
            throw injectionError(stream.pointee.read_buffer_len)
        }
        let low = mailstream_get_low(stream)
        let fd = mailstream_low_get_fd(low)
        guard fd >= 0, let secured = mailstream_low_tls_open_with_callback_timeout(
            fd, time_t(settings.connectTimeout), setServerName, sniData) else {
            throw MailError(.tls, server: serverName, "the TLS handshake after STARTTLS failed")
        }
        // Frees the plain driver without closing the socket the TLS driver now owns.
        mailstream_low_free(low)
        mailstream_set_low(stream, secured)
        tracer?.note("STARTTLS handshake done")
    }

    private func verifyCertificate() throws {
        guard let stream = session?.pointee.imap_stream else {
            throw MailError(.tls, server: serverName, "no certificate chain after the TLS handshake")
        }
        let anchors = try StreamCertificate.verify(stream, caFile: settings.caFile, host: settings.url.host, server: serverName)
        // Which anchors verified it: with ca_file alone the system store was not read.
        tracer?.note("certificate verified for \(settings.url.host) against "
            + (anchors == .caFile ? "ca_file alone" : settings.caFile == nil ? "the system trust store" : "the system trust store and ca_file"))
    }

    // MARK: - Logging in

    /// Logs in; returns false when there was nothing to do (PREAUTH). The capabilities
    /// said before are forgotten, so `readCapabilities` finds only those LOGIN's answer
    /// carried (the list changes with the login).
    private func logIn() throws -> Bool {
        guard let session else { return false }
        if Int(session.pointee.imap_state) == MAILIMAP_STATE_AUTHENTICATED { return false } // PREAUTH
        if let info = session.pointee.imap_connection_info, let old = info.pointee.imap_capability {
            info.pointee.imap_capability = nil
            mailimap_capability_data_free(old)
        }
        let credential = settings.credential
        // One checkpoint name for both ways in: the crash tests count steps, not methods.
        try perform("LOGIN", failure: loginFailure) { session in
            switch credential.method {
            case .password(let password):
                tracer?.privateDescription = "LOGIN \(credential.user) ***"
                return mailimap_login(session, credential.user, password)
            case .oauth2(let token):
                tracer?.privateDescription = "AUTHENTICATE XOAUTH2 ***"
                return mailimap_oauth2_authenticate(session, credential.user, token)
            }
        }
        return true
    }

    private func refreshCapabilities() throws {
        var data: UnsafeMutablePointer<mailimap_capability_data>?
        try perform("CAPABILITY") { mailimap_capability($0, &data) }
        mailimap_capability_data_free(data)
        _ = readCapabilities()
    }

    /// Takes `capabilities` from the last list the server sent (a CAPABILITY answer or
    /// a `[CAPABILITY ...]` response code); false when it has sent none.
    private func readCapabilities() -> Bool {
        guard let list = session?.pointee.imap_connection_info?.pointee.imap_capability?.pointee.cap_list else { return false }
        var names: Set<String> = []
        for capability in CList.items(list, as: mailimap_capability.self) {
            switch Int(capability.pointee.cap_type) {
            case MAILIMAP_CAPABILITY_AUTH_TYPE:
                if let name = CString.string(capability.pointee.cap_data.cap_auth_type) { names.insert("AUTH=" + name.uppercased()) }
            case MAILIMAP_CAPABILITY_NAME:
                if let name = CString.string(capability.pointee.cap_data.cap_name) { names.insert(name.uppercased()) }
            default:
                break
            }
        }
        capabilities = names
        return true
    }

    private func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
