#!/bin/bash
# vm: --timeout 600
# security.NTACL against Samba's own smbd (vfs objects = acl_xattr, an
# ext4 share, port 445: no ksmbd in this guest, and smbcacls has no
# port option): proto/ntacl.c through
# build/tests/ntacl-tool.
#  - ours_*: a value our encoder made for a file (plain, with a POSIX ACL)
#    or a directory (with and without a default ACL), written with
#    setfattr; smbcacls must show exactly our owner, group and ACEs,
#    which Samba does only when our sys_acl_hash matches its own hash
#    of the file's permissions.
#  - stale_*: after a local chmod Samba drops that value (its mapping of
#    the mode instead) and our decoder refuses it (-EBADMSG) too.
#  - samba_*: ACLs set through smbcacls, stored by Samba; our decoder
#    must accept them against the files' permissions (hash_ok) and give
#    the owner, group and ACEs smbcacls shows.
# The values Samba wrote are left in build/vm/ntacl/ (the unit tests'
# fixtures in tests/unit/proto/ntacl/ are such captures).
. "$VM_TOP/tests/vm/lib/check.sh"
tool=$VM_TOP/build/tests/ntacl-tool
mksd=$VM_TOP/tests/ntacl/mksd.py
sdtext=$VM_TOP/tests/ntacl/sdtext.py
out=$VM_TOP/build/vm/ntacl
d=/run/ntacl-smb
conf=$d/smb.conf
share=/srv/ntacl

if [ ! -x "$tool" ]; then
	fail tool "$tool missing: make build/tests/ntacl-tool (make vmtest builds it)"
	finish
fi
rm -rf "$out" && mkdir -p "$out"
mkdir -p $d/lock $d/state $d/cache $d/private $d/pid $d/log $d/ncalrpc "$share"
modprobe ext4 2>/dev/null
modprobe loop 2>/dev/null
if ! { truncate -s 64M /tmp/ntacl.img && mkfs.ext4 -q -F /tmp/ntacl.img &&
       mount -o loop /tmp/ntacl.img "$share"; } >"$out/mount.log" 2>&1; then
	fail ext4 "no ext4 share: $(tail -2 "$out/mount.log" | tr '\n' ' ')"
	finish
fi
chmod 0777 "$share"
id tester >/dev/null 2>&1 || useradd -M tester
uid=$(id -u tester) gid=$(id -g tester)
cat > $conf <<EOF
[global]
  workgroup = WORKGROUP
  netbios name = NTACLTEST
  server role = standalone server
  map to guest = never
  lock directory = $d/lock
  state directory = $d/state
  cache directory = $d/cache
  private dir = $d/private
  pid directory = $d/pid
  ncalrpc dir = $d/ncalrpc
  log file = $d/log/smbd.log
  log level = 2
  disable spoolss = yes
  load printers = no
  smb ports = 445
  interfaces = lo
  bind interfaces only = yes
[ntacl]
  path = $share
  read only = no
  vfs objects = acl_xattr
EOF
(echo tester; echo tester) | smbpasswd -c $conf -s -a tester >"$out/smbpasswd.log" 2>&1
# its own session: smbd signals its process group when it ends
setsid smbd -F --no-process-group -s $conf </dev/null >"$out/smbd.out" 2>&1 &
smbd_pid=$!
if ! wait_for 60 listening; then
	fail smbd "smbd does not listen on 445: $(tail -3 $d/log/smbd.log | tr '\n' ' ')"
	finish
fi

cacls() {
	smbcacls -s $conf //127.0.0.1/ntacl -U tester%tester --numeric "$@" 2>&1
}
xattr() {
	getfattr --absolute-names -n "$2" -e hex "$1" 2>/dev/null | sed -n "s/^$2=0x//p"
}
# what smbcacls shows of a file: owner, group, ACEs
shown() {
	cacls "$1" | grep -E '^(OWNER|GROUP|ACL):'
}
# NAME PATH: the file's value and permission state, as a fixture
dump() {
	{
		echo "value=$(xattr "$2" security.NTACL)"
		stat -c $'uid=%u\ngid=%g\nmode=%f' "$2"
		echo "acl=$(xattr "$2" system.posix_acl_access)"
		echo "def=$(xattr "$2" system.posix_acl_default)"
		shown "$(basename "$2")" | sed 's/^/shown=/'
	} > "$out/$1.txt"
}
new() {	# new f|d NAME MODE
	if [ "$1" = d ]; then mkdir "$share/$2"; else touch "$share/$2"; fi
	chown tester:tester "$share/$2"
	chmod "$3" "$share/$2"
}
# ours NAME SD_HEX: our value set on NAME; Samba must show exactly our SD
ours() {
	local name=$1 sd=$2 val
	if ! val=$("$tool" encode "$sd" "$share/$name" 2>&1); then
		fail "ours_$name" "encode: $val"
		return 1
	fi
	setfattr -n security.NTACL -v "0x$val" "$share/$name"
	python3 "$sdtext" "$sd" > "$out/$name.want"
	shown "$name" > "$out/$name.shown"
	if diff -u "$out/$name.want" "$out/$name.shown" > "$out/$name.diff"; then
		pass "ours_$name"
	else
		fail "ours_$name" "smbcacls shows $(head -c 300 "$out/$name.shown" | tr '\n' ' ')"
	fi
	echo "$val" > "$out/$name.value"
}

