import Foundation

/// Reads a received message with Python's `email` package (policy default)
/// through Tests/Servers/parse_email.py.
public struct SMTPTestMailParser: Decodable {
    /// One address of a header field, as Python's `email` splits it.
    public struct Mailbox: Decodable, Equatable {
        public var name: String
        public var address: String

        public init(name: String, address: String) {
            self.name = name
            self.address = address
        }
    }

    public var subject: String?
    public var from: [Mailbox]
    public var to: [Mailbox]
    public var reply_to: [Mailbox]?
    public var message_id: String?
    public var headers: [String]
    public var content_type: String
    public var text: String?
    public var html: String?
    public var defects: [String]

    /// Tests/Servers/parse_email.py.
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Servers/parse_email.py").path

    /// Parses the message file at `url`; throws with Python's error output if the script fails.
    public static func parse(_ url: URL) throws -> SMTPTestMailParser {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, url.path]
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
