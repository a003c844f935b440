#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Transport and NEGOTIATE cases against the server with the raw client of
tests/smb2 (plain sockets and struct, so every byte on the wire is under
the test's control).

CLI:      smb2raw.py [--host H] [--port P] [--prefix NAME] [CASE ...]
          (no CASE: run all; prints PASS:/FAIL: lines, exits 1 on failure)
"""
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.conn import Conn  # noqa: E402
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

CASES, case = case_registry()


def negotiated(env, dialects=(0x0311,)):
    c = Conn(env.host, env.port)
    r = c.negotiate(list(dialects))
    expect_eq(r.status, STATUS_SUCCESS, "negotiate status")
    return c


def check_dialect(env, dialect):
    c = Conn(env.host, env.port)
    r = c.negotiate([dialect])
    expect_eq(r.status, STATUS_SUCCESS, "status")
    expect_eq(r.command, NEGOTIATE, "command")
    expect(r.flags & FLAG_RESPONSE, "response flag missing")
    n = r.negotiate()
    expect_eq(n["structure_size"], 65, "StructureSize")
    expect_eq(n["dialect"], dialect, "dialect")
    expect(n["security_mode"] & 1, "signing not enabled")
    expect(n["max_read"] >= 65536 and n["max_write"] >= 65536,
           "max read/write below 64 KiB")
    expect(r.credits >= 1, "no credit granted")
    expect_eq(n["sec_off"], 128, "SecurityBufferOffset")
    # We offer SMB2_GLOBAL_CAP_ENCRYPTION (0x7f has it): 3.0/3.0.2 only.
    expect(bool(n["capabilities"] & 0x40) == (dialect in (0x0300, 0x0302)),
           "ENCRYPTION capability 0x%x on dialect 0x%x" %
           (n["capabilities"], dialect))
    if dialect == 0x0311:
        expect(n["context_count"] >= 1, "no negotiate contexts")
        expect_eq(n["ctx_off"] % 8, 0, "context offset alignment")
        pre = n["contexts"].get(CTX_PREAUTH)
        expect(pre is not None, "no preauth context")
        cnt, slen, alg = struct.unpack_from("<HHH", pre, 0)
        expect_eq((cnt, alg), (1, 1), "preauth algorithm count/SHA-512")
        expect_eq(slen, 32, "salt length")
        expect_eq(len(pre), 6 + slen, "preauth context length")
        sig = n["contexts"].get(CTX_SIGNING)
        expect(sig is not None, "signing context not answered")
        # Offered GMAC, CMAC, HMAC: the server prefers AES-GMAC.
        expect_eq(struct.unpack_from("<HH", sig, 0), (1, 2),
                  "signing algorithm (count, AES-GMAC)")
        expect(CTX_ENCRYPTION not in n["contexts"],
               "encryption context answered without a cipher")
    else:
        expect_eq(n["context_count"], 0, "contexts before 3.1.1")
    c.close()


@case
def case_negotiate_210(env):
    check_dialect(env, 0x0210)


@case
def case_negotiate_300(env):
    check_dialect(env, 0x0300)


@case
def case_negotiate_302(env):
    check_dialect(env, 0x0302)


@case
def case_negotiate_311(env):
    check_dialect(env, 0x0311)


@case
def case_negotiate_highest(env):
    c = Conn(env.host, env.port)
    r = c.negotiate([0x0202, 0x0210, 0x0300, 0x0302, 0x0311])
    expect_eq(r.negotiate()["dialect"], 0x0311, "dialect")
    c.close()
    c = Conn(env.host, env.port)
    r = c.negotiate([0x0300, 0x0210, 0x0202])
    expect_eq(r.negotiate()["dialect"], 0x0300, "dialect")
    c.close()


@case
def case_negotiate_no_common(env):
    c = Conn(env.host, env.port)
    r = c.negotiate([0x0202, 0x0999])
    expect_eq(r.status, STATUS_NOT_SUPPORTED, "status")
    expect_eq(r.structure_size, 9, "error StructureSize")
    c.close()


@case
def case_negotiate_311_without_contexts(env):
    c = Conn(env.host, env.port)
    r = c.negotiate([0x0311], contexts=[])
    expect_eq(r.status, STATUS_INVALID_PARAMETER, "status")
    c.close()


@case
def case_negotiate_311_no_sha512(env):
    c = Conn(env.host, env.port)
    r = c.negotiate([0x0311], contexts=[preauth_ctx(algs=(7,))])
    expect_eq(r.status, STATUS_NO_PREAUTH_OVERLAP, "status")
    c.close()


@case
def case_negotiate_credits(env):
    c = Conn(env.host, env.port)
    r = c.negotiate([0x0311], credit_req=10)
    expect_eq(r.credits, 10, "credits granted")
    r = c.echo(credit_req=0)
    expect(r.credits >= 1, "zero credits granted")
    c.close()


@case
def case_smb1_upgrade(env):
    c = Conn(env.host, env.port)
    c.send_frame(smb1_negotiate([b"NT LM 0.12", b"SMB 2.002", b"SMB 2.???"]))
    r = c.recv()
    expect_eq(r.status, STATUS_SUCCESS, "status")
    expect_eq(r.command, NEGOTIATE, "command")
    expect_eq(r.mid, 0, "MessageId")
    expect_eq(r.negotiate()["dialect"], 0x02FF, "dialect")
    c.mid = 1
    r = c.negotiate([0x0210, 0x0300, 0x0302, 0x0311])
    expect_eq(r.status, STATUS_SUCCESS, "SMB2 negotiate after upgrade")
    expect_eq(r.negotiate()["dialect"], 0x0311, "dialect after upgrade")
    c.close()


@case
def case_smb1_only_dropped(env):
    c = Conn(env.host, env.port)
    c.send_frame(smb1_negotiate([b"NT LM 0.12"]))
    expect(c.is_dropped(), "SMB1-only negotiate not dropped")


@case
def case_smb1_after_smb2_dropped(env):
    c = negotiated(env)
    c.send_frame(smb1_negotiate([b"SMB 2.???"]))
    expect(c.is_dropped(), "SMB1 negotiate after SMB2 not dropped")


@case
def case_echo(env):
    c = negotiated(env)
    r = c.echo()
    expect_eq(r.status, STATUS_SUCCESS, "status")
    expect_eq(r.command, ECHO, "command")
    expect_eq(r.mid, 1, "MessageId")
    expect_eq(r.structure_size, 4, "StructureSize")
    expect_eq(len(r.body), 4, "body length")
    c.close()


@case
def case_echo_before_negotiate_dropped(env):
    c = Conn(env.host, env.port)
    c.send_frame(smb2_header(ECHO, 0) + struct.pack("<HH", 4, 0))
    expect(c.is_dropped(), "not dropped")


@case
def case_command_before_negotiate_dropped(env):
    c = Conn(env.host, env.port)
    body = struct.pack("<HBBIIHHQ", 25, 0, 1, 0, 0, 88, 0, 0)
    c.send_frame(smb2_header(SESSION_SETUP, 0) + body)
    expect(c.is_dropped(), "not dropped")


@case
def case_second_negotiate_dropped(env):
    c = negotiated(env)
    c.mid = 1
    c.send_frame(smb2_header(NEGOTIATE, 1) + negotiate_body([0x0311]))
    expect(c.is_dropped(), "not dropped")


@case
def case_command_without_session(env):
    # Everything but NEGOTIATE, SESSION_SETUP, ECHO and CANCEL needs a session.
    c = negotiated(env)
    r = c.request(LOGOFF, struct.pack("<HH", 4, 0))
    expect_eq(r.status, STATUS_USER_SESSION_DELETED, "status")
    expect_eq(r.structure_size, 9, "error StructureSize")
    c.close()


@case
def case_unknown_command(env):
    c = negotiated(env)
    r = c.request(0x50, struct.pack("<HH", 4, 0))
    expect_eq(r.status, STATUS_INVALID_PARAMETER, "status")
    c.close()


@case
def case_mid_reuse_dropped(env):
    c = negotiated(env, )
    c.echo(mid=1)
    c.send_frame(smb2_header(ECHO, 1) + struct.pack("<HH", 4, 0))
    expect(c.is_dropped(), "reused MessageId not dropped")


@case
def case_mid_outside_window_dropped(env):
    c = negotiated(env)
    c.send_frame(smb2_header(ECHO, 5000) + struct.pack("<HH", 4, 0))
    expect(c.is_dropped(), "MessageId outside the window not dropped")


@case
def case_pipelined_echos(env):
    """Many requests in flight at once, within the credits granted."""
    c = Conn(env.host, env.port)
    r = c.negotiate([0x0311], credit_req=300)
    expect_eq(r.credits, 300, "credits granted")
    e = struct.pack("<HH", 4, 0)
    c.send_raw(b"".join(struct.pack(">I", 68) + smb2_header(ECHO, m) + e
                        for m in range(1, 301)))
    mids = sorted(c.recv().mid for _ in range(300))
    expect_eq(mids, list(range(1, 301)), "answered MessageIds")
    c.close()


def check_fresh(env):
    c = negotiated(env)
    r = c.echo()
    expect_eq(r.status, STATUS_SUCCESS, "fresh connection echo")
    c.close()


@case
def case_length_16m_dropped(env):
    c = Conn(env.host, env.port)
    c.send_raw(b"\x00\xff\xff\xff")
    t = time.monotonic()
    expect(c.is_dropped(), "not dropped")
    expect(time.monotonic() - t < 3, "dropped only after a timeout")
    check_fresh(env)


@case
def case_length_zero_dropped(env):
    c = Conn(env.host, env.port)
    c.send_raw(b"\x00\x00\x00\x00")
    expect(c.is_dropped(), "not dropped")


@case
def case_length_below_header_dropped(env):
    for n in (1, 15, 32, 63):
        c = Conn(env.host, env.port)
        c.send_frame((SMB2_MAGIC + b"\0" * 64)[:n])
        expect(c.is_dropped(), "length %d not dropped" % n)


@case
def case_netbios_type_dropped(env):
    c = Conn(env.host, env.port)
    c.send_raw(b"\x85\x00\x00\x00")
    expect(c.is_dropped(), "keepalive type not dropped")


@case
def case_bad_protocol_id_dropped(env):
    c = Conn(env.host, env.port)
    c.send_frame(b"\xfaSMB" + smb2_header(NEGOTIATE, 0)[4:] +
                 negotiate_body([0x0210]))
    expect(c.is_dropped(), "not dropped")


@case
def case_truncated_body(env):
    c = negotiated(env)
    r = c.request(ECHO, struct.pack("<H", 4))
    expect_eq(r.status, STATUS_INVALID_PARAMETER, "status")
    expect_eq(r.structure_size, 9, "error StructureSize")
    c.close()


@case
def case_wrong_structure_size(env):
    c = negotiated(env)
    r = c.request(ECHO, struct.pack("<HH", 5, 0))
    expect_eq(r.status, STATUS_INVALID_PARAMETER, "status")
    c.close()


@case
def case_compound_two_echos(env):
    c = negotiated(env)
    e = struct.pack("<HH", 4, 0)
    first = smb2_header(ECHO, 1, next_cmd=72) + e + b"\0" * 4
    second = smb2_header(ECHO, 2, flags=FLAG_RELATED) + e
    c.send_frame(first + second)
    raw = c.recv_frame()
    parts = split_compound(raw)
    expect_eq(len(parts), 2, "responses")
    expect_eq(parts[0].next % 8, 0, "NextCommand alignment")
    expect_eq(parts[0].next, 72, "NextCommand")
    expect_eq([p.mid for p in parts], [1, 2], "MessageIds")
    expect_eq([p.status for p in parts], [0, 0], "statuses")
    expect(not parts[0].flags & FLAG_RELATED, "first marked related")
    expect(parts[1].flags & FLAG_RELATED, "related flag not echoed")
    expect_eq(parts[1].next, 0, "last NextCommand")
    c.close()


@case
def case_compound_next_past_end_dropped(env):
    c = negotiated(env)
    e = struct.pack("<HH", 4, 0)
    c.send_frame(smb2_header(ECHO, 1, next_cmd=200) + e + b"\0" * 4 +
                 smb2_header(ECHO, 2) + e)
    expect(c.is_dropped(), "not dropped")


@case
def case_compound_error_element(env):
    c = negotiated(env)
    e = struct.pack("<HH", 4, 0)
    bad = struct.pack("<HH", 7, 0)
    c.send_frame(smb2_header(ECHO, 1, next_cmd=72) + bad + b"\0" * 4 +
                 smb2_header(ECHO, 2) + e)
    parts = split_compound(c.recv_frame())
    expect_eq([p.status for p in parts], [STATUS_INVALID_PARAMETER, 0],
              "statuses")
    c.close()


def echo_compound(first_mid, count, first_flags=0):
    e = struct.pack("<HH", 4, 0)
    out = b""
    for i in range(count):
        last = i == count - 1
        el = smb2_header(ECHO, first_mid + i, next_cmd=0 if last else 72,
                         flags=first_flags if i == 0 else FLAG_RELATED) + e
        out += el if last else el + b"\0" * 4
    return out


@case
def case_compound_32_echos(env):
    """The largest compound the gate takes; every reply fits."""
    c = Conn(env.host, env.port)
    c.negotiate([0x0311], credit_req=64)
    c.send_frame(echo_compound(1, 32))
    parts = split_compound(c.recv_frame())
    expect_eq(len(parts), 32, "responses")
    expect_eq([p.mid for p in parts], list(range(1, 33)), "MessageIds")
    expect(all(p.status == 0 for p in parts), "an element failed")
    c.close()


@case
def case_compound_33_echos_dropped(env):
    c = Conn(env.host, env.port)
    c.negotiate([0x0311], credit_req=64)
    c.send_frame(echo_compound(1, 33))
    expect(c.is_dropped(), "not dropped")


@case
def case_compound_first_related(env):
    c = negotiated(env)
    c.send_frame(echo_compound(1, 2, first_flags=FLAG_RELATED))
    r = c.recv()
    expect_eq(r.status, STATUS_INVALID_PARAMETER, "status")
    expect_eq(r.mid, 1, "MessageId")
    c.close()


@case
def case_negotiate_context_count_past_end(env):
    """Contexts claimed but not present (the CVE-2023-38427 shape)."""
    body = bytearray(negotiate_body([0x0311], [preauth_ctx()]))
    struct.pack_into("<H", body, 32, 3)    # NegotiateContextCount
    c = Conn(env.host, env.port)
    c.send_frame(smb2_header(NEGOTIATE, 0) + bytes(body))
    r = c.recv()
    expect_eq(r.status, STATUS_INVALID_PARAMETER, "status")
    c.close()


@case
def case_transform_frame_dropped(env):
    c = negotiated(env)
    frame = b"\xfdSMB" + b"\0" * 16 + b"\0" * 16 + \
        struct.pack("<IHHQ", 68, 0, 1, 0) + smb2_header(ECHO, 1) + \
        struct.pack("<HH", 4, 0)
    c.send_frame(frame)
    expect(c.is_dropped(), "not dropped")


@case
def case_half_frame_then_close(env):
    c = Conn(env.host, env.port)
    c.send_raw(struct.pack(">I", 100) + SMB2_MAGIC + b"\0" * 46)
    c.close()
    check_fresh(env)


@case
def case_idle_flood(env):
    """Sockets that never speak are cut by the pre-negotiate deadline while
    a real client keeps being served. Needs negotiate_timeout_ms small.
    The flood comes from four other loopback addresses, each under the
    server's bound per peer address (max ip connections, 128 by default),
    so it is the deadline that cuts them, not that bound."""
    def source(i):
        return "127.0.1.%d" % (i % 4 + 1) if env.host == "127.0.0.1" else None
    idle = [Conn(env.host, env.port, source=source(i))
            for i in range(env.flood)]
    good = negotiated(env)
    for _ in range(3):
        expect_eq(good.echo().status, STATUS_SUCCESS, "echo during flood")
    deadline = time.monotonic() + env.flood_wait
    left = list(idle)
    while left and time.monotonic() < deadline:
        still = []
        for c in left:
            if not c.is_dropped(wait=0.05):
                still.append(c)
        left = still
    expect(not left, "%d of %d idle connections not cut" %
           (len(left), len(idle)))
    expect_eq(good.echo().status, STATUS_SUCCESS, "echo after the flood")
    good.close()



def main():
    def args(ap):
        ap.add_argument("--flood", type=int, default=200)
        ap.add_argument("--flood-wait", type=float, default=30.0)
    return case_main(__doc__, "smb2raw", CASES, args)


if __name__ == "__main__":
    sys.exit(main())
