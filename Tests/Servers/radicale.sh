#!/usr/bin/env bash
# Starts or stops a Radicale CalDAV server for the CalDAV sync tests, on loopback
# with TLS from the test CA and htpasswd logins (me / test-password, other /
# test-password). Writes DIR/ports (caldavs=PORT); the CA is DIR/ssl/ca.pem.
#   radicale.sh start DIR    radicale.sh stop DIR
set -euo pipefail
# shellcheck source=daemon.sh
. "$(dirname "${BASH_SOURCE[0]}")/daemon.sh"

start() {
  already_running "$dir/radicale.pid"
  mkdir -p "$dir/collections"
  dir=$(cd "$dir" && pwd)
  make_test_certs "$dir"
  printf 'me:test-password\nother:test-password\n' >"$dir/htpasswd"
  serve Radicale radicale.log launch ready caldavs
}

launch() { # PORT
  cat >"$dir/radicale.conf" <<CONF
[server]
hosts = 127.0.0.1:$1
ssl = True
certificate = $dir/ssl/server.pem
key = $dir/ssl/server.key
[auth]
type = htpasswd
htpasswd_filename = $dir/htpasswd
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = $dir/collections
[logging]
# info: one line per request ("PROPFIND request for ..."), which the tests count.
level = info
CONF
  radicale --config "$dir/radicale.conf" </dev/null >>"$dir/radicale.log" 2>&1 &
  echo $! >"$dir/radicale.pid"
}

ready() { [ -f "$dir/radicale.pid" ] && kill -0 "$(cat "$dir/radicale.pid")" 2>/dev/null || return 2; }

stop() { stop_pidfile "$dir/radicale.pid"; }

run_command "$@"
