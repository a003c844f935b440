#!/bin/bash
# vm: --server --timeout 600
# Files: CREATE/CLOSE/READ/WRITE/FLUSH, pipes and IOCTL. First the raw
# client (clients/smb2files.py: bad names, dispositions, create contexts,
# WRITE offsets at the element's edges, READ past EOF, share modes,
# delete-on-close on data handles, related compounds, file ids, CREATEs
# racing teardown, srvsvc, FSCTLs), then the real clients: mount.cifs 3.1.1
# (large files, a tree copy with du/find/diff, renames, hard links, sizes
# and times, fio with verification, symlink escape, Unix permissions,
# server-side copy seen in the trace, case-insensitive names), a 2.1 mount,
# and smbclient. The cifs client must keep server inode numbers throughout.
# Ends with every open file closed and a clean rmmod. The long versions
# (all of /usr/include, fio on 256 MiB) are cases-full/smb2-files-full.sh;
# SET_INFO details and a 5,000-entry directory are in smb2-query.sh.
. "$VM_TOP/tests/vm/lib/check.sh"
files=$VM_TOP/tests/vm/clients/smb2files.py
share=/srv/share
mnt=/mnt/ksmbd-files
opts=username=tester,password=tester,cache=none
trace=/sys/kernel/tracing

files_zero() { [ "$(stat_value open_files)" = 0 ]; }
# Bytes the cifs client wrote over the wire, all shares.
cifs_written() {
	sed -n 's/.*Bytes written: *\([0-9]*\).*/\1/p' /proc/fs/cifs/Stats |
		awk '{ s += $1 } END { print s + 0 }'
}
same() { [ "$1" = "$2" ] || { echo "'$1' != '$2'"; return 1; }; }
# du's total over the regular files of a tree, in bytes.
filebytes() { (cd "$1" && find . -type f -print0 | du -cb --files0-from=- | tail -1 | cut -f1); }

require_server

# Escape attempts planted on the server side.
ln -sfn /etc $share/link
ln -sfn /etc/passwd $share/flink
mkdir -p $share/rootonly
chown root:root $share/rootonly
chmod 0755 $share/rootonly

# A share on a 1 MiB file system, for writes that run out of room.
mkdir -p /srv/tiny
mount -t tmpfs -o size=1m tiny /srv/tiny && chown tester:tester /srv/tiny
cat >> /etc/ksmbd/ksmbd.conf <<CONF

[tiny]
	path = /srv/tiny
	read only = no
CONF
kill -HUP "$(cat /run/ksmbd.mountd.pid)"
sleep 1

# ---- raw client ----
python3 "$files" --prefix "$CASE" --share-dir $share --tiny-share tiny ||
	CHECK_FAILED=1
check open-files-zero-after-raw wait_for 10 files_zero

# ---- mount.cifs 3.1.1 ----
mkdir -p $mnt
if ! timeout 60 mount -t cifs //127.0.0.1/share $mnt -o $opts,vers=3.1.1 2>/tmp/mount.err; then
	fail mount "$(tail -1 /tmp/mount.err)"
