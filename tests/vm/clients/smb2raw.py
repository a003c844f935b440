#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A raw SMB2 client for transport and negotiate tests: plain sockets and
struct, so every byte on the wire is under the test's control.

Library:  Conn(host, port).negotiate([0x0311]) -> Response
CLI:      smb2raw.py [--host H] [--port P] [--prefix NAME] [CASE ...]
          (no CASE: run all; prints PASS:/FAIL: lines, exits 1 on failure)
"""
import argparse
import os
import socket
import struct
import sys
import time

SMB2_MAGIC = b"\xfeSMB"
HDR = struct.Struct("<4sHHIHHIIQIIQ16s")  # 64 bytes, MS-SMB2 2.2.1.2
assert HDR.size == 64

NEGOTIATE, SESSION_SETUP, LOGOFF, ECHO = 0x0, 0x1, 0x2, 0xD
FLAG_RESPONSE, FLAG_RELATED = 0x1, 0x4

STATUS_SUCCESS = 0
STATUS_USER_SESSION_DELETED = 0xC0000203
STATUS_NOT_IMPLEMENTED = 0xC0000002
STATUS_INVALID_PARAMETER = 0xC000000D
STATUS_NOT_SUPPORTED = 0xC00000BB
STATUS_NO_PREAUTH_OVERLAP = 0xC05D0000

CTX_PREAUTH, CTX_ENCRYPTION, CTX_SIGNING = 1, 2, 8


class Dropped(Exception):
    """The server closed the connection."""


def smb2_header(command, mid, credit_req=1, flags=0, next_cmd=0, charge=0,
                session=0, tree=0):
    return HDR.pack(SMB2_MAGIC, 64, charge, 0, command, credit_req, flags,
                    next_cmd, mid, 0xFEFF, tree, session, b"\0" * 16)


def cancel_frame(mid, tree, session, aid=None):
    """SMB2 CANCEL (MS-SMB2 2.2.30): the async form naming aid, else the
    sync form naming MessageId mid."""
    if aid is None:
        hdr = HDR.pack(SMB2_MAGIC, 64, 0, 0, 0x0C, 0, 0, 0, mid, 0xFEFF,
                       tree, session, b"\0" * 16)
    else:
        hdr = HDR.pack(SMB2_MAGIC, 64, 0, 0, 0x0C, 0, 0x2, 0, mid,
                       aid & 0xFFFFFFFF, aid >> 32, session, b"\0" * 16)
    return hdr + struct.pack("<HH", 4, 0)


def pad8(b):
    return b + b"\0" * ((8 - len(b) % 8) % 8)


def negctx(ctype, data):
    return struct.pack("<HHI", ctype, len(data), 0) + data


def preauth_ctx(algs=(1,), salt=b"\x11" * 32):
    data = struct.pack("<HH", len(algs), len(salt))
    data += b"".join(struct.pack("<H", a) for a in algs) + salt
    return negctx(CTX_PREAUTH, data)


def signing_ctx(algs=(2, 1, 0)):
    return negctx(CTX_SIGNING, struct.pack("<H", len(algs)) +
                  b"".join(struct.pack("<H", a) for a in algs))


def negotiate_body(dialects, contexts=None, guid=b"\x42" * 16):
    """NEGOTIATE request body; contexts (list of bytes) only for 3.1.1."""
    if contexts is None:
        contexts = [preauth_ctx(), signing_ctx()] if 0x0311 in dialects else []
    fixed_len = 36 + 2 * len(dialects)
    ctx_off = 0
    tail = b""
    if contexts:
        ctx_off = 64 + fixed_len + (8 - (64 + fixed_len) % 8) % 8
        tail = b"".join(pad8(c) for c in contexts[:-1]) + contexts[-1]
    body = struct.pack("<HHHHI16sIHH", 36, len(dialects), 1, 0, 0x7f, guid,
                       ctx_off, len(contexts), 0)
    body += b"".join(struct.pack("<H", d) for d in dialects)
    if contexts:
        body += b"\0" * (ctx_off - 64 - len(body))
        body += tail
    return body


class Response:
    def __init__(self, raw):
        self.raw = raw
        (magic, self.hsize, self.charge, self.status, self.command,
         self.credits, self.flags, self.next, self.mid, _pid, _tid,
         self.session, _sig) = HDR.unpack_from(raw, 0)
        if magic != SMB2_MAGIC:
            raise ValueError("response is not SMB2: %r" % magic)
        self.body = raw[64:]

    @property
    def structure_size(self):
        return struct.unpack_from("<H", self.body, 0)[0]

    def negotiate(self):
        """Decode an SMB2 NEGOTIATE response body into a dict."""
        (ss, secmode, dialect, nctx, guid, caps, mtrans, mread, mwrite,
         systime, start, sboff, sblen, ctxoff) = struct.unpack_from(
            "<HHHH16sIIIIQQHHI", self.body, 0)
        out = dict(structure_size=ss, security_mode=secmode, dialect=dialect,
                   context_count=nctx, guid=guid, capabilities=caps,
                   max_trans=mtrans, max_read=mread, max_write=mwrite,
                   system_time=systime, sec_off=sboff, sec_len=sblen,
                   ctx_off=ctxoff, contexts={})
        pos = ctxoff
        for i in range(nctx):
            if i:
                pos += (8 - pos % 8) % 8
            ctype, dlen = struct.unpack_from("<HH", self.raw, pos)
            out["contexts"][ctype] = self.raw[pos + 8:pos + 8 + dlen]
            if pos + 8 + dlen > len(self.raw):
                raise ValueError("context past the end of the response")
            pos += 8 + dlen
        return out


def split_compound(raw):
    out = []
    off = 0
    while True:
        r = Response(raw[off:])
        nxt = r.next
        if nxt:
            r = Response(raw[off:off + nxt])
            r.next = nxt
        out.append(r)
        if not nxt:
            return out
        off += nxt


class Conn:
    def __init__(self, host="127.0.0.1", port=445, timeout=10, source=None):
        # source: a local address to connect from (another loopback
        # address stands for another peer).
        self.sock = socket.create_connection(
            (host, port), timeout=timeout,
            source_address=(source, 0) if source else None)
        self.mid = 0

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send_raw(self, data):
        self.sock.sendall(data)

    def send_frame(self, payload):
        self.send_raw(struct.pack(">I", len(payload)) + payload)

    def _recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            try:
                chunk = self.sock.recv(n - len(buf))
            except ConnectionResetError:
                raise Dropped("connection reset")
            if not chunk:
                raise Dropped("connection closed")
            buf += chunk
        return buf

    def recv_frame(self):
        hdr = self._recv_exact(4)
        (n,) = struct.unpack(">I", hdr)
        return self._recv_exact(n & 0xFFFFFF)

    def recv(self):
        return Response(self.recv_frame())

    def request(self, command, body, credit_req=1, charge=0, mid=None):
        if mid is None:
            mid = self.mid
            self.mid += max(charge, 1)
        self.send_frame(smb2_header(command, mid, credit_req, charge=charge) +
                        body)
        return self.recv()

    def negotiate(self, dialects, contexts=None, credit_req=1):
        return self.request(NEGOTIATE, negotiate_body(dialects, contexts),
                            credit_req)

    def echo(self, **kw):
        return self.request(ECHO, struct.pack("<HH", 4, 0), **kw)

    def is_dropped(self, wait=5.0):
        """True when the server closes the connection within wait seconds."""
        self.sock.settimeout(wait)
        try:
            data = self.sock.recv(4096)
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False
        return data == b""


# ---- cases ----------------------------------------------------------------

def case_registry():
    """A table of cases and the decorator that fills it: @case on
    def case_NAME(env) registers NAME (every case client's list)."""
    cases = {}

    def register(fn):
        cases[fn.__name__.replace("case_", "")] = fn
        return fn
    return cases, register


CASES, case = case_registry()


def expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


def expect_eq(a, b, what):
    if a != b:
        raise AssertionError("%s: got %s, expected %s" %
                             (what, hex(a) if isinstance(a, int) else a,
                              hex(b) if isinstance(b, int) else b))


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


def smb1_negotiate(dialects):
    data = b"".join(b"\x02" + d + b"\0" for d in dialects)
    hdr = b"\xffSMB" + bytes([0x72]) + b"\0" * 4 + bytes([0x18]) + \
        struct.pack("<H", 0xc853) + b"\0" * 20
    assert len(hdr) == 32
    return hdr + b"\0" + struct.pack("<H", len(data)) + data


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


def case_main(doc, prefix, cases, add_args=None, default_cases=None):
    """The command line every case client shares: --host, --port, --prefix,
    --user, --password, --list and case names; add_args(ap) adds the
    client's own options; default_cases, when given, are run when no case
    is named (instead of all). Returns the exit status."""
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
    ap.add_argument("cases", nargs="*")
    env = ap.parse_args()
    if env.list:
        print("\n".join(cases))
        return 0
    if not env.cases and default_cases is not None:
        env.cases = list(default_cases)
    return run_cases(env, cases)

def main():
    def args(ap):
        ap.add_argument("--flood", type=int, default=200)
        ap.add_argument("--flood-wait", type=float, default=30.0)
    return case_main(__doc__, "smb2raw", CASES, args)


if __name__ == "__main__":
    sys.exit(main())
