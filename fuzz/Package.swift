// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for triage's parsers, kept out of the main package so that
// `swift build` and `swift test` there never compile them (and CI never runs them).
// Each target is one executable whose entry point is `LLVMFuzzerTestOneInput`;
// libFuzzer supplies `main`. Build and run one with `./run.sh TARGET [SECONDS]`,
// which passes `--sanitize=fuzzer --sanitize=address` to every module, so the
// main package's Swift code is instrumented too (libetpan's C code is not).
// SwiftPM names a path dependency after its folder, so a checkout that is itself in a
// folder called `fuzz` would clash with this package's name; run.sh therefore reaches
// the main package through a symlink named `triage` (TRIAGE_SOURCE), and `..` is the default.
let source = Context.environment["TRIAGE_SOURCE"] ?? ".."

let package = Package(
    name: "triage-fuzz",
    dependencies: [
        // The main package, by path; its `TriageKit` library product exposes every library target.
        .package(name: "triage", path: source),
    ],
    targets: [
        // MessageParser.parse: a whole message (MIME structure, bodies, charsets).
        .executableTarget(name: "FuzzMessage", dependencies: [.product(name: "TriageKit", package: "triage")]),
        // MessageParser.parseHeader: a header block as fetched with BODY.PEEK[HEADER].
        .executableTarget(name: "FuzzHeader", dependencies: [.product(name: "TriageKit", package: "triage")]),
        // RuleLoader.load on one rule file (lexer, parser, compiler), then the rules run on a message.
        .executableTarget(name: "FuzzRules", dependencies: [.product(name: "TriageKit", package: "triage")]),
        // ReminderSyntax.parse: the `remind` grammar of rules and `triage remind add`.
        .executableTarget(name: "FuzzReminder", dependencies: [.product(name: "TriageKit", package: "triage")]),
        // ConfigLoader.parse: triage.conf through inih and the validator.
        .executableTarget(name: "FuzzConfig", dependencies: [.product(name: "TriageKit", package: "triage")]),
        // ManageSieveReader: a server's answers (greeting, capabilities, LISTSCRIPTS, status lines, literals).
        .executableTarget(name: "FuzzManageSieve", dependencies: [.product(name: "TriageKit", package: "triage")]),
        // A WebDAV multistatus answer through libxml2 (XMLDocument), walked as CalDAVClient does, and
        // VTODO texts through libical (ICSReader) and CalDAVTodoCodec.
        .executableTarget(name: "FuzzCalDAV", dependencies: [.product(name: "TriageKit", package: "triage")]),
        // DigestCommandReader: Done links and replies to a digest with command lines.
        .executableTarget(name: "FuzzDigestCommand", dependencies: [.product(name: "TriageKit", package: "triage")]),
    ]
)
