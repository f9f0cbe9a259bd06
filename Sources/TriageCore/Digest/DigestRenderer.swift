import Foundation

/// Renders a plan as the subject, a text part and an HTML part.
public struct DigestRenderer: Sendable {
    /// The zone message dates are shown in.
    public var timeZone: TimeZone
    /// The short ids shown with each item.
    public var ids: DigestShortIDs

    /// Creates a renderer.
    public init(timeZone: TimeZone, ids: DigestShortIDs) {
        self.timeZone = timeZone
        self.ids = ids
    }

    /// The subject and bodies of `plan`.
    public func render(_ plan: DigestPlan) -> RenderedDigest {
        let view = DigestView(plan: plan, ids: ids, timeZone: timeZone)
        return RenderedDigest(subject: view.subject, text: DigestTextRenderer().render(view),
                              html: DigestHTMLRenderer().render(view))
    }
}
