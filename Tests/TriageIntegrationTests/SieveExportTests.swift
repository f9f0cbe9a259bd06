import Foundation
import TriageCore
import XCTest

/// `triage export sieve` against Pigeonhole's `sieve-test` (Debian `dovecot-sieve`):
/// for every rule case file (`Tests/TriageCoreTests/RuleCases`, the error cases aside)
/// and every demo and fixture message, the folder and the flags the exported script
/// gives equal what `triage test` plans for the rules the export took. Rules after
/// the first one left to triage are not exported (what it would do is unknown to the
/// script), so triage is asked about the rules before it. A message whose address fields
/// the script's guard does not trust is left in the inbox untouched, for triage.
final class SieveExportTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    private var dir = ""

    override func setUpWithError() throws {
        dir = try SieveTestFolder.make(prefix: "triage-sieve")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The demo Maildir's messages and the MIME fixtures, copied where uid 65534 may read them.
    private func messages() throws -> [String] {
        var sources: [String] = []
        let demo = Self.root + "/Examples/demo/Maildir"
        for sub in ["cur", "new"] {
            sources += try FileManager.default.contentsOfDirectory(atPath: demo + "/" + sub).filter { !$0.hasPrefix(".") }
                .map { demo + "/" + sub + "/" + $0 }
        }
        let fixtures = Self.root + "/Tests/TriageMIMETests/Fixtures"
        for case let path as String in FileManager.default.enumerator(atPath: fixtures)! where path.hasSuffix(".eml") {
            sources.append(fixtures + "/" + path)
        }
        XCTAssertGreaterThanOrEqual(sources.count, 60)
        return try sources.sorted().enumerated().map { index, source in
            let copy = dir + "/messages/m\(index).eml"
            try FileManager.default.copyItem(atPath: source, toPath: copy)
            chmod(copy, 0o644)
            return copy
        }
    }

    /// What a message ends as: its folder and its flags (keywords as the server keeps
    /// them, system flags lower-cased as sieve-test prints them).
    private struct Outcome: Equatable, CustomStringConvertible {
        var folder = "INBOX"
        var flags: Set<String> = []
        var description: String { "\(folder) \(flags.sorted())" }
    }

    /// Writes a configuration with the case's identities and time zone around `rules`.
    private func configure(_ name: String, rules: String, caseText: String) throws -> String {
        let folder = dir + "/" + name
        try FileManager.default.createDirectory(atPath: folder + "/rules", withIntermediateDirectories: true)
        try rules.write(toFile: folder + "/rules/case.rules", atomically: true, encoding: .utf8)
        var me = "me@example.test, me.alias@example.test", zone = "America/Chicago"
        for line in caseText.split(separator: "\n") where line.hasPrefix("# config:") {
            let pair = line.dropFirst(9).split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == "me" { me = pair[1] }
            if pair.count == 2, pair[0] == "timezone" { zone = pair[1] }
        }
        try "[triage]\n\(me.isEmpty ? "" : "me = \(me)\n")rules = rules\nstore = store\ntimezone = \(zone)\n"
            .write(toFile: folder + "/triage.conf", atomically: true, encoding: .utf8)
        try Spawn.run(["/bin/chmod", "-R", "go-w", folder])
        return folder + "/triage.conf"
    }

    /// What `triage test --json` plans, as an outcome per message file.
    private func triageOutcomes(config: String, _ files: [String]) throws -> [String: Outcome] {
        let result = try TriageProcess.run(["test", "--json", "--now", "2026-03-02T09:00:00-06:00", "--config", config] + files)
        XCTAssertEqual(result.status, 0, result.err)
        var outcomes: [String: Outcome] = [:]
        for line in result.out.split(separator: "\n") {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            var outcome = Outcome()
            var filed = false
            for match in object["matched"] as? [[String: Any]] ?? [] {
                for action in match["actions"] as? [[String: Any]] ?? [] {
                    switch action["type"] as? String {
                    case "label": outcome.flags.insert(LabelCodec.keyword(for: action["name"] as! String)!)
                    case "flag": outcome.flags.insert("\\flagged")
                    case "mark" where action["state"] as? String == "read": outcome.flags.insert("\\seen")
                    case "move" where !filed: outcome.folder = action["folder"] as! String; filed = true
                    case "archive" where !filed: outcome.folder = "Archive"; filed = true
                    default: break
                    }
                }
            }
            outcomes[object["file"] as! String] = outcome
        }
        return outcomes
    }

    /// What Pigeonhole does with `message` under `script`.
    private func sieveOutcome(script: String, message: String) throws -> Outcome {
        let (status, text) = try SieveTestFolder.run(in: dir, script: script, message: message)
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("final result: success"), text)
        var outcome = Outcome(folder: "", flags: [])
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("* store message in folder: ") {
                XCTAssertEqual(outcome.folder, "", "one folder only: \(text)")
                outcome.folder = String(line.dropFirst("* store message in folder: ".count))
            } else if line.hasPrefix("+ add IMAP flags: ") {
                for flag in line.dropFirst("+ add IMAP flags: ".count).split(separator: " ") {
                    outcome.flags.insert(flag.hasPrefix("\\") ? flag.lowercased() : String(flag))
                }
            }
        }
        return outcome
    }

    func testTheExportedScriptFilesAndFlagsAsTriageTestPlans() throws {
        let messages = try messages()
        let cases = Self.root + "/Tests/TriageCoreTests/RuleCases"
        var compared = 0, exportedFiles = 0, acted = 0, left = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: cases).sorted() where name.hasSuffix(".rules") {
            let text = try String(contentsOfFile: cases + "/" + name, encoding: .utf8)
            // Files that must fail to compile, or need places, are not rule sets to export.
            if text.contains("# expect error") || text.contains("# config: place") { continue }
            let config = try configure(name, rules: text, caseText: text)
            let export = try TriageProcess.run(["export", "sieve", "--config", config])
            XCTAssertEqual(export.status, 0, "\(name): \(export.err)")
            guard export.out.contains("if allof (") else { continue }
            exportedFiles += 1
            // The guard's "left to triage" branch marked, so the test sees which messages
            // the script leaves alone (kept in the inbox untouched, filed by triage later).
            let guardStop = "  stop;\n}\n"
            XCTAssertLessThanOrEqual(export.out.components(separatedBy: guardStop).count, 2, export.out)
            let script = dir + "/" + name + ".sieve"
            try export.out.replacing(guardStop, with: "  addflag \"left-to-triage\";\n" + guardStop)
                .write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o644)
            // The rules triage is asked about: those before the first one left to triage
            // that blocks the rest (the later ones follow it out).
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for line in export.err.split(separator: "\n") where line.contains(" left to triage: ") {
                let reason = line.components(separatedBy: " left to triage: ")[1]
                // A rule behind the guard is asked about too: the script leaves alone every
                // message it may match, so on the rest it matches nothing.
                if reason.hasPrefix("local actions only") || reason.hasPrefix("an earlier rule")
                    || reason.hasSuffix("the script leaves mail this rule may match untouched, for triage") { continue }
                let place = line.components(separatedBy: "/case.rules:")[1].prefix { $0.isNumber }
                lines = Array(lines.prefix(Int(place)! - 1))
                break
            }
            let prefix = try configure(name + ".prefix", rules: lines.joined(separator: "\n") + "\n", caseText: text)
            let expected = try triageOutcomes(config: prefix, messages)
            for message in messages {
                let actual = try sieveOutcome(script: script, message: message)
                if actual.flags.contains("left-to-triage") {
                    XCTAssertEqual(actual, Outcome(flags: ["left-to-triage"]), "\(name), \(message): left to triage untouched")
                    left += 1
                    continue
                }
                XCTAssertEqual(actual, expected[message], "\(name), \(message): Sieve \(actual), triage \(expected[message].map(\.description) ?? "-")")
                compared += 1
                if actual != Outcome() { acted += 1 }
            }
        }
        XCTAssertGreaterThan(exportedFiles, 1, "some rule cases export")
        XCTAssertGreaterThan(acted, 20, "the scripts file or flag a good part of the messages")
        // Only the odd fixtures (groups with comments, repeated fields, `<>`, a quoted
        // local part, controls) are left to triage, not the usual mail.
        XCTAssertLessThan(left * 10, compared, "the script reads most messages itself")
        print("sieve export: \(exportedFiles) rule files exported, \(compared) messages compared with sieve-test, \(acted) filed or flagged, "
              + "\(left) left to triage by the guard")
    }
}

