/// A query term ready to run against a `MessageIndex`: its words are vocabulary
/// ids, its dates instants in the configured time zone.
enum CompiledTerm: Sendable {
    case addressMe(UInt8)
    case addressID(UInt8, Int32)
    case addressDomain(UInt8, Int32)
    case addressDomainOrWords(UInt8, Int32, [Int32])
    case addressWords(UInt8, [Int32])
    case addressGlob(UInt8, Glob)
    case text([Int32])
    case textGlob(Glob)
    case subject([Int32])
    case subjectGlob(Glob)
    case list(Int32)
    case listGlob(Glob)
    case label(Int32)
    case hasAttachment
    case filename(Int32, [Int32])
    case filenameGlob(Glob)
    case isUnread
    case isRead
    case isStarred
    case larger(Int)
    case smaller(Int)
    case olderThan(Int64)
    case newerThan(Int64)
    case atOrAfter(Int64)
    case before(Int64)
    case never

    /// Whether the term holds for the message at the instant `now` (seconds since 1970).
    @inline(__always)
    func matches(_ ix: MessageIndex, now: Int64) -> Bool {
        switch self {
        case .addressMe(let f):
            for a in ix.addresses where a.field & f != 0 && a.isMe { return true }
            return false
        case .addressID(let f, let id):
            for a in ix.addresses where a.field & f != 0 && a.addressID == id { return true }
            return false
        case .addressDomain(let f, let id):
            for a in ix.addresses where a.field & f != 0 && ix.contains(a.domains, id) { return true }
            return false
        case .addressDomainOrWords(let f, let id, let words):
            for a in ix.addresses where a.field & f != 0 {
                if ix.contains(a.domains, id) || ix.contains(a.name, phrase: words) || ix.contains(a.local, phrase: words) { return true }
            }
            return false
        case .addressWords(let f, let words):
            for a in ix.addresses where a.field & f != 0 {
                if ix.contains(a.name, phrase: words) || ix.contains(a.words, phrase: words) { return true }
            }
            return false
        case .addressGlob(let f, let glob):
            for a in ix.addresses where a.field & f != 0 {
                if glob.matches(a.lowered) || ix.contains(a.name, glob: glob) || ix.contains(a.words, glob: glob) { return true }
            }
            return false
        case .text(let words):
            if ix.contains(ix.subject, phrase: words) || ix.contains(ix.snippet, phrase: words) { return true }
            for a in ix.addresses where a.field & AddressField.from != 0 {
                if ix.contains(a.name, phrase: words) || ix.contains(a.words, phrase: words) { return true }
            }
            return false
        case .textGlob(let glob):
            if ix.contains(ix.subject, glob: glob) || ix.contains(ix.snippet, glob: glob) { return true }
            for a in ix.addresses where a.field & AddressField.from != 0 {
                if glob.matches(a.lowered) || ix.contains(a.name, glob: glob) || ix.contains(a.words, glob: glob) { return true }
            }
            return false
        case .subject(let words): return ix.contains(ix.subject, phrase: words)
        case .subjectGlob(let glob): return ix.contains(ix.subject, glob: glob)
        case .list(let id): return ix.contains(ix.lists, id)
        case .listGlob(let glob): return !ix.listLowered.isEmpty && glob.matches(ix.listLowered)
        case .label(let id): return ix.contains(ix.labels, id)
        case .hasAttachment: return !ix.attachments.isEmpty
        case .filename(let id, let words):
            for a in ix.attachments where a.whole == id || a.ext == id || ix.contains(a.words, phrase: words) { return true }
            return false
        case .filenameGlob(let glob):
            for a in ix.attachments where glob.matches(a.lowered) || ix.contains(a.words, glob: glob) { return true }
            return false
        case .isUnread: return !ix.seen
        case .isRead: return ix.seen
        case .isStarred: return ix.flagged
        case .larger(let n): return ix.size > n
        case .smaller(let n): return ix.size < n
        case .olderThan(let age):
            guard let t = ix.time else { return false }
            return t < now - age
        case .newerThan(let age):
            guard let t = ix.time else { return false }
            return t > now - age
        case .atOrAfter(let instant):
            guard let t = ix.time else { return false }
            return t >= instant
        case .before(let instant):
            guard let t = ix.time else { return false }
            return t < instant
        case .never: return false
        }
    }
}
