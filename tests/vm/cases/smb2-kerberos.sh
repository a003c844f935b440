#!/bin/bash
# vm: --server --timeout 700
# Kerberos through the daemon: an MIT KDC with a throwaway realm in the
# guest's tmpfs (KSMBD.TEST on 127.0.0.1, host name ksmbd-vm resolving to
# loopback only), the service key cifs/ksmbd-vm in /etc/krb5.keytab, then
# smbclient --use-kerberos=required and mount -t cifs -o sec=krb5
# (cifs.upcall through /etc/request-key.d) as "tester". Refused: a
# principal without a local user, a keytab without our service key, and
# AP-REQs a raw client builds (a replayed authenticator, an expired
# ticket, an authenticator outside the clock skew, a ticket for another
# service, one under a wrong key): LOGON_FAILURE, the reason named on the
# auth_failure trace and in the daemon's log line. NTLMv2 keeps working
# next to Kerberos. Sessions end with their tickets: smbtorture's
# session.expire* (4-second tickets) see NETWORK_SESSION_EXPIRED on all
# but the commands allowed then, and re-authenticate (expire1n and
# expire2s here, all six in make check-full).
. "$VM_TOP/tests/vm/lib/check.sh"
tr=/sys/kernel/tracing
mnt=/mnt/ksmbd-krb5
realm=KSMBD.TEST
host=ksmbd-vm
log=/var/log/ksmbd.mountd.log
kdcdir=/var/lib/krb5kdc
tmp=$(mktemp -d)

state() { sed -n 's/^state //p' /sys/class/ksmbd-control/stats; }
trace_has() { grep -q -- "$1" $tr/trace; }
# Every client call is bounded: a hung one costs 30 s, not the case.
smbc() { timeout 30 smbclient "$@" </dev/null; }
krb_smb() { smbc --use-kerberos=required "//$host/share" -c "$1"; }

require_server

# ---- realm, KDC, keytab ----
echo "127.0.0.1 $host localhost" > /etc/hosts
cat > /etc/krb5.conf <<CONF
[libdefaults]
	default_realm = $realm
	dns_lookup_kdc = false
	dns_lookup_realm = false
	dns_canonicalize_hostname = false
	rdns = false
	default_ccache_name = FILE:/tmp/krb5cc_%{uid}
[realms]
	$realm = {
		kdc = 127.0.0.1
		admin_server = 127.0.0.1
	}
[domain_realm]
	$host = $realm
CONF
mkdir -p /etc/krb5kdc "$kdcdir"
cat > /etc/krb5kdc/kdc.conf <<CONF
[kdcdefaults]
	kdc_ports = 88
	kdc_tcp_ports = 88
[realms]
	$realm = {
		database_name = $kdcdir/principal
		key_stash_file = $kdcdir/stash
		acl_file = /etc/krb5kdc/kadm5.acl
		max_life = 1h
		supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
	}
CONF
: > /etc/krb5kdc/kadm5.acl
rm -f /etc/krb5.keytab
check kdb-create kdb5_util create -s -r $realm -P "kdc-master-$$"
kadm() { kadmin.local -r $realm -q "$1" >/dev/null; }
check princ-tester kadm "addprinc -pw tester-krb tester@$realm"
check princ-stranger kadm "addprinc -pw stranger-krb stranger@$realm"
check princ-cifs kadm "addprinc -randkey cifs/$host@$realm"
check princ-host kadm "addprinc -randkey host/$host@$realm"
check keytab kadm "ktadd -k /etc/krb5.keytab cifs/$host@$realm"
check keytab-other kadm "ktadd -k $tmp/other.keytab host/$host@$realm"
krb5kdc -P /run/krb5kdc.pid || fail kdc-start "krb5kdc did not start"
check kdc-listening wait_for 10 sh -c "ss -lunH 'sport = :88' | grep -q ."

