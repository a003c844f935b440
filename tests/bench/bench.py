#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The benchmark, run inside the guest (tests/bench/run boots it).

Serves the same tmpfs-backed share alternately from our server and from
Samba's smbd (both on 127.0.0.1:445, one after the other), mounts each with
the same mount.cifs options, runs the same fio jobs, and also runs each job
directly on the tmpfs backing directory (the local limit). Medians over the
rounds; ratios ours/Samba and ours/local. Results go to
$BENCH_OUT (default $VM_TOP/build/bench)/results.{json,md}.
"""
import ctypes
import json
import re
import os
import shutil
import statistics
import struct
import subprocess
import sys
import time

import roundtrip

TOP = os.environ['VM_TOP']
OUT = os.environ.get('BENCH_OUT') or os.path.join(TOP, 'build', 'bench')
SHARE = '/srv/share'
MNT = '/mnt/bench'
USER, PASS = 'tester', 'tester'
ROUNDS = int(os.environ.get('BENCH_ROUNDS', '3'))
RUNTIME = int(os.environ.get('BENCH_RUNTIME', '10'))
SEQ_SIZE = os.environ.get('BENCH_SEQ_SIZE', '256M')
META_FILES = int(os.environ.get('BENCH_META_FILES', '2000'))
OBS_PAIRS = int(os.environ.get('BENCH_OBS_PAIRS', '4'))
# The observability run's timed jobs: shorter, since it runs each job twice a pair.
OBS_RUNTIME = int(os.environ.get('BENCH_OBS_RUNTIME', '2'))
LAT = os.path.join(TOP, 'build', 'bpf', 'ksmbd-lat')
ALL_OBSERVERS = {  # attached during the observability run; output discarded
    'lat': [LAT, '-C', '1'],
    'top': [os.path.join(TOP, 'build', 'monitor', 'ksmbdtop'), '-b', '-J', '-d', '1'],
}
OBSERVERS = [ALL_OBSERVERS[n] for n in
             os.environ.get('BENCH_OBSERVERS', 'lat,top').split(',') if n]
# Issue 29's jobs: parallel readers and metadata workers, dbench, a big
# directory. BENCH_CURVE: the reader counts of the random-read curve over
# one mount; BENCH_MOUNTS: the mounts (separate TCP connections) of the
# *_mounts jobs; BENCH_DBENCH_CLIENTS/_TIME: dbench's clients and seconds;
# BENCH_DIR_ENTRIES: the big directory.
CURVE = [int(n) for n in os.environ.get('BENCH_CURVE', '1,2,4,8').split(',') if n]
MOUNTS = int(os.environ.get('BENCH_MOUNTS', '4'))
DBENCH_CLIENTS = int(os.environ.get('BENCH_DBENCH_CLIENTS', '8'))
# 60 s: dbench's client.txt opens with a write-heavy stretch (its first
# 600 lines move 21 MB a client, the next 1,800 lines 7 MB), so a short
# run's MB/s favours the server whose clients stay in it longest.
DBENCH_TIME = int(os.environ.get('BENCH_DBENCH_TIME', '60'))
DBENCH_LOADFILE = '/usr/share/dbench/client.txt'
DIR_ENTRIES = int(os.environ.get('BENCH_DIR_ENTRIES', '10000'))
# The traced random reads (tests/bench/roundtrip.py): reader counts and seconds.
RT_READERS = [int(n) for n in os.environ.get('BENCH_RT_READERS', '1,8').split(',') if n]
RT_SECONDS = int(os.environ.get('BENCH_RT_SECONDS', '3'))
RT_KEEP = os.environ.get('BENCH_RT_KEEP') == '1'  # the raw traces into OUT
# BENCH_LOCAL=single: the local run (the backing directory) only for the
# single-client jobs (make check's miniature, which checks the servers).
LOCAL_ALL = os.environ.get('BENCH_LOCAL', 'all') != 'single'
# BENCH_LEAN=1 (make check's miniature): both sealed sets run only their
# goal's 1 MiB jobs and the cache=default set no metadata jobs.
LEAN = os.environ.get('BENCH_LEAN') == '1'
NOCACHE = 'vers=3.1.1,cache=none'  # the goals' set and the observability run's
GCM256 = ' (require_gcm_256=1)'  # not a mount option: the cifs module parameter
OPTION_SETS = {
    'nocache': NOCACHE,
    'default': 'vers=3.1.1',
    # Encrypted: the cost of sealing. The client (6.1) offers AES-128-GCM
    # first and both servers pick it.
    'sealed': 'vers=3.1.1,cache=none,seal',
    # With require_gcm_256 the client offers AES-256-GCM alone and refuses
    # a session that does not encrypt with it: a mount is the proof.
    'sealed256': 'vers=3.1.1,cache=none,seal' + GCM256,
    # Two channels (issue 28): the mount goes to the guest's NIC address and
    # the client binds a second channel over MCHAN_ADDR, which the guest
    # adds to its NIC; the 1 MiB read only, against nocache's one channel.
    'mchan': 'vers=3.1.1,cache=none,multichannel,max_channels=2',
}
MCHAN_HOST = '10.0.2.15'   # the guest's NIC (tests/vm/run --net)
MCHAN_ADDR = '10.0.2.16'
DATA_JOB = 'bench'  # one data file for the sequential and random jobs


def sh(cmd, check=True, quiet=False, timeout=None):
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True,
                       timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError('%s: %s' % (cmd, (r.stderr or r.stdout).strip()[-300:]))
    if not quiet and r.returncode != 0:
        print('bench: %s -> %d %s' % (cmd, r.returncode, r.stderr.strip()[-200:]))
    return r


def log(msg):
    print('bench: ' + msg, flush=True)


# ---- servers ----------------------------------------------------------

class Ours:
    name = 'ksmbd'

    def start(self):
        # start-server adds its user with ksmbd.adduser -a, which refuses a
        # user the database already has: every start after the first
        # failed, leaving one ksmbd round and no observability run
        sh('rm -f /etc/ksmbd/ksmbdpwd.db', check=False, quiet=True)
        sh('%s/tests/vm/start-server' % TOP)

    def stop(self):
        sh('pkill -TERM -f ksmbd.mountd', check=False, quiet=True)
        time.sleep(0.5)
        sh('rmmod ksmbd', check=False, quiet=True)


class Samba:
    name = 'samba'
    conf = '/run/bench-smb/smb.conf'

    def start(self):
        d = '/run/bench-smb'
        os.makedirs(d, exist_ok=True)
        for sub in ('lock', 'state', 'cache', 'private', 'pid', 'log', 'ncalrpc'):
            os.makedirs(os.path.join(d, sub), exist_ok=True)
        with open(self.conf, 'w') as f:
            f.write('''[global]
  workgroup = WORKGROUP
  netbios name = BENCH
  server role = standalone server
  map to guest = never
  lock directory = {d}/lock
  state directory = {d}/state
  cache directory = {d}/cache
  private dir = {d}/private
  pid directory = {d}/pid
  ncalrpc dir = {d}/ncalrpc
  log file = {d}/log/%m.log
  disable spoolss = yes
  load printers = no
  smb ports = 445
  interfaces = lo eth0
  bind interfaces only = yes
  server multi channel support = yes
  store dos attributes = no
[share]
  path = {share}
  read only = no
'''.format(d=d, share=SHARE))
        sh('id %s >/dev/null 2>&1 || useradd -M %s' % (USER, USER))
        sh("(echo %s; echo %s) | smbpasswd -c %s -s -a %s" % (PASS, PASS, self.conf, USER))
        # its own session: smbd ends by signalling its process group, which
        # must not be ours (that ended a whole run with SIGTERM)
        self.proc = subprocess.Popen(['smbd', '-F', '--no-process-group', '-s', self.conf],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        for _ in range(200):
            if sh("ss -ltnH 'sport = :445' | grep -q LISTEN", check=False, quiet=True).returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError('smbd does not listen on 445')

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        sh('pkill -KILL smbd', check=False, quiet=True)
        time.sleep(0.5)


PIN_DIR = '/sys/fs/bpf/ksmbd'
BPF_OBJ_GET, BPF_RAW_TRACEPOINT_OPEN = 7, 17
SYS_BPF = 321  # x86_64


def bpf_call(cmd, attr):
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(attr, 128)
    fd = libc.syscall(SYS_BPF, cmd, buf, len(attr))
    if fd < 0:
        raise OSError(ctypes.get_errno(), 'bpf(%d): %s' % (cmd, os.strerror(ctypes.get_errno())))
    return fd


class ProgramSwitch:
    """Attaches and detaches the pinned programs in milliseconds, so the
    observability run can alternate often (the guest's throughput drifts
    by tens of percent within a minute; only close neighbours compare).
    The programs and maps stay loaded and pinned; the switch holds the
    programs' links itself (a tp_btf link is its open file)."""

    def __init__(self):
        self.progs, self.links = [], []
        for name in sorted(os.listdir(PIN_DIR)):
            path = os.path.join(PIN_DIR, name)
            if name.startswith('prog_'):
                self.progs.append(self.obj_get(path))
            elif name.startswith('link_'):
                os.unlink(path)  # closing its last reference detaches it
        if not self.progs:
            raise RuntimeError('no programs pinned under %s' % PIN_DIR)

    @staticmethod
    def obj_get(path):
        p = ctypes.create_string_buffer(path.encode())
        return bpf_call(BPF_OBJ_GET, struct.pack('=QII', ctypes.addressof(p), 0, 0))

    def set(self, attached):
        if attached and not self.links:
            for fd in self.progs:
                self.links.append(bpf_call(BPF_RAW_TRACEPOINT_OPEN,
                                           struct.pack('=QI4x', 0, fd)))
        elif not attached:
            for fd in self.links:
                os.close(fd)
            self.links = []

    def close(self):
        self.set(False)
        for fd in self.progs:
            os.close(fd)
        self.progs = []


