/// Where mail clients begin the quoted message of a reply, as data: the HTML
/// structures they wrap it in, and per language the text they write above it.
/// `ReplyReader` cuts a reply at the first of these; one entry per language, so
/// a language is added here and nowhere else (and in docs/digest.md's list).
///
/// The forms follow what mail clients send, as public reply-parsing projects'
/// test data show them (crisp-oss/email-reply-parser, mailgun/talon,
/// zapier/email-reply-parser): Gmail's, Apple Mail's, Outlook's (desktop, web,
/// mobile), Thunderbird's and Yahoo's replies in these languages. All lower-case.
public struct QuoteMarkers: Sendable {
    /// One language's words.
    public struct Language: Sendable {
        /// ISO 639-1 code, for the docs and tests.
        public var code: String
        /// Words of an attribution line ("On … wrote:", "Am … schrieb …:"): a
        /// line (or two or three, wrapped) that ends in `:` and holds one of them
        /// as a word. Scripts without spaces (Japanese) match anywhere in the line.
        public var wrote: [String]
        /// The separator line's words ("-----Original Message-----"), without dashes.
        public var originalMessage: [String]
        /// Field names of the header block a client copies above the quoted
        /// message ("From:", "Sent:", "To:", "Subject:", "Date:", "Cc:"); the
        /// first ones are the sender's field ("From"), which alone marks the block
        /// when an address follows it.
        public var fromFields: [String]
        /// The block's other field names.
        public var otherFields: [String]
        /// Starts of a mobile client's signature line ("sent from my iphone").
        public var sentFrom: [String]
        /// Ends of such a line, for languages that put the verb last ("von meinem iphone gesendet").
        public var sentFromEnds: [String] = []
    }

    /// The languages, by how much mail is written in them (at least the 12 the docs promise).
    public static let languages: [Language] = [
        Language(code: "en", wrote: ["wrote", "writes"],
                 originalMessage: ["original message", "forwarded message", "reply message"],
                 fromFields: ["from"], otherFields: ["sent", "date", "to", "subject", "cc", "reply-to"],
                 sentFrom: ["sent from ", "sent via ", "get outlook for "]),
        Language(code: "de", wrote: ["schrieb", "geschrieben"],
                 originalMessage: ["ursprüngliche nachricht", "ursprungliche nachricht", "weitergeleitete nachricht",
                                   "antwort nachricht"],
                 fromFields: ["von"], otherFields: ["gesendet", "datum", "an", "betreff", "cc", "kopie"],
                 sentFrom: ["von meinem ", "gesendet von ", "gesendet mit ", "outlook für "],
                 sentFromEnds: [" gesendet"]),
        Language(code: "fr", wrote: ["écrit", "ecrit"],
                 originalMessage: ["message d'origine", "message d’origine", "message transféré", "message original"],
                 fromFields: ["de", "expéditeur"], otherFields: ["envoyé", "date", "à", "objet", "cc", "a"],
                 sentFrom: ["envoyé de ", "envoyé depuis ", "envoyé à partir de ", "télécharger outlook pour "]),
        Language(code: "es", wrote: ["escribió", "escribio"],
                 originalMessage: ["mensaje original", "mensaje reenviado"],
                 fromFields: ["de"], otherFields: ["enviado", "fecha", "para", "asunto", "cc"],
                 sentFrom: ["enviado desde ", "obtener outlook para "]),
        Language(code: "it", wrote: ["scritto"],
                 originalMessage: ["messaggio originale", "messaggio inoltrato"],
                 fromFields: ["da"], otherFields: ["inviato", "data", "a", "oggetto", "cc"],
                 sentFrom: ["inviato da ", "scarica outlook per "]),
        Language(code: "nl", wrote: ["schreef", "geschreven"],
                 originalMessage: ["oorspronkelijk bericht", "origineel bericht", "doorgestuurd bericht"],
                 fromFields: ["van"], otherFields: ["verzonden", "datum", "aan", "onderwerp", "cc"],
                 sentFrom: ["verzonden met ", "verzonden vanaf ", "verstuurd vanaf ", "verstuurd met ", "outlook voor "]),
        Language(code: "pt", wrote: ["escreveu"],
                 originalMessage: ["mensagem original", "mensagem encaminhada"],
                 fromFields: ["de"], otherFields: ["enviado", "enviada", "data", "para", "assunto", "cc"],
                 sentFrom: ["enviado do ", "enviado de ", "obter o outlook para "]),
        Language(code: "sv", wrote: ["skrev"],
                 originalMessage: ["ursprungligt meddelande", "vidarebefordrat meddelande"],
                 fromFields: ["från"], otherFields: ["skickat", "datum", "till", "ämne", "kopia"],
                 sentFrom: ["skickat från ", "hämta outlook för "]),
        Language(code: "da", wrote: ["skrev"],
                 originalMessage: ["oprindelig meddelelse", "oprindelig besked", "videresendt meddelelse"],
                 fromFields: ["fra"], otherFields: ["sendt", "dato", "til", "emne", "cc"],
                 sentFrom: ["sendt fra ", "hent outlook til "]),
        Language(code: "nb", wrote: ["skrev"],
                 originalMessage: ["opprinnelig melding", "videresendt melding"],
                 fromFields: ["fra"], otherFields: ["sendt", "dato", "til", "emne", "kopi"],
                 sentFrom: ["sendt fra ", "få outlook for "]),
        Language(code: "pl", wrote: ["pisze", "napisał", "napisała", "napisal", "napisana"],
                 originalMessage: ["wiadomość oryginalna", "oryginalna wiadomość", "wiadomość przekazana"],
                 fromFields: ["od"], otherFields: ["wysłano", "data", "do", "temat", "dw"],
                 sentFrom: ["wysłane z ", "wysłano z ", "pobierz outlook dla "]),
        Language(code: "ru", wrote: ["написал", "написала", "пишет"],
                 originalMessage: ["исходное сообщение", "пересылаемое сообщение", "пересланное сообщение"],
                 fromFields: ["от"], otherFields: ["отправлено", "дата", "кому", "тема", "копия"],
                 sentFrom: ["отправлено с ", "отправлено из ", "получить outlook для "]),
        Language(code: "ja", wrote: ["が書きました", "のメッセージ", "のメール", "書きました"],
                 originalMessage: ["元のメッセージ", "転送されたメッセージ"],
                 fromFields: ["差出人", "送信者"], otherFields: ["送信日時", "日付", "宛先", "件名", "cc"],
                 sentFrom: [], sentFromEnds: ["から送信", "を入手"]),
        Language(code: "fi", wrote: ["kirjoitti"],
                 originalMessage: ["alkuperäinen viesti"],
                 fromFields: ["lähettäjä"], otherFields: ["lähetetty", "päivämäärä", "vastaanottaja", "aihe"],
                 sentFrom: ["lähetetty iphonesta", "lähetetty laitteesta "]),
        Language(code: "zh", wrote: ["写道", "寫道"],
                 originalMessage: ["原始邮件", "原始郵件"],
                 fromFields: ["发件人", "寄件者"], otherFields: ["发送时间", "日期", "收件人", "主题", "主旨"],
                 sentFrom: [], sentFromEnds: ["发送自我的iphone"]),
    ]

