import TriageCore
import XCTest

final class JSONValuePrettyTests: XCTestCase {
    func testIndentsNestedValuesAndKeepsKeyOrder() {
        let value = JSONValue.object([
            ("z", .string("a \"quote\"")),
            ("a", .object([("n", .int(1)), ("empty", .object([])), ("list", .array([.bool(true), .null]))])),
            ("none", .array([])),
        ])
        XCTAssertEqual(value.prettySerialized, """
            {
              "z": "a \\"quote\\"",
              "a": {
                "n": 1,
                "empty": {},
                "list": [
                  true,
                  null
                ]
              },
              "none": []
            }

            """)
    }
}
