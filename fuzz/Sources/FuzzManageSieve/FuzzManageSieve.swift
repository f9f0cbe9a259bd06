import TriageCore
import TriageIMAP

/// Reads `bytes` as a ManageSieve server's stream: answers one after another until
/// the bytes end or one is refused.
private func answers(_ bytes: [UInt8], limit: Int = ManageSieveReader.maxAnswerBytes) -> (read: [ManageSieveAnswer], failure: ManageSieveReader.Failure?) {
    var offset = 0
    var reader = ManageSieveReader(limit: limit) {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }
    var read: [ManageSieveAnswer] = []
    while offset < bytes.count {
        do {
            read.append(try reader.readAnswer())
        } catch {
            return (read, error)
        }
    }
    return (read, nil)
}

/// libFuzzer entry point: the input as what a server sends (greeting, capabilities,
/// LISTSCRIPTS, status lines with response codes, literals), read with the full
/// limit and with a small one (so the limit is reached inside lines, quoted strings
/// and literals). Every answer read has a status, at most `maxLines` lines, and a
/// text without control characters. Then the input as a script name: quoted and
/// escaped as a server would send it, it reads back as itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManageSieve(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    for limit in [ManageSieveReader.maxAnswerBytes, 64] {
        for answer in answers(bytes, limit: limit).read {
            precondition(["OK", "NO", "BYE"].contains(answer.status), "an answer without a status")
            precondition(answer.lines.count <= ManageSieveReader.maxLines, "too many lines")
            precondition(answer.text == ControlCharacters.replaced(in: answer.text), "controls in the text")
            _ = answer.stringLines
        }
    }
    let name = String(decoding: bytes, as: UTF8.self)
    if !name.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
        var quoted: [UInt8] = [34]
        for b in name.utf8 {
            if b == 34 || b == 92 { quoted.append(92) }
            quoted.append(b)
        }
        let listing = quoted + Array("\" ACTIVE\r\nOK \"done\"\r\n".utf8)
        let (read, failure) = answers(listing)
        precondition(failure == nil && read.count == 1, "a quoted name was not read: \(String(describing: failure))")
        let line = read[0].stringLines
        precondition(line.count == 1 && line[0].strings == [name] && line[0].atoms == ["ACTIVE"], "the name read back differs")
        precondition(read[0].ok && read[0].text == "done", "the status line read back differs")
    }
    return 0
}
