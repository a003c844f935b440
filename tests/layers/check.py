#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
tests/layers/check.py [--diagram] [MODULE_DIR]: the module's layering, as module/README.md
("Layers") describes it, checked from the sources' own quoted includes.

A unit is a .c file with the .h of the same name (file.c + file.h). Fails:
  - on a strongly connected component of the unit include graph of more than
    two units (two units that include each other are tolerated: a header
    and its closest user; three or more are a tangle);
  - on a module/**/*.c file over MAX_LINES lines;
  - on a file in a lower layer folder that includes a header of a higher
    one (LAYERS, top first; a folder not listed is an error, so that a new
    folder gets a place in the order).
  - on a command with a request body (COMMANDS) without its typed decoder
    ksmbd_<command>_decode() declared in proto/, called by a host unit
    test (tests/unit/) and by a fuzz target (tests/fuzz/).
  - on a file of module/ or a layer folder that module/README.md's file
    tables do not name exactly once.
Prints one PASS:/FAIL: line per check (make check counts them).
"""
import collections
import os
import re
import sys

MAX_LINES = 1000

# Folders of module/, top first (module/README.md, "Layers"). A file may
# include headers of its own folder and of the folders after it; the
# reverse goes through ops tables or callbacks registered at init.
LAYERS = [
    '.',            # module glue: init/exit, control, stats file, trace
    'transport',    # sockets and frames
    'smb2',         # dispatch and the command handlers
    'fs',           # objects (file table, oplocks, locks, durable) and VFS
    'conn',         # connections, sessions, trees, works; signing, crypto
    'core',         # server state, counters, tracepoint declarations, IPC
    'proto',        # plain protocol code, host-tested
    'uapi',         # the netlink ABI
]

# The commands whose request body the handlers read, by the name of their
# decoder (LOGOFF, TREE_DISCONNECT, ECHO and CANCEL carry only a
# StructureSize: ksmbd_simple_decode() checks them all).
COMMANDS = [
    'negotiate', 'sess_setup', 'tree_connect', 'create', 'close', 'flush',
    'read', 'write', 'lock', 'ioctl', 'query_dir', 'notify', 'query_info',
    'set_info', 'oplock_break',
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def resolve(root, src, inc):
    """The included file relative to root, as the compiler finds it: next
    to the includer first, then on the include path module/Kbuild sets
    (module/ and each layer folder), or None."""
    dirs = [os.path.dirname(src)] + [d for d in LAYERS if d not in
                                     ('proto', 'uapi')]
    for d in dirs:
        cand = os.path.normpath(os.path.join(d, inc))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def includes(root, files):
    edges = []
    for p in files:
        with open(os.path.join(root, p), errors='replace') as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            inc = resolve(root, p, m.group(1))
            if inc:
                edges.append((p, inc))
    return edges


def unit(p):
    return os.path.splitext(p)[0]


def sccs(nodes, adj):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(adj[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def folder(p):
    return os.path.dirname(p) or '.'


def check_cycles(files, edges):
    adj = collections.defaultdict(set)
    nodes = {unit(p) for p in files}
    for a, b in edges:
        if unit(a) != unit(b):
            adj[unit(a)].add(unit(b))
    bad = [c for c in sccs(nodes, adj) if len(c) > 2]
    for c in bad:
        print(f'FAIL: layers: include cycle of {len(c)} units: {" ".join(c)}')
    if not bad:
        print(f'PASS: layers: no include cycle of more than two units ({len(nodes)} units)')
    return not bad


def check_sizes(root, files):
    ok = True
    for p in files:
        if not p.endswith('.c'):
            continue
        with open(os.path.join(root, p), errors='replace') as f:
            n = sum(1 for _ in f)
        if n > MAX_LINES:
            print(f'FAIL: layers: {p} has {n} lines (at most {MAX_LINES})')
            ok = False
    if ok:
        print(f'PASS: layers: no .c file over {MAX_LINES} lines')
    return ok


def check_order(files, edges):
    rank = {d: i for i, d in enumerate(LAYERS)}
    ok = True
    for d in sorted({folder(p) for p in files}):
        if d not in rank:
            print(f'FAIL: layers: folder {d} has no place in LAYERS (tests/layers/check.py)')
            ok = False
    for a, b in edges:
        fa, fb = folder(a), folder(b)
        if fa in rank and fb in rank and rank[fb] < rank[fa]:
            print(f'FAIL: layers: {a} (layer {fa}) includes {b} of the higher layer {fb}')
            ok = False
    if ok:
        print(f'PASS: layers: every include goes to its own layer or one below ({" > ".join(LAYERS)})')
    return ok


def texts(top, sub, ext):
    out = []
    for d, _, files in os.walk(os.path.join(top, sub)):
        for f in files:
            if f.endswith(ext):
                with open(os.path.join(d, f), errors='replace') as fh:
                    out.append(fh.read())
    return '\n'.join(out)


def check_decoders(root):
    """Each command's decoder: declared in proto/, unit-tested, fuzzed."""
    top = os.path.normpath(os.path.join(root, '..'))
    where = {
        'declared in module/proto': texts(root, 'proto', '.h'),
        'called by tests/unit': texts(top, os.path.join('tests', 'unit'), '.c'),
        'called by tests/fuzz': texts(top, os.path.join('tests', 'fuzz'), '.c'),
    }
    ok = True
    for cmd in COMMANDS:
        name = re.compile(r'\bksmbd_%s_decode\s*\(' % cmd)
        for what, text in where.items():
            if not name.search(text):
                print(f'FAIL: layers: ksmbd_{cmd}_decode() not {what}')
                ok = False
    if ok:
        print(f'PASS: layers: {len(COMMANDS)} commands have a typed decoder, unit-tested and fuzzed')
    return ok


