# Sourced by guest test cases: PASS/FAIL lines in the format tests/summary
# counts, and helpers around them. The case's exit status is non-zero when
# any check failed.
: "${CASE:=$(basename "$0" .sh)}"
CHECK_FAILED=0

pass() { echo "PASS: $CASE/$1"; }
fail() { echo "FAIL: $CASE/$1: ${2:-failed}"; CHECK_FAILED=1; }
skip() { echo "SKIP: $CASE/$1: $2"; }

# check NAME CMD...: passes when CMD succeeds.
check() {
	local name=$1; shift
	local outp
	if outp=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$*" | cut -c1-120) -> $(echo "$outp" | tail -2 | tr '\n' ' ')"
	fi
}

# check_not NAME CMD...: passes when CMD fails.
check_not() {
	local name=$1; shift
	if "$@" >/dev/null 2>&1; then
		fail "$name" "expected failure: $*"
	else
		pass "$name"
	fi
}

# stat_value KEY: a value from /sys/class/ksmbd-control/stats.
stat_value() {
	sed -n "s/^$1 //p" /sys/class/ksmbd-control/stats
}

# wait_for SECS CMD...: polls CMD every 0.1 s for SECS seconds of wall
# time at least (not a count of polls: a slow CMD under load would
# stretch that; SECONDS ticks whole seconds, hence the one added).
wait_for() {
	local end=$((SECONDS + $1 + 1)); shift
	while :; do
		"$@" >/dev/null 2>&1 && return 0
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

finish() { exit $CHECK_FAILED; }

# listening: the server listens on port 445.
listening() { ss -ltnH 'sport = :445' | grep -q LISTEN; }

# require_server: ends the case with one failure when nothing listens.
require_server() {
	listening && return 0
	fail server "nothing listens on port 445 (see start-server output)"
	finish
}

# daemon_restart_with LINE...: adds each "key = value" line to [global]
# and restarts the daemon (the server keeps running; the new daemon's
# global settings replace the old).
daemon_restart_with() {
	local l pid
	for l in "$@"; do
		sed -i "/^\[global\]/a\\	$l" /etc/ksmbd/ksmbd.conf
	done
	kill "$(cat /run/ksmbd.mountd.pid)"
	wait_for 10 sh -c "grep -qx 'daemon_pid 0' /sys/class/ksmbd-control/stats"
	"$VM_TOP/build/daemon/ksmbd.mountd" -n >> /var/log/ksmbd.mountd.log 2>&1 &
	pid=$!
	echo $pid > /run/ksmbd.mountd.pid
	check daemon-restarted wait_for 10 sh -c \
		"grep -qx 'daemon_pid $pid' /sys/class/ksmbd-control/stats"
	check listening-again wait_for 20 listening
}

# live_is_zero [KEY...]: the live counters of the stats file (default:
# sessions trees connections works open_files) are all 0 or absent.
live_is_zero() {
	local k v
	for k in ${*:-sessions trees connections works open_files}; do
		v=$(stat_value "$k")
		[ -z "$v" ] || [ "$v" = 0 ] || return 1
	done
}

# man_lists_options PROG PAGE: every long option PROG --help prints is in
# the roff source PAGE (where '-' is written '\-').
man_lists_options() {
	local o missing=
	for o in $("$1" --help 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -qF -- "${o//-/\\-}" "$2" || missing="$missing $o"
	done
	[ -z "$missing" ] || { echo "not in $(basename "$2"):$missing"; return 1; }
}
