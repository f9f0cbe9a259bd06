/// A problem in the configuration file, reported as `path:line: error: message`.
public struct ConfigProblem: Error, Equatable, Sendable {
    /// The configuration file.
    public var path: String
    /// 1-based line, or 0 when the problem is about the file as a whole.
    public var line: Int
    /// What is wrong and what to do.
    public var message: String

    /// Creates a problem.
    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: error: message`.
    public var rendered: String {
        line > 0 ? "\(path):\(line): error: \(message)" : "\(path): error: \(message)"
    }
}

/// One or more configuration problems; exits 78 (or 66 when the file is missing).
public struct ConfigError: TriageError {
    /// Every problem found, in file order.
    public var problems: [ConfigProblem]
    /// 78, or 66 when the file could not be read.
    public var exitStatus: ExitStatus

    /// Creates the error.
    public init(_ problems: [ConfigProblem], exitStatus: ExitStatus = .config) {
        self.problems = problems
        self.exitStatus = exitStatus
    }

    public var message: String {
        problems.map(\.rendered).joined(separator: "\n")
    }
}
