import Foundation
@testable import TriageApp
import TriageCore
import XCTest

/// The pipeline `run` and `watch` share, over a Maildir account in a temporary
/// folder: what a batch does, and what the run record and quiet failures keep.
final class RunPipelineTests: XCTestCase {
    static let rules = """
        rule "bills"
          when subject:bill
          then queue bills, move "Done"
        """

    func testABatchTakesTheMailAndRecordsTheRunForStatus() throws {
        let f = try AppFolder("batch", rules: Self.rules)
        defer { f.remove() }
        try f.deliver("the bill")
        try f.deliver("a letter")
        let setup = try f.setup()
        var options = RunOptions()
        options.all = true
        let pipeline = RunPipeline(setup: setup, context: f.context(), options: options, verbose: false)
        XCTAssertEqual(try pipeline.batch(setup.config.accounts, context: f.context()), .ok, f.output.stderr)
        XCTAssertEqual(f.files("/.Done"), 1, "the bill moved")
        XCTAssertEqual(f.files(""), 1, "the letter stays")
        XCTAssertEqual(setup.store.queueEntries().records.map(\.queue), ["bills"])
        let record = RunRecord.load(store: setup.store.root)
        XCTAssertEqual(record.accounts["local"]?.mailboxes["INBOX"]?.messages, 2)
        XCTAssertNotNil(record.accounts["local"]?.lastSuccess)
        XCTAssertEqual(f.output.stdout, "", "a quiet run prints nothing")
        XCTAssertEqual(f.output.stderr, "")
    }

    func testTheRulesBatchSizeUnlessOneIsGiven() throws {
        let f = try AppFolder("batchsize", rules: Self.rules)
        defer { f.remove() }
        let setup = try f.setup()
        var options = RunOptions()
        options.batchSize = 7
        XCTAssertEqual(RunPipeline(setup: setup, context: f.context(), options: options, verbose: false).options.batchSize,
                       5000, "the rules read only headers")
        XCTAssertEqual(RunPipeline(setup: setup, context: f.context(), options: options, verbose: false, batchSizeGiven: true)
                        .options.batchSize, 7)
    }

    func testAQuietTemporaryFailureIsKeptThenSaidOnceItLasted() throws {
        let f = try AppFolder("quiet", rules: Self.rules, triage: "quiet_failures = 1h")
        defer { f.remove() }
        let setup = try f.setup()
        let start = Date(timeIntervalSince1970: 1_764_583_200)
        let down = SimpleError(.tempFail, "server down")
        for (minutes, expectSaid) in [(0, false), (30, false), (61, true)] {
            let book = RunBook(setup: setup, context: f.context(now: start.addingTimeInterval(Double(minutes) * 60)), dryRun: false)
            var source = book.record.accounts["local"] ?? RunRecord.Source()
            let said = book.settle(&source, "account local", down)
            book.record.accounts["local"] = source
            book.save()
            XCTAssertEqual(said != nil, expectSaid, "after \(minutes) minutes: \(said ?? "nothing")")
        }
        XCTAssertTrue(f.output.stderr.contains("account local: server down (failing since"), f.output.stderr)
        XCTAssertEqual(RunRecord.load(store: setup.store.root).accounts["local"]?.failure?.runs, 3)
        // The digest's Problems hold it, also while it was kept quiet.
        XCTAssertFalse(setup.store.digestEntries().records.isEmpty)

        let book = RunBook(setup: setup, context: f.context(now: start.addingTimeInterval(7200)), dryRun: false)
        var source = book.record.accounts["local"] ?? RunRecord.Source()
        XCTAssertTrue(book.settle(&source, "account local", nil)?.contains("recovered after") == true)
        XCTAssertNil(source.failure)
    }

    func testAWatchLikeAfterMailWithoutADigestSendsNothingAndSaysNothing() throws {
        let f = try AppFolder("aftermail", rules: Self.rules)
        defer { f.remove() }
        let setup = try f.setup()
        let pipeline = RunPipeline(setup: setup, context: f.context(), options: RunOptions(), verbose: false)
        let book = RunBook(setup: setup, context: f.context(), dryRun: false)
        try setup.store.lock()
        defer { setup.store.unlock() }
        let after = try pipeline.afterMail(book: book, context: f.context(), digest: true, digestPassword: nil)
        XCTAssertEqual(after.status, .ok)
        XCTAssertNil(after.sent, "no [digest] section")
        XCTAssertNil(book.record.digest)
        XCTAssertEqual(pipeline.syncCalDAV(context: f.context()), .ok, "no [caldav] section: nothing to sync")
        XCTAssertEqual(f.output.stderr, "")
    }
}
