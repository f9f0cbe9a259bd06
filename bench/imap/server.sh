#!/usr/bin/env bash
# The benchmark's throw-away Dovecot: Tests/Servers/dovecot.sh plus a seeded,
# restorable mailbox for me@example.test.
#
#   server.sh start DIR          start Dovecot in DIR (ports in DIR/ports, CA in DIR/ssl/ca.pem)
#   server.sh seed DIR GENDIR    replace me@example.test's Maildir with GENDIR/Maildir (from gen.py),
#                                let Dovecot index it (SELECT of INBOX and NoPush), then keep the
#                                result as DIR/pristine: the state every cold run starts from
#   server.sh restore DIR        put DIR/pristine back (message files hard-linked, since Dovecot
#                                never rewrites one; its index and uidlist files copied)
#   server.sh stop DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|seed|restore|stop DIR [GENDIR]" >&2; exit 64; }
home="$dir/home/me@example.test"

restore() {
  [ -d "$dir/pristine" ] || { echo "server.sh: no $dir/pristine; run seed first" >&2; exit 66; }
  rm -rf "$home/Maildir"
  cp -al "$dir/pristine" "$home/Maildir"
  # Files Dovecot changes in place (indexes, caches, logs) must be copies, not links.
  find "$dir/pristine" -type f \( -name 'dovecot*' -o -name subscriptions \) -printf '%P\n' |
    while read -r f; do cp -p --remove-destination "$dir/pristine/$f" "$home/Maildir/$f"; done
}

case "$cmd" in
  start) "$root/Tests/Servers/dovecot.sh" start "$dir" ;;
  stop) "$root/Tests/Servers/dovecot.sh" stop "$dir" ;;
  seed)
    gen=${3:?GENDIR}
    rm -rf "$home/Maildir" "$dir/pristine"
    mkdir -p "$home"
    cp -a "$gen/Maildir" "$home/Maildir"
    chown -R 65534:65534 "$home"
    chmod -R go-rwx "$home"
    # Let Dovecot assign UIDs and build its indexes once, so every run starts from the same indexed state.
    /usr/bin/python3 - "$dir" <<'PY'
import imaplib, ssl, sys
d = sys.argv[1]
ports = dict(l.strip().split("=") for l in open(d + "/ports"))
ctx = ssl.create_default_context(cafile=d + "/ssl/ca.pem")
c = imaplib.IMAP4_SSL("127.0.0.1", int(ports["imaps"]), ssl_context=ctx)
c.login("me@example.test", "test-password")
for box in ("NoPush", "INBOX"):
    typ, data = c.select(box)
    assert typ == "OK", (box, data)
c.logout()
PY
    cp -a "$home/Maildir" "$dir/pristine"
    ;;
  restore) restore ;;
  *) echo "usage: $0 start|seed|restore|stop DIR [GENDIR]" >&2; exit 64 ;;
esac
