#!/bin/bash
# vm: --server --net --timeout 600
# Multichannel a client reaches: FSCTL_QUERY_NETWORK_INTERFACE_INFO against
# the guest's own addresses and channels bound over each listed address
# (clients/smb2mchan.py); then the guest's cifs client (6.1) mounting with
# multichannel,max_channels=2 opens a second channel, seen from both ends
# (/proc/fs/cifs/DebugData, /proc/fs/ksmbd/clients, the session_channel
# trace), and 8 MiB written over the two channels read back intact.
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
	username=tester,password=tester,vers=3.1.1,multichannel,max_channels=2,rsize=65536,wsize=65536; then
	fail cifs-mount "mount -o multichannel failed"
	finish
fi
pass cifs-mount
sed 's/^/DebugData: /' /proc/fs/cifs/DebugData
check cifs-second-channel grep -q 'Extra Channels: 1' /proc/fs/cifs/DebugData
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
umount $mnt
check live-zero-after-umount wait_for 15 live_is_zero sessions trees connections

out=$(timeout 60 smbclient //10.0.2.16/share -U tester%tester -m SMB3 -c 'quit' 2>&1)
check smbclient-smb3 test -z "$out"
finish
