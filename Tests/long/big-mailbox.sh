#!/usr/bin/env bash
# A 100,000-message mailbox in bounded memory (docs/RELIABILITY.md): seeds COUNT
# messages (default 100000) and compares the peak memory of `triage run --all` with
# that of a 200-message run.
#   Tests/long/big-mailbox.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/../.."
export TRIAGE_BIG_MAILBOX=${1:-100000}
swift build --build-tests 2>&1 | grep -v "prohibited flag" || true
swift test --skip-build --filter MemoryBoundTests/testLargeMailboxRunsInBoundedMemory 2>&1 | grep -E "^memory|error|Executed"
