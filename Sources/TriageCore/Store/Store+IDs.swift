/// Ids as people type them: every id of a kind, the short-id index over them, and
/// resolving typed prefixes to full ids.
extension Store {
    /// Every id of a kind, in any status (for short ids).
    public func allIDs<R: StoreRecord>(_ type: R.Type) -> [String] {
        var ids: [String] = []
        for status in R.statusFolders {
            ids += (try? StoreFiles.recordIDs(in: folder(R.self, status))) ?? []
        }
        return ids
    }

    /// The short-id index of a kind, over its ids in every status.
    public func shortIDs<R: StoreRecord>(_ type: R.Type) -> ShortIDIndex {
        var keys: [ShortIDIndex.Key] = []
        for status in R.statusFolders {
            _ = try? StoreFiles.forEachRecordName(in: folder(R.self, status)) { bytes in
                if let key = ShortIDIndex.Key(hex: bytes) { keys.append(key) }
            }
        }
        return ShortIDIndex(keys: keys)
    }

    /// Full ids for what a person typed (full ids or unique prefixes), in order,
    /// without repeats. Throws `StoreError.ids` naming every id that is unknown,
    /// ambiguous (with its candidates, each described by `candidateLabel`) or malformed.
    public func resolve<R: StoreRecord>(_ type: R.Type, _ typed: [String]) throws -> [String] {
        let index = shortIDs(R.self)
        var result: [String] = []
        var problems: [StoreError.IDProblem] = []
        for text in typed {
            switch index.match(text) {
            case .one(let id): if !result.contains(id) { result.append(id) }
            case .none: problems.append(.unknown(id: text, noun: R.noun))
            case .malformed: problems.append(.malformed(id: text, noun: R.noun))
            case .many(let ids):
                let candidates = ids.map { id -> String in
                    let what = (try? record(R.self, id: id))??.candidateLabel ?? ""
                    return index.short(id) + (what.isEmpty ? "" : "  " + what)
                }
                problems.append(.ambiguous(id: text, noun: R.noun, candidates: candidates))
            }
        }
        if !problems.isEmpty { throw StoreError.ids(problems) }
        return result
    }
}