class Observers:
    """ksmbd-lat and ksmbdtop reading one pinned copy of the programs
    (what both do whenever something is pinned), for a whole run; the
    programs themselves are switched on and off under them."""

    def start(self):
        self.procs = []
        sh('%s --pin' % LAT)
        self.switch = ProgramSwitch()
        for argv in OBSERVERS:
            if not os.access(argv[0], os.X_OK):
                raise RuntimeError('%s was not built' % argv[0])
            self.procs.append(subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                               stderr=subprocess.PIPE, text=True))
        # both print their first interval after attaching; give them time
        time.sleep(5)
        for p, argv in zip(self.procs, OBSERVERS):
            if p.poll() is not None:
                raise RuntimeError('%s exited: %s' % (os.path.basename(argv[0]),
                                                      p.stderr.read().strip()[-200:]))
        # loading (BTF parsing, CO-RE relocation) is paid once; count from here
        self.cpu_at_start = self.cpu_seconds()
        self.t0 = time.time()

    @staticmethod
    def prog_stats():
        """run_cnt and run_time_ns of every attached ksmbd program
        (kernel.bpf_stats_enabled): the programs' own cost per event."""
        r = sh('bpftool -j prog show', check=False, quiet=True)
        try:
            progs = json.loads(r.stdout or '[]')
        except ValueError:
            return {}
        out = {}
        for p in progs:
            name = p.get('name', '')
            if name.startswith('ksmbd') and 'run_cnt' in p:
                cnt, ns = out.get(name, (0, 0))
                out[name] = (cnt + p['run_cnt'], ns + p.get('run_time_ns', 0))
        return out

    def cpu_seconds(self):
        """User plus system CPU each observer used so far (its own share
        of the guest's CPUs, apart from what its programs add to requests)."""
        out = {}
        for p, argv in zip(self.procs, OBSERVERS):
            try:
                with open('/proc/%d/stat' % p.pid) as f:
                    fields = f.read().rsplit(')', 1)[1].split()
                out[os.path.basename(argv[0])] = \
                    (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
            except (OSError, IndexError, ValueError):
                pass
        return out

    def stop(self):
        for p in self.procs:
            p.send_signal(2)
        for p in self.procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if getattr(self, 'switch', None):
            self.switch.close()
        sh('%s --unpin' % LAT, check=False)
        sh('sysctl -qw kernel.bpf_stats_enabled=0', check=False, quiet=True)


# ---- jobs -------------------------------------------------------------

def fio(directory, name, args):
    # --thread: one process, so the timeout's kill ends the whole job
    argv = ['fio', '--thread', '--output-format=json', '--name=' + name,
            '--directory=' + directory, '--group_reporting'] + args.split()
    r = subprocess.run(argv, capture_output=True, text=True, timeout=RUNTIME * 6 + 120)
    if r.returncode != 0:
        raise RuntimeError('fio: %s' % (r.stderr or r.stdout).strip()[-300:])
    return json.loads(r.stdout[r.stdout.index('{'):])['jobs'][0]


def drop_caches():
    sh('sync; echo 3 > /proc/sys/vm/drop_caches', check=False, quiet=True)


def job_seqwrite(d, runtime):
    j = fio(d, DATA_JOB, '--rw=write --bs=1M --size=%s --end_fsync=1 --runtime=%d'
            % (SEQ_SIZE, runtime * 3))
    return j['write']['bw_bytes'] / 1e6, 'MB/s'


def job_seqread(d, runtime):
    drop_caches()
    j = fio(d, DATA_JOB, '--rw=read --bs=1M --size=%s --runtime=%d'
            % (SEQ_SIZE, runtime * 3))
    return j['read']['bw_bytes'] / 1e6, 'MB/s'


def job_randread(d, runtime):
    j = fio(d, DATA_JOB, '--rw=randread --bs=4k --size=%s --time_based --runtime=%d'
            % (SEQ_SIZE, runtime))
    return j['read']['iops'], 'IOPS'


def job_randwrite(d, runtime):
    j = fio(d, DATA_JOB, '--rw=randwrite --bs=4k --size=%s --time_based --runtime=%d'
            % (SEQ_SIZE, runtime))
    return j['write']['iops'], 'IOPS'


# The metadata jobs time each system call themselves: fio's filestat and
# filedelete engines first lay every file out to --filesize, which over a
# cache=none mount is 2,000 writes and not the metadata rate asked for.
def meta_names(d):
    return [os.path.join(d, 'f%05d' % i) for i in range(META_FILES)]


def meta_rate(d, op):
    names = meta_names(d)
    t = time.monotonic()
    for n in names:
        op(n)
    return META_FILES / (time.monotonic() - t), 'files/s'


def create_one(path):
    os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))


def job_create(d, runtime):
    m = os.path.join(d, 'meta')
    shutil.rmtree(m, ignore_errors=True)
    os.makedirs(m, exist_ok=True)
    return meta_rate(m, create_one)


