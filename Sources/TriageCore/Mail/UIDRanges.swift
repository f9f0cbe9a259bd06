/// Turns a list of UIDs into the fewest ascending ranges, for compact IMAP
/// sequence sets (`1:40,42,50:51`) so a batch is one short command.
public enum UIDRanges {
    /// The ranges covering exactly `uids` (any order, duplicates allowed).
    public static func ranges(_ uids: [UInt32]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        for uid in Set(uids).sorted() {
            if let last = result.last, last.upperBound < UInt32.max, last.upperBound + 1 == uid {
                result[result.count - 1] = last.lowerBound...uid
            } else {
                result.append(uid...uid)
            }
        }
        return result
    }

    /// The IMAP sequence-set text for `uids`, e.g. `1:3,7`.
    public static func sequenceSet(_ uids: [UInt32]) -> String {
        ranges(uids).map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound):\($0.upperBound)" }
            .joined(separator: ",")
    }
}
