#!/usr/bin/env python3
"""Writes the reply fixtures of ReplyFixtureTests (run it from this folder).

The shapes follow the replies in public reply-parsing projects' test data
(crisp-oss/email-reply-parser test/fixtures, mailgun/talon tests/fixtures,
zapier/email-reply-parser): where each client puts its attribution, separator,
header block, signature and HTML quote structure, in each language. The text is
our own: a reply whose own part is one command, above a quoted digest that
itself holds command-looking lines (done 6aa8, reopen ae6b, > done 21c1).
Each file says in X-Test-Expect what the reader must obey, and nothing else.
"""
import base64, quopri

ME = "me@example.test"
ATTR_ADDR = "triage <triage@example.test>"
ATTR_HTML = "triage &lt;<a href=\"mailto:triage@example.test\">triage@example.test</a>&gt;"

DIGEST_LINES = [
    "triage · Tue 15 Jan: 2 reminders, 2 to do",
    "",
    "Reminders",
    "  0162  Call the plumber",
    "  21c1  Book the dentist",
    "To do",
    "  6aa8  Receipt from Shop",
    "  ae6b  Invoice from Shop",
    "",
    "reply with:",
    "  done 6aa8 [more ids]   it is done",
    "  snooze ae6b 3 days     due again",
    "reopen ae6b",
    "> done 21c1",
]

def digest_text(prefix="> "):
    return "\n".join((prefix + l).rstrip() if prefix else l for l in DIGEST_LINES)

