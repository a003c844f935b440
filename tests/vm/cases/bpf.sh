#!/bin/bash
# vm: --server --timeout 600
# In make check since issue 9 closed (it was in make check-full at first
# for its ~6 min under TCG). The count that was once off
# (ksmbd-lat 1 NEGOTIATE from 127.0.0.2 session 0, trace-cmd 2) was a
# client's first request falling between the library's two map walks;
# fixed in bpf/libksmbdstats.c (see bpf/README.md) and checked below with
# new clients (section 2b; BPF_NEWCLIENTS, 100 by default, 300 in the
# first runs that proved the fix).
# The BPF statistics (bpf/): every program passes the guest kernel's
# verifier and attaches to the module's tracepoints; a workload from two
# source addresses (raw client: NEGOTIATE + ECHOs, a logged-on session with
# a tree; then two cifs mounts as two users when mounts work) is counted
# exactly as trace-cmd records it; histograms add up; the pinned mode is
# readable with bpftool and tracing/ksmbd-hist and unpins cleanly; without
# root or without the module, ksmbd-lat says so in one line.
. "$VM_TOP/tests/vm/lib/check.sh"
lat=$VM_TOP/build/bpf/ksmbd-lat
hist=$VM_TOP/tracing/ksmbd-hist
pylib=$VM_TOP/tests    # the tests/smb2 package
tr=/sys/kernel/tracing
pin=/sys/fs/bpf/ksmbd
wl=/tmp/bpf-workload.py
an=/tmp/bpf-analyse.py
mnt1=/mnt/bpf-a mnt2=/mnt/bpf-b
user2=bpfuser pass2=bpfpass2
ECHOS=10

require_server
if [ ! -x "$lat" ]; then
	fail build "$lat was not built"
	finish
fi
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

# ---- the workload client: tests/smb2 from a chosen source address ----
cat > $wl <<'PY'
import argparse, socket, struct, sys
p = argparse.ArgumentParser()
p.add_argument("--pylib", required=True)
p.add_argument("--src", required=True)
p.add_argument("--echos", type=int, default=10)
p.add_argument("--user")
p.add_argument("--password")
p.add_argument("--tree")
a = p.parse_args()
sys.path.insert(0, a.pylib)
orig = socket.create_connection
# Bind the client's source address (127.0.0.2 is loopback too).
socket.create_connection = lambda addr, timeout=None, **kw: orig(
    addr, timeout, source_address=(a.src, 0))
from smb2 import client
if not a.user:
    c = client.Conn()
    assert c.negotiate([0x0311]).status == 0
    for _ in range(a.echos):
        assert c.echo().status == 0
    c.close()
    sys.exit(0)
stage = "connect"
try:
    c = client.AuthConn("127.0.0.1", 445, 0x0311)
    stage = "login"
    st, sess, _ = c.login(a.user, a.password)
    assert st == 0, "login status 0x%x" % st
    tree = 0
    if a.tree:
        stage = "tree connect"
        r = c.tree_connect(sess, a.tree, signed=True)
        assert r.status == 0, "tree connect status 0x%x" % r.status
        tree = r.tree
    for i in range(a.echos):
        stage = "echo %d" % i
        assert c.echo(sess, signed=True).status == 0
    if tree:
        stage = "tree disconnect"
        c.tree_disconnect(sess, tree, signed=True)
except Exception as e:
    # The check shows only the last lines: name the step that failed.
    sys.exit("workload from %s failed at %s: %r" % (a.src, stage, e))
PY
workload() { python3 $wl --pylib "$pylib" "$@"; }

# ---- the analysis: ksmbd-lat JSON vs trace-cmd report ----
cat > $an <<'PY'
import collections, json, re, sys
lat_file, report, case = sys.argv[1], sys.argv[2], sys.argv[3]
expect_written = dict(a.split("=") for a in sys.argv[4:])
failed = 0
def check(name, ok, msg=""):
    global failed
    print("%s: %s/%s%s" % ("PASS" if ok else "FAIL", case, name,
                           "" if ok else ": " + msg))
    failed |= not ok
