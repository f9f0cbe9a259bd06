import Foundation
@testable import TriageApp
import TriageCore

/// What the app said, kept for the test (the executable's streams in real use).
final class CapturedOutput: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""

    func out(_ text: String) { lock.withLock { outText += text } }
    func err(_ text: String) { lock.withLock { errText += text } }
    var stdout: String { lock.withLock { outText } }
    var stderr: String { lock.withLock { errText } }
}

/// A configuration with one Maildir account (`local`, INBOX) and a rules folder in a
/// temporary folder, removed by `remove()`.
struct AppFolder {
    let dir: String
    let output = CapturedOutput()
    var config: String { dir + "/triage.conf" }

    init(_ purpose: String, rules: String, triage extra: String = "") throws {
        dir = NSTemporaryDirectory() + "triage-app-\(purpose)-\(UUID().uuidString.prefix(8))"
        for mailbox in ["", "/.Done"] {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: dir + "/mail" + mailbox + "/" + sub,
                                                        withIntermediateDirectories: true)
            }
        }
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try rules.write(toFile: dir + "/rules/test.rules", atomically: true, encoding: .utf8)
        let text = """
            [triage]
            rules = rules
            store = store
            timezone = Europe/Berlin
            \(extra)

            [account local]
            url = maildir:mail
            mailboxes = INBOX
            """
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
    }

    /// A context at a fixed instant (2026-12-01 10:00 UTC), its output captured.
    func context(now: Date = Date(timeIntervalSince1970: 1_764_583_200)) -> Context {
        Context(now: now, output: output, defaultConfigPath: config, defaultStore: dir + "/store")
    }

    func setup() throws -> RunSetup {
        try RunSetup.load(configOption: config, context: context(), withRules: true)
    }

    func deliver(_ subject: String) throws {
        try "From: a@example.test\nSubject: \(subject)\nMessage-ID: <\(UUID().uuidString)@example.test>\n\nHello.\n"
            .write(toFile: dir + "/mail/new/\(UUID().uuidString).test", atomically: true, encoding: .utf8)
    }

    func files(_ mailbox: String) -> Int {
        ["cur", "new"].reduce(0) { $0 + ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/mail" + mailbox + "/" + $1)) ?? []).count }
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }
}
