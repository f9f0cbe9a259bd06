import Foundation

/// Reads a received message with Python's `email` package (policy default)
/// through Tests/Servers/parse_email.py.
struct SMTPTestMailParser: Decodable {
    struct Mailbox: Decodable, Equatable {
        var name: String
        var address: String
    }

    var subject: String?
    var from: [Mailbox]
    var to: [Mailbox]
    var message_id: String?
    var headers: [String]
    var content_type: String
    var text: String?
    var html: String?
    var defects: [String]

    /// Parses the message file at `url`.
    static func parse(_ url: URL) throws -> SMTPTestMailParser {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [PythonTestServerProcess.serversDirectory.appendingPathComponent("parse_email.py").path, url.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(SMTPTestMailParser.self, from: data)
    }
}
