import Foundation
import TriageCore

/// Runs a `password_command` / `oauth2_token_command` and returns its output.
///
/// The command runs through `/bin/sh -c` with the secret on its standard output,
/// so the secret never appears in any process's arguments. The trailing newline
/// is stripped. The secret itself never appears in an error message.
enum SecretCommand {
    /// Runs `command`; `purpose` (e.g. "password_command of [account personal]") names it in errors.
    static func run(_ command: String, purpose: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw SimpleError(.tempFail, "\(purpose): cannot start /bin/sh: \(error)")
        }
        // Drain standard error on another thread so a chatty command cannot block on a full pipe.
        let stderrBox = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { stderrBox.data = err.fileHandleForReading.readDataToEndOfFile() }
        let secretData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let stderrData = stderrBox.data
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let detail = String(decoding: stderrData.prefix(500), as: UTF8.self)
                .split(separator: "\n").first.map { ": " + $0 } ?? ""
            throw SimpleError(.tempFail, "\(purpose) failed with exit status \(process.terminationStatus)\(detail); run it by hand to check it prints the secret")
        }
        var secret = String(decoding: secretData, as: UTF8.self)
        if secret.hasSuffix("\r\n") { secret.removeLast(2) } else if secret.hasSuffix("\n") { secret.removeLast() }
        guard !secret.isEmpty else {
            throw SimpleError(.config, "\(purpose) printed nothing; it must print the secret on standard output")
        }
        return secret
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}
