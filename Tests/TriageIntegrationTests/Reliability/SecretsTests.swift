import Foundation
import XCTest

/// A verbose run with the IMAP protocol trace (`TRIAGE_TRACE=1 --verbose`) never
/// shows a password or a token, in any form, in its output or in anything it
/// writes; and every file and folder it writes is private (0600 / 0700).
final class SecretsTests: XCTestCase {
    /// The secret and the encodings it could leak in (SASL PLAIN and XOAUTH2 are base64).
    private func forms(_ secret: String, user: String) -> [String] {
        [secret,
         Data(secret.utf8).base64EncodedString(),
         Data("\u{0}\(user)\u{0}\(secret)".utf8).base64EncodedString(),
         Data("\(user)\u{0}\(user)\u{0}\(secret)".utf8).base64EncodedString(),
         Data("user=\(user)\u{1}auth=Bearer \(secret)\u{1}\u{1}".utf8).base64EncodedString()]
    }

    /// Every file under `root` as text, with its path.
    private func files(under root: String) -> [(String, String)] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.compactMap { path in
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else { return nil }
            return (path, String(decoding: data, as: UTF8.self))
        }
    }

    private func assertPrivate(_ root: String, atLeast minimum: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        var checked = 0
        let paths = [""] + (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
        for path in paths {
            var st = stat()
            XCTAssertEqual(lstat(root + "/" + path, &st), 0)
            let mode = st.st_mode & 0o777
            let isFolder = st.st_mode & S_IFMT == S_IFDIR
            XCTAssertEqual(mode, isFolder ? 0o700 : 0o600, "\(path.isEmpty ? root : path): mode \(String(mode, radix: 8))",
                           file: file, line: line)
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, minimum, "the store has files to check", file: file, line: line)
    }

    func testPasswordsNeverLeakAndStoreFilesArePrivate() throws {
        let smtp = try SMTPTestServer.shared()
        let box = try RunSandbox("secrets")
        defer { box.remove() }
        try box.writeConfig(digest: false)
        try """

        [digest]
        to = me@example.test
        from = triage@example.test
        hour = 0
        smtp = smtp://localhost:\(smtp.starttlsPort)
        user = \(SMTPTestServer.user)
        password_command = printf '%s' '\(SMTPTestServer.password)'
        ca_file = \(smtp.caFile)

        """.appendLine(to: box.config)
        try box.seed(14)
        let run = try box.triage(["run", "--all", "--verbose"], environment: ["TRIAGE_TRACE": "1"])
        XCTAssertEqual(run.status, 0, run.err)
        // The controls: the trace is there, the login happened, the digest went out.
        XCTAssertTrue(run.err.contains("LOGIN \(box.user) ***"), run.err)
        XCTAssertTrue(run.err.contains("UID FETCH"), run.err)
        let digest = smtp.received(containing: "triage.invalid").last.flatMap { try? String(contentsOf: $0, encoding: .utf8) }
        XCTAssertNotNil(digest, "the digest was sent with the SMTP password")

        let outputs = [("stdout", run.out), ("stderr", run.err), ("digest", digest ?? "")] + files(under: box.store)
        var searched = 0
        for (secret, user) in [(DovecotServer.password, box.user), (SMTPTestServer.password, SMTPTestServer.user)] {
            for form in forms(secret, user: user) {
                for (name, text) in outputs {
                    XCTAssertFalse(text.contains(form), "\(name) shows a secret (\(form))")
                    searched += 1
                }
            }
        }
        XCTAssertGreaterThan(searched, 50)
        try assertPrivate(box.store, atLeast: 20)
    }

    func testOAuthTokenNeverLeaks() throws {
        let dovecot = try DovecotServer.shared()
        let fake = try FakeIMAPServer(.gmail, dovecot: dovecot)
        defer { fake.stop() }
        let token = "ya29.tok-SECRET-4f7d2"
        let box = try TestFolder("token", rules: "rule \"all\" when from:example.test then label \"seen it\", queue later\n")
        defer { box.remove() }
        try box.writeConfig([.triage(), ConfigSection("account gmail", [
            "url": "imaps://localhost:\(fake.port)", "user": "me@gmail.example", "oauth2_token_command": "echo \(token)",
            "ca_file": dovecot.caFile,
        ])])
        let run = try box.triage(["run", "--all", "--verbose"], environment: ["TRIAGE_TRACE": "1"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("AUTHENTICATE XOAUTH2 ***"), run.err)
        XCTAssertTrue(fake.commands.contains { $0.contains("auth=Bearer \(token)") }, "the control: the token was sent")
        let outputs = [("stdout", run.out), ("stderr", run.err)] + files(under: box.store)
        for form in forms(token, user: "me@gmail.example") {
            for (name, text) in outputs { XCTAssertFalse(text.contains(form), "\(name) shows the token (\(form))") }
        }
        try assertPrivate(box.store, atLeast: 8)  // root, lock, state, queue and their folders
    }
}

private extension String {
    func appendLine(to path: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(utf8))
    }
}
