import Foundation
import XCTest

/// What Python's `email` package (policy default) reads from a message, via
/// Tests/Servers/parse_email.py run by /usr/bin/python3.
struct PythonEmail: Decodable {
    struct Mailbox: Decodable, Equatable {
        var name: String
        var address: String
    }

    var subject: String?
    var from: [Mailbox]
    var to: [Mailbox]
    var date: String?
    var message_id: String?
    var headers: [String]
    var content_type: String
    var text: String?
    var html: String?
    var defects: [String]

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Servers/parse_email.py").path

    /// Parses `message` (the raw bytes) with Python.
    static func parse(_ message: String) throws -> PythonEmail {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("triage-pyemail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("m.eml")
        try Data(message.utf8).write(to: file)
        return try parse(file: file.path)
    }

    /// Parses a message file with Python.
    static func parse(file: String) throws -> PythonEmail {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, file]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "PythonEmail", code: Int(process.terminationStatus), userInfo: [
                NSLocalizedDescriptionKey: String(decoding: errData, as: UTF8.self),
            ])
        }
        return try JSONDecoder().decode(PythonEmail.self, from: data)
    }
}
