import TriageApp
import TriageCore

/// `triage unsubscribe ID|MESSAGE-ID [--dry-run]`: what a digest's Unsubscribe
/// link asks for, from the command line.
enum UnsubscribeCommand: Command {
    static let spec = CommandSpec(
        name: "unsubscribe",
        summary: "unsubscribe from the list of a digest entry (one-click, mailto, or its page)",
        usage: ["unsubscribe ID|MESSAGE-ID [--dry-run] [--now TIME] [--config FILE]"],
        about: """
        Unsubscribes from the mailing list or newsletter of a digest entry, named by
        its short id (as the digest shows it) or by its message's Message-ID (with or
        without angle brackets), as the digest's Unsubscribe link does: RFC 8058
        one-click (an https POST) when the message offers it and your server's
        Authentication-Results vouch for its DKIM signature ([account] authserv_id),
        else the mailto: unsubscribe sent through [digest] smtp or sendmail, else the
        page to open is printed. What was done is recorded in the store
        (unsubscribe/done/) and said in the next digest.

        --dry-run says what it would do and changes nothing.
        """,
        options: [
            .flag("--dry-run", help: "say what would be done; send nothing, record nothing"),
            .now("acts as if it were TIME (ISO 8601, or local YYYY-MM-DDTHH:MM) for the record"),
            .config,
        ],
        notes: "Exit status: 0 done (or recorded earlier); 64 usage; 65 an unknown or ambiguous id, or a message "
            + "that offers no unsubscribe; 66 no configuration file; 75 the list's server could not be reached "
            + "(the next run tries again); 78 a mailto: unsubscribe without [digest] smtp.")

    static func run(_ a: Arguments, context: Context) throws -> ExitStatus {
        guard a.positional.count == 1 else {
            throw SimpleError(.usage, "unsubscribe: name one digest entry (its short id or Message-ID); "
                              + "usage: triage unsubscribe ID|MESSAGE-ID [--dry-run]")
        }
        let (setup, context) = try RunSetup.load(a, context: context)
        let entry = try find(a.positional[0], in: setup.store)
        guard entry.message.unsubscribe != nil else {
            throw SimpleError(.dataError, "unsubscribe: the message of \(DigestFormat.oneLine(entry.message.subject ?? "(no subject)", limit: 80)) "
                              + "has no List-Unsubscribe with an https: or mailto: URI")
        }
        let stamp = Timestamp(context.now, timeZone: setup.timeZone)
        if let done = try setup.store.record(UnsubscribeRecord.self, id: entry.id), done.done != nil {
            context.out("already done: " + UnsubscribeService.describe(done) + "\n")
            return .ok
        }
        let record = UnsubscribeRecord(entry: entry, requested: stamp, via: "command")
        if a.has("--dry-run") {
            context.out(UnsubscribeService.preview(record) + "\n")
            return .ok
        }
        let result = try LockWait.holding(setup.store, context: context) {
            if !setup.store.exists(UnsubscribeRecord.self, id: record.id) { try setup.store.put(record) }
            return try UnsubscribeService.carryOut(try setup.store.record(UnsubscribeRecord.self, id: record.id) ?? record,
                                                   setup: setup, now: context.now)
        }
        let line = UnsubscribeService.describe(result)
        if result.done == nil {
            context.err("triage: \(line)\n")
            return .tempFail
        }
        if result.succeeded || result.method == .link {
            context.out(line + "\n")
            return .ok
        }
        context.err("triage: \(line)\n")
        return result.answer?.contains("step:") == true ? .tempFail : .dataError
    }

    /// The digest entry a short id or a Message-ID names.
    static func find(_ text: String, in store: Store) throws -> DigestEntry {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("@") {
            let id = trimmed.hasPrefix("<") && trimmed.hasSuffix(">") ? String(trimmed.dropFirst().dropLast()) : trimmed
            let matches = store.digestEntries().records.filter {
                $0.message.messageID == id && $0.section != MailboxRunner.problemsSection && $0.rule != UnsubscribeReport.rule
            }
            guard let entry = matches.first(where: { $0.message.unsubscribe != nil }) ?? matches.first else {
                throw SimpleError(.dataError, "unsubscribe: no digest entry has the Message-ID <\(DigestFormat.oneLine(id, limit: 120))>")
            }
            return entry
        }
        let ids = try store.resolve(DigestEntry.self, [trimmed])
        guard let id = ids.first, let entry = try store.record(DigestEntry.self, id: id) else {
            throw SimpleError(.dataError, "unsubscribe: no digest entry \(DigestFormat.oneLine(trimmed, limit: 40))")
        }
        return entry
    }
}
