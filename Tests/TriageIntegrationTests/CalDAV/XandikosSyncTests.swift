import Foundation
import XCTest

/// The same cases as `CalDAVSyncTests`, against Xandikos (a second, independent
/// CalDAV server) behind Tests/Servers/tls-proxy.py for TLS and logins. (Each case
/// is restated: test discovery on Linux sees only a class's own methods.)
final class XandikosSyncTests: CalDAVSyncTests {
    override func server() throws -> CalDAVTestServer { try CalDAVTestServer.xandikos() }

    override func testTheListsHoldExactlyTheOpenRecordsWithTheirFieldsAndAlarms() throws { try super.testTheListsHoldExactlyTheOpenRecordsWithTheirFieldsAndAlarms() }
    override func testASecondSyncWithNothingChangedSendsNoPut() throws { try super.testASecondSyncWithNothingChangedSendsNoPut() }
    override func testWhatThePhoneDoesComesBack() throws { try super.testWhatThePhoneDoesComesBack() }
    override func testAQueueEntrysTitleAndNoteEditedOnThePhoneComeBack() throws { try super.testAQueueEntrysTitleAndNoteEditedOnThePhoneComeBack() }
    override func testChangesOnBothSidesAreSettledFieldByFieldAndReportedOnce() throws { try super.testChangesOnBothSidesAreSettledFieldByFieldAndReportedOnce() }
    override func testDiscoveryIsRememberedAndDoneAgainOnlyWhenTheHomeIsNotWhereItWas() throws { try super.testDiscoveryIsRememberedAndDoneAgainOnlyWhenTheHomeIsNotWhereItWas() }
    override func testDoneReopenedAndRemovedHereReachThePhone() throws { try super.testDoneReopenedAndRemovedHereReachThePhone() }
    override func testAnEditRacingTheSyncIsMergedAfter412() throws { try super.testAnEditRacingTheSyncIsMergedAfter412() }
    override func testItemsTriageDidNotMakeAreLeftAlone() throws { try super.testItemsTriageDidNotMakeAreLeftAlone() }
    override func testAMissingListIsReportedWhenItMayNotBeCreated() throws { try super.testAMissingListIsReportedWhenItMayNotBeCreated() }
    override func testAWrongPasswordIs77AndAnUntrustedServer75() throws { try super.testAWrongPasswordIs77AndAnUntrustedServer75() }
    override func testRunSyncsAtItsEndAndAServerDownIsOnly75() throws { try super.testRunSyncsAtItsEndAndAServerDownIsOnly75() }
    override func testPlainHTTPToAnotherMachineIsRefusedBeforeAnyRequest() throws { try super.testPlainHTTPToAnotherMachineIsRefusedBeforeAnyRequest() }
    override func testDryRunChangesNothing() throws { try super.testDryRunChangesNothing() }
}
