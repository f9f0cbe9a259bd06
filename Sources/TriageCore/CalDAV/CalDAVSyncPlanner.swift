/// Decides what a sync does for one CalDAV list, from the store's records, the
/// saved state and what the server holds now. Pure: no I/O, no clock.
///
/// The rules (docs/caldav.md):
/// - Completion wins: done on either side since the last sync makes it done on both.
/// - Otherwise each field (title, note, due) takes the side that changed it; when
///   both changed it differently, the newer change wins (the server's LAST-MODIFIED
///   against the record's change time). An item changed on both sides since the
///   last sync is one conflict line, saying how each field was settled.
/// - Deleted on the server: done in the store (nothing is deleted there).
/// - Removed in the store: deleted on the server (done on the server wins over that).
/// - Items on the server that are not triage's (a UID no record of this list has,
///   and not in the state) are never touched: the caller passes only triage's.
public enum CalDAVSyncPlanner {
    /// What the server holds for the list, as far as this sync knows.
    public struct ServerView: Sendable {
        /// Items read from the server this time (new or changed ones; with a full
        /// listing, all of them), by UID.
        public var items: [String: CalDAVServerItem]
        /// UIDs the server reported deleted (RFC 6578 sync-collection).
        public var gone: Set<String>
        /// Whether `items` is everything on the server: then a remembered UID
        /// missing from it was deleted; otherwise it is unchanged.
        public var complete: Bool

        /// Creates a view.
        public init(items: [String: CalDAVServerItem], gone: Set<String> = [], complete: Bool) {
            self.items = items
            self.gone = gone
            self.complete = complete
        }
    }

    /// The plan for `locals` (the list's records, any status) against `state` and `server`.
    public static func plan(locals: [CalDAVLocalItem], state: CalDAVListState, server: ServerView) -> CalDAVSyncPlan {
        var plan = CalDAVSyncPlan()
        for local in locals.sorted(by: { $0.uid < $1.uid }) {
            planItem(local, remembered: state.items[local.uid], server: server, into: &plan)
        }
        return plan
    }

    /// Where the server's copy of an item stands.
    private enum ServerSide {
        case absent
        case unchanged
        case deleted
        case present(CalDAVServerItem)
    }

    private static func side(of uid: String, remembered: CalDAVItemState?, server: ServerView) -> ServerSide {
        if let item = server.items[uid] {
            // An unchanged ETag means unchanged content (RFC 4918).
            if let remembered, let etag = item.etag, etag == remembered.etag { return .unchanged }
            return .present(item)
        }
        guard remembered != nil else { return .absent }
        if server.gone.contains(uid) || server.complete { return .deleted }
        return .unchanged
    }