# ---- daemon restart: the keytab exists now, Kerberos is offered ----
kill "$(cat /run/ksmbd.mountd.pid)"
# The server keeps running; the new daemon's [global] replaces the old.
check daemon-stopped wait_for 10 sh -c "grep -qx 'daemon_pid 0' /sys/class/ksmbd-control/stats"
"$VM_TOP/build/daemon/ksmbd.mountd" -n > $log 2>&1 &
echo $! > /run/ksmbd.mountd.pid
check daemon-restarted wait_for 10 sh -c "grep -qx 'daemon_pid $!' /sys/class/ksmbd-control/stats"
if ! wait_for 20 listening; then
	fail restart "nothing listens after the restart: $(tail -3 $log)"
	finish
fi
if [ -d $tr/events/ksmbd ]; then
	echo 1 > $tr/events/ksmbd/ksmbd_session_setup/enable
	echo 1 > $tr/events/ksmbd/ksmbd_auth_failure/enable
	echo > $tr/trace
fi

# ---- smbclient with a ticket ----
echo tester-krb | kinit tester@$realm >/dev/null
check kinit klist -s
echo "kerberos payload $$" > $tmp/up
check smbclient-krb5-put krb_smb "put $tmp/up krb5-file"
[ $CHECK_FAILED = 1 ] && tail -5 $log | sed 's/^/mountd: /'
check smbclient-krb5-ls sh -c "timeout 30 smbclient --use-kerberos=required //$host/share -c ls </dev/null | grep -q krb5-file"
check smbclient-krb5-get krb_smb "get krb5-file $tmp/down"
check smbclient-krb5-same cmp $tmp/up $tmp/down
check krb5-file-owner sh -c "[ \"\$(stat -c %U /srv/share/krb5-file)\" = tester ]"
check daemon-logged-krb5 grep -q "Kerberos logon: tester@$realm as tester" $log
check klist-cifs-ticket sh -c "klist | grep -q cifs/$host@$realm"
check trace-session-krb5 trace_has "ksmbd_session_setup: .*user=tester .*mech=spnego-krb5 .*status=STATUS_SUCCESS"

# signed and sealed with the Kerberos session key
check smbclient-krb5-signed smbc --use-kerberos=required --client-protection=sign "//$host/share" -c ls
check smbclient-krb5-sealed smbc --use-kerberos=required --client-protection=encrypt "//$host/share" -c ls

# ---- mount -t cifs -o sec=krb5 (cifs.upcall) ----
mkdir -p $mnt
if timeout 90 mount -t cifs "//$host/share" $mnt -o sec=krb5,vers=3.1.1,cruid=0 2>$tmp/mount.err; then
	pass cifs-krb5-mount
	check cifs-krb5-read cmp $tmp/up $mnt/krb5-file
	check cifs-krb5-write sh -c "echo via-cifs > $mnt/cifs-krb5 && [ \"\$(cat /srv/share/cifs-krb5)\" = via-cifs ]"
	umount $mnt
else
	fail cifs-krb5-mount "$(tail -2 $tmp/mount.err | tr '\n' ' ') $(dmesg | grep -i cifs | tail -3 | tr '\n' ' ')"
fi
if timeout 90 mount -t cifs "//$host/share" $mnt -o sec=krb5,vers=3.0,seal,cruid=0 2>$tmp/mount.err; then
	check cifs-krb5-sealed-read cmp $tmp/up $mnt/krb5-file
	umount $mnt
else
	fail cifs-krb5-sealed-mount "$(tail -2 $tmp/mount.err | tr '\n' ' ')"
fi

# ---- NTLMv2 alongside ----
check smbclient-ntlmv2 smbc "//127.0.0.1/share" -U tester%tester -c ls

# ---- refused: a principal with no local user ----
kdestroy
echo stranger-krb | kinit stranger@$realm >/dev/null
echo > $tr/trace
check_not smbclient-stranger krb_smb ls
check stranger-logged grep -q "Kerberos logon of stranger@$realm refused: no local user stranger" $log
check stranger-traced trace_has "ksmbd_auth_failure: .*reason='krb5: no local user for the principal'"
check stranger-logon-failure trace_has "ksmbd_session_setup: .*mech=spnego-krb5 .*status=STATUS_LOGON_FAILURE"

