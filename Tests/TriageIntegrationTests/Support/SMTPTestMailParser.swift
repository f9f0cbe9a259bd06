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
    var reply_to: [Mailbox]?
    var message_id: String?
    var headers: [String]
    var content_type: String
    var text: String?
    var html: String?
    var defects: [String]

    /// Parses the message file at `url`; throws with Python's error output if the script fails.
    static func parse(_ url: URL) throws -> SMTPTestMailParser {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [PythonTestServerProcess.serversDirectory.appendingPathComponent("parse_email.py").path, url.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "SMTPTestMailParser", code: Int(process.terminationStatus), userInfo: [
                NSLocalizedDescriptionKey: "parse_email.py \(url.path) failed: " + String(decoding: errData, as: UTF8.self),
            ])
        }
        return try JSONDecoder().decode(SMTPTestMailParser.self, from: data)
    }
}
