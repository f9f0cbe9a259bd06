import TriageCore
import TriageMIME

/// libFuzzer entry point: parses the input as a whole message. Any crash,
/// sanitizer report, leak or timeout is a finding; the result must also keep
/// the invariants every caller relies on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let message = MessageParser.parse(bytes)
    precondition(message.size == bytes.count, "size \(message.size) is not the input's \(bytes.count)")
    precondition(message.headerHash.count == 64, "header hash is not 64 hex digits")
    return 0
}
