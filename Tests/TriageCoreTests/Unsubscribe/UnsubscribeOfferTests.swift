import Foundation
import TriageCore
import XCTest

/// When the digest may offer one-click: only when the account's own server
/// (`authserv_id`, the topmost Authentication-Results) vouched for a DKIM
/// signature of the From domain whose `h=` covers both unsubscribe fields.
final class UnsubscribeOfferTests: XCTestCase {
    let server = "mx.example.net"
    let unsubscribe = "<https://news.example/u/abc?x=1>, <mailto:leave@news.example?subject=unsubscribe%20me>"
    let post = "List-Unsubscribe=One-Click"
    let signature = "v=1; a=rsa-sha256; c=relaxed/relaxed; d=news.example; s=s1;\r\n h=from:to:subject:date:list-unsubscribe:List-Unsubscribe-Post; bh=abc=; b=SIGNATUREbase64xyz"

    func headers(ar: [String], dkim: [String]? = nil, post: String? = "List-Unsubscribe=One-Click") -> UnsubscribeHeaders {
        UnsubscribeHeaders(listUnsubscribe: unsubscribe, post: post, authenticationResults: ar, dkimSignatures: dkim ?? [signature])
    }

    func offer(_ h: UnsubscribeHeaders, from: String = "letters@news.example", id: String? = "mx.example.net") -> UnsubscribeOffer {
        UnsubscribeOffer(h, fromAddress: from, authservID: id)!
    }

    func testTheServersDKIMPassCoveringBothFieldsAllowsOneClick() {
        let o = offer(headers(ar: ["mx.example.net; dkim=pass (2048-bit key) header.d=news.example header.i=@news.example header.b=SIGNATURE; spf=pass"]))
        XCTAssertEqual(o.https, "https://news.example/u/abc?x=1")
        XCTAssertEqual(o.mailto, "mailto:leave@news.example?subject=unsubscribe%20me")
        XCTAssertTrue(o.oneClick)
        XCTAssertTrue(o.dkimPass, o.dkim)
        XCTAssertTrue(o.allowsOneClick)
    }

    func testAForgedResultWithAnotherAuthservIDIsIgnored() {
        // The sender's own "pass" under another name, above nothing of the server's.
        let o = offer(headers(ar: ["mx.attacker.example; dkim=pass header.d=news.example"]))
        XCTAssertFalse(o.dkimPass)
        XCTAssertFalse(o.allowsOneClick)
        XCTAssertTrue(o.dkim.contains("not from mx.example.net"), o.dkim)
    }

    func testAResultOfTheServersNameBelowAnotherHostsIsIgnored() {
        // The topmost is another host's: a field claiming the server's id below it is a sender's.
        let o = offer(headers(ar: ["relay.example.org; dkim=fail header.d=news.example",
                                   "mx.example.net; dkim=pass header.d=news.example"]))
        XCTAssertFalse(o.dkimPass)
        // And the server's own fail is not outvoted by a forged pass further down.
        let p = offer(headers(ar: ["mx.example.net; dkim=fail header.d=news.example",
                                   "other.example; none", "mx.example.net; dkim=pass header.d=news.example"]))
        XCTAssertFalse(p.dkimPass, p.dkim)
    }

    func testAPassBesideTheServersNoneOrFailIsNotBelieved() {
        // A forged pass right below the server's own verdict, with no other host between.
        for verdict in ["dkim=none", "dkim=fail header.d=news.example", "dkim=temperror header.i=@news.example"] {
            let o = offer(headers(ar: ["mx.example.net; \(verdict)", "mx.example.net; dkim=pass header.d=news.example"]))
            XCTAssertFalse(o.dkimPass, verdict)
        }
        // A failing signature of another domain (an ESP's) beside the From domain's pass is fine.
        let esp = offer(headers(ar: ["mx.example.net; dkim=fail header.d=esp.example; dkim=pass header.d=news.example"]))
        XCTAssertTrue(esp.dkimPass, esp.dkim)
    }

    func testASignatureWithoutListUnsubscribePostInHGivesNoOneClick() {
        let partial = "v=1; d=news.example; s=s1; h=from:subject:list-unsubscribe; b=SIGNATURE"
        let o = offer(headers(ar: ["mx.example.net; dkim=pass header.d=news.example"], dkim: [partial]))
        XCTAssertFalse(o.dkimPass)
        XCTAssertFalse(o.allowsOneClick)
        XCTAssertTrue(o.dkim.contains("does not cover"), o.dkim)
    }

