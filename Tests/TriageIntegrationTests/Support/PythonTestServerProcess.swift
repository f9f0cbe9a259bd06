import Foundation

/// Runs one of the Python servers in Tests/Servers (with Debian's
/// /usr/bin/python3) in its own work folder and waits for its `ready.json`.
///
/// The servers pick free ports themselves (bind to port 0) and write them to
/// `ready.json`, so there is no race for a port. They exit on SIGTERM, which
/// this process sends at exit, and on their own when their parent goes away.
final class PythonTestServerProcess: @unchecked Sendable {
    /// The folder holding this test run's files for the server.
    let workDirectory: URL
    /// The parsed `ready.json`.
    let ready: [String: Any]
    private let process: Process

    /// Tests/Servers, found from this source file.
    static let serversDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Servers")

    /// Starts `script` with `arguments` after the work folder; throws with the server's log if it does not come up.
    init(script: String, arguments: [String] = [], environment: [String: String] = [:], timeout: TimeInterval = 15) throws {
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("triage-\(script.replacingOccurrences(of: ".py", with: ""))-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let log = work.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.serversDirectory.appendingPathComponent(script).path, work.path] + arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        // A file, not a pipe: nobody would drain a pipe and the server could block on it.
        process.standardOutput = logHandle
        process.standardError = logHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()

        let readyFile = work.appendingPathComponent("ready.json")
        let deadline = Date().addingTimeInterval(timeout)
        var ready: [String: Any]?
        while Date() < deadline {
            if let data = try? Data(contentsOf: readyFile),
               let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                ready = object
                break
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        guard let ready else {
            if process.isRunning { process.terminate() }
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw NSError(domain: "PythonTestServerProcess", code: 1, userInfo: [
                NSLocalizedDescriptionKey: "\(script) did not start within \(timeout) s. Is the Debian package installed "
                    + "(scripts/install-deps --test)? Log:\n\(text)",
            ])
        }
        self.workDirectory = work
        self.ready = ready
        self.process = process
        Self.register(process.processIdentifier, folder: work.path)
    }

    /// Stops the server.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    // Servers still running at exit get SIGTERM (they also watch their parent),
    // and their work folders are removed.
    private nonisolated(unsafe) static var pids: [pid_t] = []
    private nonisolated(unsafe) static var folders: [String] = []
    private static let lock = NSLock()
    private static let atExitInstalled: Void = {
        atexit {
            PythonTestServerProcess.lock.lock()
            for pid in PythonTestServerProcess.pids { kill(pid, SIGTERM) }
            for pid in PythonTestServerProcess.pids { waitpid(pid, nil, 0) }
            for folder in PythonTestServerProcess.folders { try? FileManager.default.removeItem(atPath: folder) }
            PythonTestServerProcess.lock.unlock()
        }
    }()

    private static func register(_ pid: pid_t, folder: String) {
        _ = atExitInstalled
        lock.lock()
        pids.append(pid)
        folders.append(folder)
        lock.unlock()
    }

    /// An integer from `ready.json`.
    func int(_ key: String) -> Int { (ready[key] as? Int) ?? (ready[key] as? NSNumber)?.intValue ?? 0 }
    /// A string from `ready.json`.
    func string(_ key: String) -> String { (ready[key] as? String) ?? "" }
    /// A list of numbers from `ready.json`.
    func ints(_ key: String) -> [Int] { (ready[key] as? [Any])?.compactMap { ($0 as? Int) ?? ($0 as? NSNumber)?.intValue } ?? [] }
}
