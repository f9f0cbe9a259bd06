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
  if [ ! -d "$home/Maildir" ]; then
    cp -al "$dir/pristine" "$home/Maildir"
  fi
  # Only what a run changed: removing and relinking all 100,000 message files took
  # minutes on a busy disk. A message file's name holds its flags and Dovecot never
  # rewrites one, so a name that is in both trees is the same file; files Dovecot
  # changes in place (indexes, caches, logs) are always copied fresh, never linked.
  /usr/bin/python3 - "$dir/pristine" "$home/Maildir" <<'PY'
import os, shutil, sys
pristine, live = sys.argv[1], sys.argv[2]
def copied(name):
    return name.startswith("dovecot") or name == "subscriptions" or name == "done-seed"
for top, dirs, files in os.walk(live, topdown=True):
    rel = os.path.relpath(top, live)
    ref = os.path.join(pristine, rel)
    for d in list(dirs):
        if not os.path.isdir(os.path.join(ref, d)):
            shutil.rmtree(os.path.join(top, d))  # a folder a run created
            dirs.remove(d)
    want = set(os.listdir(ref))
    for f in files:
        if f not in want or copied(f):
            os.unlink(os.path.join(top, f))
for top, dirs, files in os.walk(pristine):
    rel = os.path.relpath(top, pristine)
    out = os.path.join(live, rel)
    if not os.path.isdir(out):
        os.mkdir(out)
        shutil.copystat(top, out)
        os.chown(out, os.stat(top).st_uid, os.stat(top).st_gid)
    have = set(os.listdir(out))
    for f in files:
        if f == "done-seed":
            continue
        if copied(f):
            shutil.copy2(os.path.join(top, f), os.path.join(out, f))
            st = os.stat(os.path.join(top, f))
            os.chown(os.path.join(out, f), st.st_uid, st.st_gid)
        elif f not in have:
            os.link(os.path.join(top, f), os.path.join(out, f))
PY
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
