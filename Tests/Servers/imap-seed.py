#!/usr/bin/python3
"""Puts mail on a test IMAP server through IMAP itself (for servers whose storage the
tests do not write directly: Cyrus, Courier, Mailutils).

    imap-seed.py JOB.json

JOB: {"port": N, "cafile": PATH, "user": U, "password": P, "ops": [OP, ...]} where OP is
  {"create": MAILBOX}                                       (an existing one is fine)
  {"append": MAILBOX, "file": PATH, "flags": [..], "date": EPOCH}
  {"wipe": MAILBOX}                                         (expunge every message)
MAILBOX is the server's own name (modified UTF-7 already applied). Implicit TLS to
localhost, verified against cafile. Exits 1 with the server's answer on a failure.
"""
import imaplib
import json
import ssl
import sys
import time


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        job = json.load(f)
    context = ssl.create_default_context(cafile=job["cafile"])
    imap = imaplib.IMAP4_SSL("localhost", job["port"], ssl_context=context, timeout=30)
    imap.login(job["user"], job["password"])
    for op in job["ops"]:
        if "create" in op:
            typ, data = imap.create(quote(op["create"]))
            if typ != "OK" and b"exist" not in b" ".join(d for d in data if d).lower():
                fail("CREATE", op["create"], data)
        elif "append" in op:
            with open(op["file"], "rb") as f:
                text = f.read().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            flags = "(" + " ".join(op.get("flags", [])) + ")"
            date = imaplib.Time2Internaldate(time.localtime(op.get("date", time.time())))
            typ, data = imap.append(quote(op["append"]), flags, date, text)
            if typ != "OK":
                fail("APPEND", op["append"], data)
        elif "wipe" in op:
            typ, data = imap.select(quote(op["wipe"]))
            if typ != "OK":
                fail("SELECT", op["wipe"], data)
            if int(data[0]) > 0:
                imap.store("1:*", "+FLAGS.SILENT", "(\\Deleted)")
                imap.expunge()
            imap.close()
    imap.logout()


def quote(name):
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fail(command, mailbox, data):
    print(f"imap-seed.py: {command} {mailbox}: {data}", file=sys.stderr)
    sys.exit(1)


main()