def close_timeout(d):
    """The cifs mount's closetimeo (s) when d is on one, else 0."""
    with open('/proc/mounts') as f:
        for line in f:
            dev, mnt, fstype, opts = line.split()[:4]
            if fstype == 'cifs' and (d == mnt or d.startswith(mnt.rstrip('/') + '/')):
                for o in opts.split(','):
                    if o.startswith('closetimeo='):
                        return int(o.split('=', 1)[1])
    return 0


def job_stat(d, runtime):
    # cifs defers each CLOSE by closetimeo (1 s) and keeps the handle, its
    # dentry and its attributes: right after the create job the files of
    # its last second would stat from the client's cache, so the faster
    # server would look faster still. Wait the handles out first.
    time.sleep(close_timeout(d) + 1)
    drop_caches()
    return meta_rate(os.path.join(d, 'meta'), os.stat)


def job_unlink(d, runtime):
    return meta_rate(os.path.join(d, 'meta'), os.unlink)


# ---- issue 29: many clients, mixed load, a big directory ---------------

DATA_FILE = DATA_JOB + '.0.0'  # the file fio's single-client jobs use


def size_bytes(s):
    mult = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
    return int(s[:-1]) * mult[s[-1].upper()] if s[-1].upper() in mult else int(s)


def ensure_data():
    """The data file of the parallel readers, written on the backing
    directory when a focused run has no seq_write_1M before them."""
    path = os.path.join(SHARE, DATA_FILE)
    want = size_bytes(SEQ_SIZE)
    if os.path.exists(path) and os.path.getsize(path) >= want:
        return
    chunk = os.urandom(1 << 20)
    with open(path, 'wb') as f:
        for off in range(0, want, len(chunk)):
            f.write(chunk[:min(len(chunk), want - off)])
    os.chmod(path, 0o666)


def mount_dirs(d, n):
    """n directories, one per parallel job: d itself, or on the server's
    mounts, the mounts in turn (MNT and its nosharesock siblings)."""
    dirs = [d] if d != MNT else [MNT] + extra_mounts()
    return [dirs[i % len(dirs)] for i in range(n)]


def fio_par(dirs, common, per_job=None):
    """One fio run, one job section per directory, reported as one group."""
    argv = ['fio', '--thread', '--output-format=json', '--group_reporting'] + common.split()
    for i, d in enumerate(dirs):
        argv += ['--name=p%d' % i, '--directory=' + d, '--filename=' + DATA_FILE]
        if per_job:
            argv += per_job(i).split()
    r = subprocess.run(argv, capture_output=True, text=True, timeout=RUNTIME * 6 + 120)
    if r.returncode != 0:
        raise RuntimeError('fio: %s' % (r.stderr or r.stdout).strip()[-300:])
    return json.loads(r.stdout[r.stdout.index('{'):])['jobs'][0]


def randread_par(d, runtime, n, several):
    ensure_data()
    dirs = mount_dirs(d, n) if several else [d] * n
    j = fio_par(dirs, '--rw=randread --bs=4k --size=%s --time_based --runtime=%d'
                % (SEQ_SIZE, runtime))
    return j['read']['iops'], 'IOPS'


def seqread_par(d, runtime, n, several):
    """n readers, each looping over its own n-th of the file (no cache
    drop: cache=none, and the server's tmpfs pages cannot be dropped)."""
    ensure_data()
    part = size_bytes(SEQ_SIZE) // n // (1 << 20) * (1 << 20)
    dirs = mount_dirs(d, n) if several else [d] * n
    j = fio_par(dirs, '--rw=read --bs=1M --time_based --runtime=%d --size=%d'
                % (runtime, part), lambda i: '--offset=%d' % (i * part))
    return j['read']['bw_bytes'] / 1e6, 'MB/s'


def curve_job(n):
    return lambda d, runtime: randread_par(d, runtime, n, False)


def meta_par(d, runtime, workers, shared):
    """workers processes creating, then stat'ing, then unlinking their
    share of BENCH_META_FILES files, each in its own directory or all in
    one; the phases start together, the stat phase after cifs's deferred
    closes and cached attributes (closetimeo + 1 s, longer than actimeo,
    1 s) have expired: the CREATEs counted per operation show each
    reached the server. No cache drop: under TCG it costs seconds (the
    next programs reload from 9p). ops/s over the three phases' time."""
    top = os.path.join(d, 'meta_par')
    shutil.rmtree(top, ignore_errors=True)
    per = max(1, META_FILES // workers)
    names = []
    for w in range(workers):
        sub = os.path.join(top, 'shared' if shared else 'w%d' % w)
        os.makedirs(sub, exist_ok=True)
        names.append([os.path.join(sub, 'w%d_f%05d' % (w, i)) for i in range(per)])
    phases = (create_one, os.stat, os.unlink)
    kids = []
    for w in range(workers):
        go_r, go_w = os.pipe()
        done_r, done_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            rc = 0
            try:
                os.close(go_w)
                os.close(done_r)
                for op in phases:
                    if os.read(go_r, 1) != b'g':
                        break
                    msg = b'k'
                    try:
                        for n in names[w]:
                            op(n)
                    except Exception as e:
                        msg = ('e%s %s' % (op.__name__, e))[:200].encode()
                    os.write(done_w, msg)
            except BaseException:
                rc = 1
            os._exit(rc)
        os.close(go_r)
        os.close(done_w)
        kids.append((pid, go_w, done_r))
    secs, errors = [], []
    try:
        for op in phases:
            if op is os.stat:
                time.sleep(close_timeout(d) + 1)
            t = time.monotonic()
            for _, go_w, _ in kids:
                os.write(go_w, b'g')
            for _, _, done_r in kids:
                msg = os.read(done_r, 256)
                if msg != b'k':
                    errors.append(msg.decode(errors='replace') or 'worker died')
            secs.append(time.monotonic() - t)
    finally:
        for pid, go_w, done_r in kids:
            os.close(go_w)
            os.close(done_r)
            os.waitpid(pid, 0)
    if errors:
        raise RuntimeError('%d workers failed: %s' % (len(errors), errors[0]))
    files = per * workers
    log('  %s: create %.0f, stat %.0f, unlink %.0f files/s'
        % ('shared dir' if shared else 'own dirs', files / secs[0], files / secs[1],
           files / secs[2]))
    return 3 * files / sum(secs), 'ops/s', {'ops': 3 * files}


def job_meta_own(d, runtime):
    return meta_par(d, runtime, 8, False)


def job_meta_shared(d, runtime):
    return meta_par(d, runtime, 8, True)


# dbench prints this when SysV semaphores are unavailable and carries on
# without the start barrier; everything else that fails is an error.
DBENCH_BENIGN = ('failed to create barrier semaphore',)


def job_dbench(d, runtime):
    """dbench's NetBench-style load (its client.txt), DBENCH_CLIENTS
    clients for DBENCH_TIME s. Any failed operation fails the job."""
    w = os.path.join(d, 'dbench')
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w, exist_ok=True)
    r = subprocess.run(['dbench', '-c', DBENCH_LOADFILE, '-D', w, '-t', str(DBENCH_TIME),
                        str(DBENCH_CLIENTS)], capture_output=True, text=True,
                       timeout=DBENCH_TIME * 6 + 120)
    out = r.stdout + r.stderr
    bad = [l.strip() for l in out.splitlines()
           if ('fail' in l.lower() or 'error' in l.lower())
           and not any(b in l for b in DBENCH_BENIGN)]
    tput = [l for l in out.splitlines() if l.startswith('Throughput ')]
    if r.returncode != 0 or bad or not tput:
        raise RuntimeError('dbench exited %d: %s' % (r.returncode,
                                                    '; '.join(bad[:3]) or out.strip()[-200:]))
    mbs = float(tput[-1].split()[1])
    if mbs <= 0:  # e.g. -t 1: it reports before any operation completed
        raise RuntimeError('dbench: no throughput in %d s: %s' % (DBENCH_TIME, tput[-1]))
    shutil.rmtree(w, ignore_errors=True)
    return mbs, 'MB/s'


