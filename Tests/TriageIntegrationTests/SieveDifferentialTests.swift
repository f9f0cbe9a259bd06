import Foundation
import TriageCore
import XCTest

/// `triage export sieve` against Pigeonhole's `sieve-test` over generated hostile
/// headers (`HostileHeaderGenerator`): every term form the exporter emits is one rule
/// labelling the message with its own keyword, so one `sieve-test` run per message
/// gives every rule's verdict, and one `triage test --json` gives triage's for all
/// messages. They must agree on every message the script acts on. A message whose
/// headers Sieve could read otherwise than triage is left alone by the script (kept in
/// the inbox with no flag, for `triage run` to file): the rule "any", which matches
/// every message, shows whether the script acted.
final class SieveDifferentialTests: XCTestCase {
    private var dir = ""

    /// One rule per form the exporter emits (SieveExporter.test): whole addresses,
    /// `me`, domains, on From, To, Cc and Reply-To; `list:*`; `header:NAME:*`; NOT, OR, AND.
    static let rules: [String] = [
        "from:a@b.example", "from:evil@x.example", "from:me", "from:@b.example", "from:@example.test",
        "to:a@b.example", "to:me", "to:@b.example", "to:c@d.example",
        "cc:a@b.example", "cc:me", "cc:@b.example", "cc:evil@x.example",
        "replyto:a@b.example", "replyto:@x.example", "replyto:me",
        "list:*", "header:X-Mailer:*", "header:Sender:*", "header:List-Id:*",
        "-from:a@b.example", "-list:*", "{from:evil@x.example to:me}", "from:@b.example cc:me",
        "-{cc:me to:@b.example}", "{list:* -header:X-Mailer:*} -from:me",
    ]

    override func setUpWithError() throws {
        dir = try SieveTestFolder.make(prefix: "triage-sievediff")
        try FileManager.default.createDirectory(atPath: dir + "/config/rules", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func testSieveAndTriageAgreeOnHostileHeaders() throws {
        var rules = "rule \"any\" when -header:X-Never-Written-Zz:* then label \"any\"\n"
        for (index, query) in Self.rules.enumerated() { rules += "rule \"r\(index)\" when \(query) then label \"r\(index)\"\n" }
        try rules.write(toFile: dir + "/config/rules/diff.rules", atomically: true, encoding: .utf8)
        try "[triage]\nme = me@example.test, me.alias@example.test\nrules = rules\nstore = store\ntimezone = UTC\n"
            .write(toFile: dir + "/config/triage.conf", atomically: true, encoding: .utf8)
        try Spawn.run(["/bin/chmod", "-R", "go-w", dir + "/config"])

        let export = try TriageProcess.run(["export", "sieve", "--config", dir + "/config/triage.conf"])
        XCTAssertEqual(export.status, 0, export.err)
        XCTAssertFalse(export.err.contains(" left to triage: "), "every form is exported: \(export.err)")
        let script = dir + "/diff.sieve"
        try export.out.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o644)

        var generator = HostileHeaderGenerator(seed: 24_06)
        var files: [String] = []
        for number in 0..<600 {
            let file = dir + "/messages/h\(number).eml"
            try generator.message(number).write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o644)
            files.append(file)
        }

        let planned = try triageLabels(files)
        var disagreements: [String: Int] = [:], examples: [String] = [], left = 0, compared = 0
        for file in files {
            let (folder, flags) = try sieveOutcome(script: script, message: file)
            XCTAssertEqual(folder, "INBOX", file)
            let expected = try XCTUnwrap(planned[file])
            XCTAssertTrue(expected.contains("any"), file)
            guard flags.contains("any") else {
                // Left to triage: the script must not have done anything to it.
                XCTAssertEqual(flags, [], "a message the script leaves to triage gets no flag: \(file)")
                left += 1
                continue
            }
            compared += 1
            for rule in expected.symmetricDifference(flags) {
                let index = Int(rule.dropFirst())!
                let side = flags.contains(rule) ? "Sieve only" : "triage only"
                disagreements["\(Self.rules[index]) (\(side))", default: 0] += 1
                if examples.count < 40 {
                    let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                    let header = text.components(separatedBy: "\n\n").first ?? text
                    examples.append("\(Self.rules[index]): \(side), \((file as NSString).lastPathComponent):\n\(header)")
                }
            }
        }
        let total = disagreements.values.reduce(0, +)
        print("sieve differential: \(files.count) messages, \(compared) compared on \(Self.rules.count) rules, "
              + "\(left) left to triage, \(total) disagreements")
        for (kind, count) in disagreements.sorted(by: { $0.value > $1.value }) { print("  \(count)\t\(kind)") }
        XCTAssertEqual(total, 0, "disagreements:\n" + examples.joined(separator: "\n---\n"))
        // The guard must not leave everything to triage: the usual forms are read.
        XCTAssertGreaterThan(compared, files.count / 3, "the script acts on the usual forms")
    }

    /// The labels `triage test --json` plans per file.
    private func triageLabels(_ files: [String]) throws -> [String: Set<String>] {
        let result = try TriageProcess.run(["test", "--json", "--now", "2026-03-02T09:00:00-06:00",
                                            "--config", dir + "/config/triage.conf"] + files)
        XCTAssertEqual(result.status, 0, result.err)
        var labels: [String: Set<String>] = [:]
        for line in result.out.split(separator: "\n") {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            var set: Set<String> = []
            for match in object["matched"] as? [[String: Any]] ?? [] {
                for action in match["actions"] as? [[String: Any]] ?? [] where action["type"] as? String == "label" {
                    set.insert(action["name"] as! String)
                }
            }
            labels[object["file"] as! String] = set
        }
        XCTAssertEqual(labels.count, files.count)
        return labels
    }

    /// The folder and the keywords Pigeonhole gives `message`.
    private func sieveOutcome(script: String, message: String) throws -> (String, Set<String>) {
        let out = dir + "/sieve-test.out"
        var argv = ["/usr/bin/sieve-test"]
        if getuid() == 0 { argv += ["-c", dir + "/st.conf"] }
        let status = try Spawn.runCapturing(argv + [script, message], output: out)
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("final result: success"), text)
        var folder = "", flags: Set<String> = []
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("* store message in folder: ") {
                folder = String(line.dropFirst("* store message in folder: ".count))
            } else if line.hasPrefix("+ add IMAP flags: ") {
                flags.formUnion(line.dropFirst("+ add IMAP flags: ".count).split(separator: " ").map(String.init))
            }
        }
        return (folder, flags)
    }
}
