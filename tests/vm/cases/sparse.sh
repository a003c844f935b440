#!/bin/bash
# vm: --server --timeout 500
# Sparse files on an ext4 share (the demo share is tmpfs, which keeps no
# user.* xattrs on the 6.1 guest kernel, so no DOS attributes): the raw
# cases of clients/smb2sparse.py (advertised, SET_SPARSE stored and
# reported, allocated ranges and SET_ZERO_DATA against the file's blocks),
# then smbtorture's smb2.ioctl sparse tests, each listed with its result
# (tests/torture/expected records them).
. "$VM_TOP/tests/vm/lib/check.sh"
require_server
if ! url=$("$VM_TOP/tests/torture/ext4-share" sparse); then
	skip sparse "no ext4 share (see above)"
	finish
fi
python3 "$VM_TOP/tests/vm/clients/smb2sparse.py" --prefix "$CASE" \
	--share sparse --path /srv/sparse || CHECK_FAILED=1
if command -v smbtorture >/dev/null; then
	for t in sparse_file_flag sparse_file_attr sparse_dir_flag \
		sparse_set_nobuf sparse_set_oversize sparse_qar \
		sparse_qar_malformed sparse_punch sparse_hole_dealloc \
		sparse_perms sparse_lock sparse_qar_ob1 sparse_qar_multi \
		sparse_qar_overflow; do
		out=$(timeout 60 smbtorture "$url" -U tester%tester \
			"smb2.ioctl.$t" 2>&1)
		echo "$out" | grep -E '^(success|failure|skip|error)' |
			sed "s/^/torture: /"
	done
fi
check live-zero wait_for 10 live_is_zero sessions trees connections
finish
