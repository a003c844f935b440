#!/bin/bash
# vm: --server --timeout 600
# Oplocks and leases: the server restarted with "oplock break timeout = 2",
# then the raw client's cases (clients/smb2oplock.py: grants, breaks, acks
# with right and wrong levels, the timeout, close and disconnect during a
# break, races, local processes breaking leases and oplocks through the
# server's kernel leases; directory leases: RH granted, broken by another
# client's create, delete and rename, a written file's close and a local
# touch, kept by the holder's own create naming it as ParentLeaseKey), then
# two cifs mounts of the share on separate TCP connections (default
# cache=strict): data written through one is seen through the other,
# because the lease break makes the writer flush.
# The oplock tracepoints must have fired; every live counter (oplocks
# included) ends at zero.
. "$VM_TOP/tests/vm/lib/check.sh"
b=$VM_TOP/build
cl=$VM_TOP/tests/vm/clients/smb2oplock.py
share=/srv/share
ma=/mnt/ksmbd-op-a
mb=/mnt/ksmbd-op-b
tr=/sys/kernel/tracing
export PYTHONDONTWRITEBYTECODE=1

running() { grep -q '^state running' /sys/class/ksmbd-control/stats; }

require_server

# A short break timeout, and directory leases (off by default).
daemon_restart_with "oplock break timeout = 2" "smb3 directory leases = yes"

if [ -d $tr/events/ksmbd/ksmbd_oplock_grant ]; then
	echo > $tr/trace
	for e in grant break_sent break_ack break_timeout; do
		echo 1 > $tr/events/ksmbd/ksmbd_oplock_$e/enable
	done
	pass tracepoints-exist
else
	fail tracepoints-exist "no ksmbd_oplock_* events"
fi

t0=$(date +%s)
python3 "$cl" --prefix "$CASE" --timeout 2 --rounds 12 || CHECK_FAILED=1
echo "# raw client: $(($(date +%s) - t0)) s"
if [ -d $tr/events/ksmbd/ksmbd_oplock_grant ]; then
	grep -c ksmbd_oplock_ $tr/trace | sed 's/^/# oplock events (raw client): /'
	for e in grant break_sent break_ack break_timeout; do
		check trace-$e grep -q "ksmbd_oplock_$e:" $tr/trace
	done
	echo > $tr/trace
fi
t0=$(date +%s)

# ---- two cifs mounts, one TCP connection each ----
modprobe cifs 2>/dev/null
mkdir -p $ma $mb
opts=username=tester,password=tester,vers=3.1.1
if timeout 60 mount -t cifs //127.0.0.1/share $ma -o $opts 2>/tmp/mnt.err &&
   timeout 60 mount -t cifs //127.0.0.1/share $mb -o $opts,nosharesock 2>>/tmp/mnt.err; then
	pass mount-two
	check two-connections test "$(ss -tnH state established '( dport = :445 )' | wc -l)" -ge 2
	rm -f $share/coh.txt
	# A keeps the file open and writes through its cache (W lease)...
	exec 3>$ma/coh.txt
	echo first-write >&3
	# ...B's open breaks the lease, A flushes, B reads A's data.
	check coherent-read-b test "$(cat $mb/coh.txt)" = first-write
	# B overwrites; A (file still open) must not serve stale cache.
	echo second-write > $mb/coh.txt
	check coherent-read-a test "$(cat $ma/coh.txt)" = second-write
	exec 3>&-
	exec 3>>$ma/coh.txt
	echo appended-by-a >&3
	check coherent-append-seen-by-b cmp $mb/coh.txt <(printf 'second-write\nappended-by-a\n')
	exec 3>&-
	# Many small alternating writes and reads, compared byte for byte.
	ok=1
	for i in $(seq 1 10); do
		echo "round $i" > $ma/coh2.txt
		if ! cmp -s $mb/coh2.txt <(echo "round $i"); then
			ok=0; od -c $mb/coh2.txt | head -3; od -c $share/coh2.txt | head -3; break
		fi
		echo "back $i" > $mb/coh2.txt
		if ! cmp -s $ma/coh2.txt <(echo "back $i"); then
			ok=0; od -c $ma/coh2.txt | head -3; od -c $share/coh2.txt | head -3; break
		fi
	done
	check coherent-rounds test $ok = 1
	umount $ma; umount $mb
else
	fail mount-two "$(tail -2 /tmp/mnt.err | tr '\n' ' ')"
	umount $ma 2>/dev/null
fi

echo "# cifs part: $(($(date +%s) - t0)) s"
if [ -d $tr/events/ksmbd/ksmbd_oplock_grant ]; then
	for e in grant break_sent break_ack break_timeout; do
		echo 0 > $tr/events/ksmbd/ksmbd_oplock_$e/enable
	done
	grep -c ksmbd_oplock_ $tr/trace | sed 's/^/# oplock events (cifs): /'
	grep ksmbd_oplock_ $tr/trace | head -4 | sed 's/^/# /'
	# cifs (cache=strict) asks for leases, and the breaks went to leases.
	check cifs-got-leases grep -q "ksmbd_oplock_grant:.* lease=" $tr/trace
	check cifs-lease-breaks grep -q "ksmbd_oplock_break_sent:.* lease=" $tr/trace
	check cifs-lease-acks grep -q "ksmbd_oplock_break_ack:.* lease=.*STATUS_SUCCESS" $tr/trace
fi

check live-zero wait_for 15 live_is_zero sessions trees connections works open_files oplocks
grep -E '^(sessions|trees|connections|works|open_files|oplocks) ' \
	/sys/class/ksmbd-control/stats | tr '\n' ' ' | sed 's/^/# live: /'; echo
rm -f $share/op-*.txt $share/ls-*.txt $share/coh*.txt
check no-kernel-warnings sh -c '! dmesg | grep -Eq "BUG:|WARNING:|Oops|general protection|corruption|Redzone|Poison overwritten"'
finish
