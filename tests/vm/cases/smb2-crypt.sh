#!/bin/bash
# vm: --server --timeout 600
# SMB 3.x encryption and AES-GMAC signing: the raw client
# (clients/smb2crypt.py: every cipher, compounds, hostile transform
# headers, GMAC/CMAC/HMAC choice), mount.cifs with seal on 3.0, 3.0.2 and
# 3.1.1 (AES-128-GCM, then AES-256-GCM with require_gcm_256), smbclient
# with --client-protection=encrypt and =sign (AES-GMAC), a share
# with "smb3 encryption = required", then the global setting required and
# yes. Files are written and read back through every path and compared.
# A sealed mount's traffic is captured, also with directory leases on:
# after the session setup only transform headers, lease breaks included.
. "$VM_TOP/tests/vm/lib/check.sh"
b=$VM_TOP/build
crypt=$VM_TOP/tests/vm/clients/smb2crypt.py
tr=/sys/kernel/tracing
mnt=/mnt/ksmbd-crypt
src=/tmp/crypt-src
conf=/etc/ksmbd/ksmbd.conf

trace_has() { grep -q -- "$1" $tr/trace; }

require_server
echo 1 > $tr/events/ksmbd/enable
echo > $tr/trace

mkdir -p /srv/secure /srv/sealed && chown tester:tester /srv/secure /srv/sealed
cat >> $conf <<CONF

[secure]
	path = /srv/secure
	read only = no
	smb3 encryption = required

[sealed]
	path = /srv/sealed
	read only = no
	smb3 encryption = yes
CONF
kill -HUP "$(cat /run/ksmbd.mountd.pid)"
sleep 1

# A tree of files: sizes around page and credit boundaries, one large.
mkdir -p $src/sub
head -c 1048577 /dev/urandom > $src/big
head -c 4096 /dev/urandom > $src/page
head -c 65537 /dev/urandom > $src/sub/credit
echo hello > $src/sub/small

# ---- raw client ----
sf0=$(stat_value signing_failures)
df0=$(stat_value decrypt_failures)
python3 "$crypt" --prefix "$CASE" || CHECK_FAILED=1
sf1=$(stat_value signing_failures)
df1=$(stat_value decrypt_failures)
[ "$((df1 - df0))" -ge 3 ] && pass decrypt-failures-counted ||
	fail decrypt-failures-counted "decrypt_failures $df0 -> $df1"
[ "$((sf1 - sf0))" -ge 2 ] && pass signing-failures-counted ||
	fail signing-failures-counted "signing_failures $sf0 -> $sf1"
check decrypt-failure-traced trace_has 'request_rejected: .*reason=.\?decryption failed'

# ---- mount.cifs with seal ----
copy_and_compare() {	# NAME SHARE OPTIONS
	local name=$1 share=$2 opts=$3
	if ! timeout 120 mount -t cifs //127.0.0.1/$share $mnt \
		-o username=tester,password=tester,cache=none,$opts 2>/tmp/mount.err; then
		fail "$name" "mount: $(tail -1 /tmp/mount.err) $(dmesg | grep 'CIFS' | tail -1)"
		return
	fi
	rm -rf $mnt/tree
	if cp -r $src $mnt/tree && sync && diff -r $src $mnt/tree; then
		pass "$name"
	else
		fail "$name" "copy or compare failed"
	fi
	# a client that seals unasked encrypts all the same: the clients
	# file says so (it said encryption=0 for such a session)
	case ,$opts, in
	*,seal,*)
		if grep -q ' user=tester .*encryption=1' /proc/fs/ksmbd/clients; then
			pass "$name-listed-encrypting"
		else
			fail "$name-listed-encrypting" "$(grep ' user=' /proc/fs/ksmbd/clients | tr '\n' ' ')"
		fi ;;
	esac
	rm -rf $mnt/tree
	umount $mnt
}
mkdir -p $mnt
for v in 3.0 3.02 3.1.1; do
	echo > $tr/trace
	dec0=$(stat_value decrypted_frames)
	copy_and_compare mount-seal-$v share vers=$v,seal
	dec1=$(stat_value decrypted_frames)
	[ "$((dec1 - dec0))" -ge 20 ] && pass mount-seal-$v-encrypted ||
		fail mount-seal-$v-encrypted "decrypted_frames $dec0 -> $dec1"
	case $v in
	3.1.1) want=AES-128-GCM ;;
	*) want=AES-128-CCM ;;
	esac
	check mount-seal-$v-cipher trace_has "ksmbd_negotiate: .*cipher=$want"
