/// The header fields a run fetches (`BODY.PEEK[HEADER.FIELDS (...)]`) instead of the
/// whole header block, when the rules read only named fields.
extension CompiledRules {
    /// Fields every narrowed fetch brings whatever the rules are: Message-ID (record
    /// identity, also of the `Problems` digest entries a refused action makes), From,
    /// Subject and Date (the run's report, action templates such as `{subject}`, the
    /// summary of those entries, and date terms). Fixed, so identity never changes
    /// with the rules. Messages whose actions write records (queue, remind, digest,
    /// webhook) get their text and the fields it needs (`MailboxRunner.snippetHeaderFields`)
    /// before anything is written; messages without a Message-ID (identity is then the
    /// hash of the whole header) are fetched again whole.
    public static let fixedHeaderFields = ["MESSAGE-ID", "FROM", "SUBJECT", "DATE"]

    /// The header fields the rules read plus `fixedHeaderFields`, upper-case, sorted;
    /// nil when the whole header is needed: a rule with bare words reads the text,
    /// whose MIME parse needs the Content-* fields of the header.
    public var neededHeaderFields: [String]? {
        var fields = Set(Self.fixedHeaderFields)
        for term in program.terms {
            switch term {
            case .text, .textGlob:
                return nil
            case .addressMe(let bits), .addressID(let bits, _), .addressDomain(let bits, _),
                 .addressDomainOrWords(let bits, _, _), .addressWords(let bits, _), .addressGlob(let bits, _):
                fields.formUnion(Self.addressFields(bits))
            case .list, .listGlob:
                fields.insert("LIST-ID")
            case .header(let slot, _), .headerGlob(let slot, _), .headerPresent(let slot):
                let name = headerNames[Int(slot)].uppercased()
                // Sent as an atom in the FETCH: anything else is read from the whole header.
                guard !name.isEmpty, name.utf8.allSatisfy(Self.isAtomByte) else { return nil }
                fields.insert(name)
            case .subject, .subjectGlob, .isImpersonating, .olderThan, .newerThan, .atOrAfter, .before:
                break // From, Subject and Date are fixed
            case .label, .hasAttachment, .filename, .filenameGlob, .isUnread, .isRead, .isStarred, .isImportant,
                 .inFolder, .larger, .smaller, .never:
                break // server facts (flags, keywords, BODYSTRUCTURE, size, mailbox)
            }
        }
        return fields.sorted()
    }

    /// Letters, digits, `-` and `_`: a field name that needs no quoting.
    static func isAtomByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }

    /// The header fields behind `AddressField` bits.
    static func addressFields(_ bits: UInt8) -> [String] {
        let names: [(UInt8, String)] = [(AddressField.from, "FROM"), (AddressField.to, "TO"), (AddressField.cc, "CC"),
                                        (AddressField.bcc, "BCC"), (AddressField.replyTo, "REPLY-TO"),
                                        (AddressField.deliveredTo, "DELIVERED-TO")]
        return names.filter { bits & $0.0 != 0 }.map(\.1)
    }
}
