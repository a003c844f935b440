#!/bin/bash
# vm: --timeout 600
# The netlink IPC between ksmbd.ko and ksmbd.mountd: start-up handshake in
# both orders, the request paths (through the ipc_probe debugfs file), a
# daemon killed, stopped and restarted, a hostile daemon
# (ipc-daemon-hostile.py), rmmod/insmod under a running daemon,
# ksmbd.control (--reload, --shutdown), ksmbd.addshare telling the daemon,
# mountd --port, and "bind interfaces only" on a dummy interface of the
# guest (addresses added and removed while serving, IPv4 and IPv6).
. "$VM_TOP/tests/vm/lib/check.sh"
b=$VM_TOP/build
ko=$b/module/ksmbd.ko
mountd=$b/daemon/ksmbd.mountd
control=$b/daemon/ksmbd.control
probe=/sys/kernel/debug/ksmbd/ipc_probe
log=/var/log/ksmbd.mountd.log
lock=/run/ksmbd.lock

for f in "$ko" "$mountd" "$control" "$b/daemon/ksmbd.adduser"; do
	[ -x "$f" ] || [ -f "$f" ] || { fail build "$f is missing"; finish; }
done

# The demo user and share, as tests/vm/start-server makes them.
mkdir -p /srv/share /etc/ksmbd
id tester >/dev/null 2>&1 || useradd -M -d /srv/share -s /bin/bash tester
cat > /etc/ksmbd/ksmbd.conf <<CONF
[global]
	netbios name = KSMBD-VM
	workgroup = WORKGROUP
	ipc timeout = 3
