#!/bin/bash
# vm: --server --timeout 5400
# Long: every smbtorture suite issue 12 names (tests/torture/full.list),
# against tests/torture/expected; too slow under TCG for make check.
. "$VM_TOP/tests/vm/lib/check.sh"
t=$VM_TOP/tests/torture
if ! command -v smbtorture >/dev/null; then
	skip smbtorture "smbtorture not installed (Debian package samba-testsuite)"
	finish
fi
# smb2.lease.v2_request* need directory leases (off by default)
require_server
daemon_restart_with "smb3 directory leases = yes"
# on ext4 (tests/torture/ext4-share): DOS attributes and EAs need xattrs
if ! url=$("$t/ext4-share" torture); then
	skip smbtorture "no ext4 share for smbtorture (see above)"
	finish
fi
TORTURE_OUT=$VM_OUT/torture "$t/run" -t 600 "$t/full.list" "$url" || CHECK_FAILED=1
finish
