#!/usr/bin/python3
"""Parses RFC 5322 messages with Python's email package (policy default): the
reference reader the tests compare triage's own parser and composer with.

Usage: parse_email.py FILE...

Prints one JSON object per file, one line each, in the order given:
  subject, date, message_id   the decoded header values as Python prints them
  from, to, cc, bcc, reply_to the addresses ({name, address}; groups flattened,
                              name "" when there is none): msg[name], so
                              only the first of repeated fields
  to_all, cc_all, bcc_all     the same over every To, Cc or Bcc field, in order
                              (msg.get_all(name)), as mail clients read them
  date_instant                {epoch, offset} of the Date header, or null
  headers                     every header name, in order
  content_type, text, html    the top-level type and both bodies
  attachments                 every part's file name, in order
  defects                     the names of any defects the parser noticed
An .eml written by smtpd.py works too: its X-Test-* lines are ordinary headers."""
import email
import email.policy
import json
import sys


def addresses(msg, name):
    header = msg.get(name)
    return [{"name": a.display_name, "address": a.addr_spec} for a in header.addresses] if header else []


def all_addresses(msg, name):
    return [{"name": a.display_name, "address": a.addr_spec}
            for header in msg.get_all(name, []) for a in header.addresses]


def date_instant(msg):
    header = msg.get("date")
    if header is None or header.datetime is None:
        return None
    offset = header.datetime.utcoffset()
    if offset is None:
        return {"epoch": None, "offset": None}
    return {"epoch": int(header.datetime.timestamp()), "offset": int(offset.total_seconds())}


def body(msg, kind):
    part = msg.get_body(preferencelist=(kind,))
    if part is None or part.get_content_type() != "text/" + kind:
        return None
    return part.get_content()


def defects(msg):
    found = [type(d).__name__ for d in msg.defects]
    for part in msg.walk():
        found += [type(d).__name__ for d in part.defects]
        for name, value in part.items():
            found += [type(d).__name__ for d in getattr(value, "defects", ())]
    return found


def text(msg, name):
    value = msg[name]
    return str(value) if value is not None else None


def describe(msg):
    return {
        "subject": text(msg, "subject"),
        "from": addresses(msg, "from"),
        "to": addresses(msg, "to"),
        "cc": addresses(msg, "cc"),
        "bcc": addresses(msg, "bcc"),
        "reply_to": addresses(msg, "reply-to"),
        "to_all": all_addresses(msg, "to"),
        "cc_all": all_addresses(msg, "cc"),
        "bcc_all": all_addresses(msg, "bcc"),
        "date": str(msg["date"]) if msg["date"] else None,
        "date_instant": date_instant(msg),
        "message_id": str(msg["message-id"]) if msg["message-id"] else None,
        "headers": list(msg.keys()),
        "content_type": msg.get_content_type(),
        "text": body(msg, "plain"),
        "html": body(msg, "html"),
        "attachments": [part.get_filename() for part in msg.walk() if part.get_filename()],
        "defects": defects(msg),
    }


for path in sys.argv[1:]:
    with open(path, "rb") as f:
        message = email.message_from_binary_file(f, policy=email.policy.default)
    print(json.dumps(describe(message), ensure_ascii=False))
