import Foundation

/// The scripted IMAP server for `triage watch` against hostile servers
/// (Tests/Servers/watch-imap.py): any number of connections, each closed right
/// after login, or on IDLE, or flooded with EXISTS in IDLE, or served normally.
/// Uses the Dovecot harness's test certificate for localhost.
final class WatchIMAPServer {
    /// What each new connection gets; see watch-imap.py.
    enum Mode: String {
        case closeAfterLogin = "close-after-login", closeOnIdle = "close-on-idle", existsFlood = "exists-flood"
        case normal
    }

    private let process: PythonTestServerProcess

    /// Starts the server in `mode`.
    init(_ mode: Mode, dovecot: DovecotServer) throws {
        process = try PythonTestServerProcess(script: "watch-imap.py", arguments: [
            mode.rawValue, dovecot.directory + "/ssl/server.pem", dovecot.directory + "/ssl/server.key",
        ])
    }

    /// The port on 127.0.0.1.
    var port: UInt16 { UInt16(process.int("port")) }

    /// The mode of the next connections (a connection idling in `normal` is closed).
    func set(_ mode: Mode) throws {
        let path = process.workDirectory.appendingPathComponent("mode").path
        try mode.rawValue.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        rename(path + ".tmp", path)
    }

    /// One command line the server got: when (seconds since it started) and what.
    struct Command {
        let seconds: Double
        let text: String
    }

    /// The command lines so far (LOGIN arguments masked).
    var commands: [Command] {
        ((try? String(contentsOf: process.workDirectory.appendingPathComponent("commands"), encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { line in
                let words = line.split(separator: " ", maxSplits: 2)
                guard words.count == 3, let seconds = Double(words[0]) else { return nil }
                return Command(seconds: seconds, text: String(words[2]))
            }
    }

    /// How many commands so far contain `word` (` LOGIN `, ` SELECT `).
    func count(_ word: String) -> Int { commands.filter { " \($0.text) ".contains(word) }.count }

    func stop() { process.stop() }
}
