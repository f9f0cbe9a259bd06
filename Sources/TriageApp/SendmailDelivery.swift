import Foundation
import TriageCore
#if canImport(Glibc)
import Glibc
#endif

/// `[digest] smtp = sendmail` (or `sendmail:PATH`): pipes the message to the local
/// MTA as `PATH -t -oi` (recipients from the header, a lone dot is no end of input),
/// the way mutt and cron hand mail to postfix, exim, msmtp or nullmailer.
///
/// Bounded (`BoundedCommand`): at most `timeout` seconds and a little output; the
/// program's whole process group is killed when it overstays. No shell between:
/// the path is run as written.
package struct SendmailDelivery: MailDelivery {
    /// The program.
    package var path: String
    /// Seconds it may take (`[digest] command_timeout`, default 120).
    package var timeout: Int

    /// The default time limit, in seconds: a local MTA queues at once, but a relay-only
    /// one (msmtp) talks to its server first.
    package static let defaultTimeout = 120

    package func deliver(_ message: ComposedMessage) throws {
        guard access(path, X_OK) == 0 else {
            let why = errno == ENOENT ? "does not exist" : "cannot be run (\(String(cString: strerror(errno))))"
            throw SimpleError(.config, "[digest] smtp = sendmail: \(path) \(why); install a local mail transfer agent "
                + "(postfix, exim, msmtp-mta, nullmailer) or give its path as smtp = sendmail:/path/to/sendmail")
        }
        // The local convention is LF line ends; sendmail adds CRs where the wire needs them.
        var input = Data(capacity: message.bytes.count)
        var previous: UInt8 = 0
        for byte in message.bytes {
            if previous == 13 && byte == 10 { input[input.count - 1] = 10 } else { input.append(byte) }
            previous = byte
        }
        var command = BoundedCommand(timeout: Double(timeout), outputLimit: 64 * 1024)
        command.input = input
        let retry = " The digest was not sent; the next run retries."
        switch command.run(executable: path, arguments: ["-t", "-oi"]) {
        case .cannotStart(let reason):
            throw SimpleError(.config, "[digest] smtp = sendmail: cannot start \(path): \(reason)")
        case .timedOut:
            throw MailDeliveryError(step: .timeout, server: path, message: "\(path) -t -oi did not finish within \(timeout) s "
                + "and was stopped; check the local mail system (mailq), or raise command_timeout in [digest]." + retry)
        case .outputTooLarge:
            throw MailDeliveryError(step: .sendmail, server: path, message: "\(path) -t -oi printed too much and was stopped." + retry)
        case .finished(let status, let signal, _, let errorOutput):
            // 127 and 126 are the shell's "not found" and "cannot run": a wrapper (a script that
            // execs msmtp) names a program that is not there. Retrying will not help.
            if signal == 0 && (status == 126 || status == 127) {
                throw SimpleError(.config, "[digest] smtp = sendmail: \(path) -t -oi exited \(status)\(Self.excerpt(errorOutput)): "
                    + "a program it runs is not installed or cannot be run; install it or fix smtp = sendmail:PATH in [digest]")
            }
            guard status == 0 && signal == 0 else {
                let how = signal != 0 ? "was killed by signal \(signal)" : "failed with exit status \(status)"
                throw MailDeliveryError(step: .sendmail, server: path,
                    message: "\(path) -t -oi \(how)\(Self.excerpt(errorOutput)); check the local mail system." + retry)
            }
        }
    }

    /// `: FIRST LINES` of what the program wrote on standard error: at most two lines and
    /// 300 characters, control characters as spaces (it may echo a header of the message).
    package static func excerpt(_ data: Data) -> String {
        let lines = String(decoding: data.prefix(2000), as: UTF8.self).split(whereSeparator: \.isNewline).prefix(2)
        let text = ControlCharacters.replaced(in: lines.joined(separator: " / ")).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return "" }
        return ": " + (text.count > 300 ? String(text.prefix(299)) + "…" : text)
    }
}
