import Foundation
import TriageCore
import XCTest

/// `CompiledRules.neededHeaderFields`: which header fields a narrowed fetch asks for.
final class HeaderFieldsTests: XCTestCase {
    func fields(_ text: String) throws -> [String]? {
        let (rules, diagnostics) = RuleLoader.load([RuleSource(path: "t.rules", text: text)], folder: ".",
                                                   environment: RuleEnvironment(identities: ["me@example.test"], timeZone: .gmt))
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }, [])
        return try XCTUnwrap(rules).neededHeaderFields
    }

    /// The fixed fields come whatever the rules read: identity and summaries never depend on them.
    func testFixedFieldsAlwaysCome() throws {
        XCTAssertEqual(try fields("rule a when is:unread larger:1M then flag"), ["DATE", "FROM", "MESSAGE-ID", "SUBJECT"])
        XCTAssertEqual(try fields("rule a when subject:invoice older_than:3d then flag"), ["DATE", "FROM", "MESSAGE-ID", "SUBJECT"])
    }

    /// Each address operator brings its own field, `me` included; negated terms too.
    func testAddressTermsBringTheirFields() throws {
        XCTAssertEqual(try fields("rule a when cc:me -to:me then flag"), ["CC", "DATE", "FROM", "MESSAGE-ID", "SUBJECT", "TO"])
        XCTAssertEqual(try fields("rule a when bcc:x@y.test OR replyto:@y.test OR deliveredto:*@y.test then flag"),
                       ["BCC", "DATE", "DELIVERED-TO", "FROM", "MESSAGE-ID", "REPLY-TO", "SUBJECT"])
    }

    /// `list:` reads List-Id; `header:` reads the fields it names.
    func testListAndHeaderTerms() throws {
        XCTAssertEqual(try fields("rule a when list:dev.lists.test then flag\nrule b when header:X-Spam-Flag:yes then flag"),
                       ["DATE", "FROM", "LIST-ID", "MESSAGE-ID", "SUBJECT", "X-SPAM-FLAG"])
    }

    /// Bare words read the text, whose MIME parse needs the whole header.
    func testTextTermsNeedTheWholeHeader() throws {
        XCTAssertNil(try fields("rule a when from:x@y.test invoice then flag"))
        XCTAssertNil(try fields("rule a when inv* then flag"))
    }
}
