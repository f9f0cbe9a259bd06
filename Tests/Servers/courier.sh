#!/usr/bin/env bash
# A throw-away Courier-IMAP 5.0 on loopback for the integration tests, run from the
# Debian packages' files unpacked into a private cache (unpacked.sh): no system
# service, and nothing on the host changes. Courier's programs have /usr, /etc/courier
# and /run/courier compiled in and look up a `courier` system user, so they run in
# their own mount namespace (unshare -m) where /usr is the unpacked files over the
# host's (a read-only overlay), /etc an overlay whose changes land in DIR, and /run a
# tmpfs. The namespace ends with its last process.
#
#   courier.sh start DIR   make DIR (test CA and certificate, configuration, users,
#                          Maildirs), start authdaemond and the listeners, write DIR/ports
#   courier.sh stop DIR    stop what start started
#
# Listeners on 127.0.0.1 (ports in DIR/ports): imap=N (STARTTLS) and imaps=N (implicit
# TLS), the certificate for localhost / 127.0.0.1 from the test CA DIR/ssl/ca.pem.
# Users user1..user200, password test-password (userdb DIR/etc-upper/courier/userdb),
# mail in DIR/home/USER/Maildir owned by uid/gid 65534.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=daemon.sh
. "$here/daemon.sh"
mail_uid=65534
mail_gid=65534

# Runs inside the new mount namespace: mounts, then starts the daemons in the background.
command_inner() { # ROOT IMAP IMAPS
  local root=$1 imap=$2 imaps=$3
  mount --make-rprivate /
  mount -t overlay overlay -o "lowerdir=$root/usr:/usr" /usr
  mount -t overlay overlay -o "lowerdir=/etc,upperdir=$dir/etc-upper,workdir=$dir/etc-work" /etc
  mount -t tmpfs tmpfs /run
  mkdir -p /run/courier/authdaemon
  grep -q '^courier:' /etc/passwd || echo 'courier:x:65533:65533:courier:/nonexistent:/usr/sbin/nologin' >>/etc/passwd
  grep -q '^courier:' /etc/group || echo 'courier:x:65533:' >>/etc/group
  /usr/sbin/makeuserdb
  /usr/lib/courier/courier-authlib/authdaemond </dev/null >>"$dir/courier.log" 2>&1 &
  echo $! >"$dir/authdaemond.pid"
  local i
  for i in $(seq 1 100); do [ -S /run/courier/authdaemon/socket ] && break; sleep 0.05; done
  # The packaged settings, with what the test changes, exported to the listeners.
  listener "$imap" imap.pid 'TLS_PROTOCOL=$TLS_STARTTLS_PROTOCOL IMAP_STARTTLS=$IMAPDSTARTTLS' \
    /usr/lib/courier/courier/imaplogin /usr/bin/imapd Maildir
  listener "$imaps" imaps.pid 'IMAP_TLS=1' \
    /usr/bin/couriertls -server -tcpd /usr/lib/courier/courier/imaplogin /usr/bin/imapd Maildir
}

# listener PORT PIDFILE SETTINGS COMMAND...: couriertcpd on 127.0.0.1:PORT in the
# background, with the packaged settings and the test's certificate exported, and then
# SETTINGS (assignments, evaluated after the packaged ones, which they may use).
listener() {
  local port=$1 pidfile=$2 settings=$3
  shift 3
  (
    set -a +u
    . /etc/courier/imapd
    . /etc/courier/imapd-ssl
    TLS_CERTFILE=$dir/ssl/server-combined.pem
    TLS_CACHEFILE=""
    TLS_DHPARAMS=""
    eval "$settings"
    exec /usr/sbin/couriertcpd -address=127.0.0.1 -maxprocs=40 -maxperip=40 -nodnslookup -noidentlookup "$port" "$@"
  ) </dev/null >>"$dir/courier.log" 2>&1 &
  echo $! >"$dir/$pidfile"
}

start() {
  already_running "$dir/imap.pid"
  root=$("$here/unpacked.sh" courier)
  mkdir -p "$dir/home" "$dir/etc-upper/courier" "$dir/etc-work"
  dir=$(cd "$dir" && pwd)
  make_test_certs "$dir"
  # couriertls for STARTTLS runs as the courier user (65533, made in the namespace).
  chown 65533 "$dir/ssl/server-combined.pem"
  if [ ! -f "$dir/etc-upper/courier/userdb" ]; then
    cp -a "$root/etc/courier/." "$dir/etc-upper/courier/"
    sed -i 's/^authmodulelist=.*/authmodulelist="authuserdb"/' "$dir/etc-upper/courier/authdaemonrc"
    local hash n home
    hash=$(openssl passwd -6 test-password)
    for n in $(seq 1 200); do
      home="$dir/home/user$n"
      mkdir -p "$home/Maildir/cur" "$home/Maildir/new" "$home/Maildir/tmp"
      printf 'user%s\tuid=%s|gid=%s|home=%s|mail=%s/Maildir|systempw=%s\n' \
        "$n" "$mail_uid" "$mail_gid" "$home" "$home" "$hash" >>"$dir/etc-upper/courier/userdb"
    done
    chmod 600 "$dir/etc-upper/courier/userdb"
    chown -R "$mail_uid:$mail_gid" "$dir/home"
    chmod -R go-rwx "$dir/home"
  fi
  serve Courier courier.log launch true imap imaps
}

launch() { # IMAP IMAPS
  unshare -m /bin/bash "$here/courier.sh" inner "$dir" "$root" "$1" "$2" </dev/null >>"$dir/courier.log" 2>&1 || true
}

stop() {
  local name
  for name in imap imaps authdaemond; do stop_pidfile "$dir/$name.pid"; done
}

run_command "$@"