# ---- refused: a keytab without our service key ----
kdestroy
echo tester-krb | kinit tester@$realm >/dev/null
cp /etc/krb5.keytab $tmp/good.keytab
cp $tmp/other.keytab /etc/krb5.keytab
echo > $tr/trace
check_not smbclient-wrong-keytab krb_smb ls
check wrong-keytab-logged grep -q "Kerberos logon refused (wrong principal): AP-REQ refused: .*cifs/$host@$realm not found in keytab" $log
check wrong-keytab-traced trace_has "ksmbd_auth_failure: .*reason='krb5: ticket for a principal not in our keytab'"
cp $tmp/good.keytab /etc/krb5.keytab
check smbclient-keytab-back krb_smb ls

# ---- AP-REQs built by a raw client (clients/smb2krb5.py) ----
# valid (the client is right), the same AP-REQ on a second connection
# (the daemon's GSS acceptor keeps MIT's replay cache), a forged ticket
# an hour expired, an authenticator an hour old, a ticket for a service
# not in the keytab, a forged ticket under a wrong key, then valid again.
check princ-other kadm "addprinc -randkey cifs/other.host@$realm"
echo > $tr/trace
logged=$(wc -l < $log)
t0=$(date +%s)
python3 "$VM_TOP/tests/vm/clients/smb2krb5.py" --prefix "$CASE/raw" \
	--host $host --realm $realm --kdc 127.0.0.1 --user tester \
	--password tester-krb --keytab /etc/krb5.keytab \
	--other cifs/other.host || CHECK_FAILED=1
echo "raw client: $(( $(date +%s) - t0 )) s"
raw_refused() {	# NAME, daemon's reason word, its log text, trace reason
	check "raw-$1-logged" sh -c "tail -n +$((logged + 1)) $log | grep -q 'Kerberos logon refused ($2): .*$3'"
	check "raw-$1-traced" trace_has "ksmbd_auth_failure: .*reason='krb5: $4'"
}
raw_refused replay replay "Request is a replay" "authenticator replayed"
raw_refused expired expired "Ticket expired" "ticket expired"
raw_refused skew "clock skew" "Clock skew too great" "authenticator outside the clock skew"
raw_refused wrong-principal "wrong principal" "cifs/other.host@$realm not found in keytab" \
	"ticket for a principal not in our keytab"
raw_refused wrong-key "wrong key" "cannot decrypt ticket" "ticket not sealed with our service key"
check raw-five-logon-failures sh -c "[ \$(grep -c 'ksmbd_session_setup: .*mech=spnego-krb5 .*status=STATUS_LOGON_FAILURE' $tr/trace) = 5 ]"
check raw-live-zero wait_for 10 live_is_zero

# ---- the session ends with its ticket (MS-SMB2 3.3.5.2.9) ----
if command -v smbtorture >/dev/null; then
	# make check runs two (about 30 s each under TCG), make check-full
	# all six (cases-full/smb2-kerberos-full.sh sets KRB5_EXPIRE_ALL).
	expire="expire1n expire2s"
	[ -n "${KRB5_EXPIRE_ALL:-}" ] &&
		expire="expire1n expire1s expire1e expire2s expire2e expire_disconnect"
	for t in $expire; do
		check "torture-$t" sh -c "timeout 150 smbtorture //$host/share -k yes \
			-U tester%tester-krb smb2.session.$t </dev/null >$tmp/$t.log 2>&1 ||
			{ grep -vE '^(time|WARNING: no network)' $tmp/$t.log | tail -6; exit 1; }"
	done
else
	skip torture-expire "smbtorture not installed"
fi

grep -E "Kerberos" $log | sed 's/^/mountd: /' | tail -8
kdestroy
kill "$(cat /run/krb5kdc.pid)" 2>/dev/null
rm -rf "$tmp"
finish
