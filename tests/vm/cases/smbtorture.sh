#!/bin/bash
# vm: --server --timeout 1200
# Samba's smbtorture against our server: the quick suites of
# tests/torture/quick.list, each checked against tests/torture/expected
# (a listed pass that fails, or a new failure, fails; a listed failure is
# reported as a to-do), with the server and the kernel log checked after
# every suite. The full list runs in make check-full
# (tests/vm/cases-full/smbtorture-full.sh).
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
TORTURE_OUT=$VM_OUT/torture "$t/run" -t 240 "$t/quick.list" "$url" || CHECK_FAILED=1
finish
