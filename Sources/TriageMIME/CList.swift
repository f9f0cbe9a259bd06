import CEtPan

/// Walks libetpan's `clist` (a linked list whose accessors are C macros that
/// Swift cannot call) and hands back the element pointers in order.
enum CList {
    /// The `data` pointers of every cell, typed as `T`.
    static func items<T>(_ list: UnsafeMutablePointer<clist>?, as type: T.Type) -> [UnsafeMutablePointer<T>] {
        var result: [UnsafeMutablePointer<T>] = []
        var cell = list?.pointee.first
        while let current = cell {
            if let data = current.pointee.data {
                result.append(data.assumingMemoryBound(to: T.self))
            }
            cell = current.pointee.next
        }
        return result
    }

    /// The C strings of a list of `char *`, as raw bytes.
    static func strings(_ list: UnsafeMutablePointer<clist>?) -> [[UInt8]] {
        items(list, as: CChar.self).map { CString.bytes($0) }
    }
}
