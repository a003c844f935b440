#!/bin/bash
# vm: --server --timeout 300
# Durable handles v1 and v2: the raw client's cases (clients/smb2durable.py:
# reconnect after a TCP drop with the same FileId, oplock or lease and data;
# another user refused; LOGOFF closes; a short v2 timeout scavenges; a
# conflicting open closes the disconnected handle; replayed DH2Q; bad
# contexts), then a cifs mount whose TCP connection is killed with ss -K
# while a file is open: the client reconnects, reopens the handle and the
# file keeps what was written through it. The durable tracepoints fire;
# every live counter ends at zero.
. "$VM_TOP/tests/vm/lib/check.sh"
b=$VM_TOP/build
cl=$VM_TOP/tests/vm/clients/smb2durable.py
share=/srv/share
mnt=/mnt/ksmbd-durable
tr=/sys/kernel/tracing
export PYTHONDONTWRITEBYTECODE=1


require_server

id other >/dev/null 2>&1 || useradd -M -s /bin/bash other
"$b/daemon/ksmbd.adduser" -a other -p other2 -i /etc/ksmbd/ksmbdpwd.db >/dev/null ||
	fail adduser-other "ksmbd.adduser failed"
# The daemon reads the user database again on SIGHUP.
[ -s /run/ksmbd.mountd.pid ] && kill -HUP "$(cat /run/ksmbd.mountd.pid)"
sleep 1

events="disconnect reconnect scavenge"
if [ -d $tr/events/ksmbd/ksmbd_durable_reconnect ]; then
	echo > $tr/trace
	for e in $events; do
		echo 1 > $tr/events/ksmbd/ksmbd_durable_$e/enable
	done
	pass tracepoints-exist
else
	fail tracepoints-exist "no ksmbd_durable_* events"
fi

t0=$(date +%s)
python3 "$cl" --prefix "$CASE" || CHECK_FAILED=1
echo "# raw client: $(($(date +%s) - t0)) s"

if [ -d $tr/events/ksmbd/ksmbd_durable_reconnect ]; then
	grep ksmbd_durable_ $tr/trace | head -6 | sed 's/^/# /'
	check trace-disconnect grep -q "ksmbd_durable_disconnect:.*timeout_ms=1000" $tr/trace
	check trace-reconnect-ok grep -q "ksmbd_durable_reconnect:.*status=STATUS_SUCCESS" $tr/trace
	check trace-reconnect-denied grep -q "ksmbd_durable_reconnect:.*status=STATUS_ACCESS_DENIED" $tr/trace
	check trace-scavenge-timeout grep -q "ksmbd_durable_scavenge:.*reason='timeout'" $tr/trace
	check trace-scavenge-conflict grep -q "ksmbd_durable_scavenge:.*reason='conflicting open'" $tr/trace
	echo > $tr/trace
fi

# ---- cifs: kill the TCP connection under an open file ----
t0=$(date +%s)
modprobe cifs 2>/dev/null
mkdir -p $mnt
rm -f $share/dur-cifs.txt
if timeout 60 mount -t cifs //127.0.0.1/share $mnt \
	-o username=tester,password=tester,vers=3.1.1,echo_interval=1 2>/tmp/mnt.err; then
	pass mount
	exec 3<>$mnt/dur-cifs.txt
	echo before-drop >&3
	ss -K dst 127.0.0.1 dport = 445 >/dev/null 2>&1
	ss -K src 127.0.0.1 sport = 445 >/dev/null 2>&1
	# Written through the same descriptor after the reconnect.
	ok=0
	for i in $(seq 1 30); do
		if echo after-drop >&3 2>/dev/null; then ok=1; break; fi
		sleep 1
	done
	check write-after-drop test $ok = 1
	exec 3>&-
	check cifs-contents cmp $mnt/dur-cifs.txt <(printf 'before-drop\nafter-drop\n')
	check cifs-contents-on-disk cmp $share/dur-cifs.txt <(printf 'before-drop\nafter-drop\n')
	grep ksmbd_durable_ $tr/trace | head -4 | sed 's/^/# /'
	check cifs-durable-reconnect grep -q "ksmbd_durable_reconnect:.*status=STATUS_SUCCESS" $tr/trace
	umount $mnt
else
	fail mount "$(tail -2 /tmp/mnt.err | tr '\n' ' ')"
fi
echo "# cifs part: $(($(date +%s) - t0)) s"
for e in $events; do
	echo 0 > $tr/events/ksmbd/ksmbd_durable_$e/enable 2>/dev/null
done

check live-zero wait_for 15 live_is_zero sessions trees connections works open_files oplocks
grep -E '^(sessions|trees|connections|works|open_files|oplocks) ' \
	/sys/class/ksmbd-control/stats | tr '\n' ' ' | sed 's/^/# live: /'; echo
rm -f $share/"$CASE"-*.bin $share/dur-cifs.txt
check no-kernel-warnings sh -c '! dmesg | grep -Eq "BUG:|WARNING:|Oops|general protection|corruption|Redzone|Poison overwritten"'
finish