def job_listdir(d, runtime):
    """A DIR_ENTRIES-entry directory made on the backing directory, the
    caches dropped, then listed without stat (ls -f) through d."""
    back = os.path.join(SHARE, 'bigdir')
    if not os.path.isdir(back) or len(os.listdir(back)) != DIR_ENTRIES:
        shutil.rmtree(back, ignore_errors=True)
        os.makedirs(back)
        for i in range(DIR_ENTRIES):
            os.close(os.open(os.path.join(back, 'entry-%06d' % i), os.O_CREAT | os.O_WRONLY, 0o644))
    drop_caches()
    t = time.monotonic()
    with os.scandir(os.path.join(d, 'bigdir')) as it:
        n = sum(1 for _ in it)
    dt = time.monotonic() - t
    if n != DIR_ENTRIES:
        raise RuntimeError('listed %d entries of %d' % (n, DIR_ENTRIES))
    return n / dt, 'entries/s', {'entries': n}


# The issues' goals for ours/Samba, by option set; the observers' overhead
# goal is OBS_GOAL_PCT.
GOALS = {'nocache': {'seq_write_1M': 1.3, 'seq_read_1M': 1.8, 'rand_read_4k': 3.5,
                     'meta_create': 2.5, 'meta_stat': 2.5, 'meta_unlink': 2.5,
                     # issue 29
                     'rand_read_4k_x8': 3.0, 'rand_read_4k_x8_mounts': 3.0,
                     'seq_read_1M_x4': 2.0, 'seq_read_1M_x4_mounts': 2.0,
                     'meta_x8_own_dirs': 3.0, 'meta_x8_shared_dir': 3.0,
                     'dbench': 1.5, 'list_dir_cold': 2.0},
         'sealed': {'seq_write_1M': 1.5, 'seq_read_1M': 1.5},
         'sealed256': {'seq_write_1M': 1.5, 'seq_read_1M': 1.5}}
OBS_GOAL_PCT = 3.0

JOBS = [('seq_write_1M', job_seqwrite), ('seq_read_1M', job_seqread),
        ('rand_read_4k', job_randread), ('rand_write_4k', job_randwrite),
        ('meta_create', job_create), ('meta_stat', job_stat),
        ('meta_unlink', job_unlink)]
# Issue 29's jobs run in the cache=none set only (and locally).
NOCACHE_ONLY = ['rand_read_4k_x%d' % n for n in CURVE] + [
    'rand_read_4k_x8_mounts', 'seq_read_1M_x4', 'seq_read_1M_x4_mounts',
    'meta_x8_own_dirs', 'meta_x8_shared_dir', 'dbench', 'list_dir_cold']
# Issue 29's jobs that the observability run repeats (one mount: not the
# _mounts ones; of the curve, the top).
OBS_MANY = ['rand_read_4k_x%d' % max(CURVE or [8]), 'seq_read_1M_x4', 'meta_x8_own_dirs',
            'dbench', 'list_dir_cold']
JOBS += [('rand_read_4k_x%d' % n, curve_job(n)) for n in CURVE]
JOBS += [('rand_read_4k_x8_mounts', lambda d, r: randread_par(d, r, 8, True)),
         ('seq_read_1M_x4', lambda d, r: seqread_par(d, r, 4, False)),
         ('seq_read_1M_x4_mounts', lambda d, r: seqread_par(d, r, 4, True)),
         ('meta_x8_own_dirs', job_meta_own), ('meta_x8_shared_dir', job_meta_shared),
         ('dbench', job_dbench), ('list_dir_cold', job_listdir)]
# BENCH_JOBS / BENCH_SETS: a comma-separated subset, for a focused run.
if os.environ.get('BENCH_JOBS'):
    _wanted = os.environ['BENCH_JOBS'].split(',')
    _unknown = sorted(set(_wanted) - {j[0] for j in JOBS})
    if _unknown:
        sys.exit('bench: BENCH_JOBS names no such job: %s' % ', '.join(_unknown))
    # meta_stat and meta_unlink work on the files meta_create makes.
    if {'meta_stat', 'meta_unlink'} & set(_wanted) and 'meta_create' not in _wanted:
        sys.exit('bench: BENCH_JOBS: meta_stat and meta_unlink need meta_create '
                 '(they use its files)')
    JOBS = [j for j in JOBS if j[0] in _wanted]
if os.environ.get('BENCH_SETS'):
    OPTION_SETS = {k: v for k, v in OPTION_SETS.items()
                   if k in os.environ['BENCH_SETS'].split(',')}


def clean_share():
    for e in os.listdir(SHARE):
        p = os.path.join(SHARE, e)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p, ignore_errors=True)
        else:
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass


def cifs_creates():
    """SMB2 CREATEs the cifs client has sent (summed over its mounts; the
    bench has one at a time), or None when its statistics are not there."""
    return cifs_commands().get('Creates', (None,))[0]


def cifs_requests():
    """SMB2 requests the cifs client has sent ("SMBs:" of each tree
    connection in /proc/fs/cifs/Stats, summed over the mounts)."""
    try:
        with open('/proc/fs/cifs/Stats') as f:
            return sum(int(l.split()[1]) for l in f if l.startswith('SMBs:'))
    except (OSError, IndexError, ValueError):
        return None


def cifs_commands():
    """{command: (total, failed)} the cifs client has sent, summed over
    its mounts (the "Creates: N total M failed" lines of
    /proc/fs/cifs/Stats): which requests a job is made of."""
    out = {}
    try:
        with open('/proc/fs/cifs/Stats') as f:
            for l in f:
                m = re.match(r'(\w+): (\d+) total (\d+) failed', l.strip())
                if m:
                    tot, bad = out.get(m.group(1), (0, 0))
                    out[m.group(1)] = (tot + int(m.group(2)), bad + int(m.group(3)))
    except OSError:
        pass
    return out


CLK_TCK = os.sysconf('SC_CLK_TCK')
# The server's own processes and threads, by command name: ours are the
# kernel threads named ksmbd* (ksmbd-listen, each connection's receive
# thread ksmbd:N) and the user-space ksmbd.mountd; Samba's are smbd (all
# its threads) and the RPC helpers it starts.
SERVER_COMMS = {'ksmbd': ('ksmbd',), 'samba': ('smbd', 'samba-dcerpcd', 'rpcd_')}


def task_times(prefixes):
    """{pid: utime+stime in s} of the processes whose comm starts with
    one of prefixes (a process's line counts its threads, live and gone)."""
    out = {}
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % pid) as f:
                head, tail = f.read().rsplit(')', 1)
        except OSError:
            continue
        comm = head.split('(', 1)[1]
        if comm.startswith(prefixes):
            fields = tail.split()
            out[int(pid)] = (int(fields[11]) + int(fields[12])) / CLK_TCK
    return out


