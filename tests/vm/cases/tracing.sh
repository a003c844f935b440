#!/bin/bash
# vm: --server --timeout 480
# The tracepoints (issue 7's acceptance): `trace-cmd record -e ksmbd` around
# a cifs-mount workload (connect, mkdir, write 100 files x 64 KiB, list and
# read them back, touch, a server-side copy, rename 10, delete all,
# unmount), a raw session of a second user with its keys known, a refused
# logon and two deliberately broken connections from 127.0.0.3. Checked on
# `trace-cmd report`: every event but oplock/lease, notify and async
# (asserted in oplock.sh and smb2-async.sh), durable and session channel
# events (smb2-durable.sh, smb2-session.sh), listeners (ipc-daemon.sh) and LOCK fired; write events and their bytes match the
# workload exactly; every request_start has its request_done; every
# latency > 0; peers are the clients' addresses; no password, NT hash,
# session or signing key in the report or the raw recording;
# `tracing/ksmbd-trace summary` counts equal the report's. `trace-cmd list
# -e ksmbd` lists every event of module/core/ksmbd_trace.h, and the module
# unloads and loads with every event enabled, without a warning.
. "$VM_TOP/tests/vm/lib/check.sh"
kt=$VM_TOP/tracing/ksmbd-trace
pylib=$VM_TOP/tests    # the tests/smb2 package
ko=$VM_TOP/build/module/ksmbd.ko
ev=/sys/kernel/tracing/events/ksmbd
mnt=/mnt/ksmbd-trace
dat=/tmp/tracing.dat rep=/tmp/tracing.txt sec=/tmp/tracing-secrets
NFILES=100 FSIZE=65536 NRENAME=10
user2=tracer pass2=Tr4ce-Secret-pw9

require_server

# ---- every event the header defines is listed ----
trace-cmd list -e ksmbd 2>/dev/null | sed -n 's/^ksmbd://p' | sort > /tmp/listed
grep -ohE '^(TRACE_EVENT|DEFINE_KSMBD_[A-Z_]+_EVENT)\(ksmbd_[a-z0-9_]+' \
	"$VM_TOP/module/core/ksmbd_trace.h" | sed 's/.*(//' | sort -u > /tmp/defined
check list-all-events sh -c "[ -s /tmp/defined ] && diff /tmp/defined /tmp/listed"

id $user2 >/dev/null 2>&1 || useradd -M -d /srv/share $user2
"$VM_TOP/build/daemon/ksmbd.adduser" -a $user2 -p $pass2 -i /etc/ksmbd/ksmbdpwd.db >/dev/null 2>&1 ||
	"$VM_TOP/build/daemon/ksmbd.adduser" -u $user2 -p $pass2 -i /etc/ksmbd/ksmbdpwd.db >/dev/null 2>&1
[ -s /run/ksmbd.mountd.pid ] && kill -HUP "$(cat /run/ksmbd.mountd.pid)"
sleep 1

# ---- record ----
trace-cmd record -e ksmbd -o $dat > /tmp/tc-record.log 2>&1 &
tcpid=$!
tc_on() { [ "$(cat $ev/ksmbd_vfs_write/enable 2>/dev/null)" = 1 ]; }
check trace-cmd-started wait_for 60 tc_on
sleep 1

# A session whose keys we know (to look for them), a refused logon, and
# two connections the server refuses (frame too large, MessageId outside
# the window) from 127.0.0.3.
check raw-sessions python3 - "$pylib" $user2 $pass2 $sec <<'PY'
import socket, struct, sys
sys.path.insert(0, sys.argv[1])
user, password, out = sys.argv[2], sys.argv[3], sys.argv[4]
from smb2 import client, crypto, wire
c = client.AuthConn("127.0.0.1", 445, 0x0311)
st, sess, _ = c.login(user, password)
assert st == 0, "login status 0x%x" % st
r = c.tree_connect(sess, "share", signed=True)
assert r.status == 0, "tree connect 0x%x" % r.status
c.tree_disconnect(sess, r.tree, signed=True)
c.logoff(sess, signed=True)
c.close()
bad = client.AuthConn("127.0.0.1", 445, 0x0311)
st, _, _ = bad.login(user, password + "x")
assert st == 0xC000006D, "bad password: 0x%x" % st
bad.close()
with open(out, "w") as f:
    for k in (crypto.nt_hash(password), crypto.nt_hash("tester"),
              sess.key, sess.sign_key):
        f.write(k.hex() + "\n")
orig = socket.create_connection
socket.create_connection = lambda a, timeout=None, **kw: orig(
    a, timeout, source_address=("127.0.0.3", 0))
big = client.Conn()
big.send_raw(struct.pack(">I", 0x00ffffff) + b"\xfeSMB" + b"\0" * 60)
assert big.is_dropped(), "frame too large kept"
w = client.Conn()
assert w.negotiate([0x0311]).status == 0
w.send_frame(wire.header(wire.ECHO, 5000) + struct.pack("<HH", 4, 0))
assert w.is_dropped(), "MessageId outside the window kept"
PY

