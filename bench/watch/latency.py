#!/usr/bin/python3
"""`triage watch` latency and memory against a real Dovecot on loopback.

    bench/watch/latency.py [--binary PATH] [--rate N] [--count N] [--soak N]
                           [--soak-rate N] [--baseline N] [--work DIR]

Starts a throw-away Dovecot (Tests/Servers/dovecot.sh), a user with INBOX and
Done, and `triage watch` with one rule (`when subject:bench then move "Done"`).

Latency: delivers --count messages (default 300) by IMAP APPEND at a steady
--rate per second (default 5) over one connection, and for each takes the time
from the APPEND's OK (the message is in INBOX; a phone would be told now) to
the moment its file is gone from INBOX's Maildir (looked at every 2 ms).
Reports p50, p90, p99 and the maximum.

Soak: then delivers --soak messages (default 10,000) at --soak-rate per second
(default 50) and reads the watch process's resident memory (VmRSS) after 100
and after all of them were moved, and its peak (VmHWM).

Baseline (first): the same for a plain IDLE client without triage (--baseline
messages, default 100, into another mailbox): the time from the APPEND's OK to
the server's `* N EXISTS`, the part of the latency that is the server's alone.

Prints the figures as Markdown rows. The binary defaults to .build/release/triage,
else .build/debug/triage.
"""
import argparse
import imaplib
import json
import os
import shutil
import signal
import ssl
import statistics
import subprocess
import sys
import time

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
dovecot = os.path.join(root, "Tests", "Servers", "dovecot.sh")
USER, PASSWORD = "me@example.test", "test-password"


def args():
    p = argparse.ArgumentParser()
    release = os.path.join(root, ".build", "release", "triage")
    p.add_argument("--binary", default=release if os.path.exists(release) else os.path.join(root, ".build", "debug", "triage"))
    p.add_argument("--rate", type=float, default=5)
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--soak", type=int, default=10000)
    p.add_argument("--soak-rate", type=float, default=50)
    p.add_argument("--baseline", type=int, default=100)
    p.add_argument("--work", default="/tmp/triage-bench-watch")
    return p.parse_args()


def rss(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])  # KiB
    return 0


class Inbox:
    """INBOX's Maildir, by base name (Dovecot renames new/ -> cur/ and adds flags)."""

    def __init__(self, path):
        self.path = path
        self.subjects = {}  # base name -> subject

    def names(self):
        found = set()
        for sub in ("new", "cur"):
            try:
                found.update(n.split(":")[0] for n in os.listdir(os.path.join(self.path, sub)))
            except FileNotFoundError:
                pass
        return found

    def subject_of(self, base):
        for sub in ("new", "cur"):
            d = os.path.join(self.path, sub)
            for n in os.listdir(d):
                if n.split(":")[0] == base:
                    try:
                        with open(os.path.join(d, n), "rb") as f:
                            for line in f.read(2048).split(b"\n"):
                                if line.startswith(b"Subject: "):
                                    return line[9:].strip().decode()
                    except FileNotFoundError:
                        return None
        return None


def deliver_and_measure(imap, inbox, subjects, rate, pid, rss_after=None):
    """APPENDs each subject at `rate` per second; returns latencies (s) by subject
    and the RSS (KiB) read once `rss_after` messages were moved."""
    delivered, gone, latencies = {}, set(), {}
    rss_at = None
    interval = 1.0 / rate
    start = time.monotonic()
    i = 0
    seen = {}  # base -> subject
    deadline = None
    while len(latencies) < len(subjects):
        now = time.monotonic()
        if i < len(subjects) and now >= start + i * interval:
            s = subjects[i]
            msg = f"From: Bench <bench@example.test>\r\nTo: {USER}\r\nSubject: {s}\r\nMessage-ID: <{s}@bench.test>\r\n\r\nHello.\r\n"
            typ, _ = imap.append("INBOX", "", None, msg.encode())
            assert typ == "OK"
            delivered[s] = time.monotonic()
            i += 1
            if i == len(subjects):
                deadline = time.monotonic() + 120
            continue
        names = inbox.names()
        t = time.monotonic()
        for base in names - seen.keys():
            subj = inbox.subject_of(base)
            if subj:
                seen[base] = subj
        for base in list(seen.keys() - names):
            subj = seen.pop(base)
            if subj in delivered and subj not in latencies:
                latencies[subj] = t - delivered[subj]
        if rss_after and rss_at is None and len(latencies) >= rss_after:
            rss_at = rss(pid)
        if deadline and time.monotonic() > deadline:
            break
        time.sleep(0.002)
    return latencies, rss_at


def done_count(path):
    return sum(len(os.listdir(os.path.join(path, sub))) for sub in ("new", "cur"))


def soak(imap, inbox, a, pid, done_path):
    """Delivers a.soak messages at a.soak_rate per second; reads the RSS once 100 and
    once all of them were moved to Done (counted in Done's Maildir)."""
    before = done_count(done_path)
    interval = 1.0 / a.soak_rate
    start = time.monotonic()
    rss_100 = None
    for i in range(a.soak):
        delay = start + i * interval - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        s = f"bench-soak-{i}"
        msg = f"From: Bench <bench@example.test>\r\nTo: {USER}\r\nSubject: {s}\r\nMessage-ID: <{s}@bench.test>\r\n\r\nHello.\r\n"
        typ, _ = imap.append("INBOX", "", None, msg.encode())
        assert typ == "OK"
        if rss_100 is None and done_count(done_path) - before >= 100:
            rss_100 = rss(pid)
    deadline = time.monotonic() + 300
    while done_count(done_path) - before < a.soak and time.monotonic() < deadline:
        time.sleep(0.05)
    moved = done_count(done_path) - before
    elapsed = time.monotonic() - start
    print(f"| soak | {a.soak} messages at {a.soak_rate:g}/s | moved {moved} in {elapsed:.0f} s | "
          f"RSS after 100: {rss_100/1024:.1f} MiB | after {moved}: {rss(pid)/1024:.1f} MiB | "
          f"peak {rss(pid, 'VmHWM')/1024:.1f} MiB | left in INBOX: {len(inbox.names())} |")


