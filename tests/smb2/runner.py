# SPDX-License-Identifier: GPL-2.0-or-later
"""What every case client shares: a registry of its cases, the loop that
runs them (one PASS:/FAIL: line each) and the command line."""
import argparse
import sys

from .wire import Dropped


def case_registry():
    """A table of cases and the decorator that fills it: @case on
    def case_NAME(env) registers NAME."""
    cases = {}

    def register(fn):
        cases[fn.__name__.replace("case_", "")] = fn
        return fn
    return cases, register


def run_cases(env, cases):
    """Runs the named cases (all when none are named), one PASS/FAIL line
    each; returns the exit status (1 when any failed)."""
    failed = 0
    for name in env.cases or list(cases):
        fn = cases.get(name)
        try:
            if not fn:
                raise KeyError("no such case")
            fn(env)
            print("PASS: %s/%s" % (env.prefix, name))
        except (Exception, Dropped) as e:
            print("FAIL: %s/%s: %s: %s" % (env.prefix, name,
                                           type(e).__name__, e))
            failed += 1
        sys.stdout.flush()
    return 1 if failed else 0


def arg_parser(doc, prefix, add_args=None):
    """--host, --port, --prefix, --user, --password, the client's own
    options (add_args(ap)), --list and case names."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=445)
    ap.add_argument("--prefix", default=prefix)
    ap.add_argument("--user", default="tester")
    ap.add_argument("--password", default="tester")
    if add_args:
        add_args(ap)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("-k", dest="match", action="append", default=[],
                    metavar="TEXT", help="the cases whose name contains "
                    "TEXT (may be repeated; with --list, lists them)")
    ap.add_argument("cases", nargs="*")
    return ap


def matching(names, texts):
    """The names containing one of texts, in order."""
    return [n for n in names if any(t in n for t in texts)]


def case_main(doc, prefix, cases, add_args=None, default_cases=None,
              pick=None):
    """The command line every case client shares; default_cases, when
    given, are run when no case is named (instead of all); pick(env), when
    given, chooses the case table from the options. Returns the exit
    status."""
    env = arg_parser(doc, prefix, add_args).parse_args()
    if pick:
        cases = pick(env)
    if env.match:
        env.cases += matching(cases, env.match)
        if not env.cases:
            print("FAIL: %s: no case matches -k %s" %
                  (env.prefix, " -k ".join(env.match)))
            return 1
    if env.list:
        print("\n".join(env.cases if env.match else cases))
        return 0
    if not env.cases and default_cases is not None:
        env.cases = list(default_cases)
    return run_cases(env, cases)
