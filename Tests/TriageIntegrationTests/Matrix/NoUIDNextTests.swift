import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// A SELECT without UIDNEXT (Courier) is completed by `STATUS (UIDNEXT)`
/// (CourierMatrixTests.testFirstRunThenCronRun); a server that also refuses STATUS
/// leaves UIDNEXT unknown, as before, instead of failing the mailbox.
final class NoUIDNextTests: XCTestCase {
    func testRefusedStatusLeavesUIDNextUnknownAndTheSessionGoesOn() throws {
        let dovecot = try DovecotServer.shared()  // for its test CA and certificate
        let server = try FakeIMAPServer(.nouidnext, dovecot: dovecot)
        defer { server.stop() }
        var settings = IMAPSettings(url: MailServerURL(scheme: .imaps, host: "localhost", port: server.port),
                                    credential: .password(user: "me", "secret-pw"), caFile: dovecot.caFile)
        settings.connectTimeout = 5
        settings.commandTimeout = 5
        let connection = try IMAPConnection.connect(settings)
        defer { connection.close() }
        let status = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(status.uidNext, 0, "unknown")
        XCTAssertEqual(status.exists, 1)
        XCTAssertEqual(try connection.uids(above: 0), [1], "the session goes on")
        XCTAssertTrue(server.commands.contains { $0.contains("STATUS INBOX (UIDNEXT)") }, "\(server.commands)")
    }
}
