#!/bin/bash
# vm: --server --timeout 600
# In make check-full, not make check, until this is fixed: in the final
# integration run of 2026-12-03 the guest oopsed during the raw-client
# cases after share_modes (NULL dereference in __fput from delayed_fput:
# a struct file released twice or with a dangling path — see file.c
# file_release and the delete-on-close / related-compound paths). The
# same case had passed 50/50 in an earlier run, so it is intermittent.
# Files: CREATE/CLOSE/READ/WRITE/FLUSH, pipes and IOCTL. First the raw
# client (clients/smb2files.py: bad names, dispositions, create contexts,
# WRITE offsets at the element's edges, READ past EOF, share modes,
# delete-on-close, related compounds, srvsvc, FSCTLs, teardown), then the
# real clients: mount.cifs (large files, a tree copy, symlink escape,
# Unix permissions, server-side copy) and smbclient. Ends with every
# open file closed and a clean rmmod.
. "$VM_TOP/tests/vm/lib/check.sh"
files=$VM_TOP/tests/vm/clients/smb2files.py
share=/srv/share
mnt=/mnt/ksmbd-files
opts=username=tester,password=tester,vers=3.1.1,cache=none

listening() { ss -ltnH 'sport = :445' | grep -q LISTEN; }
files_zero() { [ "$(stat_value open_files)" = 0 ]; }
live_is_zero() {
	for k in open_files trees sessions connections works; do
		[ "$(stat_value "$k")" = 0 ] || return 1
	done
}
# Bytes the cifs client wrote over the wire, all shares.
cifs_written() {
	sed -n 's/.*Bytes written: *\([0-9]*\).*/\1/p' /proc/fs/cifs/Stats |
		awk '{ s += $1 } END { print s + 0 }'
}

if ! listening; then
	fail server "nothing listens on port 445 (see start-server output)"
	finish
fi

# Escape attempts planted on the server side.
ln -sfn /etc $share/link
ln -sfn /etc/passwd $share/flink
mkdir -p $share/rootonly
chown root:root $share/rootonly
chmod 0755 $share/rootonly

# ---- raw client ----
python3 "$files" --prefix "$CASE" || CHECK_FAILED=1
check open-files-zero-after-raw wait_for 10 files_zero

# ---- mount.cifs ----
mkdir -p $mnt
if ! timeout 60 mount -t cifs //127.0.0.1/share $mnt -o $opts 2>/tmp/mount.err; then
	fail mount "$(tail -1 /tmp/mount.err)"
else
	pass mount
	for size in 1 8; do
		dd if=/dev/urandom of=/tmp/in$size bs=1M count=$size status=none
		check "dd-write-${size}M" dd if=/tmp/in$size of=$mnt/f$size bs=1M status=none
		check "cmp-${size}M" cmp /tmp/in$size $mnt/f$size
		check "cmp-${size}M-on-disk" cmp /tmp/in$size $share/f$size
	done
	# Names that differ only in case are one file to an SMB client
	# (ipt_ttl.h / ipt_TTL.h): copy a tree without such pairs.
	rm -rf /tmp/tree && cp -a /usr/include/linux /tmp/tree
	(cd /tmp/tree && find . | sort -f | uniq -Di | xargs -r rm -rf)
	check cp-tree cp -a /tmp/tree $mnt/linux
	check diff-tree diff -r /tmp/tree $mnt/linux
	check diff-tree-on-disk diff -r /tmp/tree $share/linux
	# Case-insensitive lookup: another spelling names the same file.
	check case-insensitive-open cmp /tmp/tree/types.h $mnt/LINUX/Types.H
	check rm-tree rm -rf $mnt/linux
	check_not tree-gone test -e $share/linux
	check mkdir mkdir $mnt/newdir
	check mkdir-on-disk test -d $share/newdir
	check rmdir rmdir $mnt/newdir
	check_not rmdir-on-disk test -e $share/newdir
	check unlink rm $mnt/f1
	check_not unlink-on-disk test -e $share/f1
	check owner-is-user sh -c "[ \$(stat -c %U $share/f8) = tester ]"
	check_not symlink-escape cat $mnt/link/passwd
	check_not symlink-file cat $mnt/flink
	check_not no-unix-write-permission touch $mnt/rootonly/x
	check_not no-unix-write-permission-on-disk test -e $share/rootonly/x

	# Server-side copy: the data must not cross the wire.
	dd if=/dev/urandom of=$mnt/big bs=1M count=32 status=none
	before=$(cifs_written)
	check cp-reflink cp --reflink=auto $mnt/big $mnt/big.copy
	after=$(cifs_written)
	echo "cifs bytes written during the copy: $((after - before))"
	if [ $((after - before)) -lt $((1 << 20)) ]; then
		pass copychunk-no-data-on-wire
	else
		fail copychunk-no-data-on-wire "$((after - before)) bytes written"
	fi
	check copychunk-identical cmp $share/big $share/big.copy
	rm -f $mnt/big $mnt/big.copy $mnt/f8
	umount $mnt
fi
check open-files-zero-after-umount wait_for 10 files_zero

# ---- smbclient ----
echo "smbclient put/get" > /tmp/sc.txt
out=$(cd /tmp && timeout 60 smbclient //127.0.0.1/share -U tester%tester -m SMB3 \
	-c 'mkdir scdir; put sc.txt scdir/sc.txt; get scdir/sc.txt sc.back' 2>&1)
echo "$out" | sed 's/^/smbclient: /' | head -6
check smbclient-put-on-disk cmp /tmp/sc.txt $share/scdir/sc.txt
check smbclient-get cmp /tmp/sc.txt /tmp/sc.back
out=$(timeout 60 smbclient //127.0.0.1/share -U tester%tester -m SMB3 \
	-c 'del scdir/sc.txt; rmdir scdir' 2>&1)
echo "$out" | sed 's/^/smbclient: /' | head -6
check_not smbclient-del test -e $share/scdir/sc.txt
check_not smbclient-rmdir test -e $share/scdir

# ---- teardown ----
rm -rf $share/link $share/flink $share/rootonly
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