def check_readme(root, files):
    """module/README.md's file tables name each file of the layer folders
    once (`name.c/.h` names both)."""
    with open(os.path.join(root, 'README.md'), errors='replace') as f:
        rows = [ln.split('|')[1] for ln in f if ln.startswith('| `')]
    count = collections.Counter()
    for cell in rows:
        for name in re.findall(r'`([a-z0-9_]+\.[ch](?:/\.h)?)`', cell):
            if name.endswith('.c/.h'):
                count[name[:-5] + '.c'] += 1
                count[name[:-5] + '.h'] += 1
            else:
                count[name] += 1
    ok = True
    for p in files:
        if folder(p) in ('proto', 'uapi'):
            continue
        n = count[os.path.basename(p)]
        if n != 1:
            print(f'FAIL: layers: module/README.md names {p} {n} times (once wanted)')
            ok = False
    if ok:
        print('PASS: layers: module/README.md names every file once')
    return ok


def diagram(files, edges):
    """The folders and, under each, the lower folders its files include
    (with how many includes), as module/README.md shows it."""
    n = collections.Counter((folder(a), folder(b)) for a, b in edges
                            if folder(a) != folder(b))
    lines = []
    for d in LAYERS:
        below = [f'{t} ({n[(d, t)]})' for t in LAYERS if n[(d, t)]]
        lines.append(f'{d:10} -> {", ".join(below) if below else "(nothing)"}')
    return '\n'.join(lines) + '\n'


def check_diagram(root, files, edges):
    with open(os.path.join(root, 'README.md'), errors='replace') as f:
        text = f.read()
    if diagram(files, edges) in text:
        print('PASS: layers: module/README.md draws the include diagram as it is')
        return True
    print('FAIL: layers: module/README.md\'s layer diagram is not the code\'s '
          '(python3 tests/layers/check.py --diagram)')
    return False


def main():
    args = [a for a in sys.argv[1:] if a != '--diagram']
    root = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', '..', 'module')
    files = sources(root)
    if not files:
        print(f'FAIL: layers: no sources under {root}')
        return 1
    edges = includes(root, files)
    if '--diagram' in sys.argv[1:]:
        sys.stdout.write(diagram(files, edges))
        return 0
    ok = check_cycles(files, edges)
    ok = check_sizes(root, files) and ok
    ok = check_order(files, edges) and ok
    ok = check_decoders(root) and ok
    ok = check_readme(root, files) and ok
    ok = check_diagram(root, files, edges) and ok
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
