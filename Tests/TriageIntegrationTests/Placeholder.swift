import XCTest

final class TriageIntegrationTestsPlaceholder: XCTestCase {}
