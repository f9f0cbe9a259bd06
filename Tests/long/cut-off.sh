#!/usr/bin/env bash
# Many more cut-off points (docs/RELIABILITY.md): the proxy drops the connection after
# N bytes for POINTS values of N (default 300) spread over the whole conversation.
#   Tests/long/cut-off.sh [POINTS]
set -euo pipefail
cd "$(dirname "$0")/../.."
export TRIAGE_CUTOFF_POINTS=${1:-300}
swift build --build-tests 2>&1 | grep -v "prohibited flag" || true
swift test --skip-build --filter CutOffTests 2>&1 | grep -E "cut-off|error|Executed"
