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
        try compare(count: 600, seed: 24_06)
    }

    /// A rule Sieve cannot evaluate (words) that moves and stops, in front of the forms: the
    /// script leaves every message its exact terms may match to triage (those from
    /// `@b.example` or replying to me, without a List-Id), and exports the rules after it
    /// for the rest, on which they agree with triage as before.
    func testARuleLeftToTriageBehindTheGuardDoesNotBlockTheLaterOnes() throws {
        try compare(count: 200, seed: 27_61, guarded: "rule \"held\" when {from:@b.example replyto:me} -list:* subject:hostile "
                    + "then label \"held\", move \"Held\", stop\n")
    }

    private func compare(count: Int, seed: UInt64, guarded: String = "") throws {
        var rules = "rule \"any\" when -header:X-Never-Written-Zz:* then label \"any\"\n" + guarded
        for (index, query) in Self.rules.enumerated() { rules += "rule \"r\(index)\" when \(query) then label \"r\(index)\"\n" }
        try rules.write(toFile: dir + "/config/rules/diff.rules", atomically: true, encoding: .utf8)
        try "[triage]\nme = me@example.test, me.alias@example.test\nrules = rules\nstore = store\ntimezone = UTC\n"
            .write(toFile: dir + "/config/triage.conf", atomically: true, encoding: .utf8)
        try Spawn.run(["/bin/chmod", "-R", "go-w", dir + "/config"])

        let export = try TriageProcess.run(["export", "sieve", "--config", dir + "/config/triage.conf"])
        XCTAssertEqual(export.status, 0, export.err)
        let left = export.err.split(separator: "\n").filter { $0.contains(" left to triage: ") }
        if guarded.isEmpty {
            XCTAssertEqual(left, [], "every form is exported")
        } else {
            XCTAssertEqual(left.count, 1, "only the guarded rule is left to triage: \(left)")
            XCTAssertTrue(left.allSatisfy { $0.hasSuffix("the script leaves mail this rule may match untouched, for triage") }, "\(left)")
        }
        let script = dir + "/diff.sieve"
        try export.out.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o644)

        var generator = HostileHeaderGenerator(seed: seed)
        var files: [String] = []
        for number in 0..<count {
            let file = dir + "/messages/h\(number).eml"
            try generator.message(number).write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o644)
            files.append(file)
        }

        let planned = try triageLabels(files)
        var disagreements: [String: Int] = [:], examples: [String] = [], leftAlone = 0, compared = 0, held = 0
        for file in files {
            let (folder, flags) = try sieveOutcome(script: script, message: file)
            XCTAssertEqual(folder, "INBOX", file)
            let expected = try XCTUnwrap(planned[file])
            XCTAssertTrue(expected.contains("any"), file)
            if expected.contains("held") { held += 1 }
            guard flags.contains("any") else {
                // Left to triage: the script must not have done anything to it.
                XCTAssertEqual(flags, [], "a message the script leaves to triage gets no flag: \(file)")
                leftAlone += 1
                continue
            }
            compared += 1
            XCTAssertFalse(expected.contains("held"), "Sieve acted on a message the guarded rule matches: \(file)")
            for rule in expected.symmetricDifference(flags) where rule.hasPrefix("r") {
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
              + "\(leftAlone) left to triage, \(total) disagreements")
        for (kind, count) in disagreements.sorted(by: { $0.value > $1.value }) { print("  \(count)\t\(kind)") }
        XCTAssertEqual(total, 0, "disagreements:\n" + examples.joined(separator: "\n---\n"))
        // The guard must not leave everything to triage: the usual forms are read.
        XCTAssertGreaterThan(compared, files.count / 3, "the script acts on the usual forms")
        if !guarded.isEmpty { XCTAssertGreaterThan(held, 10, "the guarded rule matches some messages") }
    }

    /// From fields an impersonator writes (and near misses): a name showing an address or
    /// a domain, plainly, quoted, encoded (Q and B), with full-width or ideographic dots, in
    /// charsets Sieve may not decode; and plain names and same-domain names that are no disguise.
    static let impersonatorFroms = [
        "\"PayPal <service@paypal.com>\" <evil@x.example>", "PayPal service@paypal.com <evil@x.example>",
        "\"service@paypal.com\" <evil@x.example>", "PayPal.com <evil@x.example>", "\"paypal.com\" <evil@x.example>",
        "=?utf-8?q?PayPal_service=40paypal=2Ecom?= <evil@x.example>",
        "=?utf-8?b?" + Data("PayPal paypal.com".utf8).base64EncodedString() + "?= <evil@x.example>",
        "\"paypal\u{FF0E}com\" <evil@x.example>", "paypal\u{3002}com <evil@x.example>", "service\u{FF20}paypal.com <evil@x.example>",
        "=?utf-8?q?paypal=EF=BC=8Ecom?= <evil@x.example>", "=?utf-8?q?paypal=E3=80=82com?= <evil@x.example>",
        "=?utf-7?q?PayPal+AC4-com?= <evil@x.example>", "=?x-unknown?q?paypal=2Ecom?= <evil@x.example>",
        "=?iso-8859-1?q?B=E4nk_bank=2Eexample?= <evil@x.example>", "evil@x.example (paypal.com)", "(paypal.com) evil@x.example",
        "\"bank.example\" <statements@bank.example>", "Bank <statements@mail.bank.example>", "Ann Example <a@b.example>",
        "\"Ann Example\" <a@b.example>", "a@b.example", "<a@b.example>", "=?utf-8?q?Ann_Ex=C3=A4mple?= <a@b.example>",
        "O'Brien <a@b.example>", "Ann\t<a@b.example>", "\"PayPal\" <evil@x.example>",
    ]

    /// The shipped rules (Rules/): the first, `is:impersonating -list:* … stop`, is left to
    /// triage, and the script leaves every message it may match alone, so the rules after
    /// it are exported and act exactly as triage on the rest.
    func testTheShippedRulesExportPastTheImpersonationRule() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        try FileManager.default.copyItem(atPath: root + "/Rules/default.rules", toPath: dir + "/config/rules/default.rules")
        try "[triage]\nme = me@example.test, me.alias@example.test\nrules = rules\nstore = store\ntimezone = UTC\n"
            .write(toFile: dir + "/config/triage.conf", atomically: true, encoding: .utf8)
        try Spawn.run(["/bin/chmod", "-R", "go-w", dir + "/config"])

        let export = try TriageProcess.run(["export", "sieve", "--config", dir + "/config/triage.conf"])
        XCTAssertEqual(export.status, 0, export.err)
        let exported = export.out.components(separatedBy: "\n# rule ").count - 1
        XCTAssertGreaterThan(exported, 0, "the rules after the impersonation rule are exported: \(export.err)")
        XCTAssertTrue(export.out.contains("# rule cc is for information only"), export.out)
        XCTAssertFalse(export.err.contains("an earlier rule"), export.err)
        let guardStop = "  stop;\n}\n"
        XCTAssertEqual(export.out.components(separatedBy: guardStop).count, 2, export.out)
        let script = dir + "/shipped.sieve"
        try export.out.replacing(guardStop, with: "  addflag \"left-to-triage\";\n" + guardStop)
            .write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o644)

        var files: [String] = []
        func add(_ text: String) throws {
            let file = dir + "/messages/s\(files.count).eml"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o644)
            files.append(file)
        }
        var generator = HostileHeaderGenerator(seed: 27_06)
        for number in 0..<400 { try add(generator.message(number)) }
        // Each impersonator's From on mail the cc rule would archive, with and without a List-Id.
        for (number, from) in Self.impersonatorFroms.enumerated() {
            for list in ["", "List-Id: Dev <dev.lists.b.example>\n"] {
                try add("From: \(from)\nTo: c@d.example\nCc: me@example.test\n\(list)Subject: imp \(number)\n"
                        + "Message-ID: <imp-\(number)-\(list.count)@generator.example>\nDate: Mon, 02 Mar 2026 08:00:00 -0600\n\nBody.\n")
            }
        }

        let result = try TriageProcess.run(["test", "--json", "--now", "2026-03-02T09:00:00-06:00",
                                            "--config", dir + "/config/triage.conf"] + files)
        XCTAssertEqual(result.status, 0, result.err)
        var matched: [String: Set<String>] = [:]
        for line in result.out.split(separator: "\n") {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            matched[object["file"] as! String] = Set((object["matched"] as? [[String: Any]] ?? []).map { $0["rule"] as! String })
        }
        var disagreements: [String] = [], left = 0, archived = 0, impersonating = 0
        for file in files {
            let rules = try XCTUnwrap(matched[file], file)
            let (folder, flags) = try sieveOutcome(script: script, message: file)
            if rules.contains("name shows another sender") { impersonating += 1 }
            if flags.contains("left-to-triage") {
                XCTAssertEqual(folder, "INBOX", file)
                XCTAssertEqual(flags, ["left-to-triage"], "left to triage untouched: \(file)")
                left += 1
                continue
            }
            // Sieve acted on it: triage must agree that the impersonation rule does not match,
            // and on whether the cc rule archives it.
            let sieveArchives = folder != "INBOX"
            if rules.contains("name shows another sender") || sieveArchives != rules.contains("cc is for information only") {
                let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                disagreements.append("\(file): Sieve \(folder) \(flags), triage \(rules.sorted()):\n"
                                     + (text.components(separatedBy: "\n\n").first ?? text))
            }
            if sieveArchives {
                archived += 1
                XCTAssertEqual(folder, "Archive", file)
                XCTAssertEqual(flags.count, 1, "the \"no push\" keyword: \(file)")
            }
        }
        print("shipped rules: \(exported) exported, \(files.count) messages, \(impersonating) impersonating, "
              + "\(left) left to triage, \(archived) archived by Sieve, \(disagreements.count) disagreements")
        XCTAssertEqual(disagreements, [])
        XCTAssertGreaterThan(impersonating, 20, "the messages include impersonators")
        XCTAssertGreaterThan(archived, 10, "the script archives cc'ed mail itself")
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
        let (status, text) = try SieveTestFolder.run(in: dir, script: script, message: message)
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
