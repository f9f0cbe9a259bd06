import Foundation

/// A folder for running Pigeonhole's `sieve-test` as root: `messages/`, `mail/`
/// (owned by the unprivileged mail user, as which sieve-test works), and `st.conf`
/// pointing sieve-test at that Maildir. sieve-test must read the script and the
/// messages and may write its compiled binary beside the script.
enum SieveTestFolder {
    /// Makes a new such folder under the temporary directory; its path.
    static func make(prefix: String) throws -> String {
        let dir = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/messages", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/mail", withIntermediateDirectories: true)
        chmod(dir, 0o755)
        chown(dir + "/mail", 65534, 65534)
        try "mail_uid = 65534\nmail_gid = 65534\nfirst_valid_uid = 1\nmail_location = maildir:\(dir)/mail\n"
            .write(toFile: dir + "/st.conf", atomically: true, encoding: .utf8)
        return dir
    }

    /// Runs `sieve-test SCRIPT MESSAGE` with the folder `dir`'s configuration (as root);
    /// its exit status and what it printed.
    static func run(in dir: String, script: String, message: String) throws -> (status: Int32, text: String) {
        let out = dir + "/sieve-test.out"
        var argv = ["/usr/bin/sieve-test"]
        if getuid() == 0 { argv += ["-c", dir + "/st.conf"] }
        let status = try Spawn.runCapturing(argv + [script, message], output: out)
        return (status, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
    }
}