def busy_seconds():
    """The guest's busy CPU time: user+nice+system+irq+softirq of /proc/stat."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (v[0] + v[1] + v[2] + v[5] + v[6]) / CLK_TCK


class CpuCost:
    """CPU time per SMB2 request over one job: the whole guest's busy time
    (client, server, everything), the server's own processes, and the
    unbound kworkers (where our ksmbd-io work runs, with anyone else's
    unbound work) apart, since they are not attributable by name."""

    def __init__(self, server):
        self.server = server
        self.req = cifs_requests()
        self.cmds = cifs_commands()
        self.busy = busy_seconds()
        self.own = task_times(SERVER_COMMS[server])
        self.kw = task_times(('kworker/u',))
        self.cifsd = task_times(('cifsd',))
        self.wall = time.monotonic()

    @staticmethod
    def delta(before, after):
        return sum(t - before.get(pid, 0.0) for pid, t in after.items())

    def done(self):
        req = (cifs_requests() or 0) - (self.req or 0)
        cmds = {k: (t - self.cmds.get(k, (0, 0))[0], b - self.cmds.get(k, (0, 0))[1])
                for k, (t, b) in cifs_commands().items()}
        busy = busy_seconds() - self.busy
        own = self.delta(self.own, task_times(SERVER_COMMS[self.server]))
        kw = self.delta(self.kw, task_times(('kworker/u',)))
        cifsd = self.delta(self.cifsd, task_times(('cifsd',)))
        wall = time.monotonic() - self.wall
        per = lambda s: s / req * 1e6 if req > 0 else None
        return {'requests': req, 'busy_s': busy, 'server_s': own, 'kworker_u_s': kw,
                'cpus_busy_pct': busy / (wall * (os.cpu_count() or 1)) * 100 if wall > 0 else None,
                # the cifs client's receive threads (one per connection),
                # in % of one CPU: near 100 a job waits on the client
                'cifsd_pct': cifsd / wall * 100 if wall > 0 else None,
                'busy_us_per_req': per(busy), 'server_us_per_req': per(own),
                'kworker_u_us_per_req': per(kw),
                'commands': {k: v for k, v in cmds.items() if v[0]}}


def runs_in(set_name, job):
    """Whether job runs in the option set (None: locally)."""
    if set_name is None:
        return LOCAL_ALL or job not in NOCACHE_ONLY
    if job in NOCACHE_ONLY:
        # the observability run has one mount: the jobs that need no more
        return set_name == 'nocache' or (set_name == 'obs' and job in OBS_MANY)
    if set_name == 'mchan':
        return job == 'seq_read_1M'
    if set_name == 'sealed256' or (LEAN and set_name == 'sealed'):
        return job in ('seq_write_1M', 'seq_read_1M')  # their goal's jobs
    if LEAN and set_name == 'default' and job.startswith('meta_'):
        return False
    # Sealed: what encryption costs shows in the data jobs; Samba's sealed
    # metadata at ~60 files/s would cost minutes.
    return not (set_name.startswith('sealed') and job.startswith('meta_'))


def run_jobs(directory, results, key, runtime=RUNTIME, set_name=None, server=None):
    for name, fn in JOBS:
        if not runs_in(set_name, name):
            continue
        try:
            t_job = time.monotonic()
            before = cifs_creates() if directory == MNT else None
            cost = CpuCost(server) if server else None
            out = fn(directory, runtime)
            v, unit = out[:2]
            extra = out[2] if len(out) > 2 else {}
            if cost:
                c = cost.done()
                if name == 'list_dir_cold' and c['server_us_per_req'] is not None:
                    c['server_us_per_entry'] = (c['server_us_per_req'] * c['requests']
                                                / extra['entries'])
                results.setdefault('_cpu', {}).setdefault(key, {}).setdefault(
                    name, []).append(c)
            results.setdefault(key, {}).setdefault(name, []).append(v)
            results.setdefault('_units', {})[name] = unit
            after = cifs_creates() if before is not None else None
            opens = ''
            if name.startswith('meta_') and after is not None:
                # Each file's operation should reach the server: a job that
                # the client answers from its cache measures the client.
                per_file = (after - before) / extra.get('ops', META_FILES)
                results.setdefault('_creates_per_file', {}).setdefault(
                    key, {}).setdefault(name, []).append(per_file)
                opens = ' (%.2f CREATEs per file)' % per_file
            if cost and c['busy_us_per_req'] is not None:
                opens += ' [%d requests, %.0f us busy, %.0f us server per request]' % (
                    c['requests'], c['busy_us_per_req'], c['server_us_per_req'])
            log('%-28s %-14s %10.1f %s%s (%.1f s)' % (key, name, v, unit, opens,
                                                     time.monotonic() - t_job))
        except Exception as e:  # one failed job must not end the run
            log('%-28s %-14s failed: %s' % (key, name, str(e)[:200]))
            results.setdefault('_errors', []).append('%s %s: %s' % (key, name, str(e)[:300]))


GCM256_PARAM = '/sys/module/cifs/parameters/require_gcm_256'
EXTRA = []  # the nosharesock mounts beside MNT


def extra_mounts():
    return list(EXTRA)


def set_gcm256(on):
    with open(GCM256_PARAM, 'w') as f:
        f.write('1' if on else '0')


def mount_one(path, opts):
    os.makedirs(path, exist_ok=True)
    host = MCHAN_HOST if 'multichannel' in opts else '127.0.0.1'
    sh('mount -t cifs //%s/share %s -o username=%s,password=%s,%s'
       % (host, path, USER, PASS, opts))


def mount(opts, mounts=1):
    """MNT, and mounts-1 more with nosharesock (each its own TCP
    connection and session). An option string ending in GCM256 sets the
    cifs module's require_gcm_256 around the mount."""
    gcm256 = opts.endswith(GCM256)
    opts = opts[:-len(GCM256)] if gcm256 else opts
    if gcm256:
        set_gcm256(True)
    try:
        mount_one(MNT, opts)
        for i in range(1, mounts):
            mount_one('%s.%d' % (MNT, i), opts + ',nosharesock')
            EXTRA.append('%s.%d' % (MNT, i))
    finally:
        if gcm256:
            set_gcm256(False)


def umount():
    for path in EXTRA:
        sh('umount %s' % path, check=False, quiet=True)
    del EXTRA[:]
    sh('umount %s' % MNT, check=False, quiet=True)


# The guest has no udev. A Debian system's udev loads these at boot (they
# match the CPU's modalias); without them the kernel's gcm(aes) is built
# from the generic C AES, for the cifs client of both servers and for our
# server (Samba's GnuTLS carries its own AES-NI code). Only the crypto
# ones: the whole modalias list also brings kvm_amd and others.
CPU_CRYPTO_MODULES = ('aesni_intel', 'ghash_clmulni_intel', 'sha256_ssse3',
                      'sha512_ssse3')


def load_cpu_crypto():
    for m in CPU_CRYPTO_MODULES:
        sh('modprobe -q %s' % m, check=False)
    r = sh("lsmod | awk 'NR > 1 { print $1 }'", check=False, quiet=True)
    loaded = set(r.stdout.split())
    log('CPU crypto modules loaded: %s' % ' '.join(
        m for m in CPU_CRYPTO_MODULES if m in loaded))


def cifs_channels():
    """The mount's channels as the client counts them (1 + Extra Channels
    in /proc/fs/cifs/DebugData); give the client a moment to bind."""
    n = 1
    for _ in range(20):
        try:
            with open('/proc/fs/cifs/DebugData') as f:
                m = re.search(r'Extra Channels: (\d+)', f.read())
        except OSError:
            m = None
        n = 1 + int(m.group(1)) if m else 1
        if n > 1:
            break
        time.sleep(0.5)
    return n


