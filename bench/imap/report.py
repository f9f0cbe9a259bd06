#!/usr/bin/python3
"""Renders bench.py's JSON results into docs/BENCHMARKS.md, between the markers
`<!-- bench:results -->` and `<!-- bench:end -->` (the prose around them is kept).

    report.py DOC RESULTS.json [MORE.json ...]
"""
import json
import os
import platform
import subprocess
import sys
import time

BEGIN, END = "<!-- bench:results -->", "<!-- bench:end -->"


def output(*argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def machine():
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    mem = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0) / 1024 / 1024
    debian = open("/etc/debian_version").read().strip() if os.path.exists("/etc/debian_version") else "?"
    swift = output("swift", "--version").splitlines()
    return [
        "- CPU: %s, %d cores; %.0f GB RAM; Linux %s; Debian %s" % (cpu, os.cpu_count(), mem, platform.release(), debian),
        "- Dovecot %s (maildir, `mail_fsync = never`), loopback only; %s; imapfilter %s; Python %s" % (
            output("dovecot", "--version"), swift[0] if swift else "Swift ?",
            (subprocess.run(["imapfilter", "-V"], capture_output=True, text=True).stderr + output("imapfilter", "-V")).split()[1], platform.python_version()),
    ]


def fmt(x, digits=2):
    return ("%%.%df" % digits) % x


def tables(result):
    c = result["cases"]
    lines = []
    fetch = c.get("raw-fetch-tls", {}).get("wall")
    actions = c.get("raw-actions-tls", {}).get("wall")
    limit = fetch + actions if fetch and actions else None
    poll = c.get("raw-poll-tls", {}).get("wall")
    lines.append("### %s messages (median of %d runs; load average %s at start)" % (
        "{:,}".format(result["count"]), result["runs"], result.get("load", "?")))
    lines.append("")
    lines.append("Cold run: every tool starts from the same pristine seeded Maildir and does the whole triage. "
                 "*limit* = raw TLS header fetch + raw TLS actions (%s s)." % (fmt(limit) if limit else "?"))
    lines.append("")
    lines.append("| case | wall s | × limit | × raw TLS fetch | peak RSS MB | client CPU s | server CPU s | correct |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---|")
    bases = result.get("baselines") or ["main"]
    names = {"raw-fetch-plain": "raw header fetch, plain", "raw-fetch-tls": "raw header fetch, TLS",
             "raw-actions-tls": "raw STORE + MOVE only, TLS", "triage": "`triage run --all` (2 rules)",
             "triage-full": "`triage run --all` (2 rules, `server_search = off`: every message fetched)",
             "triage-200": "`triage run --all` (200 rules)",
             "triage-store": "`triage run --all` + records (`digest \"FYI\"` / `queue rec`)",
             "imaplib": "Python imaplib script (UID SEARCH FROM/CC, then HEADER.FIELDS of the candidates)",
             "imapfilter": "imapfilter"}
    for number, base in enumerate(bases, start=1):
        key = "triage-base" + ("" if number == 1 else str(number))
        names[key] = "`triage run --all`, baseline build (%s)" % base
        names[key + "-store"] = "`triage run --all` + records, baseline build (%s)" % base
    for key, label in names.items():
        if key not in c:
            continue
        r = c[key]
        wrong = r.get("wrong")
        correct = "n/a (reads only)" if wrong is None else ("yes" if wrong == 0 else "**no: %d wrong**" % wrong)
        lines.append("| %s | %s | %s | %s | %.1f | %s | %s | %s |" % (
            label, fmt(r["wall"]), fmt(r["wall"] / limit) if limit else "", fmt(r["wall"] / fetch) if fetch else "",
            r["rss"], fmt(r["cpu"]), fmt(r["server"]), correct))
    lines.append("")
    lines.append("No-op rerun right after the cold run (nothing new), against a bare login + SELECT (CONDSTORE) + "
                 "LOGOUT poll (%s s), process start included:" % (fmt(poll, 3) if poll else "?"))
    lines.append("")
    lines.append("| case | wall s | × bare poll | peak RSS MB | client CPU s | server CPU s |")
    lines.append("|---|---:|---:|---:|---:|---:|")
    noops = [("raw-poll-tls", "bare poll (C, GnuTLS)"), ("triage-noop", "`triage run`"),
             ("triage-200-noop", "`triage run` (200 rules)"), ("triage-store-noop", "`triage run` (records rules)")]
    noops += [("triage-base" + ("" if n == 1 else str(n)) + "-noop", "`triage run`, baseline build (%s)" % b)
              for n, b in enumerate(bases, start=1)]
    noops += [("imaplib-noop", "Python imaplib script"), ("imapfilter-noop", "imapfilter")]
    for key, label in noops:
        if key in c:
            r = c[key]
            lines.append("| %s | %s | %s | %.1f | %s | %s |" % (label, fmt(r["wall"], 3), fmt(r["wall"] / poll) if poll else "",
                                                             r["rss"], fmt(r["cpu"], 3), fmt(r["server"], 3)))
    if "fsyncs" in result:
        f = result["fsyncs"]
        lines.append("")
        lines.append("Store durability (`triage-store`: the cc rule also adds `digest \"FYI\"`, the receipts rule `queue rec`): %d records in %d batches "
                     "cost %d fsync and syncfs calls (%.1f per batch, %.2f per record)." % (
                         f["records"], f["batches"], f["calls"], f["calls"] / max(1, f["batches"]), f["calls"] / max(1, f["records"])))
    if "store_reset" in result:
        lines.append("Each cold triage run started with no store (the previous one %s)." % result["store_reset"])
    lines.append("")
    return lines, limit, poll


