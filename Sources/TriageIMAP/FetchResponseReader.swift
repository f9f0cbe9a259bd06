import CEtPan
import TriageCore
import TriageMIME

/// Turns libetpan's parsed `UID FETCH` answer into `FetchedMessage` values.
enum FetchResponseReader {
    /// Reads every message in `list` (a clist of `mailimap_msg_att`). Labels come
    /// from keywords (decoded with `LabelCodec`) or, on Gmail, from X-GM-LABELS.
    static func messages(_ list: UnsafeMutablePointer<clist>?, gmail: Bool) -> [FetchedMessage] {
        var result: [FetchedMessage] = []
        for attributes in CList.items(list, as: mailimap_msg_att.self) {
            if let message = message(attributes, gmail: gmail) { result.append(message) }
        }
        return result
    }

    private static func message(_ attributes: UnsafeMutablePointer<mailimap_msg_att>, gmail: Bool) -> FetchedMessage? {
        var message = FetchedMessage(uid: 0)
        var keywords: [String] = []
        var gmailLabels: [String] = []
        for item in CList.items(attributes.pointee.att_list, as: mailimap_msg_att_item.self) {
            switch Int(item.pointee.att_type) {
            case MAILIMAP_MSG_ATT_ITEM_DYNAMIC:
                guard let dynamic = item.pointee.att_data.att_dyn else { continue }
                for flagFetch in CList.items(dynamic.pointee.att_list, as: mailimap_flag_fetch.self) {
                    // \Recent belongs to one session only; it is not a fact about the message.
                    guard Int(flagFetch.pointee.fl_type) == MAILIMAP_FLAG_FETCH_OTHER,
                          let flag = flagFetch.pointee.fl_flag else { continue }
                    switch Int(flag.pointee.fl_type) {
                    case MAILIMAP_FLAG_ANSWERED: message.flags.insert("\\Answered")
                    case MAILIMAP_FLAG_FLAGGED: message.flags.insert("\\Flagged")
                    case MAILIMAP_FLAG_DELETED: message.flags.insert("\\Deleted")
                    case MAILIMAP_FLAG_SEEN: message.flags.insert("\\Seen")
                    case MAILIMAP_FLAG_DRAFT: message.flags.insert("\\Draft")
                    case MAILIMAP_FLAG_KEYWORD:
                        if let keyword = CString.string(flag.pointee.fl_data.fl_keyword) { keywords.append(keyword) }
                    case MAILIMAP_FLAG_EXTENSION:
                        if let name = CString.string(flag.pointee.fl_data.fl_extension) { message.flags.insert("\\" + name) }
                    default: break
                    }
                }
            case MAILIMAP_MSG_ATT_ITEM_STATIC:
                guard let item = item.pointee.att_data.att_static else { continue }
                readStatic(item, into: &message)
            case MAILIMAP_MSG_ATT_ITEM_EXTENSION:
                guard let data = item.pointee.att_data.att_extension_data,
                      Int(data.pointee.ext_extension?.pointee.ext_id ?? -1) == MAILIMAP_EXTENSION_XGMLABELS,
                      let labels = data.pointee.ext_data?.assumingMemoryBound(to: mailimap_msg_att_xgmlabels.self)
                else { continue }
                CList.forEach(labels.pointee.att_labels) { pointer in
                    gmailLabels.append(String(cString: pointer.assumingMemoryBound(to: CChar.self)))
                }
            default:
                break
            }
        }
        guard message.uid != 0 else { return nil }
        if gmail {
            // Gmail labels are astrings in modified UTF-7; keywords there are rare but kept.
            message.labels = Set(gmailLabels.map(ModifiedUTF7.decode) + keywords.map(LabelCodec.label(for:)))
        } else {
            message.labels = Set(keywords.map(LabelCodec.label(for:)))
        }
        return message
    }

    private static func readStatic(_ item: UnsafeMutablePointer<mailimap_msg_att_static>, into message: inout FetchedMessage) {
        switch Int(item.pointee.att_type) {
        case MAILIMAP_MSG_ATT_UID:
            message.uid = item.pointee.att_data.att_uid
        case MAILIMAP_MSG_ATT_RFC822_SIZE:
            message.size = Int(item.pointee.att_data.att_rfc822_size)
        case MAILIMAP_MSG_ATT_INTERNALDATE:
            if let date = item.pointee.att_data.att_internal_date { message.internalDate = epochSeconds(date.pointee) }
        case MAILIMAP_MSG_ATT_BODYSTRUCTURE:
            if let body = item.pointee.att_data.att_bodystructure {
                message.attachments = BodyStructureReader.attachments(body)
            }
        case MAILIMAP_MSG_ATT_BODY_SECTION:
            guard let section = item.pointee.att_data.att_body_section else { return }
            var bytes: [UInt8] = []
            if let part = section.pointee.sec_body_part {
                bytes = Array(UnsafeRawBufferPointer(start: part, count: section.pointee.sec_length))
            }
            if isHeaderSection(section.pointee.sec_section) {
                message.header = bytes
            } else {
                message.bodyPrefix = bytes
            }
        default:
            break
        }
    }

    /// Whether a body section is `[HEADER]` or `[HEADER.FIELDS (...)]` (else it is the `[TEXT]` prefix).
    private static func isHeaderSection(_ section: UnsafeMutablePointer<mailimap_section>?) -> Bool {
        guard let spec = section?.pointee.sec_spec,
              Int(spec.pointee.sec_type) == MAILIMAP_SECTION_SPEC_SECTION_MSGTEXT,
              let text = spec.pointee.sec_data.sec_msgtext else { return false }
        switch Int(text.pointee.sec_type) {
        case MAILIMAP_SECTION_MSGTEXT_HEADER, MAILIMAP_SECTION_MSGTEXT_HEADER_FIELDS: return true
        default: return false
        }
    }

    /// INTERNALDATE as seconds since 1970. libetpan keeps the zone as ±HHMM in an int.
    static func epochSeconds(_ date: mailimap_date_time) -> Int64 {
        let days = CivilDate(year: Int(date.dt_year), month: Int(date.dt_month), day: Int(date.dt_day)).daysSince1970
        let zone = Int(date.dt_zone)
        let offset = (zone < 0 ? -1 : 1) * ((abs(zone) / 100) * 3600 + (abs(zone) % 100) * 60)
        let local = Int64(days) * 86400 + Int64(date.dt_hour) * 3600 + Int64(date.dt_min) * 60 + Int64(date.dt_sec)
        return local - Int64(offset)
    }
}
