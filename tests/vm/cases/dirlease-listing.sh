#!/bin/bash
# vm: --server --timeout 900
# Directory leases and the Linux cifs client's directory cache (issue 28):
# a share whose root holds 10,000 files, mounted with "smb3 directory
# leases = yes". Debian 12's cifs (6.1) opens the directories it lists
# under an RH lease and then serves their listings from memory, the share
# root and subdirectories alike (measured: also with actimeo=0 and
# cache=none). The second listing must send no QUERY_DIRECTORY (counted
# on the server by the ksmbd_request_start tracepoint, on the client by
# /proc/fs/cifs/Stats). A file created and one deleted by another SMB
# client (smbclient), and a file a local process creates in the share's
# directory, break the lease: the client drops its cache, and the next
# listing is fresh (QUERY_DIRECTORY again) and shows the change.
. "$VM_TOP/tests/vm/lib/check.sh"
tr=/sys/kernel/tracing
m=/mnt/ksmbd-dl
dir=/srv/dlroot
n=10000

require_server
mkdir -p $dir/sub $m
python3 -c "
for i in range($n): open('$dir/f%05d' % i, 'w').close()
for i in range(300): open('$dir/sub/s%05d' % i, 'w').close()"
chown -R tester:tester $dir
cat >> /etc/ksmbd/ksmbd.conf <<CONF

[dlroot]
	path = $dir
	read only = no
CONF
daemon_restart_with "smb3 directory leases = yes"

# Only QUERY_DIRECTORY requests (command 14) and the lease events.
echo 0 > $tr/events/ksmbd/enable
echo 'command == 14' > $tr/events/ksmbd/ksmbd_request_start/filter
for e in request_start oplock_grant oplock_break_sent; do
	echo 1 > $tr/events/ksmbd/ksmbd_$e/enable
done
echo > $tr/trace

qd_server() { grep -c 'ksmbd_request_start: .*cmd=QUERY_DIRECTORY' $tr/trace; }
qd_client() {	# QueryDirectories of every tree of the client's mounts
	awk '/QueryDirectories:/ { s += $2 } END { print s + 0 }' /proc/fs/cifs/Stats
}
owners() { stat_value oplocks; }
# listing NAME DIR: list DIR (names only) into /tmp/NAME; qd and cqd get
# the QUERY_DIRECTORY requests it took, on the server and the client.
listing() {
	local c0
	cat $tr/trace >> /tmp/dl-trace
	echo > $tr/trace
	c0=$(qd_client)
	ls -f "$2" > /tmp/$1
	qd=$(qd_server)
	cqd=$(($(qd_client) - c0))
	echo "$1: $(grep -c . /tmp/$1) names, QUERY_DIRECTORY server $qd client $cqd"
}
# fewer_owners N: fewer lease/oplock owners than N (the client closed a
# cached directory whose lease broke).
fewer_owners() { [ "$(owners)" -lt "$1" ]; }

if ! timeout 120 mount -t cifs //127.0.0.1/dlroot $m \
	-o username=tester,password=tester 2>/tmp/mount.err; then
	fail mount "$(tail -1 /tmp/mount.err)"
	finish
fi
pass mount
rm -f /tmp/dl-trace

# ---- the share root: 10,000 entries ----
listing root-1 $m
[ "$(grep -c '^f' /tmp/root-1)" = $n ] && pass root-first-lists-all ||
	fail root-first-lists-all "$(grep -c '^f' /tmp/root-1) of $n"
[ "$qd" -gt 0 ] && pass root-first-queries ||
	fail root-first-queries "no QUERY_DIRECTORY reached the server"
# The mount or the listing opened the root under an RH lease.
check root-lease-rh grep -q 'ksmbd_oplock_grant: .*lease=.* to=RH$' /tmp/dl-trace $tr/trace
listing root-2 $m
[ "$qd" = 0 ] && pass root-second-no-query-directory ||
	fail root-second-no-query-directory "$qd QUERY_DIRECTORY on the server"
[ "$cqd" = 0 ] && pass root-second-client-stats ||
	fail root-second-client-stats "QueryDirectories +$cqd in /proc/fs/cifs/Stats"
check root-second-same cmp -s /tmp/root-1 /tmp/root-2

# ---- a subdirectory ----
listing sub-1 $m/sub
[ "$(grep -c '^s' /tmp/sub-1)" = 300 ] && [ "$qd" -gt 0 ] &&
	pass sub-first || fail sub-first "$(grep -c '^s' /tmp/sub-1) names, $qd queries"
listing sub-2 $m/sub
[ "$qd" = 0 ] && pass sub-second-no-query-directory ||
	fail sub-second-no-query-directory "$qd QUERY_DIRECTORY on the server"

# ---- another SMB client creates a file, then deletes one ----
# changed NAME WHAT: after a change that broke the root's lease (traced),
# once the client closed the cached root (an owner fewer), the next
# listing queries the server and WHAT (a grep -x pattern, "!" first for
# absent) holds in it; the one after is served from the cache again.
changed() {
	local name=$1 want=$2
	check $name-break wait_for 20 grep -q 'ksmbd_oplock_break_sent: .*lease=.*from=RH to=$' $tr/trace
	check $name-cache-dropped wait_for 20 fewer_owners "$o0"
	listing $name-1 $m
	[ "$qd" -gt 0 ] && pass $name-fresh ||
		fail $name-fresh "the listing after the change was served from the cache"
	if [ "${want#!}" != "$want" ]; then
		check_not $name-listed grep -qx "${want#!}" /tmp/$name-1
	else
		check $name-listed grep -qx "$want" /tmp/$name-1
	fi
	listing $name-2 $m
	[ "$qd" = 0 ] && pass $name-cached-again ||
		fail $name-cached-again "$qd QUERY_DIRECTORY on the server"
}
o0=$(owners)
echo > $tr/trace
check smbclient-put timeout 60 smbclient //127.0.0.1/dlroot -U tester%tester \
	-c "put /etc/hostname from-smbclient"
changed smbclient-create from-smbclient
o0=$(owners)
echo > $tr/trace
check smbclient-del timeout 60 smbclient //127.0.0.1/dlroot -U tester%tester \
	-c "del f00042"
changed smbclient-delete '!f00042'

# ---- a local process ----
o0=$(owners)
echo > $tr/trace
touch $dir/from-local
changed local-create from-local

umount $m
echo 0 > $tr/events/ksmbd/enable
echo 0 > $tr/events/ksmbd/ksmbd_request_start/filter
check live-zero wait_for 20 live_is_zero sessions trees connections open_files oplocks
check_not no-warn sh -c 'dmesg | grep -qE "WARNING:|BUG:|general protection"'
finish
