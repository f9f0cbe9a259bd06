import Foundation
import TriageCore

/// What the key tables need while one file is read: its path and folder (to
/// resolve relative paths), whether it is private (for passwords), and the
/// problems found so far. Each kind of value is read and checked here once.
struct ConfigValues {
    let path: String
    let fileIsPrivate: Bool
    private(set) var problems: [ConfigProblem] = []

    init(path: String, fileIsPrivate: Bool) {
        self.path = path
        self.fileIsPrivate = fileIsPrivate
    }

    mutating func problem(_ line: Int, _ message: String) {
        problems.append(ConfigProblem(path: path, line: line, message: message))
    }

    /// A path relative to the configuration's folder, absolute and without `..`,
    /// so messages show a path people recognise.
    func resolve(_ p: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let expanded = (p as NSString).expandingTildeInPath
        let joined = expanded.hasPrefix("/") ? expanded : ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(expanded)
        let absolute = joined.hasPrefix("/") ? joined : FileManager.default.currentDirectoryPath + "/" + joined
        return (absolute as NSString).standardizingPath
    }

    /// `a, b, c`, empty items dropped.
    func list(_ v: String) -> [String] {
        v.split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
    }

    /// yes/no, true/false, on/off, 1/0.
    mutating func bool(_ e: INIEntry) -> Bool? {
        switch e.value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: problem(e.line, "'\(e.key)' must be yes or no, not '\(e.value)'"); return nil
        }
    }

    /// A whole number in `range`; `what` names the unit in the message ("seconds").
    mutating func number(_ e: INIEntry, _ range: ClosedRange<Int>, _ what: String = "") -> Int? {
        guard let n = Int(e.value), range.contains(n) else {
            problem(e.line, "\(e.key) must be a whole number\(what.isEmpty ? "" : " of " + what) from \(range.lowerBound) to \(range.upperBound), not '\(e.value)'")
            return nil
        }
        return n
    }

    /// A duration in whole seconds, 1 to 3600 (every timeout and budget).
    mutating func seconds(_ e: INIEntry) -> Int? {
        number(e, 1...3600, "seconds")
    }

    /// A password written in the file: only when the file is private.
    mutating func password(_ e: INIEntry) -> String {
        if !fileIsPrivate { problem(e.line, "a password in the configuration needs the file to be private; run: chmod 600 \(path)") }
        return e.value
    }
}
