#!/bin/bash
# vm: --server --timeout 1500
# Stored security descriptors ("acl xattr = yes", issue 27) on an ext4
# share: smbcacls --numeric shows, adds, changes and removes ACEs and
# reads back what it set, in security.NTACL and in the POSIX ACL made
# from the DACL; a folder's inheritable ACE reaches a new folder, and its
# default ACL a local file; FILE_PERSISTENT_ACLS; a second user's opens
# the mode refuses stay refused; smbtorture's ACL tests
# (tests/torture/acl.list, judged by expected-acl) on a share of their
# own; the cifs client's getcifsacl, setcifsacl and smbinfo secdesc;
# READONLY kept apart from the mode; access-based enumeration.
. "$VM_TOP/tests/vm/lib/check.sh"
t=$VM_TOP/tests/torture
userb=aclb passb=Acl-b-pw7

require_server
for p in smbcacls smbclient getfacl; do
	command -v $p >/dev/null || { skip tools "$p not installed"; finish; }
done

id $userb >/dev/null 2>&1 || useradd -M -d /srv $userb
"$VM_TOP/build/daemon/ksmbd.adduser" -a $userb -p $passb -i /etc/ksmbd/ksmbdpwd.db >/dev/null 2>&1 ||
	"$VM_TOP/build/daemon/ksmbd.adduser" -u $userb -p $passb -i /etc/ksmbd/ksmbdpwd.db >/dev/null 2>&1
uida=$(id -u tester) uidb=$(id -u $userb) gida=$(id -g tester)
sida=S-1-22-1-$uida sidb=S-1-22-1-$uidb sidga=S-1-22-2-$gida

if ! url=$("$t/ext4-share" acl "acl xattr = yes"); then
	skip acl "no ext4 share (see above)"
	finish
fi
dir=/srv/acl

cacls() {	# FILE [smbcacls options...]: as tester, numeric
	local f=$1; shift
	smbcacls "$url" "$f" -U tester%tester --numeric "$@"
}
cacls_aces() {	# FILE: the ACL lines only, in order
	cacls "$1" | grep '^ACL:'
}
has_line() {	# FILE LINE: smbcacls shows LINE; else what it shows, on one line
	local out
	out=$(cacls "$1" 2>&1)
	grep -qxF "$2" <<<"$out" && return 0
	echo "$out" | tr '\n' ' '
	return 1
}
lacks() {	# FILE TEXT: smbcacls' answer has no TEXT
	local out
	out=$(cacls "$1" 2>&1)
	grep -qF "$2" <<<"$out" || return 0
	echo "$out" | tr '\n' ' '
	return 1
}
as_b() {	# smbclient commands as the second user
	smbclient "$url" -U $userb%$passb -c "$1" 2>&1
}
as_a() {
	smbclient "$url" -U tester%tester -c "$1" 2>&1
}

echo data-a > /tmp/acl-src
echo data-b > /tmp/acl-srcb

# ---- show, add, modify, remove ----
export url userb passb
export -f cacls cacls_aces as_a as_b stat_value has_line lacks
check put-file bash -c "as_a 'put /tmp/acl-src f1' >/dev/null; test -f $dir/f1"
check show-owner bash -c "has_line f1 'OWNER:$sida'"
check show-group bash -c "has_line f1 'GROUP:$sidga'"
check persistent-acls bash -c "[ \$(( \$(python3 $VM_TOP/tests/vm/clients/smb2acl.py acl tester tester fsattr) & 8 )) = 8 ]"
check stored-xattr bash -c "getfattr -n security.NTACL -e hex $dir/f1 | grep -q '^security.NTACL=0x0400'"
check add-ace cacls f1 -a "ACL:$sidb:ALLOWED/0x0/0x00120089"
check add-reads-back bash -c "has_line f1 'ACL:$sidb:0/0x0/0x00120089'"
check modify-ace cacls f1 -M "ACL:$sidb:ALLOWED/0x0/0x001301bf"
check modify-reads-back bash -c "has_line f1 'ACL:$sidb:0/0x0/0x001301bf' && \
	lacks f1 'ACL:$sidb:0/0x0/0x00120089'"
check posix-acl-follows bash -c "getfacl -n $dir/f1 | grep -q '^user:$uidb:rwx'"
check remove-ace cacls f1 -D "ACL:$sidb:ALLOWED/0x0/0x001301bf"
check remove-reads-back bash -c "lacks f1 '$sidb'"
check posix-acl-removed bash -c "! getfacl -n $dir/f1 | grep -q 'user:$uidb:'"

# ---- inheritance ----
# smbcacls -a leaves the folder's DACL without AUTO_INHERITED, so the ACEs
# a new file gets carry no INHERITED flag (as Samba and Windows give
# them); a folder whose DACL has it (set through the raw client below)
# passes them on marked INHERITED.
check mkdir-inh bash -c "as_a 'mkdir inh' >/dev/null; test -d $dir/inh"
check add-inheritable cacls inh -a "ACL:$sidb:ALLOWED/0x3/0x00120089"
check new-dir-inherits bash -c "as_a 'mkdir inh/sub' >/dev/null; \
	has_line inh/sub 'ACL:$sidb:0/0x3/0x00120089'"
