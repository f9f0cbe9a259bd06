import Foundation
import TriageApp
import TriageCore

extension RunSetup {
    /// Loads what `a`'s `--config` names, and returns it with `context` at `a`'s
    /// `--now` (read in the configured zone when it has no offset). A malformed
    /// `--now` is a usage error (64) before any file is read.
    static func load(_ a: Arguments, context: Context, withRules: Bool = false) throws -> (RunSetup, Context) {
        let now = try NowOption.parse(a)
        let setup = try load(configOption: a.value("--config"), context: context, withRules: withRules)
        return (setup, context.at(now, in: setup.timeZone))
    }
}