[share]
	path = /srv/share
	read only = no
	veto files = /*.tmp/secret/
CONF
"$b/daemon/ksmbd.adduser" -a tester -p tester -i /etc/ksmbd/ksmbdpwd.db >/dev/null

state() { sed -n 's/^state //p' /sys/class/ksmbd-control/stats 2>/dev/null; }
is_state() { [ "$(state)" = "$1" ]; }
probe() { echo "$1" > $probe; cat $probe; }
daemon_pid_is() { [ "$(stat_value daemon_pid)" = "$1" ]; }
dmesg_has() { dmesg | grep -qF -- "$1"; }
log_has() { grep -qF -- "$1" $log; }
start_daemon() {
	"$mountd" -n -v >> $log 2>&1 &
	dpid=$!
}

# --- the daemon before the module: it waits, then starts the server.
: > $log
start_daemon
check daemon-waits-for-module wait_for 5 log_has "ksmbd module not loaded; waiting"
check insmod insmod "$ko"
check server-running wait_for 10 is_state running
check startup-handshake-logged dmesg_has "daemon (pid $dpid) started the server: port 445"
check control-shows-running sh -c "'$control' -c | grep -qx 'state running'"
check control-shows-version sh -c "'$control' -c | grep -q '^version '"
check second-daemon-refused sh -c "timeout 5 '$mountd' -n 2>/dev/null; test \$? = 1"
check second-daemon-says-why sh -c "'$mountd' -n 2>&1 | grep -q 'another ksmbd.mountd is running'"

# --- the request paths.
uid=$(id -u tester) gid=$(id -g tester)
check probe-login-tester sh -c "echo 'login tester' > $probe; grep -q 'login tester: ok status=0x1 uid=$uid gid=$gid hash_sz=16' $probe"
check probe-login-unknown-refused sh -c "echo 'login nosuch' > $probe; grep -q 'login nosuch: refused' $probe"
check probe-share-path sh -c "echo 'share share' > $probe; grep -q 'path=/srv/share veto_sz=13' $probe"
check probe-share-unknown-invalid sh -c "echo 'share nosuch' > $probe; grep -q 'share nosuch: invalid' $probe"
check probe-tree-writable sh -c "echo 'tree share tester' > $probe; grep -q 'status=0 flags=0x4' $probe"
check probe-tree-no-share sh -c "echo 'tree nosuch tester' > $probe; grep -q 'status=2 ' $probe"
check probe-rpc-pipe sh -c "echo rpc > $probe; grep -q 'rpc: open=0x0 close=0x0' $probe"
check probe-spnego-not-supported sh -c "echo spnego > $probe; grep -q 'spnego: status=2' $probe"
check no-hash-in-logs sh -c "! dmesg | grep -qi 'hash=' && ! grep -qi 'hash=' $log"
check ipc-requests-back-to-zero test "$(stat_value ipc_requests)" = 0

# --- SIGHUP: shares and users are read again.
printf '[extra]\n\tpath = /srv/extra\n' >> /etc/ksmbd/ksmbd.conf
kill -HUP $dpid
check sighup-reloads-shares wait_for 5 sh -c "echo 'share extra' > $probe; grep -q 'path=/srv/extra' $probe"

# --- a stopped daemon is lost after "ipc timeout" (3 s), then comes back.
kill -STOP $dpid
check stopped-daemon-lost wait_for 10 dmesg_has "daemon (pid $dpid) silent for more than 3s: lost"
check lost-daemon-login-fails sh -c "echo 'login tester' > $probe; grep -q 'error -107' $probe"
check lost-daemon-server-keeps-running is_state running
kill -CONT $dpid
check resumed-daemon-answers wait_for 10 dmesg_has "daemon (pid $dpid) answers again"
check resumed-daemon-login sh -c "echo 'login tester' > $probe; grep -q 'login tester: ok' $probe"

# --- kill -9: noticed at once through the socket closing; the server keeps
# serving, requests wait "ipc timeout" for a daemon, then fail; a new
# daemon takes over and its configuration replaces the old one.
kill -9 $dpid
wait $dpid 2>/dev/null
check killed-daemon-noticed wait_for 5 dmesg_has "daemon (pid $dpid) is gone: daemon exited (netlink socket closed)"
check killed-daemon-server-keeps-serving is_state running
check killed-daemon-no-pid wait_for 5 daemon_pid_is 0
check killed-daemon-login-fails sh -c "echo 'login tester' > $probe; grep -q 'error -107' $probe"
old=$dpid
start_daemon
check restarted-daemon-takes-over wait_for 10 daemon_pid_is $dpid
check restarted-daemon-logged dmesg_has "daemon (pid $dpid) took over the running server; configuration reloaded"
check restarted-daemon-login sh -c "echo 'login tester' > $probe; grep -q 'login tester: ok' $probe"

# --- the fault case (issue 25): SIGKILL the daemon while a 32 MiB copy
# runs onto a cifs mount; the copy completes intact, a logon begun while
# no daemon is there waits for the one restarted a second later (as
# systemd's Restart= would), and nothing is left behind.
fault_mnt=/mnt/ipc-fault
mkdir -p $fault_mnt
modprobe cifs 2>/dev/null
chown tester:tester /srv/share
head -c 32M /dev/urandom > /tmp/fault.src
check fault-mount mount -t cifs //127.0.0.1/share $fault_mnt \
	-o username=tester,password=tester,vers=3.1.1,cache=none
# 64 KiB at a time with a pause between: the kill lands mid-copy.
python3 -c '
import sys, time
with open(sys.argv[1], "rb") as src, open(sys.argv[2], "wb") as dst:
    while True:
        b = src.read(65536)
        if not b:
            break
        dst.write(b)
        time.sleep(0.01)
' /tmp/fault.src $fault_mnt/fault.bin &
cpid=$!
wait_for 20 sh -c "[ \$(stat -c %s /srv/share/fault.bin 2>/dev/null || echo 0) -gt 4194304 ]"
check fault-copy-running kill -0 $cpid
kill -9 $dpid
wait $dpid 2>/dev/null
check fault-daemon-gone wait_for 5 daemon_pid_is 0
python3 "$VM_TOP/tests/vm/clients/smb2auth.py" --prefix fault-logon login_311 > /tmp/fault-logon.out 2>&1 &
lpid=$!
sleep 1
start_daemon
check fault-daemon-back wait_for 10 daemon_pid_is $dpid
# Without the fix the server was reset and the copy hung in the client.
wait_for 120 sh -c "! kill -0 $cpid"
kill $cpid 2>/dev/null
wait $cpid
check fault-copy-completes test $? = 0
wait $lpid
check fault-logon-waited sh -c "grep -q '^PASS' /tmp/fault-logon.out && ! grep -q '^FAIL' /tmp/fault-logon.out"
check fault-copy-intact cmp /tmp/fault.src /srv/share/fault.bin
umount $fault_mnt
rm -f /srv/share/fault.bin /tmp/fault.src
live_zero() {
	for k in connections sessions trees open_files works buffers ipc_requests; do
		[ "$(stat_value $k)" = 0 ] || return 1
	done
}
check fault-live-zero wait_for 10 live_zero

# --- SIGTERM: clean exit 0, pid file removed; the server keeps serving
# (a restart drops nobody) until an explicit shutdown.
kill -TERM $dpid
wait $dpid
check sigterm-exit-0 test $? = 0
check sigterm-pidfile-removed test ! -e $lock
check sigterm-server-keeps-serving is_state running
check sigterm-shutdown-logged dmesg_has "daemon (pid $dpid) is gone: daemon shut down"
check kill-server-stops sh -c "echo hard > /sys/class/ksmbd-control/kill_server"
check kill-server-state-waiting wait_for 5 is_state waiting-daemon

# --- a hostile daemon: every malformed message dropped and logged.
python3 "$VM_TOP/tests/vm/cases/ipc-daemon-hostile.py" || CHECK_FAILED=1
# It started the server (port 4451) and left it running, as any daemon does.
check hostile-left-server-running is_state running
check hostile-server-shut-down sh -c "echo hard > /sys/class/ksmbd-control/kill_server"
check hostile-left-server-waiting wait_for 5 is_state waiting-daemon
check hostile-no-requests-left test "$(stat_value ipc_requests)" = 0

# --- rmmod under a running daemon; insmod again and the daemon restarts it.
start_daemon
check daemon-again-running wait_for 10 is_state running
check rmmod-with-daemon rmmod ksmbd
check daemon-noticed-rmmod wait_for 10 log_has "ksmbd module unloaded; waiting for it to return"
check daemon-survives-rmmod kill -0 $dpid
n=$(dmesg | grep -c "daemon (pid $dpid) started the server")
check insmod-again insmod "$ko"
check daemon-restarts-server wait_for 10 is_state running
check daemon-restart-logged sh -c "test \$(dmesg | grep -c 'daemon (pid $dpid) started the server') = $((n + 1))"
check login-after-reinsmod sh -c "echo 'login tester' > $probe; grep -q 'login tester: ok' $probe"

# --- ksmbd.control.
check control-debug-toggle sh -c "'$control' -d ipc | grep -q '\[ipc\]'"
check control-debug-toggle-back sh -c "'$control' -d ipc | grep -qv '\[ipc\]'"
check control-shutdown "$control" -s
check control-shutdown-daemon-exits wait_for 10 sh -c "! kill -0 $dpid"
wait $dpid
check control-shutdown-daemon-status-0 test $? = 0
check control-shutdown-state-waiting is_state waiting-daemon
# --- daemonized (no -n): pid file, then ksmbd.control -s stops it.
"$mountd" -c /etc/ksmbd/ksmbd.conf
check daemonized-starts-server wait_for 10 is_state running
check daemonized-pidfile sh -c "kill -0 \$(cat $lock)"
check daemonized-control-stop "$control" -s
check daemonized-exits wait_for 10 sh -c "! test -e $lock"

# --- ksmbd.control --reload, ksmbd.addshare, mountd --port, and
# "bind interfaces only": a dummy interface (traffic stays in the guest)
# with an IPv4 and an IPv6 address; only those are listened on.
smb() { timeout 30 smbclient -p 4450 "$@" -U tester%tester -c ls; }
listens_on() { ss -ltnH 'sport = :4450' | awk '{print $4}' | grep -qxF -- "$1"; }
# The module's count of listening sockets is what ss shows (the dummy
# interface's link-local IPv6 address counts too).
listeners_match() { test "$(stat_value listeners)" = "$(ss -ltnH 'sport = :4450' | wc -l)"; }
ip link add ksmbd0 type dummy && ip link set ksmbd0 up &&
	ip addr add 10.77.0.1/24 dev ksmbd0 && ip -6 addr add fd77::1/64 dev ksmbd0 nodad
check dummy-interface ip addr show dev ksmbd0
cat > /tmp/bind.conf <<CONF
[global]
	netbios name = KSMBD VM	; a blank, as ksmbd-tools' default has
	bind interfaces only = yes
	interfaces = ksmbd0
	share:fake_fscaps = 64
	smb2 max read = 4MB
[share]
	path = /srv/share
	read only = no
CONF
: > $log
"$mountd" -n -v --port=4450 -c /tmp/bind.conf >> $log 2>&1 &
dpid=$!
check bind-server-running wait_for 10 is_state running
check bind-port-option test "$(stat_value listen_port)" = 4450
check bind-listens-v4 wait_for 5 listens_on 10.77.0.1:4450
check bind-listens-v6 listens_on '[fd77::1]:4450'
check bind-listener-count listeners_match
check_not bind-no-wildcard sh -c "ss -ltnH 'sport = :4450' | awk '{print \$4}' | grep -qE '^(\*|0\.0\.0\.0|\[::\]):4450\$'"
check bind-v4-serves smb //10.77.0.1/share
check bind-v6-serves smb -I fd77::1 //ksmbd/share
check_not bind-loopback-refused smb //127.0.0.1/share
check fake-fscaps-reported python3 - "$VM_TOP/tests" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
from smb2.client import Tree
class Env:
    host, port, user, password = "10.77.0.1", 4450, "tester", "tester"
cl = Tree(Env)
r, cr = cl.create("", disp=1, options=1, access=0x00120089)
assert cr, "open the share root: 0x%x" % r.status
r, data = cl.query_info(cr.fid, 2, 5, 1024)    # FileFsAttributeInformation
assert r.status == 0, "query: 0x%x" % r.status
attrs = struct.unpack_from("<I", data, 0)[0]
assert attrs & 64, "FILE_SUPPORTS_SPARSE_FILES not reported: 0x%x" % attrs
PY
# An address added while serving gets a listener; a removed one loses it,
# and moved to an interface not in the list it stays unreachable. Both
# changes fire ksmbd:ksmbd_listen (tracing.sh's workload never does).
tr=/sys/kernel/tracing
echo > $tr/trace
echo 1 > $tr/events/ksmbd/ksmbd_listen/enable
ip addr add 10.77.0.2/24 dev ksmbd0
check bind-added-address-listens wait_for 10 listens_on 10.77.0.2:4450
check bind-added-address-serves smb //10.77.0.2/share
ip addr del 10.77.0.2/24 dev ksmbd0
check bind-removed-address-closed wait_for 10 sh -c "! ss -ltnH 'sport = :4450' | grep -q 10.77.0.2"
echo 0 > $tr/events/ksmbd/ksmbd_listen/enable
grep 'ksmbd_listen:' $tr/trace | sed 's/^/# /'
check listen-event-start grep -q "ksmbd_listen: addr=10.77.0.2:4450 what='start' err=0" $tr/trace
check listen-event-stop sh -c "grep 'ksmbd_listen: addr=10.77.0.2:4450' $tr/trace | grep -qv \"what='start'\""
ip link add ksmbd1 type dummy && ip link set ksmbd1 up && ip addr add 10.77.0.2/24 dev ksmbd1
check_not bind-other-interface-refused smb //10.77.0.2/share
ip -6 addr add fd77::2/64 dev ksmbd0 nodad
check bind-added-v6-listens wait_for 10 listens_on '[fd77::2]:4450'
check bind-listener-count-after-changes listeners_match
# --reload and ksmbd.addshare reach the running daemon.
check control-reload sh -c "'$control' --reload | grep -q 'ksmbd.mountd (pid $dpid) reloads'"
check control-reload-logged wait_for 5 log_has "configuration reloaded"
check addshare-tells-daemon sh -c "'$b/daemon/ksmbd.addshare' -a extra -o 'path = /srv/share' -c /tmp/bind.conf | grep -q 'ksmbd.mountd (pid $dpid) reloads'"
check addshare-share-served wait_for 10 sh -c "timeout 30 smbclient -p 4450 //10.77.0.1/extra -U tester%tester -c ls"
check control-shutdown-bound "$control" --shutdown
wait $dpid
check bind-no-listener-left sh -c "! ss -ltnH 'sport = :4450' | grep -q LISTEN"
ip link del ksmbd1
ip link del ksmbd0
check rmmod-final rmmod ksmbd
check_not control-without-module "$control" -c
check control-without-module-says-why sh -c "'$control' -c 2>&1 | grep -q 'not loaded'"
check daemon-log-no-sanitizer-report sh -c "! grep -q 'Sanitizer' $log"
echo "--- ksmbd.mountd log (tail)"
tail -15 $log
finish
