import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// Behaviour only a scripted server can show: Gmail labels, the STARTTLS
/// injection attack (CVE-2020-15953), and a server that stops answering.
final class IMAPScriptedServerTests: XCTestCase {
    private var dovecot: DovecotServer!

    override func setUpWithError() throws {
        dovecot = try DovecotServer.shared() // for its test CA and certificate
    }

    private func settings(_ server: FakeIMAPServer, scheme: MailServerURL.Scheme = .imaps) -> IMAPSettings {
        var settings = IMAPSettings(url: MailServerURL(scheme: scheme, host: "localhost", port: server.port),
                                    credential: .password(user: "me@gmail.example", "secret-pw"), caFile: dovecot.caFile)
        settings.connectTimeout = 5
        settings.commandTimeout = 5
        return settings
    }

    func testGmailLabelsAreReadAndStoredThroughXGMLabels() throws {
        let server = try FakeIMAPServer(.gmail, dovecot: dovecot)
        defer { server.stop() }
        let connection = try IMAPConnection.connect(settings(server))
        XCTAssertTrue(connection.isGmail)
        let status = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(status.uidValidity, 42)
        XCTAssertEqual(status.uidNext, 2)
        let message = try XCTUnwrap(connection.fetch([1]).first)
        XCTAssertEqual(message.labels, ["\\Important", "no push", "Café"])
        XCTAssertEqual(message.flags, ["\\Seen"])
        XCTAssertEqual(message.internalDate, 1_704_184_200)
        XCTAssertEqual(String(decoding: message.bodyPrefix, as: UTF8.self), "Hello from Gmail.\r\n")
        try connection.store(FlagChange(.add, flags: ["\\Flagged"], labels: ["no push", "Café"]), uids: [1, 2, 3])
        try connection.store(FlagChange(.remove, labels: ["old label"]), uids: [1])
        connection.close()

        let commands = server.commands
        XCTAssertTrue(commands.contains { $0.contains("UID FETCH 1 (") && $0.contains("X-GM-LABELS") }, "\(commands)")
        XCTAssertTrue(commands.contains { $0.hasSuffix("UID STORE 1:3 +FLAGS.SILENT (\\Flagged)") }, "\(commands)")
        // Labels are astrings in modified UTF-7, not encoded keywords.
        XCTAssertTrue(commands.contains { $0.hasSuffix("UID STORE 1:3 +X-GM-LABELS.SILENT (\"Caf&AOk-\" \"no push\")") },
                      "\(commands)")
        XCTAssertTrue(commands.contains { $0.hasSuffix("UID STORE 1 -X-GM-LABELS.SILENT (\"old label\")") }, "\(commands)")
        XCTAssertFalse(commands.contains { $0.contains("no+20push") })
    }

    /// `archive` on Gmail (X-GM-EXT-1) removes the `\\Inbox` label, as Gmail's Archive
    /// button does, even though X-GM-LABELS never lists the open mailbox's own label;
    /// nothing is moved and the message keeps its other labels.
    func testArchiveOnGmailRemovesTheInboxLabelThroughTriageRun() throws {
        let server = try FakeIMAPServer(.gmail, dovecot: dovecot)
        defer { server.stop() }
        let folder = try TestFolder("gmail-archive", rules: "rule \"quiet\" when from:alice@example.test then archive, label \"quiet\"\n")
        defer { folder.remove() }
        try folder.writeConfig(url: "imaps://localhost:\(server.port)", user: "me@gmail.example", caFile: dovecot.caFile)
        let run = try folder.triage(["run", "--all"])
        XCTAssertEqual(run.status, 0, run.err)
        let commands = server.commands
        XCTAssertTrue(commands.contains { $0.hasSuffix("UID STORE 1 -X-GM-LABELS.SILENT (\"\\\\Inbox\")") }, "\(commands)")
        XCTAssertTrue(commands.contains { $0.hasSuffix("UID STORE 1 +X-GM-LABELS.SILENT (quiet)") }, "\(commands)")
        XCTAssertFalse(commands.contains { $0.contains("MOVE") || $0.contains("COPY") || $0.contains("LIST") }, "\(commands)")
    }

