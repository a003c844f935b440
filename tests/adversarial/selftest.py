#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Host-side self-test of the hostile client (no server needed): its keys
and signatures against published vectors and an independent
implementation, the request bodies it builds, the compound framing, and
that the README lists every registered case."""
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


def t_cmac_rfc4493():
    key = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
    msg = bytes.fromhex("6bc1bee22e409f96e93d7e117393172a")
    check("aes-cmac-rfc4493-empty", advlib.aes_cmac(key, b"").hex() ==
          "bb1d6929e95937287fa37d129b756746")
    check("aes-cmac-rfc4493-16", advlib.aes_cmac(key, msg).hex() ==
          "070a16b46b4d4144f79bdd9dd04a287c")


def t_kdf():
    from impacket.crypto import KDF_CounterMode
    key = bytes(range(16))
    ctx = bytes(range(64))
    mine = advlib.kdf(key, b"SMBSigningKey\0", ctx)
    ref = KDF_CounterMode(key, b"SMBSigningKey\0", ctx, 128)
    check("kdf-matches-impacket", mine == ref[:16],
          "%s != %s" % (mine.hex(), ref[:16].hex()))


def t_spnego():
    from impacket.spnego import SPNEGO_NegTokenInit, SPNEGO_NegTokenResp
    token = b"NTLMSSP\0\x01\0\0\0" + b"\x55" * 200
    init = SPNEGO_NegTokenInit(advlib.spnego_init(token))
    from impacket.spnego import TypesMech
    check("spnego-init-parses", init["MechToken"] == token and
          init["MechTypes"][0] ==
          TypesMech["NTLMSSP - Microsoft NTLM Security Support Provider"])
    resp = SPNEGO_NegTokenResp(advlib.spnego_resp(token))
    check("spnego-resp-parses", resp["ResponseToken"] == token)
    check("spnego-token-found", advlib.spnego_token(
        advlib.spnego_resp(token)) == token)


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


for t in (t_cmac_rfc4493, t_kdf, t_spnego, t_bodies, t_compound,
          t_registry):
    try:
        t()
    except Exception as e:  # a crashing check is a failing check
        failed += 1
        print("FAIL: %s/%s: %s: %s" % (PREFIX, t.__name__[2:], type(e).__name__,
                                       e))
sys.exit(1 if failed else 0)
