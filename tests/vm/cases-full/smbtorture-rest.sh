#!/bin/bash
# vm: --server --timeout 3600
# Long: the SMB2 suites of smbtorture that full.list does not run
# (tests/torture/rest.list; together the whole smb2 list), against
# tests/torture/expected.
. "$VM_TOP/tests/vm/lib/check.sh"
t=$VM_TOP/tests/torture
if ! command -v smbtorture >/dev/null; then
	skip smbtorture "smbtorture not installed (Debian package samba-testsuite)"
	finish
fi
# on ext4 (tests/torture/ext4-share): DOS attributes and EAs need xattrs
if ! url=$("$t/ext4-share" torture); then
	skip smbtorture "no ext4 share for smbtorture (see above)"
	finish
fi
TORTURE_OUT=$VM_OUT/torture "$t/run" -t 600 -l /srv/torture "$t/rest.list" "$url" ||
	CHECK_FAILED=1
finish
