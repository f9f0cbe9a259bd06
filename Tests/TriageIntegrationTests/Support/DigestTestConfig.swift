import Foundation

/// The configuration the digest integration tests run `triage` with, written
/// into their test folder: rules in `Rules`, the store in `store`, time zone
/// America/Chicago, a digest from triage to `Me <to>` at `hour` that is not
/// sent when empty, and one rule that matches nothing, because `triage run`
/// needs rules and these tests need the store to stay as they seeded it.
enum DigestTestConfig {
    /// Writes `dir/triage.conf` and `dir/Rules/none.rules`; `digest` holds the
    /// further `[digest]` lines (`smtp = ...` and its settings).
    static func write(in dir: String, me: String? = nil, to: String = "me@example.test", hour: Int = 0,
                      digest: [String]) throws {
        let config = """
        [triage]
        \(me.map { "me = \($0)\n" } ?? "")rules = Rules
        store = store
        timezone = America/Chicago

        [digest]
        to = Me <\(to)>
        from = triage <triage@example.test>
        hour = \(hour)
        \(digest.joined(separator: "\n"))
        send_empty = no

        """
        try Data(config.utf8).write(to: URL(fileURLWithPath: dir + "/triage.conf"))
        try FileManager.default.createDirectory(atPath: dir + "/Rules", withIntermediateDirectories: true)
        try Data("rule \"nothing\" when subject:\"never ever matches\" then stop\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/Rules/none.rules"))
    }
}
