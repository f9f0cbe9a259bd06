/// Where a reply to the digest goes, and whether triage reads it there.
///
/// The digest's `Reply-To` is the first `[digest] to` address, so a reply reaches
/// the user whatever `from` is. It cannot help when there is no `to` address, or
/// when the first one is not known to be the user's: not in `[triage] me` and no
/// account's login. Then a `from` that is none of the user's addresses either
/// leaves a reply nowhere triage reads, and `triage check` says so.
public enum DigestReplyAddress {
    /// The warning for `configuration`, or nil when replies come back to the user.
    public static func warning(_ configuration: Configuration) -> String? {
        guard let digest = configuration.digest else { return nil }
        let mine = Set(configuration.triage.me.map { $0.lowercased() }
                       + configuration.accounts.compactMap { $0.user?.lowercased() })
        let to = DigestMessageBuilder.addresses(digest.to).map { $0.address.lowercased() }
        let from = DigestMessageBuilder.addresses(digest.from).first?.address.lowercased() ?? digest.from.lowercased()
        if mine.contains(from) || to.contains(from) { return nil }
        if let first = to.first, mine.contains(first) { return nil }
        let replyTo = to.first.map { "Reply-To: \($0), which is not in [triage] me nor an account's user" } ?? "no Reply-To: [digest] to is empty"
        return "[digest] from = \(DigestFormat.oneLine(digest.from, limit: 80)) is none of your addresses ([triage] me, [digest] to) "
            + "and the digest's \(replyTo): a reply to the digest may go where triage does not read it. "
            + "Set from to your own address, or add the first [digest] to address to [triage] me"
    }
}
