#!/usr/bin/env bash
# Starts or stops Xandikos (plain HTTP, no authentication of its own) behind
# tls-proxy.py, which gives it TLS from the test CA and Basic logins (me /
# test-password), for the CalDAV sync tests. Writes DIR/ports (caldavs=PORT,
# xandikos=PORT of the plain backend); the CA is DIR/ssl/ca.pem.
#   xandikos.sh start DIR    xandikos.sh stop DIR
set -euo pipefail
# shellcheck source=daemon.sh
. "$(dirname "${BASH_SOURCE[0]}")/daemon.sh"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

start() {
  already_running "$dir/proxy.pid"
  mkdir -p "$dir/root"
  dir=$(cd "$dir" && pwd)
  make_test_certs "$dir"
  serve Xandikos xandikos.log launch ready caldavs xandikos
}

launch() { # PROXY_PORT XANDIKOS_PORT
  xandikos -d "$dir/root" --defaults -l 127.0.0.1 -p "$2" --current-user-principal /me/ \
    </dev/null >>"$dir/xandikos.log" 2>&1 &
  echo $! >"$dir/xandikos.pid"
  /usr/bin/python3 "$here/tls-proxy.py" "$1" "$2" "$dir/ssl/server.pem" "$dir/ssl/server.key" me test-password "$dir/requests.log" \
    </dev/null >>"$dir/xandikos.log" 2>&1 &
  echo $! >"$dir/proxy.pid"
}

ready() {
  local f
  for f in xandikos.pid proxy.pid; do
    [ -f "$dir/$f" ] && kill -0 "$(cat "$dir/$f")" 2>/dev/null || return 2
  done
}

stop() { stop_pidfile "$dir/proxy.pid"; stop_pidfile "$dir/xandikos.pid"; }

run_command "$@"
