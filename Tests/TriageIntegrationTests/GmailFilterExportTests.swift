import Foundation
import XCTest

/// `triage export gmail-filters`: the XML Gmail's filter import reads (an Atom feed of
/// entries with `apps:property` elements), read back with Python's XML parser, and
/// what it leaves to triage.
final class GmailFilterExportTests: XCTestCase {
    func testTheFeedHoldsOneFilterPerLabelAndListsWhatGmailCannotDo() throws {
        let folder = try TestFolder("gmail-filters", rules: """
        rule "bank" when from:@bank.example OR from:alerts@radio.example then label "money", flag
        rule "boss" when from:boss@example.test -cc:me then mark read, label "Boss & Co <1> 'x'"
        rule "shop" when from:@shop.example then move "Receipts", label "money", queue rec
        rule "second move" when from:x@y.test then move "Other"
        rule "stopper" when to:me from:z@y.test then archive, stop
        rule "after" when from:q@y.test then flag

        """)
        defer { folder.remove() }
        try folder.writeConfig([ConfigSection.triage()])
        let export = try folder.triage(["export", "gmail-filters", "--output", folder.dir + "/filters.xml"])
        XCTAssertEqual(export.status, 0, export.err)
        let reader = folder.dir + "/read.py"
        try """
        import json, sys
        import xml.etree.ElementTree as ET
        atom, apps = "{http://www.w3.org/2005/Atom}", "{http://schemas.google.com/apps/2006}"
        feed = ET.parse(sys.argv[1]).getroot()
        assert feed.tag == atom + "feed", feed.tag
        assert feed.find(atom + "title").text == "Mail Filters"
        out = []
        for entry in feed.findall(atom + "entry"):
            assert entry.find(atom + "category").get("term") == "filter"
            assert entry.find(atom + "id").text.startswith("tag:mail.google.com,2008:filter:")
            assert entry.find(atom + "updated").text.endswith("Z")
            out.append([[p.get("name"), p.get("value")] for p in entry.findall(apps + "property")])
        print(json.dumps(out))
        """.write(toFile: reader, atomically: true, encoding: .utf8)
        let output = folder.dir + "/read.out"
        XCTAssertEqual(try Spawn.runCapturing(["/usr/bin/python3", reader, folder.dir + "/filters.xml"], output: output), 0,
                       (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [[[String]]])
        XCTAssertEqual(entries, [
            [["hasTheWord", "{from:@bank.example from:alerts@radio.example}"], ["shouldStar", "true"], ["label", "money"]],
            [["hasTheWord", "from:boss@example.test -cc:me"], ["shouldMarkAsRead", "true"], ["label", "Boss & Co <1> 'x'"]],
            [["hasTheWord", "from:@shop.example"], ["shouldArchive", "true"], ["label", "Receipts"]],
            [["hasTheWord", "from:@shop.example"], ["label", "money"]],
            [["hasTheWord", "to:me from:z@y.test"], ["shouldArchive", "true"]],
        ].map { $0.map { $0 } })
        let rules = folder.dir + "/rules/test.rules"
        XCTAssertEqual(export.err.split(separator: "\n").map(String.init), [
            "triage: export gmail-filters: rule \"second move\" (\(rules):4) left to triage: Gmail would apply both this folder "
                + "and \"shop\"'s; triage keeps the first",
            "triage: export gmail-filters: rule \"after\" (\(rules):6) left to triage: Gmail filters have no stop: \"stopper\" "
                + "would not stop this one",
        ])
    }
}
