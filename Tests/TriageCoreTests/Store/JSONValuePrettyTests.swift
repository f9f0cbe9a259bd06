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

    /// Strings with nothing to escape are appended whole (a shortcut for the store's
    /// records): each byte at the shortcut's edges still gets its escape, in keys too.
    func testEveryByteAtTheEdgesOfPlainASCIIIsEscapedAsBefore() {
        let cases: [(String, String)] = [
            ("plain ~ text", "\"plain ~ text\""), (" ", "\" \""), ("a\u{1F}b", "\"a\\u001fb\""),
            ("a\u{7F}b", "\"a\\u007fb\""), ("a\"b", "\"a\\\"b\""), ("a\\b", "\"a\\\\b\""),
            ("a\tb", "\"a\\tb\""), ("café", "\"café\""), ("a\u{85}b", "\"a\\u0085b\""),
            ("a\u{2028}b", "\"a\\u2028b\""), ("", "\"\""),
        ]
        for (text, json) in cases {
            XCTAssertEqual(JSONValue.string(text).serialized, json)
            XCTAssertEqual(JSONValue.object([(text, .string(text))]).prettySerialized, "{\n  \(json): \(json)\n}\n")
        }
    }
}
