#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile-client suite runner.

Runs every case (or those named) group by group against a live server:
after each case a fresh connection must still be served and the kernel log
must show nothing new that looks like a bug; after each group, with every
client gone, the live-object counts must return to zero. A legitimate
client runs throughout; its failures are a result of their own.

  run.py [--list] [--readme] [CASE|GROUP ...]
"""
import argparse
import os
import signal
import sys
import traceback

sys.dont_write_bytecode = True  # the source tree stays free of build output

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "cases"))

import advlib  # noqa: E402
import suite  # noqa: E402
import legit  # noqa: E402

GROUPS = ["framing", "negotiate", "gate", "compound", "sequence", "session",
          "files", "pipes", "races", "floods", "avail", "authz"]
for g in GROUPS:
    __import__("c_" + g)
# Groups that need more than the main suite's tmpfs share (xattrs, file
# flags, a second user): run only when named (adversarial-ext4.sh).
ON_REQUEST = {"authz"}

PREFIX = "adversarial"


class Timeout(Exception):
    pass


def on_alarm(_sig, _frame):
    raise Timeout("case did not finish in time")


class Runner:
    def __init__(self, env):
        self.env = env
        self.counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}

    def report(self, kind, name, msg=None):
        self.counts[kind] += 1
        line = "%s: %s/%s" % (kind, PREFIX, name)
        if msg:
            line += ": " + " ".join(str(msg).split())[:400]
        print(line, flush=True)

    def run_case(self, c):
        log_before = len(suite.kernel_log())
        kind, msg = "PASS", None
        signal.alarm(c.timeout)
        try:
            c.fn(self.env)
        except advlib.Skip as e:
            kind, msg = "SKIP", str(e)
        except advlib.CaseFailure as e:
            kind, msg = "FAIL", str(e)
        except Exception as e:  # a crash of the case itself: say where
            tb = traceback.extract_tb(e.__traceback__)[-1]
            kind, msg = "FAIL", "%s: %s (%s:%d)" % (
                type(e).__name__, e, os.path.basename(tb.filename), tb.lineno)
        finally:
            signal.alarm(0)
        # The server must outlive whatever the case did.
        try:
            bad = advlib.fresh_ok(self.env)
        except Exception as e:
            bad = "%s: %s" % (type(e).__name__, e)
        if bad:
            kind, msg = "FAIL", "no fresh connection served afterwards (%s)%s" \
                % (bad, "; " + msg if msg else "")
        new = suite.kernel_log()[log_before:]
        hits = [l for l in new if suite.BAD_LOG.search(l)]
        if hits:
            kind, msg = "FAIL", "kernel log: %s%s" % (" | ".join(hits[:3]),
                                                    "; " + msg if msg else "")
        self.report(kind, c.name, msg)

    def live_zero(self, group, legit_client):
        """With every client gone, the live counts go back to zero."""
        if suite.live_counts() is None:
            self.report("SKIP", "live-zero-" + group,
                        "no %s on this machine" % suite.STATS)
            return
        paused = legit_client.pause() if legit_client else True
        ok = advlib.wait_until(
            lambda: all(v == 0 for v in suite.live_counts().values()), 10)
        counts = suite.live_counts()
        if legit_client:
            legit_client.resume()
        if ok and paused:
            self.report("PASS", "live-zero-" + group)
        else:
            self.report("FAIL", "live-zero-" + group,
                        "live objects 10 s after the group: %s%s" %
                        (" ".join("%s=%d" % kv for kv in counts.items()),
                         "" if paused else " (legit client did not pause)"))


def readme_table():
    rows = []
    for g in GROUPS:
        for c in suite.CASES:
            if c.group == g:
                rows.append("| %s | `%s` | %s |" % (g, c.name, c.expected))
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=445)
    ap.add_argument("--user", default="tester")
    ap.add_argument("--password", default="tester")
    ap.add_argument("--share", default="share")
    ap.add_argument("--share-path", default="/srv/share")
    ap.add_argument("--race-seconds", type=float, default=12.0)
    ap.add_argument("--race-iters", type=int, default=200)
    ap.add_argument("--flood", type=int, default=500)
    ap.add_argument("--cifs", action="store_true",
                    help="the legitimate client also writes through a cifs "
                    "mount once the server reaches file level")
    ap.add_argument("--no-legit", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--readme", action="store_true")
    ap.add_argument("-k", dest="match", action="append", default=[],
                    metavar="TEXT", help="the cases whose name contains "
                    "TEXT (may be repeated; with --list, lists them)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if args.match:
        args.names += [c.name for c in suite.CASES
                       if any(t in c.name for t in args.match)]
        if not args.names:
            print("FAIL: adversarial: no case matches -k %s" %
                  " -k ".join(args.match))
            return 1
    if args.list:
        for c in suite.CASES:
            if not args.match or c.name in args.names:
                print("%-10s %s" % (c.group, c.name))
        return 0
    if args.readme:
        print(readme_table())
        return 0

    env = suite.Env(args)
    signal.signal(signal.SIGALRM, on_alarm)
    runner = Runner(env)
    env.probe()
    print("# adversarial: server reaches level '%s'%s" %
          (env.level, "; " + "; ".join(env.probe_notes)
           if env.probe_notes else ""), flush=True)
    for note in env.probe_notes:
        runner.report("FAIL", "probe", note)

    selected = [c for c in suite.CASES
                if (not args.names and c.group not in ON_REQUEST) or
                c.name in args.names or c.group in args.names]
    lc = None
    if not args.no_legit:
        lc = legit.Legit(env, args.cifs and env.has("file"))
        lc.start()
    for g in GROUPS:
        group_cases = [c for c in selected if c.group == g]
        if not group_cases:
            continue
        for c in group_cases:
            runner.run_case(c)
        runner.live_zero(g, lc)
    if lc:
        lc.stop()
        ok, fail, cifs_ok = lc.counts()
        if fail or not ok:
            runner.report("FAIL", "legit-client",
                          "%d of %d iterations failed: %s" %
                          (fail, ok + fail, " | ".join(lc.errors[:3])))
        else:
            print("# adversarial: legitimate client: %d raw iterations, "
                  "%d cifs iterations, 0 failed" % (ok, cifs_ok))
            runner.report("PASS", "legit-client")
    n = sum(runner.counts.values())
    print("# adversarial: %d cases: %d passed, %d failed, %d skipped" %
          (n, runner.counts["PASS"], runner.counts["FAIL"],
           runner.counts["SKIP"]), flush=True)
    return 1 if runner.counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
