#!/bin/bash
# tracing/ksmbd-hist over hand-written `bpftool -j map dump` output in the
# BTF-formatted shape (raw bytes plus "formatted"): labels from keys,
# biolatency-style rows, --sum, and a clear error for a map without BTF.
top=$(cd "$(dirname "$0")/../../.." && pwd)
hist=$top/tracing/ksmbd-hist
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail=0
t() {
	if eval "$2"; then
		echo "PASS: bpf-hist/$1"
	else
		echo "FAIL: bpf-hist/$1: $(head -12 "$out" | tr '\n' '|')"
		fail=1
	fi
}
slots() { # slots N_AT_1 N_AT_3: a 24-slot array
	local a=(0 "$1" 0 "$2") i
	for i in $(seq 4 23); do a+=(0); done
	(IFS=,; echo "[${a[*]}]")
}
entry() { # entry ADDR_BYTES SESS CMD SLOT1 SLOT3
	cat <<J
{"key":["0x7f"],"value":["0x00"],"formatted":{"key":{"client":{"addr":[$1,0,0,0,0,0,0,0,0,0,0,0],"family":2,"pad":[0,0,0],"session_id":$2},"command":$3,"pad":[0,0,0]},
 "value":{"c":{"requests":$(($4 + $5)),"errors":0,"lat":{"slots":$(slots "$4" "$5")}}}}}
J
}
{
	echo "["
	entry "127,0,0,1" 0 13 2 4
	echo ","
	entry "127,0,0,2" 4660 9 1 0
	echo "]"
} > "$out.json"

"$hist" -i "$out.json" client_cmds > "$out" 2>&1
t labels "grep -qx 'client = 127.0.0.1 session = 0x0000000000000000 command = ECHO requests = 6' '$out' &&
	grep -qx 'client = 127.0.0.2 session = 0x0000000000001234 command = WRITE requests = 1' '$out'"
t header "grep -qx '     usecs               : count    distribution' '$out'"
t rows "grep -qF '         8 -> 15         : 4        |****************************************|' '$out' &&
	grep -qF '         2 -> 3          : 2        |********************                    |' '$out'"

"$hist" --sum -i - client_cmds < "$out.json" > "$out" 2>&1
t sum "grep -qx 'client_cmds (2 entries) requests = 7' '$out' &&
	grep -qF '         2 -> 3          : 3        |' '$out'"

echo '[{"key":["0x00"],"value":["0x01"]}]' > "$out.json"
"$hist" -i "$out.json" global > "$out" 2>&1
rc=$?
t no-btf-one-line "[ $rc -ne 0 ] && [ \$(wc -l < '$out') = 1 ] && grep -q 'no BTF field names' '$out'"
# Whatever the input, a wrong one gets one line and exit 1, no traceback.
n=0
for bad in '{}' '[1]' '"x"' '[{"formatted":3}]' \
	'[{"formatted":{"key":1,"value":{"c":{"lat":{"slots":"ab"}}}}}]' \
	'[{"formatted":{"key":1,"value":{"c":{"lat":{"slots":[1]},"requests":"z"}}}}]' \
	'[{"formatted":{"key":{"client":3},"value":{"c":{"lat":{"slots":[1]}}}}}]' \
	'[{"formatted":{"key":{"family":2,"addr":["a"]},"value":{"c":{"lat":{"slots":[1]}}}}}]'; do
	n=$((n + 1))
	echo "$bad" > "$out.json"
	"$hist" -i "$out.json" global > "$out" 2>&1
	rc=$?
	t "bad-input-$n-one-line" "[ $rc = 1 ] && [ \$(wc -l < '$out') = 1 ] && grep -q '^ksmbd-hist: ' '$out'"
done
"$hist" -i "$out.none" global > "$out" 2>&1
rc=$?
t missing-file-one-line "[ $rc = 1 ] && [ \$(wc -l < '$out') = 1 ] && grep -q '^ksmbd-hist: cannot read .*: No such file' '$out'"
rm -f "$out.json"
exit $fail
