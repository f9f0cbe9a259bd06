#!/usr/bin/python3
"""Generates a realistic INBOX as Maildir files, deterministically (fixed seed).

    gen.py COUNT OUTDIR [--seed N]

Writes OUTDIR/Maildir (cur/ with one file per message, an empty .NoPush folder)
and OUTDIR/expected.tsv: for every Message-ID the folder, the system flags and
the keywords the benchmark's triage must leave behind:

  * `me` (me@example.test) only in Cc, not in To -> keyword nopush, folder NoPush
  * From one of the bank and shop senders      -> keyword rec
  * nothing else changes (flags stay as generated).

The mix (weights below): about 30 % cc-only mail, often with long folded Cc lists
and RFC 2047 encoded names; bank and shop receipts, some with a PDF; mailing-list
mail with List-Id; multipart/alternative; sizes from 1 KB to 200 KB with a long
tail; about 85 % already read. Traps that substring matching gets wrong:
`graeme@example.test` and `jaime@example.test` next to `me@example.test`
(in To and in Cc), `ME@Example.Test` in upper case, phishing senders whose display
name or address merely contains a bank address.
"""
import argparse
import base64
import os
import random

ME = "me@example.test"
BANKS = ["statements@mybank.example", "alerts@mybank.example"]
SHOPS = ["orders@shop.example", "receipts@bookshop.example"]
RECEIPT_SENDERS = BANKS + SHOPS
LOOKALIKES = ["graeme@example.test", "jaime@example.test"]

FIRST = ["Alice", "Bob", "Priya", "Kenji", "Margaret", "Tomás", "Jürgen", "François", "Zoë",
         "Olu", "Mei", "Sven", "Ana", "Dmitri", "Fatima", "Liam", "Noor", "Hiroshi", "Chloé", "Raj"]
LAST = ["Nguyen", "Tran", "Raman", "Sato", "Boss", "García", "Müller", "Dubois", "Øvergaard",
        "Okafor", "Chen", "Larsson", "Silva", "Ivanov", "Haddad", "Walsh", "Khan", "Tanaka", "Martin", "Patel"]
DOMAINS = ["example.org", "example.net", "corp.example", "uni.example", "mail.example.com"]
WORDS = ("the of and to in is that for it as with was on be at by this had not are but from or have an "
         "they which one you were all we when there can been has more if will would so no out up what "
         "about into than them only other new some could time these two may then first any my now such "
         "like our over man me even most made after also did many before must through back years where "
         "much your way well down should because each just those people how too little state good very "
         "make world still own see men work long get here between both life being under never day same "
         "another know while last might us great old year off come since against go came right used take "
         "three budget meeting review draft quarter release branch invoice order shipped agenda offsite "
         "planning report numbers schedule follow up thanks regards cheers please find attached").split()
SUBJECTS = ["Q{q} planning", "Re: Offsite agenda", "Re: Re: Budget review for {team}", "Draft minutes {d}",
            "Lunch on Friday?", "Fwd: Hotel booking confirmation", "Release {v} branch cut",
            "Café on Friday ☕", "Résumé of the workshop", "Weekly sync notes", "Question about the {team} report",
            "Zusammenfassung der Besprechung", "Please review: {team} roadmap", "Re: your question"]
TEAMS = ["platform", "mobile", "finance", "sales", "design", "infra", "data"]
LISTS = [("Developer discussion", "dev.lists.example"), ("Announcements", "announce.lists.example"),
         ("Debian users", "debian-user.lists.debian.example"), ("Hiking club", "hiking.groups.example")]


def q_encode(text, charset="UTF-8"):
    """RFC 2047 Q encoding of a phrase (spaces as underscores)."""
    out = []
    for byte in text.encode("utf-8" if charset == "UTF-8" else "latin-1"):
        c = chr(byte)
        if c.isalnum() and byte < 128:
            out.append(c)
        elif c == " ":
            out.append("_")
        else:
            out.append("=%02X" % byte)
    return "=?%s?Q?%s?=" % (charset, "".join(out))


