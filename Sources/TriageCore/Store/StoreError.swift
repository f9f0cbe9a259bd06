import Foundation

/// Why a store operation failed, with the exit status the CLI uses.
public enum StoreError: TriageError, Equatable, CustomStringConvertible {
    /// Another process holds the writer lock (exit 75: try again later).
    case locked(store: String, pid: Int32?)
    /// A file operation failed: exit 75 when the cause is the environment (a full or
    /// read-only file system, an I/O error, too many open files), which a later run
    /// may not meet; else 73.
    case io(path: String, operation: String, errno: Int32)
    /// A record named by id exists but cannot be read (exit 65).
    case unreadable(StoreProblem)
    /// One or more ids given on the command line did not name exactly one record (exit 65).
    case ids([IDProblem])
    /// `STORE/format` names a format this triage cannot read: a newer one, or not a
    /// number (exit 65, like any data this version cannot read). Nothing is changed.
    case format(store: String, found: String, supported: Int)

    /// What was wrong with one id a person typed.
    public enum IDProblem: Equatable, Sendable {
        /// No record of that kind has this id or prefix.
        case unknown(id: String, noun: String)
        /// Several records start with this prefix; each candidate is `SHORTID  description`.
        case ambiguous(id: String, noun: String, candidates: [String])
        /// Not hex, or shorter than four digits.
        case malformed(id: String, noun: String)

        /// One paragraph for standard error.
        public var message: String {
            switch self {
            case .unknown(let id, let noun):
                return "no \(noun) has the id '\(id)'; list them with --all to see every id"
            case .ambiguous(let id, let noun, let candidates):
                return "the id '\(id)' matches \(candidates.count) \(noun == "queue entry" ? "queue entries" : noun + "s"); "
                    + "type more of it to choose one:\n" + candidates.map { "  " + $0 }.joined(separator: "\n")
            case .malformed(let id, let noun):
                return "'\(id)' is not a \(noun) id; ids are hex digits, at least \(RecordID.minimumShortLength) of them"
            }
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .locked: return .tempFail
        case .io(_, _, let errno): return StoreError.isEnvironmental(errno) ? .tempFail : .cantCreate
        case .unreadable, .ids, .format: return .dataError
        }
    }

    public var message: String {
        switch self {
        case .locked(let store, let pid):
            let who = pid.map { "process \($0)" } ?? "another process"
            return "the store \(store) is locked by \(who) (lock file \(store)/lock); "
                + "another triage command is writing to it — try again when it has finished"
        case .io(let path, let operation, let errno):
            let what = "\(path): cannot \(operation): \(String(cString: strerror(errno)))"
            switch errno {
            case ENOSPC, EDQUOT:
                return what + "; the file system is full. Nothing was lost: free some space and run again, it picks up where it stopped"
            case EROFS:
                return what + "; the file system is mounted read-only. Nothing was lost: make it writable and run again"
            case _ where StoreError.isEnvironmental(errno):
                return what + "; nothing was lost: run again when the file system is healthy"
            default:
                return what + "; check the folder's permissions and free space"
            }
        case .unreadable(let problem):
            return problem.description
        case .ids(let problems):
            return problems.map(\.message).joined(separator: "\n")
        case .format(let store, let found, let supported):
            if let number = Int(found), number > supported {
                return "the store \(store) has format \(number) (\(store)/format), written by a newer triage; this one reads "
                    + "format \(supported) and changed nothing. Upgrade triage, or set `store =` in [triage] to another folder"
            }
            return "\(store)/format should hold the store's format number (\(supported)) but holds '\(ControlCharacters.replaced(in: found))'; "
                + "nothing was changed. Put \(supported) in it if this folder is a triage store, else check `store =` in [triage]"
        }
    }

    public var description: String { message }

    /// Whether a file error comes from the system's state rather than the store's
    /// setup: trying again later (exit 75) is the right answer.
    public static func isEnvironmental(_ code: Int32) -> Bool {
        [ENOSPC, EDQUOT, EROFS, EIO, ENFILE, EMFILE, ENOMEM, EAGAIN, EBUSY, EINTR, ETXTBSY].contains(code)
    }
}
