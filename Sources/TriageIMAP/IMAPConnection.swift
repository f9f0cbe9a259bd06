import CEtPan
import Glibc
import TriageCore
import TriageTLS

/// An IMAP session with libetpan: verified TLS, login, and the few commands
/// `triage run` needs, each batch in one command.
///
/// `imaps://` is TLS from the first byte; `imap://` must upgrade with STARTTLS
/// (plain only with `tlsOff` and a loopback host). The certificate chain and host
/// name are verified (`CertificatePolicy`, shared with SMTP) before the credential is sent.
/// Not thread-safe: use one connection from one thread at a time.
public final class IMAPConnection: MailConnection {
    public let serverName: String
    /// Capabilities after login, upper-cased (`MOVE`, `UIDPLUS`, `X-GM-EXT-1`, ...).
    public private(set) var capabilities: Set<String> = []
    /// Whether the connection is encrypted (false only with `tlsOff`).
    public private(set) var isEncrypted = false

    private let settings: IMAPSettings
    private var session: UnsafeMutablePointer<mailimap>?
    private var tracer: IMAPTracer?
    /// Limits each answer's size and duration; also feeds the tracer.
    private var streamGuard: StreamGuard?
    /// The host name for SNI, alive as long as the session (the TLS callback reads it).
    private var sniHost: UnsafeMutablePointer<CChar>?
    private var selectedReadOnly = false
    /// The mailbox open now and its UIDVALIDITY, to come back to after a look elsewhere.
    private var selected: (name: String, uidValidity: UInt32)?
    /// The personal namespace, asked for the first time a folder other than INBOX is named.
    private var namespace: FolderNamespace?
    /// The open mailbox's UIDNEXT (from SELECT or STATUS), 0 when unknown.
    private var selectedUIDNext: UInt32 = 0
    /// What the server did that the user should hear of, for the caller to report.
    private var notices: [String] = []

