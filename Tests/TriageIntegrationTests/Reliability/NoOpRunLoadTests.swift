import Foundation
import TriageCore
import XCTest

/// What a no-op cron run does not load (issue 14): the system trust store when the
/// account's `ca_file` alone verifies the server's chain (CertificatePolicy), and
/// libcurl, which only the digest, webhooks and CalDAV need (CShims/CurlLibrary.c);
/// each was a quarter of such a run. Observed from outside, on the real binary:
/// the files it opens (strace). Each has a control in which the thing is needed and
/// is read, so the observation is known to see it.
final class NoOpRunLoadTests: XCTestCase {
    /// Where Debian's GnuTLS reads the system trust store from.
    private static let systemStore = "/etc/ssl/certs/ca-certificates.crt"
    /// The library CShims/CurlLibrary.c opens.
    private static let curlLibrary = "/libcurl-gnutls.so.4"

    /// Runs `triage ARGS` under strace; its result and the paths it opened.
    private func traced(_ args: [String], in dir: String) throws -> (TriageProcess.Result, [String]) {
        let log = dir + "/strace.txt"
        let result = try TriageProcess.run(["-f", "-qq", "-e", "trace=open,openat,openat2", "-o", log,
                                            TriageProcess.binary.path] + args,
                                           executable: URL(fileURLWithPath: "/usr/bin/strace"))
        let opened = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            guard line.contains("open"), !line.contains("ENOENT"), let start = line.firstIndex(of: "\""),
                  let end = line[line.index(after: start)...].firstIndex(of: "\"") else { return nil }
            return String(line[line.index(after: start)..<end])
        }
        return (result, opened)
    }

    /// `triage run` for one account on `host`, with the test CA as its `ca_file`.
    private func tracedRun(_ server: DovecotServer, user: String, host: String) throws -> (TriageProcess.Result, [String]) {
        let box = try TestFolder("noop-load", rules: "rule \"r\" when from:nobody.test then flag\n")
        defer { box.remove() }
        try box.writeConfig([.triage(me: nil, timezone: nil), ConfigSection("account a", [
            "url": "imaps://\(host):\(server.imapsPort)", "user": user,
            "password": DovecotServer.password, "ca_file": server.caFile,
        ])])
        return try traced(["run", "--config", box.config], in: box.dir)
    }

    func testNoOpRunReadsNeitherTheSystemStoreNorLibcurl() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("noop-load")
        let (run, opened) = try tracedRun(server, user: user, host: "localhost")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(server.log().contains("user=<\(user)>"), "the run logged in")
        XCTAssertTrue(opened.contains(server.caFile), "the ca_file was read: \(opened)")
        XCTAssertFalse(opened.contains(Self.systemStore), "the system store was read although ca_file verified the chain")
        XCTAssertFalse(opened.contains { $0.hasSuffix(Self.curlLibrary) }, "libcurl was loaded by a run that sends nothing")
    }

    /// The control for the trust store, and the refusal unchanged: a chain ca_file
    /// does not verify is checked against the system store too, and refused with the
    /// same reason and exit status as before, before any credential is sent.
    func testChainNotVerifiedByCAFileIsCheckedAgainstTheSystemStore() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("noop-load-rogue")
        // 127.0.0.3 presents a certificate for its own address from a CA nobody trusts.
        let (run, opened) = try tracedRun(server, user: user, host: "127.0.0.3")
        XCTAssertEqual(run.status, 75, run.err)
        XCTAssertTrue(run.err.contains("127.0.0.3:\(server.imapsPort)") && run.err.contains("issuer is unknown")
            && run.err.contains("set ca_file to its certificate"), run.err)
        XCTAssertTrue(opened.contains(Self.systemStore), "the system store was not consulted: \(opened)")
        XCTAssertFalse(server.log().contains("user=<\(user)>"), "the server saw a login attempt")
    }

    /// The control for libcurl: sending a digest opens it, and the digest arrives.
    func testSendingADigestLoadsLibcurl() throws {
        let smtp = try SMTPTestServer.shared()
        let dir = FileManager.default.temporaryDirectory.path + "/triage-noop-load-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recipient = "noop-\(UUID().uuidString.prefix(8).lowercased())@example.test"
        try DigestTestConfig.write(in: dir, to: recipient, digest: [
            "smtp = smtp://127.0.0.1:\(smtp.starttlsPort)", "user = \(SMTPTestServer.user)",
            "password_command = printf '%s' '\(SMTPTestServer.password)'", "ca_file = \(smtp.caFile)",
        ])
        let store = Store(path: dir + "/store", timeZone: TimeZone(identifier: "America/Chicago")!)
        store.synchronous = false
        try store.put(Reminder(id: String(repeating: "9b1c", count: 8), title: "Call the plumber",
                               due: CivilDate(year: 2030, month: 1, day: 14),
                               created: Timestamp(secondsSince1970: 1_577_858_400, utcOffsetSeconds: -21_600)))
        let (send, opened) = try traced(["digest", "--send", "--date", "2030-01-15", "--config", dir + "/triage.conf"], in: dir)
        XCTAssertEqual(send.status, 0, send.err)
        XCTAssertTrue(opened.contains { $0.hasSuffix(Self.curlLibrary) }, "libcurl was not loaded: \(opened)")
        XCTAssertEqual(smtp.received(containing: recipient).count, 1, "the digest did not arrive")
    }
}
