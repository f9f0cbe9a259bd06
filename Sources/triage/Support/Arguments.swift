import TriageCore

/// The command line after the command word, parsed against the command's table
/// (`CommandSpec`): flags (`--json`), options with a value (`--config FILE` or
/// `--config=FILE`), and positional arguments in order.
///
/// Anything the table does not declare is a usage error (exit 64). `--` ends the
/// options: every word after it is positional, `--help` included. A word that is
/// a dash and a digit (`-5`, `-33.87,151.21`: a negative number or a coordinate)
/// and `-` alone (standard input) are positional too, and so is any word with one
/// dash in a command whose table says `dashWords`.
struct Arguments {
    /// Positional arguments, in order.
    private(set) var positional: [String] = []
    private var flags: Set<String> = []
    private var values: [String: String] = [:]
    /// The command, for messages.
    let command: String

    /// Parses `args` against `spec`.
    init(_ args: [String], spec: CommandSpec) throws {
        command = spec.name
        var words = Words(args, spec: spec)
        while let word = try words.next() {
            switch word {
            case .positional(let text): positional.append(text)
            case .flag(let option): flags.insert(option.canonical)
            case .value(let option, let text): values[option.canonical] = text
            }
        }
    }

    /// Whether `args` ask for the command's help: `-h` or `--help` as an option,
    /// that is before any `--` and not as the value of an option. Asked before
    /// parsing, so `--help` wins over mistakes elsewhere on the line.
    static func asksForHelp(_ args: [String], spec: CommandSpec) -> Bool {
        var words = Words(args, spec: spec)
        while true {
            switch Result(catching: { try words.next() }) {
            case .success(.flag(let option)) where option.canonical == Option.help.canonical: return true
            case .success(nil): return false
            case .success: continue
            case .failure: continue  // a bad word: the parse reports it, unless help was asked for
            }
        }
    }

    /// Whether a flag was given, by its canonical (last) name: `-v` counts as `--verbose`.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an option, if given.
    func value(_ option: String) -> String? { values[option] }

    /// A usage error that points to the help.
    func usage(_ message: String) -> SimpleError {
        SimpleError(.usage, "\(command): \(message); see 'triage \(command) --help'")
    }

    /// Refuses positional arguments (for commands that take none).
    func expectNoPositional() throws {
        if let first = positional.first { throw usage("unexpected argument '\(first)'") }
    }

    /// One word of the command line, classified.
    private enum Word {
        case positional(String)
        case flag(Option)
        case value(Option, String)
    }

    /// The words one at a time, as the table sees them.
    private struct Words {
        let args: [String]
        let spec: CommandSpec
        var i = 0
        var onlyPositional = false

        init(_ args: [String], spec: CommandSpec) {
            self.args = args
            self.spec = spec
        }

        mutating func next() throws -> Word? {
            guard i < args.count else { return nil }
            let arg = args[i]
            if onlyPositional || arg == "-" || !arg.hasPrefix("-") || Self.isNegativeNumber(arg)
                || (spec.dashWords && !arg.hasPrefix("--") && spec.option(named: arg) == nil) {
                i += 1
                return .positional(arg)
            }
            if arg == "--" {
                onlyPositional = true
                i += 1
                return try next()
            }
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            i += 1  // before any throw, so `asksForHelp` can go on after a bad word
            guard let option = spec.option(named: name) else {
                let see = Self.suggestion(for: name, in: spec).map { "did you mean \($0)? See" } ?? "see"
                throw SimpleError(.usage, "\(spec.name): unknown option \(arg); \(see) 'triage \(spec.name) --help'"
                    + " (put -- before words that start with -)")
            }
            guard option.value != nil else {
                if inline != nil { throw SimpleError(.usage, "\(spec.name): \(name) takes no value; see 'triage \(spec.name) --help'") }
                return .flag(option)
            }
            if let inline { return .value(option, inline) }
            guard i < args.count else {
                throw SimpleError(.usage, "\(spec.name): option \(name) needs a value; see 'triage \(spec.name) --help'")
            }
            i += 1
            return .value(option, args[i - 1])
        }

        /// The option `name` was probably meant to be: the only long option it is a
        /// prefix of (`--dry` → `--dry-run`), else the nearest by edit distance (at most 2).
        static func suggestion(for name: String, in spec: CommandSpec) -> String? {
            guard name.hasPrefix("--"), name.count > 2 else { return nil }
            let long = spec.allOptions.flatMap(\.names).filter { $0.hasPrefix("--") }
            let extended = long.filter { $0.hasPrefix(name) }
            if extended.count == 1 { return extended[0] }
            return Suggestion.closest(to: name, in: long)
        }

        /// `-5`, `-0.5`, `-33.87,151.21`: a dash then a digit or a point and a digit.
        static func isNegativeNumber(_ arg: String) -> Bool {
            let chars = Array(arg.utf8.prefix(3))
            func digit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
            guard chars.count >= 2, chars[0] == 0x2D else { return false }
            return digit(chars[1]) || (chars[1] == 0x2E && chars.count == 3 && digit(chars[2]))
        }
    }
}
