// StoreBench: how long listing and the day's planning read take on a large store.
//
// Builds a store of 100,000 queue entries (10,000 open, 90,000 done) plus 1,000
// open reminders and 1,000 unreported digest entries in a temporary folder, then
// times (best of five, warm page cache):
//   - `triage queue list`'s work: read the open entries, index every id for short
//     ids, sort and format;
//   - `triage queue list --all`'s work: the same over all 100,000;
//   - the day's planning read: open queue entries, open reminders, unreported
//     digest entries.
// Usage: swift run -c release StoreBench [FOLDER]   (FOLDER is kept if given)
import Foundation
import TriageCore

let zone = TimeZone(identifier: "Europe/Berlin")!
let now = Date(timeIntervalSince1970: 1_772_439_300)
let stamp = Timestamp(now, timeZone: zone)
let arguments = CommandLine.arguments.dropFirst()
let keep = arguments.first != nil
let root = arguments.first ?? (NSTemporaryDirectory() + "/triage-store-bench-" + UUID().uuidString)

/// User plus system CPU seconds of this process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func message(_ n: Int) -> MessageSummary {
    MessageSummary(from: Address(name: "Sender \(n % 500)", address: "sender\(n % 500)@example.test"),
                   subject: "Receipt number \(n) for your order", date: "2026-03-01T10:00:00+01:00",
                   messageID: "m\(n)@example.test", account: "personal", mailbox: "INBOX", uid: UInt32(n),
                   snippet: String(repeating: "Thank you for your order. ", count: 6))
}

let store = Store(path: root + "/store", timeZone: zone)
if store.openQueueEntries().records.count != 10_000 {
    // Set-up only: skip fsync so that making 102,000 files takes seconds.
    store.synchronous = false
    let setup = try seconds {
        var batch = StoreBatch()
        for n in 0..<100_000 {
            let id = RecordID.forMessage(account: "personal", messageKey: "mid:m\(n)", rule: "receipts", actionKey: "queue")
            batch.add(QueueEntry(id: id, queue: ["rec", "reply", "later"][n % 3], created: stamp, due: stamp.localDay.adding(days: n % 30),
                                 status: n % 10 == 0 ? .open : .done, rule: "receipts", message: message(n)))
            if n < 1_000 {
                batch.add(Reminder(id: RecordID.forMessage(account: "personal", messageKey: "mid:m\(n)", rule: "reply", actionKey: "remind"),
                                   title: "Reply to sender \(n)", due: stamp.localDay.adding(days: n % 7), created: stamp,
                                   rule: "reply", message: message(n)))
                batch.add(DigestEntry(id: RecordID.forMessage(account: "personal", messageKey: "mid:m\(n)", rule: "news", actionKey: "digest"),
                                      section: "News", created: stamp, rule: "news", message: message(n)))
            }
            if batch.records.count >= 5_000 {
                _ = try store.write(batch)
                batch = StoreBatch()
            }
        }
        _ = try store.write(batch)
    }
    print("set-up: wrote 102,000 records in \(String(format: "%.1f", setup)) s (no fsync)")
}

/// Five runs: the best wall-clock time, the first, and the CPU time of the best.
@MainActor func best(_ label: String, _ body: () -> Int) {
    var runs: [(wall: Double, cpu: Double)] = []
    var count = 0
    for _ in 0..<5 {
        let cpu = cpuSeconds()
        let wall = seconds { count = body() }
        runs.append((wall, cpuSeconds() - cpu))
    }
    let top = runs.min { $0.wall < $1.wall }!
    print("\(label): \(count) records, best \(String(format: "%.3f", top.wall)) s (CPU \(String(format: "%.3f", top.cpu)) s), first \(String(format: "%.3f", runs[0].wall)) s")
}

/// What `triage queue list` does, minus printing.
@MainActor func list(_ statuses: [WorkStatus]) -> Int {
    let listing = store.queueEntries(statuses)
    let index = store.shortIDs(QueueEntry.self)
    let keys = listing.records.map { ($0.queue, $0.created.secondsSince1970, $0.id) }
    let entries = keys.indices.sorted { keys[$0] < keys[$1] }.map { listing.records[$0] }
    var out = ""
    for e in entries {
        out += index.short(e.id) + "  " + e.due.iso + "  " + e.message.senderLabel + "  " + (e.message.subject ?? "") + "\n"
    }
    precondition(!out.isEmpty && listing.problems.isEmpty)
    return entries.count
}

best("queue list (open of 100,000)", { list([.open]) })
best("queue list --all (100,000)", { list([.open, .done]) })
best("planning read (open queue + open reminders + unreported digest)") {
    let q = store.openQueueEntries(), r = store.openReminders(), d = store.unreportedDigestEntries()
    precondition(q.problems.isEmpty && r.problems.isEmpty && d.problems.isEmpty)
    return q.records.count + r.records.count + d.records.count
}
best("writing one batch of 50 new records with fsync") {
    store.synchronous = true
    var batch = StoreBatch()
    let base = Int.random(in: 0..<1_000_000_000)
    for n in 0..<50 {
        batch.add(DigestEntry(id: RecordID.forMessage(account: "bench", messageKey: "mid:\(base + n)", rule: "b", actionKey: "d"),
                              section: "Bench", created: stamp, rule: "b", message: message(n)))
    }
    return (try? store.write(batch).created.count) ?? 0
}

if !keep { try? FileManager.default.removeItem(atPath: root) }
