import CEtPan
import TriageCore

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
