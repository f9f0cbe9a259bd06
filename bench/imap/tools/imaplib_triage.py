#!/usr/bin/python3
"""The benchmark's triage as a careful user would write it with imaplib.

    imaplib_triage.py HOST PORT CAFILE USER PASSWORD [--all]

Mail with me@example.test only in Cc gets keyword `nopush` and moves to NoPush;
mail from the bank and shop senders gets keyword `rec`. The server's SEARCH
narrows the candidates (it matches substrings, so `graeme@` and phishing display
names come back too); the headers of the candidates are then parsed with
email.utils so that only real addresses count. The highest UID seen is kept in
a state file next to this script's working directory, so a rerun without --all
only looks at new mail (the cron case).
"""
import email.parser
import email.utils
import imaplib
import os
import ssl
import sys

ME = "me@example.test"
SENDERS = ["statements@mybank.example", "alerts@mybank.example", "orders@shop.example", "receipts@bookshop.example"]
STATE = "imaplib-state"
CHUNK = 500


def uid_set(uids):
    """A compact UID set: runs of consecutive UIDs as ranges."""
    out, start, prev = [], None, None
    for uid in sorted(uids):
        if start is None:
            start = prev = uid
        elif uid == prev + 1:
            prev = uid
        else:
            out.append(str(start) if start == prev else "%d:%d" % (start, prev))
            start = prev = uid
    if start is not None:
        out.append(str(start) if start == prev else "%d:%d" % (start, prev))
    return ",".join(out)


def chunks(items, n):
    items = sorted(items)
    for i in range(0, len(items), n):
        yield items[i:i + n]


def search(conn, *criteria):
    typ, data = conn.uid("SEARCH", None, *criteria)
    if typ != "OK":
        raise SystemExit("SEARCH failed: %r" % data)
    return {int(x) for x in data[0].split()}


def addresses(message, field):
    return {address.lower() for _, address in email.utils.getaddresses(message.get_all(field, []))}


def main():
    host, port, cafile, user, password = sys.argv[1:6]
    walk_all = "--all" in sys.argv
    conn = imaplib.IMAP4_SSL(host, int(port), ssl_context=ssl.create_default_context(cafile=cafile))
    conn.login(user, password)
    typ, data = conn.select("INBOX")
    if typ != "OK":
        raise SystemExit("SELECT failed: %r" % data)
    uidvalidity = conn.untagged_responses.get("UIDVALIDITY", [b"0"])[0].decode()
    uidnext = int(conn.untagged_responses.get("UIDNEXT", [b"1"])[0])
    last = 0
    if not walk_all and os.path.exists(STATE):
        saved_validity, saved_last = open(STATE).read().split()
        if saved_validity == uidvalidity:
            last = int(saved_last)
    if last + 1 >= uidnext:
        conn.logout()  # nothing new
        return
    scope = ["UID", "%d:*" % (last + 1)]

    # Narrow on the server: substring matches, so these are only candidates.
    cc_candidates = search(conn, *scope, "CC", ME)
    from_criteria = ["FROM", SENDERS[-1]]
    for sender in SENDERS[:-1]:
        from_criteria = ["OR", "FROM", sender] + from_criteria
    rec_candidates = search(conn, *scope, *from_criteria)
    candidates = {uid for uid in cc_candidates | rec_candidates if uid > last}

    parser = email.parser.BytesHeaderParser()
    nopush, rec = [], []
    for part in chunks(candidates, CHUNK):
        typ, data = conn.uid("FETCH", uid_set(part), "(UID BODY.PEEK[HEADER.FIELDS (FROM TO CC)])")
        if typ != "OK":
            raise SystemExit("FETCH failed: %r" % data)
        for item in data:
            if not isinstance(item, tuple):
                continue
            meta, header = item
            uid = int(meta.split(b"UID ")[1].split()[0])
            message = parser.parsebytes(header)
            if ME in addresses(message, "cc") and ME not in addresses(message, "to"):
                nopush.append(uid)
            if addresses(message, "from") & set(SENDERS):
                rec.append(uid)

    for keyword, uids in (("rec", rec), ("nopush", nopush)):
        for part in chunks(uids, CHUNK):
            typ, data = conn.uid("STORE", uid_set(part), "+FLAGS.SILENT", "(%s)" % keyword)
            if typ != "OK":
                raise SystemExit("STORE failed: %r" % data)
    for part in chunks(nopush, CHUNK):
        typ, data = conn.uid("MOVE", uid_set(part), "NoPush")
        if typ != "OK":
            raise SystemExit("MOVE failed: %r" % data)
    with open(STATE + ".tmp", "w") as f:
        f.write("%s %d\n" % (uidvalidity, uidnext - 1))
    os.replace(STATE + ".tmp", STATE)
    conn.logout()


if __name__ == "__main__":
    main()
