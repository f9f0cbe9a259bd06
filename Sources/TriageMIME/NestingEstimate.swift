/// An upper bound on how deeply a message's MIME structure can nest.
///
/// Every nesting level libetpan recurses into needs a `multipart/...` or
/// `message/rfc822` content type, so counting those tokens (case-insensitively)
/// bounds the depth without parsing anything.
enum NestingEstimate {
    /// The number of `multipart` and `rfc822` tokens in `bytes`, counting stops at `limit + 1`.
    static func tokenCount(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        var count = 0
        let n = bytes.count
        var i = 0
        while i < n {
            let c = bytes[i] | 0x20
            if c == 0x6D, matches(bytes, at: i, "multipart") {          // 'm'
                count += 1; i += 9
            } else if c == 0x72, matches(bytes, at: i, "rfc822") {      // 'r'
                count += 1; i += 6
            } else {
                i += 1
            }
            if count > limit { return count }
        }
        return count
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard start + length <= bytes.count else { return false }
        let w = word.utf8Start
        for k in 0..<length where bytes[start + k] | 0x20 != w[k] { return false }
        return true
    }
}
