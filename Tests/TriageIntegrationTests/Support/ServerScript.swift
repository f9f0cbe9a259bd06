import Foundation

/// A throw-away server run by one of the scripts in Tests/Servers (dovecot.sh,
/// cyrus.sh, courier.sh, mailutils.sh): `SCRIPT start DIR` makes DIR and writes the
/// ports to DIR/ports as `NAME=PORT` lines; `SCRIPT stop DIR` stops it.
struct ServerScript {
    /// The script's path.
    let path: String

    /// Tests/Servers/NAME.
    init(_ name: String) {
        path = PythonTestServerProcess.serversDirectory.appendingPathComponent(name).path
    }

    /// Runs `SCRIPT ARGUMENTS` with bash.
    func run(_ arguments: [String]) throws {
        try Spawn.run(["/bin/bash", path] + arguments)
    }

    /// Starts the server in a fresh `directory`; returns its ports by name, which
    /// include `imap` and `imaps`.
    func start(in directory: String) throws -> [String: UInt16] {
        try? FileManager.default.removeItem(atPath: directory)
        try run(["start", directory])
        let text = try String(contentsOfFile: directory + "/ports", encoding: .utf8)
        var ports: [String: UInt16] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { ports[String(parts[0])] = UInt16(parts[1]) }
        }
        guard ports["imap"] != nil, ports["imaps"] != nil else {
            throw NSError(domain: "ServerScript", code: 1, userInfo: [NSLocalizedDescriptionKey: "bad ports file of \(path): \(text)"])
        }
        return ports
    }

    /// Stops the server and removes its folder.
    func stop(in directory: String) {
        try? run(["stop", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }
}
