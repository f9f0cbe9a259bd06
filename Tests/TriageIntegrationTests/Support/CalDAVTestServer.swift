import Foundation
import TriageCore
import XCTest

/// A CalDAV server for the sync tests, started once per test run by its script in
/// Tests/Servers (radicale.sh: Radicale with TLS and htpasswd; xandikos.sh:
/// Xandikos behind a TLS-terminating proxy), with the user `me` / `test-password`.
/// Each test uses task lists of its own names, so tests never meet.
final class CalDAVTestServer: @unchecked Sendable {
    /// Radicale, started on first use.
    static func radicale() throws -> CalDAVTestServer { try shared("radicale.sh") }
    /// Xandikos behind the TLS proxy, started on first use.
    static func xandikos() throws -> CalDAVTestServer { try shared("xandikos.sh") }

    private nonisolated(unsafe) static var servers: [String: CalDAVTestServer] = [:]
    private static let lock = NSLock()

    private static func shared(_ script: String) throws -> CalDAVTestServer {
        lock.lock()
        defer { lock.unlock() }
        if let server = servers[script] { return server }
        let server = try CalDAVTestServer(script: script)
        servers[script] = server
        return server
    }

    let script: String
    let directory: String
    let port: Int
    let user = "me"
    let password = "test-password"
    var caFile: String { directory + "/ssl/ca.pem" }
    var url: String { "https://localhost:\(port)/" }