def b_encode(text):
    return "=?UTF-8?B?%s?=" % base64.b64encode(text.encode()).decode()


class Generator:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def name(self):
        return "%s %s" % (self.r.choice(FIRST), self.r.choice(LAST))

    def person(self):
        """A person as (display name, address)."""
        first, last = self.r.choice(FIRST), self.r.choice(LAST)
        local = "%s.%s" % (first.lower(), last.lower())
        local = local.encode("ascii", "ignore").decode() or "someone"
        return "%s %s" % (first, last), "%s%d@%s" % (local, self.r.randrange(100), self.r.choice(DOMAINS))

    def mailbox(self, display, address):
        """An address as it appears in a header: bare, quoted, or RFC 2047 encoded."""
        k = self.r.random()
        if not display or k < 0.15:
            return address
        if any(ord(c) > 127 for c in display):
            return "%s <%s>" % (q_encode(display) if self.r.random() < 0.7 else b_encode(display), address)
        if k < 0.3:
            last_first = ", ".join(reversed(display.split(" ", 1)))
            return '"%s" <%s>' % (last_first, address)
        return "%s <%s>" % (display, address)

    def me(self):
        return self.r.choice([ME, "Me Myself <%s>" % ME, '"Myself, Me" <%s>' % ME, "ME@Example.Test",
                              "=?UTF-8?Q?M=C3=A9_Myself?= <%s>" % ME])

    def others(self, n):
        return [self.mailbox(*self.person()) for _ in range(n)]

    @staticmethod
    def fold(name, items):
        """A header field with a comma-separated list, folded at about 76 columns."""
        line = name + ": "
        lines = []
        for i, item in enumerate(items):
            piece = item + ("," if i < len(items) - 1 else "")
            if len(line) + len(piece) + 1 > 76 and line.strip() != name + ":":
                lines.append(line.rstrip())
                line = "\t" + piece + " "
            else:
                line += piece + " "
        lines.append(line.rstrip())
        return "\n".join(lines) + "\n"

    def text(self, size):
        words = []
        total = 0
        while total < size:
            sentence = " ".join(self.r.choice(WORDS) for _ in range(self.r.randrange(6, 16)))
            sentence = sentence.capitalize() + ". "
            words.append(sentence)
            total += len(sentence)
            if self.r.random() < 0.15:
                words.append("\n\n")
        body = "".join(words)
        # Wrap at about 72 columns.
        out, col = [], 0
        for token in body.split(" "):
            if col + len(token) > 72:
                out.append("\n")
                col = 0
            out.append(token + " ")
            col += len(token) + 1
        return "".join(out)

    def body_size(self, room):
        # Log-normal: median ~2.5 KB of text, a long tail, clamped so that the
        # whole message stays between about 1 KB and 200 KB.
        return int(min(room, max(500, self.r.lognormvariate(7.8, 1.1))))

    def message(self, i):
        r = self.r
        kind = r.random()
        to, cc = [], []
        from_display, from_address = self.person()
        subject = r.choice(SUBJECTS).format(q=r.randrange(1, 5), team=r.choice(TEAMS), d=r.randrange(1, 28),
                                            v="%d.%d" % (r.randrange(1, 9), r.randrange(10)))
        list_id = None
        receipt = False
        pdf = False
        phishing = False
        if kind < 0.30:
            # Cc-only: me in Cc, never in To (To often a look-alike).
            to = self.others(r.randrange(1, 3))
            if r.random() < 0.3:
                to.insert(r.randrange(len(to) + 1), r.choice(LOOKALIKES))
            cc = self.others(r.randrange(0, 25) if r.random() < 0.5 else r.randrange(0, 4))
            cc.insert(r.randrange(len(cc) + 1), self.me())
            if r.random() < 0.2:
                cc.insert(r.randrange(len(cc) + 1), r.choice(LOOKALIKES))
        elif kind < 0.42:
            # Receipts from the bank and shop senders; some are also cc-only.
            receipt = True
            from_address = r.choice(RECEIPT_SENDERS)
            from_display = {"statements@mybank.example": "MyBank Statements", "alerts@mybank.example": "MyBank",
                            "orders@shop.example": "Shop Orders", "receipts@bookshop.example": "Bookshop"}[from_address]
            subject = r.choice(["Your statement for {m}", "Receipt for order #{n}", "Payment received",
                                "Your order #{n} has shipped", "Kontoauszug {m}", "Reçu de paiement"]).format(
                m=r.choice(["January", "February", "March", "April", "May", "June"]), n=r.randrange(10_000, 99_999))
            pdf = r.random() < 0.4
            if r.random() < 0.1:
                to = self.others(1)
                cc = [self.me()]
            else:
                to = [self.me()]
        elif kind < 0.47:
            # Phishing and look-alike senders: must not get `rec`.
            phishing = True
            bank = r.choice(RECEIPT_SENDERS)
            fake = r.choice([
                ('"%s"' % bank, "security@mybank-verify.example"),
                ("%s via Support" % bank, "noreply@secure-login.example"),
                ("MyBank", bank.replace("@", ".") + "@phish.example"),
                ("MyBank Statements", bank + ".evil.example"),
                ("Shop Orders", "x" + bank),
            ])
            from_display, from_address = fake
            subject = r.choice(["Urgent: verify your account", "Your statement is ready", "Payment failed"])
            to = [self.me()]
        elif kind < 0.62:
            # Mailing-list mail: to the list, sometimes me in Cc as well (cc-only then).
            list_name, list_id = r.choice(LISTS)
            to = ["%s <%s>" % (list_name, list_id.replace(".", "@", 1))]
            subject = "[%s] %s" % (list_id.split(".")[0], subject)
            if r.random() < 0.1:
                cc = [self.me()]
        elif kind < 0.70:
            # Look-alikes in Cc while I am in To: not cc-only.
            to = [self.me()] + self.others(r.randrange(0, 2))
            cc = self.others(r.randrange(0, 6)) + [r.choice(LOOKALIKES)]
            r.shuffle(cc)
        elif kind < 0.75:
            # Look-alikes only: I am nowhere.
            to = [r.choice(LOOKALIKES)] + self.others(r.randrange(0, 2))
            cc = [r.choice(LOOKALIKES)] + self.others(r.randrange(0, 3))
        elif kind < 0.80:
            # Me in To and in Cc: not cc-only.
            to = [self.me()]
            cc = self.others(r.randrange(0, 5)) + [self.me()]
        else:
            # Personal mail to me.
            to = [self.me()] + self.others(r.randrange(0, 3))
            if r.random() < 0.3:
                cc = self.others(r.randrange(1, 8))

        def has_me(items):
            return any(item.lower().endswith("<me@example.test>") or item.lower() == ME for item in items)

        cc_only = has_me(cc) and not has_me(to)
        rec = receipt and not phishing
        keywords = set()
        if cc_only:
            keywords.add("nopush")
        if rec:
            keywords.add("rec")
        folder = "NoPush" if cc_only else "INBOX"

        # Flags: most already read, a few flagged.
        flags = set()
        if r.random() < 0.85:
            flags.add("S")
        if r.random() < 0.03:
            flags.add("F")

        epoch = 1_700_000_000 + i * 600 + r.randrange(600)
        mid = "<%d.%08x@%s>" % (i, r.getrandbits(32), r.choice(DOMAINS) if not receipt else from_address.split("@")[1])
        header = []
        header.append("Return-Path: <%s>\n" % from_address)
        for hop in range(r.randrange(2, 4)):
            header.append("Received: from relay%d.example.net (relay%d.example.net [192.0.2.%d])\n"
                          "\tby mx%d.example.test (Postfix) with ESMTPS id %X\n"
                          "\tfor <me@example.test>; %s\n" % (hop, hop, hop + 1, hop, r.getrandbits(40), rfc_date(epoch - hop)))
        if r.random() < 0.7:
            header.append("DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=%s; s=mail;\n"
                          "\th=from:to:cc:subject:date:message-id; bh=%s;\n\tb=%s\n\t %s\n" % (
                              from_address.split("@")[1], base64.b64encode(r.randbytes(32)).decode(),
                              base64.b64encode(r.randbytes(48)).decode(), base64.b64encode(r.randbytes(48)).decode()))
        header.append("Date: %s\n" % rfc_date(epoch))
        header.append("From: %s\n" % (self.mailbox(from_display, from_address) if not phishing
                                      else '%s <%s>' % (from_display, from_address)))
        header.append(self.fold("To", to))
        if cc:
            header.append(self.fold("Cc", cc))
        if any(ord(c) > 127 for c in subject):
            header.append("Subject: %s\n" % (q_encode(subject) if r.random() < 0.5 else b_encode(subject)))
        else:
            header.append("Subject: %s\n" % subject)
        header.append("Message-ID: %s\n" % mid)
        if subject.startswith("Re:") or r.random() < 0.1:
            header.append("In-Reply-To: <%d.ref@example.org>\nReferences: <%d.ref@example.org>\n" % (i - 1, i - 1))
        if list_id:
            header.append("List-Id: %s <%s>\nList-Unsubscribe: <mailto:leave@%s>\nPrecedence: list\n" % (
                list_id.split(".")[0].capitalize(), list_id, list_id))
        header.append("MIME-Version: 1.0\n")

        alternative = r.random() < 0.45
        pdf_size = r.randrange(8_000, 60_000) if pdf else 0
        text = self.text(self.body_size((190_000 - pdf_size * 4 // 3) // (2 if alternative else 1)))
        parts = []
        if alternative:
            b = "=_alt%d" % i
            html = "<html><body><p>" + text.replace("\n\n", "</p><p>") + "</p></body></html>\n"
            inner = ("Content-Type: multipart/alternative; boundary=\"%s\"\n\n--%s\n"
                     "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n%s\n--%s\n"
                     "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n%s\n--%s--\n") % (
                b, b, text, b, html, b)
        else:
            inner = "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n%s\n" % text
        if pdf:
            b = "=_mix%d" % i
            pdf_bytes = b"%PDF-1.4\n" + r.randbytes(pdf_size)
            encoded = base64.encodebytes(pdf_bytes).decode()
            body = ("Content-Type: multipart/mixed; boundary=\"%s\"\n\n--%s\n%s\n--%s\n"
                    "Content-Type: application/pdf; name=\"statement-%d.pdf\"\n"
                    "Content-Disposition: attachment; filename=\"statement-%d.pdf\"\n"
                    "Content-Transfer-Encoding: base64\n\n%s\n--%s--\n") % (b, b, inner, b, i, i, encoded, b)
        else:
            body = inner
        data = ("".join(header) + body).encode("utf-8")
        return mid, folder, flags, keywords, epoch, data


def rfc_date(epoch):
    import time
    return time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(epoch))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("count", type=int)
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args()
    g = Generator(args.seed)
    maildir = os.path.join(args.outdir, "Maildir")
    for sub in ["cur", "new", "tmp", ".NoPush/cur", ".NoPush/new", ".NoPush/tmp"]:
        os.makedirs(os.path.join(maildir, sub), exist_ok=True)
    with open(os.path.join(maildir, "subscriptions"), "w") as f:
        f.write("NoPush\n")
    with open(os.path.join(args.outdir, "expected.tsv"), "w") as expected:
        expected.write("# message-id\tfolder\tflags\tkeywords\n")
        for i in range(args.count):
            mid, folder, flags, keywords, epoch, data = g.message(i)
            name = "%d.M%dP1.bench,S=%d:2,%s" % (epoch, i, len(data), "".join(sorted(flags)))
            path = os.path.join(maildir, "cur", name)
            with open(path, "wb") as f:
                f.write(data)
            os.utime(path, (epoch, epoch))
            expected.write("%s\t%s\t%s\t%s\n" % (mid, folder, "".join(sorted(flags)), ",".join(sorted(keywords))))


if __name__ == "__main__":
    main()
