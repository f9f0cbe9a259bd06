import Foundation

/// Renders a plan as the subject, a text part and an HTML part.
public struct DigestRenderer: Sendable {
    /// The zone message dates are shown in.
    public var timeZone: TimeZone
    /// The short ids shown with each item.
    public var ids: DigestShortIDs
    /// The Done links and message links.
    public var links: DigestLinks
    /// The sections shown one line per message.
    public var compact: [String]

    /// Creates a renderer.
    public init(timeZone: TimeZone, ids: DigestShortIDs, links: DigestLinks = DigestLinks(),
                compact: [String] = DigestSection.defaultCompact) {
        self.timeZone = timeZone
        self.ids = ids
        self.links = links
        self.compact = compact
    }

    /// The subject and bodies of `plan`.
    public func render(_ plan: DigestPlan) -> RenderedDigest {
        let view = DigestView(plan: plan, ids: ids, timeZone: timeZone, links: links, compact: compact)
        return RenderedDigest(subject: view.subject, text: DigestTextRenderer().render(view),
                              html: DigestHTMLRenderer().render(view))
    }
}