    /// Takes the notices gathered since the last call (`UID SEARCH` contradicted by
    /// the mailbox, so UIDs were found by `UID FETCH`).
    public func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }
    /// Set when the stream failed (timeout, reset): nothing more is sent.
    private var streamBroken = false

    /// Whether the server moves atomically (RFC 6851).
    public var hasMove: Bool { capabilities.contains("MOVE") }
    /// Whether the server can expunge given UIDs only (RFC 4315).
    public var hasUIDPlus: Bool { capabilities.contains("UIDPLUS") }
    /// Whether the server is Gmail (labels through X-GM-LABELS).
    public var isGmail: Bool { capabilities.contains("X-GM-EXT-1") }

    private init(settings: IMAPSettings) {
        self.settings = settings
        self.serverName = settings.url.serverName
    }

    deinit {
        close()
        free(sniHost)
    }

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
            try connection.logIn()
            try connection.refreshCapabilities()
        } catch {
            connection.close()
            throw error
        }
        return connection
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

    /// What a failed TCP connection means for the user: a name that does not
    /// resolve, a port where nothing listens, or no answer at all.
    private func connectError(_ failure: PortProbe.Failure) -> MailError {
        let url = settings.url
        switch failure {
        case .unresolved(let reason):
            return MailError(.connect, server: serverName,
                             "cannot resolve the host name \(url.host) (\(reason)); check the host in the url and the network")
        case .unreachable(let reason):
            return MailError(.connect, server: serverName,
                             "nothing accepts connections on port \(url.port) (\(reason)); check the port in the url "
                             + "(usually 993 for imaps://, 143 for imap://) and that the server is running")
        case .timedOut:
            return MailError(.timeout, server: serverName,
                             "no connection within \(settings.connectTimeout) s; check the network and the port")
        }
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
        guard let session, let stream = session.pointee.imap_stream else {
            throw MailError(.connect, server: serverName, "the connection closed")
        }
        let started = ContinuousClock.now
        let result = mailimap_starttls(session)
        step("STARTTLS")
        // Debian's libetpan 1.9.4-3 already fails STARTTLS when bytes follow the
        // answer; builds without that patch do not, so check the buffer either way.
        guard stream.pointee.read_buffer_len == 0 else {
            throw injectionError(stream.pointee.read_buffer_len)
        }
        guard isSuccess(result) else {
            if result == Int32(MAILIMAP_ERROR_STARTTLS) {
                throw MailError(.tls, server: serverName, "the server refused STARTTLS (\(responseText())); use imaps://")
            }
            throw commandFailure(result, "STARTTLS", started: started)
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

    private func injectionError(_ count: Int) -> MailError {
        MailError(.tls, server: serverName,
                  "the server sent \(count) bytes after its STARTTLS answer, before the TLS handshake; refusing "
                  + "them (CVE-2020-15953). Something between you and the server may be tampering with the connection")
    }

    private func verifyCertificate() throws {
        guard let stream = session?.pointee.imap_stream,
              let chain = mailstream_low_get_certificate_chain(mailstream_get_low(stream)) else {
            throw MailError(.tls, server: serverName, "no certificate chain after the TLS handshake")
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
            try CertificatePolicy(caFile: settings.caFile).check(chain: certificates, host: settings.url.host)
        } catch {
            throw MailError(error.kind == .configuration ? .configuration : .tls, server: serverName, error.reason)
        }
        tracer?.note("certificate verified for \(settings.url.host)")
    }

    private func logIn() throws {
        guard let session else { return }
        if Int(session.pointee.imap_state) == MAILIMAP_STATE_AUTHENTICATED { return } // PREAUTH
        let credential = settings.credential
        let started = ContinuousClock.now
        let result: Int32
        switch credential.method {
        case .password(let password):
            tracer?.privateDescription = "LOGIN \(credential.user) ***"
            result = mailimap_login(session, credential.user, password)
        case .oauth2(let token):
            tracer?.privateDescription = "AUTHENTICATE XOAUTH2 ***"
            result = mailimap_oauth2_authenticate(session, credential.user, token)
        }
        step("LOGIN")
        guard isSuccess(result) else {
            if result == Int32(MAILIMAP_ERROR_LOGIN) || result == Int32(MAILIMAP_ERROR_SASL) {
                let text = responseText()
                // Dovecot says "Temporary authentication failure" when its backend is down.
                if text.lowercased().contains("temporar") || text.uppercased().contains("UNAVAILABLE") {
                    throw MailError(.protocol, server: serverName, "login failed for a temporary reason: \(text)")
                }
                throw MailError(.authentication, server: serverName,
                                "the server refused the login for \(credential.user)\(text.isEmpty ? "" : " (\(text))"); "
                                + "check the user and the password or token command")
            }
            throw commandFailure(result, "LOGIN", started: started)
        }
    }

    private func refreshCapabilities() throws {
        guard let session else { return }
        let started = ContinuousClock.now
        var data: UnsafeMutablePointer<mailimap_capability_data>?
        let result = mailimap_capability(session, &data)
        step("CAPABILITY")
        guard isSuccess(result) else { throw commandFailure(result, "CAPABILITY", started: started) }
        mailimap_capability_data_free(data)
        var names: Set<String> = []
        let list = session.pointee.imap_connection_info?.pointee.imap_capability?.pointee.cap_list
        for capability in CList.elements(list, as: mailimap_capability.self) {
            switch Int(capability.pointee.cap_type) {
            case MAILIMAP_CAPABILITY_AUTH_TYPE:
                if let name = swiftString(capability.pointee.cap_data.cap_auth_type) { names.insert("AUTH=" + name.uppercased()) }
            case MAILIMAP_CAPABILITY_NAME:
                if let name = swiftString(capability.pointee.cap_data.cap_name) { names.insert(name.uppercased()) }
            default:
                break
            }
        }
        capabilities = names
    }

    // MARK: - MailConnection

    public func open(_ mailbox: String, readOnly: Bool) throws -> MailboxStatus {
        let session = try liveSession()
        let name = ModifiedUTF7.encode(try serverFolder(mailbox))
        var modSeq: UInt64 = 0
        let condstore = capabilities.contains("CONDSTORE")
        let started = ContinuousClock.now
        let result: Int32
        switch (readOnly, condstore) {
        case (false, false): result = mailimap_select(session, name)
        case (true, false): result = mailimap_examine(session, name)
        case (false, true): result = mailimap_select_condstore(session, name, &modSeq)
        case (true, true): result = mailimap_examine_condstore(session, name, &modSeq)
        }
        step(readOnly ? "EXAMINE" : "SELECT")
        guard isSuccess(result) else {
            let failure = commandFailure(result, readOnly ? "EXAMINE \(mailbox)" : "SELECT \(mailbox)", started: started)
            if failure.kind == .protocol, (try? folderExists(name)) == false {
                throw MailError(.missingFolder, server: serverName,
                                "mailbox \(mailbox) does not exist; check `mailboxes =` for this account")
            }
            throw failure
        }
        guard let info = session.pointee.imap_selection_info?.pointee else {
            throw MailError(.protocol, server: serverName, "no mailbox information after selecting \(mailbox)")
        }
        selectedReadOnly = readOnly || Int(info.sel_perm) == MAILIMAP_MAILBOX_READONLY
        selected = (mailbox, info.sel_uidvalidity)
        // EXAMINE answers PERMANENTFLAGS () for any server; Gmail labels are no keywords.
        // (Read before any other command: the list belongs to the session's selection.)
        let keywords = !selectedReadOnly && !isGmail ? allowedKeywords(info.sel_perm_flags) : nil
        // Courier's SELECT has no UIDNEXT: without it a first run would remember UID 0
        // and the next run take the whole mailbox for new mail. STATUS says it.
        let uidNext = info.sel_uidnext > 0 ? info.sel_uidnext : try statusUIDNext(name)
        selectedUIDNext = uidNext
        var status = MailboxStatus(name: mailbox, uidValidity: info.sel_uidvalidity, uidNext: uidNext,
                                   exists: info.sel_exists, highestModSeq: condstore && modSeq > 0 ? modSeq : nil,
                                   readOnly: selectedReadOnly)
        status.allowedKeywords = keywords
        return status
    }

    /// The keywords PERMANENTFLAGS allows, or nil when it allows new ones (`\*`) or
    /// was not sent (RFC 3501: then every flag is permanent).
    private func allowedKeywords(_ list: UnsafeMutablePointer<clist>?) -> Set<String>? {
        guard let list else { return nil }
        var keywords: Set<String> = []
        for permission in CList.elements(list, as: mailimap_flag_perm.self) {
            switch Int(permission.pointee.fl_type) {
            case MAILIMAP_FLAG_PERM_ALL:
                return nil
            case MAILIMAP_FLAG_PERM_FLAG:
                if let flag = permission.pointee.fl_flag, Int(flag.pointee.fl_type) == MAILIMAP_FLAG_KEYWORD,
                   let name = swiftString(flag.pointee.fl_data.fl_keyword) {
                    keywords.insert(name)
                }
            default:
                break
            }
        }
        return keywords
    }

    public func uids(above uid: UInt32) throws -> [UInt32] {
        guard uid < UInt32.max else { return [] }
        let session = try liveSession()
        // UID n:* always matches the highest UID, even when it is below n: filter.
        let key = mailimap_search_key_new_uid(mailimap_set_new_interval(uid + 1, 0))
        defer { mailimap_search_key_free(key) }
        var list: UnsafeMutablePointer<clist>?
        let started = ContinuousClock.now
        let result = mailimap_uid_search(session, nil, key, &list)
        step("UID SEARCH")
        guard isSuccess(result) else { throw commandFailure(result, "UID SEARCH", started: started) }
        defer { mailimap_search_result_free(list) }
        let found = CList.elements(list, as: UInt32.self).map(\.pointee).filter { $0 > uid }.sorted()
        // GNU Mailutils answers `UID SEARCH UID 1:*` with nothing while EXISTS says
        // 200: an answer that contradicts the mailbox (fewer than EXISTS from the start,
        // or none though UIDNEXT says there is more) is checked by `UID FETCH n:* (UID)`.
        let exists = Int(session.pointee.imap_selection_info?.pointee.sel_exists ?? 0)
        let short = uid == 0 ? found.count < exists : found.isEmpty && exists > 0 && (selectedUIDNext == 0 || selectedUIDNext - 1 > uid)
        guard short else { return found }
        let fetched = try fetchUIDs(above: uid)
        guard fetched.count > found.count else { return found }
        notices.append("the server's UID SEARCH found \(found.count) of the messages above UID \(uid) but UID FETCH found "
                       + "\(fetched.count) (\(exists) in the mailbox); going by UID FETCH (a server bug, seen in GNU Mailutils imap4d)")
        return fetched
    }

    /// The UIDs above `uid` by `UID FETCH uid+1:* (UID)` (the highest message always
    /// answers `*`, even below `uid`: filtered).
    private func fetchUIDs(above uid: UInt32) throws -> [UInt32] {
        let session = try liveSession()
        let type = mailimap_fetch_type_new_fetch_att_list_empty()
        defer { mailimap_fetch_type_free(type) }
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_uid())
        let set = mailimap_set_new_interval(uid + 1, 0)
        defer { mailimap_set_free(set) }
        var list: UnsafeMutablePointer<clist>?
        let started = ContinuousClock.now
        let result = mailimap_uid_fetch(session, set, type, &list)
        step("UID FETCH")
        guard isSuccess(result) else { throw commandFailure(result, "UID FETCH (UID)", started: started) }
        defer { mailimap_fetch_list_free(list) }
        return Set(FetchResponseReader.messages(list, gmail: false).map(\.uid).filter { $0 > uid }).sorted()
    }

    public func fetch(_ uids: [UInt32]) throws -> [FetchedMessage] {
        try fetch(uids, parts: .all)
    }

    public func fetch(_ uids: [UInt32], parts: MessageParts) throws -> [FetchedMessage] {
        guard !uids.isEmpty else { return [] }
        let session = try liveSession()
        // One command, all with PEEK so nothing becomes \Seen:
        // UID FLAGS RFC822.SIZE INTERNALDATE [BODYSTRUCTURE] BODY.PEEK[HEADER] [BODY.PEEK[TEXT]<0.N>]
        // The full header (never cut) plus a body prefix: a size limit on BODY[] could cut a long header.
        // The text prefix is most of the cost (on a 10,000-message INBOX it doubles the
        // server's work and sends 7 times the bytes): only when asked for.
        let type = mailimap_fetch_type_new_fetch_att_list_empty()
        defer { mailimap_fetch_type_free(type) }
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_uid())
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_flags())
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_rfc822_size())
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_internaldate())
        if parts.contains(.structure) {
            mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_bodystructure())
        }
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_body_peek_section(mailimap_section_new_header()))
        if parts.contains(.text) {
            mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_body_peek_section_partial(
                mailimap_section_new_text(), 0, UInt32(max(0, settings.bodyPrefixBytes))))
        }
        if isGmail {
            mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_xgmlabels())
        }
        let set = IMAPSet.make(uids)
        defer { mailimap_set_free(set) }
        var list: UnsafeMutablePointer<clist>?
        let started = ContinuousClock.now
        // A batch's answer is rightly bigger than any other: allow for its body prefixes.
        streamGuard?.expect(extra: uids.count * (settings.bodyPrefixBytes + 64 * 1024))
        defer { streamGuard?.expect(extra: 0) }
        let result = mailimap_uid_fetch(session, set, type, &list)
        step("UID FETCH")
        guard isSuccess(result) else { throw commandFailure(result, "UID FETCH", started: started) }
        defer { mailimap_fetch_list_free(list) }
        let wanted = Set(uids)
        // A server may add unsolicited FETCH answers (a flag change by another client,
        // with or without UID): keep one answer per UID asked for, the full one.
        var byUID: [UInt32: FetchedMessage] = [:]
        for message in FetchResponseReader.messages(list, gmail: isGmail) where wanted.contains(message.uid) {
            if let seen = byUID[message.uid], !seen.header.isEmpty, message.header.isEmpty { continue }
            byUID[message.uid] = message
        }
        return byUID.keys.sorted().compactMap { byUID[$0] }
    }

    public func store(_ change: FlagChange, uids: [UInt32]) throws {
        guard !uids.isEmpty, !change.isEmpty else { return }
        let session = try liveSession()
        try requireWritable("STORE")
        let sign: Int32 = change.operation == .add ? 1 : -1
        var keywords: [String] = []
        var gmailLabels: [String] = []
        for label in change.labels.sorted() {
            if isGmail {
                gmailLabels.append(ModifiedUTF7.encode(label))
            } else if let keyword = LabelCodec.keyword(for: label) {
                keywords.append(keyword)
            }
        }
        let flags = change.flags.sorted()
        if !flags.isEmpty || !keywords.isEmpty {
            guard let list = mailimap_flag_list_new_empty() else { throw MailError(.protocol, server: serverName, "out of memory") }
            for flag in flags { mailimap_flag_list_add(list, try systemFlag(flag)) }
            for keyword in keywords { mailimap_flag_list_add(list, mailimap_flag_new_flag_keyword(strdup(keyword))) }
            let attribute = sign > 0 ? mailimap_store_att_flags_new_add_flags_silent(list)
                                     : mailimap_store_att_flags_new_remove_flags_silent(list)
            defer { mailimap_store_att_flags_free(attribute) }
            let set = IMAPSet.make(uids)
            defer { mailimap_set_free(set) }
            let started = ContinuousClock.now
            let result = mailimap_uid_store(session, set, attribute)
            step("UID STORE")
            guard isSuccess(result) else { throw storeFailure(result, "UID STORE", started: started) }
        }
        if !gmailLabels.isEmpty {
            let labels = mailimap_msg_att_xgmlabels_new_empty()
            defer { mailimap_msg_att_xgmlabels_free(labels) }
            for label in gmailLabels { mailimap_msg_att_xgmlabels_add(labels, strdup(label)) }
            let set = IMAPSet.make(uids)
            defer { mailimap_set_free(set) }
            let started = ContinuousClock.now
            let result = mailimap_uid_store_xgmlabels(session, set, sign, 1, labels)
            step("UID STORE X-GM-LABELS")
            guard isSuccess(result) else { throw storeFailure(result, "UID STORE X-GM-LABELS", started: started) }
        }
    }

    @discardableResult
    public func move(_ uids: [UInt32], to folder: String) throws -> MoveMethod {
        try move(uids, to: folder, recorder: nil)
    }

    /// With MOVE one command. Without it (UIDPLUS needed): the target's UIDNEXT
    /// (`STATUS`) goes to `recorder` before `UID COPY`, the COPYUID pairs right after
    /// its answer, and only then `UID STORE +FLAGS (\Deleted)` and `UID EXPUNGE` of
    /// exactly these UIDs: whatever step a run dies after, the journal proves what
    /// was copied (see `CopyEvidence`).
    @discardableResult
    public func move(_ uids: [UInt32], to folder: String, recorder: MoveRecorder?) throws -> MoveMethod {
        guard !uids.isEmpty else { return hasMove ? .move : .copyAndExpunge }
        let session = try liveSession()
        try requireWritable("MOVE")
        let name = ModifiedUTF7.encode(try serverFolder(folder))
        let set = IMAPSet.make(uids)
        defer { mailimap_set_free(set) }
        if hasMove {
            let started = ContinuousClock.now
            let result = mailimap_uid_move(session, set, name)
            step("UID MOVE")
            guard isSuccess(result) else { throw moveFailure(result, "UID MOVE", folder: folder, wire: name, started: started) }
            return .move
        }
        guard hasUIDPlus else {
            // Without UIDPLUS the only way to remove the originals is a bare EXPUNGE,
            // which would also remove messages someone else marked \Deleted.
            throw MailError(.configuration, server: serverName,
                            "the server has neither MOVE nor UIDPLUS, so triage cannot move messages safely; "
                            + "remove the move actions for this account")
        }
        if let recorder {
            let target = try targetStatus(folder, wire: name)
            try recorder.willCopy(uids, to: folder, targetUIDValidity: target.uidValidity, targetUIDNext: target.uidNext)
        }
        var started = ContinuousClock.now
        var copyValidity: UInt32 = 0
        var sources: UnsafeMutablePointer<mailimap_set>?
        var copies: UnsafeMutablePointer<mailimap_set>?
        var result = mailimap_uidplus_uid_copy(session, set, name, &copyValidity, &sources, &copies)
        defer {
            if let sources { mailimap_set_free(sources) }
            if let copies { mailimap_set_free(copies) }
        }
        step("UID COPY")
        guard isSuccess(result) else { throw moveFailure(result, "UID COPY", folder: folder, wire: name, started: started) }
        if let recorder, copyValidity != 0 {
            try recorder.didCopy(Self.copyPairs(sources, copies, asked: uids), to: folder, targetUIDValidity: copyValidity)
        }
        try store(FlagChange(.add, flags: ["\\Deleted"]), uids: uids)
        started = ContinuousClock.now
        result = mailimap_uid_expunge(session, set)
        step("UID EXPUNGE")
        guard isSuccess(result) else { throw commandFailure(result, "UID EXPUNGE", started: started) }
        return .copyAndExpunge
    }

    /// Without MOVE: the originals whose copy the journal proves (`CopyEvidence`:
    /// the COPYUID of the interrupted COPY, or a copy above the UIDNEXT recorded
    /// before it that is the same message) are only marked `\Deleted` and expunged
    /// here; the others are copied (again) and moved as usual. A Message-ID alone
    /// proves nothing: another message with the same one may be in the folder.
    @discardableResult
    public func resumeMove(_ uids: [UInt32], to folder: String, attempts: [CopyAttempt], recorder: MoveRecorder?) throws -> MoveMethod {
        guard !hasMove, hasUIDPlus, !uids.isEmpty, let source = selected else { return try move(uids, to: folder, recorder: recorder) }
        try requireWritable("MOVE")
        // The originals as they are now (an expunged one is simply absent).
        let originals = try fetch(uids, parts: [])
        let copied = try journaledCopies(of: originals, in: folder, attempts: attempts, returningTo: source)
        let rest = originals.filter { copied[$0.uid] == nil }
        // A \Deleted mark (most likely the interrupted run's) would pass on to the new
        // copy: the moved message arrives unmarked, never marked for removal.
        let marked = rest.filter { $0.flags.contains("\\Deleted") }.map(\.uid)
        if !marked.isEmpty { try store(FlagChange(.remove, flags: ["\\Deleted"]), uids: marked) }
        if !rest.isEmpty { try move(rest.map(\.uid), to: folder, recorder: recorder) }
        if !copied.isEmpty {
            let done = copied.keys.sorted()
            tracer?.note("UID \(UIDRanges.sequenceSet(done)) already in \(folder) (an interrupted move; copies "
                         + "\(UIDRanges.sequenceSet(done.compactMap { copied[$0] })) proven by the journal): expunging only")
            try store(FlagChange(.add, flags: ["\\Deleted"]), uids: done)
            let session = try liveSession()
            let set = IMAPSet.make(done)
            defer { mailimap_set_free(set) }
            let started = ContinuousClock.now
            let result = mailimap_uid_expunge(session, set)
            step("UID EXPUNGE")
            guard isSuccess(result) else { throw commandFailure(result, "UID EXPUNGE", started: started) }
        }
        return .copyAndExpunge
    }

    /// Original UID -> its copy in `folder`, for the originals whose copy the
    /// journal's `attempts` prove; `source` is opened again afterwards.
    private func journaledCopies(of originals: [FetchedMessage], in folder: String, attempts: [CopyAttempt],
                                 returningTo source: (name: String, uidValidity: UInt32)) throws -> [UInt32: UInt32] {
        let present = Set(originals.map(\.uid))
        // Without a journaled COPY of them (an older journal, or killed before the COPY) nothing can be proven.
        let begun = attempts.filter { $0.folder == folder && !present.isDisjoint(with: $0.uids) }
        guard !begun.isEmpty else { return [:] }
        var copied: [UInt32: UInt32] = [:]
        do {
            let target = try open(folder, readOnly: true)
            let evidence = CopyEvidence(uids: originals.map(\.uid), folder: folder, attempts: begun,
                                        targetUIDValidity: target.uidValidity)
            if !evidence.isEmpty {
                copied = evidence.copies(of: originals, in: try copyCandidates(evidence, originals: originals))
            }
        } catch let error as MailError where error.kind == .missingFolder {
            // A failed EXAMINE leaves no mailbox selected: come back before reporting it.
            try reselect(source)
            throw MailError(.missingFolder, server: serverName,
                            "folder \(folder) does not exist, so the messages stay where they are; create the folder or fix the rule")
        }
        try reselect(source)
        return copied
    }

    /// Opens `mailbox` read-write again, refusing if the server renumbered it meanwhile.
    private func reselect(_ mailbox: (name: String, uidValidity: UInt32)) throws {
        let status = try open(mailbox.name, readOnly: false)
        guard status.uidValidity == mailbox.uidValidity else {
            throw MailError(.protocol, server: serverName,
                            "\(mailbox.name) was renumbered (UIDVALIDITY \(mailbox.uidValidity) -> \(status.uidValidity)) during the run; run again")
        }
    }

    /// `STATUS folder (UIDVALIDITY UIDNEXT)`: where the copies of a COPY will land.
    /// A UIDNEXT the server leaves out is 0 (no mark: only COPYUID can prove then).
    private func targetStatus(_ folder: String, wire: String) throws -> (uidValidity: UInt32, uidNext: UInt32) {
        let session = try liveSession()
        guard let attributes = mailimap_status_att_list_new_empty() else { throw MailError(.protocol, server: serverName, "out of memory") }
        defer { mailimap_status_att_list_free(attributes) }
        mailimap_status_att_list_add(attributes, Int32(MAILIMAP_STATUS_ATT_UIDVALIDITY))
        mailimap_status_att_list_add(attributes, Int32(MAILIMAP_STATUS_ATT_UIDNEXT))
        var data: UnsafeMutablePointer<mailimap_mailbox_data_status>?
        let started = ContinuousClock.now
        let result = mailimap_status(session, wire, attributes, &data)
        step("STATUS")
        guard isSuccess(result) else { throw moveFailure(result, "STATUS", folder: folder, wire: wire, started: started) }
        defer { if let data { mailimap_mailbox_data_status_free(data) } }
        var uidValidity: UInt32 = 0, uidNext: UInt32 = 0
        for info in CList.elements(data?.pointee.st_info_list, as: mailimap_status_info.self) {
            switch Int(info.pointee.st_att) {
            case MAILIMAP_STATUS_ATT_UIDVALIDITY: uidValidity = info.pointee.st_value
            case MAILIMAP_STATUS_ATT_UIDNEXT: uidNext = info.pointee.st_value
            default: break
            }
        }
        // Without the folder's UIDVALIDITY a UIDNEXT means nothing later.
        return (uidValidity, uidValidity == 0 ? 0 : uidNext)
    }

    /// The COPYUID answer as pairs; none unless it names exactly as many sources as
    /// copies, every source one of `asked` (anything else proves nothing).
    static func copyPairs(_ sources: UnsafeMutablePointer<mailimap_set>?, _ copies: UnsafeMutablePointer<mailimap_set>?,
                          asked: [UInt32]) -> [CopyAttempt.Copy] {
        let limit = asked.count
        guard let from = uidList(sources, limit: limit), let to = uidList(copies, limit: limit),
              from.count == to.count, Set(from).isSubset(of: Set(asked)) else { return [] }
        return zip(from, to).map { CopyAttempt.Copy(uid: $0, copy: $1) }
    }

    /// The UIDs of a set in the server's order (a range ascending), or nil when it
    /// holds more than `limit`, a `*`, or nothing.
    private static func uidList(_ set: UnsafeMutablePointer<mailimap_set>?, limit: Int) -> [UInt32]? {
        guard let set else { return nil }
        var uids: [UInt32] = []
        for item in CList.elements(set.pointee.set_list, as: mailimap_set_item.self) {
            let first = item.pointee.set_first, last = item.pointee.set_last
            guard first != 0, last != 0 else { return nil }
            let low = min(first, last), high = max(first, last)
            guard Int(high - low) < limit - uids.count else { return nil }
            uids += Array(low...high)
        }
        return uids.isEmpty ? nil : uids
    }

    /// The open (target) mailbox's messages the evidence asks about: the COPYUID
    /// copies (whether they exist) and everything from the UIDNEXT mark on (size and
    /// INTERNALDATE first; the header only of those that could be a copy).
    private func copyCandidates(_ evidence: CopyEvidence, originals: [FetchedMessage]) throws -> [FetchedMessage] {
        let session = try liveSession()
        let set = IMAPSet.make(evidence.provenCopies)
        defer { mailimap_set_free(set) }
        if let floor = evidence.searchFloor { mailimap_set_add_interval(set, floor, 0) }
        let type = mailimap_fetch_type_new_fetch_att_list_empty()
        defer { mailimap_fetch_type_free(type) }
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_uid())
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_rfc822_size())
        mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_internaldate())
        var list: UnsafeMutablePointer<clist>?
        let started = ContinuousClock.now
        let result = mailimap_uid_fetch(session, set, type, &list)
        step("UID FETCH")
        guard isSuccess(result) else { throw commandFailure(result, "UID FETCH", started: started) }
        defer { mailimap_fetch_list_free(list) }
        let found = FetchResponseReader.messages(list, gmail: false)
        // Only a message with an original's size and arrival time can be its copy.
        struct Shape: Hashable { var size: Int, arrived: Int64 }
        let shapes = Set(originals.compactMap { original in original.internalDate.map { Shape(size: original.size, arrived: $0) } })
        let proven = Set(evidence.provenCopies)
        let alike = found.filter { candidate in
            guard !proven.contains(candidate.uid), let arrived = candidate.internalDate else { return false }
            return shapes.contains(Shape(size: candidate.size, arrived: arrived))
        }
        // UID n:* also answers the highest UID when it is below n: the evidence checks.
        let headers = try fetch(alike.map(\.uid), parts: [])
        var byUID: [UInt32: FetchedMessage] = [:]
        for message in found { byUID[message.uid] = message }
        for message in headers { byUID[message.uid] = message }
        return byUID.keys.sorted().compactMap { byUID[$0] }
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

    // MARK: - Helpers

    /// How many command timeouts one answer may take in all, however steadily it drips in.
    static let deadlineFactor = 5

    /// Marks the end of one protocol command for the crash tests.
    private func step(_ command: String) {
        settings.checkpoint?(command)
    }

    /// The guard's reason when it dropped the connection during `command`.
    private func guardFailure(_ command: String) -> MailError? {
        guard let reason = streamGuard?.tripped else { return nil }
        streamBroken = true
        return MailError(.protocol, server: serverName, "\(reason) (during \(command)); a broken or hostile server, try again later")
    }

    private func liveSession() throws -> UnsafeMutablePointer<mailimap> {
        guard let session, session.pointee.imap_stream != nil else {
            throw MailError(.connect, server: serverName, "the connection is closed")
        }
        return session
    }

    /// Dovecot answers `OK Store ignored with read-only mailbox`: refuse here instead,
    /// so a caller that opened read-only (`--dry-run`) learns of its mistake.
    private func requireWritable(_ command: String) throws {
        guard !selectedReadOnly else {
            throw MailError(.protocol, server: serverName, "\(command) refused: the mailbox is open read-only (EXAMINE)")
        }
    }

    private func systemFlag(_ flag: String) throws -> UnsafeMutablePointer<mailimap_flag> {
        switch flag.lowercased() {
        case "\\seen": return mailimap_flag_new_seen()
        case "\\flagged": return mailimap_flag_new_flagged()
        case "\\answered": return mailimap_flag_new_answered()
        case "\\deleted": return mailimap_flag_new_deleted()
        case "\\draft": return mailimap_flag_new_draft()
        default:
            guard flag.hasPrefix("\\"), flag.count > 1, flag.utf8.dropFirst().allSatisfy(LabelCodec.isPlain) else {
                throw MailError(.protocol, server: serverName, "'\(flag)' is not a system flag; labels go in FlagChange.labels")
            }
            return mailimap_flag_new_flag_extension(strdup(String(flag.dropFirst())))
        }
    }

    /// The server's name of a folder written as in rules (`Lists/dev` is `INBOX.Lists.dev`
    /// on Courier), by the server's personal NAMESPACE (RFC 2342), asked for once.
    public func serverFolder(_ ruleName: String) throws -> String {
        if ruleName.uppercased() == "INBOX" { return "INBOX" }
        return try folderNamespace().serverName(ruleName)
    }

    /// The personal namespace: NAMESPACE's first personal entry; without the extension
    /// the separator `LIST "" ""` reports and no prefix.
    public func folderNamespace() throws -> FolderNamespace {
        if let namespace { return namespace }
        let session = try liveSession()
        var found = FolderNamespace.plain
        let started = ContinuousClock.now
        if capabilities.contains("NAMESPACE") {
            var data: UnsafeMutablePointer<mailimap_namespace_data>?
            let result = mailimap_namespace(session, &data)
            step("NAMESPACE")
            guard isSuccess(result) else {
                // Refused though advertised: names as written, as before NAMESPACE was asked.
                let failure = commandFailure(result, "NAMESPACE", started: started)
                guard failure.kind == .protocol && !streamBroken else { throw failure }
                namespace = found
                return found
            }
            defer { mailimap_namespace_data_free(data) }
            if let personal = data?.pointee.ns_personal,
               let first = CList.elements(personal.pointee.ns_data_list, as: mailimap_namespace_info.self).first {
                let delimiter = first.pointee.ns_delimiter
                found = FolderNamespace(prefix: swiftString(first.pointee.ns_prefix) ?? "",
                                        separator: delimiter == 0 ? nil : Character(Unicode.Scalar(UInt8(bitPattern: delimiter))))
            }
        } else {
            var list: UnsafeMutablePointer<clist>?
            let result = mailimap_list(session, "", "", &list)
            step("LIST")
            guard isSuccess(result) else { throw commandFailure(result, "LIST", started: started) }
            defer { mailimap_list_result_free(list) }
            if let first = CList.elements(list, as: mailimap_mailbox_list.self).first {
                let delimiter = first.pointee.mb_delimiter
                found = FolderNamespace(prefix: "", separator: delimiter == 0 ? nil : Character(Unicode.Scalar(UInt8(bitPattern: delimiter))))
            }
        }
        // Quoted with control characters escaped: the prefix is the server's to choose.
        tracer?.note("personal namespace: prefix \(String(reflecting: found.prefix)), separator \(found.separator.map { String(reflecting: String($0)) } ?? "none")")
        namespace = found
        return found
    }

    /// The next UID of a mailbox (wire name) by `STATUS name (UIDNEXT)`, for servers
    /// whose SELECT leaves it out; 0 when the server does not say it there either, or
    /// refuses the command.
    private func statusUIDNext(_ wireName: String) throws -> UInt32 {
        let session = try liveSession()
        guard let attributes = mailimap_status_att_list_new_empty() else { throw MailError(.protocol, server: serverName, "out of memory") }
        defer { mailimap_status_att_list_free(attributes) }
        mailimap_status_att_list_add(attributes, Int32(MAILIMAP_STATUS_ATT_UIDNEXT))
        var status: UnsafeMutablePointer<mailimap_mailbox_data_status>?
        let started = ContinuousClock.now
        let result = mailimap_status(session, wireName, attributes, &status)
        step("STATUS")
        guard isSuccess(result) else {
            // A server that refuses STATUS on the selected mailbox: UIDNEXT stays unknown
            // (the runner then searches), which is no reason to give up on the mailbox.
            let failure = commandFailure(result, "STATUS (UIDNEXT)", started: started)
            if failure.kind == .protocol && !streamBroken { return 0 }
            throw failure
        }
        defer { mailimap_mailbox_data_status_free(status) }
        let infos = CList.elements(status?.pointee.st_info_list, as: mailimap_status_info.self)
        return infos.first { Int($0.pointee.st_att) == MAILIMAP_STATUS_ATT_UIDNEXT }?.pointee.st_value ?? 0
    }

    /// Whether a mailbox (wire name) exists, by `LIST "" name`.
    private func folderExists(_ wireName: String) throws -> Bool {
        let session = try liveSession()
        var list: UnsafeMutablePointer<clist>?
        let started = ContinuousClock.now
        let result = mailimap_list(session, "", wireName, &list)
        step("LIST")
        guard isSuccess(result) else { throw commandFailure(result, "LIST", started: started) }
        defer { mailimap_list_result_free(list) }
        return list.map { $0.pointee.count > 0 } ?? false
    }

    private func moveFailure(_ result: Int32, _ command: String, folder: String, wire: String, started: ContinuousClock.Instant) -> MailError {
        let failure = commandFailure(result, command, started: started)
        guard failure.kind == .protocol else { return failure }
        let tryCreate = session?.pointee.imap_response_info?.pointee.rsp_trycreate ?? 0 != 0
        if tryCreate || (try? folderExists(wire)) == false {
            return MailError(.missingFolder, server: serverName,
                             "folder \(folder) does not exist, so the messages stay where they are; "
                             + "create the folder or fix the rule")
        }
        return failure
    }

    /// A tagged NO or BAD to STORE is a refusal of this change for these messages
    /// (`.refused`: the run reports them and goes on); anything else (a lost
    /// connection, a timeout, an unreadable answer) stays a temporary failure.
    private func storeFailure(_ result: Int32, _ command: String, started: ContinuousClock.Instant) -> MailError {
        let failure = commandFailure(result, command, started: started)
        guard failure.kind == .protocol, !streamBroken else { return failure }
        // libetpan: NO is ERROR_UID_STORE; BAD is ERROR_PROTOCOL, as is a tag that
        // does not match (a stream out of step, which is no refusal): look at the line.
        let refused = result == Int32(MAILIMAP_ERROR_UID_STORE) || result == Int32(MAILIMAP_ERROR_STORE)
            || (result == Int32(MAILIMAP_ERROR_PROTOCOL) && lastAnswerIsTaggedRefusal())
        return refused ? MailError(.refused, server: serverName, failure.detail) : failure
    }

    /// Whether the last line the server sent is the tagged NO or BAD of the command just sent.
    private func lastAnswerIsTaggedRefusal() -> Bool {
        guard let session, let line = streamGuard?.lastLine else { return false }
        let text = String(decoding: line, as: UTF8.self).uppercased()
        return ["\(session.pointee.imap_tag) ", "C\(session.pointee.imap_tag) "].contains { tag in
            text.hasPrefix(tag + "NO") || text.hasPrefix(tag + "BAD")
        }
    }

    private func isSuccess(_ result: Int32) -> Bool {
        result == Int32(MAILIMAP_NO_ERROR) || result == Int32(MAILIMAP_NO_ERROR_AUTHENTICATED)
            || result == Int32(MAILIMAP_NO_ERROR_NON_AUTHENTICATED)
    }

    /// The human text of the server's last tagged answer, e.g. "Mailbox doesn't exist".
    private func responseText() -> String {
        swiftString(session?.pointee.imap_response) ?? ""
    }

    private func timedOut(since started: ContinuousClock.Instant, limit: Int) -> Bool {
        ContinuousClock.now - started >= .seconds(max(1, limit)) - .milliseconds(500)
    }

    private func connectFailure(_ result: Int32, started: ContinuousClock.Instant) -> MailError {
        streamBroken = true
        if let failure = guardFailure("the greeting") { return failure }
        let url = settings.url
        switch Int(result) {
        case MAILIMAP_ERROR_CONNECTION_REFUSED:
            if timedOut(since: started, limit: settings.connectTimeout) {
                return MailError(.timeout, server: serverName, "no connection within \(settings.connectTimeout) s; check the network and the port")
            }
            // libetpan says the same for both: ask again to tell the user which.
            do throws(PortProbe.Failure) {
                Glibc.close(try PortProbe.connect(host: url.host, port: url.port, timeout: 2))
            } catch {
                return connectError(error)
            }
            return MailError(.connect, server: serverName, "cannot connect to port \(url.port); try again later")
        case MAILIMAP_ERROR_SSL where timedOut(since: started, limit: settings.connectTimeout):
            return MailError(.timeout, server: serverName, "the TLS handshake did not finish within \(settings.connectTimeout) s; try again later")
        // A plain IMAP server greets at once; a TLS server sends nothing first.
        case MAILIMAP_ERROR_SSL where url.scheme == .imaps && PortProbe.greetsInPlainText(host: url.host, port: url.port, timeout: 1):
            return MailError(.configuration, server: serverName,
                             "port \(url.port) greets in plain text (IMAP with STARTTLS), not with TLS; "
                             + "use imap://\(url.host):\(url.port), or the IMAPS port (usually 993) with imaps://")
        case MAILIMAP_ERROR_SSL:
            return MailError(.tls, server: serverName,
                             "the TLS handshake failed: the connection was cut or port \(url.port) is not "
                             + "\(url.scheme == .imaps ? "IMAPS (TLS)" : "IMAP"); try again later, and check the port if it persists")
        case MAILIMAP_ERROR_DONT_ACCEPT_CONNECTION:
            return MailError(.connect, server: serverName, "the server refused the connection (\(responseText()))")
        case MAILIMAP_ERROR_STREAM:
            if timedOut(since: started, limit: settings.connectTimeout) {
                return MailError(.timeout, server: serverName, "no greeting within \(settings.connectTimeout) s")
            }
            return MailError(.connect, server: serverName, "the connection closed before the server's greeting")
        default:
            return MailError(.protocol, server: serverName, "unexpected greeting (libetpan error \(result))")
        }
    }

    /// Maps a libetpan result to an error: timeouts and lost connections are 75
    /// like every protocol refusal; the caller refines `NO` answers it understands.
    private func commandFailure(_ result: Int32, _ command: String, started: ContinuousClock.Instant) -> MailError {
        if let failure = guardFailure(command) { return failure }
        // After a lost stream or an answer that could not be parsed, the two sides no
        // longer agree where one answer ends: send nothing more (not even LOGOUT).
        if result == Int32(MAILIMAP_ERROR_STREAM) || result == Int32(MAILIMAP_ERROR_SSL)
            || result == Int32(MAILIMAP_ERROR_PARSE) { streamBroken = true }
        switch Int(result) {
        case MAILIMAP_ERROR_STREAM:
            if timedOut(since: started, limit: settings.commandTimeout) {
                return MailError(.timeout, server: serverName,
                                 "no answer to \(command) within \(settings.commandTimeout) s; try again later")
            }
            return MailError(.connect, server: serverName, "the connection was lost during \(command); try again later")
        case MAILIMAP_ERROR_PARSE:
            return MailError(.protocol, server: serverName, "could not read the server's answer to \(command)")
        case MAILIMAP_ERROR_SSL:
            return MailError(.tls, server: serverName, "TLS failed during \(command)")
        default:
            let text = responseText()
            return MailError(.protocol, server: serverName,
                             "the server refused \(command)\(text.isEmpty ? "" : ": \(text)")")
        }
    }

    private func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