def digest_html():
    rows = "".join("<div>%s</div>" % (l.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") or "<br>")
                   for l in DIGEST_LINES)
    return "<div>%s</div>" % rows

def encode(body, cte):
    data = body.encode("utf-8")
    if cte == "base64":
        return base64.encodebytes(data).decode("ascii")
    if cte == "quoted-printable":
        return quopri.encodestring(data).decode("ascii")
    return body

def part(ctype, body, cte="8bit", extra=""):
    return "Content-Type: %s; charset=utf-8%s\nContent-Transfer-Encoding: %s\n\n%s\n" % (ctype, extra, cte, encode(body, cte))

def message(name, expect, text=None, html=None, cte_text="8bit", cte_html="quoted-printable", crlf=False, flowed=False,
            subject="Re: triage · Tue 15 Jan: 2 reminders, 2 to do"):
    head = ("From: Me <%s>\nTo: %s\nSubject: %s\nDate: Tue, 15 Jan 2030 08:30:00 -0600\n"
            "Message-ID: <%s@phone.example>\nIn-Reply-To: <{{DIGEST}}>\nReferences: <{{DIGEST}}>\n"
            "X-Test-Expect: %s\nMIME-Version: 1.0\n") % (ME, ME, subject, name, expect)
    extra = "; format=flowed" + ("; delsp=yes" if flowed == "delsp" else "") if flowed else ""
    if text is not None and html is not None:
        b = "----=_Part_%s" % len(name)
        body = "Content-Type: multipart/alternative; boundary=\"%s\"\n\n--%s\n%s\n--%s\n%s\n--%s--\n" % (
            b, b, part("text/plain", text, cte_text, extra), b, part("text/html", html, cte_html), b)
    elif html is not None:
        body = part("text/html", html, cte_html)
    else:
        body = part("text/plain", text, cte_text, extra)
    out = head + body
    if crlf:
        out = out.replace("\r\n", "\n").replace("\n", "\r\n")
    with open(name + ".eml", "w", encoding="utf-8", newline="") as f:
        f.write(out)

DONE = "done 0162"
SNOOZE = "snooze 21c1 3 days"

# Attributions as Gmail writes them, per language (crisp-oss fixtures: email_german,
# email_fr_multiline, email_russian, email_portuguese, email_italian, ...).
GMAIL = {
    "en": "On Tue, Jan 15, 2030 at 8:00 AM %s wrote:",
    "de": "Am Di., 15. Jan. 2030 um 08:00 Uhr schrieb %s:",
    "fr": "Le mar. 15 janv. 2030 à 08:00, %s a écrit :",
    "es": "El mar, 15 ene 2030 a las 8:00, %s escribió:",
    "it": "Il giorno mar 15 gen 2030 alle ore 08:00 %s ha scritto:",
    "nl": "Op di 15 jan. 2030 om 08:00 schreef %s:",
    "pt": "Em ter., 15 de jan. de 2030 às 08:00, %s escreveu:",
    "sv": "Den tis 15 jan. 2030 kl 08:00 skrev %s:",
    "da": "tir. 15. jan. 2030 kl. 08.00 skrev %s:",
    "nb": "tir. 15. jan. 2030 kl. 08:00 skrev %s:",
    "pl": "wt., 15 sty 2030 o 08:00 %s napisał(a):",
    "ru": "вт, 15 янв. 2030 г. в 08:00, %s:",
    "ja": "2030年1月15日(火) 8:00 %s:",
}
# Apple Mail / iOS Mail: attribution and "Sent from my iPhone".
APPLE = {
    "en": ("On 15 Jan 2030, at 08:00, %s wrote:", "Sent from my iPhone"),
    "de": ("Am 15.01.2030 um 08:00 schrieb %s:", "Von meinem iPhone gesendet"),
    "fr": ("Le 15 janv. 2030 à 08:00, %s a écrit :", "Envoyé de mon iPhone"),
    "es": ("El 15 ene 2030, a las 8:00, %s escribió:", "Enviado desde mi iPhone"),
    "it": ("Il giorno 15 gen 2030, alle ore 08:00, %s ha scritto:", "Inviato da iPhone"),
    "nl": ("Op 15 jan. 2030 om 08:00 heeft %s het volgende geschreven:", "Verzonden met mijn iPhone"),
    "pt": ("Em 15 de jan. de 2030, à(s) 08:00, %s escreveu:", "Enviado do meu iPhone"),
    "sv": ("15 jan. 2030 kl. 08:00 skrev %s:", "Skickat från min iPhone"),
    "da": ("Den 15. jan. 2030 kl. 08.00 skrev %s:", "Sendt fra min iPhone"),
    "nb": ("15. jan. 2030 kl. 08:00 skrev %s:", "Sendt fra min iPhone"),
    "pl": ("Wiadomość napisana przez %s w dniu 15.01.2030, o godz. 08:00:", "Wysłane z mojego iPhone"),
    "ru": ("15 янв. 2030 г., в 08:00, %s написал(а):", "Отправлено с iPhone"),
    "ja": ("2030/01/15 8:00、%sのメール:", "iPhoneから送信"),
}
# Outlook's header block: separator word, From, Sent, To, Subject.
OUTLOOK = {
    "en": ("Original Message", "From", "Sent", "To", "Subject", "Tuesday, January 15, 2030 8:00 AM"),
    "de": ("Ursprüngliche Nachricht", "Von", "Gesendet", "An", "Betreff", "Dienstag, 15. Januar 2030 08:00"),
    "fr": ("Message d'origine", "De\u00a0", "Envoyé\u00a0", "À\u00a0", "Objet\u00a0", "mardi 15 janvier 2030 08:00"),
    "es": ("Mensaje original", "De", "Enviado", "Para", "Asunto", "martes, 15 de enero de 2030 8:00"),
    "it": ("Messaggio originale", "Da", "Inviato", "A", "Oggetto", "martedì 15 gennaio 2030 08:00"),
    "nl": ("Oorspronkelijk bericht", "Van", "Verzonden", "Aan", "Onderwerp", "dinsdag 15 januari 2030 08:00"),
    "pt": ("Mensagem original", "De", "Enviado", "Para", "Assunto", "terça-feira, 15 de janeiro de 2030 08:00"),
    "sv": ("Ursprungligt meddelande", "Från", "Skickat", "Till", "Ämne", "den 15 januari 2030 08:00"),
    "da": ("Oprindelig meddelelse", "Fra", "Sendt", "Til", "Emne", "15. januar 2030 08:00"),
    "nb": ("Opprinnelig melding", "Fra", "Sendt", "Til", "Emne", "tirsdag 15. januar 2030 08:00"),
    "pl": ("Wiadomość oryginalna", "Od", "Wysłano", "Do", "Temat", "wtorek, 15 stycznia 2030 08:00"),
    "ru": ("Исходное сообщение", "От", "Отправлено", "Кому", "Тема", "15 января 2030 г. 8:00"),
    "ja": ("元のメッセージ", "差出人", "送信日時", "宛先", "件名", "2030年1月15日 8:00"),
}
SUBJECT = "triage · Tue 15 Jan: 2 reminders, 2 to do"
LANGS = list(GMAIL)

def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

for i, lang in enumerate(LANGS):
    cmd = DONE if i % 2 == 0 else SNOOZE
    # Gmail web: multipart/alternative, the text part's attribution as Gmail writes it.
    attr = GMAIL[lang] % ATTR_ADDR
    text = "%s\n\n%s\n\n%s\n" % (cmd, attr, digest_text())
    html = ('<div dir="ltr">%s</div><br><div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">%s<br></div>'
            '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">%s</blockquote></div>'
            % (cmd, GMAIL[lang] % ATTR_HTML, digest_html()))
    message("gmail-web-%s" % lang, cmd, text=text, html=html, cte_text="quoted-printable", crlf=(i % 3 == 0))
    # Apple Mail on iOS: HTML only (blockquote type=cite), base64 for some.
    attr, sent = APPLE[lang]
    html = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body dir="auto">'
            '<div dir="ltr">%s</div><div dir="ltr"><br></div><div dir="ltr">%s</div><div dir="ltr"><br>'
            '<blockquote type="cite">%s<br><br></blockquote></div><blockquote type="cite"><div dir="ltr">%s</div></blockquote></body></html>'
            % (cmd.replace(" ", "&nbsp;", 1), esc(sent), attr % ATTR_HTML, digest_html()))
    message("ios-mail-%s" % lang, cmd, html=html, cte_html="base64" if i % 2 else "quoted-printable", crlf=True)
    # Outlook: text part with the unquoted copy below a header block (every client's
    # hardest case: no > at all), HTML with the Outlook structure.
    sep, f, s, t, subj, date = OUTLOOK[lang]
    if i % 3 == 0:
        header = "-----%s-----\n%s: %s\n%s: %s\n%s: Me <%s>\n%s: %s" % (sep, f, ATTR_ADDR, s, date, t, ME, subj, SUBJECT)
    else:
        header = "________________________________\n%s: %s\n%s: %s\n%s: Me <%s>\n%s: %s" % (f, ATTR_ADDR, s, date, t, ME, subj, SUBJECT)
    text = "%s\n\n%s\n\n%s\n" % (cmd, header, digest_text(prefix=""))
    hdr_html = "<b>%s:</b> %s<br><b>%s:</b> %s<br><b>%s:</b> Me &lt;%s&gt;<br><b>%s:</b> %s" % (
        esc(f), esc(ATTR_ADDR), esc(s), date, esc(t), ME, esc(subj), esc(SUBJECT))
    if i % 2 == 0:   # Outlook desktop (Word HTML)
        html = ('<html><head><style><!-- p.MsoNormal {margin:0cm;} --></style></head><body lang="%s"><div class="WordSection1">'
                '<p class="MsoNormal">%s<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p>'
                '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal">%s<o:p></o:p></p></div>'
                '<p class="MsoNormal"><o:p>&nbsp;</o:p></p>%s</div></body></html>' % (lang, cmd, hdr_html, digest_html()))
        kind = "outlook-desktop"
    else:            # Outlook on the web / new Outlook
        html = ('<html><body><div style="font-family: Aptos, sans-serif;">%s</div><div id="appendonsend"></div>'
                '<hr style="display:inline-block;width:98%%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
                '<font face="Calibri, sans-serif" style="font-size:11pt">%s</font><div>&nbsp;</div></div>%s</body></html>'
                % (cmd, hdr_html, digest_html()))
        kind = "outlook-web"
    message("%s-%s" % (kind, lang), cmd, text=text, html=html, cte_text="base64" if i % 2 else "quoted-printable",
            crlf=(i % 2 == 1))

