#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Host-side self-test of the hostile client (no server needed): the
request bodies it builds, the compound framing and signing, and that the
README lists every registered case. Its keys, NTLM and SPNEGO are
tests/smb2's, checked by tests/smb2/selftest.py."""
import os
import struct
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "cases"))

import advlib  # noqa: E402
import suite  # noqa: E402
__import__("run")  # registers every case

PREFIX = "adversarial-selftest"
failed = 0


def check(name, cond, msg="failed"):
    global failed
    if cond:
        print("PASS: %s/%s" % (PREFIX, name))
    else:
        failed += 1
        print("FAIL: %s/%s: %s" % (PREFIX, name, msg))


def t_spnego_token():
    token = b"NTLMSSP\0\x02\0\0\0" + b"\x55" * 40
    check("spnego-token-found", advlib.spnego_token(
        advlib.spnego_resp(token)) == token)
    try:
        advlib.spnego_token(advlib.spnego_resp(b"no token"))
        check("spnego-token-missing-is-failure", False, "no CaseFailure")
    except advlib.CaseFailure:
        check("spnego-token-missing-is-failure", True)


def t_bodies():
    bad = []
    for cmd, ss in advlib.STRUCTURE_SIZE.items():
        body = advlib.minimal_body(cmd)
        if struct.unpack_from("<H", body, 0)[0] != ss:
            bad.append("%s StructureSize" % advlib.CMD_NAMES[cmd])
        if len(body) < advlib.FIXED[cmd]:
            bad.append("%s shorter than its fixed part" %
                       advlib.CMD_NAMES[cmd])
    for cmd, name, off_at, off_w, len_at, len_w in advlib.BUFFERS:
        body = advlib.minimal_body(cmd)
        fmt = {2: "<H", 4: "<I"}
        off = struct.unpack_from(fmt[off_w], body, off_at)[0]
        ln = struct.unpack_from(fmt[len_w], body, len_at)[0]
        if ln and (off < 64 + advlib.FIXED[cmd] or off + ln > 64 + len(body)):
            bad.append("%s %s out of its body" % (advlib.CMD_NAMES[cmd],
                                                  name))
    check("minimal-bodies-valid", not bad, "; ".join(bad))
    c = advlib.body_create("a.txt", contexts=advlib.create_context(b"MxAc",
                                                                  b""))
    off, ln = struct.unpack_from("<II", c, 48)
    check("create-context-aligned", off % 8 == 0 and off + ln == 64 + len(c),
          "offset %d length %d body %d" % (off, ln, len(c)))


class FakeEnv:
    host, port, user, password, share = "127.0.0.1", 445, "u", "p", "s"


def t_compound():
    c = advlib.Client.__new__(advlib.Client)
    c.env, c.mid, c.sess, c.tree, c.key, c.dialect = FakeEnv, 1, 7, 9, None, \
        0x0311
    frame = c.compound([(advlib.ECHO, advlib.body_simple(), {}),
                        (advlib.CREATE, advlib.body_create("x"), {}),
                        (advlib.ECHO, advlib.body_simple(), {})])
    off, seen = 0, []
    while True:
        nxt, = struct.unpack_from("<I", frame, off + 20)
        flags, = struct.unpack_from("<I", frame, off + 16)
        sess, = struct.unpack_from("<Q", frame, off + 40)
        seen.append((nxt % 8, bool(flags & advlib.FLAG_RELATED), sess))
        if not nxt:
            break
        off += nxt
    check("compound-walk", [s[0] for s in seen] == [0, 0, 0] and
          [s[1] for s in seen] == [False, True, True] and
          seen[0][2] == 7 and seen[1][2] == 0xFFFFFFFFFFFFFFFF,
          repr(seen))
    c.key, c.sign_alg = b"k" * 16, 1
    el = c.element(advlib.ECHO, advlib.body_simple())
    check("signed-element", struct.unpack_from("<I", el, 16)[0] &
          advlib.FLAG_SIGNED and el[48:64] != b"\0" * 16)


def t_registry():
    names = [c.name for c in suite.CASES]
    check("case-names-unique", len(names) == len(set(names)))
    check("at-least-60-cases", len(names) >= 60, "%d cases" % len(names))
    with open(os.path.join(HERE, "README.md")) as f:
        readme = f.read()
    missing = [n for n in names if "`%s`" % n not in readme]
    check("readme-lists-every-case", not missing,
          "not in README.md: %s" % ", ".join(missing[:10]))
    check("every-case-has-expected-result",
          all(c.expected.strip() for c in suite.CASES))


for t in (t_spnego_token, t_bodies, t_compound, t_registry):
    try:
        t()
    except Exception as e:  # a crashing check is a failing check
        failed += 1
        print("FAIL: %s/%s: %s: %s" % (PREFIX, t.__name__[2:], type(e).__name__,
                                       e))
sys.exit(1 if failed else 0)
