# Sourced by the server scripts (dovecot.sh, cyrus.sh, courier.sh, mailutils.sh), with
# their arguments (COMMAND DIR ...): sets $cmd and $dir, brings in the certificates
# (test-ca.sh), and has what every server needs: free ports, starting with retries,
# stopping, and running the command (run_command). The script defines `start` and
# `stop`, and `command_NAME` for any other command (its usage in $extra_usage).

usage() { echo "usage: $0 start|stop DIR${extra_usage:-}" >&2; exit 64; }
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
# shellcheck source=test-ca.sh
. "$(dirname "${BASH_SOURCE[0]}")/test-ca.sh"

# run_command COMMAND DIR ARGS...: start, stop, or the script's command_COMMAND ARGS.
run_command() {
  case "$cmd" in
    start) start ;;
    stop) stop ;;
    *)
      declare -F "command_$cmd" >/dev/null || usage
      shift 2
      "command_$cmd" "$@"
      ;;
  esac
}

# A free TCP port on 127.0.0.1 (the server may still lose a race for it: callers retry).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 40000))
    port_free "$p" && { echo "$p"; return; }
  done
}

# already_running PIDFILE: exit 0 with a note when the process in PIDFILE is alive.
already_running() {
  if [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; then
    echo "$(basename "$0"): already running in $dir" >&2; exit 0
  fi
}

# serve SERVER LOG LAUNCH READY NAME...: up to five tries of: a different free port
# per NAME, `LAUNCH PORT...`, then up to 5 s for every port to listen while `READY`
# says 0 (1: not yet, 2: the server is gone, try again). Writes NAME=PORT lines to
# $dir/ports. A failed try runs `stop`; after the last, exit 75 with the tail of
# $dir/LOG.
serve() {
  local server=$1 log=$2 launch=$3 ready=$4 attempt i state port
  shift 4
  local names=("$@") ports
  for attempt in 1 2 3 4 5; do
    ports=()
    for i in "${!names[@]}"; do ports+=("$(pick_port)"); done
    [ "$(printf '%s\n' "${ports[@]}" | sort -u | wc -l)" -eq "${#ports[@]}" ] || continue
    if "$launch" "${ports[@]}"; then
      for i in $(seq 1 100); do
        state=0
        "$ready" || state=$?
        if [ "$state" -eq 0 ] && listening "${ports[@]}"; then
          for i in "${!names[@]}"; do printf '%s=%s\n' "${names[$i]}" "${ports[$i]}"; done >"$dir/ports"
          return 0
        fi
        [ "$state" -ne 2 ] || break
        sleep 0.05
      done
    fi
    stop
  done
  echo "$(basename "$0"): $server did not start; see $dir/$log" >&2
  tail -5 "$dir/$log" >&2 || true
  exit 75
}

# listening PORT...: every port has a listener.
listening() {
  local port
  for port in "$@"; do port_free "$port" && return 1; done
  return 0
}

# stop_pidfile PIDFILE: TERM, up to 5 s to end, then KILL; removes PIDFILE.
stop_pidfile() {
  local pidfile=$1 pid i
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  kill -TERM "$pid" 2>/dev/null || { rm -f "$pidfile"; return 0; }
  for i in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile"; return 0; }
    sleep 0.05
  done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pidfile"
}