counts = collections.Counter()
written = collections.Counter()
users = {}
bad_hist = []
share_tcons, share_reqs, share_written = (collections.Counter() for _ in range(3))
lines = [l for l in open(lat_file) if l.strip()]
for line in lines:
    snap = json.loads(line)
    for c in snap["clients"]:
        k = (c["addr"], c["session_id"])
        if c["user"]:
            users[k] = c["user"]
        written[c["addr"]] += c["bytes_written"]
        for row in [c] + c["commands"]:
            lat = row["latency"]
            if sum(lat["hist"]) != lat["count"] or lat["count"] != row["requests"]:
                bad_hist.append((k, row.get("command"), lat["count"], row["requests"]))
        for cmd in c["commands"]:
            counts[(c["addr"], c["session_id"], cmd["command"])] += cmd["requests"]
    for sh in snap["shares"]:
        share_tcons[sh["share"]] += sh["tree_connects"]
        share_reqs[sh["share"]] += sh["requests"]
        share_written[sh["share"]] += sh["bytes_written"]
    g = snap["global"]
    if sum(g["latency"]["hist"]) != g["requests"]:
        bad_hist.append(("global", g["requests"]))
peer = {}
traced = collections.Counter()
for l in open(report):
    m = re.search(r"ksmbd_conn_accept:\s+conn=(\S+) peer=\[?([0-9a-fA-F:.]+?)\]?:\d+ ", l)
    if m:
        a = m.group(2)
        peer[m.group(1)] = a[7:] if a.startswith("::ffff:") and "." in a else a
        continue
    m = re.search(r"ksmbd_request_done:\s+conn=(\S+) sess=(\S+) .* cmd=(\w+) ", l)
    if m:
        traced[(peer.get(m.group(1), "?"), m.group(2), m.group(3))] += 1
check("json-intervals", len(lines) >= 1, "no JSON output")
addrs = {k[0] for k in counts}
check("both-clients", {"127.0.0.1", "127.0.0.2"} <= addrs, "clients: %s" % sorted(addrs))
check("session0-echos", counts[("127.0.0.2", "0x%016x" % 0, "ECHO")] >= 10,
      "127.0.0.2 session 0 ECHO = %d" % counts[("127.0.0.2", "0x%016x" % 0, "ECHO")])
check("user-tester", "tester" in users.values(), "users: %s" % users)
diff = {k: (counts[k], traced[k]) for k in set(counts) | set(traced) if counts[k] != traced[k]}
check("counts-equal-trace-cmd", not diff and sum(traced.values()) > 0,
      "ksmbd-lat vs trace-cmd differ: %s" % sorted(diff.items())[:8])
check("hist-sums", not bad_hist, "histogram sum != count: %s" % bad_hist[:5])
check("share-totals", share_tcons["share"] >= 1 and share_reqs["share"] > 0,
      "share: %d tree connects, %d requests" % (share_tcons["share"], share_reqs["share"]))
if expect_written:
    total = sum(int(n) for n in expect_written.values())
    check("share-written", share_written["share"] == total,
          "share wrote %d, expected %d" % (share_written["share"], total))
for addr, n in expect_written.items():
    check("written-" + addr, written[addr] == int(n),
          "%s wrote %d, expected %s" % (addr, written[addr], n))
if failed:
    print("# trace-cmd report, first lines:")
    for l in open(report).readlines()[:12]:
        print("#   " + l.rstrip())
print("# bpf: %d (addr, session, command) rows, %d requests traced" %
      (len(counts), sum(traced.values())))
for k in sorted(counts):
    print("#   %s sess=%s %-16s %d" % (k[0], k[1], k[2], counts[k]))
print("# users: %s" % sorted(set(users.values())))
sys.exit(failed)
PY

