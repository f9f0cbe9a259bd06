#!/usr/bin/python3
"""Checks the server state after a benchmark run against expected.tsv, by Message-ID.

    verify.py SERVERDIR EXPECTED.tsv [--json]

Logs in as me@example.test (TLS, the test CA), reads every message of INBOX and
NoPush (UID, FLAGS, Message-ID) and compares: each expected message exactly once,
in the expected folder, with exactly the expected system flags and keywords.
Prints a one-line summary (or JSON) and exits 0 when everything matches, 1 if not.
"""
import imaplib
import json
import re
import ssl
import sys
from collections import Counter

SYSTEM = {"\\Seen": "S", "\\Flagged": "F", "\\Answered": "R", "\\Deleted": "T", "\\Draft": "D"}


def state(conn, folder):
    typ, _ = conn.select('"%s"' % folder, readonly=True)
    assert typ == "OK", folder
    typ, data = conn.uid("FETCH", "1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
    assert typ == "OK", data
    found = []
    for item in data:
        if not isinstance(item, tuple):
            continue
        meta, header = item
        flags = re.search(rb"FLAGS \(([^)]*)\)", meta).group(1).decode().split()
        m = re.search(rb"(?im)^Message-ID:\s*(<[^>]*>)", header)
        mid = m.group(1).decode() if m else None
        system = "".join(sorted(SYSTEM[f] for f in flags if f in SYSTEM))
        keywords = ",".join(sorted(f.lower() for f in flags if not f.startswith("\\")))
        found.append((mid, folder, system, keywords))
    return found


def main():
    server, expected_path = sys.argv[1], sys.argv[2]
    as_json = "--json" in sys.argv
    ports = dict(l.strip().split("=") for l in open(server + "/ports"))
    ctx = ssl.create_default_context(cafile=server + "/ssl/ca.pem")
    conn = imaplib.IMAP4_SSL("127.0.0.1", int(ports["imaps"]), ssl_context=ctx)
    conn.login("me@example.test", "test-password")
    found = state(conn, "INBOX") + state(conn, "NoPush")
    conn.logout()

    expected = {}
    for line in open(expected_path):
        if line.startswith("#"):
            continue
        mid, folder, flags, keywords = line.rstrip("\n").split("\t")
        expected[mid] = (folder, flags, keywords)

    counts = Counter(mid for mid, *_ in found)
    problems = Counter()
    examples = {}

    def problem(kind, mid, detail):
        problems[kind] += 1
        examples.setdefault(kind, "%s: %s" % (mid, detail))

    for mid, folder, flags, keywords in found:
        if mid not in expected:
            problem("unexpected message", mid, folder)
            continue
        want_folder, want_flags, want_keywords = expected[mid]
        if folder != want_folder:
            problem("wrong folder", mid, "in %s, want %s" % (folder, want_folder))
        if flags != want_flags:
            problem("flags changed", mid, "%r, want %r" % (flags, want_flags))
        if keywords != want_keywords:
            have, want = set(filter(None, keywords.split(","))), set(filter(None, want_keywords.split(",")))
            for k in sorted(want - have):
                problem("missing keyword " + k, mid, "has %r" % keywords)
            for k in sorted(have - want):
                problem("extra keyword " + k, mid, "want %r" % want_keywords)
    for mid, n in counts.items():
        if n > 1:
            problem("duplicated", mid, "%d copies" % n)
    for mid in expected:
        if mid not in counts:
            problem("lost", mid, "not in INBOX or NoPush")

    bad_messages = set()
    for mid, folder, flags, keywords in found:
        if mid not in expected or expected[mid] != (folder, flags, keywords) or counts[mid] > 1:
            bad_messages.add(mid)
    bad_messages |= {mid for mid in expected if mid not in counts}
    result = {"messages": len(expected), "wrong": len(bad_messages), "problems": dict(problems), "examples": examples}
    if as_json:
        print(json.dumps(result))
    elif bad_messages:
        print("WRONG: %d of %d messages: %s" % (len(bad_messages), len(expected),
                                                  "; ".join("%s x%d (e.g. %s)" % (k, v, examples[k]) for k, v in problems.items())))
    else:
        print("correct: all %d messages as expected" % len(expected))
    sys.exit(1 if bad_messages else 0)


if __name__ == "__main__":
    main()
