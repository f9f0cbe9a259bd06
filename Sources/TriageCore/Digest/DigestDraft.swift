/// One day's digest, planned, rendered and composed, not yet sent.
public struct DigestDraft: Sendable {
    /// What it holds.
    public var plan: DigestPlan
    /// Its subject and bodies.
    public var rendered: RenderedDigest
    /// The finished message with its envelope.
    public var message: ComposedMessage
    /// Store files that could not be read (reported, skipped).
    public var problems: [StoreProblem]

    /// Creates a draft.
    public init(plan: DigestPlan, rendered: RenderedDigest, message: ComposedMessage, problems: [StoreProblem]) {
        self.plan = plan
        self.rendered = rendered
        self.message = message
        self.problems = problems
    }
}
