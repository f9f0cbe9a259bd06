import TriageCore
import XCTest

final class FolderNamespaceTests: XCTestCase {
    private let courier = FolderNamespace(prefix: "INBOX.", separator: ".")

    func testRuleNamesBecomeTheServersNames() {
        XCTAssertEqual(courier.serverName("NoPush"), "INBOX.NoPush")
        XCTAssertEqual(courier.serverName("Lists/dev"), "INBOX.Lists.dev")
        XCTAssertEqual(courier.serverName("INBOX"), "INBOX")
        XCTAssertEqual(courier.serverName("inbox"), "INBOX")
        XCTAssertEqual(courier.serverName("INBOX.Lists.dev"), "INBOX.Lists.dev", "already the server's own name")
        XCTAssertEqual(FolderNamespace.plain.serverName("Lists/dev"), "Lists/dev")
        XCTAssertEqual(FolderNamespace(prefix: "", separator: ".").serverName("Lists/dev"), "Lists.dev")
        XCTAssertEqual(FolderNamespace(prefix: "", separator: nil).serverName("Lists/dev"), "Lists/dev")
    }

    func testServerNamesReadBackInRuleForm() {
        XCTAssertEqual(courier.ruleName("INBOX.Lists.dev"), "Lists/dev")
        XCTAssertEqual(courier.ruleName("INBOX"), "INBOX")
        XCTAssertEqual(courier.ruleName("Other"), "Other")
        XCTAssertEqual(FolderNamespace.plain.ruleName("Lists/dev"), "Lists/dev")
        for name in ["NoPush", "Lists/dev", "Archive/2024/Q1", "INBOX"] {
            XCTAssertEqual(courier.ruleName(courier.serverName(name)), name)
        }
    }
}
