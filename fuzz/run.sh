#!/usr/bin/env bash
# Builds one libFuzzer target against the main package's sources and fuzzes it.
#
#   fuzz/run.sh TARGET [SECONDS]      # SECONDS defaults to 300
#   fuzz/run.sh TARGET --replay FILE...  # run saved inputs once (e.g. a crash) and exit
#   fuzz/run.sh --list
#
# TARGET is one of FuzzMessage, FuzzHeader, FuzzRules, FuzzReminder, FuzzConfig, FuzzManageSieve,
# FuzzCalDAV, FuzzDigestCommand.
# Every Swift module (the main package's too) is built in release mode with
# `--sanitize=fuzzer --sanitize=address` and coverage instrumentation; libetpan and inih, the
# Debian C libraries, are linked as they are (not instrumented).
#
# The corpus grows in fuzz/corpus/TARGET (not committed), seeded on each run
# from the fixtures; crashes, leaks and timeouts land in fuzz/findings/ and the
# log with libFuzzer's final statistics in fuzz/logs/TARGET-DATE.log.
# Not part of CI: this is a long job. FUZZ_FLAGS adds libFuzzer flags
# (e.g. FUZZ_FLAGS=-only_ascii=1).
set -euo pipefail

caller=$(pwd)
fuzz_dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$fuzz_dir/.." && pwd)
targets=(FuzzMessage FuzzHeader FuzzRules FuzzReminder FuzzConfig FuzzManageSieve FuzzCalDAV FuzzDigestCommand)

usage() { echo "usage: fuzz/run.sh TARGET [SECONDS] | TARGET --replay FILE... | --list (targets: ${targets[*]})" >&2; exit 64; }
[ $# -ge 1 ] || usage
if [ "$1" = --list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
target=$1; shift
[[ " ${targets[*]} " == *" $target "* ]] || { echo "fuzz/run.sh: unknown target '$target'" >&2; usage; }
command -v swift >/dev/null || { echo "fuzz/run.sh: swift is not on PATH; install Swift 6 first" >&2; exit 69; }

cd "$fuzz_dir"
# SwiftPM names a path dependency after its folder; reach the main package through
# a symlink named `triage` so that a checkout in a folder called `fuzz` still works.
mkdir -p .build/source
[ "$(readlink .build/source/triage || true)" = "$root" ] || ln -sfn "$root" .build/source/triage
export TRIAGE_SOURCE=.build/source/triage

# Coverage as clang's -fsanitize=fuzzer gives it: inline 8-bit edge counters, a PC
# table, and trace-cmp so that libFuzzer learns the constants inputs are compared with.
flags=(-c release --sanitize=fuzzer --sanitize=address
       -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)
# swiftc keeps an object file whose IR is unchanged even when instrumentation flags
# changed, so a change of flags must start from clean objects.
stamp=.build/fuzz-flags
if [ "$(cat "$stamp" 2>/dev/null || true)" != "${flags[*]}" ]; then
  rm -rf .build/*/release
  printf '%s' "${flags[*]}" > "$stamp"
fi

echo "fuzz/run.sh: building $target (release, fuzzer + address sanitizers)" >&2
set +e
swift build "${flags[@]}" --product "$target" 2>&1 \
  | grep -v -e "prohibited flag" -e "Cannot export local symbol '__asan_extra_spill_area'" >&2
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || { echo "fuzz/run.sh: the build of $target failed" >&2; exit 70; }
binary="$fuzz_dir/.build/release/$target"

# Leaks count as findings too (libFuzzer checks after each new input).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}

if [ "${1:-}" = --replay ]; then
  shift
  [ $# -ge 1 ] || usage
  inputs=()
  for f in "$@"; do [[ "$f" = /* ]] && inputs+=("$f") || inputs+=("$caller/$f"); done
  exec "$binary" -runs=1 "${inputs[@]}"
fi
seconds=${1:-300}
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

# Seeds: every fixture that is the kind of input the target reads.
seeds="$fuzz_dir/.build/seeds/$target"
rm -rf "$seeds"
mkdir -p "$seeds"
copy_messages() {  # whole messages, one file each
  find "$root/Tests/TriageMIMETests/Fixtures" "$root/Examples/demo/Maildir" -type f ! -name '.*' \
    -exec cp -t "$seeds" {} +
}
case "$target" in
  FuzzMessage) dict=message.dict; max_len=65536; copy_messages ;;
  FuzzHeader)
    dict=message.dict; max_len=16384; copy_messages
    # The header block of each message, as IMAP's BODY.PEEK[HEADER] returns it.
    for f in "$seeds"/*; do
      awk '{ print } /^\r?$/ { exit }' "$f" > "$f.header"
    done ;;
  FuzzRules)
    dict=rules.dict; max_len=8192
    cp -t "$seeds" "$root"/Rules/*.rules "$root"/Tests/TriageCoreTests/RuleCases/*.rules "$root"/Examples/demo/rules/*.rules ;;
  FuzzReminder)
    dict=reminder.dict; max_len=1024
    # The text after `remind` in every rule file, one seed each.
    n=0
    grep -ho 'remind .*' "$root"/Rules/*.rules "$root"/Tests/TriageCoreTests/RuleCases/*.rules "$root"/Examples/demo/rules/*.rules \
      | sed -e 's/^remind //' -e 's/^\(.*"\)[,].*$/\1/' | sort -u | while IFS= read -r line; do
        n=$((n + 1)); printf '%s' "$line" > "$seeds/remind-$n"
      done
    printf '%s' '"Call the bank" in 3 days at 09:30 note "account 42"' > "$seeds/remind-cli-1"
    printf '%s' 'Pay rent on 2026-04-01' > "$seeds/remind-cli-2" ;;
  FuzzConfig)
    dict=config.dict; max_len=4096
    cp -t "$seeds" "$root"/Examples/triage.conf
    cp "$root"/Examples/demo/triage.conf "$seeds/demo.conf" ;;
  # Hand-made seeds, committed in fuzz/seeds/TARGET: no fixture holds these protocols' answers.
  FuzzManageSieve) dict=managesieve.dict; max_len=8192; cp -t "$seeds" "$fuzz_dir"/seeds/FuzzManageSieve/* ;;
  FuzzCalDAV) dict=caldav.dict; max_len=16384; cp -t "$seeds" "$fuzz_dir"/seeds/FuzzCalDAV/* ;;
  FuzzDigestCommand) dict=digestcommand.dict; max_len=2048; cp -t "$seeds" "$fuzz_dir"/seeds/FuzzDigestCommand/* ;;
esac

corpus="$fuzz_dir/corpus/$target"
findings="$fuzz_dir/findings"
logs="$fuzz_dir/logs"
mkdir -p "$corpus" "$findings" "$logs"
log="$logs/$target-$(date -u +%Y%m%dT%H%M%SZ).log"
echo "fuzz/run.sh: fuzzing $target for ${seconds}s; corpus $corpus, log $log" >&2

set +e
# shellcheck disable=SC2086
"$binary" "$corpus" "$seeds" \
  -dict="$fuzz_dir/dict/$dict" -max_len="$max_len" -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$findings/$target-" ${FUZZ_FLAGS:-} 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
echo "fuzz/run.sh: $target exited $status; corpus $(find "$corpus" -type f | wc -l) inputs; log $log" >&2
exit "$status"
