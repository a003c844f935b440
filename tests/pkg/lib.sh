# Sourced by the tests/pkg scripts: PASS/FAIL/SKIP lines as tests/summary
# counts them; the script's exit status is non-zero when a check failed.
SUITE=${SUITE:-pkg}
FAILED=0
pass() { echo "PASS: $SUITE/$1"; }
fail() { echo "FAIL: $SUITE/$1: ${2:-failed}"; FAILED=1; }
skip() { echo "SKIP: $SUITE/$1: $2"; }
# t NAME CMD...: passes when CMD succeeds; on failure shows its last lines.
t() {
	local name=$1 outp; shift
	if outp=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$*" | cut -c1-100) -> $(echo "$outp" | tail -3 | tr '\n' ' ' | cut -c1-300)"
	fi
}
