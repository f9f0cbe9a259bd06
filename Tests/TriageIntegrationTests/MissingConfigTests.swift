import Foundation
import XCTest

/// A missing configuration file is the same cause in every command, so the same
/// exit status: 66 (sysexits EX_NOINPUT), with the path and what to do.
final class MissingConfigTests: XCTestCase {
    func testEveryCommandExits66WithoutAConfiguration() throws {
        let missing = NSTemporaryDirectory() + "triage-no-config-\(UUID().uuidString.prefix(8))/triage.conf"
        let commands: [[String]] = [
            ["check"], ["run"], ["run", "--dry-run", "--all"], ["watch"], ["queue"], ["queue", "done", "3f2a"], ["remind"],
            ["remind", "add", "Call mum", "in", "2", "days"], ["digest", "--preview"], ["digest", "--send"],
            ["export", "ics", "--output", NSTemporaryDirectory() + "triage-never.ics"], ["test", "/etc/hostname"],
        ]
        for command in commands {
            let run = try TriageProcess.run(command + ["--config", missing])
            let label = command.joined(separator: " ")
            XCTAssertEqual(run.status, 66, "\(label): \(run.err)")
            XCTAssertTrue(run.err.contains(missing) && run.err.contains("no configuration file"), "\(label): \(run.err)")
            // The way out is a command, not a path in the clone (issue 27).
            XCTAssertTrue(run.err.contains("run 'triage init' to write one, or pass --config FILE"), "\(label): \(run.err)")
            XCTAssertFalse(run.err.contains("Examples/"), "\(label): \(run.err)")
        }
    }
}
