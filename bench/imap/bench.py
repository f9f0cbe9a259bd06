#!/usr/bin/python3
"""Runs the IMAP benchmark: triage, imapfilter and an imaplib script doing the same
triage on the same seeded Dovecot, against the raw limit. See bench/README.md.

    bench.py --count 10000 [--runs 3] [--work DIR] [--triage BIN] [--rawfetch BIN] [--json OUT]

For every measured case: median wall time over --runs runs, peak RSS and client
CPU (/usr/bin/time -v), Dovecot's CPU (its processes' /proc stat deltas, reaped
children included through the master's cutime/cstime), and correctness (verify.py
after every cold run). Every cold run starts from the pristine seeded Maildir.
Writes the results as JSON (--json) and prints a Markdown table.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TICK = os.sysconf("SC_CLK_TCK")


def sh(*args, **kw):
    return subprocess.run(args, check=True, **kw)


class Server:
    def __init__(self, directory):
        self.dir = directory
        self.ports = dict(l.strip().split("=") for l in open(os.path.join(directory, "ports")))
        self.imaps = int(self.ports["imaps"])
        self.imap = int(self.ports["imap"])
        self.ca = os.path.join(directory, "ssl", "ca.pem")
        self.master = int(open(os.path.join(directory, "run", "master.pid")).read())

    def restore(self):
        sh(os.path.join(HERE, "server.sh"), "restore", self.dir)

    def processes(self):
        """Dovecot's processes: {pid: (CPU ticks incl. reaped children, command line)}."""
        children, stats = {}, {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                raw = open("/proc/%s/stat" % pid).read()
            except OSError:
                continue
            fields = raw[raw.rindex(")") + 2:].split()
            children.setdefault(int(fields[1]), []).append(int(pid))
            stats[int(pid)] = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
        found, todo = {}, [self.master]
        while todo:
            pid = todo.pop()
            if pid in stats:
                try:
                    cmd = open("/proc/%d/cmdline" % pid, "rb").read()
                except OSError:
                    cmd = b""
                found[pid] = (stats[pid], cmd)
            todo.extend(children.get(pid, []))
        return found

    def cpu(self):
        """Seconds of CPU Dovecot used so far: the master (whose cutime/cstime hold
        its reaped children) and every live descendant."""
        return sum(ticks for ticks, _ in self.processes().values()) / TICK

    def settle(self):
        """Waits until this Dovecot has no IMAP session or login process left, so
        their CPU has been reaped into the master's counters."""
        for _ in range(300):
            if not any(cmd.startswith(b"dovecot/imap") for _, cmd in self.processes().values()):
                return
            time.sleep(0.01)


def measure(server, argv, cwd, env=None):
    """Runs argv under /usr/bin/time -v; returns wall, rss_mb, client_cpu, server_cpu, output."""
    server.settle()
    timing = os.path.join(cwd, "time.txt")
    before = server.cpu()
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", "-o", timing] + argv, cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True)
    wall = time.perf_counter() - start
    server.settle()
    server_cpu = server.cpu() - before
    text = open(timing).read()
    if proc.returncode != 0:
        raise SystemExit("bench: %s failed (%d):\n%s%s" % (argv[0], proc.returncode, proc.stdout.decode(), proc.stderr.decode()))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) / 1024
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1))
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
    return {"wall": wall, "rss": rss, "cpu": user + system, "server": server_cpu, "output": proc.stdout.decode()}


def verify(server, expected):
    proc = subprocess.run([os.path.join(HERE, "verify.py"), server.dir, expected, "--json"], capture_output=True)
    return json.loads(proc.stdout)


def received_bytes(trace):
    """Sum of the results of read/recv calls on sockets in an strace log."""
    total = 0
    sockets = set()
    for line in open(trace):
        if "socket(" in line:
            r = re.search(r"= (\d+)$", line.strip())
            if r:
                sockets.add(r.group(1))
        m = re.search(r"(?:read|recvfrom|recvmsg)\((\d+),.*= (\d+)$", line.strip())
        if m and m.group(1) in sockets:
            total += int(m.group(2))
    return total


def median_of(runs):
    keys = ["wall", "rss", "cpu", "server"]
    out = {k: statistics.median(r[k] for r in runs) for k in keys}
    out["runs"] = [round(r["wall"], 3) for r in runs]
    return out


def uid_ranges(uids):
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


