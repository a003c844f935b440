#!/bin/bash
# vm: --net --timeout 900 --mem 3072
# make bench in miniature: tests/bench/bench.py with every job, option set
# and the observability run, at sizes that take a minute or two (8 MiB
# file, 1 s jobs, 40 files, one pass pair; issue 29's jobs with the curve
# at 8 readers only, 2 mounts, dbench 5 s with 2 clients, a 500-entry
# directory, no local run of those; both sealed sets with the 1 MiB jobs
# only, cache=default without the metadata jobs: BENCH_LEAN; the 1 MiB
# read over two channels), with the guest's NIC for the multichannel set,
# under slub_debug like every case. Checks that both servers
# served every job, that each metadata job's files reached the server (not
# the client's cache), that ratios, goals and the CPU time per request come
# out, that AES-256-GCM was negotiated, that our server gave the client a
# second channel, that the AES-GCM rates were measured, that the readers and the
# program-cost pass ran (over the many-client jobs too), and that an 8-reader
# random read was traced through both servers and joined end to end
# (tests/bench/roundtrip.py): what keeps `make bench` (outside make check) from
# breaking unseen.
. "$VM_TOP/tests/vm/lib/check.sh"
out=$VM_TOP/build/vm/bench
rm -rf "$out"
mkdir -p "$out"

BENCH_OUT=$out BENCH_ROUNDS=1 BENCH_RUNTIME=1 BENCH_SEQ_SIZE=8M \
BENCH_META_FILES=40 BENCH_OBS_PAIRS=1 BENCH_OBS_RUNTIME=1 \
BENCH_CURVE=8 BENCH_MOUNTS=2 BENCH_DBENCH_CLIENTS=2 BENCH_DBENCH_TIME=5 \
BENCH_DIR_ENTRIES=500 BENCH_LOCAL=single BENCH_LEAN=1 \
BENCH_RT_READERS=8 BENCH_RT_SECONDS=1 \
	timeout 700 python3 "$VM_TOP/tests/bench/bench.py" > "$out/bench.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$out/results.json" ]; then
	fail run "bench.py exited $rc: $(tail -3 "$out/bench.log" | tr '\n' ' ')"
	finish
fi
pass run

# One line per finding: "PASS name" or "FAIL name: why".
python3 - "$out/results.json" "$out/results.md" > "$out/checks.txt" \
	2> "$out/checks.err" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
md = open(sys.argv[2]).read()

def check(name, ok, why=''):
    print('PASS %s' % name if ok else 'FAIL %s: %s' % (name, why))

check('no_errors', not doc['errors'], '; '.join(doc['errors'])[:300])
rows = doc['rows']
jobs = {r['job'] for r in rows}
single = {'seq_write_1M', 'seq_read_1M', 'rand_read_4k', 'rand_write_4k',
          'meta_create', 'meta_stat', 'meta_unlink'}
issue29 = {'rand_read_4k_x8', 'rand_read_4k_x8_mounts',
           'seq_read_1M_x4', 'seq_read_1M_x4_mounts', 'meta_x8_own_dirs',
           'meta_x8_shared_dir', 'dbench', 'list_dir_cold'}
metas = sorted(j for j in single | issue29 if j.startswith('meta_'))
check('all_jobs', jobs == single | issue29, sorted(jobs ^ (single | issue29)))
# BENCH_LEAN=1: the sealed sets run the 1 MiB jobs, cache=default no metadata
want = {'nocache': single | issue29, 'default': single - set(metas),
        'sealed': {'seq_write_1M', 'seq_read_1M'},
        'sealed256': {'seq_write_1M', 'seq_read_1M'}, 'mchan': {'seq_read_1M'}}
got = {}
for r in rows:
    got.setdefault(r['set'], set()).add(r['job'])
check('all_sets', got == want, {k: sorted(v ^ want.get(k, set())) for k, v in got.items()})
bad = []
for r in rows:
    # BENCH_LOCAL=single: issue 29's jobs do not run locally
    for k in ('ksmbd', 'samba') + (('local',) if r['job'] in single else ()):
        v = r[k]
        if not (isinstance(v, (int, float)) and v > 0):
            bad.append('%s %s %s=%r' % (r['set'], r['job'], k, v))
    if r['job'] in issue29 and r['local'] is not None:
        bad.append('%s %s ran locally' % (r['set'], r['job']))
    if not (r['ours_over_samba'] and
            abs(r['ours_over_samba'] - r['ksmbd'] / r['samba']) < 1e-9):
        bad.append('%s %s ratio %r' % (r['set'], r['job'], r['ours_over_samba']))
check('both_servers_every_job', not bad, '; '.join(bad)[:300])
cpf = doc.get('creates_per_file', {})
low = ['%s %s %r' % (srv, job, cpf.get(srv + '/nocache', {}).get(job))
       for srv in ('ksmbd', 'samba') for job in metas
       if not (cpf.get(srv + '/nocache', {}).get(job, [0])[0] >= 1)]
check('metadata_reaches_server', not low, '; '.join(low))
goals = [l for l in md.splitlines() if ': met |' in l or ': not met |' in l]
with_goal = [r for r in rows if r['goal']]
check('goals_reported', len(goals) == len(with_goal) == 18 and
      all(r['goal_met'] == (r['ours_over_samba'] is not None and
                            r['ours_over_samba'] >= r['goal']) for r in with_goal),
      '%d goal cells, %d rows with a goal' % (len(goals), len(with_goal)))
