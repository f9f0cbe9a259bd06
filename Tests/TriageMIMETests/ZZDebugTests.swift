@testable import TriageMIME
import XCTest
final class ZZDebugTests: XCTestCase {
    func testDebug() {
        for text in ["MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n--alt\r\n\r\n \r\n--alt\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--alt--\r\n",
  "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n--alt\r\nX: y\r\n\r\n\r\n--alt\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--alt--\r\n",
  "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n--alt\r\nContent-Type: text/plain\r\n\r\n--alt\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--alt--\r\n"] {
            let m = MessageParser.parse(Array(text.utf8))
            print("SNIP", m.snippet.debugDescription)
        }
    }
}
