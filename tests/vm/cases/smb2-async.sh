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
# waits and is woken by the unlock, one killed by a signal is cancelled.
# Ends with every live counter back at zero.
. "$VM_TOP/tests/vm/lib/check.sh"
cl=$VM_TOP/tests/vm/clients/smb2locks.py
share=/srv/share
m1=/mnt/ksmbd-lock1
m2=/mnt/ksmbd-lock2
w=$share/lock-case

listening() { ss -ltnH 'sport = :445' | grep -q LISTEN; }
live_is_zero() {
	for k in sessions trees connections works open_files; do
		v=$(stat_value "$k")
		[ -z "$v" ] || [ "$v" = 0 ] || return 1
	done
}

if ! listening; then
	fail server "nothing listens on port 445 (see start-server output)"
	finish
fi

# ---- raw clients ----
python3 "$cl" --prefix "$CASE" --share-dir "$share" || CHECK_FAILED=1
python3 "$VM_TOP/tests/vm/clients/smb2notify.py" --prefix "$CASE/notify" \
	--share-dir "$share" || CHECK_FAILED=1

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
	umount $m1
	umount $m2
fi

check live-zero wait_for 20 live_is_zero
rm -rf "$w" "$share"/lk-*
finish
