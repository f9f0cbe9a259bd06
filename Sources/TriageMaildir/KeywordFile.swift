import Foundation

/// Dovecot's `dovecot-keywords`: which keyword each Maildir letter `a`...`z` stands for
/// (lines `0 keyword`, `1 other`, ...).
struct KeywordFile {
    private var names: [Int: String] = [:]
    /// Whether `letter(for:create:)` added a keyword that `save` must write.
    private(set) var changed = false

    /// Reads the folder's file; a missing file means no keywords yet.
    static func load(_ folder: String) -> KeywordFile {
        var file = KeywordFile()
        guard let data = FileManager.default.contents(atPath: folder + "/dovecot-keywords") else { return file }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, let index = Int(parts[0]), (0..<26).contains(index) { file.names[index] = String(parts[1]) }
        }
        return file
    }

    /// The keyword of a letter.
    func name(of letter: Character) -> String? {
        guard let ascii = letter.asciiValue, ascii >= 97, ascii < 123 else { return nil }
        return names[Int(ascii) - 97]
    }

    /// The letter of a keyword; with `create`, gives it the first free letter.
    mutating func letter(for keyword: String, create: Bool) -> Character? {
        if let (index, _) = names.first(where: { $0.value == keyword }) { return Character(UnicodeScalar(UInt8(97 + index))) }
        guard create, let free = (0..<26).first(where: { names[$0] == nil }) else { return nil }
        names[free] = keyword
        changed = true
        return Character(UnicodeScalar(UInt8(97 + free)))
    }

    /// Writes the file atomically; a failure is a `MailError` for `server`.
    func save(_ folder: String, server: String) throws {
        let text = names.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        try MaildirFile.write(text, to: folder + "/dovecot-keywords", server: server)
    }
}