    private static func planItem(_ local: CalDAVLocalItem, remembered: CalDAVItemState?, server: ServerView,
                                 into plan: inout CalDAVSyncPlan) {
        let uid = local.uid
        let side = side(of: uid, remembered: remembered, server: server)
        let label = "\(local.fields.title.map { "\"\(ControlCharacters.replaced(in: String($0.prefix(60))))\"" } ?? uid)"

        if local.removed {
            switch side {
            case .absent:
                break
            case .deleted:
                plan.steps.append(.forget(uid: uid))
            case .unchanged:
                plan.steps.append(.delete(uid: uid, href: remembered!.href, etag: remembered!.etag))
            case .present(let item):
                let completedThere = item.fields.done && remembered?.synced.done != true
                if completedThere {
                    // Completion wins over removal: done in the store, kept on the server.
                    plan.steps.append(.changeRecord(recordID: local.recordID, change: CalDAVRecordChange(done: true)))
                    plan.steps.append(.remember(uid: uid, href: item.href, etag: item.etag, fields: item.fields))
                    plan.conflicts.append("\(label): removed here but completed on the server; completion wins: done here, kept there")
                } else {
                    plan.steps.append(.delete(uid: uid, href: item.href, etag: item.etag))
                }
            }
            return
        }

        switch side {
        case .absent:
            // Only open records go to the server; a done one never synced stays here.
            if !local.fields.done {
                plan.steps.append(.create(uid: uid, recordID: local.recordID, fields: local.fields))
            }
        case .deleted:
            if !local.fields.done {
                plan.steps.append(.changeRecord(recordID: local.recordID, change: CalDAVRecordChange(done: true)))
                plan.notes.append("\(label): deleted on the server; marked done here (nothing is deleted here)")
            }
            plan.steps.append(.forget(uid: uid))
        case .unchanged:
            let r = remembered!
            if local.fields.hashes != r.synced {
                plan.steps.append(.update(uid: uid, recordID: local.recordID, href: r.href, etag: r.etag, fields: local.fields))
            }
        case .present(let item):
            merge(local, item, base: remembered?.synced, label: label, into: &plan)
        }
    }

    /// Three-way merge of one item whose server copy changed (or whose base is unknown).
    private static func merge(_ local: CalDAVLocalItem, _ item: CalDAVServerItem, base: CalDAVFieldHashes?,
                              label: String, into plan: inout CalDAVSyncPlan) {
        let l = local.fields
        let s = item.fields
        var merged = l
        var change = CalDAVRecordChange()
        // Without a base (an item put there by a sync that was cut short before it
        // saved its state) the store's fields stand; completion still wins.
        let serverNewer = (item.lastModified ?? Int64.min) > local.changed

        // How each field changed on either side was settled, for the one conflict line.
        var settled: [String] = []
        func pick(_ name: String, _ lv: String?, _ sv: String?, _ baseHash: String?) -> String? {
            guard let sv, lv != sv else { return lv }   // the server has none, or the same
            guard let baseHash else { return lv }
            let localChanged = CalDAVFields.hash(lv) != baseHash
            let serverChanged = CalDAVFields.hash(sv) != baseHash
            if serverChanged && !localChanged { settled.append("\(name) from the server"); return sv }
            if localChanged && !serverChanged { settled.append("\(name) from here"); return lv }
            // Both changed it, differently.
            settled.append("\(name) changed on both sides, kept \(serverNewer ? "the server's (newer)" : "this one's (newer)")")
            return serverNewer ? sv : lv
        }
        if l.title != nil { merged.title = pick("title", l.title, s.title, base?.title) }
        // ("" for a reminder without a note, so one added on the phone is seen.)
        if l.note != nil { merged.note = pick("note", l.note, s.note ?? "", base?.note) }
        if l.due != nil { merged.due = pick("due", l.due, s.due, base?.due) }

        // Status: the side that changed it (both changed it alike: a bool can only
        // flip); completion wins over every field, which it never blocks.
        if let base {
            let localChanged = l.done != base.done
            let serverChanged = s.done != base.done
            merged.done = localChanged ? l.done : (serverChanged ? s.done : l.done)
            if localChanged || serverChanged {
                settled.insert(merged.done ? "completion wins: done on both sides" : "open on both sides", at: 0)
            }
            // Changed on both sides since the last sync, not alike: one conflict line, saying how it was settled.
            if changed(l, since: base), changed(s, since: base), serverFields(l, differFrom: s) {
                plan.conflicts.append("\(label): changed on both sides; " + settled.joined(separator: "; "))
            }
        } else {
            merged.done = l.done || s.done
        }

        if merged.title != l.title { change.title = merged.title }
        if merged.note != l.note { change.note = merged.note }
        if merged.due != l.due { change.due = merged.due }
        if merged.done != l.done { change.done = merged.done }
        if !change.isEmpty { plan.steps.append(.changeRecord(recordID: local.recordID, change: change)) }

        if serverFields(merged, differFrom: s) {
            plan.steps.append(.update(uid: local.uid, recordID: local.recordID, href: item.href, etag: item.etag, fields: merged))
        } else {
            plan.steps.append(.remember(uid: local.uid, href: item.href, etag: item.etag, fields: merged))
        }
    }

    /// Whether any field of `f` differs from `base` (a nil field is no change).
    private static func changed(_ f: CalDAVFields, since base: CalDAVFieldHashes) -> Bool {
        if f.done != base.done { return true }
        if let t = f.title, CalDAVFields.hash(t) != base.title { return true }
        if let n = f.note, CalDAVFields.hash(n) != base.note { return true }
        if let d = f.due, CalDAVFields.hash(d) != base.due { return true }
        return false
    }

    /// Whether the server's copy needs writing to hold `merged`.
    private static func serverFields(_ merged: CalDAVFields, differFrom s: CalDAVFields) -> Bool {
        if merged.done != s.done { return true }
        if let t = merged.title, t != s.title { return true }
        if let n = merged.note, n != (s.note ?? "") { return true }
        if let d = merged.due, d != s.due { return true }
        return false
    }
}