    func testTheSignatureMustBeOfTheDomainThatPassed() {
        // A passing signature of another domain (an ESP's) is not aligned with From.
        let esp = "v=1; d=esp.example; s=s1; h=from:list-unsubscribe:list-unsubscribe-post; b=X"
        let o = offer(headers(ar: ["mx.example.net; dkim=pass header.d=esp.example"], dkim: [esp]))
        XCTAssertFalse(o.dkimPass, o.dkim)
        // A parent domain of From is aligned (relaxed).
        let q = offer(headers(ar: ["mx.example.net; dkim=pass header.d=news.example"]), from: "a@mail.news.example")
        XCTAssertTrue(q.dkimPass, q.dkim)
    }

    func testNoAuthservIDOrNoPostHeaderMeansNoOneClick() {
        let ar = ["mx.example.net; dkim=pass header.d=news.example"]
        XCTAssertFalse(offer(headers(ar: ar), id: nil).allowsOneClick)
        let noPost = offer(headers(ar: ar, post: nil))
        XCTAssertTrue(noPost.dkimPass)
        XCTAssertFalse(noPost.allowsOneClick)
        XCTAssertFalse(offer(headers(ar: ar, post: "List-Unsubscribe=Maybe")).allowsOneClick)
    }

    func testCommentsQuotesAndCaseInAuthenticationResults() {
        let ar = AuthenticationResults("MX.Example.NET 1; (a comment; with = signs) DKIM = pass (good) header.d = \"news.example\"")
        XCTAssertEqual(ar?.authservID, "MX.Example.NET")
        XCTAssertEqual(ar?.results.first?.method, "dkim")
        XCTAssertEqual(ar?.results.first?.result, "pass")
        XCTAssertEqual(ar?.results.first?.properties["header.d"], "news.example")
        let o = offer(headers(ar: ["MX.Example.NET; dkim=pass header.d=NEWS.example"]))
        XCTAssertTrue(o.dkimPass, o.dkim)
    }

    func testURIsWithControlsOrQuotesAreLeftOut() {
        XCTAssertEqual(UnsubscribeOffer.uris("<https://a.example/x\u{1B}[2J>, <mailto:ok@a.example>"), ["mailto:ok@a.example"])
        XCTAssertEqual(UnsubscribeOffer.uris("<http://plain.example/u>"), ["http://plain.example/u"])
        // http: alone is no offer at all (https only).
        XCTAssertNil(UnsubscribeOffer(UnsubscribeHeaders(listUnsubscribe: "<http://plain.example/u>"), fromAddress: "a@b.example",
                                      authservID: server))
    }

    func testTheMailtoIsOneAddressWithItsHfields() {
        let m = MailtoURI("mailto:leave@news.example?subject=unsubscribe%20me&body=please&cc=evil@x.example")
        XCTAssertEqual(m?.to, "leave@news.example")
        XCTAssertEqual(m?.subject, "unsubscribe me")
        XCTAssertEqual(m?.body, "please")
        XCTAssertEqual(MailtoURI("mailto:leave@news.example")?.subject, "unsubscribe")
        XCTAssertNil(MailtoURI("mailto:a@x.example,b@x.example"))
        XCTAssertNil(MailtoURI("mailto:a%0D%0ABcc:%20b@x.example"))
        // A subject with a line break cannot add a header: it is one line.
        XCTAssertEqual(MailtoURI("mailto:a@x.example?subject=a%0D%0ABcc:%20b@x.example")?.subject, "a Bcc: b@x.example")
    }

    func testTheOfferIsKeptInTheRecordAndReadBack() throws {
        var summary = MessageSummary(subject: "News", snippet: "")
        summary.unsubscribe = offer(headers(ar: ["mx.example.net; dkim=pass header.d=news.example"]))
        let json = summary.json.prettySerialized
        XCTAssertTrue(json.contains("\"one_click\": true"), json)
        let back = try JSONDecoder().decode(MessageSummary.self, from: Data(json.utf8))
        XCTAssertEqual(back.unsubscribe, summary.unsubscribe)
        // A record written before the field existed reads as before.
        let old = try JSONDecoder().decode(MessageSummary.self, from: Data(#"{"from":null,"subject":"x","date":null,"message_id":null,"account":null,"mailbox":null,"uid":null,"snippet":""}"#.utf8))
        XCTAssertNil(old.unsubscribe)
    }
}