# Outlook mobile: "Get Outlook for iOS" above the rule and header block (crisp: email_ios_outlook_fr).
message("outlook-ios-en", DONE, text="%s\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n________________________________\nFrom: %s\n"
        "Sent: Tuesday, January 15, 2030 8:00:00 AM\nTo: Me <%s>\nSubject: %s\n\n%s\n" % (DONE, ATTR_ADDR, ME, SUBJECT, digest_text("")))
message("outlook-android-fr", SNOOZE, text="%s\n\nTélécharger Outlook pour Android<https://aka.ms/ghei36>\n________________________________\n"
        "De : %s\nEnvoyé : mardi 15 janvier 2030 08:00\nÀ : Me <%s>\nObjet : %s\n\n%s\n" % (SNOOZE, ATTR_ADDR, ME, SUBJECT, digest_text("")),
        cte_text="quoted-printable", crlf=True)
# Outlook: an <hr> and a From/Sent block, with no id or class to say so (talon: reply-separated-by-hr).
message("outlook-hr-de", DONE, html='<div>%s</div><hr><b>Von:</b> %s<br><b>Gesendet:</b> Dienstag, 15. Januar 2030 08:00<br>'
        '<b>An:</b> Me<br><b>Betreff:</b> %s<br><br>%s' % (DONE, esc(ATTR_ADDR), esc(SUBJECT), digest_html()))
# Hotmail's rule (talon: html_replies/hotmail.html): Date, Subject, From after <hr id="stopSpelling">.
message("hotmail-en", SNOOZE, html="<div dir='ltr'>%s<br><br><div><hr id=\"stopSpelling\">Date: Tue, 15 Jan 2030 08:00:00 -0600<br>"
        "Subject: %s<br>From: triage@example.test<br>To: %s<br><br>%s</div></div>" % (SNOOZE, esc(SUBJECT), ME, digest_html()))
