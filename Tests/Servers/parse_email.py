#!/usr/bin/python3
"""Parses one RFC 5322 message with Python's email package (policy default) and
prints what the tests compare, as JSON: the decoded subject, from, to, every
header name, both bodies, and any defects the parser noticed.

Usage: parse_email.py FILE   (the message file; an .eml written by smtpd.py
works too: its X-Envelope-* lines are ordinary headers to the parser)."""
import email
import email.policy
import json
import sys

with open(sys.argv[1], "rb") as f:
    msg = email.message_from_binary_file(f, policy=email.policy.default)

def body(kind):
    part = msg.get_body(preferencelist=(kind,))
    if part is None or part.get_content_type() != "text/" + kind:
        return None
    return part.get_content()

defects = [type(d).__name__ for d in msg.defects]
for part in msg.walk():
    defects += [type(d).__name__ for d in part.defects]
    for name, value in part.items():
        defects += [type(d).__name__ for d in getattr(value, "defects", ())]

print(json.dumps({
    "subject": str(msg["subject"]) if msg["subject"] is not None else None,
    "from": [{"name": a.display_name, "address": a.addr_spec} for a in msg["from"].addresses] if msg["from"] else [],
    "to": [{"name": a.display_name, "address": a.addr_spec} for a in msg["to"].addresses] if msg["to"] else [],
    "date": str(msg["date"]) if msg["date"] else None,
    "message_id": str(msg["message-id"]) if msg["message-id"] else None,
    "headers": [k for k in msg.keys()],
    "content_type": msg.get_content_type(),
    "text": body("plain"),
    "html": body("html"),
    "defects": defects,
}, ensure_ascii=False))