def targets(results):
    by_count = {r["count"]: r for r in results}
    r = by_count.get(10000) or results[0]
    c = r["cases"]
    out = ["### Targets (%s messages)" % "{:,}".format(r["count"]), "", "| target | measured | met |", "|---|---|---|"]
    limit = c["raw-fetch-tls"]["wall"] + c["raw-actions-tls"]["wall"]
    t = c["triage"]
    peers = {k: c[k]["wall"] for k in ("imaplib", "imapfilter") if k in c}
    out.append("| `--all` correct | %d wrong of %d | %s |" % (t["wrong"], r["count"], "yes" if t["wrong"] == 0 else "no"))
    out.append("| `--all` faster than imaplib and imapfilter | %s s vs %s | %s |" % (
        fmt(t["wall"]), ", ".join("%s %s s" % (k, fmt(v)) for k, v in peers.items()),
        "yes" if all(t["wall"] < v for v in peers.values()) else "no"))
    out.append("| `--all` ≤ 2 × (raw TLS fetch + raw actions) | %s × | %s |" % (
        fmt(t["wall"] / limit), "yes" if t["wall"] <= 2 * limit else "no"))
    poll = c["raw-poll-tls"]["wall"]
    noop = c["triage-noop"]["wall"]
    peer_noops = {k: c[k + "-noop"]["wall"] for k in ("imaplib", "imapfilter") if k + "-noop" in c}
    out.append("| no-op ≤ 1.5 × bare poll | %s s vs %s s = %s × | %s |" % (
        fmt(noop, 3), fmt(poll, 3), fmt(noop / poll), "yes" if noop <= 1.5 * poll else "no"))
    out.append("| no-op faster than every peer's rerun | %s | %s |" % (
        ", ".join("%s %s s" % (k, fmt(v, 3)) for k, v in peer_noops.items()),
        "yes" if all(noop < v for v in peer_noops.values()) else "no"))
    if 100000 in by_count and 10000 in by_count:
        small, large = by_count[10000]["cases"]["triage"]["rss"], by_count[100000]["cases"]["triage"]["rss"]
        out.append("| peak RSS 100,000 ≤ 10,000 + a few MB | %.1f MB vs %.1f MB | %s |" % (
            large, small, "yes" if large <= small + 5 else "no"))
    if "triage-200" in c:
        # Against the 2 rules fetching every message when that case ran: most of the
        # 198 extra rules have nothing to push down, so the 200-rule set fetches all.
        two = "triage-full" if "triage-full" in c else "triage"
        ratio = c["triage-200"]["wall"] / c[two]["wall"]
        cpu_ratio = c["triage-200"]["cpu"] / c[two]["cpu"]
        out.append("| 200 rules < 1.10 × 2 rules%s | wall %s ×, client CPU %s × | %s |" % (
            " (both fetching every message)" if two == "triage-full" else "",
            fmt(ratio), fmt(cpu_ratio), "yes" if ratio < 1.10 else "no"))
    # The targets (#14), side by side in this run.
    for peer, bound in (("imaplib", 0.8), ("imapfilter", 0.4)):
        if peer in c:
            ratio = t["wall"] / c[peer]["wall"]
            out.append("| `--all` ≤ %.1f × %s | %s s vs %s s = %s × | %s |" % (
                bound, peer, fmt(t["wall"]), fmt(c[peer]["wall"]), fmt(ratio), "yes" if ratio <= bound else "no"))
    if "triage-store" in c:
        ratio = c["triage-store"]["wall"] / t["wall"]
        records = r.get("fsyncs", {}).get("records")
        out.append("| records for a third or more ≤ 1.2 × the same run without | %s s vs %s s = %s ×%s | %s |" % (
            fmt(c["triage-store"]["wall"]), fmt(t["wall"]), fmt(ratio),
            " (%d records)" % records if records else "", "yes" if ratio <= 1.2 else "no"))
    bases = r.get("baselines") or ["main"]
    for number, base in enumerate(bases, start=1):
        key = "triage-base" + ("" if number == 1 else str(number))
        if key not in c:
            continue
        # Every build fetches every message here when triage-full ran (no narrowing),
        # so the ratio is per fetched message.
        mine = c["triage-full"] if "triage-full" in c else t
        ratio = mine["cpu"] / c[key]["cpu"]
        out.append("| client CPU per fetched message at least halved (%s vs build %s, same run) | %s s vs %s s = %s × | %s |" % (
            "`server_search = off`" if "triage-full" in c else "`--all`", base,
            fmt(mine["cpu"]), fmt(c[key]["cpu"]), fmt(ratio), "yes" if ratio <= 0.5 else "no"))
    if "bytes" in r:
        out.append("| bytes read from the server (cold `--all`, strace) | %.1f MB | info |" % (r["bytes"] / 1e6))
    if "fsyncs" in r:
        f = r["fsyncs"]
        per_batch = f["calls"] / max(1, f["batches"])
        out.append("| store writes batched: a few fsyncs per batch | %.1f per batch (%d records, %d batches) | %s |" % (
            per_batch, f["records"], f["batches"], "yes" if per_batch <= 8 else "no"))
    out.append("")
    return out


def main():
    doc = sys.argv[1]
    results = [json.load(open(p)) for p in sys.argv[2:]]
    results.sort(key=lambda r: r["count"])
    lines = [BEGIN, "", "Measured %s with `bench/run-all.sh`:" % time.strftime("%Y-%m-%d"), ""] + machine() + [""]
    for r in results:
        lines += tables(r)[0]
    lines += targets(results)
    lines.append(END)
    text = open(doc).read() if os.path.exists(doc) else "# Benchmarks\n\n%s\n%s\n" % (BEGIN, END)
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(doc, "w") as f:
        f.write(head + "\n".join(lines) + tail)


if __name__ == "__main__":
    main()
