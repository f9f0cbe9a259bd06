import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// The command an IMAP error names is the step the crash tests stop at
/// (`IMAPSettings.checkpoint`, the table in docs/RELIABILITY.md): both come from the
/// one name `IMAPConnection.perform` is given. The scripted server goes away after
/// each step of a session in turn; the error about the next command names it as its
/// checkpoint does (SELECT followed by the mailbox).
final class CommandNameTests: XCTestCase {
    /// The steps seen so far, and the server to stop after the step numbered `stopAfter`.
    private final class Steps: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        private var server: FakeIMAPServer?
        private let stopAfter: Int

        init(server: FakeIMAPServer, stopAfter: Int) {
            self.server = server
            self.stopAfter = stopAfter
        }

        var sink: @Sendable (String) -> Void {
            { [self] name in
                lock.lock()
                names.append(name)
                let stop = names.count == stopAfter ? server : nil
                lock.unlock()
                if stop != nil { stopServer() }
            }
        }

        var seen: [String] {
            lock.lock()
            defer { lock.unlock() }
            return names
        }

        /// Stops the server once (a stopped one's pid is not signalled again).
        func stopServer() {
            lock.lock()
            let running = server
            server = nil
            lock.unlock()
            running?.stop()
        }
    }

    /// Connect, SELECT (no UIDNEXT, so STATUS), UID SEARCH, UID FETCH, UID STORE.
    private func session(stopAfter: Int) throws -> (steps: [String], error: MailError?) {
        let dovecot = try DovecotServer.shared()  // for its test CA and certificate
        let server = try FakeIMAPServer(.nouidnext, dovecot: dovecot)
        let steps = Steps(server: server, stopAfter: stopAfter)
        defer { steps.stopServer() }
        var settings = IMAPSettings(url: MailServerURL(scheme: .imaps, host: "localhost", port: server.port),
                                    credential: .password(user: "me", "secret-pw"), caFile: dovecot.caFile)
        settings.connectTimeout = 5
        settings.commandTimeout = 5
        settings.checkpoint = steps.sink
        do {
            let connection = try IMAPConnection.connect(settings)
            defer { connection.close() }
            _ = try connection.open("INBOX", readOnly: false)
            let uids = try connection.uids(above: 0)
            _ = try connection.fetch(uids)
            try connection.store(FlagChange(.add, flags: ["\\Flagged"]), uids: uids)
            return (steps.seen, nil)
        } catch let error as MailError {
            return (steps.seen, error)
        }
    }

    /// The command a `commandFailure` text names ("no answer to X within", "the
    /// connection was lost during X;", "could not read the server's answer to X", ...).
    private func namedCommand(_ detail: String) -> String? {
        let pattern = /(?:answer to|during|refused) (.+?)(?: within|\)?;|: |$)/
        return detail.firstMatch(of: pattern).map { String($0.1) }
    }

    func testEveryCommandsErrorNamesItsCheckpoint() throws {
        let whole = try session(stopAfter: 0)
        XCTAssertNil(whole.error)
        // No CAPABILITY after LOGIN: Dovecot's login answer carries the list (LoginCapabilityTests).
        XCTAssertEqual(whole.steps, ["LOGIN", "SELECT", "STATUS", "UID SEARCH", "UID FETCH", "UID STORE"])
        for stop in 1..<whole.steps.count {
            let cut = try session(stopAfter: stop)
            let error = try XCTUnwrap(cut.error, "the server went away after \(whole.steps[stop - 1])")
            XCTAssertEqual(cut.steps, Array(whole.steps.prefix(stop + 1)), error.detail)
            let step = whole.steps[stop]
            XCTAssertEqual(namedCommand(error.detail), step == "SELECT" ? "SELECT INBOX" : step, error.detail)
        }
    }
}