else
	pass mount
	for size in 1 8; do
		dd if=/dev/urandom of=/tmp/in$size bs=1M count=$size status=none
		check "dd-write-${size}M" dd if=/tmp/in$size of=$mnt/f$size bs=1M status=none
		check "cmp-${size}M" cmp /tmp/in$size $mnt/f$size
		check "cmp-${size}M-on-disk" cmp /tmp/in$size $share/f$size
	done
	# The 1 MiB WRITEs' receive buffers are kept for reuse (work.c), and
	# given back when the kernel asks its shrinkers for memory.
	check rx-pool-keeps-write-buffers test "$(stat_value rx_pool_bytes)" -gt 0
	echo 2 > /proc/sys/vm/drop_caches
	check rx-pool-given-back-under-pressure test "$(stat_value rx_pool_bytes)" = 0
	# Names that differ only in case are one file to an SMB client
	# (ipt_ttl.h / ipt_TTL.h): copy a tree without such pairs.
	rm -rf /tmp/tree && cp -a /usr/include/linux /tmp/tree
	(cd /tmp/tree && find . | sort -f | uniq -Di | xargs -r rm -rf)
	check cp-tree cp -a /tmp/tree $mnt/linux
	check diff-tree diff -r /tmp/tree $mnt/linux
	check diff-tree-on-disk diff -r /tmp/tree $share/linux
	check find-count same "$(cd /tmp/tree && find . | wc -l)" "$(cd $mnt/linux && find . | wc -l)"
	check du-files same "$(filebytes /tmp/tree)" "$(filebytes $mnt/linux)"

	# Renames, replace-if-exists, hard links, unlink, rmdir of non-empty.
	echo one > $mnt/r1; echo two > $mnt/r2
	check rename-file mv $mnt/r1 $mnt/linux/r1b
	check rename-file-on-disk test -f $share/linux/r1b -a ! -e $share/r1
	check rename-replace mv -f $mnt/linux/r1b $mnt/r2
	check rename-replace-on-disk grep -qx one $share/r2
	check rename-dir mv $mnt/linux/netfilter $mnt/nf
	check rename-dir-on-disk diff -r /tmp/tree/netfilter $share/nf
	check hardlink ln $mnt/r2 $mnt/r2link
	check hardlink-same-inode same "$(stat -c %i $share/r2)" "$(stat -c %i $share/r2link)"
	check hardlink-same-inode-client same "$(stat -c %i $mnt/r2)" "$(stat -c %i $mnt/r2link)"
	check_not rmdir-non-empty rmdir $mnt/nf
	check rmdir-non-empty-kept test -d $share/nf
	check truncate-shrink truncate -s 100 $mnt/f8
	check truncate-shrink-on-disk same "$(stat -c %s $share/f8)" 100
	check truncate-extend truncate -s 5000000 $mnt/f8
	check truncate-extend-on-disk same "$(stat -c %s $share/f8)" 5000000
	check truncate-extend-zeros cmp -n 4999900 -i 100:0 $mnt/f8 /dev/zero
	check touch-d touch -d '2001-02-03 04:05:06 UTC' $mnt/r2
	check touch-d-on-disk same "$(stat -c %Y $share/r2)" 981173106

	# Data integrity under fio's own verification.
	check fio-seq fio --name=seq --filename=$mnt/fio.seq --size=24M --bs=1M \
		--rw=write --ioengine=psync --verify=crc32c --verify_fatal=1 --verify_state_save=0 --output=/dev/null
	check fio-rand fio --name=rand --filename=$mnt/fio.rand --size=24M --bs=64k \
		--rw=randwrite --ioengine=psync --verify=crc32c --verify_fatal=1 --verify_state_save=0 --output=/dev/null
	rm -f $mnt/fio.seq $mnt/fio.rand

	check rm-tree rm -rf $mnt/linux $mnt/nf
	check_not tree-gone test -e $share/linux
	check mkdir mkdir $mnt/newdir
	check mkdir-on-disk test -d $share/newdir
	check rmdir rmdir $mnt/newdir
	check_not rmdir-on-disk test -e $share/newdir
	check unlink rm $mnt/f1 $mnt/r2link
	check_not unlink-on-disk test -e $share/f1
	check owner-is-user same "$(stat -c %U $share/f8)" tester
	check_not symlink-escape cat $mnt/link/passwd
	check_not symlink-file cat $mnt/flink
	check_not no-unix-write-permission touch $mnt/rootonly/x
	check_not no-unix-write-permission-on-disk test -e $share/rootonly/x

	# Server-side copy: the data must not cross the wire, and the
	# COPYCHUNK IOCTLs show up in the trace.
	dd if=/dev/urandom of=$mnt/big bs=1M count=32 status=none
	echo 1 > $trace/events/ksmbd/ksmbd_request_start/enable
	echo > $trace/trace
	before=$(cifs_written)
	check cp-reflink cp --reflink=auto $mnt/big $mnt/big.copy
	after=$(cifs_written)
	echo 0 > $trace/events/ksmbd/ksmbd_request_start/enable
	echo "cifs bytes written during the copy: $((after - before))"
	if [ $((after - before)) -lt $((1 << 20)) ]; then
		pass copychunk-no-data-on-wire
	else
		fail copychunk-no-data-on-wire "$((after - before)) bytes written"
	fi
	n=$(grep -c 'cmd=IOCTL' $trace/trace)
	echo "IOCTL requests traced during the copy: $n"
	check copychunk-traced test "$n" -ge 1
	check copychunk-identical cmp $share/big $share/big.copy
	rm -f $mnt/big $mnt/big.copy $mnt/f8
	umount $mnt
