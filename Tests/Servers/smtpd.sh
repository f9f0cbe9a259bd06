#!/usr/bin/env bash
# Runs the integration tests' SMTP server (smtpd.py) in the foreground, for
# trying `triage digest --send` by hand: prints the ports, the test CA to use
# as [digest] ca_file, and where received messages land. Ctrl-C stops it.
# Credentials: $SMTPD_USER / $SMTPD_PASSWORD (default tester / secret).
set -euo pipefail
dir=$(mktemp -d /tmp/triage-smtpd.XXXXXX)
/usr/bin/python3 "$(dirname "$0")/smtpd.py" "$dir" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 100); do [ -f "$dir/ready.json" ] && break; sleep 0.1; done
[ -f "$dir/ready.json" ] || { echo "smtpd.sh: the server did not start (is python3-aiosmtpd installed?)" >&2; exit 1; }
cat "$dir/ready.json"; echo
echo "user ${SMTPD_USER:-tester}; messages arrive in $dir/mail; Ctrl-C stops" >&2
wait "$pid"
