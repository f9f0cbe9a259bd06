import Foundation

/// The cut-off proxy of the tests (Tests/Servers/cutoff-proxy.py) in front of one
/// Dovecot address: passes connections through, or cuts them off after N bytes.
final class CutoffProxy {
    private let process: PythonTestServerProcess

    /// A proxy to `host:port`.
    init(to host: String, port: UInt16) throws {
        process = try PythonTestServerProcess(script: "cutoff-proxy.py", arguments: [host, String(port)])
    }

    /// The proxy's port on 127.0.0.1.
    var port: UInt16 { UInt16(process.int("port")) }

    /// What the next connections get.
    enum Plan {
        case pass
        case drop(after: Int)
        case stall(after: Int)
    }

    /// Sets the plan for the next connections.
    func set(_ plan: Plan) throws {
        let text: String
        switch plan {
        case .pass: text = "pass"
        case .drop(let n): text = "drop \(n)"
        case .stall(let n): text = "stall \(n)"
        }
        let path = process.workDirectory.appendingPathComponent("plan").path
        try text.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        rename(path + ".tmp", path)
    }

    /// Bytes forwarded on each finished connection, in order.
    var totals: [Int] {
        ((try? String(contentsOf: process.workDirectory.appendingPathComponent("totals"), encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int($0) }
    }

    func stop() { process.stop() }

    // MARK: Live connections (triage watch)

    private var epoch = 0

    /// Cuts every connection open now (`stall: false`, a network drop) or leaves
    /// them open forwarding nothing more (`stall: true`, a silent connection), within
    /// about a second; later connections pass as the plan says.
    func cutLive(stall: Bool = false) throws {
        epoch += 1
        let path = process.workDirectory.appendingPathComponent("live").path
        try "\(epoch) \(stall ? "stall" : "cut")".write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        rename(path + ".tmp", path)
    }

    /// Waits up to `seconds` until a connection open at the last `cutLive` has been
    /// cut or stalled (the proxy looks about once a second); whether one has.
    func waitUntilCut(within seconds: Double = 10) -> Bool {
        let applied = process.workDirectory.appendingPathComponent("applied")
        return WatchProcess.waitUntil(seconds) {
            ((try? String(contentsOf: applied, encoding: .utf8)) ?? "").split(separator: "\n").contains("\(epoch)")
        }
    }
}
