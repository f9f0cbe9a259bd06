import XCTest

final class TriageMIMETestsPlaceholder: XCTestCase {}
