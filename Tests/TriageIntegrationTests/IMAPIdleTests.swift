import Foundation
import Glibc
import TriageCore
import TriageIMAP
import XCTest

/// `IMAPConnection`'s IDLE against Dovecot: the socket becomes readable when mail
/// arrives, DONE ends the IDLE, and the session goes on; a connection cut during
/// IDLE makes DONE fail (exit 75) instead of hanging.
final class IMAPIdleTests: XCTestCase {
    func testMailArrivingDuringIdleWakesTheSocketAndDoneEndsIt() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("idle")
        let connection = try server.connect(user: user)
        defer { connection.close() }
        XCTAssertTrue(connection.hasIdle)
        let before = try connection.open("INBOX", readOnly: false)
        try connection.startIdle()
        XCTAssertFalse(readable(connection, within: 1), "nothing to say yet")

        try server.seed(user: user, "From: a@example.test\nSubject: during idle\n\nHi.\n")
        XCTAssertTrue(readable(connection, within: 10), "Dovecot announces the new message")
        try connection.finishIdle()
        // The session goes on: the message is there.
        let after = try connection.open("INBOX", readOnly: false)
        XCTAssertEqual(after.exists, before.exists + 1)
        XCTAssertEqual(try connection.uids(above: 0).count, 1)
    }

    func testACutConnectionMakesDoneFail() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("idle-cut")
        let proxy = try CutoffProxy(to: "127.0.0.1", port: server.imapsPort)
        defer { proxy.stop() }
        try proxy.set(.pass)
        var settings = server.settings(user: user)
        settings.url = .init(scheme: .imaps, host: "localhost", port: proxy.port)
        settings.commandTimeout = 2
        let connection = try IMAPConnection.connect(settings)
        defer { connection.close() }
        _ = try connection.open("INBOX", readOnly: false)
        try connection.startIdle()
        try proxy.cutLive()
        XCTAssertTrue(readable(connection, within: 10), "the closed socket is readable (end of file)")
        XCTAssertThrowsError(try connection.finishIdle()) { error in
            XCTAssertEqual((error as? MailError)?.exitStatus, .tempFail, "\(error)")
        }
    }

    private func readable(_ connection: IMAPConnection, within seconds: Int32) -> Bool {
        if connection.hasBufferedInput { return true }
        var descriptor = pollfd(fd: connection.idleDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, seconds * 1000) > 0
    }
}
