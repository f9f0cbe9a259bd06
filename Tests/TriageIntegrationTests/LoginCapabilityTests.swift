import Foundation
import TriageCore
import TriageIMAP
import XCTest

/// The capabilities after login come from LOGIN's answer when the server puts them
/// there (Dovecot does): no CAPABILITY command, one round trip less per run, and the
/// same list a CAPABILITY after login gives (not the one from before login).
final class LoginCapabilityTests: XCTestCase {
    private func capabilityCommands(_ trace: TraceRecorder) -> [String] {
        trace.lines.filter { $0.range(of: #"^C: \S+ CAPABILITY"#, options: .regularExpression) != nil }
    }

    func testLoginAnswerGivesThePostLoginCapabilities() throws {
        let server = try DovecotServer.shared()
        let user = try server.makeUser("caps")
        for (host, scheme, move) in [("localhost", MailServerURL.Scheme.imaps, true), ("127.0.0.4", .imaps, false),
                                     ("localhost", .imap, true)] {
            let trace = TraceRecorder()
            var settings = server.settings(user: user, host: host, scheme: scheme)
            settings.trace = trace.sink
            let connection = try IMAPConnection.connect(settings)
            defer { connection.close() }
            XCTAssertEqual(connection.hasMove, move, "\(host) \(scheme)")
            XCTAssertTrue(connection.hasUIDPlus, "\(host) \(scheme)")
            XCTAssertTrue(connection.capabilities.contains("CONDSTORE"), "\(host) \(scheme)")
            // Before login Dovecot lists AUTH= mechanisms (and STARTTLS); after, it does not.
            XCTAssertFalse(connection.capabilities.contains { $0.hasPrefix("AUTH=") || $0 == "STARTTLS" },
                           "\(host) \(scheme): \(connection.capabilities.sorted())")
            let afterLogin = Array(trace.lines.drop { !($0.hasPrefix("C: ") && $0.contains(" LOGIN ")) })
            XCTAssertFalse(afterLogin.isEmpty, trace.lines.joined(separator: "\n"))
            XCTAssertEqual(capabilityCommands(trace).filter { line in afterLogin.contains(line) }, [],
                           trace.lines.joined(separator: "\n"))
            _ = try connection.open("INBOX", readOnly: true)
        }
    }
}
