#!/bin/bash
# vm: --server --timeout 600
# ksmbdtop against the real server: batch JSON with a raw-client workload
# from 127.0.0.1 and 127.0.0.2 (addresses and request counts checked
# against the ksmbd_request_done tracepoint), then cifs mounts of two users
# (tester writes 64 MiB; tester2 from 127.0.0.2 stats and reads 500 small
# files), seen both by a ksmbdtop attached throughout and by issue 10's
# `ksmbdtop -b -j -n 3 -d 1` over the pinned maps afterwards; the
# interactive view driven through tmux (table, sort keys, Enter on a
# client, help, pause, delay prompt, resize, q restores the shell, SIGTERM
# too), degraded mode and the one-line errors; idle clients (one logged on
# as jos\u00e9, one that only negotiated) listed from the module's
# /proc/fs/ksmbd/clients by a ksmbdtop whose programs never saw them.
# Screens are kept under build/vm/ksmbdtop/ for review.
. "$VM_TOP/tests/vm/lib/check.sh"
top=$VM_TOP
kt=$top/build/monitor/ksmbdtop
lat=$top/build/bpf/ksmbd-lat
out=$top/build/vm/ksmbdtop
work=/tmp/ksmbdtop
mkdir -p "$out" "$work"
rm -f "$out"/*.txt "$out"/*.json

if [ ! -x "$kt" ]; then
	fail build "$kt missing (make user)"
	finish
fi
require_server
ip addr add 127.0.0.2/8 dev lo 2>/dev/null || true

# ---- helpers ----------------------------------------------------------------

# raw_load SRC CONNS ECHOS: NEGOTIATE + ECHOS echoes on each of CONNS
# connections bound to source address SRC; prints the request count.
raw_load() {
	python3 - "$top/tests" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from smb2.conn import Conn
src, conns, echos = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
n = 0
for _ in range(conns):
    c = Conn(source=src)
    c.negotiate([0x0311]); n += 1
    for _ in range(echos):
        c.echo(); n += 1
    c.close()
print(n)
PY
}

# echo_forever SRC PAUSE: echoes until killed; reconnects when the server
# drops the connection (no SESSION_SETUP within session_timeout_s).
echo_forever() {
	python3 - "$top/tests" "$@" <<'PY' &
import sys, time
sys.path.insert(0, sys.argv[1])
from smb2 import wire
from smb2.conn import Conn
src, pause = sys.argv[2], float(sys.argv[3])
while True:
    try:
        c = Conn(source=src)
        c.negotiate([0x0311])
        while True:
            c.echo()
            time.sleep(pause)
    except (OSError, wire.Dropped):
        time.sleep(0.2)
PY
}

# lines FILE: how many lines FILE has.
lines() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
has_lines() { [ "$(lines "$1")" -ge "$2" ]; }

# Starts ksmbdtop -j in the background into $1; waits for its first frame.
kt_start() {
	"$kt" -j -d 1 > "$1" 2> "$1.err" &
	ktpid=$!
	wait_for 120 has_lines "$1" 1
}
# Stops it after two more frames (the last one is after the workload).
kt_stop() {
	local n
	n=$(lines "$1")
	wait_for 30 has_lines "$1" $((n + 2))
	kill -INT $ktpid
	wait $ktpid
}

# per_addr_trace FILE [CMD]: "ADDR COUNT" lines from a trace-cmd show dump:
# request_done events per peer address (conn ids mapped by conn_accept).
per_addr_trace() {
	python3 - "$@" <<'PY'
import re, sys, collections
peer, count = {}, collections.Counter()
cmd = sys.argv[2] if len(sys.argv) > 2 else None
for line in open(sys.argv[1]):
    m = re.search(r"ksmbd_conn_accept: conn=(0x[0-9a-f]+) peer=\S*?(\d+\.\d+\.\d+\.\d+)", line)
    if m:
        peer[m.group(1)] = m.group(2)
        continue
    m = re.search(r"ksmbd_request_done: conn=(0x[0-9a-f]+) .* cmd=(\w+)", line)
    if m and (cmd is None or m.group(2) == cmd):
        count[peer.get(m.group(1), "?")] += 1
for a, n in sorted(count.items()):
    print(a, n)
PY
}

# kt_field FILE ADDR EXPR: EXPR (python, over client c) from the last frame.
kt_field() {
	python3 - "$@" <<'PY'
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for c in frames[-1]["clients"]:
    if c["addr"] == sys.argv[2]:
        cmds = {x["command"]: x for x in c["commands"]}
        print(eval(sys.argv[3]))
        break
else:
    print("absent")
PY
}

trace_begin() {
	trace-cmd reset >/dev/null 2>&1
	trace-cmd clear >/dev/null 2>&1
	trace-cmd start -b 8192 -e ksmbd:ksmbd_request_done \
		-e ksmbd:ksmbd_conn_accept >/dev/null 2>&1
}
trace_end() {
	trace-cmd stop >/dev/null 2>&1
	trace-cmd show > "$1" 2>/dev/null
	trace-cmd reset >/dev/null 2>&1
}

# ---- errors and degraded mode ------------------------------------------------

msg=$("$kt" -b -n 1 --stats-file /nonexistent/stats 2>&1); rc=$?
check no-module-exit-4 test "$rc" -eq 4
check no-module-one-line test "$(echo "$msg" | wc -l)" -eq 1
echo "ksmbdtop (no module): $msg"
msg=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$kt" -b -n 1 2>&1); rc=$?
check not-root-exit-3 test "$rc" -eq 3
echo "ksmbdtop (not root): $msg"
# -N needs no root: the module's counters file is world-readable.
setpriv --reuid=65534 --regid=65534 --clear-groups "$kt" -N -j -n 1 -d 0.5 \
	> "$out/not-root-N.json" 2>&1
check not-root-N-exit-0 test $? -eq 0
check not-root-N-counters python3 -c '
import json, sys
f = json.loads(open(sys.argv[1]).readline())
assert f["bpf"] is False and f["server"]["state"] == "running", f
' "$out/not-root-N.json"
"$kt" -N -j -n 1 -d 0.5 > "$out/degraded.json" 2>&1
check degraded-json python3 -c '
import json, sys
f = json.loads(open(sys.argv[1]).readline())
assert f["bpf"] is False and f["clients"] == [], f
assert f["server"]["state"] == "running", f["server"]
assert "module" in f["note"], f["note"]
' "$out/degraded.json"
"$kt" -N -b -n 1 -d 0.5 > "$out/degraded.txt" 2>&1
check degraded-text-note grep -q "^Note: BPF unavailable" "$out/degraded.txt"

# ---- batch JSON against a raw-client workload -------------------------------

if kt_start "$out/raw.json"; then
	pass json-first-frame
else
	fail json-first-frame "no frame in 120 s: $(tail -2 "$out/raw.json.err")"
fi
trace_begin
na=$(raw_load 127.0.0.1 1 40)
nb=$(raw_load 127.0.0.2 2 25)
sleep 0.5
trace_end "$work/raw.trace"
kt_stop "$out/raw.json"
check json-bpf-on python3 -c '
import json, sys
f = json.loads(open(sys.argv[1]).readlines()[-1])
assert f["bpf"] is True, f["note"]' "$out/raw.json"
per_addr_trace "$work/raw.trace" > "$work/raw.counts"
cat "$work/raw.counts" | sed 's/^/tracepoints: /'
# one NEGOTIATE per connection, the rest are ECHOs
for spec in "127.0.0.1 $na 1" "127.0.0.2 $nb 2"; do
	set -- $spec
	addr=$1 want=$2 conns=$3
	got=$(kt_field "$out/raw.json" "$addr" 'c["requests"]')
	traced=$(sed -n "s/^$addr //p" "$work/raw.counts")
	echo "ksmbdtop $addr: requests=$got workload=$want traced=$traced"
	check "raw-$addr-listed" test "$got" != absent
	check "raw-$addr-matches-trace" test "$got" = "$traced"
	check "raw-$addr-matches-workload" test "$got" = "$want"
	check "raw-$addr-echo-count" test \
		"$(kt_field "$out/raw.json" "$addr" 'cmds["ECHO"]["requests"]')" \
		= "$((want - conns))"
	check "raw-$addr-negotiate-count" test \
		"$(kt_field "$out/raw.json" "$addr" 'cmds["NEGOTIATE"]["requests"]')" \
		= "$conns"
done

# ---- cifs mounts: two users, two addresses ---------------------------------

mnta=/mnt/kt-a mntb=/mnt/kt-b
mkdir -p $mnta $mntb
id tester2 >/dev/null 2>&1 || useradd -M -d /srv/share -s /bin/bash tester2
"$top/build/daemon/ksmbd.adduser" -a tester2 -p tester2 \
	-i /etc/ksmbd/ksmbdpwd.db >/dev/null 2>&1
[ -f /run/ksmbd.mountd.pid ] && kill -HUP "$(cat /run/ksmbd.mountd.pid)"
mkdir -p /srv/share/small
for i in $(seq 1 500); do echo "file $i" > /srv/share/small/f$i; done
chown -R tester2 /srv/share/small
# ksmbdtop and the trace start before the mounts: the user names come
# from SESSION_SETUP and the peer addresses from the accept event. The
# pinned maps (ksmbd-lat --pin) keep counting from here on, for the
# short batch run after the workload.
check mount-pin "$lat" --pin
kt_start "$out/mount.json" || fail mount-json-first-frame "no frame"
trace_begin
mounted=0
if timeout 60 mount -t cifs //127.0.0.1/share $mnta \
	-o username=tester,password=tester,vers=3.1.1 2>"$work/mount.err" &&
   timeout 60 mount -t cifs //127.0.0.1/share $mntb \
	-o username=tester2,password=tester2,vers=3.1.1,srcaddr=127.0.0.2,cache=none 2>>"$work/mount.err"; then
	mounted=1
fi
if [ $mounted = 1 ]; then
	dd if=/dev/zero of=$mnta/big bs=1M count=64 conv=fsync status=none
	for i in $(seq 1 500); do stat -c %s $mntb/small/f$i; done >/dev/null
	cat $mntb/small/f* > /dev/null
	trace_end "$work/mount.trace"
	kt_stop "$out/mount.json"
	per_addr_trace "$work/mount.trace" READ > "$work/mount.reads"
	check mount-user-a test "$(kt_field "$out/mount.json" 127.0.0.1 'c["user"]')" = tester
	check mount-user-b test "$(kt_field "$out/mount.json" 127.0.0.2 'c["user"]')" = tester2
	check mount-a-written-64m python3 -c '
import sys
w = int(sys.argv[1]); want = 64 << 20
assert abs(w - want) <= want / 100, w' \
		"$(kt_field "$out/mount.json" 127.0.0.1 'c["bytes_written"]')"
	check mount-b-reads-match-trace test \
		"$(kt_field "$out/mount.json" 127.0.0.2 'cmds.get("READ", {}).get("requests", 0)')" \
		= "$(sed -n 's/^127.0.0.2 //p' "$work/mount.reads")"
	# issue 10's command line, after the fact, over the pinned maps
	"$kt" -b -j -n 3 -d 1 > "$out/batch-n3.json" 2> "$out/batch-n3.err"
	check batch-n3-exit-0 test $? -eq 0
	check batch-n3-three-frames test "$(lines "$out/batch-n3.json")" -eq 3
	check batch-n3-user-a test "$(kt_field "$out/batch-n3.json" 127.0.0.1 'c["user"]')" = tester
	check batch-n3-user-b test "$(kt_field "$out/batch-n3.json" 127.0.0.2 'c["user"]')" = tester2
	check batch-n3-a-written-64m python3 -c '
import sys
w = int(sys.argv[1]); want = 64 << 20
assert abs(w - want) <= want / 100, w' \
		"$(kt_field "$out/batch-n3.json" 127.0.0.1 'c["bytes_written"]')"
	check batch-n3-b-reads-match-trace test \
		"$(kt_field "$out/batch-n3.json" 127.0.0.2 'cmds.get("READ", {}).get("requests", 0)')" \
		= "$(sed -n 's/^127.0.0.2 //p' "$work/mount.reads")"
	umount $mnta $mntb
else
	trace_end "$work/mount.trace"
	kt_stop "$out/mount.json"
	skip mounts "cifs mount failed: $(tail -1 "$work/mount.err")"
	umount $mnta $mntb 2>/dev/null
fi
check mount-unpin "$lat" --unpin

# ---- idle clients, from the module's listing -----------------------------------
# Nothing is pinned now: a ksmbdtop started after these clients went idle
# loads fresh programs that never see a request of theirs. It still lists
# them, as smbstatus would: jos\u00e9 (a UTF-8 name, valid UTF-8 in the JSON)
# logged on from 127.0.0.6, and a connection from 127.0.0.7 that sent its
# NEGOTIATE only. /proc/fs/ksmbd/clients is root's only.
ip addr add 127.0.0.6/8 dev lo 2>/dev/null || true
ip addr add 127.0.0.7/8 dev lo 2>/dev/null || true
juser=$(printf 'jos\303\251')
id "$juser" >/dev/null 2>&1 || useradd --badname -M -d /srv/share "$juser"
"$top/build/daemon/ksmbd.adduser" -a "$juser" -p Jose-pw-77 \
	-i /etc/ksmbd/ksmbdpwd.db >/dev/null 2>&1
[ -f /run/ksmbd.mountd.pid ] && kill -HUP "$(cat /run/ksmbd.mountd.pid)"
sleep 1
python3 - "$top/tests" "$juser" > "$work/idle.out" 2>&1 <<'PY' &
import socket, sys, time
sys.path.insert(0, sys.argv[1])
orig = socket.create_connection
def bound(src):
    socket.create_connection = lambda a, timeout=None, **kw: orig(
        a, timeout, source_address=(src, 0))
from smb2 import client
bound("127.0.0.6")
c = client.AuthConn("127.0.0.1", 445, 0x0311)
st, sess, _ = c.login(sys.argv[2], "Jose-pw-77")
assert st == 0, "login status 0x%x" % st
assert c.tree_connect(sess, "share").status == 0
bound("127.0.0.7")
n = client.Conn()
assert n.negotiate([0x0302]).status == 0
print("idle", flush=True)
time.sleep(300)
PY
idlepid=$!
check idle-clients-up wait_for 30 grep -q '^idle' "$work/idle.out"
sed 's/^/# clients: /' /proc/fs/ksmbd/clients
check clients-file-root-only test "$(stat -c %a /proc/fs/ksmbd/clients)" = 400
check_not clients-file-not-for-others setpriv --reuid=65534 --regid=65534 \
	--clear-groups cat /proc/fs/ksmbd/clients
"$kt" -b -j -n 2 -d 1 > "$out/idle.json" 2> "$out/idle.err"
check idle-batch-exit-0 test $? -eq 0
check idle-json-utf8 python3 -c '
import sys
open(sys.argv[1], "rb").read().decode("utf-8")' "$out/idle.json"
check idle-listed-with-user test "$(kt_field "$out/idle.json" 127.0.0.6 'c["user"]')" = "$juser"
check idle-no-requests-seen test "$(kt_field "$out/idle.json" 127.0.0.6 'c["requests"]')" = 0
check idle-session-counted test "$(kt_field "$out/idle.json" 127.0.0.6 'c["sessions"]')" = 1
check idle-dialect test "$(kt_field "$out/idle.json" 127.0.0.6 'c["dialect"]')" = 3.1.1
check negotiate-only-listed test "$(kt_field "$out/idle.json" 127.0.0.7 'c["dialect"]')" = 3.0.2
check negotiate-only-no-user test "$(kt_field "$out/idle.json" 127.0.0.7 'repr(c["user"])')" = "''"
"$kt" -b -n 1 -d 0.5 > "$out/idle.txt" 2>&1
check idle-text-row grep -qE "^127\.0\.0\.6 +$juser " "$out/idle.txt"
kill $idlepid 2>/dev/null
wait $idlepid 2>/dev/null
gone() { ! grep -qE ' 127\.0\.0\.[67] ' /proc/fs/ksmbd/clients; }
check idle-clients-gone wait_for 20 gone
"$kt" -b -j -n 1 -d 0.5 > "$out/idle-gone.json" 2>&1
check idle-row-dropped test "$(kt_field "$out/idle-gone.json" 127.0.0.6 'c["user"]')" = absent

# ---- interactive, through tmux -----------------------------------------------

export TERM=xterm-256color
s=kt$$
tmux new-session -d -s $s -x 160 -y 40 "bash --norc --noprofile"
screen() { tmux capture-pane -t $s -p > "$out/$1.txt"; }
screen_has() { tmux capture-pane -t $s -p | grep -qE -- "$1"; }
# the first data row of the client table
first_row() {
	tmux capture-pane -t $s -p |
		awk '/^ADDRESS/ { getline; print $1; exit }'
}
# the measured interval in the header, and the table below it
interval() { tmux capture-pane -t $s -p | grep -oE 'interval [0-9.]+s' | head -1; }
table_sum() { tmux capture-pane -t $s -p | sed -n '/^ADDRESS/,$p' | md5sum; }
unchanged() { [ "$(interval)" = "$1" ] && [ "$(table_sum)" = "$2" ]; }
changed() { ! unchanged "$@"; }
# the width of the title line of the client table
title_width() { tmux capture-pane -t $s -p | awk '/^ADDRESS/ { print length($0); exit }'; }
echo_forever 127.0.0.1 0.5; slow=$!
echo_forever 127.0.0.2 0.05; fast=$!
tmux send-keys -t $s "PS1='kt-shell\$ '; $kt -d 1; echo KT-EXIT-\$?" Enter
if wait_for 120 screen_has '^ADDRESS'; then
	pass tmux-table-appears
else
	fail tmux-table-appears "no table in 120 s"
fi
# wait for both rows with a measured interval
wait_for 20 screen_has '^127\.0\.0\.1 ' && wait_for 20 screen_has '^127\.0\.0\.2 '
sleep 3
screen table-by-requests
check tmux-default-sort-by-requests test "$(first_row)" = 127.0.0.2
tmux send-keys -t $s a
sleep 1.5
screen table-by-address
check tmux-sort-key-changes-order test "$(first_row)" = 127.0.0.1
tmux send-keys -t $s r
sleep 1.5
screen table-by-req-rate
check tmux-sort-key-req-rate test "$(first_row)" = 127.0.0.2
tmux send-keys -t $s a
sleep 1.5
tmux send-keys -t $s Enter
if wait_for 10 screen_has '^COMMAND'; then
	pass tmux-enter-opens-commands
else
	fail tmux-enter-opens-commands "no per-command table"
fi
sleep 1.5
screen commands
check tmux-commands-has-echo grep -qE '^ECHO +[0-9]' "$out/commands.txt"
tmux send-keys -t $s Escape
check tmux-esc-back wait_for 10 screen_has '^ADDRESS'
tmux send-keys -t $s h
check tmux-help wait_for 10 screen_has 'per-command latency'
screen help
tmux send-keys -t $s x
check tmux-help-closes wait_for 10 screen_has '^ADDRESS'
# p: the header says so and nothing is sampled (interval and table frozen
# while the echo clients keep going); p again resumes
tmux send-keys -t $s p
check tmux-pause-shown wait_for 10 screen_has 'paused: p resumes'
sleep 1
iv=$(interval) tb=$(table_sum)
sleep 3.5
screen paused
check tmux-pause-freezes unchanged "$iv" "$tb"
tmux send-keys -t $s p
check tmux-resume-samples wait_for 15 changed "$iv" "$tb"
check_not tmux-resume-note-gone screen_has 'paused: p resumes'
# d: the prompt, a new delay, and the measured interval follows it (the
# first interval after the pause spans it: one more tick first)
sleep 2.5
iv=$(interval)
check tmux-interval-before-about-1s python3 -c '
import sys; v = float(sys.argv[1].split()[1].rstrip("s")); assert 0.5 <= v < 2.0, v' "$iv"
tmux send-keys -t $s d
check tmux-delay-prompt wait_for 10 screen_has 'Delay in seconds'
screen delay-prompt
tmux send-keys -t $s 2.5 Enter
sleep 9
screen delay-2.5
check tmux-delay-applies python3 -c '
import sys; v = float(sys.argv[1].split()[1].rstrip("s")); assert 2.2 <= v < 6.0, v' "$(interval)"
tmux send-keys -t $s d
wait_for 10 screen_has 'Delay in seconds'
tmux send-keys -t $s 1 Enter
# resize: the view is redrawn for the new size (the table title is cut to
# 90 columns, and grows back), the header still on the first line
wide=$(title_width)
tmux resize-window -t $s -x 90 -y 24
sleep 2
screen resized-90x24
check tmux-resize-header-first test "$(tmux capture-pane -t $s -p | head -1 | cut -c1-10)" = "ksmbdtop -"
check tmux-resize-narrow test "$(title_width)" -le 90
check tmux-resize-table wait_for 5 screen_has '^127\.0\.0\.[12] '
tmux resize-window -t $s -x 160 -y 40
sleep 2
check tmux-resize-back test "$(title_width)" -eq "$wide"
tmux send-keys -t $s q
check tmux-q-exits wait_for 10 screen_has 'KT-EXIT-0'
tmux send-keys -t $s 'stty -a | grep -oE "(^| )-?(icanon|echo)( |$)" | tr -d " " | tr "\n" , ; echo' Enter
sleep 1
screen after-quit
check tmux-shell-restored grep -q '^icanon,echo,$' "$out/after-quit.txt"
# SIGTERM restores the terminal too (sent to ksmbdtop by its pid)
tmux send-keys -t $s "clear; $kt -d 1; echo KT-TERM-\$?" Enter
wait_for 60 screen_has '^ADDRESS'
shpid=$(tmux display -p -t $s '#{pane_pid}')
ktp=$(pgrep -P "$shpid" -x ksmbdtop)
if [ -n "$ktp" ]; then
	kill -TERM "$ktp"
	check tmux-sigterm-exit wait_for 30 screen_has 'KT-TERM-0'
else
	fail tmux-sigterm-exit "ksmbdtop not found under the pane's shell"
fi
tmux send-keys -t $s 'stty -a | grep -oE "(^| )-?(icanon|echo)( |$)" | tr -d " " | tr "\n" , ; echo' Enter
sleep 1
screen after-sigterm
check tmux-sigterm-restored grep -q '^icanon,echo,$' "$out/after-sigterm.txt"
tmux kill-session -t $s
kill $slow $fast 2>/dev/null
wait $slow $fast 2>/dev/null

# The manual lists every long option (man/ksmbdtop.8, built by make man).
check man-page-lists-options man_lists_options $kt $top/build/man/ksmbdtop.8
finish
