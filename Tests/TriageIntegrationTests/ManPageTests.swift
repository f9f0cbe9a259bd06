import Foundation
@testable import triage
@testable import TriageConfig
import TriageCore
import XCTest

/// The man pages (man/*.1, man/*.5, mdoc written by hand): lint clean, and
/// complete against the tables the program itself reads: every command and
/// option of `--help` in triage(1), every key the configuration loader knows in
/// triage.conf(5), every operator and action of the rule language in triage-rules(5).
final class ManPageTests: XCTestCase {
    private static let pages = ["triage.1", "triage.conf.5", "triage-rules.5"]

    private static func path(_ page: String) -> String { InstalledCopy.root + "/man/" + page }

    /// The page as man shows it, without the overstrike of bold and underline.
    private static func rendered(_ page: String) throws -> String {
        let result = try TriageProcess.run(["-T", "ascii", "-O", "width=200", path(page)], executable: URL(fileURLWithPath: "/usr/bin/mandoc"))
        XCTAssertEqual(result.status, 0, result.err)
        var text = ""
        for c in result.out {
            if c == "\u{8}" { if !text.isEmpty { text.removeLast() } } else { text.append(c) }
        }
        return text
    }

    /// The text of section `name` (a heading at the start of a line) up to the next heading.
    private static func section(_ name: String, of text: String) -> String {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: name) else { return "" }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.first.map { $0.isASCII && $0.isUppercase } ?? false } ?? lines.endIndex
        return lines[(start + 1)..<end].joined(separator: "\n")
    }

    func testEveryPageLintsClean() throws {
        for page in Self.pages {
            let lint = try TriageProcess.run(["-T", "lint", "-W", "warning", Self.path(page)], executable: URL(fileURLWithPath: "/usr/bin/mandoc"))
            XCTAssertEqual(lint.status, 0, page + ": " + lint.out + lint.err)
            XCTAssertEqual(lint.out + lint.err, "", page)
            // man itself formats it without complaint.
            let man = try TriageProcess.run(["-l", Self.path(page)], environment: ["MANWIDTH": "80"],
                                            executable: URL(fileURLWithPath: "/usr/bin/man"))
            XCTAssertEqual(man.status, 0, page + ": " + man.err)
            XCTAssertTrue(man.out.contains("NAME"), page)
        }
    }

    /// Every command of `triage --help` has a synopsis in triage(1) that holds
    /// every option of `triage help COMMAND`, and an entry under COMMANDS.
    func testTriage1HasEveryCommandAndOptionOfTheHelp() throws {
        let text = try Self.rendered("triage.1")
        let synopsis = Self.section("SYNOPSIS", of: text)
        // Synopsis entries: a line starting with "triage", with its indented continuation lines.
        var entries: [String] = []
        for line in synopsis.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("triage ") { entries.append(trimmed) } else if !trimmed.isEmpty, !entries.isEmpty { entries[entries.count - 1] += " " + trimmed }
        }
        let commands = Self.section("COMMANDS", of: text)
        let help = try TriageProcess.run(["--help"])
        for command in CommandTable.all {
            let name = command.spec.name
            XCTAssertTrue(help.out.contains("  " + name + " "), "\(name) not in --help")
            let own = entries.filter { $0.hasPrefix("triage \(name) ") || $0 == "triage \(name)" }
            XCTAssertFalse(own.isEmpty, "no synopsis for \(name) in triage(1)")
            XCTAssertTrue(commands.contains("\n     \(name)") || commands.hasPrefix("     \(name)"), "\(name) not under COMMANDS")
            let words = Set(own.joined(separator: " ").components(separatedBy: CharacterSet(charactersIn: " []|")))
            let commandHelp = try TriageProcess.run(["help", name])
            for option in command.spec.options {
                for optionName in option.names {
                    XCTAssertTrue(commandHelp.out.contains(optionName), "\(optionName) not in triage help \(name)")
                    XCTAssertTrue(words.contains(optionName), "\(name) \(optionName) not in its synopsis in triage(1)")
                }
                XCTAssertTrue(commands.contains(option.label), "\(name) \(option.label) not described under COMMANDS")
            }
        }
        for option in ["--help", "--version", "-h"] {
            XCTAssertTrue(text.contains(option), option)
        }
        for heading in ["EXIT STATUS", "FILES", "ENVIRONMENT", "EXAMPLES"] {
            XCTAssertFalse(Self.section(heading, of: text).isEmpty, heading)
        }
        for status in ["64", "65", "66", "75", "77", "78"] {
            XCTAssertTrue(Self.section("EXIT STATUS", of: text).contains("     \(status)"), status)
        }
    }

    /// Every key of every section the configuration loader reads, under its section, as `key=`.
    func testTriageConf5HasEveryKeyTheLoaderKnows() throws {
        let text = Self.section("SECTIONS", of: try Self.rendered("triage.conf.5"))
        let tables: [(String, [String])] = [
            ("[triage]", SectionKeys.triage.map(\.name)),
            ("[account NAME]", SectionKeys.account.map(\.name)),
            ("[place NAME]", SectionKeys.place.map(\.name)),
            ("[digest]", SectionKeys.digest.map(\.name)),
            ("[caldav NAME]", SectionKeys.caldav.map(\.name)),
            // Every section table of SectionKeys belongs here (the page documents [caldav NAME] too).
        ]
        let headings = text.components(separatedBy: "\n").filter { $0.hasPrefix("   [") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for (heading, keys) in tables {
            XCTAssertTrue(headings.contains(heading), "\(heading) missing; headings: \(headings)")
            let start = try XCTUnwrap(text.range(of: "   " + heading + "\n"))
            let after = text[start.upperBound...]
            let end = after.range(of: "\n   [")?.lowerBound ?? after.endIndex
            let body = String(after[..<end])
            for key in keys {
                XCTAssertTrue(body.contains(" " + key + "="), "\(heading) \(key) not in triage.conf(5)")
            }
        }
        let description = Self.section("DESCRIPTION", of: try Self.rendered("triage.conf.5"))
        XCTAssertTrue(description.contains("\n   Quoting\n") && description.contains(#"`\"'"#), description)
    }

    /// Every operator and action of the rule language in triage-rules(5).
    func testTriageRules5HasEveryOperatorAndAction() throws {
        let text = try Self.rendered("triage-rules.5")
        let queries = Self.section("QUERIES", of: text)
        // The operator table (QueryOperator.all): each operator, each keyword value (is:unread, has:attachment).
        for op in QueryOperator.all {
            for spelling in op.spellings {
                XCTAssertTrue(queries.contains(spelling), "\(spelling) not under QUERIES")
            }
        }
        for word in ["OR", "AND"] {
            XCTAssertTrue(queries.contains(word), word)
        }
        // The action table (ActionWord.all): each form of each action starts an entry.
        let actions = Self.section("ACTIONS", of: text)
        let heads = actions.components(separatedBy: "\n").filter { $0.hasPrefix("     ") && !$0.hasPrefix("      ") }
        for action in ActionWord.all {
            for form in action.forms {
                let words = form.prefix { $0 != "\"" && $0 != "[" && !$0.isUppercase }.trimmingCharacters(in: .whitespaces)
                XCTAssertTrue(heads.contains { $0.dropFirst(5).hasPrefix(words) || $0.contains(", " + words) }, "\(form) not under ACTIONS")
            }
        }
        XCTAssertTrue(ActionWord.all.contains { $0.name == .archive })
        XCTAssertTrue(actions.contains("\n     mark read, mark unread\n"), actions)
        for placeholder in ["{subject}", "{from}", "{from.name}", "{from.address}", "{date}"] {
            XCTAssertTrue(actions.contains(placeholder), placeholder)
        }
        XCTAssertFalse(Self.section("GRAMMAR", of: text).isEmpty)
    }
}
