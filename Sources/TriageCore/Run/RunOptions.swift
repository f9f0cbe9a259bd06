/// How `triage run` walks the mailboxes.
public struct RunOptions: Sendable {
    /// Walk the whole mailbox, with or without state.
    public var all = false
    /// On a first run, take messages that arrived on or after this day.
    public var since: CivilDate?
    /// Connect read-only and change nothing anywhere; report what would happen.
    public var dryRun = false
    /// Messages per batch: per store write and per round of server actions (each
    /// `UID STORE`/`UID MOVE` names the whole batch), and per state save.
    public var batchSize = 250
    /// Messages per `UID FETCH` within a batch (at most `batchSize`): a large batch
    /// still fetches and parses in chunks of this size, so the fetched data never
    /// piles up.
    public var fetchSize = 1000

    /// Creates default options (only new mail, batches of 250).
    public init(all: Bool = false, since: CivilDate? = nil, dryRun: Bool = false, batchSize: Int = 250) {
        self.all = all
        self.since = since
        self.dryRun = dryRun
        self.batchSize = batchSize
    }
}
