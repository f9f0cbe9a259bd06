import Foundation
import TriageCore
import XCTest

/// The CalDAV password goes only to the configured url's origin (issue 24, fault 2).
/// A scripted server (Tests/Servers/caldav-origin.py) redirects, or names a
/// principal, home or calendar, on another port of 127.0.0.1, on plain http, or on
/// another host name; it logs every request it gets, on every port, so the tests see
/// on the server side that nothing reached the other origin. `triage sync` stops with
/// 78 naming both urls. A redirect within the origin (Radicale's
/// `/.well-known/caldav`) still works.
final class CalDAVOriginTests: XCTestCase {
    private var server: PythonTestServerProcess!
    private var caFile = ""
    private var folder = ""
    private let password = "origin-test-password"

    override func setUpWithError() throws {
        let smtp = try SMTPTestServer.shared()  // its test CA and localhost certificate
        caFile = smtp.caFile
        server = try PythonTestServerProcess(script: "caldav-origin.py", arguments: [smtp.serverCertificate, smtp.serverKey])
        folder = NSTemporaryDirectory() + "triage-caldav-origin-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder + "/rules", withIntermediateDirectories: true)
        try "".write(toFile: folder + "/rules/test.rules", atomically: true, encoding: .utf8)
        try password.write(toFile: folder + "/pw", atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private var main: Int { server.int("main") }
    private var other: Int { server.int("other") }
    private var plain: Int { server.int("plain") }

    /// One request as the scripted server logged it.
    private struct Logged: Decodable {
        var port: Int
        var host: String
        var method: String
        var path: String
        var authorization: Bool
    }

    private func logged() throws -> [Logged] {
        let text = try String(contentsOfFile: server.string("log"), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Logged.self, from: Data($0.utf8)) }
    }

    /// `triage sync` with `[caldav phone] url = URL`.
    private func sync(_ url: String) throws -> TriageProcess.Result {
        let config = folder + "/triage.conf"
        try """
        [triage]
        rules = rules
        store = store
        timezone = Europe/Berlin

        [caldav phone]
        url = \(url)
        user = me
        password_command = cat \(folder)/pw
        ca_file = \(caFile)
        reminders = Tasks

        """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        return try TriageProcess.run(["sync", "--config", config])
    }

    /// The sync of `path` on the main port stops with 78, naming the configured url and
    /// `elsewhere`; the server saw the password on the main port only, and no request at all
    /// on the other port, the plain one, or under another host name.
    private func assertRefused(_ path: String, elsewhere: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let configured = "https://127.0.0.1:\(main)/\(path)/"
        let result = try sync(configured)
        XCTAssertEqual(result.status, 78, "\(path): \(result.err)", file: file, line: line)
        XCTAssertTrue(result.err.contains("CalDAV \(configured): the server "), "\(path): \(result.err)", file: file, line: line)
        XCTAssertTrue(result.err.contains(elsewhere + ", which is not on the configured url's scheme, host and port"),
                      "\(path): \(result.err)", file: file, line: line)
        XCTAssertTrue(result.err.contains("If that server is meant, make \(elsewhere) the url of this section"),
                      "\(path): \(result.err)", file: file, line: line)
        XCTAssertFalse(result.err.contains(password), "the password was printed", file: file, line: line)
        let requests = try logged()
        XCTAssertTrue(requests.contains { $0.port == main && $0.authorization }, "\(path): nothing reached the configured server: \(requests)",
                      file: file, line: line)
        let strays = requests.filter { $0.port != main || !$0.host.hasPrefix("127.0.0.1") }
        XCTAssertEqual(strays.map { "\($0.method) \($0.host)\($0.path) authorization=\($0.authorization)" }, [],
                       "\(path): requests went to another origin", file: file, line: line)
    }

    func testARedirectToAnotherPortIsRefusedWithoutARequestThere() throws {
        try assertRefused("redirect-other", elsewhere: "https://127.0.0.1:\(other)/dav/")
    }

    func testARedirectToPlainHTTPOnTheSameHostIsRefused() throws {
        try assertRefused("redirect-plain", elsewhere: "http://127.0.0.1:\(plain)/dav/")
    }

    func testARedirectToAnotherHostNameIsRefused() throws {
        try assertRefused("redirect-host", elsewhere: "https://localhost:\(main)/dav/")
    }

    func testAPrincipalOnAnotherPortIsRefused() throws {
        try assertRefused("principal-other", elsewhere: "https://127.0.0.1:\(other)/principal/")
    }

    func testACalendarHomeOnPlainHTTPIsRefused() throws {
        try assertRefused("home-plain", elsewhere: "http://127.0.0.1:\(plain)/home/")
    }

    func testANetworkPathHrefIsResolvedAndRefused() throws {
        try assertRefused("home-netpath", elsewhere: "https://127.0.0.1:\(other)/home/")
    }

    func testACalendarOnAnotherPortIsRefused() throws {
        try assertRefused("calendar-other", elsewhere: "https://127.0.0.1:\(other)/cal/")
    }

    /// Radicale answers `/.well-known/caldav` with a redirect to `/` on the same origin:
    /// followed, with the password, and the sync works.
    func testARedirectWithinTheOriginIsFollowed() throws {
        let radicale = try CalDAVTestServer.radicale()
        let f = try CalDAVTestFolder("caldav-same-origin", server: radicale)
        addTeardownBlock { f.remove() }
        try f.addReminder(CalDAVTestFolder.id(1), "Call Bob", due: CivilDate(year: 2026, month: 12, day: 10))
        let before = radicale.requests().count
        let result = try f.triage(["sync"])
        XCTAssertEqual(result.status, 0, result.err)
        let requests = Array(radicale.requests().dropFirst(before))
        XCTAssertEqual(Array(requests.prefix(2)), ["PROPFIND /.well-known/caldav", "PROPFIND /"], "\(requests)")
        XCTAssertEqual(try f.server.items(f.reminders).map(\.summary), ["Call Bob"])
    }
}
