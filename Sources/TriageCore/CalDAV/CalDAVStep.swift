/// One thing a sync does, as `CalDAVSyncPlanner` decides it. The adapter performs
/// the store changes first, then the server writes, saving the state after each,
/// so a sync cut short anywhere is finished by the next one.
public enum CalDAVStep: Hashable, Sendable {
    /// PUT a new VTODO for the record with `If-None-Match: *`.
    case create(uid: String, recordID: String, fields: CalDAVFields)
    /// PUT the record's VTODO over the server's with `If-Match: etag` (none when unknown).
    case update(uid: String, recordID: String, href: String, etag: String?, fields: CalDAVFields)
    /// DELETE the server's item (`If-Match: etag` when known).
    case delete(uid: String, href: String, etag: String?)
    /// Change the record in the store: the fields that differ from it.
    case changeRecord(recordID: String, change: CalDAVRecordChange)
    /// Remember the server's item as synced with `fields` (nothing to write).
    case remember(uid: String, href: String, etag: String?, fields: CalDAVFields)
    /// Forget the item (gone from the server, or deleted there by triage).
    case forget(uid: String)
}
