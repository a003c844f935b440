# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a 4 KiB random read's time goes, with one reader or many.

tests/bench/bench.py calls trace() around an fio random-read job on a
cache=none mount. For the job's run it records, through tracefs, each
reader's pread64 (entry with its file offset, and return), the cifs
client's smb3_read_enter (the READ leaves, in the reader's context) and
smb3_read_done (its answer demultiplexed, in cifsd's), our server's
ksmbd_request_start, ksmbd_vfs_read (with the offset) and
ksmbd_request_done, and the scheduler's wake-ups. One read's events are
joined by the reader's pid and the file offset (cache=none: the READ's
offset is the pread's), which no other read in flight shares at the same
time. Each read splits into:

  client out   pread64 entry -> smb3_read_enter (the cifs client builds
               and queues the READ)
  to server    smb3_read_enter -> ksmbd_request_start (send, loopback,
               waking the server's receive thread, queueing behind the
               connection's other requests)
  server       ksmbd_request_start -> ksmbd_request_done
  to client    ksmbd_request_done -> smb3_read_done (the answer sent,
               loopback, waking cifsd, its demultiplexing)
  client in    smb3_read_done -> pread64 return (waking the reader)

Samba has no tracepoints: its reads show client out, client in, and
between them everything else (out and back). Wake-ups are measured on
their own: from sched_waking to the task's sched_switch in, by task
class, per read.
"""
import os
import re
import statistics
import time

TRACEFS = '/sys/kernel/tracing'
EVENTS = ('syscalls/sys_enter_pread64', 'syscalls/sys_exit_pread64',
          'cifs/smb3_read_enter', 'cifs/smb3_read_done',
          'ksmbd/ksmbd_request_start', 'ksmbd/ksmbd_vfs_read',
          'ksmbd/ksmbd_request_done',
          'sched/sched_waking', 'sched/sched_switch')
SEGMENTS = ('client_out', 'to_server', 'server', 'to_client', 'client_in',
            'out_and_back', 'whole')
# "comm-pid [cpu] flags timestamp: event: body"; comm may hold '-' and ' '
LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+):\s+(\w+)[:(]\s*(.*)$')
# the syscall events print as "sys_pread64(fd: 5, ..., pos: 1f000)" and
# "sys_pread64 -> 0x1000"
EXIT = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+):\s+sys_pread64 -> ')
FIELD = re.compile(r'(\w+)[=:]\s*([^\s,)]+)')


def _write(path, value):
    with open(os.path.join(TRACEFS, path), 'w') as f:
        f.write(value)


def _mount_tracefs():
    if not os.path.exists(os.path.join(TRACEFS, 'trace')):
        os.system('mount -t tracefs nodev %s 2>/dev/null' % TRACEFS)


def _classify(comm):
    if comm.startswith('fio'):
        return 'reader'
    if comm.startswith('cifsd'):
        return 'cifsd'
    if comm.startswith(('ksmbd', 'smbd')):
        return 'server'
    if comm.startswith('kworker'):
        return 'kworker'
    return 'other'


def _num(v):
    return int(v, 16) if v.startswith('0x') else int(v)


def parse(lines):
    """Joins the trace's events into reads; returns (reads, wakeups):
    reads a list of {t0, t1, t2, t3, t4, t5} in seconds (None where an
    event was not found), wakeups {class: [latency s, ...]}."""
    preads = {}          # pid -> (t0, pos) of the pread in progress
    done_preads = []     # (pid, pos, t0, t5)
    enters = {}          # (pid, offset) -> [t1, ...]
    dones = {}           # offset -> [t4, ...]
    current = {}         # server pid -> (mid, t2) of its READ in progress
    served = {}          # offset -> [(t2, t3 or None), ...] (mutable lists)
    open_reqs = {}       # (pid, mid) -> the list in served to finish
    waking = {}          # pid -> (t, class)
    wakeups = {}
    # fio's threads, by the comm the scheduler events carry (the line's
    # own comm comes from a small cache and may read "<...>"): Samba's
    # workers pread the same offsets
    readers = set()
    for line in lines:
        m = EXIT.match(line)
        if m:
            pid, t = int(m.group(2)), float(m.group(3))
            if pid in preads:
                t0, pos = preads.pop(pid)
                done_preads.append((pid, pos, t0, t))
            continue
        m = LINE.match(line)
        if not m:
            continue
        comm, pid, t, event, body = m.group(1), int(m.group(2)), float(m.group(3)), \
            m.group(4), m.group(5)
        f = dict(FIELD.findall(body))
        try:
            if event == 'sys_pread64':
                preads[pid] = (t, int(f['pos'], 16))
            elif event == 'smb3_read_enter':
                enters.setdefault((pid, _num(f['offset'])), []).append(t)
            elif event == 'smb3_read_done':
                dones.setdefault(_num(f['offset']), []).append(t)
            elif event == 'ksmbd_request_start':
                if f.get('cmd') == 'READ':
                    current[pid] = (f['mid'], t)
            elif event == 'ksmbd_vfs_read':
                if pid in current:
                    mid, t2 = current.pop(pid)
                    rec = [t2, None]
                    served.setdefault(int(f['offset']), []).append(rec)
                    open_reqs[(pid, mid)] = rec
            elif event == 'ksmbd_request_done':
                rec = open_reqs.pop((pid, f.get('mid')), None)
                if rec is not None:
                    rec[1] = t
            elif event == 'sched_waking':
                wpid = int(f['pid'])
                if f.get('comm', '').startswith('fio'):
                    readers.add(wpid)
                if wpid not in waking:
                    waking[wpid] = (t, _classify(f.get('comm', '')))
            elif event == 'sched_switch':
                npid = int(f.get('next_pid', -1))
                if f.get('next_comm', '').startswith('fio'):
                    readers.add(npid)
                if npid in waking:
                    tw, cls = waking.pop(npid)
                    wakeups.setdefault(cls, []).append(t - tw)
        except (KeyError, ValueError):
            continue
    reads = []
    for pid, pos, t0, t5 in done_preads:
        if readers and pid not in readers:
            continue
        r = {'t0': t0, 't5': t5, 't1': None, 't2': None, 't3': None, 't4': None}
        r['t1'] = next((t for t in enters.get((pid, pos), []) if t0 <= t <= t5), None)
        if r['t1'] is not None:
            r['t4'] = next((t for t in dones.get(pos, []) if r['t1'] <= t <= t5), None)
        if r['t4'] is not None:
            srv = [(a, b) for a, b in served.get(pos, [])
                   if b is not None and r['t1'] <= a <= b <= r['t4']]
            if len(srv) == 1:
                r['t2'], r['t3'] = srv[0]
        reads.append(r)
    return reads, wakeups


def segments(r):
    """One read's segments in microseconds (None where an end is missing)."""
    d = lambda a, b: (r[b] - r[a]) * 1e6 if r[a] is not None and r[b] is not None else None
    return {'client_out': d('t0', 't1'), 'to_server': d('t1', 't2'), 'server': d('t2', 't3'),
            'to_client': d('t3', 't4'), 'client_in': d('t4', 't5'),
            'out_and_back': d('t1', 't4'), 'whole': d('t0', 't5')}


def summarize(reads, wakeups, wall_s):
    """Means and medians of each segment over the reads joined end to end
    (through the server's events too where they exist), and wake-ups per
    read by task class."""
    segs = [segments(r) for r in reads]
    joined = [s for s in segs if s['client_out'] is not None and s['client_in'] is not None]
    full = [s for s in joined if s['server'] is not None]
    out = {'reads': len(reads), 'joined': len(full or joined), 'server_joined': len(full),
           'reads_per_s': len(reads) / wall_s if wall_s > 0 else None, 'segments': {}}
    # one set of reads for every segment, so that the means add up: those
    # joined through the server where there are such (ours)
    for name in SEGMENTS:
        vals = [s[name] for s in (full or joined) if s[name] is not None]
        out['segments'][name] = {'mean_us': statistics.mean(vals) if vals else None,
                                 'median_us': statistics.median(vals) if vals else None,
                                 'n': len(vals)}
    n = len(reads) or 1
    out['wakeups'] = {cls: {'per_read': len(v) / n,
                            'median_us': statistics.median(v) * 1e6,
                            'us_per_read': sum(v) * 1e6 / n}
                      for cls, v in sorted(wakeups.items()) if v}
    return out


def trace(run, buffer_kb=16384, keep=None):
    """Runs run() (the fio job) with the events on; returns summarize()'s
    dict, with what run() returned under 'job' and the events the buffer
    lost under 'overruns'. keep: a path to copy the raw trace to."""
    _mount_tracefs()
    enabled = []
    _write('tracing_on', '0')
    _write('trace', '')
    _write('buffer_size_kb', str(buffer_kb))
    _write('trace_clock', 'global')  # comparable across the vCPUs
    try:
        for ev in EVENTS:
            if os.path.exists(os.path.join(TRACEFS, 'events', ev, 'enable')):
                _write('events/%s/enable' % ev, '1')
                enabled.append(ev)
        t = time.monotonic()
        _write('tracing_on', '1')
        job = run()
        _write('tracing_on', '0')
        wall = time.monotonic() - t
        if keep:
            with open(os.path.join(TRACEFS, 'trace')) as f, open(keep, 'w') as k:
                for line in f:
                    k.write(line)
        with open(os.path.join(TRACEFS, 'trace')) as f:
            reads, wakeups = parse(f)
        overruns = 0
        for cpu in os.listdir(os.path.join(TRACEFS, 'per_cpu')):
            with open(os.path.join(TRACEFS, 'per_cpu', cpu, 'stats')) as f:
                for l in f:
                    if l.startswith('overrun:'):
                        overruns += int(l.split()[1])
    finally:
        _write('tracing_on', '0')
        for ev in enabled:
            _write('events/%s/enable' % ev, '0')
        _write('trace', '')
        _write('buffer_size_kb', '1408')
        _write('trace_clock', 'local')
        _write('tracing_on', '1')
    out = summarize(reads, wakeups, wall)
    out.update(job=job, overruns=overruns, events=[e.split('/')[1] for e in enabled])
    return out


def report(rt, fmt):
    """Markdown lines for results.md from {server: {readers: summary}}."""
    if not rt:
        return []
    lines = ['', '## Where a 4 KiB random read\'s time goes (traced; us per read, means '
             'over the reads joined end to end)', '',
             'One fio random-read job per row, tracefs on throughout (which slows it): '
             'each pread64 joined by reader and offset to the cifs client\'s '
             'smb3_read_enter and smb3_read_done and, for ours, the server\'s '
             'ksmbd_request_start/ksmbd_vfs_read/ksmbd_request_done. client out = pread '
             'to the READ queued; to server = to our request_start (send, loopback, '
             'waking and queueing in the receive thread); server = request_start to '
             'request_done; to client = to cifsd\'s demultiplexing (send, loopback, '
             'waking cifsd); client in = to pread\'s return (waking the reader); '
             'out and back = to server + server + to client, all Samba shows. '
             'Wake-ups: sched_waking to sched_switch in, per read, by task class. '
             'See tests/bench/roundtrip.py.', '',
             '| readers | server | reads/s traced | joined | whole | client out | '
             'to server | server | to client | client in | out and back | wake-ups per '
             'read (count, median us, us per read) |',
             '|---|---|---|---|---|---|---|---|---|---|---|---|']
    for n in sorted({k for v in rt.values() for k in v}, key=int):
        for srv in sorted(rt):
            s = rt[srv].get(n)
            if not s:
                continue
            if 'error' in s:
                lines.append('| %s | %s | failed: %s |||||||||||' % (n, srv, s['error']))
                continue
            seg = lambda k: fmt(s['segments'][k]['mean_us'])
            wk = '; '.join('%s %.2f x %s = %s' % (c, w['per_read'], fmt(w['median_us']),
                                                  fmt(w['us_per_read']))
                           for c, w in s['wakeups'].items() if c != 'other')
            lines.append('| %s | %s | %s | %d of %d | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                n, srv, fmt(s['reads_per_s']), s['joined'], s['reads'], seg('whole'),
                seg('client_out'), seg('to_server'), seg('server'), seg('to_client'),
                seg('client_in'), seg('out_and_back'), wk or '-'))
    return lines