check auto-inherited-set python3 $VM_TOP/tests/vm/clients/smb2acl.py acl tester tester autoinherit inh
check local-file-default-acl bash -c "touch $dir/inh/local && getfacl -n $dir/inh/local | grep -q '^user:$uidb:r'"

# ---- a second user: what the mode refuses stays refused ----
check put-secret bash -c "as_a 'put /tmp/acl-src secret' >/dev/null; chmod 600 $dir/secret"
check b-refused-by-mode bash -c "as_b 'get secret /tmp/acl-out' | grep -q NT_STATUS_ACCESS_DENIED"
check b-cannot-write bash -c "as_b 'put /tmp/acl-srcb secret' | grep -q NT_STATUS_ACCESS_DENIED"
check b-content-unchanged cmp $dir/secret /tmp/acl-src
check_not local-b-cannot-write setpriv --reuid=$uidb --regid=$uidb --clear-groups bash -c "echo x >> $dir/secret"

# ---- and what it allows stays allowed ----
check put-denied bash -c "as_a 'put /tmp/acl-src denied' >/dev/null; chmod 644 $dir/denied"
check b-reads-by-mode bash -c "rm -f /tmp/acl-out; as_b 'get denied /tmp/acl-out' >/dev/null; cmp /tmp/acl-out /tmp/acl-src"
check a-still-reads bash -c "rm -f /tmp/acl-out; as_a 'get denied /tmp/acl-out' >/dev/null; cmp /tmp/acl-out /tmp/acl-src"

# ---- a DENY ACE refuses its trustee, and the tracepoint names the ACE ----
tp=/sys/kernel/tracing/events/ksmbd/ksmbd_access_denied
check deny-ace cacls denied -a "ACL:$sidb:DENIED/0x0/0x00120089"
echo 1 > $tp/enable && echo > /sys/kernel/tracing/trace
check b-refused-by-deny bash -c "as_b 'get denied /tmp/acl-out' | grep -q NT_STATUS_ACCESS_DENIED"
check a-reads-despite-deny bash -c "rm -f /tmp/acl-out; as_a 'get denied /tmp/acl-out' >/dev/null; cmp /tmp/acl-out /tmp/acl-src"
check trace-access-denied grep -q "ksmbd_access_denied: .*path='[^']*denied'.*sid='$sidb' stored=1" /sys/kernel/tracing/trace
echo 0 > $tp/enable

# ---- the cifs client: getcifsacl, setcifsacl, smbinfo ----
cmnt=/mnt/acl-cifs
mkdir -p $cmnt
if mount -t cifs //127.0.0.1/acl $cmnt -o username=tester,password=tester,vers=3.1.1,cifsacl; then
	pass cifs-mount
	check getcifsacl-owner bash -c "getcifsacl -r $cmnt/f1 2>/dev/null | grep -q '^OWNER:$sida\$'"
	check setcifsacl-add setcifsacl -a "ACL:$sidb:ALLOWED/0x0/0x00120089" $cmnt/f1
	check setcifsacl-reads-back bash -c "has_line f1 'ACL:$sidb:0/0x0/0x00120089'"
	check getcifsacl-shows-it bash -c "getcifsacl -r $cmnt/f1 2>/dev/null | grep -q '^ACL:$sidb:'"
	check smbinfo-secdesc bash -c "smbinfo secdesc $cmnt/f1 | grep -q '$sidb'"
	check setcifsacl-delete setcifsacl -D "ACL:$sidb:ALLOWED/0x0/0x00120089" $cmnt/f1
	check setcifsacl-deleted bash -c "lacks f1 '$sidb'"
	umount $cmnt
else
	fail cifs-mount "mount -t cifs -o cifsacl failed"
fi

# ---- a rename needs ADD_FILE on the folder it goes into ----
# The folder's DACL gives its owner list, traverse and DELETE_CHILD but
# not ADD_FILE: the POSIX ACL says rwx (w from DELETE_CHILD), so only the
# descriptor's check can refuse the rename into it.
check mkdir-locked bash -c "as_a 'mkdir locked; put /tmp/acl-src mv1' >/dev/null; test -d $dir/locked && test -f $dir/mv1"
check locked-dacl cacls locked --set "ACL:$sida:ALLOWED/0x0/0x001200e9"
check locked-posix-writable bash -c "getfacl -n $dir/locked | grep -q '^user::rwx'"
check rename-into-refused bash -c "as_a 'rename mv1 locked\\mv1' | grep -q NT_STATUS_ACCESS_DENIED"
check rename-source-stays bash -c "test -f $dir/mv1 && ! test -e $dir/locked/mv1"
check rename-elsewhere-ok bash -c "as_a 'rename mv1 mv2' >/dev/null; test -f $dir/mv2"

