import Foundation
import XCTest

/// `scripts/install` into a temporary prefix: the release binary runs from
/// outside the build tree with no toolchain on its library path, and the man
/// pages and completions land where man and the shells look.
///
/// The release build is slow: it is made once for the class (and `swift build`
/// keeps it in `.build/install`, see scripts/install).
final class InstallTests: XCTestCase {
    nonisolated(unsafe) private static var prefix = ""
    nonisolated(unsafe) private static var installed: TriageProcess.Result?

    override class func setUp() {
        super.setUp()
        prefix = FileManager.default.temporaryDirectory.path + "/triage-install-" + UUID().uuidString
        installed = try? TriageProcess.run(["--prefix", prefix], directory: InstalledCopy.root,
                                           executable: URL(fileURLWithPath: InstalledCopy.root + "/scripts/install"))
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: prefix)
        super.tearDown()
    }

    private var folder = ""

    override func setUpWithError() throws {
        let result = try XCTUnwrap(Self.installed, "scripts/install did not start")
        guard result.status == 0 else {
            throw NSError(domain: "InstallTests", code: Int(result.status),
                          userInfo: [NSLocalizedDescriptionKey: "scripts/install exited \(result.status): \(result.err)"])
        }
        folder = FileManager.default.temporaryDirectory.path + "/triage-installed-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// No Swift toolchain anywhere: the environment has only the system's PATH.
    private var bareEnvironment: [String: String] { ["PATH": "/usr/bin:/bin", "HOME": folder, "TZ": "UTC"] }

    private func installed(_ args: [String]) throws -> TriageProcess.Result {
        try InstalledCopy.run(Self.prefix + "/bin/triage", args, environment: bareEnvironment, directory: folder)
    }

    func testEveryFileGoesWhereManAndTheShellsLook() throws {
        let expected = [
            "bin/triage": "triage",
            "share/man/man1/triage.1": "man/triage.1",
            "share/man/man5/triage.conf.5": "man/triage.conf.5",
            "share/man/man5/triage-rules.5": "man/triage-rules.5",
            "share/bash-completion/completions/triage": "completions/triage.bash",
            "share/zsh/site-functions/_triage": "completions/_triage",
            "share/fish/vendor_completions.d/triage.fish": "completions/triage.fish",
            // The shipped rules (triage init copies them) and the examples: the clone is not needed.
            "share/triage/Rules/default.rules": "Rules/default.rules",
            "share/triage/Examples/triage.conf": "Examples/triage.conf",
            "share/triage/Examples/cron/crontab": "Examples/cron/crontab",
            "share/triage/Examples/systemd/triage.timer": "Examples/systemd/triage.timer",
            "share/triage/Examples/demo/triage.conf": "Examples/demo/triage.conf",
        ]
        for (path, source) in expected {
            let target = Self.prefix + "/" + path
            XCTAssertTrue(FileManager.default.fileExists(atPath: target), path)
            if source != "triage" {
                XCTAssertEqual(FileManager.default.contents(atPath: target), FileManager.default.contents(atPath: InstalledCopy.root + "/" + source), path)
            }
        }
        let mode = try FileManager.default.attributesOfItem(atPath: Self.prefix + "/bin/triage")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o755)
        let rulesMode = try FileManager.default.attributesOfItem(atPath: Self.prefix + "/share/triage/Rules/default.rules")[.posixPermissions] as? Int
        XCTAssertEqual(rulesMode, 0o644, "readable by all, writable by the owner alone")
        // man finds the page in the prefix.
        let man = try InstalledCopy.run("/usr/bin/man", ["-w", "triage.conf"],
                                        environment: bareEnvironment.merging(["MANPATH": Self.prefix + "/share/man"]) { $1 },
                                        directory: folder)
        XCTAssertEqual(man.out.trimmingCharacters(in: .whitespacesAndNewlines), Self.prefix + "/share/man/man5/triage.conf.5", man.err)
    }

    /// The script says each step (the package check, the build, the stripping and the size,
    /// where each file went), and the installed binary carries no debug information.
    func testTheScriptSaysWhatItDoesAndInstallsAStrippedBinary() throws {
        let out = try XCTUnwrap(Self.installed).out
        for line in ["install: checking the Debian build packages (scripts/install-deps)\n", "install: building triage (release",
                     "install: stripped the debug information: ", "\n  \(Self.prefix)/bin/triage\n",
                     "\n  \(Self.prefix)/share/man/man5/triage-rules.5\n"] {
            XCTAssertTrue(out.contains(line), "\(line) in:\n\(out)")
        }
        // Issue 27: at most 45 MB. 86 MB with debug information, 62 MB stripped, of which 34 MB
        // was ICU's data (linked in by Foundation); with the data cut to what triage uses, 36 MB.
        XCTAssertTrue(out.contains("\ninstall: ICU's data: kept "), out)
        XCTAssertFalse(out.contains("ICU's data: kept whole"), out)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: Self.prefix + "/bin/triage")[.size] as? Int)
        XCTAssertLessThanOrEqual(size, 45_000_000, "the installed binary's size")
        let sections = try InstalledCopy.run("/usr/bin/readelf", ["-S", Self.prefix + "/bin/triage"], environment: bareEnvironment, directory: folder)
        XCTAssertEqual(sections.status, 0, sections.err)
        XCTAssertFalse(sections.out.contains(".debug_"), "no debug sections")
        XCTAssertFalse(sections.out.contains(".symtab"), "no symbol table")
    }

    func testTheBinaryNeedsNothingOfTheToolchain() throws {
        let readelf = try InstalledCopy.run("/usr/bin/readelf", ["-d", Self.prefix + "/bin/triage"], environment: bareEnvironment, directory: folder)
        XCTAssertEqual(readelf.status, 0, readelf.err)
        XCTAssertTrue(readelf.out.contains("(NEEDED)"), readelf.out)
        XCTAssertFalse(readelf.out.contains("RUNPATH") || readelf.out.contains("RPATH"), readelf.out)
        for line in readelf.out.split(separator: "\n") where line.contains("(NEEDED)") {
            for toolchain in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libicu"] {
                XCTAssertFalse(line.contains("[" + toolchain), String(line))
            }
        }
    }

    func testTheInstalledBinaryRunsTheDemoOutsideTheBuildTree() throws {
        let version = try installed(["--version"])
        XCTAssertEqual(version.status, 0, version.err)
        XCTAssertTrue(version.out.hasPrefix("triage "), version.out)
        let help = try installed(["help", "run"])
        XCTAssertEqual(help.status, 0, help.err)
        XCTAssertTrue(help.out.hasPrefix("usage: triage run"), help.out)

        let config = try InstalledCopy.demo(in: folder)
        let check = try installed(["check", "--config", config])
        XCTAssertEqual(check.status, 0, check.err)
        let run = try installed(["run", "--all", "--config", config, "--now", "2026-03-02T09:00:00-06:00"])
        XCTAssertEqual(run.status, 0, run.err)
        let queue = try installed(["queue", "--json", "--config", config])
        XCTAssertEqual(queue.status, 0, queue.err)
        XCTAssertFalse(queue.out.isEmpty, "the demo run made no queue entry")
        let outbox = try FileManager.default.contentsOfDirectory(atPath: folder + "/Examples/demo/outbox")
        XCTAssertEqual(outbox.filter { $0.hasSuffix(".eml") }.count, 1, "\(outbox)")
    }

    /// The cut ICU data still has every time zone: the installed binary takes a zone
    /// with a 45-minute offset and one changed in recent tzdata, and its day follows
    /// the zone, not the process's TZ (UTC); an unknown zone is still refused.
    func testTheInstalledBinaryKnowsTheTimeZones() throws {
        let config = try InstalledCopy.demo(in: folder)
        let text = try String(contentsOfFile: config, encoding: .utf8)
        func digestDay(zone: String) throws -> TriageProcess.Result {
            try text.replacingOccurrences(of: "timezone = America/Chicago", with: "timezone = " + zone)
                .write(toFile: config, atomically: true, encoding: .utf8)
            // 19:00 UTC on 2 March: 00:45 on the 3rd in Kathmandu (+05:45), still the 2nd in Chicago.
            return try installed(["digest", "--preview", "--eml", "--config", config, "--now", "2026-03-02T19:00:00Z"])
        }
        for (zone, day) in [("Asia/Kathmandu", "2026-03-03"), ("America/Chicago", "2026-03-02"), ("Pacific/Kiritimati", "2026-03-03"),
                            ("America/Nuuk", "2026-03-02"), ("Europe/Kyiv", "2026-03-02")] {
            let preview = try digestDay(zone: zone)
            XCTAssertEqual(preview.status, 0, zone + ": " + preview.err)
            XCTAssertTrue(preview.out.contains("\r\nX-Triage-Digest: \(day)\r\n"), zone + ": " + preview.out.prefix(600))
        }
        let unknown = try digestDay(zone: "Mars/Olympus_Mons")
        XCTAssertEqual(unknown.status, 78, unknown.err)
        XCTAssertTrue(unknown.err.contains("Mars/Olympus_Mons"), unknown.err)
    }

    func testTheScriptRefusesAnUnknownArgument() throws {
        let result = try TriageProcess.run(["--prefx", folder], directory: InstalledCopy.root,
                                           executable: URL(fileURLWithPath: InstalledCopy.root + "/scripts/install"))
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.err.contains("usage: scripts/install [--prefix DIR]"), result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/bin"))
    }
}