fi

# ---- case-insensitive names (nocase: one dentry per name, as against Windows) ----
mkdir -p $share/CaseDir && echo readme > $share/CaseDir/readme.txt
chown -R tester:tester $share/CaseDir
if timeout 60 mount -t cifs //127.0.0.1/share $mnt -o $opts,vers=3.1.1,nocase 2>/tmp/mount.err; then
	check case-insensitive-open grep -qx readme $mnt/CASEDIR/README.TXT
	check case-insensitive-create sh -c "echo new > $mnt/casedir/ReadMe.Txt"
	check case-insensitive-create-one-file same "$(ls $share/CaseDir)" readme.txt
	check case-insensitive-create-wrote grep -qx new $share/CaseDir/readme.txt
	check case-preserving-create sh -c "echo x > $mnt/CaseDir/MixedCase.TXT && test -f $share/CaseDir/MixedCase.TXT"
	umount $mnt
else
	fail mount-nocase "$(tail -1 /tmp/mount.err)"
fi
rm -rf $share/CaseDir

# ---- mount.cifs 2.1 ----
if timeout 60 mount -t cifs //127.0.0.1/share $mnt -o $opts,vers=2.1 2>/tmp/mount.err; then
	pass mount-2.1
	check cp-tree-2.1 cp -a /tmp/tree/netfilter $mnt/nf21
	check diff-tree-2.1 diff -r /tmp/tree/netfilter $mnt/nf21
	check rename-2.1 mv $mnt/nf21 $mnt/nf21b
	one=$(cd /tmp/tree/netfilter && find . -maxdepth 1 -type f -printf "%f\n" | head -1)
	check hardlink-2.1 ln "$mnt/nf21b/$one" $mnt/link21
	check hardlink-2.1-on-disk same "$(stat -c %h $share/link21)" 2
	check rm-tree-2.1 rm -rf $mnt/nf21b $mnt/link21
	check_not rm-tree-2.1-on-disk test -e $share/nf21b
	umount $mnt
else
	fail mount-2.1 "$(tail -1 /tmp/mount.err)"
fi
check open-files-zero-after-umount wait_for 10 files_zero
check_not cifs-kept-server-inode-numbers sh -c 'dmesg | grep -q "Autodisabling the use of server inode numbers"'

# ---- smbclient ----
echo "smbclient put/get" > /tmp/sc.txt
sc() { (cd /tmp && timeout 60 smbclient //127.0.0.1/share -U tester%tester -m SMB3 -c "$1" 2>&1); }
out=$(sc 'mkdir scdir; put sc.txt scdir/sc.txt; get scdir/sc.txt sc.back; rename scdir/sc.txt scdir/sc2.txt; allinfo scdir/sc2.txt; ls scdir/*')
echo "$out" | sed 's/^/smbclient: /' | head -30
check smbclient-put-on-disk test -d $share/scdir
check smbclient-get cmp /tmp/sc.txt /tmp/sc.back
check smbclient-rename cmp /tmp/sc.txt $share/scdir/sc2.txt
check smbclient-allinfo grep -q 'stream: \[::\$DATA\], 18 bytes' <<<"$out"
check smbclient-ls grep -qE '^ +sc2.txt +[A-Z]* +18 ' <<<"$out"
check_not smbclient-no-error sh -c "grep -v 'getting alt name' | grep -q NT_STATUS_" <<<"$out"
out=$(sc 'del scdir/sc2.txt; rmdir scdir')
echo "$out" | sed 's/^/smbclient: /' | head -6
check_not smbclient-del test -e $share/scdir/sc2.txt
check_not smbclient-rmdir test -e $share/scdir

# ---- teardown ----
rm -rf $share/link $share/flink $share/rootonly $share/r2
check live-zero-after-clients wait_for 20 live_is_zero
grep -E '^(open_files|sessions|trees|connections) ' /sys/class/ksmbd-control/stats
if [ -f /run/ksmbd.mountd.pid ]; then
	kill "$(cat /run/ksmbd.mountd.pid)" 2>/dev/null
	sleep 1
fi
check rmmod rmmod ksmbd
check_not rmmod-live-objects-left sh -c 'dmesg | grep -q "unloading with live objects left"'
check_not no-warn sh -c 'dmesg | grep -qE "WARNING:|BUG:|general protection"'
finish
