import Foundation
@testable import triage
import XCTest

/// The bash completion (completions/triage.bash) run as bash runs it: the
/// function `_triage` with COMP_WORDS and COMP_CWORD set, against the built
/// binary and a store made by a real run of the demo; the zsh one with its
/// compadd recorded, the fish one through `complete -C`; and the hidden listing
/// flag they ask (`triage --complete`), which `--help` does not show.
final class CompletionTests: XCTestCase {
    private var folder = ""
    private var config = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.path + "/triage-completion-" + UUID().uuidString
        config = try InstalledCopy.demo(in: folder)
        let run = try TriageProcess.run(["run", "--all", "--config", config, "--now", "2026-03-02T09:00:00-06:00"])
        XCTAssertEqual(run.status, 0, run.err)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// What `_triage` offers for `words` with the cursor on the last one.
    private func complete(_ words: [String]) throws -> [String] {
        let quoted = ([TriageProcess.binary.path] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = """
        source '\(InstalledCopy.root)/completions/triage.bash'
        COMP_WORDS=(\(quoted.joined(separator: " ")))
        COMP_CWORD=\(words.count)
        _triage
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let result = try TriageProcess.run(["--norc", "--noprofile", "-c", script], directory: folder,
                                           executable: URL(fileURLWithPath: "/bin/bash"))
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        return result.out.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// The first column of a listing (`triage queue`, `triage remind`): the short ids.
    private func shortIDs(_ args: [String]) throws -> [String] {
        let listing = try TriageProcess.run(args + ["--config", config])
        XCTAssertEqual(listing.status, 0, listing.err)
        return listing.out.split(separator: "\n").compactMap { line -> String? in
            let first = line.split(separator: " ").first.map(String.init) ?? ""
            return first.count >= 4 && first.allSatisfy(\.isHexDigit) ? first : nil
        }
    }

    func testCommandsAndOptions() throws {
        XCTAssertEqual(Set(try complete([""])), Set(CommandTable.all.map { $0.spec.name } + ["help"]))
        XCTAssertEqual(try complete(["re"]), ["remind"])
        XCTAssertEqual(try complete(["--"]).sorted(), ["--help", "--version"])
        XCTAssertEqual(try complete(["run", "--dr"]), ["--dry-run"])
        XCTAssertEqual(Set(try complete(["digest", "--"])), Set(DigestCommand.spec.allOptions.flatMap(\.names).filter { $0.hasPrefix("--") }))
        XCTAssertEqual(try complete(["help", "ins"]), ["inspect"])
        XCTAssertEqual(try complete(["export", ""]).sorted(), ["gmail-filters", "ics", "sieve"])
    }

    func testAccountsQueuesAndShortIDsFromTheConfigurationAndTheStore() throws {
        XCTAssertEqual(try complete(["run", "--config", config, "--account", ""]), ["demo"])
        let queues = try TriageProcess.run(["queue", "--json", "--config", config])
        let names = Set(queues.out.split(separator: "\n").compactMap { line -> String? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["queue"] as? String
        })
        XCTAssertFalse(names.isEmpty, "the demo run made no queue entry")
        XCTAssertEqual(Set(try complete(["--config", config, "queue", ""])), Set(["list", "done", "reopen", "remove"]).union(names))

        let openEntries = try shortIDs(["queue"])
        XCTAssertFalse(openEntries.isEmpty)
        XCTAssertEqual(try complete(["queue", "done", "--config", config, ""]).sorted(), openEntries.sorted())
        XCTAssertEqual(try complete(["queue", "--config=" + config, "done", openEntries[0], ""]).sorted(), openEntries.sorted())
        // As bash splits it at the '=' (COMP_WORDBREAKS).
        XCTAssertEqual(try complete(["queue", "--config", "=", config, "done", ""]).sorted(), openEntries.sorted())
        XCTAssertEqual(try complete(["run", "--config", "=", config, "--account", "=", ""]), ["demo"])
        XCTAssertEqual(try complete(["run", "--config", "=", config, "--account", "=", "d"]), ["demo"])
        // reopen offers the done ones: none yet, then the one closed.
        XCTAssertEqual(try complete(["queue", "reopen", "--config", config, ""]), [])
        let done = try TriageProcess.run(["queue", "done", openEntries[0], "--config", config])
        XCTAssertEqual(done.status, 0, done.err)
        XCTAssertEqual(try complete(["queue", "reopen", "--config", config, ""]), [openEntries[0]])
        XCTAssertFalse(try complete(["queue", "done", "--config", config, ""]).contains(openEntries[0]))

        let reminders = try shortIDs(["remind"])
        XCTAssertFalse(reminders.isEmpty, "the demo run made no reminder")
        XCTAssertEqual(try complete(["remind", "remove", "--config", config, ""]).sorted(), reminders.sorted())
    }

    /// What zsh's `_triage` offers for `words` (cursor on the last), with compadd,
    /// _files and _message recording what they are given instead of drawing a menu.
    private func zshComplete(_ words: [String]) throws -> [String] {
        let quoted = (["triage"] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = """
        compadd() { if [[ $1 == -a ]]; then print -l -- ${(P)2}; else [[ $1 == -- ]] && shift; print -l -- "$@"; fi }
        _files() { print -- '<files>' }
        _message() { print -- '<message>' }
        words=(\(quoted.joined(separator: " ")))
        CURRENT=\(words.count + 1)
        source '\(InstalledCopy.root)/completions/_triage'
        """
        let result = try TriageProcess.run(["-f", "-c", script], environment: ["PATH": TriageProcess.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"],
                                           directory: folder, executable: URL(fileURLWithPath: "/usr/bin/zsh"))
        XCTAssertEqual(result.status, 0, result.err)
        return result.out.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// What fish offers for `line` (`complete -C`), names only.
    private func fishComplete(_ line: String) throws -> [String] {
        let script = "source '\(InstalledCopy.root)/completions/triage.fish'; complete -C '\(line)'"
        let result = try TriageProcess.run(["--no-config", "-c", script], environment: ["PATH": TriageProcess.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"],
                                           directory: folder, executable: URL(fileURLWithPath: "/usr/bin/fish"))
        XCTAssertEqual(result.status, 0, result.err)
        return result.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.filter { !$0.isEmpty }
    }

    func testZshAndFishOfferTheSame() throws {
        let commands = Set(CommandTable.all.map { $0.spec.name } + ["help"])
        let openEntries = try shortIDs(["queue"]).sorted()
        XCTAssertFalse(openEntries.isEmpty)
        XCTAssertEqual(Set(try zshComplete([""])), commands)
        XCTAssertEqual(try zshComplete(["queue", "done", "--config", config, ""]).sorted(), openEntries)
        XCTAssertEqual(try zshComplete(["run", "--config", config, "--account", ""]), ["demo"])
        XCTAssertEqual(Set(try zshComplete(["run", "--"])), Set(RunCommand.spec.allOptions.flatMap { $0.names }))
        XCTAssertEqual(try zshComplete(["inspect", ""]), ["<files>"])

        XCTAssertEqual(Set(try fishComplete("triage ")), commands)
        XCTAssertEqual(try fishComplete("triage qu"), ["queue"])
        XCTAssertEqual(try fishComplete("triage queue done --config \(config) ").sorted(), openEntries)
        XCTAssertEqual(try fishComplete("triage run --config \(config) --account "), ["demo"])
        XCTAssertEqual(try fishComplete("triage run --dr"), ["--dry-run"])
    }

    func testTheListingFlagIsHiddenAndRefusesWhatItDoesNotKnow() throws {
        let help = try TriageProcess.run(["--help"])
        XCTAssertFalse(help.out.contains("--complete"), help.out)
        for args in [["--complete"], ["--complete", "everything"], ["--complete", "ids", "queue", "removed"], ["--complete", "ids", "mail"]] {
            let result = try TriageProcess.run(args + ["--config", config])
            XCTAssertEqual(result.status, 64, "\(args): \(result.err)")
            XCTAssertEqual(result.out, "")
        }
        let sections = try TriageProcess.run(["--complete", "sections", "--config", config])
        XCTAssertEqual(sections.out, "triage\naccount demo\ndigest\n", sections.err)
        XCTAssertEqual(try TriageProcess.run(["--complete", "options", "inspect"]).out, "--json\n-h\n--help\n")
        // Without a configuration, completion offers nothing and says nothing.
        XCTAssertEqual(try complete(["run", "--config", folder + "/missing.conf", "--account", ""]), [])
    }
}
