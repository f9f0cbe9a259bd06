#!/usr/bin/env bash
# Reproduces docs/BENCHMARKS.md: builds triage (release) and the raw-socket limit
# client, seeds a throw-away Dovecot on loopback with a generated INBOX, runs
# triage, imapfilter and an imaplib script against the raw limits, verifies every
# cold run by Message-ID, and writes the tables into docs/BENCHMARKS.md.
#
#   bench/run-all.sh               10,000 messages, 3 runs of each case (~5 min)
#   bench/run-all.sh --large       also 100,000 messages (1 run each; ~20 min more,
#                                  about 1.5 GB under the work folder)
#   options: --runs N, --large-runs N, --work DIR (default /tmp/triage-bench),
#            --keep (leave the Dovecot instances running),
#            --baseline BIN (another triage build, e.g. main's, measured side by side;
#                            repeat for more: triage-base2, ...)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
large=no runs=3 large_runs=1 work=/tmp/triage-bench keep=no baseline=()
while [ $# -gt 0 ]; do
  case "$1" in
    --large) large=yes ;;
    --runs) runs=$2; shift ;;
    --large-runs) large_runs=$2; shift ;;
    --work) work=$2; shift ;;
    --keep) keep=yes ;;
    --baseline) baseline+=(--baseline "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); shift ;;
    *) echo "usage: $0 [--large] [--runs N] [--large-runs N] [--work DIR] [--keep] [--baseline BIN]" >&2; exit 64 ;;
  esac
  shift
done
mkdir -p "$work"
work=$(cd "$work" && pwd)

"$root/bench/scripts/install-deps"
# The build users run: scripts/install's (Swift runtime and Foundation linked in
# statically, its own build folder). It starts in about half the time of the plain
# release build, whose loader resolves the toolchain's shared libraries on every run.
install_build=(swift build -c release --static-swift-stdlib --disable-local-rpath --product triage
               --scratch-path "$root/.build/install")
(cd "$root" && "${install_build[@]}" 2>&1 | grep -v 'prohibited flag' | tail -1)
triage="$(cd "$root" && "${install_build[@]}" --show-bin-path)/triage"
cc -O2 -Wall -o "$work/rawfetch" "$root/bench/imap/raw/rawfetch.c" -lgnutls

counts=(10000)
[ "$large" = yes ] && counts+=(100000)
results=()
for n in "${counts[@]}"; do
  r=$runs
  [ "$n" = 100000 ] && r=$large_runs
  /usr/bin/python3 "$root/bench/imap/bench.py" --count "$n" --runs "$r" --work "$work" \
    --triage "$triage" --rawfetch "$work/rawfetch" "${baseline[@]}" --json "$work/results-$n.json" >/dev/null
  results+=("$work/results-$n.json")
done
# A 100,000 result from an earlier --large run is kept in the report.
[ "$large" = no ] && [ -f "$work/results-100000.json" ] && results+=("$work/results-100000.json")
/usr/bin/python3 "$root/bench/imap/report.py" "$root/docs/BENCHMARKS.md" "${results[@]}"
if [ "$keep" = no ]; then
  for n in "${counts[@]}"; do "$root/bench/imap/server.sh" stop "$work/server-$n"; done
fi
echo "bench: wrote docs/BENCHMARKS.md" >&2
