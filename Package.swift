// swift-tools-version:6.0
import PackageDescription

// Layout (ARCHITECTURE.md): pure logic in TriageCore, one thin adapter target per
// C library, and the `triage` executable, the only place that prints or exits.
// TriageCore is Swift and Foundation, plus POSIX through Glibc for the store's
// files (open, fsync, rename, flock), never a third-party C library; it reads no
// clock and no environment (`now` is passed in).
let package = Package(
    name: "triage",
    products: [
        .executable(name: "triage", targets: ["triage"]),
        // For the benchmarks in bench/, a separate package that depends on this one by path.
        .library(name: "TriageKit", targets: [
            "TriageCore", "TriageMIME", "TriageConfig", "TriageIMAP", "TriageCurl", "TriageICS", "TriageMaildir", "TriageTLS",
            "TriageXML", "TriageCalDAV",
        ]),
    ],
    targets: [
        // System libraries from Debian packages.
        .systemLibrary(name: "CEtPan", pkgConfig: "libetpan",
                       providers: [.apt(["libetpan-dev"])]),
        // Headers only: libcurl itself is opened on first use (CShims/CurlLibrary.c),
        // so a run that sends nothing never loads it; no pkg-config, whose flags would link it.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-gnutls-dev"])]),
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls",
                       providers: [.apt(["libgnutls28-dev"])]),
        .systemLibrary(name: "CInih", pkgConfig: "inih",
                       providers: [.apt(["libinih-dev"])]),
        // libical alone (the module map's `link "ical"`): pkg-config's flags also link
        // libicalss and libicalvcal, which triage never calls and every start would map.
        .systemLibrary(name: "CICal", providers: [.apt(["libical-dev"])]),
        // libxml2: WebDAV multistatus answers of CalDAV servers.
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        // Typed wrappers for variadic C functions (curl_easy_setopt), GnuTLSQuiet.c, and
        // CurlLibrary.c, the libcurl functions triage calls, opening libcurl on first use.
        .target(name: "CShims", dependencies: ["CCurl"]),
        // The signal handler that takes a secret command's process group down with
        // triage (async-signal-safe, so in C).
        .target(name: "CChildGroup"),

        // Pure logic: Foundation, and POSIX through Glibc for the store's files only.
        .target(name: "TriageCore"),

        // Adapters, one per C library.
        .target(name: "TriageMIME", dependencies: ["TriageCore", "CEtPan"]),
        .target(name: "TriageConfig", dependencies: ["TriageCore", "CInih"]),
        // TLS certificate verification with GnuTLS: the one policy IMAP and SMTP share.
        .target(name: "TriageTLS", dependencies: ["CGnuTLS", "CShims"]),
        .target(name: "TriageIMAP", dependencies: ["TriageCore", "TriageMIME", "TriageTLS", "CEtPan"]),
        // libcurl: SMTP for the digest and HTTP for webhooks; with them `file:`
        // delivery (no libcurl), so every way a digest leaves lives here.
        .target(name: "TriageCurl", dependencies: ["TriageCore", "TriageTLS", "CCurl", "CShims"]),
        .target(name: "TriageICS", dependencies: ["TriageCore", "CICal"]),
        // XML (WebDAV answers) through libxml2.
        .target(name: "TriageXML", dependencies: ["CXML2"]),
        // The CalDAV client: discovery, listings and writes over TriageCurl's HTTP,
        // multistatus through TriageXML, VTODOs through TriageICS; the decisions are
        // TriageCore's `CalDAVSyncPlanner`.
        .target(name: "TriageCalDAV", dependencies: ["TriageCore", "TriageCurl", "TriageXML", "TriageICS"]),
        // Local Maildir accounts (plain file operations, no C library).
        .target(name: "TriageMaildir", dependencies: ["TriageCore"]),

        // The app: the account session, the one pipeline `run` and `watch` drive, the
        // digest and CalDAV services, the run record; no printing, no environment
        // (the executable hands it a `Context`).
        .target(name: "TriageApp", dependencies: [
            "CChildGroup", "TriageCore", "TriageMIME", "TriageConfig", "TriageIMAP", "TriageCurl", "TriageICS", "TriageMaildir",
            "TriageCalDAV",
        ]),

        // The command-line tool: parses arguments, builds a `Context`, calls the app, prints.
        .executableTarget(name: "triage", dependencies: [
            "CChildGroup", "CShims", "TriageApp", "TriageCore", "TriageMIME", "TriageConfig", "TriageIMAP", "TriageCurl", "TriageICS", "TriageMaildir",
            "TriageCalDAV",
        ]),

        // Tests mirror the sources: `Tests/<Target>Tests` holds the unit tests of target
        // <Target>, none of them needs a server or the built binary (`scripts/test --quick`).
        // Tests find their fixtures through #filePath, so no resources are bundled.
        .testTarget(name: "TriageCoreTests", dependencies: ["TriageCore", "TriageTestSupport"], exclude: ["RuleCases", "Golden"]),
        .testTarget(name: "TriageMIMETests", dependencies: ["TriageMIME", "TriageCore"], exclude: ["Fixtures"]),
        .testTarget(name: "TriageConfigTests", dependencies: ["TriageConfig", "TriageCore"]),
        .testTarget(name: "TriageIMAPTests", dependencies: ["TriageIMAP"]),
        .testTarget(name: "TriageCurlTests", dependencies: ["TriageCurl", "TriageCore", "CCurl", "TriageTestSupport"]),
        .testTarget(name: "TriageICSTests", dependencies: ["TriageICS", "TriageCore"]),
        .testTarget(name: "TriageCalDAVTests", dependencies: [
            "TriageCalDAV", "TriageConfig", "TriageCore", "TriageICS", "TriageXML",
        ]),
        .testTarget(name: "TriageMaildirTests", dependencies: ["TriageMaildir", "TriageCore", "TriageTestSupport"]),
        // What more than one test target uses: the `MailConnection` contract every
        // backend's tests run, the in-memory connection, and the sample messages
        // (XCTest, so never in a product).
        .target(name: "TriageTestSupport", dependencies: ["TriageCore"], path: "Tests/TriageTestSupport"),
        // The app's pipeline and services, over Maildir accounts in temporary folders and
        // the in-memory connection.
        .testTarget(name: "TriageAppTests", dependencies: ["TriageApp", "TriageCore", "TriageConfig", "TriageMaildir", "TriageTestSupport"]),
        // Runs the built `triage` binary against real peers (Dovecot, SMTP).
        .testTarget(name: "TriageIntegrationTests", dependencies: [
            "triage", "TriageCore", "TriageMIME", "TriageConfig", "TriageIMAP", "TriageCurl", "TriageICS", "TriageMaildir",
            "TriageCalDAV", "TriageTestSupport",
        ]),
    ]
)
