import TriageCore

/// A small command-line parser: flags (`--json`), options with a value
/// (`--config FILE` or `--config=FILE`), and positional arguments in order.
///
/// Each command declares what it accepts; anything else is a usage error (exit 64).
struct Arguments {
    /// Positional arguments, in order (`-` is positional: standard input).
    private(set) var positional: [String] = []
    private var flags: Set<String> = []
    private var values: [String: String] = [:]

    /// Parses `args` (without the command words) against the declared flags and options.
    init(_ args: [String], flags allowedFlags: Set<String> = [], options allowedOptions: Set<String> = [],
         command: String) throws {
        var i = 0
        var onlyPositional = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositional || arg == "-" || !arg.hasPrefix("-") {
                positional.append(arg)
                continue
            }
            if arg == "--" { onlyPositional = true; continue }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if allowedFlags.contains(name), inline == nil {
                flags.insert(name)
            } else if allowedOptions.contains(name) {
                if let inline {
                    values[name] = inline
                } else if i < args.count {
                    values[name] = args[i]
                    i += 1
                } else {
                    throw SimpleError(.usage, "\(command): option \(name) needs a value; see 'triage \(command) --help'")
                }
            } else if args.count > 0, Arguments.looksNumeric(arg) {
                // Negative numbers (e.g. a longitude) are values, not options.
                positional.append(arg)
            } else {
                throw SimpleError(.usage, "\(command): unknown option \(arg); see 'triage \(command) --help'")
            }
        }
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an option, if given.
    func value(_ option: String) -> String? { values[option] }

    private static func looksNumeric(_ s: String) -> Bool {
        s.count > 1 && Double(s) != nil
    }
}
