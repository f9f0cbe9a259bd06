@testable import TriageCore
import XCTest

/// What in a display name counts as showing an address or a domain, and how
/// domains compare (`NameDisguise`, `Punycode`).
final class NameDisguiseTests: XCTestCase {
    private func shown(_ name: String) -> [String] { NameDisguise.shown(in: name).map(\.domain) }

    func testAddressesAndHostnamesInANameShowTheirDomain() {
        XCTAssertEqual(shown("statements@bank.example"), ["bank.example"])
        XCTAssertEqual(shown("Visit Amazon.COM today."), ["amazon.com"])
        XCTAssertEqual(shown("Help (https://help.bank.example/login)"), ["help.bank.example"])
        XCTAssertEqual(shown("'support@bank.co.uk'"), ["bank.co.uk"])
        XCTAssertEqual(shown("statements＠bank．example"), ["bank.example"], "full-width @ and dot")
        XCTAssertEqual(shown("bank。example"), ["bank.example"], "ideographic full stop")
        XCTAssertEqual(shown("пример.рф"), ["пример.рф"], "a domain in another script")
        XCTAssertEqual(shown("bank.xn--p1ai"), ["bank.рф"], "an IDNA top-level domain, decoded")
        XCTAssertEqual(shown("a@b.example c.test"), ["b.example", "c.test"])
    }

    func testOrdinaryNamesShowNothing() {
        for name in ["John Smith", "John.Smith", "J.R.R. Tolkien", "Dr. Who", "U.S. Bank", "e.g. this", "v1.2.3",
                     "Smith Jr.", "No.10", "Zöe Åberg", "Team @ Acme", "a@b", "bank.", ".example", "bank..example",
                     "-bank.example", "bank.-x.example", "bank.example1", "Müller.Bäckerei"] {
            XCTAssertEqual(shown(name), [], name)
        }
    }

    func testForeignDomainComparesWithTheAddress() {
        XCTAssertEqual(NameDisguise.foreignDomain(name: "statements@bank.example", address: "secure-9@evil.example"), "bank.example")
        XCTAssertNil(NameDisguise.foreignDomain(name: "statements@BANK.example", address: "x@Bank.Example"))
        XCTAssertNil(NameDisguise.foreignDomain(name: "bank.example", address: "x@mail.bank.example"), "parent")
        XCTAssertNil(NameDisguise.foreignDomain(name: "secure.bank.example", address: "x@bank.example"), "subdomain")
        XCTAssertEqual(NameDisguise.foreignDomain(name: "bank.example", address: "x@bank.example.evil.test"), "bank.example")
        XCTAssertEqual(NameDisguise.foreignDomain(name: "bank.example", address: "x@notbank.example"), "bank.example")
        XCTAssertNil(NameDisguise.foreignDomain(name: "support@bänk.example", address: "x@XN--BNK-QLA.example"))
        XCTAssertEqual(NameDisguise.foreignDomain(name: "bank.example", address: ""), "bank.example", "no address backs it")
        XCTAssertNil(NameDisguise.foreignDomain(name: nil, address: "x@evil.example"))
        XCTAssertNil(NameDisguise.foreignDomain(name: "Bank", address: "x@evil.example"))
        XCTAssertEqual(Address(name: "a@b.example", address: "c@d.example").impersonatedDomain, "b.example")
    }

    func testPunycodeDecodesRFC3492SamplesAndRefusesJunk() {
        XCTAssertEqual(Punycode.decodeLabel("xn--bnk-qla"), "bänk")
        XCTAssertEqual(Punycode.decodeLabel("xn--e1afmkfd"), "пример")
        XCTAssertEqual(Punycode.decodeLabel("xn--3B-ww4c5e180e575a65lsy2b"), "3年B組金八先生")
        XCTAssertEqual(Punycode.decodeLabel("xn--egbpdaj6bu4bxfgehfvwxn"), "ليهمابتكلموشعربي؟")
        XCTAssertNil(Punycode.decodeLabel("bank"))
        XCTAssertNil(Punycode.decodeLabel("xn--"))
        for junk in ["xn--zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "xn--99999999999", "xn--a-", "xn--ä", "xn--" + String(repeating: "9", count: 300)] {
            XCTAssertNil(Punycode.decodeLabel(Substring(junk)), junk)
        }
    }

    /// Any text is safe to look at: no trap, and what is shown lies inside the name.
    func testArbitraryNamesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab.@-xn－．。＠ä😀 \"()<>:/\u{301}\u{0}z9")
        for _ in 0..<3000 {
            let name = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            for part in NameDisguise.shown(in: name) {
                XCTAssertFalse(part.domain.isEmpty, name)
                XCTAssertFalse(name[part.range].isEmpty, name)
            }
            _ = NameDisguise.foreignDomain(name: name, address: "x@" + name)
        }
    }
}
