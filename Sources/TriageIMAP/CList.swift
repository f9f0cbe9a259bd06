import CEtPan
import TriageCore

/// libetpan's `clist` accessors are macros Swift cannot call: walk the cells.
enum CList {
    /// Calls `body` with each element's data pointer, in order.
    static func forEach(_ list: UnsafeMutablePointer<clist>?, _ body: (UnsafeMutableRawPointer) throws -> Void) rethrows {
        var cell = list?.pointee.first
        while let current = cell {
            if let data = current.pointee.data { try body(data) }
            cell = current.pointee.next
        }
    }

    /// The elements as typed pointers.
    static func elements<T>(_ list: UnsafeMutablePointer<clist>?, as type: T.Type) -> [UnsafeMutablePointer<T>] {
        var result: [UnsafeMutablePointer<T>] = []
        forEach(list) { result.append($0.assumingMemoryBound(to: T.self)) }
        return result
    }
}

/// Builds a libetpan `mailimap_set` (UID sequence set) from UIDs, as few ranges as possible.
enum IMAPSet {
    /// A new set the caller frees with `mailimap_set_free` (or hands to a command that does).
    static func make(_ uids: [UInt32]) -> UnsafeMutablePointer<mailimap_set> {
        let set = mailimap_set_new_empty()!
        for range in UIDRanges.ranges(uids) {
            mailimap_set_add_interval(set, range.lowerBound, range.upperBound)
        }
        return set
    }
}

/// A libetpan C string as a Swift string (nil stays nil).
func swiftString(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// A libetpan C string as a Swift string (nil stays nil).
func swiftString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}
