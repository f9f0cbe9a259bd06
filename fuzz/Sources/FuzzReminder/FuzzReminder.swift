import TriageCore

/// libFuzzer entry point: parses the input as the text after `remind`. The
/// result is a spec or at least one diagnostic, never both missing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReminder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let (spec, diagnostics) = ReminderSyntax.parse(String(decoding: bytes, as: UTF8.self))
    precondition(spec != nil || !diagnostics.isEmpty, "no spec and no diagnostic")
    return 0
}