mkdir -p $mnt
if timeout 60 mount -t cifs //127.0.0.1/share $mnt \
	-o username=tester,password=tester,vers=3.1.1,cache=none 2>/tmp/mount.err; then
	pass cifs-mount
	(
		set -e
		mkdir $mnt/tr
		head -c $FSIZE /dev/urandom > /tmp/payload
		for i in $(seq 1 $NFILES); do
			dd if=/tmp/payload of=$mnt/tr/f$i bs=$FSIZE count=1 status=none
		done
		[ "$(ls $mnt/tr | wc -l)" = $NFILES ]
		for i in $(seq 1 $NFILES); do
			cmp -s /tmp/payload $mnt/tr/f$i
		done
		touch -m -d @1000000000 $mnt/tr/f1
		cp --reflink=auto $mnt/tr/f2 $mnt/tr/copy
		rm $mnt/tr/copy
		for i in $(seq 1 $NRENAME); do
			mv $mnt/tr/f$i $mnt/tr/r$i
		done
		rm $mnt/tr/*
		rmdir $mnt/tr
	) > /tmp/workload.log 2>&1
	check cifs-workload test $? = 0
	check umount umount $mnt
else
	fail cifs-mount "$(tail -1 /tmp/mount.err)"
fi
sleep 1
kill -INT $tcpid
wait $tcpid
trace-cmd report -i $dat > $rep 2>/tmp/tc-report.err
check report-not-empty test -s $rep
check report-parses sh -c "! grep -m3 'FAILED TO PARSE' $rep"
"$kt" summary $dat > /tmp/summary.txt 2>&1
check summary-runs test -s /tmp/summary.txt
sed 's/^/# /' /tmp/summary.txt
art=$VM_TOP/build/vm-artifacts/tracing
mkdir -p $art && cp $dat $rep /tmp/summary.txt /tmp/workload.log $art/ 2>/dev/null

python3 - $rep /tmp/summary.txt $sec $dat "$CASE" $NFILES $FSIZE $NRENAME $pass2 <<'PY' || CHECK_FAILED=1
import collections, re, sys
rep, summ, sec, dat, case = sys.argv[1:6]
nfiles, fsize, nrename = map(int, sys.argv[6:9])
password = sys.argv[9]
failed = 0
def check(name, ok, msg=""):
    global failed
    print("%s: %s/%s%s" % ("PASS" if ok else "FAIL", case, name,
                           "" if ok else ": " + str(msg)[:400]))
    failed |= not ok
FIELD = re.compile(r"""(\w+)=('[^']*'|"[^"]*"|\[[^\]]*\]:\d+|\S+)""")
EVENT = re.compile(r'\s(ksmbd_\w+):\s+(.*)$')
events = []
for line in open(rep):
    m = EVENT.search(line)
    if m:
        events.append((m.group(1), {k: v.strip("'\"") for k, v in
                                    FIELD.findall(m.group(2))}))
seen = collections.Counter(e for e, _ in events)
listed = [l.strip() for l in open("/tmp/listed") if l.strip()]
# oplock/lease, notify and async events: oplock.sh, smb2-async.sh;
# durable events: smb2-durable.sh; session channels: smb2-session.sh;
# listeners coming and going: ipc-daemon.sh; access denials by a stored
# descriptor: smb2-acl.sh
want = [e for e in listed
        if not re.search(r"oplock|lease|_lock$|notify_|async_|durable_|session_channel|_listen$|access_denied", e)]
check("every-event-class", all(seen[e] for e in want),
      "missing: %s" % [e for e in want if not seen[e]])

def addr(peer):
    m = re.match(r'^\[(.*)\]:\d+$', peer) or re.match(r'^([0-9.]+):\d+$', peer)
    a = m.group(1) if m else peer
    return a[7:] if a.startswith("::ffff:") and "." in a else a
peer = {}
path = {}
writes, reads = [], []
renames = unlinks = mkdirs = 0
starts, dones = collections.Counter(), collections.Counter()
lat_bad = []
for e, f in events:
    if "latency_ns" in f and int(f["latency_ns"]) <= 0:
        lat_bad.append((e, f))
    if e == "ksmbd_conn_accept":
        peer[f["conn"]] = addr(f["peer"])
    elif e == "ksmbd_vfs_open" and f["status"] == "STATUS_SUCCESS":
        path[(f["conn"], f["file"])] = f["path"]
    elif e in ("ksmbd_vfs_write", "ksmbd_vfs_read"):
        # The copy went server-side (copychunk): every data transfer in
        # the recording is one of the workload's files.
        (writes if e.endswith("write") else reads).append(f)
        f["path"] = path.get((f["conn"], f["file"]), "?")
    elif e == "ksmbd_vfs_rename" and f["err"] == "0" and \
            re.fullmatch(r"tr/f\d+", f["from"]) and re.fullmatch(r"tr/r\d+", f["to"]):
        renames += 1
    elif e == "ksmbd_vfs_unlink" and f["err"] == "0" and \
            re.fullmatch(r"tr/[fr]\d+", f["path"]):
        unlinks += 1
    elif e == "ksmbd_vfs_mkdir" and f["err"] == "0" and f["path"] == "tr":
        mkdirs += 1
    elif e == "ksmbd_request_start":
        starts[(f["conn"], f["mid"], f["cmd"])] += 1
    elif e == "ksmbd_request_done":
        dones[(f["conn"], f["mid"], f["cmd"])] += 1
wsum = sum(int(f["done"]) for f in writes)
check("write-events-exact", len(writes) == nfiles and wsum == nfiles * fsize and
      all(f["requested"] == f["done"] for f in writes),
      "%d write events, %d bytes; expected %d, %d" % (len(writes), wsum, nfiles, nfiles * fsize))
check("write-files", sorted(f["path"] for f in writes) ==
      sorted("tr/f%d" % i for i in range(1, nfiles + 1)),
      "written: %s" % sorted(f["path"] for f in writes)[:5])
rsum = sum(int(f["done"]) for f in reads)
check("read-bytes-exact", rsum == nfiles * fsize, "%d bytes read back" % rsum)
check("renames", renames == nrename, "%d renames" % renames)
check("unlinks", unlinks == nfiles, "%d unlinks" % unlinks)
check("mkdir", mkdirs == 1, "%d mkdir of tr" % mkdirs)
unpaired = [k for k in set(starts) | set(dones) if starts[k] != dones[k]]
check("start-done-paired", not unpaired and sum(starts.values()) > 2 * nfiles,
      "%d starts, %d dones, unpaired %s" % (sum(starts.values()), sum(dones.values()), unpaired[:5]))
check("latencies-positive", not lat_bad, lat_bad[:3])
cifs_conns = {c for (c, _, cmd) in dones if cmd == "WRITE"}
check("peer-127.0.0.1", cifs_conns and all(peer.get(c) == "127.0.0.1" for c in cifs_conns),
      {c: peer.get(c) for c in cifs_conns})
check("peers-known", set(peer.values()) <= {"127.0.0.1", "127.0.0.3"}, set(peer.values()))
limits = [l.strip() for l in open(rep) if "ksmbd_conn_limit:" in l]
check("limit-frame-too-large", any("limit='frame too large'" in l and "127.0.0.3" in l
                                   for l in limits), limits[:2])
check("credit-window-event", seen["ksmbd_credit_window"] >= 1)
check("auth-failure-user", any(f.get("user") == "tracer" for e, f in events
                               if e == "ksmbd_auth_failure"))
check("session-of-tracer", any(f.get("user") == "tracer" and f.get("status") == "STATUS_SUCCESS"
                               for e, f in events if e == "ksmbd_session_setup"))

# No secret: not as hex in the report, not as bytes in the recording.
text = open(rep).read().lower()
raw = open(dat, "rb").read()
keys = [l.strip() for l in open(sec) if l.strip()]
leaks = [k for k in keys if k in text or bytes.fromhex(k) in raw]
leaks += [s for s in (password, password.encode("utf-16-le").hex())
          if s.lower() in text]
leaks += [s for s in (password.encode(), password.encode("utf-16-le")) if s in raw]
check("no-secret", len(keys) == 4 and not leaks, "found: %s" % leaks)

# ksmbd-trace summary: its per-command counts are the report's.
per_cmd = collections.Counter(k[2] for k in dones for _ in range(dones[k]))
table = {}
for line in open(summ):
    if not line.strip():
        break
    p = line.split()
    if p[0] != "command":
        table[p[0]] = int(p[1])
check("summary-counts", table == dict(per_cmd) and table.get("WRITE", 0) >= nfiles,
      "summary %s vs report %s" % (table, dict(per_cmd)))
clients = {}
for line in open(summ).read().split("\n\n", 1)[1].splitlines()[1:]:
    p = line.split()
    if p:
        clients[p[0]] = p[1:]
allw = sum(int(f["done"]) for e, f in events if e == "ksmbd_vfs_write")
check("summary-client-written", "127.0.0.1" in clients and
      int(clients["127.0.0.1"][-1]) == allw, "clients %s, written %d" % (clients, allw))
print("# events: %s" % dict(sorted(seen.items())))
sys.exit(failed)
PY

# ---- unload and load with every event enabled ----
if [ -s /run/ksmbd.mountd.pid ]; then
	kill "$(cat /run/ksmbd.mountd.pid)" 2>/dev/null
	sleep 1
fi
echo 1 > $ev/enable
check events-enabled grep -qx 1 $ev/ksmbd_request_done/enable
check rmmod-traced rmmod ksmbd
check events-gone test ! -e $ev
check insmod-again insmod "$ko"
echo 1 > $ev/enable
check events-back grep -qx 1 $ev/ksmbd_vfs_open/enable
check rmmod-traced-again rmmod ksmbd
finish
