/// Generates typical messages: a few Received lines, a DKIM signature, address
/// headers with display names (some RFC 2047 encoded), list headers on some,
/// multipart/alternative bodies, and a base64 PDF attachment on one in eight.
struct MessageFactory {
    /// One generated message: its header block and the whole message.
    struct Generated {
        var header: [UInt8]
        var full: [UInt8]
    }

    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }

    private static let names = ["Alice Nguyen", "Bob Tran", "Margaret Boss", "Priya Raman", "Tomás García",
                                "=?UTF-8?Q?J=C3=BCrgen_M=C3=BCller?=", "=?ISO-8859-1?Q?Fran=E7ois?=", "Kenji Sato"]
    private static let subjects = ["Q4 planning", "Re: Offsite agenda", "Your order has shipped",
                                   "=?UTF-8?B?Q2Fmw6kgb24gRnJpZGF5IOKYlQ==?=", "[dev] Release 2.4 branch cut",
                                   "Invoice INV-2026-1107", "Fwd: Hotel booking confirmation"]

    mutating func messages(_ count: Int) -> [Generated] {
        (0..<count).map { message($0) }
    }

    private mutating func message(_ i: Int) -> Generated {
        let from = Self.names[next(Self.names.count)]
        let subject = Self.subjects[next(Self.subjects.count)]
        let day = 1 + next(30)
        var header = ""
        for hop in 0..<3 {
            header += "Received: from relay\(hop).example.net (relay\(hop).example.net [192.0.2.\(hop + 1)])\r\n"
                + "\tby mx\(hop).example.test (Postfix) with ESMTPS id \(i)A\(hop)\r\n"
                + "\tfor <me@example.test>; Mon, \(day) Nov 2026 10:0\(hop):00 +0000\r\n"
        }
        header += "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.org; s=mail;\r\n"
            + "\th=from:to:subject:date:message-id; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=;\r\n"
            + "\tb=dzdVyOfAKCdLXdJOc9G2q8LoXSlEniSbav+yuU4zGeeruD00lszZVoG4ZHRNiYzR\r\n"
        header += "Delivered-To: me@example.test\r\n"
            + "From: \(from) <sender\(i % 97)@example.org>\r\n"
            + "To: Me Myself <me@example.test>, Team <team@example.test>\r\n"
            + (i % 3 == 0 ? "Cc: \"Tran, Bob\" <bob@example.test>, alice@example.test\r\n" : "")
            + "Subject: \(subject) #\(i)\r\n"
            + "Date: Mon, \(day) Nov 2026 10:0\(i % 10):00 +0100\r\n"
            + "Message-ID: <\(i).\(state % 100_000)@example.org>\r\n"
            + (i % 4 == 0 ? "List-Id: Developer discussion <dev.lists.example>\r\nPrecedence: list\r\n" : "")
            + (i % 5 == 0 ? "In-Reply-To: <\(i - 1)@example.org>\r\nReferences: <\(i - 2)@example.org> <\(i - 1)@example.org>\r\n" : "")
            + "MIME-Version: 1.0\r\n"
        let withAttachment = i % 8 == 0
        let boundary = "=_b\(i)"
        var body = ""
        let text = String(repeating: "This is line text of a typical message, nothing special here. ", count: 12)
        if withAttachment {
            header += "Content-Type: multipart/mixed; boundary=\"\(boundary)\"\r\n"
            body += "--\(boundary)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(text)\r\n"
                + "--\(boundary)\r\nContent-Type: application/pdf; name=\"invoice-\(i).pdf\"\r\n"
                + "Content-Disposition: attachment; filename=\"invoice-\(i).pdf\"\r\n"
                + "Content-Transfer-Encoding: base64\r\n\r\n"
                + String(repeating: "JVBERi0xLjQKMSAwIG9iaiA8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4gZW5kb2Jq\r\n", count: 250)
                + "--\(boundary)--\r\n"
        } else {
            header += "Content-Type: multipart/alternative; boundary=\"\(boundary)\"\r\n"
            body += "--\(boundary)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
                + text + "\r\n--\(boundary)\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
                + "<html><body><p>" + text + "</p></body></html>\r\n--\(boundary)--\r\n"
        }
        let headerBytes = Array((header + "\r\n").utf8)
        return Generated(header: headerBytes, full: headerBytes + Array(body.utf8))
    }
}
