import Foundation

/// Starts helper processes with posix_spawn and reaps them with waitpid.
///
/// Foundation's `Process` is not used: its wait never returned once Dovecot had
/// daemonised from the child. Standard input and output go to /dev/null (Dovecot
/// keeps inherited descriptors open, so never a pipe); standard error to a file.
enum Spawn {
    /// Starts `argv` and returns its pid.
    static func start(_ argv: [String], errorFile: String) throws -> pid_t {
        try launch(argv, output: "/dev/null", errorFile: errorFile)
    }

    /// Starts `argv` with standard input from /dev/null, standard output into `output`
    /// and standard error into `errorFile` (nil: into `output` too); its pid.
    private static func launch(_ argv: [String], output: String, errorFile: String?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errorFile {
            posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard result == 0 else {
            throw NSError(domain: "Spawn", code: Int(result),
                          userInfo: [NSLocalizedDescriptionKey: "cannot run \(argv[0]): errno \(result)"])
        }
        return pid
    }

    /// Waits for `pid` and returns its exit status (128+signal when killed).
    @discardableResult
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Runs `argv` to the end; throws with its standard error unless it exits 0.
    static func run(_ argv: [String]) throws {
        let errorFile = NSTemporaryDirectory() + "triage-spawn-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err"
        defer { try? FileManager.default.removeItem(atPath: errorFile) }
        let code = wait(try start(argv, errorFile: errorFile))
        guard code == 0 else {
            let errors = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
            throw NSError(domain: "Spawn", code: Int(code),
                          userInfo: [NSLocalizedDescriptionKey: "\(argv.joined(separator: " ")) exited \(code): \(errors)"])
        }
    }
}

extension Spawn {
    /// Runs `argv` to the end with standard output and error into `output`; its exit status.
    static func runCapturing(_ argv: [String], output: String) throws -> Int32 {
        wait(try launch(argv, output: output, errorFile: nil))
    }
}