# Thunderbird: moz-cite-prefix + blockquote; its text part format=flowed with a wrapped attribution.
message("thunderbird-de", DONE,
        text="%s\n\nAm 15.01.30 um 08:00 schrieb triage: \n> triage · Tue 15 Jan: 2 reminders, \n> 2 to do\n>\n%s\n" % (
            DONE, "\n".join("> " + l for l in DIGEST_LINES[2:])),
        html='<html><body><p>%s<br></p><div class="moz-cite-prefix">Am 15.01.30 um 08:00 schrieb triage:<br></div>'
             '<blockquote type="cite" cite="mid:digest@triage.invalid">%s</blockquote></body></html>' % (DONE, digest_html()),
        flowed=True, cte_text="quoted-printable")
message("thunderbird-en-flowed", SNOOZE,
        text="snooze 21c1 \n3 days\n\nOn 1/15/30 08:00, triage wrote:\n%s\n" % digest_text(), flowed=True)
# Apple Mail's text part: format=flowed; delsp=yes (the soft break's space is deleted).
message("apple-mail-sv-flowed", DONE,
        text="done  \n0162\n\nSkickat från min iPhone\n\n> 15 jan. 2030 kl. 08:00 skrev %s:\n%s\n" % (ATTR_ADDR, digest_text()),
        flowed="delsp", crlf=True)
# Yahoo: yahoo_quoted; its text part indents the quote without > (talon: standard_replies/yahoo.eml).
message("yahoo-en", DONE,
        text="%s\n\n\n    On Tuesday, January 15, 2030, 08:00:00 AM CST, %s wrote:\n\n%s\n" % (
            DONE, ATTR_ADDR, "\n".join("    " + l for l in DIGEST_LINES)),
        html='<html><body><div class="ydp1" style="font-family:Helvetica"><div>%s</div></div><div id="yahoo_quoted_4821" '
             'class="yahoo_quoted"><div style="font-family:Helvetica"><div>On Tuesday, January 15, 2030, 08:00:00 AM CST, %s wrote:</div>'
             '<div><br></div>%s</div></div></body></html>' % (DONE, ATTR_HTML, digest_html()))
message("yahoo-fr-html", SNOOZE,
        html='<div>%s</div><div class="yahoo_quoted"><div>Le mardi 15 janvier 2030, 08:00:00 UTC+1, %s a écrit :</div>%s</div>'
             % (SNOOZE, ATTR_HTML, digest_html()), cte_html="base64")
# A reply in a thread: the quote holds the user's earlier command above the older digest.
message("thread-en", SNOOZE, text="%s\n\nOn Tue, Jan 15, 2030 at 9:00 AM Me <%s> wrote:\n> done 6aa8\n>\n> On Tue, Jan 15, 2030 at 8:00 AM %s wrote:\n%s\n"
        % (SNOOZE, ME, ATTR_ADDR, digest_text(">> ")), crlf=True)
message("thread-de-html", DONE, html='<div>%s</div><div class="gmail_quote"><div class="gmail_attr">Am Di., 15. Jan. 2030 um 09:00 Uhr schrieb Me:</div>'
        '<blockquote class="gmail_quote"><div>done 6aa8</div><div class="gmail_quote">%s</div></blockquote></div>' % (DONE, digest_html()))
# Gmail's text part with the attribution wrapped over two lines (crisp: email_fr_multiline, email_portuguese).
message("gmail-wrapped-fr", DONE, text="%s\n\nLe mar. 15 janv. 2030 à 08:00, triage - digest of the day <triage@example.test>\na écrit :\n\n%s\n"
        % (DONE, digest_text("")), crlf=True)
message("gmail-wrapped-pt", SNOOZE, text="%s\n\nEm 15 de janeiro de 2030 às 08:00:00, triage (\ntriage@example.test) escreveu:\n\n%s\n"
        % (SNOOZE, digest_text("")))
# A signature (-- ) above the unquoted copy.
message("signature-en", DONE, text="%s\n\n-- \nMe\n\n%s\n" % (DONE, digest_text("")), cte_text="base64")
# Android (Samsung) mail's separator (crisp: email_danish_dash_separator, email_french_dash_separator).
message("android-da", DONE, text="%s\n\n-------- Oprindelig besked --------\nFra: %s\nDato: 15.01.2030 08.00 (GMT+01:00)\nTil: %s\n"
        "Emne: %s\n\n%s\n" % (DONE, ATTR_ADDR, ME, SUBJECT, digest_text("")))
