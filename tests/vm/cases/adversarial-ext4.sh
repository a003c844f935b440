#!/bin/bash
# vm: --server --timeout 600
# The EA and security-descriptor cases of the hostile-client suite on a
# share whose file system stores them: the main suite's share is tmpfs,
# where the 6.1 guest kernel refuses user.* xattrs, so SET_INFO of EAs
# stops at NOT_SUPPORTED and the query side is never built. Here an ext4
# image (loop device, in the guest only) is added as share [ext4]. Also
# where a WRITE stalled mid-payload meets fsfreeze, which tmpfs lacks, and
# the authorization group (a second user "other", file flags, xattrs).
. "$VM_TOP/tests/vm/lib/check.sh"
adv=$VM_TOP/tests/adversarial
export PYTHONDONTWRITEBYTECODE=1
img=/tmp/adv-ext4.img mnt=/srv/ext4

if ! ss -ltnH 'sport = :445' | grep -q LISTEN; then
	fail server-listening "nothing listens on port 445 (see start-server output)"
	finish
fi
modprobe ext4 2>/dev/null
modprobe loop 2>/dev/null
mkdir -p $mnt
if ! { truncate -s 32M $img && mkfs.ext4 -q -F $img && mount -o loop $img $mnt; }; then
	skip ext4 "no ext4 image could be mounted"
	finish
fi
chown tester:tester $mnt
chmod 0775 $mnt
check setfattr-works sh -c "touch $mnt/x && setfattr -n user.t -v 1 $mnt/x && rm $mnt/x"
check addshare "$VM_TOP/build/daemon/ksmbd.addshare" -c /etc/ksmbd/ksmbd.conf \
	-a ext4 -o "path = $mnt" -o "read only = no"
kill -HUP "$(cat /run/ksmbd.mountd.pid)"
sleep 1
# someone else's file, for the permission case
echo root > $mnt/adv_rootfile
chown root:root $mnt/adv_rootfile
chmod 0644 $mnt/adv_rootfile
# a second account, for the authorization group's cross-user cases
id other >/dev/null 2>&1 || useradd -M -s /bin/bash other
"$VM_TOP/build/daemon/ksmbd.adduser" -a other -p other2 \
	-i /etc/ksmbd/ksmbdpwd.db >/dev/null || fail adduser-other "ksmbd.adduser failed"
kill -HUP "$(cat /run/ksmbd.mountd.pid)"
sleep 1

python3 "$adv/run.py" --share ext4 --share-path $mnt --no-legit \
	query-ea-output-sweep query-ea-bad-input set-ea-malformed \
	create-bad-sd-ea-contexts set-security-malformed query-security-tiny \
	query-info-tiny-output chmod-chown-not-owner compound-response-room \
	compound-response-room-mixed authz 2>&1 | tee /tmp/adv-ext4.log
[ "${PIPESTATUS[0]}" = 0 ] || CHECK_FAILED=1
# hostile stream names and stream limits (named streams need user xattrs)
python3 "$VM_TOP/tests/vm/clients/smb2files.py" --prefix "$CASE" \
	--stream-share ext4 stream_names || CHECK_FAILED=1
# a client stalled mid-WRITE must not hold off a freeze (tmpfs can't freeze)
python3 "$VM_TOP/tests/vm/clients/smb2files.py" --prefix "$CASE" \
	--freeze-share ext4 --freeze-path $mnt stalled_write_freeze || CHECK_FAILED=1
# reads of a file dropped from the page cache go to the workers
python3 "$VM_TOP/tests/vm/clients/smb2files.py" --prefix "$CASE" \
	--freeze-share ext4 --freeze-path $mnt cached_reads_cold || CHECK_FAILED=1
# every case above ran (no SKIP: the file system stores EAs)
check no-skips sh -c "! grep -q '^SKIP: adversarial/' /tmp/adv-ext4.log"
umount $mnt
finish
