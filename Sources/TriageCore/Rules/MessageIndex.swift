/// A message prepared for matching, built once per message and shared by every
/// rule: each word, address, domain, list id, label and file name is lower-cased
/// and replaced by its vocabulary id (or -1 when no rule mentions it), so terms
/// compare integers. Word text is kept only when some rule uses a `*` wildcard.
public struct MessageIndex: Sendable {
    /// A run of `ids`.
    struct Span: Sendable {
        var start: Int32 = 0
        var end: Int32 = 0
    }

    /// One mailbox of an address header.
    struct AddressEntry: Sendable {
        /// The header it came from (`AddressField` bits).
        var field: UInt8
        /// The whole lower-cased address's id.
        var addressID: Int32
        /// Whether it is one of the configured identities.
        var isMe: Bool
        /// Words of the display name.
        var name: Span
        /// Words of the display name outside the parts that show an address or a
        /// domain (`NameDisguise`), with a -1 where each such part was, so no phrase
        /// spans one: what a dotted value such as `from:john.smith` may match.
        var plainName: Span
        /// Words of the whole address (local part first).
        var words: Span
        /// Words of the local part only (a prefix of `words`).
        var local: Span
        /// Ids of the domain and each parent domain that rules mention.
        var domains: Span
    }

    /// One header field a `header:` term names.
    struct HeaderEntry: Sendable {
        /// Its name's index in `CompiledRules.headerNames`.
        var name: Int32
        /// Words of its value.
        var words: Span
    }

    /// One attachment's file name.
    struct AttachmentEntry: Sendable {
        var whole: Int32
        var ext: Int32
        var words: Span
    }

    var ids: [Int32] = []
    /// One bit per vocabulary id that occurs anywhere in `ids`, so most terms are
    /// rejected without scanning.
    var present: [UInt64]
    /// Lower-cased word text parallel to `ids`, only when some rule has a wildcard.
    var texts: [String] = []
    var addresses: [AddressEntry] = []
    /// Lower-cased addresses parallel to `addresses`, only when some rule has a wildcard.
    var addressTexts: [String] = []
    /// The `AddressField` bits of headers that hold one of the identities.
    var meFields: UInt8 = 0
    /// Whether a From display name shows another domain than its address (`is:impersonating`).
    var impersonating = false
    var subject = Span()
    var snippet = Span()
    var lists = Span()
    var listLowered = ""
    var labels = Span()
    var attachments: [AttachmentEntry] = []
    /// Lower-cased file names parallel to `attachments`, only when some rule has a wildcard.
    var attachmentTexts: [String] = []
    var seen = false
    var flagged = false
    /// Gmail's `\Important` label (X-GM-LABELS).
    var important = false
    var headers: [HeaderEntry] = []
    /// The id of the mailbox's name in the rules' form (`PlannedFacts.folderKey`), -1 when none.
    var mailbox: Int32 = -1
    var size = 0
    var time: Int64?
    /// What the actions planned so far change (later rules of the same pass see it).
    var planned = PlannedFacts()
    /// Maps move targets to the rules' folder names, for `in:` after a planned move.
    private let folders: FolderNamespace

