import Foundation

/// The chunks of one batch, fetched one ahead of the caller: while the run parses
/// and classifies chunk k, a second thread has the server send chunk k+1, so the
/// server's work and triage's overlap instead of adding up (docs/BENCHMARKS.md).
///
/// The connection is used by one thread at a time and handed over explicitly: the
/// second thread has it from `prefetch()` until the next `next()` or `finish()` has
/// waited for that fetch; the caller must not use the connection in between. At
/// most two chunks are held: the one handed out and the one being fetched. A
/// fetch's error is thrown by the `next()` that would hand out its chunk, which is
/// where a run without the second thread meets it, after the chunks before it.
final class ChunkFetches {
    private let chunks: [[UInt32]]
    private let fetch: ([UInt32]) throws -> [FetchedMessage]
    private var position = 0
    private var inFlight: InFlight?

    /// `uids` in chunks of `size`, each fetched with `fetch` (on the calling thread
    /// or, after `prefetch()`, on a second one).
    init(_ uids: [UInt32], size: Int, fetch: @escaping ([UInt32]) throws -> [FetchedMessage]) {
        chunks = Self.split(uids, size: size)
        self.fetch = fetch
    }

    /// `uids` in order, in chunks of at most `size` (at least 1): the unit of every
    /// FETCH of a run, so no answer holds more than a chunk's messages.
    static func split(_ uids: [UInt32], size: Int) -> [[UInt32]] {
        let size = max(1, size)
        return stride(from: 0, to: uids.count, by: size).map { Array(uids[$0..<min($0 + size, uids.count)]) }
    }

    /// The next chunk's messages: the prefetched answer when one is in flight (waiting
    /// for it), else fetched now. Nil after the last chunk.
    func next() throws -> [FetchedMessage]? {
        if let flight = inFlight {
            inFlight = nil
            flight.done.wait()
            return try flight.result.get()
        }
        guard position < chunks.count else { return nil }
        position += 1
        return try fetch(chunks[position - 1])
    }

    /// Starts fetching the next chunk on a second thread, if there is one; from now
    /// until the next `next()` the connection is that thread's.
    func prefetch() {
        guard inFlight == nil, position < chunks.count else { return }
        let chunk = chunks[position], fetch = self.fetch
        position += 1
        let flight = InFlight { try fetch(chunk) }
        inFlight = flight
        let thread = Thread { flight.run() }
        // What the main thread has: libetpan's parse of a FETCH answer recurses.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for a fetch still in flight and drops it: the connection is the
    /// caller's again. Safe to call twice.
    func finish() {
        if let flight = inFlight {
            inFlight = nil
            flight.done.wait()
        }
    }

    /// One chunk's fetch on the second thread. `@unchecked Sendable` because it takes
    /// the connection's fetch (not Sendable) to that thread: the caller touches neither
    /// the connection nor `result` until `done` is signalled, and the semaphore orders
    /// the thread's writes before the caller's reads.
    private final class InFlight: @unchecked Sendable {
        private let work: () throws -> [FetchedMessage]
        private(set) var result: Result<[FetchedMessage], any Error> = .success([])
        let done = DispatchSemaphore(value: 0)

        init(_ work: @escaping () throws -> [FetchedMessage]) {
            self.work = work
        }

        func run() {
            result = Result { try work() }
            done.signal()
        }
    }
}
