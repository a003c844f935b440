#!/bin/bash
# vm: --server --net --timeout 600
# Multichannel a client reaches: FSCTL_QUERY_NETWORK_INTERFACE_INFO against
# the guest's own addresses and channels bound over each listed address
# (clients/smb2mchan.py); then the guest's cifs client (6.1) mounting with
# multichannel,max_channels=4 opens a second channel (or more), seen from
# both ends (/proc/fs/cifs/DebugData, /proc/fs/ksmbd/clients, the session_channel
# trace), 8 MiB written over the two channels read back intact, and a
# 48 MiB read that survives its second channel being killed (ss -K).
# The guest's NIC has one queue (no RSS_CAPABLE), so a client opens one
# channel per address: the guest gets a second address of its own on eth0
# (traffic stays inside the guest).
. "$VM_TOP/tests/vm/lib/check.sh"
mc=$VM_TOP/tests/vm/clients/smb2mchan.py
tr=/sys/kernel/tracing
mnt=/mnt/ksmbd-mchan

require_server
ip addr add 10.0.2.16/24 dev eth0
ip -o addr show | sed 's/^/addr: /'

python3 "$mc" --prefix "$CASE" || CHECK_FAILED=1
check live-zero-after-raw wait_for 10 live_is_zero sessions trees connections

if [ -d $tr/events/ksmbd ]; then
	echo 1 > $tr/events/ksmbd/ksmbd_session_channel/enable
	echo > $tr/trace
fi
mkdir -p $mnt
# The mount's first channel goes to 10.0.2.15; the second to the other address.
if ! mount -t cifs //10.0.2.15/share $mnt -o \
	username=tester,password=tester,vers=3.1.1,multichannel,max_channels=4,rsize=65536,wsize=65536; then
	fail cifs-mount "mount -o multichannel failed"
	finish
fi
pass cifs-mount
sed 's/^/DebugData: /' /proc/fs/cifs/DebugData
check cifs-second-channel grep -qE "Extra Channels: [1-3]" /proc/fs/cifs/DebugData
sed 's/^/clients: /' /proc/fs/ksmbd/clients
check server-session-has-channel grep -qE '^sess .* channels=[0-9]+' /proc/fs/ksmbd/clients
[ -d $tr/events/ksmbd ] &&
	check channel-bind-traced grep -q 'ksmbd_session_channel: .* event=bind' $tr/trace

# 64 KiB reads and writes: the 8 MiB take 128 of each, which the client
# spreads over its channels.
chan=$(grep -oE '^sess .* channels=[0-9]+' /proc/fs/ksmbd/clients | head -1 |
	sed 's/.*channels=//')
chan_requests() {
	awk -v id="$chan" '$1 == "conn" && $2 == id { sub("requests=", "", $7); print $7 }' \
		/proc/fs/ksmbd/clients
}
before=$(chan_requests)
dd if=/dev/urandom of=/tmp/mchan.src bs=1M count=8 status=none
cp /tmp/mchan.src $mnt/mchan.dat && sync
echo 3 > /proc/sys/vm/drop_caches
check data-intact cmp /tmp/mchan.src $mnt/mchan.dat
after=$(chan_requests)
sed 's/^/clients after copy: /' /proc/fs/ksmbd/clients
# The channel carried part of the copy: at least 16 of its 256 requests.
if [ -n "$before" ] && [ -n "$after" ] && [ $((after - before)) -ge 16 ]; then
	pass channel-carried-io
else
	fail channel-carried-io "channel conn $chan: requests ${before:-?} -> ${after:-?}"
fi

# A channel killed mid-transfer (MS-SMB2 3.3.7.1: the session lives on its
# other channel): both ends of the second channel's TCP connection are
# destroyed (ss -K) while a 48 MiB read runs; the read completes over
# what is left and what it read is intact, the server lets the channel
# go and keeps the session.
dd if=/dev/urandom of=/tmp/mchan.big bs=1M count=48 status=none
cp /tmp/mchan.big $mnt/mchan.big && sync
echo 3 > /proc/sys/vm/drop_caches
# The kill is timed by the reader's progress, not by a sleep: small reads
# of cached data are answered so fast that 48 MiB can be over in under a
# second. 20 ms of delay on loopback (both channels' traffic stays in the
# guest) keeps every 1 MiB read's requests in flight for at least 40 ms;
# the channel is killed once 2 MiB have arrived (one ss for both ends: a
# second ss took as long as 30 more reads), and the reader must still be
# running after the kill.
rm -f /tmp/mchan.back
modprobe sch_netem && tc qdisc add dev lo root netem delay 20ms ||
	fail netem "could not delay loopback"
dd if=$mnt/mchan.big of=/tmp/mchan.back bs=1M iflag=direct status=none &
reader=$!
got=0
for _ in $(seq 3000); do
	got=$(stat -c %s /tmp/mchan.back 2>/dev/null || echo 0)
	[ "$got" -ge $((2 << 20)) ] && break
	kill -0 $reader 2>/dev/null || break
	sleep 0.01
done
chan_ports() {	# the client ends of the channel to the second address
	ss -tnH state established '( dst 10.0.2.16 and dport = 445 )' | awk '{print $3}'
}
doomed=$(chan_ports)
ss -K '( dst 10.0.2.16 and dport = 445 ) or ( src 10.0.2.16 and sport = 445 )' \
	>/dev/null 2>&1
killed_at=$(stat -c %s /tmp/mchan.back 2>/dev/null || echo 0)
if kill -0 $reader 2>/dev/null; then
	pass channel-kill-mid-transfer
else
	fail channel-kill-mid-transfer "the read was over before the channel was killed"
fi
# The kill took: the channel's connection is gone (the client may open a
# new one, from another port).
left=$(chan_ports | grep -Fxf <(echo "$doomed") || true)
if [ -n "$doomed" ] && [ -z "$left" ]; then
	pass channel-killed
else
	fail channel-killed "channel connection before: ${doomed:-none}; still there: ${left:-none}"
fi
echo "killed the channel between $got and $killed_at bytes read"
tc qdisc del dev lo root
ss -tn state established '( dport = :445 or sport = :445 )' | sed 's/^/ss after: /'
if wait $reader; then
	pass read-survives-channel-loss
else
	fail read-survives-channel-loss "dd exited $?"
fi
check read-intact-after-channel-loss cmp /tmp/mchan.big /tmp/mchan.back
check mount-usable-after-channel-loss ls $mnt/mchan.big
sed 's/^/clients after kill: /' /proc/fs/ksmbd/clients
sed 's/^/DebugData after kill: /' /proc/fs/cifs/DebugData
rm -f /tmp/mchan.big /tmp/mchan.back $mnt/mchan.big
umount $mnt
check live-zero-after-umount wait_for 15 live_is_zero sessions trees connections

out=$(timeout 60 smbclient //10.0.2.16/share -U tester%tester -m SMB3 -c 'quit' 2>&1)
check smbclient-smb3 test -z "$out"
finish
