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
        /// Words of the whole address (local part first).
        var words: Span
        /// Words of the local part only (a prefix of `words`).
        var local: Span
        /// Ids of the domain and each parent domain that rules mention.
        var domains: Span
    }

    /// One attachment's file name.
    struct AttachmentEntry: Sendable {
        var whole: Int32
        var ext: Int32
        var words: Span
    }

    var ids: [Int32] = []
    /// Lower-cased word text parallel to `ids`, only when some rule has a wildcard.
    var texts: [String] = []
    var addresses: [AddressEntry] = []
    /// Lower-cased addresses parallel to `addresses`, only when some rule has a wildcard.
    var addressTexts: [String] = []
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
    var size = 0
    var time: Int64?

    /// Indexes `message` against the vocabulary of `rules`.
    public init(_ message: Message, rules: CompiledRules) {
        let vocabulary = rules.vocabulary
        let keepText = rules.keepsText
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        ids.reserveCapacity(96)

        for a in message.from { addAddress(a.address, name: a.name, field: AddressField.from, rules, keepText, &buffer) }
        for a in message.to { addAddress(a.address, name: a.name, field: AddressField.to, rules, keepText, &buffer) }
        for a in message.cc { addAddress(a.address, name: a.name, field: AddressField.cc, rules, keepText, &buffer) }
        for a in message.bcc { addAddress(a.address, name: a.name, field: AddressField.bcc, rules, keepText, &buffer) }
        for a in message.replyTo { addAddress(a.address, name: a.name, field: AddressField.replyTo, rules, keepText, &buffer) }
        for a in message.deliveredTo { addAddress(a, name: nil, field: AddressField.deliveredTo, rules, keepText, &buffer) }

        if let s = message.subject { subject = addWords(s, vocabulary, keepText, &buffer) }
        if !message.snippet.isEmpty { snippet = addWords(message.snippet, vocabulary, keepText, &buffer) }

        if let list = message.listID {
            WordSplitter.lowercasedBytes(list, into: &buffer)
            lists = addSuffixes(buffer, from: 0, vocabulary, keepText)
            if keepText { listLowered = String(decoding: buffer, as: UTF8.self) }
        }
        if !message.server.labels.isEmpty {
            labels.start = Int32(ids.count)
            for label in message.server.labels { ids.append(vocabulary.id(of: LabelName.normalize(label))); if keepText { texts.append("") } }
            labels.end = Int32(ids.count)
        }
        for name in message.attachments {
            WordSplitter.lowercasedBytes(name, into: &buffer)
            let whole = buffer.withUnsafeBufferPointer { vocabulary.id(of: $0) }
            var ext: Int32 = -1
            if let dot = buffer.lastIndex(of: UInt8(ascii: ".")) {
                ext = buffer.withUnsafeBufferPointer { vocabulary.id(of: UnsafeBufferPointer(rebasing: $0[(dot + 1)...])) }
            }
            if keepText { attachmentTexts.append(String(decoding: buffer, as: UTF8.self)) }
            let words = addWords(name, vocabulary, keepText, &buffer)
            attachments.append(AttachmentEntry(whole: whole, ext: ext, words: words))
        }
        seen = message.server.isSeen
        flagged = message.server.isFlagged
        size = message.size
        time = message.date?.secondsSince1970 ?? message.server.internalDate
    }

    private mutating func addWords<S: StringProtocol>(_ text: S, _ vocabulary: Vocabulary, _ keepText: Bool, _ buffer: inout [UInt8]) -> Span {
        let start = Int32(ids.count)
        WordSplitter.forEachWord(in: text, buffer: &buffer) { word in
            ids.append(vocabulary.id(of: word))
            if keepText { texts.append(String(decoding: word, as: UTF8.self)) }
        }
        return Span(start: start, end: Int32(ids.count))
    }

    /// Ids of `bytes[from...]` and of what follows each `.` in it, where rules mention them.
    private mutating func addSuffixes(_ bytes: [UInt8], from: Int, _ vocabulary: Vocabulary, _ keepText: Bool) -> Span {
        let start = Int32(ids.count)
        bytes.withUnsafeBufferPointer { all in
            var i = from
            while i < all.count {
                let id = vocabulary.id(of: UnsafeBufferPointer(rebasing: all[i...]))
                if id >= 0 { ids.append(id) }
                guard let dot = all[i...].firstIndex(of: UInt8(ascii: ".")) else { break }
                i = dot + 1
            }
        }
        if keepText, texts.count < ids.count { texts.append(contentsOf: repeatElement("", count: ids.count - texts.count)) }
        return Span(start: start, end: Int32(ids.count))
    }

    private mutating func addAddress(_ address: String, name: String?, field: UInt8, _ rules: CompiledRules,
                                     _ keepText: Bool, _ buffer: inout [UInt8]) {
        let vocabulary = rules.vocabulary
        WordSplitter.lowercasedBytes(address, into: &buffer)
        let addressID = buffer.withUnsafeBufferPointer { vocabulary.id(of: $0) }
        if keepText { addressTexts.append(String(decoding: buffer, as: UTF8.self)) }
        var domains = Span(start: Int32(ids.count), end: Int32(ids.count))
        if let at = buffer.lastIndex(of: UInt8(ascii: "@")) {
            domains = addSuffixes(buffer, from: at + 1, vocabulary, keepText)
        }
        var nameSpan = Span(start: Int32(ids.count), end: Int32(ids.count))
        if let name { nameSpan = addWords(name, vocabulary, keepText, &buffer) }
        var local: Span
        var words: Span
        if let at = address.lastIndex(of: "@") {
            local = addWords(address[..<at], vocabulary, keepText, &buffer)
            let rest = addWords(address[at...], vocabulary, keepText, &buffer)
            words = Span(start: local.start, end: rest.end)
        } else {
            local = addWords(address, vocabulary, keepText, &buffer)
            words = local
        }
        let isMe = addressID >= 0 && rules.identityIDs.contains(addressID)
        addresses.append(AddressEntry(field: field, addressID: addressID, isMe: isMe, name: nameSpan, words: words,
                                      local: local, domains: domains))
    }

    // MARK: - Queries used by terms

    /// Whether `span` contains `id`.
    @inline(__always)
    func contains(_ span: Span, _ id: Int32) -> Bool {
        ids.withUnsafeBufferPointer { ids in
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
        guard n > 0, end - start >= n else { return false }
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
        switch field {
        case .from: return from
        case .to: return to
        case .cc: return cc
        case .bcc: return bcc
        case .replyto: return replyTo
        case .deliveredto: return deliveredTo
        default: return 0
        }
    }
}
