#!/bin/bash
# vm: --timeout 900 --mem 3072
# make bench in miniature: tests/bench/bench.py with every job, option set
# and the observability run, at sizes that take a minute or two (8 MiB
# file, 1 s jobs, 50 files, one pass pair), under slub_debug like every
# case. Checks that both servers served every job, that each metadata
# job's files reached the server (not the client's cache), that ratios and
# goals come out, and that the readers and the program-cost pass ran: what keeps
# `make bench` (20 minutes, outside make check) from breaking unseen.
. "$VM_TOP/tests/vm/lib/check.sh"
out=$VM_TOP/build/vm/bench
rm -rf "$out"
mkdir -p "$out"

BENCH_OUT=$out BENCH_ROUNDS=1 BENCH_RUNTIME=1 BENCH_SEQ_SIZE=8M \
BENCH_META_FILES=50 BENCH_OBS_PAIRS=1 BENCH_OBS_RUNTIME=1 \
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
check('all_jobs', jobs == {'seq_write_1M', 'seq_read_1M', 'rand_read_4k', 'rand_write_4k',
                           'meta_create', 'meta_stat', 'meta_unlink'}, sorted(jobs))
sets = {r['options'] for r in rows}
check('all_sets', len(sets) == 3, sorted(sets))
bad = []
for r in rows:
    sealed_meta = 'seal' in r['options'] and r['job'].startswith('meta_')
    for k in ('ksmbd', 'samba', 'local'):
        v = r[k]
        if k == 'local' or not sealed_meta:
            if not (isinstance(v, (int, float)) and v > 0):
                bad.append('%s %s %s=%r' % (r['options'], r['job'], k, v))
        elif v is not None:
            bad.append('%s %s %s ran sealed metadata' % (r['options'], r['job'], k))
    if not sealed_meta and not (r['ours_over_samba'] and
                                abs(r['ours_over_samba'] - r['ksmbd'] / r['samba']) < 1e-9):
        bad.append('%s %s ratio %r' % (r['options'], r['job'], r['ours_over_samba']))
check('both_servers_every_job', not bad, '; '.join(bad)[:300])
cpf = doc.get('creates_per_file', {})
low = ['%s %s %r' % (srv, job, cpf.get(srv + '/nocache', {}).get(job))
       for srv in ('ksmbd', 'samba') for job in ('meta_create', 'meta_stat', 'meta_unlink')
       if not (cpf.get(srv + '/nocache', {}).get(job, [0])[0] >= 1)]
check('metadata_reaches_server', not low, '; '.join(low))
goals = [l for l in md.splitlines() if ': met |' in l or ': not met |' in l]
check('goals_reported', len(goals) == 6, '%d goal cells' % len(goals))
obs = doc['observability']
check('observability_pairs', all(o['pairs'] == 1 and o['detached'] and o['attached']
                                 for o in obs), obs)
cpu = doc.get('observers_cpu_s') or {}
check('observers_ran', {'ksmbd-lat', 'ksmbdtop'} <= set(cpu), cpu)
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