def add_mchan_addr():
    if 'mchan' in OPTION_SETS:
        sh('ip addr add %s/24 dev eth0' % MCHAN_ADDR, check=False, quiet=True)


def crypto_rates():
    """The kernel's and GnuTLS's AES-GCM cost in this guest (cryptorate.py):
    what bounds the sealed jobs' ratio whatever the server does."""
    if not any(k.startswith('sealed') for k in OPTION_SETS):
        return None
    modprobe = sh('modprobe -q algif_aead', check=False, quiet=True)
    r = sh('python3 %s' % os.path.join(TOP, 'tests', 'bench', 'cryptorate.py'), check=False, quiet=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {'error': (r.stderr or r.stdout or str(modprobe.returncode)).strip()[-300:]}


def main():
    os.makedirs(OUT, exist_ok=True)
    load_cpu_crypto()
    add_mchan_addr()
    results = {'_crypto': crypto_rates()}
    os.makedirs(SHARE, exist_ok=True)
    sh('id %s >/dev/null 2>&1 || useradd -M %s' % (USER, USER))
    sh('chmod 0777 %s' % SHARE)
    servers = [Ours(), Samba()]
    t0 = time.time()
    for rnd in range(ROUNDS):
        order = servers if rnd % 2 == 0 else list(reversed(servers))
        sets = OPTION_SETS if rnd == 0 else {k: v for k, v in OPTION_SETS.items() if k == 'nocache'}
        for srv in order:
            try:
                srv.start()
            except Exception as e:
                log('%s did not start: %s' % (srv.name, e))
                results.setdefault('_errors', []).append('%s start: %s' % (srv.name, e))
                srv.stop()
                continue
            for set_name, opts in sets.items():
                clean_share()
                several = set_name == 'nocache' and any(
                    j.endswith('_mounts') for j, _ in JOBS)
                try:
                    mount(opts, MOUNTS if several else 1)
                except Exception as e:
                    log('%s mount (%s) failed: %s' % (srv.name, set_name, e))
                    results.setdefault('_errors', []).append('%s mount %s: %s' % (srv.name, set_name, str(e)[:300]))
                    if opts.endswith(GCM256):
                        # the client refuses a session another cipher seals
                        r = sh('dmesg | grep -i "encryption type" | tail -1',
                               check=False, quiet=True)
                        results.setdefault('_gcm256', {})[srv.name] = \
                            'not negotiated: mount failed (%s) %s' % (str(e)[:120],
                                                                       r.stdout.strip())
                    umount()
                    continue
                if opts.endswith(GCM256):
                    results.setdefault('_gcm256', {})[srv.name] = \
                        'negotiated (the client required AES-256-GCM and the mount succeeded)'
                if set_name == 'mchan':
                    results.setdefault('_mchan', {})[srv.name] = cifs_channels()
                run_jobs(MNT, results, '%s/%s' % (srv.name, set_name),
                         set_name=set_name, server=srv.name)
                umount()
            srv.stop()
        clean_share()
        run_jobs(SHARE, results, 'local')
    observability_run(results)
    roundtrip_run(results, servers)
    results['_seconds'] = round(time.time() - t0)
    report(results)


def observability_run(results):
    """Our server, one mount (cache=none), the readers running throughout;
    the programs switched on and off between passes of the jobs, in pairs
    ordered detached-attached, then attached-detached, and so on. Each
    job's overhead is the median over pairs of attached against detached
    in the same pair, which cancels the drift that single long runs
    measure instead. A last pass times the programs themselves."""
    ours = Ours()
    try:
        ours.start()
        clean_share()
        mount(NOCACHE)
    except Exception as e:
        log('observability run did not start: %s' % e)
        results.setdefault('_errors', []).append('observability start: %s' % str(e)[:300])
        umount()
        ours.stop()
        return
    obs = Observers()
    try:
        obs.start()
    except Exception as e:
        log('observers did not start: %s' % e)
        results.setdefault('_errors', []).append('observers start: %s' % str(e)[:300])
        obs.stop()
        umount()
        ours.stop()
        return
    for pair in range(OBS_PAIRS):
        order = (False, True) if pair % 2 == 0 else (True, False)
        for attached in order:
            obs.switch.set(attached)
            run_jobs(MNT, results, 'ksmbd-obs%s/nocache' % ('+attached' if attached else ''),
                     OBS_RUNTIME, set_name='obs')
    obs.switch.set(False)
    wall = time.time() - obs.t0
    cpu = {k: v - obs.cpu_at_start.get(k, 0.0) for k, v in obs.cpu_seconds().items()}
    results['_obs_cpu'] = dict(cpu, wall_s=wall)
    results['_obs_cost'] = program_cost(obs)
    obs.stop()
    umount()
    ours.stop()
    clean_share()


def roundtrip_run(results, servers):
    """Each server in turn, one cache=none mount: the random-read job
    with RT_READERS readers traced end to end (roundtrip.py)."""
    if not RT_READERS:
        return
    for srv in servers:
        try:
            srv.start()
            clean_share()
            mount(NOCACHE)
        except Exception as e:
            log('round-trip run (%s) did not start: %s' % (srv.name, e))
            results.setdefault('_errors', []).append('roundtrip %s start: %s'
                                                     % (srv.name, str(e)[:300]))
            umount()
            srv.stop()
            continue
        for n in RT_READERS:
            try:
                ensure_data()
                keep = os.path.join(OUT, 'roundtrip-%s-x%d.trace' % (srv.name, n)) \
                    if RT_KEEP else None
                s = roundtrip.trace(lambda: randread_par(MNT, RT_SECONDS, n, False)[0],
                                    keep=keep)
                seg = s['segments']
                log('%-28s traced %d readers: %.0f reads/s, %d of %d joined, whole %s us, '
                    'out and back %s us, server %s us' % (
                        srv.name, n, s['reads_per_s'] or 0, s['joined'], s['reads'],
                        seg['whole']['mean_us'], seg['out_and_back']['mean_us'],
                        seg['server']['mean_us']))
            except Exception as e:
                log('%s traced %d readers failed: %s' % (srv.name, n, e))
                results.setdefault('_errors', []).append('roundtrip %s x%d: %s'
                                                         % (srv.name, n, str(e)[:300]))
                s = {'error': str(e)[:200]}
            results.setdefault('_roundtrip', {}).setdefault(srv.name, {})[str(n)] = s
        umount()
        srv.stop()
    clean_share()


def program_cost(obs):
    """The programs' own run time per request, from kernel.bpf_stats_enabled
    (which itself adds two clock reads per run, so it stays out of the
    pairs), over 4 KiB random reads: the cost next to the round trip."""
    sh('sysctl -qw kernel.bpf_stats_enabled=1', check=False, quiet=True)
    try:
        obs.switch.set(True)
        before = obs.prog_stats()
        j = fio(MNT, DATA_JOB, '--rw=randread --bs=4k --size=%s --time_based --runtime=%d'
                % (SEQ_SIZE, OBS_RUNTIME))
        after = obs.prog_stats()
    except Exception as e:
        log('program cost pass failed: %s' % e)
        return None
    finally:
        obs.switch.set(False)
        sh('sysctl -qw kernel.bpf_stats_enabled=0', check=False, quiet=True)
    progs = {k: (c - before.get(k, (0, 0))[0], n - before.get(k, (0, 0))[1])
             for k, (c, n) in after.items()}
    requests = progs.get('ksmbd_req_done', (0, 0))[0]
    if not requests:
        return None
    ns = sum(n for _, n in progs.values())
    rtt_us = j['read']['clat_ns']['mean'] / 1000
    return {'requests': requests, 'prog_us_per_request': ns / requests / 1000,
            'rtt_us': rtt_us, 'pct_of_rtt': ns / requests / 1000 / rtt_us * 100,
            'programs': {k: {'runs': c, 'ns': n} for k, (c, n) in progs.items() if c}}


def obs_pairs(results, job):
    """(detached, attached) of each pair, in run order."""
    det = results.get('ksmbd-obs/nocache', {}).get(job, [])
    att = results.get('ksmbd-obs+attached/nocache', {}).get(job, [])
    return list(zip(det, att))


def median(results, key, job):
    vals = results.get(key, {}).get(job)
    return statistics.median(vals) if vals else None


def report(results):
    rows = []
    for set_name in OPTION_SETS:
        for job, _ in JOBS:
            if not runs_in(set_name, job):
                continue
            ours = median(results, 'ksmbd/' + set_name, job)
            samba = median(results, 'samba/' + set_name, job)
            local = median(results, 'local', job)
            ratio = ours / samba if ours and samba else None
            goal = GOALS.get(set_name, {}).get(job)
            row = {'set': set_name, 'options': OPTION_SETS[set_name], 'job': job,
                   'unit': results.get('_units', {}).get(job, ''),
                   'ksmbd': ours, 'samba': samba, 'local': local,
                   'ours_over_samba': ratio,
                   'ours_over_local': ours / local if ours and local else None,
                   'goal': goal,
                   'goal_met': (ratio is not None and ratio >= goal) if goal else None}
            for srv in ('ksmbd', 'samba'):
                c = results.get('_cpu', {}).get('%s/%s' % (srv, set_name), {}).get(job, [])
                for k in ('requests', 'busy_us_per_req', 'server_us_per_req',
                          'kworker_u_us_per_req', 'server_us_per_entry', 'cpus_busy_pct',
                          'cifsd_pct'):
                    vals = [x[k] for x in c if x.get(k) is not None]
                    row['%s_%s' % (srv, k)] = statistics.median(vals) if vals else None
                # the first round's requests by command, (sent, failed)
                row['%s_commands' % srv] = c[0].get('commands') if c else None
            # The guest's busy time per request less our server's own (its
            # threads and every unbound kworker, the client's among them):
            # what the rest costs. Samba's busy time over that is the ratio a
            # CPU-bound job would reach if our server cost nothing.
            ob, sb = row['ksmbd_busy_us_per_req'], row['samba_busy_us_per_req']
            rest = ob - (row['ksmbd_server_us_per_req'] or 0) - \
                (row['ksmbd_kworker_u_us_per_req'] or 0) if ob else None
            row['ceiling'] = sb / rest if sb and rest and rest > 0 else None
            rows.append(row)
    obs_rows = []
    for job, _ in JOBS:
        if not runs_in('obs', job):
            continue
        pairs = obs_pairs(results, job)
        pct = sorted((1 - at / de) * 100 for de, at in pairs if de and at)
        obs_rows.append({'job': job, 'unit': results.get('_units', {}).get(job, ''),
                         'detached': median(results, 'ksmbd-obs/nocache', job),
                         'attached': median(results, 'ksmbd-obs+attached/nocache', job),
                         'pairs': len(pct),
                         'overhead_pct': statistics.median(pct) if pct else None,
                         'overhead_pct_min': pct[0] if pct else None,
                         'overhead_pct_max': pct[-1] if pct else None})
    doc = {'rounds': ROUNDS, 'runtime_s': RUNTIME, 'obs_runtime_s': OBS_RUNTIME, 'seq_size': SEQ_SIZE,
           'meta_files': META_FILES, 'seconds': results.get('_seconds'),
           'rows': rows, 'observability_pairs': OBS_PAIRS,
           'observers': [' '.join([os.path.basename(a[0])] + a[1:]) for a in OBSERVERS],
           'observability': obs_rows, 'observers_cpu_s': results.get('_obs_cpu'),
           'program_cost': results.get('_obs_cost'),
           'creates_per_file': results.get('_creates_per_file', {}),
           'curve': CURVE, 'mounts': MOUNTS, 'dbench_clients': DBENCH_CLIENTS,
           'dbench_time_s': DBENCH_TIME, 'dir_entries': DIR_ENTRIES,
           'gcm256': results.get('_gcm256', {}),
           'crypto_rates': results.get('_crypto'),
           'mchan_channels': results.get('_mchan', {}),
           'roundtrip': results.get('_roundtrip', {}),
           'raw': {k: v for k, v in results.items() if not k.startswith('_')},
           'errors': results.get('_errors', [])}
    with open(os.path.join(OUT, 'results.json'), 'w') as f:
        json.dump(doc, f, indent=1)
    fmt = lambda v: '-' if v is None else ('%.2f' % v if v < 100 else '%.0f' % v)
    lines = ['# make bench: ksmbd vs Samba (medians of %d rounds, TCG guest)' % ROUNDS, '',
             '| options | job | unit | ksmbd | samba | local | ksmbd/samba | ksmbd/local | goal ksmbd/samba |',
             '|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        goal = '-'
        if r['goal']:
            goal = '>= %.1f: %s' % (r['goal'], 'met' if r['goal_met'] else 'not met')
        lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['options'], r['job'], r['unit'], fmt(r['ksmbd']), fmt(r['samba']),
            fmt(r['local']), fmt(r['ours_over_samba']), fmt(r['ours_over_local']), goal))
    cpf = doc['creates_per_file']
    per = lambda k, j: statistics.median(cpf[k][j]) if cpf.get(k, {}).get(j) else None
    lines += ['', 'SMB2 CREATEs the client sent per file (per operation in the x8 jobs; '
              '%s; 1 or more: every file reached the server): %s.' % (NOCACHE, '; '.join(
                  '%s ksmbd %s, samba %s' % (j, fmt(per('ksmbd/nocache', j)),
                                             fmt(per('samba/nocache', j)))
                  for j, _ in JOBS if j.startswith('meta_')))]
    curve = [(n, median(results, 'ksmbd/nocache', 'rand_read_4k_x%d' % n),
              median(results, 'samba/nocache', 'rand_read_4k_x%d' % n)) for n in CURVE]
    if curve and curve[0][1] and curve[0][2]:
        lines += ['', '4 KiB random-read curve over one mount (IOPS, and x the 1-reader '
                  'rate): %s.' % '; '.join(
                      '%d readers ksmbd %s (%s), samba %s (%s)'
                      % (n, fmt(o), fmt(o / curve[0][1] if o else None), fmt(sm),
                         fmt(sm / curve[0][2] if sm else None)) for n, o, sm in curve)]
    lines += ['', 'Issue 29\'s jobs (%s): x8/x4 = parallel fio jobs on one data file; '
              '_mounts = spread over %d mounts of the share (nosharesock: separate TCP '
              'connections); meta_x8 = 8 processes creating, stat\'ing and unlinking %d '
              'files each (ops/s over the three phases); dbench = %d clients, %d s, '
              'client.txt; list_dir_cold = %d entries listed without stat after '
              'dropping caches.' % (NOCACHE, MOUNTS, max(1, META_FILES // 8),
                                    DBENCH_CLIENTS, DBENCH_TIME, DIR_ENTRIES)]
    if 'sealed256' in OPTION_SETS:
        lines += ['', 'AES-256-GCM (%s): %s.' % (
            OPTION_SETS['sealed256'], '; '.join('%s %s' % (k, v) for k, v in
                                                 sorted(doc['gcm256'].items())) or 'no result')]
    if 'mchan' in OPTION_SETS:
        mc = {r['set']: r for r in rows if r['job'] == 'seq_read_1M'}
        two, one = mc.get('mchan'), mc.get('nocache')
        per = lambda srv: '%s %s MB/s over %s channels vs %s over one (%s)' % (
            srv, fmt(two and two[srv]), doc['mchan_channels'].get(srv, '?'),
            fmt(one and one[srv]),
            fmt(two[srv] / one[srv] if two and one and two[srv] and one[srv] else None))
        lines += ['', 'Multichannel (%s, to %s with %s added to its NIC): the 1 MiB '
                  'sequential read, %s; %s.' % (OPTION_SETS['mchan'], MCHAN_HOST,
                                                MCHAN_ADDR, per('ksmbd'), per('samba'))]
    cr = doc['crypto_rates']
    if cr:
        lines += ['', 'AES-GCM in this guest (tests/bench/cryptorate.py: CPU ms per MiB, '
                  '64 KiB messages; the kernel\'s %s through AF_ALG, as the cifs client '
                  'and ksmbd use it; GnuTLS, as smbd uses it). bound = the highest '
                  'ksmbd/samba a one-request-at-a-time sealed job reaches if crypto were all '
                  'that cost: the client pays a kernel pass with either server, ours another '
                  'kernel pass, Samba a GnuTLS one: %s.' % (
                      '/'.join(cr.get('kernel_drivers') or ['gcm(aes)']),
                      '; '.join('%s kernel %s, gnutls %s, bound %s' % (
                          k, fmt(cr[k].get('kernel_ms_per_mib')),
                          fmt(cr[k].get('gnutls_ms_per_mib')), fmt(cr[k].get('bound')))
                          for k in ('aes128', 'aes256') if isinstance(cr.get(k), dict))
                      or cr.get('error', 'no result'))]
    lines += ['', '## CPU time per SMB2 request (us; medians)', '',
              'busy = the guest\'s whole busy CPU time (/proc/stat user+nice+system+irq+'
              'softirq: client, server, everything) over the job / the SMB2 requests the '
              'cifs client sent (/proc/fs/cifs/Stats SMBs). server = the server\'s own '
              'processes (utime+stime): ours the ksmbd* kernel threads (listener, '
              'receive threads) and ksmbd.mountd, Samba\'s smbd and its RPC helpers. '
              'kworker/u = all unbound kworkers (our ksmbd-io work runs there, with '
              'anyone else\'s). CPUs busy = busy time over the job\'s wall time and the '
              'guest\'s CPUs. cifsd = the cifs client\'s receive threads (one per '
              'connection) in % of one CPU over the job. ceiling = busy samba / (busy '
              'ksmbd - server ksmbd - kworker/u ksmbd): the ratio a CPU-bound job would reach if our server '
              'cost nothing. See tests/bench/README.md.', '',
              '| options | job | requests ksmbd | samba | busy ksmbd | busy samba | '
              'busy samba/ksmbd | server ksmbd | server samba | kworker/u ksmbd | '
              'kworker/u samba | CPUs busy % ksmbd | samba | cifsd % ksmbd | samba | ceiling |',
              '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        if r['ksmbd_requests'] is None and r['samba_requests'] is None:
            continue
        ob, sb = r['ksmbd_busy_us_per_req'], r['samba_busy_us_per_req']
        lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['options'], r['job'], fmt(r['ksmbd_requests']), fmt(r['samba_requests']),
            fmt(ob), fmt(sb), fmt(sb / ob if ob and sb else None),
            fmt(r['ksmbd_server_us_per_req']), fmt(r['samba_server_us_per_req']),
            fmt(r['ksmbd_kworker_u_us_per_req']), fmt(r['samba_kworker_u_us_per_req']),
            fmt(r['ksmbd_cpus_busy_pct']), fmt(r['samba_cpus_busy_pct']),
            fmt(r['ksmbd_cifsd_pct']), fmt(r['samba_cifsd_pct']), fmt(r['ceiling'])))
    for r in rows:
        if r['job'] == 'dbench' and (r['ksmbd_commands'] or r['samba_commands']):
            cmds = lambda c: ', '.join('%s %d%s' % (k, t, ' (%d failed)' % b if b else '')
                                       for k, (t, b) in sorted((c or {}).items()))
            lines += ['', 'dbench\'s SMB2 requests by command (/proc/fs/cifs/Stats, first '
                      'round; %d clients, %d s and the clean-up): ksmbd %s; samba %s.'
                      % (DBENCH_CLIENTS, DBENCH_TIME, cmds(r['ksmbd_commands']) or '-',
                         cmds(r['samba_commands']) or '-')]
        if r['job'] == 'list_dir_cold':
            lines += ['', 'QUERY_DIRECTORY: the listing\'s server CPU per entry (server '
                      'processes\' time / entries): ksmbd %s us, samba %s us.'
                      % (fmt(r['ksmbd_server_us_per_entry']),
                         fmt(r['samba_server_us_per_entry']))]
    lines += ['', '## Observability overhead (%s reading one pinned copy of the programs; '
              '%s, one server and mount; the programs switched on and off between passes, '
              '%d pairs; timed jobs %d s)'
              % (' and '.join(doc['observers']), NOCACHE, OBS_PAIRS, OBS_RUNTIME),
              '',
              '| job | unit | detached | attached | overhead %% per pair: median (goal <= %.0f) | min | max |'
              % OBS_GOAL_PCT, '|---|---|---|---|---|---|---|']
    pct = lambda v: '-' if v is None else '%.1f' % v
    for r in obs_rows:
        lines.append('| %s | %s | %s | %s | %s | %s | %s |' % (
            r['job'], r['unit'], fmt(r['detached']), fmt(r['attached']),
            pct(r['overhead_pct']), pct(r['overhead_pct_min']), pct(r['overhead_pct_max'])))
    cpu = doc['observers_cpu_s']
    if cpu:
        lines += ['', 'The readers\' own CPU time over the %.0f s run (after loading): %s.'
                  % (cpu['wall_s'], ', '.join('%s %.1f s (%.2f %% of one CPU)'
                                              % (k, v, v / cpu['wall_s'] * 100)
                                              for k, v in sorted(cpu.items()) if k != 'wall_s'))]
    cost = doc['program_cost']
    if cost:
        lines += ['', 'The programs\' own run time (kernel.bpf_stats_enabled, %d requests of '
                  '4 KiB random reads): %.1f us per request, %.1f %% of the %.0f us round trip '
                  '(goal <= %.0f %%); %s.'
                  % (cost['requests'], cost['prog_us_per_request'], cost['pct_of_rtt'],
                     cost['rtt_us'], OBS_GOAL_PCT,
                     ', '.join('%s %.2f us x %d' % (k, v['ns'] / v['runs'] / 1000, v['runs'])
                               for k, v in sorted(cost['programs'].items())))]
    lines += roundtrip.report(doc['roundtrip'], fmt)
    if doc['errors']:
        lines += ['', 'Errors:'] + ['- ' + e for e in doc['errors']]
    text = '\n'.join(lines) + '\n'
    with open(os.path.join(OUT, 'results.md'), 'w') as f:
        f.write(text)
    print(text)


if __name__ == '__main__':
    sys.exit(main())
