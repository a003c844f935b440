#!/bin/bash
# vm: --server --timeout 2400
# In make check-full: the long versions of smb2-files.sh (tens of minutes
# under TCG). All of /usr/include (thousands of files, symlinks kept as
# Minshall-French links) copied with cp -a over mount.cifs 3.1.1 and 2.1,
# compared with diff -r, du and find; fio with crc32c verification over a
# 256 MiB file, sequential and random. Ends with a clean rmmod.
. "$VM_TOP/tests/vm/lib/check.sh"
share=/srv/share
mnt=/mnt/ksmbd-files-full
opts=username=tester,password=tester,cache=none,mfsymlinks

same() { [ "$1" = "$2" ] || { echo "'$1' != '$2'"; return 1; }; }
# Bytes of the regular files below $1, by stat (find -type f trusts the
# directory entry's type, which the cifs client reports as regular for a
# Minshall-French symlink).
filebytes() {
	(cd "$1" && find . -print0 | xargs -0 stat -c '%F|%s' |
		awk -F'|' '$1 ~ /^regular/ { s += $2 } END { print s + 0 }')
}

require_server

# Names that differ only in case are one file to an SMB client: drop them.
rm -rf /tmp/inc && cp -a /usr/include /tmp/inc
(cd /tmp/inc && find . | sort -f | uniq -Di | xargs -r rm -rf)
echo "tree: $(cd /tmp/inc && find . | wc -l) entries, $(filebytes /tmp/inc) bytes"

mkdir -p $mnt
for vers in 3.1.1 2.1; do
	if ! timeout 60 mount -t cifs //127.0.0.1/share $mnt -o $opts,vers=$vers 2>/tmp/mount.err; then
		fail mount-$vers "$(tail -1 /tmp/mount.err)"
		continue
	fi
	pass mount-$vers
	check cp-include-$vers cp -a /tmp/inc $mnt/inc
	check diff-include-$vers diff -r --no-dereference /tmp/inc $mnt/inc
	check find-count-$vers same "$(cd /tmp/inc && find . | wc -l)" "$(cd $mnt/inc && find . | wc -l)"
	check du-files-$vers same "$(filebytes /tmp/inc)" "$(filebytes $mnt/inc)"
	if [ $vers = 3.1.1 ]; then
		check fio-seq-256M fio --name=seq --filename=$mnt/fio.seq --size=256M \
			--bs=1M --rw=write --ioengine=psync --verify=crc32c \
			--verify_fatal=1 --verify_state_save=0 --output=/dev/null
		check fio-rand-256M fio --name=rand --filename=$mnt/fio.rand --size=256M \
			--bs=64k --rw=randwrite --ioengine=psync --verify=crc32c \
			--verify_fatal=1 --verify_state_save=0 --output=/dev/null
		rm -f $mnt/fio.seq $mnt/fio.rand
	fi
	check rm-include-$vers rm -rf $mnt/inc
	check_not rm-include-$vers-on-disk test -e $share/inc
	umount $mnt
done
check_not cifs-kept-server-inode-numbers sh -c 'dmesg | grep -q "Autodisabling the use of server inode numbers"'

check live-zero wait_for 20 live_is_zero
if [ -f /run/ksmbd.mountd.pid ]; then
	kill "$(cat /run/ksmbd.mountd.pid)" 2>/dev/null
	sleep 1
fi
check rmmod rmmod ksmbd
check_not rmmod-live-objects-left sh -c 'dmesg | grep -q "unloading with live objects left"'
check_not no-warn sh -c 'dmesg | grep -qE "WARNING:|BUG:|general protection"'
finish
