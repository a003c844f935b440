#!/bin/bash
# vm: --server --timeout 400
# The daemon's DCE/RPC services through the real clients: smbclient -L
# (srvsvc NetShareEnumAll over IPC$) and rpcclient's srvsvc, lsarpc and
# samr commands, as a Samba user would run them.
. "$VM_TOP/tests/vm/lib/check.sh"
auth="-U tester%tester"

out=$(timeout 60 smbclient -L //127.0.0.1 $auth -m SMB3 2>&1)
echo "$out" | sed 's/^/  smbclient: /' | head -20
check list-shows-share grep -qE '^\s+share\s+Disk\s+demo share' <<<"$out"
check list-shows-ipc grep -qE '^\s+IPC\$\s+IPC\s+' <<<"$out"

rpc() { timeout 60 rpcclient $auth 127.0.0.1 -c "$1" 2>&1; }
out=$(rpc srvinfo)
echo "$out" | sed 's/^/  srvinfo: /'
check srvinfo-name grep -qi 'KSMBD-VM' <<<"$out"
check srvinfo-comment grep -q 'ksmbd test server' <<<"$out"
out=$(rpc netshareenumall)
check netshareenumall-share grep -q 'netname: share' <<<"$out"
check netshareenumall-remark grep -q 'remark:	demo share' <<<"$out"
out=$(rpc 'netsharegetinfo share')
echo "$out" | sed 's/^/  netsharegetinfo: /'
check netsharegetinfo-path grep -qi 'path:.*srv.share' <<<"$out"
out=$(rpc 'netsharegetinfo nosuch')
echo "$out" | sed 's/^/  netsharegetinfo nosuch: /'
check netsharegetinfo-unknown grep -qiE 'WERR_NET_NAME_NOT_FOUND|NETNAMENOTFOUND|NAME_NOT_FOUND' <<<"$out"
out=$(rpc lsaquery)
echo "$out" | sed 's/^/  lsaquery: /'
check lsaquery-domain grep -qE 'Domain Name: ' <<<"$out"
# A standalone server has no primary domain SID; Samba answers NULL too.
check lsaquery-sid grep -qE 'Domain Sid: (S-1-5-21-|\(NULL SID\))' <<<"$out"
out=$(rpc enumdomains)
echo "$out" | sed 's/^/  enumdomains: /'
check enumdomains-builtin grep -qi 'name:\[Builtin\]' <<<"$out"
check enumdomains-own grep -qi 'name:\[KSMBD-VM\]' <<<"$out"
out=$(timeout 60 rpcclient -U tester%wrong 127.0.0.1 -c srvinfo 2>&1)
check wrong-password-refused grep -q 'NT_STATUS_LOGON_FAILURE' <<<"$out"
finish
