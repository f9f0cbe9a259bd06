import XCTest

final class TriageCoreTestsPlaceholder: XCTestCase {}