    /// Indexes `message` against the vocabulary of `rules`. `folders` is the server's
    /// namespace, so `in:Lists/dev` finds the mailbox whatever way it is written.
    public init(_ message: Message, rules: CompiledRules, folders: FolderNamespace = .plain) {
        present = Array(repeating: 0, count: (rules.vocabulary.count + 63) / 64)
        self.folders = folders
        var builder = Builder(rules: rules)
        ids.reserveCapacity(96)

        for a in message.from { addAddress(a.address, name: a.name, field: AddressField.from, &builder) }
        for a in message.to { addAddress(a.address, name: a.name, field: AddressField.to, &builder) }
        for a in message.cc { addAddress(a.address, name: a.name, field: AddressField.cc, &builder) }
        for a in message.bcc { addAddress(a.address, name: a.name, field: AddressField.bcc, &builder) }
        for a in message.replyTo { addAddress(a.address, name: a.name, field: AddressField.replyTo, &builder) }
        for a in message.deliveredTo { addAddress(a, name: nil, field: AddressField.deliveredTo, &builder) }

        if let s = message.subject { subject = addWords(s, &builder) }
        if !message.snippet.isEmpty { snippet = addWords(message.snippet, &builder) }

        if let list = message.listID {
            WordSplitter.lowercasedBytes(list, into: &builder.lowered)
            lists = addSuffixes(from: 0, &builder)
            if builder.keepText { listLowered = String(decoding: builder.lowered, as: UTF8.self) }
        }
        if !message.server.labels.isEmpty {
            labels.start = Int32(ids.count)
            for label in message.server.labels { add(builder.vocabulary.id(of: LabelName.key(label)), "", builder.keepText) }
            labels.end = Int32(ids.count)
        }
        for name in message.attachments {
            WordSplitter.lowercasedBytes(name, into: &builder.lowered)
            let vocabulary = builder.vocabulary
            let (whole, ext) = builder.lowered.withUnsafeBufferPointer { bytes -> (Int32, Int32) in
                let whole = vocabulary.id(of: bytes)
                guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return (whole, -1) }
                return (whole, vocabulary.id(of: UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])))
            }
            if builder.keepText { attachmentTexts.append(String(decoding: builder.lowered, as: UTF8.self)) }
            attachments.append(AttachmentEntry(whole: whole, ext: ext, words: addWords(name, &builder)))
        }
        if !rules.headerNames.isEmpty {
            for field in message.headers {
                guard let slot = rules.headerNames.firstIndex(of: field.name.lowercased()) else { continue }
                headers.append(HeaderEntry(name: Int32(slot), words: addWords(field.value, &builder)))
            }
        }
        if let name = message.server.mailbox {
            mailbox = builder.vocabulary.id(of: PlannedFacts.folderKey(name, folders))
        }
        seen = message.server.isSeen
        flagged = message.server.isFlagged
        important = message.server.labels.contains { $0.lowercased() == "\\important" }
        size = message.size
        time = message.date?.secondsSince1970 ?? message.server.internalDate
    }

    /// What building needs besides the index itself: the rules' vocabulary and scratch space.
    private struct Builder {
        let vocabulary: Vocabulary
        let identityIDs: [Int32]
        let keepText: Bool
        var lowered: [UInt8] = []
        var scratch: [UInt8] = []

        init(rules: CompiledRules) {
            vocabulary = rules.vocabulary
            identityIDs = rules.identityIDs
            keepText = rules.keepsText
            lowered.reserveCapacity(64)
            scratch.reserveCapacity(64)
        }
    }

    @inline(__always)
    private mutating func add(_ id: Int32, _ text: @autoclosure () -> String, _ keepText: Bool) {
        ids.append(id)
        mark(id)
        if keepText { texts.append(text()) }
    }

    @inline(__always)
    private mutating func mark(_ id: Int32) {
        if id >= 0 { present[Int(id) >> 6] |= 1 << UInt64(id & 63) }
    }

    private mutating func addWords<S: StringProtocol>(_ text: S, _ builder: inout Builder) -> Span {
        let start = Int32(ids.count)
        let vocabulary = builder.vocabulary
        let keepText = builder.keepText
        WordSplitter.forEachWord(in: text, buffer: &builder.scratch) { word in
            add(vocabulary.id(of: word), String(decoding: word, as: UTF8.self), keepText)
        }
        return Span(start: start, end: Int32(ids.count))
    }

    /// Words of `builder.lowered[range]`, which is already lower-cased.
    private mutating func addLoweredWords(_ range: Range<Int>, _ builder: inout Builder) -> Span {
        let start = Int32(ids.count)
        let vocabulary = builder.vocabulary
        let keepText = builder.keepText
        let bytes = builder.lowered
        bytes.withUnsafeBufferPointer { all in
            WordSplitter.scan(UnsafeBufferPointer(rebasing: all[range]), &builder.scratch) { word in
                add(vocabulary.id(of: word), String(decoding: word, as: UTF8.self), keepText)
            }
        }
        return Span(start: start, end: Int32(ids.count))
    }

    /// Ids of `builder.lowered[from...]` and of what follows each `.` in it, where rules mention them.
    private mutating func addSuffixes(from: Int, _ builder: inout Builder) -> Span {
        let start = Int32(ids.count)
        let vocabulary = builder.vocabulary
        let bytes = builder.lowered
        bytes.withUnsafeBufferPointer { all in
            var i = from
            while i < all.count {
                let id = vocabulary.id(of: UnsafeBufferPointer(rebasing: all[i...]))
                if id >= 0 { add(id, "", builder.keepText) }
                guard let dot = all[i...].firstIndex(of: UInt8(ascii: ".")) else { break }
                i = dot + 1
            }
        }
        return Span(start: start, end: Int32(ids.count))
    }

    private mutating func addAddress(_ address: String, name: String?, field: UInt8, _ builder: inout Builder) {
        WordSplitter.lowercasedBytes(address, into: &builder.lowered)
        let vocabulary = builder.vocabulary
        let addressID = builder.lowered.withUnsafeBufferPointer { vocabulary.id(of: $0) }
        mark(addressID)
        if builder.keepText { addressTexts.append(String(decoding: builder.lowered, as: UTF8.self)) }
        let at = builder.lowered.lastIndex(of: UInt8(ascii: "@"))
        var domains = Span(start: Int32(ids.count), end: Int32(ids.count))
        if let at { domains = addSuffixes(from: at + 1, &builder) }
        let count = builder.lowered.count
        let local = addLoweredWords(0..<(at ?? count), &builder)
        let rest = at.map { addLoweredWords(($0 + 1)..<count, &builder) } ?? Span(start: local.end, end: local.end)
        let words = Span(start: local.start, end: rest.end)
        var nameSpan = Span(start: Int32(ids.count), end: Int32(ids.count))
        var plainName = nameSpan
        if let name {
            nameSpan = addWords(name, &builder)
            plainName = nameSpan
            let shown = NameDisguise.shown(in: name)
            if !shown.isEmpty {
                plainName = addWords(name, outside: shown, &builder)
                if field == AddressField.from, NameDisguise.foreignDomain(shown, address: address) != nil { impersonating = true }
            }
        }
        let isMe = addressID >= 0 && builder.identityIDs.contains(addressID)
        if isMe { meFields |= field }
        addresses.append(AddressEntry(field: field, addressID: addressID, isMe: isMe, name: nameSpan, plainName: plainName,
                                      words: words, local: local, domains: domains))
    }

    /// Words of `name` outside the `shown` parts, with a -1 in place of each part.
    private mutating func addWords(_ name: String, outside shown: [NameDisguise.Shown], _ builder: inout Builder) -> Span {
        let start = Int32(ids.count)
        var rest = name.startIndex
        for part in shown {
            _ = addWords(name[rest..<part.range.lowerBound], &builder)
            add(-1, "", builder.keepText)
            rest = part.range.upperBound
        }
        _ = addWords(name[rest...], &builder)
        return Span(start: start, end: Int32(ids.count))
    }

    // MARK: - Facts as planned so far

    /// Applies a planned action to what later rules see (`PlannedFacts`).
    mutating func plan(_ action: Action, rules: CompiledRules) {
        planned.apply(action, vocabulary: rules.vocabulary, folders: folders)
    }

    /// Whether the message carries label `id`, after the actions planned so far.
    func hasLabel(_ id: Int32) -> Bool {
        planned.label(id) ?? contains(labels, id)
    }

    /// `\Seen`, after the actions planned so far.
    var isSeen: Bool { planned.seen ?? seen }
    /// `\Flagged`, after the actions planned so far.
    var isFlagged: Bool { planned.flagged ?? flagged }
    /// The mailbox's id, after the moves planned so far.
    var mailboxID: Int32 { planned.mailbox ?? mailbox }

    // MARK: - Queries used by terms

    /// Whether `id` occurs anywhere in the message.
    @inline(__always)
    func isPresent(_ id: Int32) -> Bool {
        id >= 0 && present[Int(id) >> 6] & (1 << UInt64(id & 63)) != 0
    }

    /// Whether `span` contains `id`.
    @inline(__always)
    func contains(_ span: Span, _ id: Int32) -> Bool {
        guard isPresent(id) else { return false }
        return ids.withUnsafeBufferPointer { ids in
            var i = Int(span.start)
            let end = Int(span.end)
            while i < end {
                if ids[i] == id { return true }
                i += 1
            }
            return false
        }
    }

    /// Whether `span` contains the consecutive words `phrase` (ids in `pool`).
    @inline(__always)
    func contains(_ span: Span, phrase: Phrase, pool: UnsafeBufferPointer<Int32>) -> Bool {
        let n = Int(phrase.count)
        let p = Int(phrase.start)
        if n == 1 { return contains(span, pool[p]) }
        let start = Int(span.start), end = Int(span.end)
        guard n > 0, end - start >= n, isPresent(pool[p]) else { return false }
        return ids.withUnsafeBufferPointer { ids in
            var i = start
            while i + n <= end {
                var j = 0
                while j < n, ids[i + j] == pool[p + j] { j += 1 }
                if j == n { return true }
                i += 1
            }
            return false
        }
    }

    /// Whether some word in `span` matches `glob` (needs `texts`).
    func contains(_ span: Span, glob: Glob) -> Bool {
        var i = Int(span.start)
        while i < Int(span.end) {
            if i < texts.count, glob.matches(texts[i]) { return true }
            i += 1
        }
        return false
    }
}

/// Bits naming the address headers, so one term can look at several.
enum AddressField {
    static let from: UInt8 = 1
    static let to: UInt8 = 2
    static let cc: UInt8 = 4
    static let bcc: UInt8 = 8
    static let replyTo: UInt8 = 16
    static let deliveredTo: UInt8 = 32

    /// The bit of an address operator.
    static func bit(_ field: QueryField) -> UInt8 {
        QueryOperator[field].addressBit
    }
}
