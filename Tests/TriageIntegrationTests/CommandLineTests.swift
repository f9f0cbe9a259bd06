import Foundation
@testable import triage
import TriageCore
import XCTest

/// The command line of every command: options and help from one table per
/// command, `triage help CMD`, `--`, and the one error for a directory where a
/// file is expected.
final class CommandLineTests: XCTestCase {
    /// The moment the reminders below are added at: their due days stay in the future whatever the calendar says.
    static let fixedNow = "2026-06-01T09:00:00Z"
    private var folder = ""
    private var config = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.path + "/triage-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/Rules", withIntermediateDirectories: true)
        config = folder + "/triage.conf"
        try "[triage]\nstore = data\ntimezone = Europe/Berlin\n".write(toFile: config, atomically: true, encoding: .utf8)
        try "rule \"flag\" when larger:1 then flag\n".write(toFile: folder + "/Rules/a.rules", atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func triage(_ args: [String]) throws -> TriageProcess.Result {
        try TriageProcess.run(args, directory: folder)
    }

    /// Every `--name` and `-x` the text mentions.
    private static func optionWords(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"(?<![\w-])(--[a-z][a-z-]*|-[a-z])(?![\w-])"#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).map { String(text[Range($0.range(at: 1), in: text)!]) })
    }

    func testEveryCommandsHelpIsItsTableAndNamesOnlyTableOptions() throws {
        XCTAssertEqual(CommandTable.all.count, 16)
        for command in CommandTable.all {
            let spec = command.spec
            let run = try triage([spec.name, "--help"])
            XCTAssertEqual(run.status, 0, spec.name)
            XCTAssertEqual(run.out, spec.help, spec.name)
            XCTAssertTrue(run.out.hasPrefix("usage: triage \(spec.name)"), run.out)
            let names = Set(spec.allOptions.flatMap(\.names))
            for option in spec.allOptions {
                // Each option is listed on its own line, with its value's placeholder (a long one,
                // such as init's --password-command CMD, alone on its line, its help below).
                XCTAssertTrue(run.out.contains("  " + option.label + "  ") || run.out.contains("  " + option.label + "\n"),
                              "\(spec.name): \(option.label) missing from\n\(run.out)")
            }
            // The synopsis and the prose name no option the parser would refuse.
            let mentioned = Self.optionWords(in: run.out)
            XCTAssertEqual(mentioned.subtracting(names), [], "\(spec.name) help names options not in its table")
            XCTAssertEqual(names.subtracting(mentioned), [], "\(spec.name) table options missing from its help")
            for line in run.out.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, CommandSpec.width, "\(spec.name): \(line)")
            }
        }
    }

    func testTheParserAcceptsExactlyTheTable() throws {
        let everyName = Set(CommandTable.all.flatMap { $0.spec.allOptions.flatMap(\.names) })
            .union(["--bogus", "-x", "--force-all", "--output"])
        for command in CommandTable.all {
            let spec = command.spec
            for option in spec.allOptions {
                for name in option.names {
                    let a = try Arguments([name] + (option.value.map { [$0] } ?? []) + ["word"], spec: spec)
                    if let placeholder = option.value {
                        XCTAssertEqual(a.value(option.canonical), placeholder, "\(spec.name) \(name)")
                    } else {
                        XCTAssertTrue(a.has(option.canonical), "\(spec.name) \(name)")
                    }
                    XCTAssertEqual(a.positional, ["word"])
                }
            }
            // Any other option, including another command's, is a usage error naming it
            // (in `remind`, a word with one dash is a word of the title).
            for name in everyName.subtracting(spec.allOptions.flatMap(\.names)) {
                if spec.dashWords && !name.hasPrefix("--") {
                    XCTAssertEqual(try Arguments([name, "x"], spec: spec).positional, [name, "x"], "\(spec.name) \(name)")
                    continue
                }
                XCTAssertThrowsError(try Arguments([name, "x"], spec: spec), "\(spec.name) accepted \(name)") { error in
                    XCTAssertEqual((error as? SimpleError)?.exitStatus, .usage)
                    XCTAssertTrue((error as? SimpleError)?.message.hasPrefix("\(spec.name): unknown option \(name);") == true,
                                  "\(error)")
                }
            }
        }
        // And through the binary, before any file is read.
        let refused = try triage(["queue", "--since", "2026-01-01", "--config", config])
        XCTAssertEqual(refused.status, 64)
        XCTAssertEqual(refused.err, "triage: queue: unknown option --since; see 'triage queue --help' (put -- before words that start with -)\n")
    }

    func testAnUnknownOptionSuggestsTheNearestOne() throws {
        let dry = try triage(["run", "--dry", "--config", config])
        XCTAssertEqual(dry.status, 64)
        XCTAssertEqual(dry.err, "triage: run: unknown option --dry; did you mean --dry-run? See 'triage run --help' "
            + "(put -- before words that start with -)\n")
        XCTAssertTrue(try triage(["queue", "--jsno"]).err.contains("did you mean --json?"))
        XCTAssertTrue(try triage(["digest", "--previw"]).err.contains("did you mean --preview?"))
        // Nothing near: no guess.
        XCTAssertFalse(try triage(["queue", "--since", "x"]).err.contains("did you mean"))
    }

    func testAllWithSinceIsAUsageError() throws {
        let run = try triage(["run", "--all", "--since", "2026-01-01", "--config", config])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.err.contains("give --all or --since, not both"), run.err)
    }

    func testHelpCommandPrintsTheSameAsDashDashHelp() throws {
        for command in CommandTable.all {
            let name = command.spec.name
            let viaHelp = try triage(["help", name])
            let viaFlag = try triage([name, "--help"])
            let viaShort = try triage([name, "--config", config, "-h"])
            XCTAssertEqual(viaHelp.status, 0)
            XCTAssertEqual(viaHelp.err, "")
            XCTAssertEqual(viaHelp.out, viaFlag.out, name)
            XCTAssertEqual(viaShort.out, viaFlag.out, name)
        }
        XCTAssertEqual(try triage(["help", "run"]).out, try triage(["run", "--help"]).out)
        // Help wins over a mistake elsewhere on the line.
        XCTAssertEqual(try triage(["run", "--bogus", "--help"]).out, try triage(["run", "--help"]).out)
        let unknown = try triage(["help", "nosuch"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.hasPrefix("triage: unknown command 'nosuch'"), unknown.err)
        XCTAssertEqual(try triage(["help"]).out, try triage(["--help"]).out)
        XCTAssertEqual(try triage(["help", "run", "queue"]).status, 64)
    }

    func testDoubleDashEndsOptionsIncludingHelp() throws {
        let run = try triage(["run", "--config", config, "--", "--help"])
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.out, "")
        XCTAssertEqual(run.err, "triage: run: unexpected argument '--help'; see 'triage run --help'\n")

        // A title that starts with dashes, after --; --help there is a word too.
        let add = try triage(["remind", "add", "--config", config, "--now", Self.fixedNow, "--", "--help", "me", "-v", "on", "2027-01-15"])
        XCTAssertEqual(add.status, 0, add.err)
        XCTAssertTrue(add.out.hasPrefix("added: ") && add.out.hasSuffix(" --help me -v (due 2027-01-15)\n"), add.out)
        let list = try triage(["remind", "--config", config])
        XCTAssertEqual(list.out.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " "),
                       "2027-01-15 --help me -v\n")

        // The value of an option is a value, even when it looks like --help.
        let value = try triage(["queue", "--config", "--help"])
        XCTAssertEqual(value.status, 66)
        XCTAssertTrue(value.err.contains("--help") && value.err.contains("no configuration file"), value.err)
        // In remind, a word with one dash is a word (as before the table), -h is still help.
        let dash = try triage(["remind", "add", "Buy", "milk", "-urgent", "on", "2027-01-16", "--config", config, "--now", Self.fixedNow])
        XCTAssertEqual(dash.status, 0, dash.err)
        XCTAssertTrue(try triage(["remind", "--config", config]).out.contains("2027-01-16  Buy milk -urgent"))
        XCTAssertTrue(try triage(["remind", "add", "Buy", "-h"]).out.hasPrefix("usage: triage remind"))
        // A negative number is a word, not an option.
        let coordinates = try triage(["remind", "add", "Harbour", "near", "-33.86,151.21", "radius", "1", "km", "--config", config])
        XCTAssertEqual(coordinates.status, 0, coordinates.err)
    }

    func testADirectoryWhereAFileIsExpectedIsOneErrorExit66() throws {
        let directory = folder + "/Rules"
        let expected = "triage: cannot read \(directory): it is a directory, where a file is expected; name a file\n"
        let commands: [[String]] = [
            ["check", "--config", directory], ["run", "--config", directory], ["run", "--dry-run", "--config", directory],
            ["queue", "--config", directory], ["queue", "done", "3f2a", "--config", directory], ["remind", "--config", directory],
            ["remind", "add", "Call mum", "--config", directory], ["digest", "--preview", "--config", directory],
            ["digest", "--send", "--config", directory], ["export", "ics", "--config", directory],
            ["test", "--config", config, directory], ["inspect", directory],
        ]
        for command in commands {
            let run = try triage(command)
            let label = command.joined(separator: " ")
            XCTAssertEqual(run.status, 66, "\(label): \(run.err)")
            XCTAssertEqual(run.err, expected, label)
        }
        // An output file that is a directory: the same words, and 73 like any output that cannot be created.
        let export = try triage(["export", "ics", "--output", directory, "--config", config])
        XCTAssertEqual(export.status, 73)
        XCTAssertEqual(export.err, "triage: cannot write \(directory): it is a directory, where a file is expected; name a file\n")
    }

    func testNowIsAnInstantOrALocalTimeInTheConfiguredZone() throws {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let instant = try XCTUnwrap(NowOption("2026-03-02T23:30:00-06:00"))
        XCTAssertEqual(instant.date(in: zone), Date(timeIntervalSince1970: 1_772_515_800))
        XCTAssertEqual(NowOption("2026-03-03T05:30:00Z")?.date(in: zone), Date(timeIntervalSince1970: 1_772_515_800))
        XCTAssertEqual(NowOption("2026-03-03T05:30:00.250+0000")?.date(in: zone), Date(timeIntervalSince1970: 1_772_515_800))
        // Local: 06:30 in Berlin (UTC+1 in March) is 05:30 UTC.
        XCTAssertEqual(NowOption("2026-03-03T06:30")?.date(in: zone), Date(timeIntervalSince1970: 1_772_515_800))
        XCTAssertEqual(NowOption("2026-03-03 06:30:00")?.date(in: zone), Date(timeIntervalSince1970: 1_772_515_800))
        // Summer time: 06:30 in Berlin in July is 04:30 UTC.
        XCTAssertEqual(NowOption("2026-07-01T06:30")?.date(in: zone), Date(timeIntervalSince1970: 1_782_880_200))
        for bad in ["yesterday", "2026-03-02", "2026-02-30T09:00", "2026-03-02T24:00", "2026-03-02T09:00:00+1", "2026-03-02T09:00X",
                    "2026-03-02T09", "2026-03-02T09:00:", "2026-03-02T09:00:00."] {
            XCTAssertNil(NowOption(bad), bad)
        }
        let usage = try triage(["run", "--now", "noon", "--config", folder + "/missing.conf"])
        XCTAssertEqual(usage.status, 64, "a bad --now is a usage error before the configuration is read")
        XCTAssertTrue(usage.err.contains("--now wants an ISO 8601"), usage.err)
    }
}
