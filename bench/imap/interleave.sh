#!/bin/bash
# Client CPU of cold `triage run --all` runs of several builds, interleaved: each round
# runs every build once, in turn, on the restored mailbox, so a machine whose load moves
# weighs on every build alike. Uses the server and config a `bench.py` run left in WORK.
#
#   interleave.sh ROUNDS WORK COUNT NAME=BINARY...
#   e.g. interleave.sh 7 /tmp/triage-bench 10000 new=.build/release/triage old=/path/to/old
#
# Prints, per build, the user+sys seconds of each round and their median.
set -eu
rounds=$1 work=$2 count=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
run="$work/run-$count" server="$work/server-$count" out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq 1 "$rounds"); do
    for build in "$@"; do
        "$here/server.sh" restore "$server" >/dev/null
        rm -rf "$run/store-triage"
        /usr/bin/time -f "${build%%=*} %U %S" -a -o "$out" "${build#*=}" run --all --config "$run/triage.conf" >/dev/null 2>&1
    done
done
python3 - "$out" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, user, system = line.split()
    runs.setdefault(name, []).append(round(float(user) + float(system), 2))
for name, cpu in runs.items():
    print("%s: %s, median %.2f s" % (name, " ".join("%.2f" % c for c in cpu), statistics.median(cpu)))
PY
