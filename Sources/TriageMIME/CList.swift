import CEtPan

/// Walks libetpan's `clist` (a linked list whose accessors are C macros that
/// Swift cannot call). Shared by the libetpan adapters (TriageMIME, TriageIMAP).
package enum CList {
    /// Calls `body` with each cell's data pointer, in order.
    /// (Inlinable, like `items`: called per message and per field from the other
    /// adapter modules, where an unspecialized generic looks up type metadata each call.)
    @inlinable
    package static func forEach(_ list: UnsafeMutablePointer<clist>?, _ body: (UnsafeMutableRawPointer) throws -> Void) rethrows {
        var cell = list?.pointee.first
        while let current = cell {
            if let data = current.pointee.data { try body(data) }
            cell = current.pointee.next
        }
    }

    /// The `data` pointers of every cell, typed as `T`.
    @inlinable
    package static func items<T>(_ list: UnsafeMutablePointer<clist>?, as type: T.Type) -> [UnsafeMutablePointer<T>] {
        var result: [UnsafeMutablePointer<T>] = []
        forEach(list) { result.append($0.assumingMemoryBound(to: T.self)) }
        return result
    }

    /// The C strings of a list of `char *`, as raw bytes.
    package static func strings(_ list: UnsafeMutablePointer<clist>?) -> [[UInt8]] {
        items(list, as: CChar.self).map { CString.bytes($0) }
    }
}