# ---- 1. load: the verifier accepts every program; they attach ----
progs="ksmbd_req_start ksmbd_req_done ksmbd_vfs_rd ksmbd_vfs_wr ksmbd_sess_setup ksmbd_sess_end ksmbd_tcon ksmbd_tdis ksmbd_credit_st ksmbd_accept ksmbd_close"
# bpftool prints the full name from BTF, or the kernel's 15-byte one.
prog_listed() { bpftool prog show | grep -q "name $1"; }
# within SECS CMD...: polls CMD until SECS have passed (CMD may be slow).
within() {
	local end=$((SECONDS + $1)); shift
	while [ $SECONDS -lt $end ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	return 1
}
all_listed() { for p in $progs; do prog_listed "$p" || return 1; done; }
check module-btf test -e /sys/kernel/btf/ksmbd

attached() { grep -q "^Tracing" "$1"; }
$lat -C -c -j 1 > /tmp/lat.json 2> /tmp/lat.err &
latpid=$!
within 120 attached /tmp/lat.err
if within 60 all_listed; then
	pass load-all-programs
else
	fail load-all-programs "$(head -3 /tmp/lat.err | tr '\n' ' ')"
fi

# ---- 2. workload, recorded by trace-cmd and counted by the programs ----
trace-cmd record -e ksmbd:ksmbd_request_done -e ksmbd:ksmbd_conn_accept \
	-o /tmp/bpf.dat > /tmp/tc.log 2>&1 &
tcpid=$!
tc_on() { [ "$(cat $tr/events/ksmbd/ksmbd_request_done/enable)" = 1 ]; }
check trace-cmd-started within 30 tc_on
sleep 1

check raw-127.0.0.2-session0 workload --src 127.0.0.2 --echos $ECHOS
check raw-127.0.0.1-tester workload --src 127.0.0.1 --echos $ECHOS \
	--user tester --password tester --tree share

# Two cifs mounts, two users, two source addresses, known bytes written.
id $user2 >/dev/null 2>&1 || useradd -M -d /srv/share $user2
"$VM_TOP/build/daemon/ksmbd.adduser" -a $user2 -p $pass2 -i /etc/ksmbd/ksmbdpwd.db >/dev/null 2>&1 ||
	"$VM_TOP/build/daemon/ksmbd.adduser" -u $user2 -p $pass2 -i /etc/ksmbd/ksmbdpwd.db >/dev/null 2>&1
[ -s /run/ksmbd.mountd.pid ] && kill -HUP "$(cat /run/ksmbd.mountd.pid)"
sleep 1
mkdir -p $mnt1 $mnt2 /srv/share/bpfb
chown $user2 /srv/share/bpfb
expect_written=
opts=vers=3.1.1,cache=none
if timeout 60 mount -t cifs //127.0.0.1/share $mnt1 -o username=tester,password=tester,$opts 2>/tmp/mount1.err &&
   timeout 60 mount -t cifs //127.0.0.1/share $mnt2 -o username=$user2,password=$pass2,srcaddr=127.0.0.2,$opts 2>/tmp/mount2.err; then
	pass cifs-mounts
	check cifs-write-a dd if=/dev/zero of=$mnt1/bpf-a bs=65536 count=16 conv=fsync status=none
	check cifs-write-b dd if=/dev/zero of=$mnt2/bpfb/bpf-b bs=65536 count=8 conv=fsync status=none
	rm -f $mnt1/bpf-a $mnt2/bpfb/bpf-b
	umount $mnt1; umount $mnt2
	expect_written="127.0.0.1=1048576 127.0.0.2=524288"
	cifs=1
else
	mountpoint -q $mnt1 && umount $mnt1
	skip cifs-mounts "mount.cifs does not get through yet: $(tail -1 /tmp/mount1.err /tmp/mount2.err 2>/dev/null | grep -v '^==' | tr '\n' ' ')"
	cifs=0
fi
sleep 1
kill -INT $tcpid; wait $tcpid
bpftool -j map dump name clients > /tmp/maps-clients.json 2>&1
bpftool -j map dump name client_cmds > /tmp/maps-cmds.json 2>&1
kill -INT $latpid; wait $latpid
check ksmbd-lat-exit-0 test $? -eq 0
trace-cmd report -i /tmp/bpf.dat > /tmp/tc.txt 2>/tmp/tc-report.err
tail -n 3 /tmp/tc.log /tmp/tc-report.err | sed 's/^/# trace-cmd: /'
art=$VM_TOP/build/bpf/vm-artifacts
mkdir -p $art && cp /tmp/lat.json /tmp/lat.err /tmp/tc.txt /tmp/maps-*.json $art/ 2>/dev/null
python3 $an /tmp/lat.json /tmp/tc.txt "$CASE" $expect_written || CHECK_FAILED=1
if [ $cifs = 1 ]; then
	check user2-seen python3 -c "
import json, sys
users = {c['user'] for l in open('/tmp/lat.json') if l.strip() for c in json.loads(l)['clients'] if c['addr'] == '127.0.0.2'}
sys.exit('$user2' not in users)"
fi

# ---- 2b. many first requests while ksmbd-lat reads every second ----
# Each connection is a new client (its own source address, session 0)
# whose first request is a NEGOTIATE. A snapshot taken while one of them
# is being counted must not lose it (issue 9's "1 NEGOTIATE where
# trace-cmd shows 2"): the JSON, which lists commands under clients, has
# exactly NEWCLIENTS NEGOTIATEs from 127.1.0.0/16.
NEWCLIENTS=${BPF_NEWCLIENTS:-100}
$lat -C -c -j 1 > /tmp/lat-new.json 2> /tmp/lat-new.err &
latpid=$!
within 120 attached /tmp/lat-new.err
check new-clients-connect python3 - "$pylib" $NEWCLIENTS <<'PY'
import socket, sys
sys.path.insert(0, sys.argv[1])
from smb2.conn import Conn
orig = socket.create_connection
for i in range(int(sys.argv[2])):
    src = "127.1.%d.%d" % (i // 200, i % 200 + 1)
    socket.create_connection = lambda a, timeout=None, **kw: orig(
        a, timeout, source_address=(src, 0))
    c = Conn()
    assert c.negotiate([0x0311]).status == 0
    c.close()
PY
sleep 2
kill -INT $latpid; wait $latpid
check new-clients-every-negotiate python3 -c "
import json, sys
n = sum(cmd['requests'] for l in open('/tmp/lat-new.json') if l.strip()
        for c in json.loads(l)['clients'] if c['addr'].startswith('127.1.')
        for cmd in c['commands'] if cmd['command'] == 'NEGOTIATE')
sys.exit(None if n == $NEWCLIENTS else 'NEGOTIATEs from new clients: %d of $NEWCLIENTS' % n)"

# ---- 3. -j 1 3: three intervals, one JSON object each ----
# during LAT_ARGS...: runs ksmbd-lat, and a small workload once it is attached.
during() {
	timeout 120 $lat "$@" > /tmp/during.out 2> /tmp/during.err &
	local pid=$!
	within 120 attached /tmp/during.err
	workload --src 127.0.0.2 --echos 3
	wait $pid
}
during -C -c -j 1 3; cp /tmp/during.out /tmp/lat3.json
check json-1-3-three-objects python3 -c "
import json, sys
l = [json.loads(x) for x in open('/tmp/lat3.json') if x.strip()]
sys.exit(len(l) != 3 or any('clients' not in s for s in l))"
# Text views render (a histogram per client and command; the credit table).
during -C -c 10 1; cp /tmp/during.out /tmp/latC.txt
check text-per-client-command grep -q "command = ECHO" /tmp/latC.txt
check text-histogram grep -q "usecs .* : count    distribution" /tmp/latC.txt
during -k 10 1; cp /tmp/during.out /tmp/lats.txt
check text-credit-table grep -Eq "^127\.0\.0\.2 +0x0000000000000000 " /tmp/lats.txt
cat /tmp/latC.txt /tmp/lats.txt | head -40 | sed 's/^/# /'

# ---- 4. pinned mode: bpftool reads it, ksmbd-hist renders it ----
check pin $lat --pin
check pinned-maps test -e $pin/clients -a -e $pin/client_cmds -a -e $pin/shares -a -e $pin/global
check pinned-link test -e $pin/link_ksmbd_req_done
check pinned-still-attached all_listed
check status-lists-link sh -c "$lat --status | grep -q '^link_ksmbd_req_done .*link id'"
check pinned-workload workload --src 127.0.0.2 --echos 7
bpftool -j map dump pinned $pin/client_cmds > /tmp/pin.json 2>/tmp/pin.err
check bpftool-dump-parsed python3 -c "
import ipaddress, json, sys
rows = {}
for e in json.load(open('/tmp/pin.json')):
    k, v = e['formatted']['key'], e['formatted']['value']
    addr = str(ipaddress.IPv4Address(bytes(k['client']['addr'][:4])))
    rows[(addr, k['client']['session_id'], k['command'])] = v['c']
    assert sum(v['c']['lat']['slots']) == v['c']['requests'], ('hist sum', k)
echo = rows.get(('127.0.0.2', 0, 13), {}).get('requests')
neg = rows.get(('127.0.0.2', 0, 0), {}).get('requests')
sys.exit(None if (echo, neg) == (7, 1) else 'ECHO %s NEGOTIATE %s: %s' % (echo, neg, rows))"
check bpftool-btf-names sh -c "bpftool map dump pinned $pin/global | grep -q 'credits_granted'"
$hist client_cmds > /tmp/hist.txt 2>&1
check ksmbd-hist-client-cmds grep -qx "client = 127.0.0.2 session = 0x0000000000000000 command = ECHO requests = 7" /tmp/hist.txt
check ksmbd-hist-rows grep -q "usecs               : count    distribution" /tmp/hist.txt
$hist global > /tmp/histg.txt 2>&1
check ksmbd-hist-global grep -qx "all requests requests = 8" /tmp/histg.txt
head -30 /tmp/hist.txt | sed 's/^/# /'
during -P -j 10 1
check pinned-read-by-library grep -q '"addr":"127.0.0.2"' /tmp/during.out
# Without --pinned, ksmbd-lat shares what is pinned: still one copy of each
# program in the kernel while it runs, and it counts the new requests.
copies() { bpftool prog show | grep -c "name ksmbd_req_done"; }
timeout 120 $lat -j 10 1 > /tmp/auto.out 2> /tmp/auto.err &
autopid=$!
within 120 attached /tmp/auto.err
check auto-shares-pinned-programs test "$(copies)" = 1
workload --src 127.0.0.2 --echos 5
wait $autopid
check auto-reads-pinned-maps python3 -c "
import json, sys
s = json.loads(open('/tmp/auto.out').read())
n = sum(c['requests'] for c in s['clients'] if c['addr'] == '127.0.0.2')
sys.exit(None if n >= 5 else 'requests from 127.0.0.2 in the interval: %d' % n)"
check unpin $lat --unpin
check unpinned-nothing-left test ! -e $pin
prog_gone() { ! prog_listed ksmbd_req_done; }
check unpinned-detached within 20 prog_gone
check status-after-unpin sh -c "$lat --status | grep -q 'nothing pinned'"

# ---- 5. benchmark note: ECHO rate with and without the programs ----
rate() {
	python3 - "$pylib" <<'PY'
import sys, time
sys.path.insert(0, sys.argv[1])
from smb2.conn import Conn
c = Conn()
c.negotiate([0x0311])
n, t0 = 2000, time.monotonic()
for _ in range(n):
    c.echo()
print("%.0f" % (n / (time.monotonic() - t0)))
PY
}
r0=$(rate); $lat --pin >/dev/null; r1=$(rate); $lat --unpin
echo "# bench: ECHO round trips/s without programs $r0, with programs attached $r1"
if [ $cifs = 1 ] && mount -t cifs //127.0.0.1/share $mnt1 -o username=tester,password=tester,$opts 2>/dev/null; then
	wr() { dd if=/dev/zero of=$mnt1/bpf-bench bs=1M count=32 conv=fsync 2>&1 | tail -1; rm -f $mnt1/bpf-bench; }
	w0=$(wr); $lat --pin >/dev/null; w1=$(wr); $lat --unpin
	echo "# bench: cifs 32 MiB write without programs: $w0"
	echo "# bench: cifs 32 MiB write with programs:    $w1"
	umount $mnt1
fi

# ---- 6. one clear line without root, and without the module ----
setpriv --reuid=65534 --regid=65534 --clear-groups $lat 1 1 > /tmp/np.out 2>&1
rc=$?
check not-root-one-line sh -c "[ $rc -ne 0 ] && [ \$(wc -l < /tmp/np.out) = 1 ] && grep -q 'not permitted: run as root' /tmp/np.out"
if [ -s /run/ksmbd.mountd.pid ]; then
	kill "$(cat /run/ksmbd.mountd.pid)" 2>/dev/null
	sleep 1
fi
check rmmod rmmod ksmbd
$lat 1 1 > /tmp/nm.out 2>&1
rc=$?
check no-module-one-line sh -c "[ $rc -ne 0 ] && [ \$(wc -l < /tmp/nm.out) = 1 ] && grep -q 'ksmbd module not loaded$' /tmp/nm.out"
# A module without BTF (what a DKMS build makes where it finds no BTF of
# its kernel): the tools say so in one line.
objcopy --remove-section=.BTF "$VM_TOP/build/module/ksmbd.ko" /tmp/nobtf.ko
check nobtf-insmod insmod /tmp/nobtf.ko
$lat 1 1 > /tmp/nb.out 2>&1
rc=$?
check no-btf-one-line sh -c "[ $rc -ne 0 ] && [ \$(wc -l < /tmp/nb.out) = 1 ] && grep -q 'the ksmbd module has no BTF' /tmp/nb.out"
check nobtf-rmmod rmmod ksmbd
cat /tmp/np.out /tmp/nm.out /tmp/nb.out | sed 's/^/# /'
# The manual lists every long option (man/ksmbd-lat.8, built by make man).
check man-page-lists-options man_lists_options $lat $VM_TOP/build/man/ksmbd-lat.8
finish
