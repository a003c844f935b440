#!/bin/bash
# vm: --server --timeout 600
# Async requests: byte-range locks, CANCEL and CHANGE_NOTIFY. The raw
# clients' cases (clients/smb2notify.py: notify woken by local changes,
# buffering, filters, WATCH_TREE, ENUM_DIR, close/cancel/logoff/disconnect;
# clients/smb2locks.py: conflicts, element rules, blocking locks woken by
# unlock and close, CANCEL by AsyncId and MessageId, teardown with pending
# locks on either side, the pending-request cap, a compound that blocks and
# unblocks itself, POSIX visibility), then fcntl locks through two cifs
# mounts (separate connections): a conflicting lock fails, a blocking one
# waits and is woken by the unlock, one killed by a signal is cancelled;
# smbclient's notify sees a file created through a mount.
# The raw clients run under trace-cmd: their ksmbd_notify_* and
# ksmbd_async_* events are checked (arm, fire with the action count and
# ENUM_DIR, cancel/cleanup, interim, cancel reasons, completion).
# Ends with every live counter back at zero.
. "$VM_TOP/tests/vm/lib/check.sh"
cl=$VM_TOP/tests/vm/clients/smb2locks.py
share=/srv/share
m1=/mnt/ksmbd-lock1
m2=/mnt/ksmbd-lock2
w=$share/lock-case


require_server

# ---- raw clients, under trace-cmd for the notify and async events ----
ev=/sys/kernel/tracing/events/ksmbd
dat=/tmp/async-trace.dat rep=/tmp/async-trace.txt
trace-cmd record -e 'ksmbd:ksmbd_notify_*' -e 'ksmbd:ksmbd_async_*' -o $dat \
	> /tmp/tc-record.log 2>&1 &
tcpid=$!
tc_on() { [ "$(cat $ev/ksmbd_notify_fire/enable 2>/dev/null)" = 1 ]; }
check trace-cmd-started wait_for 60 tc_on
python3 "$cl" --prefix "$CASE" --share-dir "$share" || CHECK_FAILED=1
python3 "$VM_TOP/tests/vm/clients/smb2notify.py" --prefix "$CASE/notify" \
	--share-dir "$share" || CHECK_FAILED=1
sleep 1
kill -INT $tcpid
wait $tcpid
trace-cmd report -i $dat > $rep 2>/dev/null
# has_ev EVENT PATTERN: a line of EVENT whose fields match PATTERN (grep -E)
has_ev() { grep -E " $1: .*$2" $rep >/dev/null; }
check trace-notify-arm has_ev ksmbd_notify_arm "filter=0x3 tree=0 out_len=4096"
check trace-notify-arm-tree has_ev ksmbd_notify_arm "tree=1"
check trace-notify-fire-waited has_ev ksmbd_notify_fire "status=STATUS_SUCCESS actions=1 bytes=[1-9][0-9]* waited=1"
check trace-notify-fire-buffered has_ev ksmbd_notify_fire "status=STATUS_SUCCESS actions=3 bytes=[1-9][0-9]* waited=0"
check trace-notify-fire-enum-dir has_ev ksmbd_notify_fire "status=STATUS_NOTIFY_ENUM_DIR actions=0 bytes=0 waited=1"
check trace-notify-overflow has_ev ksmbd_notify_fire "status=STATUS_NOTIFY_ENUM_DIR actions=0 bytes=0 waited=0"
check trace-notify-cancelled has_ev ksmbd_notify_cancel "status=STATUS_CANCELLED"
check trace-notify-cleanup has_ev ksmbd_notify_cancel "status=STATUS_NOTIFY_CLEANUP"
check trace-async-interim has_ev ksmbd_async_interim "cmd=CHANGE_NOTIFY"
check trace-async-cancel has_ev ksmbd_async_cancel "cmd=CHANGE_NOTIFY reason=cancel"
# (smb2locks.py's connection drops with pending locks)
check trace-async-teardown has_ev ksmbd_async_cancel "reason=teardown"
check trace-async-done has_ev ksmbd_async_done "cmd=CHANGE_NOTIFY status=STATUS_SUCCESS sent=1 latency_ns=[1-9]"
check trace-async-done-cleanup has_ev ksmbd_async_done "status=STATUS_NOTIFY_CLEANUP sent=1"
# every interim has its final response (a request cancelled with its
# connection before the interim went out has a final response only), and
# each arm its end
n_int=$(grep -c ' ksmbd_async_interim:' $rep)
n_done=$(grep -c ' ksmbd_async_done:' $rep)
echo "# async events: $n_int interim, $n_done done"
check trace-async-balanced test "$n_int" -gt 0 -a "$n_done" -ge "$n_int"
n_arm=$(grep -c ' ksmbd_notify_arm:' $rep)
n_end=$(grep -E -c ' ksmbd_notify_(cancel|fire): .*waited=1|ksmbd_notify_cancel:' $rep)
check trace-notify-balanced test "$n_arm" -gt 0 -a "$n_arm" = "$n_end"

