import XCTest

/// The server matrix (ServerMatrix) against Dovecot.
final class DovecotMatrixTests: XCTestCase {
    private func matrix() throws -> ServerMatrix { ServerMatrix(server: try DovecotServer.shared()) }
    func testExactAllThenIdempotentRerun() throws { try matrix().exactAllThenIdempotentRerun() }
    func testFirstRunThenCronRun() throws { try matrix().firstRunThenCronRun() }
    func testTLSAndStartTLSWithCAFile() throws { try matrix().tlsAndStartTLSWithCAFile() }
    // The crash sweeps over Dovecot, with and without MOVE: Reliability/CrashSweepTests.
}

/// The server matrix against Cyrus IMAP 3.6 (Fastmail's layout), started from the
/// unpacked Debian package by Tests/Servers/cyrus.sh.
final class CyrusMatrixTests: XCTestCase {
    private func matrix() throws -> ServerMatrix { ServerMatrix(server: try PackagedIMAPServer.cyrus()) }
    func testExactAllThenIdempotentRerun() throws { try matrix().exactAllThenIdempotentRerun() }
    func testFirstRunThenCronRun() throws { try matrix().firstRunThenCronRun() }
    func testCrashSweepWithMove() throws { try matrix().crashSweep() }
    func testTLSAndStartTLSWithCAFile() throws { try matrix().tlsAndStartTLSWithCAFile() }
}

/// The server matrix against Courier-IMAP 5.0 (no MOVE, no UIDNEXT in SELECT, folders
/// under `INBOX.`), started from the unpacked Debian package by Tests/Servers/courier.sh.
final class CourierMatrixTests: XCTestCase {
    private func matrix() throws -> ServerMatrix { ServerMatrix(server: try PackagedIMAPServer.courier()) }
    func testExactAllThenIdempotentRerun() throws { try matrix().exactAllThenIdempotentRerun() }
    func testFirstRunThenCronRun() throws { try matrix().firstRunThenCronRun() }
    func testCrashSweepWithoutMove() throws { try matrix().crashSweep() }
    func testTLSAndStartTLSWithCAFile() throws { try matrix().tlsAndStartTLSWithCAFile() }
}

/// The server matrix against GNU Mailutils imap4d, as far as a server without keywords,
/// MOVE and UIDPLUS allows (its SEARCH quirk: ContradictingServerTests).
final class MailutilsMatrixTests: XCTestCase {
    private func matrix() throws -> ServerMatrix { ServerMatrix(server: try PackagedIMAPServer.mailutils()) }
    func testTLSAndStartTLSWithCAFile() throws { try matrix().tlsAndStartTLSWithCAFile() }
}
