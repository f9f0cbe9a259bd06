import Foundation
import TriageCore
import TriageMIME

/// The environment every input is compiled against: two identities (so `me`
/// compiles) and a zone with daylight saving time (so date arithmetic is exercised).
private let environment = RuleEnvironment(identities: ["me@example.test", "me.alias@example.test"],
                                          timeZone: TimeZone(identifier: "America/Chicago")!)

/// A fixed `now`: 2026-03-02T15:00:00Z, a week before the 2026 DST change in Chicago.
private let now = Date(timeIntervalSince1970: 1_772_463_600)

/// Messages the compiled rules are run on, so the matcher, `why` and the action
/// templates see fuzzed queries too: a plain one addressed to `me`, a list mail
/// with an attachment, and an empty message (every optional field missing).
private let messages: [Message] = {
    let plain = """
        From: "Ann Lee" <ann@example.org>\r
        To: Me <me@example.test>, team@example.org\r
        Cc: boss@example.com\r
        Subject: Invoice #42 for March =?UTF-8?B?4pyI?=\r
        Date: Fri, 27 Feb 2026 09:00:00 -0600\r
        Message-ID: <a1@example.org>\r
        \r
        Please pay by Friday.\r

        """
    let list = """
        From: list@lists.example.net\r
        To: dev@lists.example.net\r
        Subject: [dev] Release 1.2\r
        Date: Mon, 2 Mar 2026 08:00:00 +0000\r
        List-Id: Dev <dev.lists.example.net>\r
        Delivered-To: me.alias@example.test\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary=b\r
        \r
        --b\r
        Content-Type: text/plain\r
        \r
        notes\r
        --b\r
        Content-Type: application/pdf; name=notes.pdf\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0=\r
        --b--\r

        """
    var parsed = [MessageParser.parse(Array(plain.utf8)), MessageParser.parse(Array(list.utf8)), Message()]
    parsed[0].server.flags = ["\\Seen"]
    parsed[0].server.labels = ["Work/Invoices"]
    parsed[0].server.internalDate = 1_772_204_400
    return parsed
}()

/// libFuzzer entry point: loads the input as the only rule file of a folder
/// (lexer, parser, compiler), then runs the compiled rules on each message.
/// The load must return rules or at least one diagnostic, never both nor neither.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRules(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let source = RuleSource(path: "fuzz.rules", text: String(decoding: bytes, as: UTF8.self))
    let (compiled, diagnostics) = RuleLoader.load([source], folder: "Rules", environment: environment)
    precondition((compiled == nil) != diagnostics.isEmpty, "rules and diagnostics disagree")
    for diagnostic in diagnostics {
        precondition(diagnostic.line >= 0 && diagnostic.column >= 0, "negative diagnostic position")
    }
    guard let compiled else { return 0 }
    for message in messages {
        _ = RuleEvaluator.evaluate(message, rules: compiled, now: now, explain: true)
    }
    return 0
}