# ---- fcntl locks through two mounts ----
# lk FILE CMD START LEN: one fcntl lock; CMD ex (wait), nb (fail if held),
# hold (take, print "held", keep until stdin closes).
cat > /tmp/lk.py <<'EOF'
import fcntl, os, sys
path, cmd, start, length = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
fd = os.open(path, os.O_RDWR)
flags = fcntl.LOCK_EX | (fcntl.LOCK_NB if cmd == "nb" else 0)
fcntl.lockf(fd, flags, length, start)
if cmd == "hold":
    print("held", flush=True)
    sys.stdin.read()
os.close(fd)
EOF
lk() { python3 /tmp/lk.py "$@"; }

rm -rf "$w"
mkdir -p "$w" $m1 $m2
chown tester:tester "$w"
opts=username=tester,password=tester,vers=3.1.1,nosharesock
if ! timeout 60 mount -t cifs //127.0.0.1/share $m1 -o $opts,actimeo=1 2>/tmp/mount.err ||
   ! timeout 60 mount -t cifs //127.0.0.1/share $m2 -o $opts,actimeo=2 2>>/tmp/mount.err; then
	fail mount "$(tail -1 /tmp/mount.err)"
else
	pass mount
	head -c 4096 /dev/zero > "$w/f"
	chown tester:tester "$w/f"

	coproc HOLD { lk "$m1/lock-case/f" hold 0 100; }
	hold_pid=$HOLD_PID hold_in=${HOLD[1]}
	read -r -t 30 line <&"${HOLD[0]}"
	check fcntl-hold test "$line" = held
	check_not fcntl-conflict-other-mount timeout 20 python3 /tmp/lk.py $m2/lock-case/f nb 50 10
	check fcntl-beside-other-mount timeout 20 python3 /tmp/lk.py $m2/lock-case/f nb 100 10

	# a blocking lock that a signal ends: cifs sends CANCEL (its wait is
	# killable, not interruptible)
	( timeout -s KILL 3 python3 /tmp/lk.py $m2/lock-case/f ex 10 10 ) 2>/dev/null
	check fcntl-interrupted test $? -ne 0

	# a blocking lock woken by the unlock
	rm -f /tmp/lock-woken
	( lk "$m2/lock-case/f" ex 0 10 && touch /tmp/lock-woken ) &
	waiter=$!
	sleep 2
	check fcntl-blocked test ! -e /tmp/lock-woken
	exec {hold_in}>&-		# the holder's stdin ends: it unlocks
	wait "$hold_pid" 2>/dev/null
	check fcntl-woken wait_for 20 test -e /tmp/lock-woken
	wait "$waiter" 2>/dev/null
	check fcntl-free-after timeout 20 python3 /tmp/lk.py $m1/lock-case/f nb 0 100

	# smbclient's notify on the directory sees a file made through a
	# mount: files are made every second until one is reported (the
	# watch is armed some time after smbclient starts)
	stdbuf -oL timeout 60 smbclient //127.0.0.1/share -U tester%tester \
		-c 'notify lock-case' > /tmp/notify.out 2>&1 &
	notify_pid=$!
	seen() { grep -q 'notify-seen-' /tmp/notify.out; }
	for i in $(seq 1 30); do
		touch "$m2/lock-case/notify-seen-$i"
		seen && break
		sleep 1
	done
	check smbclient-notify-sees-mount-create seen
	kill "$notify_pid" 2>/dev/null
	wait "$notify_pid" 2>/dev/null
	sed 's/^/# smbclient notify: /' /tmp/notify.out | head -5
	umount $m1
	umount $m2
fi

check live-zero wait_for 20 live_is_zero
rm -rf "$w" "$share"/lk-*
finish