    func testXOAUTH2SendsTheTokenAndHidesItFromTheTrace() throws {
        let server = try FakeIMAPServer(.gmail, dovecot: dovecot)
        defer { server.stop() }
        let trace = TraceRecorder()
        var oauth = settings(server)
        oauth.credential = MailCredential(user: "me@gmail.example", method: .oauth2(token: "tok-123"))
        oauth.trace = trace.sink
        let connection = try IMAPConnection.connect(oauth)
        XCTAssertEqual(try connection.open("INBOX", readOnly: true).exists, 1)
        connection.close()
        XCTAssertTrue(server.commands.contains("decoded user=me@gmail.example^Aauth=Bearer tok-123^A^A"), "\(server.commands)")
        XCTAssertTrue(trace.lines.contains { $0.hasPrefix("C: ") && $0.hasSuffix("AUTHENTICATE XOAUTH2 ***") }, trace.text)
        XCTAssertFalse(trace.text.contains("tok-123"))
        XCTAssertFalse(trace.text.contains(Data("user=me@gmail.example\u{1}auth=Bearer tok-123\u{1}\u{1}".utf8).base64EncodedString()))
    }

    func testRefusedXOAUTH2TokenExits77() throws {
        let server = try FakeIMAPServer(.gmail, dovecot: dovecot)
        defer { server.stop() }
        var oauth = settings(server)
        oauth.credential = MailCredential(user: "me@gmail.example", method: .oauth2(token: "bad-token"))
        XCTAssertThrowsError(try IMAPConnection.connect(oauth)) { error in
            XCTAssertEqual((error as? MailError)?.kind, .authentication, "\(error)")
            XCTAssertEqual((error as? MailError)?.exitStatus, .noPermission)
            XCTAssertFalse("\(error)".contains("bad-token"))
        }
    }

    func testBytesInjectedBeforeTheSTARTTLSHandshakeAreRefused() throws {
        let server = try FakeIMAPServer(.inject, dovecot: dovecot)
        defer { server.stop() }
        XCTAssertThrowsError(try IMAPConnection.connect(settings(server, scheme: .imap))) { error in
            let mailError = error as? MailError
            XCTAssertEqual(mailError?.kind, .tls)
            XCTAssertEqual(mailError?.exitStatus, .tempFail)
            XCTAssertTrue(mailError?.message.contains("CVE-2020-15953") ?? false, "\(error)")
        }
        // The server goes on after STARTTLS and would log a LOGIN (see the control below).
        XCTAssertTrue(server.commands.contains { $0.hasSuffix(" STARTTLS") }, "\(server.commands)")
        XCTAssertFalse(server.commands.contains { $0.contains("LOGIN") }, "\(server.commands)")
    }

    /// The control for the test above: the same server without the injected line
    /// completes the handshake and sees the LOGIN, so "no LOGIN" there can fail.
    func testTheSameSTARTTLSWithoutInjectionLogsIn() throws {
        let server = try FakeIMAPServer(.starttls, dovecot: dovecot)
        defer { server.stop() }
        let connection = try IMAPConnection.connect(settings(server, scheme: .imap))
        XCTAssertTrue(connection.isEncrypted)
        connection.close()
        let commands = server.commands
        XCTAssertTrue(commands.contains("TLS established"), "\(commands)")
        XCTAssertTrue(commands.contains { $0.hasSuffix(" LOGIN ***") }, "\(commands)")
    }

    func testAServerThatStopsAnsweringTimesOut() throws {
        let server = try FakeIMAPServer(.silent, dovecot: dovecot)
        defer { server.stop() }
        var settings = settings(server)
        settings.commandTimeout = 1
        let started = Date()
        XCTAssertThrowsError(try IMAPConnection.connect(settings)) { error in
            XCTAssertEqual((error as? MailError)?.kind, .timeout, "\(error)")
            XCTAssertEqual((error as? MailError)?.exitStatus, .tempFail)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "commandTimeout 1 s, not the 5 s connect timeout")
    }
}
