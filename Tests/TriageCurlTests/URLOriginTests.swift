import TriageCurl
import XCTest

/// `URLOrigin`, the origin CalDAV's password is held to (issue 24, fault 2): default
/// ports and host case do not matter; scheme, host and port do; userinfo is not the host.
final class URLOriginTests: XCTestCase {
    func testDefaultPortsAndHostCaseMakeNoDifference() {
        XCTAssertEqual(URLOrigin("https://Dav.Example/cal/"), URLOrigin("https://dav.example:443/other/?q#f"))
        XCTAssertEqual(URLOrigin("http://127.0.0.1/"), URLOrigin("http://127.0.0.1:80/x"))
        XCTAssertEqual(URLOrigin("https://dav.example/")?.port, 443)
        XCTAssertEqual(URLOrigin("https://me:secret@dav.example/"), URLOrigin("https://dav.example/"))
    }

    func testSchemeHostAndPortEachMakeAnotherOrigin() {
        let origin = URLOrigin("https://127.0.0.1:8443/")
        XCTAssertNotNil(origin)
        XCTAssertNotEqual(origin, URLOrigin("http://127.0.0.1:8443/"))
        XCTAssertNotEqual(origin, URLOrigin("https://127.0.0.1:8444/"))
        XCTAssertNotEqual(origin, URLOrigin("https://127.0.0.2:8443/"))
        XCTAssertNotEqual(origin, URLOrigin("https://localhost:8443/"))
        XCTAssertNotEqual(URLOrigin("https://dav.example/"), URLOrigin("https://dav.example:8443/"))
    }

    func testTheHostIsWhatLibcurlConnectsTo() {
        // The part before @ is userinfo, not the host.
        XCTAssertEqual(URLOrigin("https://dav.example:443@evil.example/")?.host, "evil.example")
        XCTAssertNotEqual(URLOrigin("https://dav.example:443@evil.example/"), URLOrigin("https://dav.example/"))
        XCTAssertNil(URLOrigin("/a/path"))
        XCTAssertNil(URLOrigin("not a url"))
    }
}