def idle_baseline(port, ca, count, rate):
    """The server's own part: from an APPEND's OK to the `* N EXISTS` a plain IDLE client
    (imaplib, no triage) gets, for `count` messages at `rate` per second, in another mailbox."""
    import threading
    ctx = ssl.create_default_context(cafile=ca)
    writer = imaplib.IMAP4_SSL("localhost", port, ssl_context=ctx)
    writer.login(USER, PASSWORD)
    writer.create("Baseline")
    idler = imaplib.IMAP4_SSL("localhost", port, ssl_context=ctx)
    idler.login(USER, PASSWORD)
    idler.select("Baseline")
    idler.send(b"b1 IDLE\r\n")
    assert idler.readline().startswith(b"+")
    arrived = []  # arrived[i]: when the server first counted message i+1

    def read():
        while len(arrived) < count:
            line = idler.readline()
            if not line:
                return
            words = line.split()
            # One EXISTS may announce several messages (the server coalesces its notices).
            if len(words) == 3 and words[2] == b"EXISTS":
                now = time.monotonic()
                while len(arrived) < min(int(words[1]), count):
                    arrived.append(now)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    sent = []
    for i in range(count):
        time.sleep(1.0 / rate)
        writer.append("Baseline", "", None, f"Subject: baseline {i}\r\n\r\nHi.\r\n".encode())
        sent.append(time.monotonic())
    reader.join(10)
    values = [a - s for s, a in zip(sent, arrived)]
    print(f"| server alone | {count} messages at {rate:g}/s, a plain IDLE client | p50 {pct(values, 50)*1000:.0f} ms | "
          f"p90 {pct(values, 90)*1000:.0f} ms | p99 {pct(values, 99)*1000:.0f} ms | max {max(values)*1000:.0f} ms |")
    sys.stdout.flush()


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main():
    a = args()
    work = a.work
    if os.path.exists(work):
        subprocess.run(["bash", dovecot, "halt", work], stderr=subprocess.DEVNULL)
        shutil.rmtree(work)
    os.makedirs(work)
    subprocess.run(["bash", dovecot, "start", work], check=True, stdout=subprocess.DEVNULL)
    ports = dict(l.split("=") for l in open(os.path.join(work, "ports")).read().split())
    port = int(ports["imaps"])
    ca = os.path.join(work, "ssl", "ca.pem")
    conf_dir = os.path.join(work, "triage")
    os.makedirs(os.path.join(conf_dir, "rules"))
    with open(os.path.join(conf_dir, "rules", "bench.rules"), "w") as f:
        f.write('rule "bench mail leaves the inbox"\n  when subject:bench\n  then move "Done"\n')
    conf = os.path.join(conf_dir, "triage.conf")
    with open(conf, "w") as f:
        f.write(f"[triage]\nrules = rules\nstore = store\ntimezone = UTC\n\n[account bench]\n"
                f"url = imaps://localhost:{port}\nuser = {USER}\npassword = {PASSWORD}\nca_file = {ca}\nmailboxes = INBOX\n")
    os.chmod(conf, 0o600)

    ctx = ssl.create_default_context(cafile=ca)
    imap = imaplib.IMAP4_SSL("localhost", port, ssl_context=ctx)
    imap.login(USER, PASSWORD)
    imap.create("Done")
    inbox = Inbox(os.path.join(work, "home", USER, "Maildir"))

    if a.baseline:
        idle_baseline(port, ca, a.baseline, a.rate)
    watch = subprocess.Popen([a.binary, "watch", "--config", conf], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(1.5)  # the first pass (remember where INBOX ends) and the IDLE
    try:
        lat, _ = deliver_and_measure(imap, inbox, [f"bench-{i}" for i in range(a.count)], a.rate, watch.pid)
        values = list(lat.values())
        missing = a.count - len(values)
        done_path = os.path.join(work, "home", USER, "Maildir", ".Done")
        moved_by = time.monotonic() + 30
        while done_count(done_path) < a.count and time.monotonic() < moved_by:
            time.sleep(0.05)
        print(f"binary: {a.binary}")
        print(f"| latency | {a.count} messages at {a.rate:g}/s | p50 {pct(values, 50)*1000:.0f} ms | "
              f"p90 {pct(values, 90)*1000:.0f} ms | p99 {pct(values, 99)*1000:.0f} ms | max {max(values)*1000:.0f} ms | "
              f"not measured {missing} | moved {done_count(done_path)} |")
        sys.stdout.flush()
        if a.soak:
            soak(imap, inbox, a, watch.pid, done_path)
    finally:
        watch.send_signal(signal.SIGTERM)
        try:
            status = watch.wait(30)
        except subprocess.TimeoutExpired:
            watch.kill()
            status = "killed"
        err = watch.stderr.read().decode()
        print(f"watch exit status: {status}" + (f"; stderr: {err.strip()}" if err.strip() else ""))
        imap.logout()
        subprocess.run(["bash", dovecot, "halt", work], stderr=subprocess.DEVNULL)


main()