    /// Every attribution word that is a word of its own (Latin, Cyrillic scripts).
    public static let wroteWords: Set<String> = Set(languages.flatMap(\.wrote).filter { !$0.unicodeScalars.contains(where: isCJK) })
    /// Attribution words of scripts without spaces, matched anywhere.
    public static let wroteFragments: [String] = languages.flatMap(\.wrote).filter { $0.unicodeScalars.contains(where: isCJK) }
    /// Every separator phrase.
    public static let originalMessages: Set<String> = Set(languages.flatMap(\.originalMessage))
    /// Every sender field name.
    public static let fromFields: Set<String> = Set(languages.flatMap(\.fromFields))
    /// Every header field name of a copied header block.
    public static let headerFields: Set<String> = fromFields.union(languages.flatMap(\.otherFields))
    /// Every signature start.
    public static let sentFromStarts: [String] = languages.flatMap(\.sentFrom)
    /// Every signature end.
    public static let sentFromEnds: [String] = languages.flatMap(\.sentFromEnds)

    // MARK: - HTML

    /// Class names (a part of the `class` attribute) of the elements that hold a
    /// quoted message: Gmail, Thunderbird, Yahoo, Outlook, Proton, Zoho.
    public static let htmlClasses = [
        "gmail_quote", "gmail_attr", "moz-cite-prefix", "moz-forward-container", "yahoo_quoted", "outlookmessageheader",
        "protonmail_quote", "zmail_extra", "apple-mail-quote",
    ]
    /// Ids (a part of the `id` attribute) of such elements: Outlook (web, desktop,
    /// Mac, Hotmail's `stopSpelling` rule), Yahoo.
    public static let htmlIDs = [
        "divrplyfwdmsg", "appendonsend", "olk_src_body_section", "yahoo_quoted", "mail-editor-reference-message-container",
        "stopspelling", "isforwardcontent",
    ]
    /// Parts of the `style` attribute (lower-case, without white space) of
    /// Outlook's rule above its header block (Outlook 2007 to 365, Windows Mail).
    public static let htmlStyles = [
        "border-top:solid#e1e1e1", "border-top:solid#b5c4df", "border-top-color:rgb(229,229,229)",
    ]

    /// Ideographs, kana and Hangul: scripts without spaces between words.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF: return true
        default: return false
        }
    }
}