gcm = doc.get('gcm256', {})
check('aes256_gcm_negotiated', set(gcm) == {'ksmbd', 'samba'} and
      all(v.startswith('negotiated') for v in gcm.values()), gcm)
bad = []
for r in rows:
    for srv in ('ksmbd', 'samba'):
        req, busy, own = (r['%s_%s' % (srv, k)] for k in
                          ('requests', 'busy_us_per_req', 'server_us_per_req'))
        if not (req and req > 0 and busy and busy > 0 and own is not None and own >= 0):
            bad.append('%s %s %s requests=%r busy=%r server=%r'
                       % (r['set'], r['job'], srv, req, busy, own))
check('cpu_per_request', not bad, '; '.join(bad)[:300])
bad = ['%s %s busy %r/%r ceiling %r' % (r['set'], r['job'], r['ksmbd_cpus_busy_pct'],
                                       r['samba_cpus_busy_pct'], r['ceiling'])
       for r in rows if not ((r['ksmbd_cpus_busy_pct'] or 0) > 0 and
                             (r['samba_cpus_busy_pct'] or 0) > 0 and
                             (r['set'] != 'nocache' or (r['ceiling'] or 0) > 0))]
check('cpus_busy_and_ceiling', not bad, '; '.join(bad)[:300])
# The client's receive threads carry every answer of a read job: a share
# of 0 there means they were not found. Other jobs may round to 0.
def cifsd_ok(r, s):
    v = r['%s_cifsd_pct' % s]
    if not isinstance(v, (int, float)) or v < 0:
        return False
    return v > 0 or r['set'] != 'nocache' or 'read' not in r['job']
bad = ['%s %s %r/%r' % (r['set'], r['job'], r['ksmbd_cifsd_pct'], r['samba_cifsd_pct'])
       for r in rows if not all(cifsd_ok(r, s) for s in ('ksmbd', 'samba'))]
check('cifsd_share', not bad, '; '.join(bad)[:300])
ld = [r for r in rows if r['job'] == 'list_dir_cold']
check('query_directory_per_entry', ld and all(
    ld[0]['%s_server_us_per_entry' % s] is not None for s in ('ksmbd', 'samba')), ld)
check('curve_reported', '4 KiB random-read curve over one mount' in md and
      '8 readers ksmbd' in md, 'no curve line')
obs = doc['observability']
check('observability_pairs', all(o['pairs'] == 1 and o['detached'] and o['attached']
                                 for o in obs), obs)
many = {'rand_read_4k_x8', 'seq_read_1M_x4', 'meta_x8_own_dirs', 'dbench', 'list_dir_cold'}
check('observability_many_clients', many <= {o['job'] for o in obs},
      sorted(many - {o['job'] for o in obs}))
rt = doc.get('roundtrip') or {}
ours, theirs = rt.get('ksmbd', {}).get('8', {}), rt.get('samba', {}).get('8', {})
mean = lambda s, k: (s.get('segments', {}).get(k) or {}).get('mean_us')
parts = ('whole', 'client_out', 'to_server', 'server', 'to_client', 'client_in')
check('roundtrip_ours', ours.get('server_joined', 0) > 0 and
      all((mean(ours, k) or 0) > 0 for k in parts) and
      ours.get('wakeups', {}).get('reader', {}).get('per_read', 0) > 0,
      {k: v for k, v in ours.items() if k != 'job'})
check('roundtrip_samba', theirs.get('joined', 0) > 0 and
      (mean(theirs, 'out_and_back') or 0) > 0 and mean(theirs, 'server') is None and
      theirs.get('wakeups', {}).get('reader', {}).get('per_read', 0) > 0,
      {k: v for k, v in theirs.items() if k != 'job'})
db = [r for r in rows if r['job'] == 'dbench']
check('dbench_commands', db and all((db[0]['%s_commands' % s] or {}).get('Creates', (0,))[0] > 0
                                    for s in ('ksmbd', 'samba')) and
      "dbench's SMB2 requests by command" in md, db and {s: db[0]['%s_commands' % s]
                                                         for s in ('ksmbd', 'samba')})
check('roundtrip_reported', "## Where a 4 KiB random read's time goes" in md, 'no table')
cpu = doc.get('observers_cpu_s') or {}
check('observers_ran', {'ksmbd-lat', 'ksmbdtop'} <= set(cpu), cpu)
mc = doc.get('mchan_channels') or {}
check('mchan_two_channels', set(mc) == {'ksmbd', 'samba'} and mc['ksmbd'] >= 2 and
      'Multichannel (' in md, mc)
cr = doc.get('crypto_rates') or {}
check('crypto_rates', all(isinstance(cr.get(k), dict) and
                          cr[k].get('kernel_ms_per_mib', 0) > 0 and
                          cr[k].get('gnutls_ms_per_mib', 0) > 0 and
                          cr[k].get('bound', 0) > 0 for k in ('aes128', 'aes256'))
      and 'AES-GCM in this guest' in md, cr)
cost = doc.get('program_cost') or {}
check('program_cost', cost.get('requests', 0) > 0 and cost.get('prog_us_per_request', 0) > 0,
      cost)
PY
checker_rc=$?
while read -r verdict name rest; do
	case $verdict in
	PASS) pass "$name" ;;
	*) fail "${name%:}" "$rest" ;;
	esac
done < "$out/checks.txt"
[ -s "$out/checks.txt" ] || fail checks "the result checks printed nothing"
[ $checker_rc -eq 0 ] ||
	fail checks "the result checker exited $checker_rc: $(tail -2 "$out/checks.err" | tr '\n' ' ')"
finish