dom=S-1-5-21-1111-2222-3333
ours_sd=$(python3 "$mksd" $dom-1001 $dom-513 D:S-1-1-0:2 \
	A:$dom-1001:1f01ff A:S-1-1-0:1200a9 A:S-1-22-1-$uid:1301bf)
dir_sd=$(python3 "$mksd" $dom-1001 $dom-513 A:$dom-1001:1f01ff:3 \
	A:S-1-1-0:1200a9:b A:S-1-22-1-$uid:1301bf:2)
new f plain 0640
ours plain "$ours_sd"
new d dir 0750
ours dir "$dir_sd"
new f withacl 0640
setfacl -m u:65534:r,g:0:rw "$share/withacl"
ours withacl "$ours_sd"
new d dirdef 0770
setfacl -m u:65534:rx "$share/dirdef"
setfacl -d -m u:65534:rx,g:0:rwx "$share/dirdef"
ours dirdef "$dir_sd"

# stale: a local chmod since the value was written
chmod 0600 "$share/plain"
shown plain > "$out/plain.stale"
if grep -q "$dom" "$out/plain.stale"; then
	fail stale_samba_drops "Samba still serves the value: $(tr '\n' ' ' < "$out/plain.stale")"
elif ! grep -q '^ACL:' "$out/plain.stale"; then
	fail stale_samba_drops "smbcacls shows no ACL: $(tr '\n' ' ' < "$out/plain.stale")"
else
	pass stale_samba_drops
fi
"$tool" decode "$(cat "$out/plain.value")" "$share/plain" > "$out/plain.decode" 2>&1
rc=$?
if [ $rc = 3 ] && grep -q '^result -74$' "$out/plain.decode"; then
	pass stale_we_drop
else
	fail stale_we_drop "decode exited $rc: $(tr '\n' ' ' < "$out/plain.decode")"
fi

# samba NAME ACLS: Samba stores an ACL; we decode it as smbcacls shows it
samba() {
	local name=$1 acls=$2 res val
	res=$(cacls "$name" --set "$acls")
	if [ $? != 0 ]; then
		fail "samba_$name" "smbcacls --set: $(echo "$res" | tail -2 | tr '\n' ' ')"
		return 1
	fi
	dump "samba_$name" "$share/$name"
	val=$(xattr "$share/$name" security.NTACL)
	"$tool" decode "$val" "$share/$name" > "$out/$name.decode" 2>&1
	res=$?
	if [ $res != 0 ] || ! grep -q '^hash_ok 1$' "$out/$name.decode" ||
	   ! grep -q '^version 4$' "$out/$name.decode"; then
		fail "samba_$name" "decode exited $res: $(head -4 "$out/$name.decode" | tr '\n' ' ')"
		return 1
	fi
	python3 "$sdtext" "$(sed -n 's/^sd //p' "$out/$name.decode")" > "$out/$name.ours"
	shown "$name" > "$out/$name.shown"
	if diff -u "$out/$name.shown" "$out/$name.ours" > "$out/$name.diff" &&
	   grep -q "S-1-22-1-$uid" "$out/$name.ours"; then
		pass "samba_$name"
	else
		fail "samba_$name" "$(head -c 300 "$out/$name.diff" | tr '\n' ' ')"
	fi
}
new f sfile 0644
samba sfile "ACL:S-1-22-1-$uid:0/0x0/0x001f01ff,ACL:S-1-22-2-$gid:0/0x0/0x001200a9,ACL:S-1-1-0:0/0x0/0x001200a9"
new d sdir 0755
samba sdir "ACL:S-1-22-1-$uid:0/0x3/0x001f01ff,ACL:S-1-22-2-$gid:0/0x3/0x001301bf,ACL:S-1-1-0:0/0xb/0x001200a9"

if [ $CHECK_FAILED != 0 ]; then
	cp $d/log/smbd.log "$out/smbd.log"
	echo "(smbd's log: build/vm/ntacl/smbd.log)"
fi
kill -TERM $smbd_pid
finish
