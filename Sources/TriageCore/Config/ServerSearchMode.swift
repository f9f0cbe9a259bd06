/// `server_search = auto | substring | off` in an `[account]` section: whether a run
/// may let the server's `UID SEARCH` pick the messages worth fetching
/// (`ServerNarrowing`). Narrowing is exact only on a server whose SEARCH finds
/// substrings in any case (RFC 3501; Dovecot, Cyrus and Courier without a
/// full-text index); one that searches whole words (Gmail, a full-text search
/// plugin) would miss messages, so it must not be trusted blindly.
public enum ServerSearchMode: String, CaseIterable, Sendable {
    /// Probe the server once (`ServerSearchVerdict`) and narrow when its SEARCH
    /// finds an inner substring in another case; never on Gmail. The default.
    case auto
    /// Trust the server's SEARCH without probing.
    case substring
    /// Never narrow: fetch every new message.
    case off

    /// Why a server with `capabilities` is not asked to narrow under this mode, before
    /// any probe; nil when it may be (`substring`, or `auto` but for Gmail, whose
    /// `X-GM-EXT-1` SEARCH matches whole words).
    public func refusal(capabilities: Set<String>) -> String? {
        switch self {
        case .off: return "server_search = off"
        case .auto where capabilities.contains("X-GM-EXT-1"):
            return "Gmail's search finds whole words only, not parts of addresses, so asking it could miss mail "
                + "(server_search = auto)"
        case .auto, .substring: return nil
        }
    }
}