# ---- READONLY is the stored attribute, not a descriptor's missing write ----
attrs_of() {	# FILE: the attribute letters smbclient's allinfo shows
	as_a "allinfo $1" | sed -n 's/^attributes: \([A-Z]*\) .*/\1/p'
}
export -f attrs_of
check put-ro1 bash -c "as_a 'put /tmp/acl-src ro1' >/dev/null; test -f $dir/ro1"
check read-only-dacl cacls ro1 --set "ACL:S-1-1-0:ALLOWED/0x0/0x00120089"
check mode-without-write bash -c "[ \$(( \$(stat -c %#a $dir/ro1) & 0222 )) = 0 ]"
check not-readonly bash -c "a=\$(attrs_of ro1); [ -n "\$a" ] && [[ \$a != *R* ]]"
check deletable bash -c "as_a 'del ro1' >/dev/null; ! test -e $dir/ro1"
check put-ro2 bash -c "as_a 'put /tmp/acl-src ro2' >/dev/null; test -f $dir/ro2"
check setmode-readonly bash -c "as_a 'setmode ro2 +r' >/dev/null; [[ \$(attrs_of ro2) == *R* ]]"
check readonly-keeps-mode bash -c "[ \$(( \$(stat -c %#a $dir/ro2) & 0200 )) != 0 ]"
check readonly-no-write bash -c "as_a 'put /tmp/acl-srcb ro2' | grep -q NT_STATUS_ACCESS_DENIED"
check readonly-unchanged cmp $dir/ro2 /tmp/acl-src
check readonly-no-delete bash -c "as_a 'del ro2' | grep -q NT_STATUS_CANNOT_DELETE"
check readonly-cleared bash -c "as_a 'setmode ro2 -r' >/dev/null; as_a 'del ro2' >/dev/null; ! test -e $dir/ro2"

# ---- access-based enumeration ("hide unreadable") ----
if hurl=$("$t/ext4-share" hideunread "acl xattr = yes" "hide unreadable = yes"); then
	hcacls() { smbcacls "$hurl" "$1" -U tester%tester --numeric "${@:2}"; }
	hls() {	# USER%PASS: the names listed in abe/
		smbclient "$hurl" -U "$1" -c 'ls abe/*' 2>&1 | awk 'NF > 4 {print $1}'
	}
	export hurl
	export -f hcacls hls
	check abe-setup bash -c "smbclient $hurl -U tester%tester -c 'mkdir abe; put /tmp/acl-src abe/open; put /tmp/acl-src abe/mine' >/dev/null; test -f /srv/hideunread/abe/mine"
	check abe-owner-only hcacls abe/mine --set "ACL:$sida:ALLOWED/0x0/0x001f01ff"
	check abe-owner-sees bash -c "hls tester%tester | grep -qx mine"
	check abe-other-sees-open bash -c "hls $userb%$passb | grep -qx open"
	check_not abe-other-misses-mine bash -c "hls $userb%$passb | grep -qx mine"
	check abe-shareflag bash -c "[ \$(( \$(python3 $VM_TOP/tests/vm/clients/smb2acl.py hideunread tester tester shareflags) & 0x800 )) != 0 ]"
else
	skip abe "no ext4 share for hide unreadable"
fi

# ---- SACLs: only with SeSecurityPrivilege (a share's administrator) ----
if aurl=$("$t/ext4-share" audit "acl xattr = yes" "admin users = tester"); then
	sacl_of() {	# USER PASSWORD: smb2acl.py's sacl probe of /srv/audit/f
		python3 "$VM_TOP/tests/vm/clients/smb2acl.py" audit "$1" "$2" sacl f 2>&1
	}
	export -f sacl_of
	check audit-setup bash -c "smbclient $aurl -U tester%tester -c 'put /tmp/acl-src f' >/dev/null; test -f /srv/audit/f"
	check sacl-admin-sets-and-reads bash -c "out=\$(sacl_of tester tester); [ \"\$out\" = 'sacl 1 2 0xc0 0x00120089 S-1-1-0' ] || { echo \"\$out\"; false; }"
	check sacl-stored bash -c "getfattr -n security.NTACL -e hex /srv/audit/f | grep -q '^security.NTACL=0x0400'"
	check sacl-user-refused bash -c "out=\$(sacl_of $userb $passb); [ \"\$out\" = PRIVILEGE_NOT_HELD ] || { echo \"\$out\"; false; }"
else
	skip sacl "no ext4 share for the SACL checks"
fi

# ---- smbtorture's ACL tests on a share of their own ----
if command -v smbtorture >/dev/null && turl=$("$t/ext4-share" acltorture "acl xattr = yes"); then
	TORTURE_OUT=$VM_OUT/torture-acl "$t/run" -t 600 -e "$t/expected-acl" \
		"$t/acl.list" "$turl" || CHECK_FAILED=1
else
	skip torture "smbtorture or its share missing"
fi

check no-files-left wait_for 10 live_is_zero open_files
finish
