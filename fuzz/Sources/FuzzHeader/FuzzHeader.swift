import TriageCore
import TriageMIME

/// libFuzzer entry point: parses the input as a header block (what IMAP's
/// `BODY.PEEK[HEADER]` returns), the path `triage run` takes for every message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let message = MessageParser.parseHeader(bytes)
    precondition(message.headerHash.count == 64, "header hash is not 64 hex digits")
    return 0
}
