#!/bin/bash
# vm: --timeout 400
# The SMB2 transport and first commands against a raw client: framing
# limits, the validation gate, NEGOTIATE (every dialect, SMB1 upgrade,
# 3.1.1 contexts), ECHO, compounds, the sequence window, the pre-negotiate
# timeout, teardown by kill_server and by rmmod with clients connected.
# Loads the module itself with autostart=1 (no daemon needed).
# Optional argument: another ksmbd.ko (to check that the cases catch a
# deliberately broken build).
. "$VM_TOP/tests/vm/lib/check.sh"
ko=${1:-$VM_TOP/build/module/ksmbd.ko}
raw=$VM_TOP/tests/vm/clients/smb2raw.py
tr=/sys/kernel/tracing

live_zero() {
	test "$(stat_value connections) $(stat_value works) $(stat_value buffers)" = "0 0 0"
}
# A background client that holds a connection: negotiated, or mid-frame.
# A client that stays connected; /tmp/held.KIND appears once it is (its
# Python start is slow in the emulated guest: wait for that, not a clock).
hold_client() {
	rm -f /tmp/held.$1
	python3 - "$1" "$VM_TOP/tests" <<'PY' &
import struct, sys, time
sys.path.insert(0, sys.argv[2])
from smb2.conn import Conn
c = Conn()
if sys.argv[1] == "midframe":
    c.send_raw(struct.pack(">I", 4000) + b"\xfeSMB")
else:
    c.negotiate([0x0311])
open("/tmp/held." + sys.argv[1], "w").close()
time.sleep(120)
PY
}

both_held() {
	wait_for 60 test -e /tmp/held.negotiated -a -e /tmp/held.midframe
}

two_connections() {
	test "$(sed -n "s/^connections //p" /sys/class/ksmbd-control/stats)" -eq 2
}
smbclient_status() { grep -q "$1" <<<"$out"; }

check insmod-autostart insmod "$ko" autostart=1 negotiate_timeout_ms=4000
check state-running grep -qx 'state running' /sys/class/ksmbd-control/stats
check listen-port-line grep -qx 'listen_port 445' /sys/class/ksmbd-control/stats
check listening wait_for 10 listening

if [ -d $tr/events/ksmbd ]; then
	echo 1 > $tr/events/ksmbd/enable
	echo > $tr/trace
fi

python3 "$raw" --prefix "$CASE" --flood 200 --flood-wait 30 || CHECK_FAILED=1

# Tracepoints: listed, and they recorded what the cases did.
events=$(trace-cmd list -e ksmbd 2>&1)
for ev in conn_accept conn_close request_rejected request_done; do
	check trace-listed-$ev grep -qx "ksmbd:ksmbd_$ev" <<<"$events"
done
check trace-accept grep -q 'ksmbd_conn_accept: conn=.* peer=' $tr/trace
check trace-close-timeout grep -q "ksmbd_conn_close: .*reason='negotiate timeout'" $tr/trace
check trace-rejected grep -q "ksmbd_request_rejected: .*reason='FRAME_TOO_LONG'" $tr/trace
check trace-request-done grep -q 'ksmbd_request_done: .*cmd=ECHO index=0 status=STATUS_SUCCESS' $tr/trace
echo 0 > $tr/events/ksmbd/enable

# smbclient gets past NEGOTIATE; an anonymous SESSION_SETUP is refused.
out=$(timeout 60 smbclient -L //127.0.0.1 -N -m SMB3 2>&1)
echo "$out" | sed 's/^/smbclient: /' | head -5
check smbclient-past-negotiate smbclient_status NT_STATUS_LOGON_FAILURE

check live-objects-zero wait_for 10 live_zero
check accepted-counted test "$(stat_value connections_accepted)" -gt 230
check bytes-counted test "$(stat_value bytes_out)" -gt 0

# kill_server cuts live clients and stops listening.
hold_client negotiated; h1=$!
hold_client midframe; h2=$!
check clients-held both_held
check clients-connected wait_for 10 two_connections
echo hard > /sys/class/ksmbd-control/kill_server
check kill-stops-listening sh -c '! grep -q "^listen_port" /sys/class/ksmbd-control/stats'
check kill-closes-connections wait_for 10 live_zero
check kill-port-closed sh -c '! ss -ltnH "sport = :445" | grep -q LISTEN'
kill $h1 $h2 2>/dev/null; wait $h1 $h2 2>/dev/null
check rmmod-after-kill rmmod ksmbd

# rmmod with clients connected is clean.
check reinsmod insmod "$ko" autostart=1
check relistening wait_for 10 listening
hold_client negotiated; h1=$!
hold_client midframe; h2=$!
check clients-again-held both_held
check clients-connected-again wait_for 10 two_connections
check rmmod-with-clients rmmod ksmbd
check module-gone sh -c '! grep -q "^ksmbd " /proc/modules'
kill $h1 $h2 2>/dev/null; wait $h1 $h2 2>/dev/null
check no-live-objects-at-unload sh -c '! dmesg | grep -q "unloading with live objects left"'
finish