done

# Encrypted on the wire: after the session setup only transform headers.
wire_check() {	# NAME: a sealed mount's copy, captured
	local name=$1 plain
	echo > $tr/trace
	tcpdump -i lo -w /tmp/seal.pcap -s 0 'tcp port 445' >/dev/null 2>&1 &
	dump=$!
	sleep 1
	copy_and_compare mount-seal-captured${name#wire-only-transform-headers} \
		share vers=3.1.1,seal
	sleep 1
	kill $dump; wait $dump 2>/dev/null
	plain=$(tcpdump -r /tmp/seal.pcap -x 2>/dev/null | python3 -c '
import sys, re, struct
# Payload bytes of every packet in order; count SMB2 headers (0xfe S M B)
# after the last SESSION_SETUP other than LOGOFF (the cifs client sends
# that one plain unless the session asked for encryption), and transform
# headers (0xfd S M B). Plain ones are listed by command.
data = bytearray()
for line in sys.stdin:
    m = re.match(r"\s+0x[0-9a-f]+:\s+(.*)", line)
    if m:
        data += bytes.fromhex("".join(m.group(1).split()))
d = bytes(data)
plain, setup, at = [], -1, d.find(b"\xfeSMB@\x00")
while at >= 0:
    cmd = struct.unpack_from("<H", d, at + 12)[0]
    if cmd == 1:
        setup, plain = at, []
    elif cmd != 2:
        plain.append(cmd)
    at = d.find(b"\xfeSMB@\x00", at + 1)
print(len(plain), d[setup:].count(b"\xfdSMB"), "commands:", plain)')
	echo "capture: plain SMB2 headers, transform headers after setup: $plain"
	set -- $plain
	if [ "${1:-1}" = 0 ] && [ "${2:-0}" -gt 10 ]; then
		pass $name
	else
		fail $name "plain=${1:-?} transform=${2:-?} $*"
	fi
}
wire_check wire-only-transform-headers

# With directory leases the client caches the share root under a lease
# that its own mkdir and rm in the root break: those breaks must go out
# encrypted too (the client sealed unasked; they went out plain, 2 of
# them, before the fix).
daemon_restart_with "smb3 directory leases = yes"
wire_check wire-only-transform-headers-dirlease
n=$(grep -c 'ksmbd_oplock_break_sent: .*lease=' $tr/trace)
[ "$n" -ge 1 ] && pass dirlease-breaks-sent ||
	fail dirlease-breaks-sent "no lease break during the sealed copy"

echo > $tr/trace
echo 1 > /sys/module/cifs/parameters/require_gcm_256
copy_and_compare mount-seal-aes256-gcm share vers=3.1.1,seal
echo 0 > /sys/module/cifs/parameters/require_gcm_256
check mount-seal-aes256-gcm-cipher trace_has 'ksmbd_negotiate: .*cipher=AES-256-GCM'

# ---- smbclient ----
smbc() {	# SHARE OPTIONS... -- put a file, get it back, compare
	local share=$1; shift
	rm -f /tmp/crypt-back
	timeout 120 smbclient //127.0.0.1/$share -U tester%tester "$@" \
		-c "put $src/big crypt-big; get crypt-big /tmp/crypt-back; rm crypt-big" \
		>/tmp/smbc.out 2>&1 && cmp -s $src/big /tmp/crypt-back
}
echo > $tr/trace
# --client-protection=encrypt|sign also has Samba's NTLMSSP negotiate
# signing, and its SPNEGO then insists on our mechListMIC (MS-SPNG 3.1.5.1).
dec0=$(stat_value decrypted_frames)
if smbc share --client-protection=encrypt; then
	pass smbclient-encrypt
else
	fail smbclient-encrypt "$(tail -2 /tmp/smbc.out | tr '\n' ' ')"
fi
dec1=$(stat_value decrypted_frames)
[ "$((dec1 - dec0))" -ge 10 ] && pass smbclient-encrypt-encrypted ||
	fail smbclient-encrypt-encrypted "decrypted_frames $dec0 -> $dec1"
check smbclient-encrypt-cipher trace_has 'ksmbd_negotiate: .*cipher=AES-128-GCM'
echo > $tr/trace
if smbc share --client-protection=sign; then
	pass smbclient-signed
else
	fail smbclient-signed "$(tail -2 /tmp/smbc.out | tr '\n' ' ')"
fi
check smbclient-signed-gmac trace_has 'ksmbd_negotiate: .*signing=AES-GMAC'
check_not smbclient-signed-no-bad-signature trace_has 'reason=.\?bad signature'

# ---- a share with "smb3 encryption = yes": cifs encrypts unasked ----
dec0=$(stat_value decrypted_frames)
copy_and_compare desired-share-3.1.1 sealed vers=3.1.1
dec1=$(stat_value decrypted_frames)
[ "$((dec1 - dec0))" -ge 20 ] && pass desired-share-encrypted ||
	fail desired-share-encrypted "decrypted_frames $dec0 -> $dec1"
dec0=$dec1
copy_and_compare desired-share-2.1 sealed vers=2.1
dec1=$(stat_value decrypted_frames)
[ "$dec1" = "$dec0" ] && pass desired-share-2.1-plain ||
	fail desired-share-2.1-plain "decrypted_frames $dec0 -> $dec1"

# ---- a share with "smb3 encryption = required" ----
copy_and_compare required-share-3.1.1 secure vers=3.1.1
copy_and_compare required-share-3.0-seal secure vers=3.0,seal
check_not required-share-2.1-refused timeout 60 mount -t cifs //127.0.0.1/secure $mnt \
	-o username=tester,password=tester,vers=2.1
mountpoint -q $mnt && umount $mnt
if smbc secure -m SMB2; then
	fail smbclient-2.1-required-share "an SMB 2.1 client got in"
elif grep -q NT_STATUS_ACCESS_DENIED /tmp/smbc.out; then
	pass smbclient-2.1-required-share
else
	fail smbclient-2.1-required-share "$(tail -1 /tmp/smbc.out)"
fi
if smbc secure -m SMB3; then
	pass smbclient-required-share-encrypts
else
	fail smbclient-required-share-encrypts "$(tail -2 /tmp/smbc.out | tr '\n' ' ')"
fi

# ---- global "smb3 encryption" ----
restart_daemon() {	# VALUE: the configuration again, with the global setting
	# The server keeps running; the new daemon's [global] replaces the old.
	kill "$(cat /run/ksmbd.mountd.pid)"
	wait_for 10 sh -c "grep -qx 'daemon_pid 0' /sys/class/ksmbd-control/stats"
	cat > $conf <<CONF
[global]
	netbios name = KSMBD-VM
	workgroup = WORKGROUP
	smb3 encryption = $1

[share]
	path = /srv/share
	read only = no

[secure]
	path = /srv/secure
	read only = no
	smb3 encryption = required
CONF
	"$b/daemon/ksmbd.mountd" -n >> /var/log/ksmbd.mountd.log 2>&1 &
	echo $! > /run/ksmbd.mountd.pid
	wait_for 10 sh -c "grep -qx 'daemon_pid $!' /sys/class/ksmbd-control/stats" &&
		wait_for 10 listening
}
check restart-required restart_daemon required
python3 "$crypt" --prefix "$CASE/required" global_required || CHECK_FAILED=1
copy_and_compare global-required-3.1.1 share vers=3.1.1
check_not global-required-2.1-refused timeout 60 mount -t cifs //127.0.0.1/share $mnt \
	-o username=tester,password=tester,vers=2.1
mountpoint -q $mnt && umount $mnt

check restart-desired restart_daemon yes
python3 "$crypt" --prefix "$CASE/desired" global_desired || CHECK_FAILED=1
copy_and_compare global-desired-3.0 share vers=3.0

echo 0 > $tr/events/ksmbd/enable

# ---- teardown ----
check live-zero-after-clients wait_for 20 live_is_zero sessions trees connections works
grep -E '^(sessions|connections|signing_failures|decrypt_failures) ' /sys/class/ksmbd-control/stats
kill "$(cat /run/ksmbd.mountd.pid)" 2>/dev/null
sleep 1
check rmmod rmmod ksmbd
check_not rmmod-live-objects-left sh -c 'dmesg | grep -q "unloading with live objects left"'
check_not no-warn sh -c 'dmesg | grep -qE "WARNING:|BUG:|general protection"'
finish
