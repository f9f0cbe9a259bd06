import TriageCore
import XCTest

final class HTMLEscaperTests: XCTestCase {
    func testEscapesTheFiveCharacters() {
        XCTAssertEqual(HTMLEscaper.escape("<script>alert('x' & \"y\")</script>"),
                       "&lt;script&gt;alert(&#39;x&#39; &amp; &quot;y&quot;)&lt;/script&gt;")
        XCTAssertEqual(HTMLEscaper.escape("café 日本 🚀"), "café 日本 🚀")
        XCTAssertEqual(HTMLEscaper.escape("&amp;"), "&amp;amp;")
    }
}
