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

# wait_for SECS CMD...: polls CMD every 0.1 s.
wait_for() {
	local n=$(($1 * 10)); shift
	while [ $n -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1; n=$((n - 1))
	done
	return 1
}

finish() { exit $CHECK_FAILED; }
