#!/usr/bin/env bash
# The files of IMAP servers whose Debian packages conflict with dovecot-imapd (each
# provides imap-server), unpacked into a private cache folder: never installed, no
# system service, nothing in the host's /etc.
#
#   unpacked.sh cyrus|courier    make sure the server's files are in the cache and print
#                                the root folder they are unpacked into
#
# The cache (TRIAGE_TEST_CACHE, default /var/cache/triage-test) is reused across runs
# and machines' CI caches: the .debs are downloaded once (`apt-get download`; a fresh
# machine needs `apt-get update` first, which scripts/install-deps --test does) and
# unpacked once. The libraries these binaries need beside the system ones are plain
# packages that install beside Dovecot (scripts/install-deps --test).
set -euo pipefail

cache=${TRIAGE_TEST_CACHE:-/var/cache/triage-test}
case "${1:-}" in
  cyrus) debs=(cyrus-imapd cyrus-common cyrus-admin cyrus-clients) ;;
  courier) debs=(courier-imap courier-base courier-authdaemon courier-authlib courier-authlib-userdb libcourier-unicode4) ;;
  *) echo "usage: $0 cyrus|courier" >&2; exit 64 ;;
esac
name=$1
dir="$cache/$name"
# A complete unpack ends by writing this marker (with the package list): an
# interrupted one is redone.
marker="$dir/root/.unpacked"
if [ -f "$marker" ] && [ "$(cat "$marker")" = "${debs[*]}" ]; then
  echo "$dir/root"; exit 0
fi
mkdir -p "$dir/debs"
cd "$dir/debs"
missing=()
for p in "${debs[@]}"; do
  ls "${p}"_*.deb >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  # As root apt downloads as _apt, which cannot write here; the warning about
  # downloading unsandboxed is expected.
  if ! apt-get download -q "${missing[@]}" >"$dir/download.log" 2>&1; then
    echo "unpacked.sh: cannot download ${missing[*]} (see $dir/download.log; on a fresh machine run scripts/install-deps --test, which runs apt-get update)" >&2
    tail -3 "$dir/download.log" >&2
    exit 69
  fi
fi
rm -rf "$dir/root.new"
mkdir -p "$dir/root.new"
for p in "${debs[@]}"; do
  dpkg-deb -x "$(ls "${p}"_*.deb | sort -V | tail -1)" "$dir/root.new"
done
printf '%s' "${debs[*]}" >"$dir/root.new/.unpacked"
rm -rf "$dir/root"
mv "$dir/root.new" "$dir/root"
echo "$dir/root"
