#!/bin/bash
# tracing/ksmbd-trace summary over a synthetic trace-cmd report: counts,
# errors, percentiles and per-client totals must come out right.
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
	echo "  k-1 [000] 1.0: ksmbd_conn_accept: conn=0x0000000000000001 peer=127.0.0.1:40000 local_port=445"
	echo "  k-1 [000] 1.0: ksmbd_conn_accept: conn=0x0000000000000002 peer=[::ffff:127.0.0.2]:40001 local_port=445"
	for i in $(seq 1 100); do
		echo "  k-2 [001] 1.1: ksmbd_request_done: conn=0x0000000000000001 sess=0x1 tree=0x1 mid=$i cmd=WRITE index=0 status=STATUS_SUCCESS charge=1 requested=1 granted=1 bytes_in=65648 bytes_out=80 latency_ns=$((i * 1000))"
		echo "  k-2 [001] 1.1: ksmbd_vfs_write: conn=0x0000000000000001 file=0x0000000000000009 offset=0 requested=65536 done=65536 latency_ns=10"
	done
	echo "  k-2 [001] 1.2: ksmbd_request_done: conn=0x0000000000000002 sess=0x2 tree=0x0 mid=3 cmd=CREATE index=0 status=STATUS_OBJECT_NAME_NOT_FOUND charge=1 requested=1 granted=1 bytes_in=120 bytes_out=73 latency_ns=7000"
	echo "  k-1 [000] 2.0: ksmbd_conn_close: conn=0x0000000000000002 peer=[::ffff:127.0.0.2]:40001 reason=\"closed by peer\" lifetime_ms=5 requests=1 bytes_in=124 bytes_out=77"
} | "$top/tracing/ksmbd-trace" summary - > "$out"
t() { if eval "$2"; then echo "PASS: tracing/$1"; else echo "FAIL: tracing/$1: $(cat "$out" | head -20 | tr '\n' '|')"; fail=1; fi; }
fail=0
t write-count "grep -qE '^WRITE +100 +0 +50\.0 +90\.0 +99\.0 +100\.0 +6564800 +8000' '$out'"
t create-error "grep -qE '^CREATE +1 +1 ' '$out'"
t client-1-written "grep -qE '^127\.0\.0\.1 +100 +0 +0 +0 +0 +6553600' '$out'"
t client-2-closed "grep -qE '^127\.0\.0\.2 +1 +1 +124 +77 ' '$out'"
# Without trace-cmd, record and summary say so in one line and fail (the
# interpreter itself, not a wrapper found on PATH).
py=$(python3 -c "import sys; print(sys.executable)")
for verb in "record -- true" "summary $out.none"; do
	env PATH=/nonexistent "$py" "$top/tracing/ksmbd-trace" $verb > "$out" 2>&1
	rc=$?
	t "no-trace-cmd-${verb%% *}" "[ \$rc = 1 ] && [ \"\$(cat '$out')\" = 'ksmbd-trace: trace-cmd is not installed' ]"
done
exit $fail