/// What `triage export sieve` says it leaves to triage, and why.
final class SieveExportListingTests: XCTestCase {
    func testEveryRuleLeftToTriageIsListedWithItsReason() throws {
        let folder = try TestFolder("sieve-listing", rules: """
        rule "local" when from:@shop.example then queue rec
        rule "bank" when from:@bank.example then label "money", archive, digest "Money"
        rule "words" when subject:invoice then move "Receipts"
        rule "later" when from:boss@example.test then flag

        """)
        defer { folder.remove() }
        try folder.writeConfig([ConfigSection.triage(), ConfigSection("account main", ["url": "maildir:\(folder.dir)",
                                                                                        "archive": "Done"])])
        let export = try folder.triage(["export", "sieve"])
        XCTAssertEqual(export.status, 0, export.err)
        let lines = export.err.split(separator: "\n").map(String.init)
        let rules = folder.dir + "/rules/test.rules"
        XCTAssertEqual(lines, [
            "triage: export sieve: rule \"local\" (\(rules):1) left to triage: local actions only (queue, remind, digest, webhook): triage does them",
            "triage: export sieve: rule \"words\" (\(rules):3) left to triage: subject:invoice: matches whole words, which Sieve's "
                + ":contains cannot express (it finds 'cat' in 'concatenate')",
            "triage: export sieve: rule \"later\" (\(rules):4) left to triage: an earlier rule, \"words\", is left to triage and may "
                + "change what this one does",
            "triage: export sieve: archive files into \"Done\"",
            "triage: export sieve: the script files mail into \"Done\"; once triage deploy sieve has put the script on the "
                + "server, triage run reads that folder too (when it exists), so the rules' local actions (queue, remind, digest, "
                + "webhook) still happen; a script installed another way: add the folder to mailboxes =",
        ])
        XCTAssertTrue(export.out.contains("addflag \"money\";"), export.out)
        XCTAssertTrue(export.out.contains("set \"folder\" \"Done\";"), export.out)
        XCTAssertFalse(export.out.contains("Receipts") || export.out.contains("Flagged"), export.out)
    }
}
