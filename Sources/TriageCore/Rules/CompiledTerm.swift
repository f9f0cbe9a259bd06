/// Consecutive word ids stored in `QueryProgram.words`.
struct Phrase: Sendable {
    var start: Int32
    var count: Int32
}

/// A query term ready to run against a `MessageIndex`: its words are vocabulary
/// ids (phrases point into a shared pool, wildcards into a table), its dates
/// instants in the configured time zone. It holds no references, so matching
/// does no reference counting.
enum CompiledTerm: Sendable {
    case addressMe(UInt8)
    case addressID(UInt8, Int32)
    case addressDomain(UInt8, Int32)
    case addressDomainOrWords(UInt8, Int32, Phrase)
    case addressWords(UInt8, Phrase)
    case addressGlob(UInt8, Int32)
    case text(Phrase)
    case textGlob(Int32)
    case subject(Phrase)
    case subjectGlob(Int32)
    case list(Int32)
    case listGlob(Int32)
    case label(Int32)
    case hasAttachment
    case filename(Int32, Phrase)
    case filenameGlob(Int32)
    case isUnread
    case isRead
    case isStarred
    case isImportant
    case isImpersonating
    /// A header (index into `CompiledRules.headerNames`) with these words.
    case header(Int32, Phrase)
    case headerGlob(Int32, Int32)
    /// A header with any value.
    case headerPresent(Int32)
    case inFolder(Int32)
    case larger(Int)
    case smaller(Int)
    case olderThan(Int64)
    case newerThan(Int64)
    case atOrAfter(Int64)
    case before(Int64)
    case never

    /// Whether the term holds for the message at the instant `now` (seconds since 1970);
    /// `pool` holds phrase words, `globs` the wildcard patterns.
    @inline(__always)
    func matches(_ ix: MessageIndex, now: Int64, pool: UnsafeBufferPointer<Int32>, globs: [Glob]) -> Bool {
        switch self {
        case .addressMe(let f):
            return ix.meFields & f != 0
        case .addressID(let f, let id):
            guard ix.isPresent(id) else { return false }
            for i in ix.addresses.indices where ix.addresses[i].field & f != 0 && ix.addresses[i].addressID == id { return true }
            return false
        case .addressDomain(let f, let id):
            for i in ix.addresses.indices where ix.addresses[i].field & f != 0 && ix.contains(ix.addresses[i].domains, id) { return true }
            return false
        case .addressDomainOrWords(let f, let id, let words):
            for i in ix.addresses.indices where ix.addresses[i].field & f != 0 {
                let a = ix.addresses[i]
                // A name's own address or domain look-alikes never count (see `NameDisguise`).
                if ix.contains(a.domains, id) || ix.contains(a.plainName, phrase: words, pool: pool)
                    || ix.contains(a.local, phrase: words, pool: pool) { return true }
            }
            return false
        case .addressWords(let f, let words):
            for i in ix.addresses.indices where ix.addresses[i].field & f != 0 {
                let a = ix.addresses[i]
                if ix.contains(a.name, phrase: words, pool: pool) || ix.contains(a.words, phrase: words, pool: pool) { return true }
            }
            return false
        case .addressGlob(let f, let g):
            let glob = globs[Int(g)]
            for i in ix.addresses.indices where ix.addresses[i].field & f != 0 {
                let a = ix.addresses[i]
                if glob.matches(ix.addressTexts[i]) || ix.contains(a.name, glob: glob) || ix.contains(a.words, glob: glob) { return true }
            }
            return false
        case .text(let words):
            if ix.contains(ix.subject, phrase: words, pool: pool) || ix.contains(ix.snippet, phrase: words, pool: pool) { return true }
            for i in ix.addresses.indices where ix.addresses[i].field & AddressField.from != 0 {
                let a = ix.addresses[i]
                if ix.contains(a.name, phrase: words, pool: pool) || ix.contains(a.words, phrase: words, pool: pool) { return true }
            }
            return false
        case .textGlob(let g):
            let glob = globs[Int(g)]
            if ix.contains(ix.subject, glob: glob) || ix.contains(ix.snippet, glob: glob) { return true }
            for i in ix.addresses.indices where ix.addresses[i].field & AddressField.from != 0 {
                let a = ix.addresses[i]
                if glob.matches(ix.addressTexts[i]) || ix.contains(a.name, glob: glob) || ix.contains(a.words, glob: glob) { return true }
            }
            return false
        case .subject(let words): return ix.contains(ix.subject, phrase: words, pool: pool)
        case .subjectGlob(let g): return ix.contains(ix.subject, glob: globs[Int(g)])
        case .list(let id): return ix.contains(ix.lists, id)
        case .listGlob(let g): return !ix.listLowered.isEmpty && globs[Int(g)].matches(ix.listLowered)
        case .label(let id): return ix.hasLabel(id)
        case .hasAttachment: return !ix.attachments.isEmpty
        case .filename(let id, let words):
            for a in ix.attachments where a.whole == id || a.ext == id || ix.contains(a.words, phrase: words, pool: pool) { return true }
            return false
        case .filenameGlob(let g):
            let glob = globs[Int(g)]
            for i in ix.attachments.indices where glob.matches(ix.attachmentTexts[i]) || ix.contains(ix.attachments[i].words, glob: glob) {
                return true
            }
            return false
        case .isUnread: return !ix.isSeen
        case .isRead: return ix.isSeen
        case .isStarred: return ix.isFlagged
        case .isImportant: return ix.important
        case .isImpersonating: return ix.impersonating
        case .header(let name, let words):
            for h in ix.headers where h.name == name && ix.contains(h.words, phrase: words, pool: pool) { return true }
            return false
        case .headerGlob(let name, let g):
            let glob = globs[Int(g)]
            for h in ix.headers where h.name == name && ix.contains(h.words, glob: glob) { return true }
            return false
        case .headerPresent(let name):
            for h in ix.headers where h.name == name { return true }
            return false
        case .inFolder(let id): return id >= 0 && ix.mailboxID == id
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
