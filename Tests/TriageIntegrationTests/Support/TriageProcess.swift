import Foundation

/// Runs the built `triage` binary (next to the test bundle) and collects its
/// exit status and output. Every integration test that runs the binary goes
/// through here.
enum TriageProcess {
    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("triage")
    }

    /// Runs `triage ARGS` and returns its result and peak resident memory in KiB
    /// (through Tests/Servers/maxrss.py).
    static func measured(_ args: [String], environment: [String: String] = [:]) throws -> (Result, kilobytes: Int) {
        let out = NSTemporaryDirectory() + "triage-maxrss-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let script = PythonTestServerProcess.serversDirectory.appendingPathComponent("maxrss.py").path
        var result = try run([script, out, binary.path] + args, environment: environment,
                             executable: URL(fileURLWithPath: "/usr/bin/python3"))
        if result.status > 128 { result.status = -(result.status - 128) }
        let kilobytes = Int((try? String(contentsOfFile: out, encoding: .utf8)) ?? "") ?? 0
        return (result, kilobytes)
    }

    /// Runs `triage ARGS` in `directory` (default: the test's own), with
    /// `input` on standard input (closed when nil).
    ///
    /// `environment` is added to the test process's environment, or with
    /// `inheritEnvironment: false` is the whole environment (for tests that
    /// must not see the developer's HOME or XDG folders).
    static func run(_ args: [String], environment: [String: String] = [:], inheritEnvironment: Bool = true,
                    directory: String? = nil, input: Data? = nil, executable: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = args
        var env = inheritEnvironment ? ProcessInfo.processInfo.environment : [:]
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // Standard input comes from a file, not a pipe: a triage that exits
        // without reading it can then neither block us nor raise SIGPIPE here.
        var inputFile: String?
        if let input {
            let path = FileManager.default.temporaryDirectory.path + "/triage-stdin-" + UUID().uuidString
            try input.write(to: URL(fileURLWithPath: path))
            inputFile = path
        }
        defer { if let inputFile { try? FileManager.default.removeItem(atPath: inputFile) } }
        process.standardInput = try inputFile.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) }
            ?? FileHandle.nullDevice
        try process.run()
        // Standard error drains on another thread so neither pipe can fill up while we read the other.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        return Result(status: status, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }
}
