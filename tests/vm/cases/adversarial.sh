#!/bin/bash
# vm: --server --timeout 900
# The hostile-client suite (tests/adversarial/): named cases per bug class,
# races between connections, floods, with a legitimate client running
# throughout and live-object counts checked after every group; then the
# module must unload cleanly. Cases whose command has no handler yet check
# the answer they get and print SKIP.
. "$VM_TOP/tests/vm/lib/check.sh"
adv=$VM_TOP/tests/adversarial
export PYTHONDONTWRITEBYTECODE=1
params=/sys/module/ksmbd/parameters
share=/srv/share

if [ ! -d $params ] || ! ss -ltnH 'sport = :445' | grep -q LISTEN; then
	fail server-listening "nothing listens on port 445 (see start-server output)"
	finish
fi

# Short deadlines so that the floods are cut within the run.
# 5 s, not less: on a loaded TCG host a well-behaved client (the first
# probe) took longer than 2 s from accept to NEGOTIATE once.
echo 5000 > $params/negotiate_timeout_ms
echo 15 > $params/session_timeout_s

# A planted escape route for the path cases: links out of the share.
ln -sfn /etc $share/adv_link
ln -sfn /etc/passwd $share/adv_flink
# Someone else's file in the share, for the permission cases.
echo root > $share/adv_rootfile
chown root:root $share/adv_rootfile
chmod 0644 $share/adv_rootfile
modprobe cifs 2>/dev/null

# max allocation reservation small enough that what the code before the
# bound reserved in full (5 x 3/4 of it) fits the guest's tmpfs share
# (allocation-reservation). [global] applies at the daemon's start: a
# restarted daemon takes the running server over with it.
alloc_budget_mib=64
restart_daemon() {
	local old new i
	old=$(cat /run/ksmbd.mountd.pid)
	kill "$old"
	for i in $(seq 1 50); do
		kill -0 "$old" 2>/dev/null || break
		sleep 0.1
	done
	"$VM_TOP/build/daemon/ksmbd.mountd" -n >> /var/log/ksmbd.mountd.log 2>&1 &
	new=$!
	echo $new > /run/ksmbd.mountd.pid
	for i in $(seq 1 100); do
		[ "$(stat_value daemon_pid)" = "$new" ] && return 0
		sleep 0.1
	done
	return 1
}
if [ -s /run/ksmbd.mountd.pid ]; then
	sed -i "/^\[global\]/a\\	max allocation reservation = ${alloc_budget_mib}M" \
		/etc/ksmbd/ksmbd.conf
	check daemon-restarted restart_daemon
	export ADV_ALLOC_BUDGET=$((alloc_budget_mib << 20))
fi

# Arguments (case or group names) narrow the run.
python3 "$adv/run.py" --cifs --flood 500 --race-seconds 8 "$@" || CHECK_FAILED=1

live_zero() {
	for k in connections sessions trees open_files works buffers \
		byte_range_locks notify_watches; do
		[ "$(stat_value $k)" = 0 ] || return 1
	done
}
check final-live-zero wait_for 10 live_zero
stat_line=$(grep -E \
	'^(connections|sessions|trees|open_files|works|buffers|byte_range_locks|notify_watches) ' \
	/sys/class/ksmbd-control/stats | tr '\n' ' ')
echo "# adversarial: live objects at the end: $stat_line"

# Unload: the daemon first, then the module with nothing left behind.
if [ -s /run/ksmbd.mountd.pid ]; then
	kill "$(cat /run/ksmbd.mountd.pid)" 2>/dev/null
	sleep 1
fi
check rmmod rmmod ksmbd
check module-gone sh -c '! grep -q "^ksmbd " /proc/modules'
check no-live-objects-at-unload sh -c '! dmesg | grep -q "unloading with live objects"'
check no-kernel-warnings sh -c '! dmesg | grep -Eq "BUG:|WARNING:|Oops|general protection|corruption|Redzone|Poison overwritten"'
rm -f $share/adv_link $share/adv_flink $share/adv_rootfile
finish
