import Foundation
import TriageCore
import TriageMIME

/// The reader's key, its digest's Message-ID (MAC included, so that a reply gets
/// past the check a fuzzer cannot forge) and the store's record ids.
private let key = DigestKey(secret: Array("0123456789abcdef0123456789abcdef".utf8))
private let reader = DigestCommandReader(addresses: ["me@example.test"], key: key)
private let digestID: String = {
    var builder = DigestMessageBuilder(from: "triage@example.test", to: "me@example.test", timeZone: TimeZone(identifier: "UTC")!)
    builder.key = key
    return builder.messageID(day: CivilDate(year: 2026, month: 11, day: 30))
}()
private func id(_ prefix: String) -> String { prefix + String(repeating: "0", count: 31 - prefix.count) + "1" }
private let reminderIDs = [id("0162"), id("21c1"), id("21c2")]
private let queueIDs = [id("6aa8"), id("ae6b")]
/// What the answered digest showed (not 21c2 nor ae6b), sent an hour before `now`.
private let shown = [id("0162"), id("21c1"), id("6aa8")].sorted()
private let digests = [DigestShownLedger.Shown(messageID: digestID, day: "2026-11-30", sent: "2026-11-30T08:00:00Z", ids: shown)]
private let now = Date(timeIntervalSince1970: 1_796_029_200)  // 2026-11-30T09:00:00Z

/// libFuzzer entry point: the input's first line is the Subject, the rest the
/// decoded text of a command message from the user to the user, read as a text
/// part; and the whole input as a raw message (its MIME parts, HTML, QP, base64,
/// format=flowed decoded by `MessageParser.replyBody`), both through `ReplyReader`. Each is read twice: as a reply to a
/// real digest on record (In-Reply-To with a valid MAC, so the command lines are
/// read) and as it stands (a Done link when the subject says so). Whatever is
/// obeyed names a record that digest showed and snoozes 1 to `maximumSnoozeDays`
/// days; a refusal has a reason.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDigestCommand(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: data.map { UnsafeBufferPointer(start: $0, count: size) } ?? UnsafeBufferPointer(start: nil, count: 0),
                      as: UTF8.self)
    let newline = text.firstIndex(of: "\n") ?? text.endIndex
    var message = Message()
    message.from = [Address(address: "me@example.test")]
    message.to = [Address(address: "me@example.test")]
    message.subject = String(text[..<newline])
    let body = newline < text.endIndex ? String(text[text.index(after: newline)...]) : ""
    let known = Set(shown)
    let raw = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    for part in [ReplyBody(plain: body), MessageParser.replyBody(raw, complete: true)] {
    for inReplyTo in [digestID, nil] {
        message.inReplyTo = inReplyTo
        _ = reader.isCandidate(message)
        let reply = ReplyReader.read(part, complete: true)
        switch reader.read(message, reply: reply, reminderIDs: reminderIDs, queueIDs: queueIDs, digests: digests, now: now) {
        case .apply(let commands):
            precondition(!commands.isEmpty, "obeyed, but no command")
            for command in commands {
                precondition(known.contains(command.id), "a command for a record the answered digest did not show")
                if case .snooze(let days) = command.verb {
                    precondition((1...DigestCommandReader.maximumSnoozeDays).contains(days), "snooze of \(days) days")
                }
            }
        case .refuse(let reason):
            precondition(!reason.isEmpty, "refused without a reason")
        }
    }
    }
    return 0
}
