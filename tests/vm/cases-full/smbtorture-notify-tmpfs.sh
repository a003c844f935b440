#!/bin/bash
# vm: --server --timeout 2400
# Long: smbtorture's smb2.notify on the guest's tmpfs share (/srv/share),
# where user.* xattrs do not exist, one test at a time with a 120 s
# bound (tests/torture/notify-tmpfs.list, judged by expected): each must
# end, none may wait forever (issue 28 item 6: mask-change did, because
# an attribute tmpfs could not keep raised no change event).
. "$VM_TOP/tests/vm/lib/check.sh"
t=$VM_TOP/tests/torture
require_server
if ! command -v smbtorture >/dev/null; then
	skip smbtorture "smbtorture not installed (Debian package samba-testsuite)"
	finish
fi
TORTURE_OUT=$VM_OUT/torture "$t/run" -t 120 "$t/notify-tmpfs.list" \
	//127.0.0.1/share || CHECK_FAILED=1
finish
