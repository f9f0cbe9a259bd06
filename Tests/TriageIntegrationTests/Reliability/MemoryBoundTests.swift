import Foundation
import XCTest

/// Peak memory (resident set, from getrusage) of `triage run --all` does not grow
/// with the number of accounts or the size of the mailbox: the run holds one batch
/// at a time. `TRIAGE_BIG_MAILBOX` sets the large mailbox (default 1,500 in the
/// suite; Tests/long/big-mailbox.sh runs 100,000).
final class MemoryBoundTests: XCTestCase {
    private var server: DovecotServer!
    private var dir = ""

    override func setUpWithError() throws {
        server = try DovecotServer.shared()
        dir = NSTemporaryDirectory() + "triage-memory-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        try RunSandbox.rules(webhook: "http://127.0.0.1:9/unused")
            .replacingOccurrences(of: ", webhook \"http://127.0.0.1:9/unused\"", with: "")
            .write(toFile: dir + "/rules/test.rules", atomically: true, encoding: .utf8)
        try DovecotServer.password.write(toFile: dir + "/pw", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A user with `count` messages of every kind, and the folders the rules move to.
    private func user(_ count: Int) throws -> String {
        let user = try server.makeUser("memory")
        for mailbox in RunSandbox.mailboxes where mailbox != "INBOX" { try server.createMailbox(user: user, mailbox) }
        for i in 0..<count {
            let (text, flags) = RunSandbox.message("b\(i)", kind: i)
            try server.seed(user: user, text, flags: flags.replacingOccurrences(of: "a", with: ""))
        }
        return user
    }

    /// Runs `triage run --all` over the accounts; returns the peak RSS in MiB.
    private func peak(_ users: [String], name: String) throws -> Int {
        var text = "[triage]\nme = me@example.test\nrules = rules\nstore = store-\(name)\ntimezone = UTC\n"
        for (i, user) in users.enumerated() {
            text += "\n[account a\(i)]\nurl = imaps://localhost:\(server.imapsPort)\nuser = \(user)\n"
                + "password_command = cat \(dir)/pw\nca_file = \(server.caFile)\n"
        }
        let config = dir + "/\(name).conf"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let started = Date()
        let (result, kilobytes) = try TriageProcess.measured(["run", "--all", "--config", config])
        XCTAssertEqual(result.status, 0, result.err)
        print("memory \(name): \(users.count) accounts, peak \(kilobytes / 1024) MiB in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        for i in users.indices {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/store-\(name)/state/a\(i)/INBOX.json"), "account a\(i) ran")
        }
        return kilobytes / 1024
    }

    func testTenAccountsRunInTheMemoryOfOne() throws {
        let users = try (0..<10).map { _ in try user(60) }
        let one = try peak([users[0]], name: "one")
        let ten = try peak(users, name: "ten")
        XCTAssertLessThan(ten, one + 15, "ten accounts \(ten) MiB, one \(one) MiB")
    }

    func testLargeMailboxRunsInBoundedMemory() throws {
        let count = ProcessInfo.processInfo.environment["TRIAGE_BIG_MAILBOX"].flatMap(Int.init) ?? 1_500
        let small = try peak([try user(200)], name: "small")
        let seeded = Date()
        let big = try user(count)
        print("memory: seeded \(count) messages in \(String(format: "%.1f", Date().timeIntervalSince(seeded))) s")
        let large = try peak([big], name: "large-\(count)")
        XCTAssertLessThan(large, small + 40, "\(count) messages: \(large) MiB; 200 messages: \(small) MiB")
    }
}
