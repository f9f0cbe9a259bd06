#!/usr/bin/python3
"""Reference parse for the agreement test (MessageAgreementTests.swift).

Parses each message file named on the command line with Python's `email`
package (policy `default`) and prints one JSON object: path -> the fields the
Swift parser must agree on (decoded addresses, subject, date, Message-ID,
attachment names).
"""
import email
import email.policy
import json
import sys

ADDRESS_HEADERS = ["from", "to", "cc", "bcc", "reply-to"]


def addresses(msg, name):
    header = msg.get(name)
    if header is None:
        return []
    # header.addresses flattens groups, like the Swift model does.
    return [{"name": a.display_name or None, "address": a.addr_spec} for a in header.addresses]


def date(msg):
    header = msg.get("date")
    if header is None or header.datetime is None:
        return None
    dt = header.datetime
    offset = dt.utcoffset()
    return {
        "epoch": int(dt.timestamp()) if offset is not None else None,
        "offset": int(offset.total_seconds()) if offset is not None else None,
    }


def message_id(msg):
    value = msg.get("message-id")
    if value is None:
        return None
    text = str(value).strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    return text or None


def attachments(msg):
    names = []
    for part in msg.walk():
        name = part.get_filename()
        if name:
            names.append(name)
    return names


def main():
    result = {}
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            msg = email.message_from_bytes(f.read(), policy=email.policy.default)
        subject = msg.get("subject")
        result[path] = {
            "from": addresses(msg, "from"),
            "to": addresses(msg, "to"),
            "cc": addresses(msg, "cc"),
            "bcc": addresses(msg, "bcc"),
            "reply_to": addresses(msg, "reply-to"),
            "subject": None if subject is None else str(subject),
            "date": date(msg),
            "message_id": message_id(msg),
            "attachments": attachments(msg),
        }
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
