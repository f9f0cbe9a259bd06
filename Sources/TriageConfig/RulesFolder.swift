import Foundation
import TriageCore

/// Reads the rules folder named by the configuration (every `*.rules` file, in
/// name order) and hands the texts to `RuleLoader`.
public enum RulesFolder {
    /// The outcome of loading: compiled rules when all is well, every diagnostic,
    /// and each file's text (by displayed path) so diagnostics can show excerpts.
    public struct Loaded: Sendable {
        /// The compiled rules, nil when there is any error (warnings leave them usable).
        public var rules: CompiledRules?
        /// Every diagnostic, in file order.
        public var diagnostics: [Diagnostic]
        /// File texts by the path shown in diagnostics.
        public var sources: [String: String]

        /// The diagnostics rendered for standard error.
        public var rendered: String { DiagnosticRenderer.render(diagnostics, sources: sources) }

        /// Whether some diagnostic is an error (the rules cannot run).
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Who `me` is and the time zone (the configured one, else the system's).
    public static func environment(for configuration: Configuration, today: CivilDate? = nil) -> RuleEnvironment {
        let zone = configuration.triage.timeZone ?? TimeZone.current
        return RuleEnvironment(identities: configuration.triage.me, timeZone: zone,
                               places: configuration.placesByName, today: today)
    }

    /// Loads and compiles the rules of `configuration`. Paths in diagnostics are shown
    /// relative to `currentDirectory` when the files are inside it.
    /// With `today` (`triage check`), a reminder due on a fixed day before it is a warning.
    public static func load(_ configuration: Configuration, today: CivilDate? = nil,
                            currentDirectory: String = FileManager.default.currentDirectoryPath) -> Loaded {
        // `rules = A, B`: every folder's files, folder by folder, each in name order.
        var paths: [String] = []
        for folder in configuration.triage.ruleFolders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                let line = configuration.triage.rulesLine
                let what = line > 0 ? "the rules folder" : "the default rules folder (Rules, next to the configuration)"
                return Loaded(rules: nil, diagnostics: [Diagnostic(path: configuration.path, line: line, column: 0,
                    message: "\(what) \(folder) does not exist; create it or set 'rules = FOLDER' in [triage]")], sources: [:])
            }
            if let problem = FileTrust.folderProblem(folder, what: "the rules folder", consequence: Self.strangerRules) {
                return Loaded(rules: nil, diagnostics: [Diagnostic(path: display(folder, relativeTo: currentDirectory),
                                                                   line: 0, column: 0, message: problem)], sources: [:])
            }
            do {
                paths += try FileManager.default.contentsOfDirectory(atPath: folder)
                    .filter { $0.hasSuffix(".rules") && !$0.hasPrefix(".") }.sorted()
                    .map { (folder as NSString).appendingPathComponent($0) }
            } catch {
                return Loaded(rules: nil, diagnostics: [Diagnostic(path: display(folder, relativeTo: currentDirectory), line: 0, column: 0,
                    message: "cannot list the rules folder; check its permissions")], sources: [:])
            }
        }
        let shown = configuration.triage.ruleFolders.map { display($0, relativeTo: currentDirectory) }.joined(separator: ", ")
        var sources: [RuleSource] = []
        var fileProblems: [Diagnostic] = []
        for path in paths {
            let displayed = display(path, relativeTo: currentDirectory)
            if let file = FileTrust.read(path) {
                if let problem = FileTrust.problem(file.info, path: path, what: "this rule file", consequence: Self.strangerRules) {
                    fileProblems.append(Diagnostic(path: displayed, line: 0, column: 0, message: problem))
                    continue
                }
                sources.append(RuleSource(path: displayed, text: String(decoding: file.data, as: UTF8.self)))
            } else {
                fileProblems.append(Diagnostic(path: displayed, line: 0, column: 0, message: "cannot read this rule file; check its permissions"))
            }
        }
        if !fileProblems.isEmpty, sources.isEmpty {
            return Loaded(rules: nil, diagnostics: fileProblems, sources: [:])
        }
        let (rules, diagnostics) = RuleLoader.load(sources, folder: shown, environment: environment(for: configuration, today: today))
        let all = fileProblems + diagnostics
        return Loaded(rules: all.contains(where: { $0.severity == .error }) ? nil : rules, diagnostics: all,
                      sources: Dictionary(sources.map { ($0.path, $0.text) }, uniquingKeysWith: { a, _ in a }))
    }

    /// What someone else could do through a rule file or folder they can write.
    private static let strangerRules = "whoever can change the rules decides what happens to your mail (moves, webhooks)"

    /// `path` relative to `directory` when inside it, else as is.
    static func display(_ path: String, relativeTo directory: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
