import TriageConfig
import TriageCore

/// libFuzzer entry point: parses the input as `triage.conf` (inih, then the
/// validator). A bad file must throw `ConfigError` with at least one problem.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        _ = try ConfigLoader.parse(String(decoding: bytes, as: UTF8.self), path: "/fuzz/triage.conf")
    } catch let error as ConfigError {
        precondition(!error.problems.isEmpty, "a ConfigError without problems")
    } catch {
        preconditionFailure("ConfigLoader.parse threw \(type(of: error)), not ConfigError")
    }
    return 0
}
