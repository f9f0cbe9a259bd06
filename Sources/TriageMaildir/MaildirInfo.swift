/// The flags in a Maildir file name's info part (`:2,FRS` plus keyword letters).
struct MaildirInfo: Equatable {
    /// Upper-case system flag letters.
    var systemLetters: Set<Character> = []
    /// Lower-case keyword letters (`a`...`z`, Dovecot's `dovecot-keywords` index).
    var keywordLetters: Set<Character> = []

    private static let flagLetters: [String: Character] = [
        "\\Draft": "D", "\\Flagged": "F", "\\Answered": "R", "\\Seen": "S", "\\Deleted": "T",
    ]

    /// Reads the info of a file name (`cur/123.abc:2,RS`); a file in `new/` has none.
    init(fileName: String) {
        guard let range = fileName.range(of: ":2,") else { return }
        for c in fileName[range.upperBound...] {
            if c.isUppercase { systemLetters.insert(c) } else if c >= "a" && c <= "z" { keywordLetters.insert(c) }
        }
    }

    /// The IMAP system flags the letters stand for.
    var systemFlags: Set<String> {
        Set(MaildirInfo.flagLetters.filter { systemLetters.contains($0.value) }.map(\.key))
    }

    /// Sets or clears an IMAP system flag (unknown flags are ignored).
    mutating func set(flag: String, _ on: Bool) {
        guard let letter = MaildirInfo.flagLetters[flag] else { return }
        if on { systemLetters.insert(letter) } else { systemLetters.remove(letter) }
    }

    /// Sets or clears a keyword letter.
    mutating func set(letter: Character, _ on: Bool) {
        if on { keywordLetters.insert(letter) } else { keywordLetters.remove(letter) }
    }

    /// The info letters in the order Maildir wants: ASCII order.
    var letters: String { String(systemLetters.sorted()) + String(keywordLetters.sorted()) }
}
