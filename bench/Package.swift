// swift-tools-version:6.0
import PackageDescription

// Benchmarks for triage, kept out of the main package so that `swift build` and
// `swift test` there never compile them. Each benchmark is one executable target
// under Sources/; run one with `swift run -c release NAME` (see README.md).
let package = Package(
    name: "triage-bench",
    dependencies: [
        // The main package, by path; its `TriageKit` library product exposes every library target.
        .package(name: "triage", path: ".."),
    ],
    targets: [
        .executableTarget(name: "ParseBench", dependencies: [
            .product(name: "TriageKit", package: "triage"),
        ]),
        .executableTarget(name: "RuleBench", dependencies: [
            .product(name: "TriageKit", package: "triage"),
        ]),
        .executableTarget(name: "StoreBench", dependencies: [
            .product(name: "TriageKit", package: "triage"),
        ]),
    ]
)