    private init(script: String) throws {
        self.script = script
        directory = NSTemporaryDirectory() + "triage-\(script.dropLast(3))-\(UUID().uuidString.prefix(8))"
        let path = PythonTestServerProcess.serversDirectory.appendingPathComponent(script).path
        try Spawn.run(["/bin/bash", path, "start", directory])
        let ports = try String(contentsOfFile: directory + "/ports", encoding: .utf8)
        guard let line = ports.split(separator: "\n").first(where: { $0.hasPrefix("caldavs=") }), let port = Int(line.dropFirst(8)) else {
            throw NSError(domain: "CalDAVTestServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "no caldavs port from \(script): \(ports)"])
        }
        self.port = port
        if Self.servers.isEmpty { XCTestObservationCenter.shared.addTestObserver(StopAtEnd()) }
    }

    /// Stops the script's server and removes its folder.
    func stop() {
        let path = PythonTestServerProcess.serversDirectory.appendingPathComponent(script).path
        try? Spawn.run(["/bin/bash", path, "stop", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the shared servers when the test bundle is done.
    private final class StopAtEnd: NSObject, XCTestObservation {
        func testBundleDidFinish(_ testBundle: Bundle) {
            CalDAVTestServer.lock.lock()
            let all = CalDAVTestServer.servers.values
            CalDAVTestServer.servers = [:]
            CalDAVTestServer.lock.unlock()
            for server in all { server.stop() }
        }
    }

    /// One item of a list, as the phone (python3-caldav) sees it.
    struct Item: Decodable, Equatable {
        var uid: String
        var href: String
        var summary: String
        var description: String
        var status: String
        var completed: Bool
        var due: String?
        var geo: [Double]?
        var location: String?
        var apple_location: String?
        var alarms: [Alarm]

        struct Alarm: Decodable, Equatable {
            var action: String
            var trigger: String?
            var proximity: String?
            var apple_proximity: String?
        }
    }

    /// Runs Tests/Servers/caldav-phone.py on `list` (the phone's side); returns its output.
    @discardableResult
    func phone(_ list: String, _ arguments: [String]) throws -> String {
        let script = PythonTestServerProcess.serversDirectory.appendingPathComponent("caldav-phone.py").path
        let result = try TriageProcess.run([script, url, user, password, caFile, list] + arguments,
                                           executable: URL(fileURLWithPath: "/usr/bin/python3"))
        guard result.status == 0 else {
            throw NSError(domain: "CalDAVTestServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "caldav-phone.py \(arguments): \(result.err)"])
        }
        return result.out
    }

    /// The requests the server received so far, one line each ("PROPFIND /path"), from
    /// Radicale's log or the TLS proxy's in front of Xandikos: counted by the server
    /// side, not by triage.
    func requests() -> [String] {
        if script == "radicale.sh" {
            // [time] [thread] [INFO] PROPFIND request for '/me/' received from 127.0.0.1 ...
            let log = (try? String(contentsOfFile: directory + "/radicale.log", encoding: .utf8)) ?? ""
            return log.split(separator: "\n").compactMap { line in
                guard let r = line.range(of: "] [INFO] "), line.contains(" request for '") else { return nil }
                let words = line[r.upperBound...].split(separator: " ")
                return words.count > 3 ? "\(words[0]) \(words[3].trimmingCharacters(in: CharacterSet(charactersIn: "'")))" : nil
            }
        }
        let log = (try? String(contentsOfFile: directory + "/requests.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
    }

    /// The items of `list` as the phone sees them, by UID.
    func items(_ list: String) throws -> [Item] {
        try JSONDecoder().decode([Item].self, from: Data(try phone(list, ["list"]).utf8))
    }
}

/// A store and configuration for one sync test: `[caldav phone]` with its own list names.
struct CalDAVTestFolder {
    let dir: String
    let server: CalDAVTestServer
    let reminders: String
    let rec: String
    var config: String { dir + "/triage.conf" }
    let store: Store
    let zone = TimeZone(identifier: "Europe/Berlin")!

    init(_ purpose: String, server: CalDAVTestServer, extra: String = "") throws {
        self.server = server
        let tag = UUID().uuidString.prefix(8)
        dir = NSTemporaryDirectory() + "triage-\(purpose)-\(tag)"
        reminders = "Reminders \(tag)"
        rec = "Receipts \(tag)"
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try "".write(toFile: dir + "/rules/test.rules", atomically: true, encoding: .utf8)
        store = Store(path: dir + "/store", timeZone: zone)
        try writeConfig(extra: extra)
    }

    /// `triage.conf`; the password is read by `password_command` from the file `pw`.
    func writeConfig(password: String? = nil, caFile: String? = nil, url: String? = nil, extra: String = "") throws {
        try (password ?? server.password).write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
        let text = """
        [triage]
        rules = rules
        store = store
        timezone = Europe/Berlin

        [place Office]
        at = 52.52,13.405
        radius = 150 m

        [caldav phone]
        url = \(url ?? server.url)
        user = \(server.user)
        password_command = cat \(dir)/pw
        ca_file = \(caFile ?? server.caFile)
        reminders = \(reminders)
        queue.rec = \(rec)
        \(extra)
        """
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
    }

    func triage(_ args: [String], environment: [String: String] = [:]) throws -> TriageProcess.Result {
        try TriageProcess.run(args + ["--config", config], environment: environment)
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }

    /// A record id: 32 hex digits ending in `n`.
    static func id(_ n: Int) -> String { String(format: "%032x", n) }

    static let created = Timestamp(secondsSince1970: 1_764_000_000, utcOffsetSeconds: 3600)

    /// A reminder in the store (open unless said).
    @discardableResult
    func addReminder(_ id: String, _ title: String, due: CivilDate, at: TimeOfDay? = nil, place: Place? = nil,
                     note: String? = nil, status: WorkStatus = .open) throws -> Reminder {
        let r = Reminder(id: id, title: title, note: note, due: due, at: at, place: place, status: status, created: Self.created,
                         statusChanged: status == .open ? nil : Self.created)
        try store.put(r)
        return r
    }

    /// A queue entry in the store.
    @discardableResult
    func addQueueEntry(_ id: String, queue: String, subject: String, due: CivilDate) throws -> QueueEntry {
        let message = MessageSummary(from: Address(name: "Shop", address: "orders@shop.example"), subject: subject,
                                     date: "Mon, 1 Dec 2026 09:00:00 +0100", messageID: "\(id.prefix(8))@mail.example",
                                     account: "test", mailbox: "INBOX", uid: 7)
        let e = QueueEntry(id: id, queue: queue, created: Self.created, due: due, rule: "receipts", message: message)
        try store.put(e)
        return e
    }

    func reminder(_ id: String) -> Reminder? { store.reminders().records.first { $0.id == id } }
    func entry(_ id: String) -> QueueEntry? { store.queueEntries().records.first { $0.id == id } }
}
