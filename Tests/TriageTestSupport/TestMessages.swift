/// Small, realistic messages for seeding a test server or a local Maildir.
public enum TestMessages {
    /// A plain text message.
    public static func plain(id: String, subject: String = "Hello", from: String = "Alice <alice@example.test>",
                      body: String = "Just a short note.\n") -> String {
        """
        From: \(from)
        To: me@example.test
        Subject: \(subject)
        Date: Tue, 02 Jan 2024 09:30:00 +0100
        Message-ID: <\(id)@example.test>
        MIME-Version: 1.0
        Content-Type: text/plain; charset=utf-8

        \(body)
        """
    }

    /// A multipart message whose PDF attachment comes after `padding` bytes of text.
    public static func withAttachment(id: String, padding: Int = 0) -> String {
        let filler = String(repeating: "Lorem ipsum dolor sit amet.\n", count: max(0, padding / 28))
        return """
        From: Billing <billing@shop.example.test>
        To: me@example.test
        Subject: Your receipt
        Date: Wed, 03 Jan 2024 10:00:00 +0000
        Message-ID: <\(id)@example.test>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="b1"

        --b1
        Content-Type: text/plain; charset=utf-8

        Thank you for your order.
        \(filler)
        --b1
        Content-Type: application/pdf; name="receipt.pdf"
        Content-Disposition: attachment; filename="receipt.pdf"
        Content-Transfer-Encoding: base64

        JVBERi0xLjQKJcfsj6IKCg==
        --b1--

        """
    }

    /// The size an IMAP server reports for a message written with LF line ends (it counts CRLF).
    public static func wireSize(_ message: String) -> Int {
        message.utf8.count + message.utf8.filter { $0 == 0x0A }.count
    }

    /// The message with CRLF line ends, as the server sends it.
    public static func wire(_ message: String) -> [UInt8] {
        Array(message.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }
}
