import Foundation
import TriageCore

/// Runs a `password_command` / `oauth2_token_command` and returns its output.
///
/// The command runs through `/bin/sh -c` with the secret on its standard output,
/// so the secret never appears in any process's arguments. The trailing newline
/// is stripped. Neither the secret nor anything else the command printed on
/// standard output appears in an error message. A program that is not there or
/// cannot be run (the shell's exit 127 or 126) is a configuration error (78).
///
/// Bounded (`BoundedCommand`): no standard input, at most `timeout` seconds (a
/// gpg pinentry waiting under cron must not stop every later run) and at most
/// `outputLimit` bytes; the command's whole process group is killed when it
/// overstays, and when triage itself is stopped while waiting.
package enum SecretCommand {
    /// The default of `command_timeout`, in seconds.
    package static let defaultTimeout = 30
    /// The most a secret command may print: far more than any password or token.
    package static let outputLimit = 64 * 1024

    /// Runs `command`; `purpose` (e.g. "password_command of [account personal]") names it
    /// in errors, and `section` (e.g. "[account personal]") is where `command_timeout` goes.
    package static func run(_ command: String, purpose: String, section: String, timeout: Int?) throws -> String {
        let seconds = timeout ?? defaultTimeout
        let outcome = BoundedCommand(timeout: Double(seconds), outputLimit: outputLimit).run(command)
        let secretData: Data
        switch outcome {
        case .cannotStart(let reason):
            throw SimpleError(.tempFail, "\(purpose): cannot start /bin/sh: \(reason)")
        case .timedOut:
            throw SimpleError(.tempFail, "\(purpose) did not finish within \(seconds) s and was stopped (with everything it started). "
                + "Is it waiting for a passphrase (a gpg pinentry) that nobody can type here? Run it by hand; "
                + "if it is only slow, raise command_timeout in \(section)")
        case .outputTooLarge:
            throw SimpleError(.config, "\(purpose) printed more than \(outputLimit / 1024) KiB and was stopped; "
                + "it must print only the secret on standard output")
        case .finished(let status, let signal, let output, let errorOutput):
            // The shell's 127 (not found) and 126 (not executable): the command names a program
            // that is not there. A mistake in the configuration, not a passing failure: as 75,
            // quiet_failures would hide it. The shell's complaint is the last line it wrote.
            if signal == 0 && (status == 126 || status == 127) {
                let complaint = String(decoding: errorOutput.prefix(4096), as: UTF8.self)
                    .split(whereSeparator: \.isNewline).last.map { ": " + $0.prefix(300) } ?? ""
                let key = purpose.split(separator: " ").first.map(String.init) ?? "the command"
                throw SimpleError(.config, "\(purpose)\(complaint) (exit \(status)): "
                    + "install the program or fix \(key) in \(section)")
            }
            guard status == 0 && signal == 0 else {
                let detail = String(decoding: errorOutput.prefix(500), as: UTF8.self)
                    .split(separator: "\n").first.map { ": " + $0 } ?? ""
                let how = signal != 0 ? "was killed by signal \(signal)" : "failed with exit status \(status)"
                throw SimpleError(.tempFail, "\(purpose) \(how)\(detail); run it by hand to check it prints the secret")
            }
            secretData = output
        }
        var secret = String(decoding: secretData, as: UTF8.self)
        if secret.hasSuffix("\r\n") { secret.removeLast(2) } else if secret.hasSuffix("\n") { secret.removeLast() }
        guard !secret.isEmpty else {
            throw SimpleError(.config, "\(purpose) printed nothing; it must print the secret on standard output")
        }
        return secret
    }
}