def action_script(server, expected, path):
    """The exact STORE and MOVE commands the triage needs, from the pristine
    mailbox's UIDs: what the server's own cost of the actions is measured with."""
    import imaplib
    import ssl
    want = {}
    for line in open(expected):
        if not line.startswith("#"):
            mid, folder, _, keywords = line.rstrip("\n").split("\t")
            want[mid] = (folder, set(filter(None, keywords.split(","))))
    conn = imaplib.IMAP4_SSL("127.0.0.1", server.imaps, ssl_context=ssl.create_default_context(cafile=server.ca))
    conn.login("me@example.test", "test-password")
    conn.select("INBOX", readonly=True)
    typ, data = conn.uid("FETCH", "1:*", "(UID BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
    conn.logout()
    rec, nopush = [], []
    for item in data:
        if isinstance(item, tuple):
            uid = int(re.search(rb"UID (\d+)", item[0]).group(1))
            mid = re.search(rb"(<[^>]*>)", item[1]).group(1).decode()
            folder, keywords = want[mid]
            if "rec" in keywords:
                rec.append(uid)
            if "nopush" in keywords:
                nopush.append(uid)
    lines, n = [], 0
    for keyword, uids in (("rec", rec), ("nopush", nopush)):
        for i in range(0, len(uids), 1000):
            n += 1
            lines.append("s%d UID STORE %s +FLAGS.SILENT (%s)" % (n, uid_ranges(uids[i:i + 1000]), keyword))
    for i in range(0, len(nopush), 1000):
        n += 1
        lines.append("m%d UID MOVE %s NoPush" % (n, uid_ranges(nopush[i:i + 1000])))
    with open(path, "w") as f:
        f.write("".join(l + "\r\n" for l in lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work", default="/tmp/triage-bench")
    ap.add_argument("--triage", required=True)
    ap.add_argument("--rawfetch", required=True)
    ap.add_argument("--baseline", action="append", default=[],
                    help="another triage binary (e.g. main's) measured side by side as triage-base; "
                         "repeat for more (the second is triage-base2, and so on)")
    ap.add_argument("--json")
    ap.add_argument("--only", help="comma-separated case names to run")
    ap.add_argument("--delete-stores", action="store_true",
                    help="delete the previous store right before each cold run (the old way; see reset_store)")
    ap.add_argument("--no-strace", action="store_true",
                    help="skip the extra strace runs (fsync calls, bytes read): one cold run less per case")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None

    work = os.path.abspath(args.work)
    gen = os.path.join(work, "gen-%d" % args.count)
    if not os.path.exists(os.path.join(gen, "done")):
        shutil.rmtree(gen, ignore_errors=True)
        print("bench: generating %d messages in %s" % (args.count, gen), file=sys.stderr)
        sh("/usr/bin/python3", os.path.join(HERE, "gen.py"), str(args.count), gen)
        open(os.path.join(gen, "done"), "w").close()
    expected = os.path.join(gen, "expected.tsv")
    srv_dir = os.path.join(work, "server-%d" % args.count)
    sh(os.path.join(HERE, "server.sh"), "start", srv_dir)
    server = Server(srv_dir)
    if not os.path.exists(os.path.join(srv_dir, "pristine", "done-seed")):
        print("bench: seeding Dovecot in %s" % srv_dir, file=sys.stderr)
        sh(os.path.join(HERE, "server.sh"), "seed", srv_dir, gen)
        open(os.path.join(srv_dir, "pristine", "done-seed"), "w").close()

    run_dir = os.path.join(work, "run-%d" % args.count)
    os.makedirs(run_dir, exist_ok=True)
    rules_dirs = {"triage": os.path.join(HERE, "tools", "triage-rules")}
    # 200 rules: the two real ones plus 198 header rules that never match this mailbox.
    # (Rules that read the text, bare words, make every message fetch its text: a
    # different cost, see docs/BENCHMARKS.md.)
    many = os.path.join(run_dir, "rules-200")
    os.makedirs(many, exist_ok=True)
    shutil.copy(os.path.join(HERE, "tools", "triage-rules", "bench.rules"), many)
    with open(os.path.join(many, "zz-many.rules"), "w") as f:
        kinds = ['from:sender{i}@nowhere.invalid', 'subject:"quarterly zzq{i} review"', 'list:l{i}.lists.invalid',
                 'to:team{i}@nowhere.invalid cc:me', 'subject:{{zzqa{i} zzqb{i}}} -from:me', 'replyto:r{i}@nowhere.invalid',
                 '{{from:@bank{i}.invalid from:@shop{i}.invalid}} larger:10K', 'from:"Person {i}" -is:read']
        for i in range(198):
            f.write('rule "never %d" when %s then label "never%d"\n' % (i, kinds[i % len(kinds)].format(i=i), i))
    rules_dirs["triage-200"] = many
    # Store writes: the cc rule also puts the message in the digest and the receipts
    # rule puts it on the `rec` queue (one record each: a third or more of the mailbox).
    store_rules = os.path.join(run_dir, "rules-store")
    os.makedirs(store_rules, exist_ok=True)
    with open(os.path.join(store_rules, "bench.rules"), "w") as f:
        f.write(open(os.path.join(HERE, "tools", "triage-rules", "bench.rules")).read().replace(
            'move "NoPush"', 'move "NoPush", digest "FYI"').replace('label "rec"', 'label "rec", queue "rec"'))
    rules_dirs["triage-store"] = store_rules

    def triage_conf(rules, name, extra=""):
        store = os.path.join(run_dir, "store-" + name)
        conf = os.path.join(run_dir, name + ".conf")
        text = open(os.path.join(HERE, "tools", "triage.conf.in")).read() + extra
        for k, v in {"@RULES@": rules, "@STORE@": store, "@IMAPS@": str(server.imaps), "@CA@": server.ca}.items():
            text = text.replace(k, v)
        with open(conf, "w") as f:
            f.write(text)
        os.chmod(conf, 0o600)
        return conf, store

    # Each cold run starts with no store, like a real first run: the previous run's
    # store is moved aside and deleted only after every measurement. Deleting it right
    # before the run (--delete-stores, what this script did before) frees thousands of
    # inodes seconds before the run creates as many, and ext4's allocator then steps
    # over each recently freed inode (`recently_deleted` in the profile): most of the
    # records run's CPU, a cost no real run pays (docs/BENCHMARKS.md).
    discarded = os.path.join(run_dir, "discarded")
    shutil.rmtree(discarded, ignore_errors=True)

    def reset_store(store):
        if args.delete_stores:
            shutil.rmtree(store, ignore_errors=True)
        elif os.path.exists(store):
            os.makedirs(discarded, exist_ok=True)
            os.rename(store, os.path.join(discarded, "%s-%d" % (os.path.basename(store), time.monotonic_ns())))

    env = dict(os.environ, BENCH_IMAPS=str(server.imaps))
    tools = {}
    for name in ("triage", "triage-200", "triage-store"):
        conf, store = triage_conf(rules_dirs[name], name)
        tools[name] = {
            "reset": lambda store=store: reset_store(store),
            "cold": [args.triage, "run", "--all", "--config", conf],
            "noop": [args.triage, "run", "--config", conf],
        }
    # The 2 rules without narrowing by UID SEARCH (server_search = off): every new
    # message fetched, as the 200-rule set must (most of its rules have nothing to
    # push down), so the two compare the cost of the rules, not of the fetch.
    conf, store = triage_conf(rules_dirs["triage"], "triage-full", "server_search = off\n")
    tools["triage-full"] = {
        "reset": lambda store=store: reset_store(store),
        "cold": [args.triage, "run", "--all", "--config", conf],
        "noop": [args.triage, "run", "--config", conf],
    }
    for number, baseline in enumerate(args.baseline, start=1):
        base = "triage-base" + ("" if number == 1 else str(number))
        for name in ("triage", "triage-store"):
            conf, store = triage_conf(rules_dirs[name], name.replace("triage", base))
            tools[name.replace("triage", base)] = {
                "reset": lambda store=store: reset_store(store),
                "cold": [baseline, "run", "--all", "--config", conf],
                "noop": [baseline, "run", "--config", conf],
            }
    imaplib_argv = ["/usr/bin/python3", os.path.join(HERE, "tools", "imaplib_triage.py"), "127.0.0.1",
                    str(server.imaps), server.ca, "me@example.test", "test-password"]
    tools["imaplib"] = {
        "reset": lambda: os.path.exists(os.path.join(run_dir, "imaplib-state")) and os.remove(os.path.join(run_dir, "imaplib-state")),
        "cold": imaplib_argv + ["--all"],
        "noop": imaplib_argv,
    }
    imapfilter_argv = ["imapfilter", "-t", server.ca, "-c", os.path.join(HERE, "tools", "imapfilter.lua")]
    tools["imapfilter"] = {"reset": lambda: None, "cold": imapfilter_argv, "noop": imapfilter_argv}

    results = {"count": args.count, "runs": args.runs, "cases": {},
               "load": open("/proc/loadavg").read().split()[0],
               "baselines": [os.path.basename(b) for b in args.baseline]}
    if only and args.json and os.path.exists(args.json):
        results = json.load(open(args.json))  # update some cases of an earlier run
        results["load"] = open("/proc/loadavg").read().split()[0]

    def want(name):
        return only is None or name in only

    # Limits first: raw header fetch (plain and TLS), the actions alone, the bare poll.
    # The UIDs are fixed by the seed, so the script is made once per seeded server.
    script = os.path.join(run_dir, "actions.imap")
    seeded = os.path.getmtime(os.path.join(srv_dir, "pristine", "done-seed"))
    if not os.path.exists(script) or os.path.getmtime(script) < seeded:
        server.restore()
        action_script(server, expected, script + ".tmp")
        os.replace(script + ".tmp", script)
    for mode, port in (("plain", server.imap), ("tls", server.imaps)):
        name = "raw-fetch-" + mode
        if want(name):
            runs = []
            for _ in range(args.runs):
                server.restore()
                runs.append(measure(server, [args.rawfetch, "fetch", mode, str(port), server.ca], run_dir))
            results["cases"][name] = median_of(runs)
    if want("raw-actions-tls"):
        runs, checks = [], []
        for _ in range(args.runs):
            server.restore()
            runs.append(measure(server, [args.rawfetch, "script", "tls", str(server.imaps), server.ca, script], run_dir))
            checks.append(verify(server, expected))
        results["cases"]["raw-actions-tls"] = dict(median_of(runs), wrong=max(c["wrong"] for c in checks))
    if want("raw-poll-tls"):
        server.restore()
        runs = [measure(server, [args.rawfetch, "poll", "tls", str(server.imaps), server.ca], run_dir) for _ in range(args.runs)]
        results["cases"]["raw-poll-tls"] = median_of(runs)

    for name, tool in tools.items():
        if not want(name):
            continue
        cold, noop, checks = [], [], []
        for _ in range(args.runs):
            server.restore()
            tool["reset"]()
            cold.append(measure(server, tool["cold"], run_dir, env))
            checks.append(verify(server, expected))
            noop.append(measure(server, tool["noop"], run_dir, env))
        wrong = max(c["wrong"] for c in checks)
        results["cases"][name] = dict(median_of(cold), wrong=wrong,
                                      problems=[c["problems"] for c in checks if c["wrong"]][:1])
        results["cases"][name + "-noop"] = median_of(noop)
        print("bench: %s done: %.2f s, %d wrong" % (name, results["cases"][name]["wall"], wrong), file=sys.stderr)

    if want("triage-store") and shutil.which("strace") and not args.no_strace:
        # fsync calls of one store run, counted with strace (not timed).
        server.restore()
        tools["triage-store"]["reset"]()
        trace = os.path.join(run_dir, "strace.txt")
        sh("strace", "-f", "-c", "-e", "trace=fsync,fdatasync,syncfs,sync_file_range", "-o", trace,
           *tools["triage-store"]["cold"], stdout=subprocess.DEVNULL)
        calls = sum(int(l.split()[3]) for l in open(trace) if re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+", l)
                    and not l.strip().endswith("total"))
        store = os.path.join(run_dir, "store-triage-store")
        records = sum(len([f for f in files if f.endswith(".json")]) for _, _, files in os.walk(store))
        batches = -(-args.count // 5000)  # triage run's batch when the rules read only headers
        results["fsyncs"] = {"calls": calls, "records": records, "batches": batches}

    if want("triage") and shutil.which("strace") and not args.no_strace:
        # Bytes triage reads from the server in a cold run (read/recv on its sockets
        # after TLS, so slightly more than the IMAP payload), counted with strace.
        server.restore()
        tools["triage"]["reset"]()
        trace = os.path.join(run_dir, "strace-net.txt")
        sh("strace", "-f", "-e", "trace=socket,read,recvfrom,recvmsg", "-e", "read=none", "-o", trace,
           *tools["triage"]["cold"], stdout=subprocess.DEVNULL)
        results["bytes"] = received_bytes(trace)

    shutil.rmtree(discarded, ignore_errors=True)  # after every measurement
    results["store_reset"] = "deleted before each cold run" if args.delete_stores else "moved aside, deleted at the end"
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
