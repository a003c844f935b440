# SPDX-License-Identifier: GPL-2.0-or-later
"""NEGOTIATE and its contexts, and what may come before it (rows 19, 50)."""
import struct

from advlib import (Client, expect, expect_status, wire, SUCCESS,
                    INVALID_PARAMETER, SESSION_SETUP, NEGOTIATE,
                    body_session_setup, spnego_init)
from suite import case

PREAUTH = wire.preauth_ctx()


def send_negotiate(env, body):
    c = Client(env)
    c.send_frame(c.header(NEGOTIATE, 0) + body)
    return c, c.recv()


def neg311_body(contexts):
    """A 3.1.1 body with the contexts exactly as given (no padding added)."""
    body = bytearray(wire.negotiate_body([0x0311], [PREAUTH]))
    off = struct.unpack_from("<I", body, 28)[0]
    body = body[:off - 64] + b"".join(contexts)
    struct.pack_into("<H", body, 32, len(contexts))
    return bytes(body)


def ctx(ctype, data, claimed=None):
    n = len(data) if claimed is None else claimed
    return struct.pack("<HHI", ctype, n, 0) + data


@case("negotiate", "INVALID_PARAMETER: first context's DataLength runs into "
      "the second (overlap, row 19)")
def case_negctx_overlap(env):
    pre = PREAUTH[8:]
    body = neg311_body([ctx(1, pre, claimed=len(pre) + 16) +
                        b"\0" * ((8 - len(pre) % 8) % 8),
                        ctx(2, struct.pack("<HH", 1, 1))])
    c, r = send_negotiate(env, body)
    expect_status(r, INVALID_PARAMETER, "negotiate")


@case("negotiate", "INVALID_PARAMETER: context DataLength past the frame")
def case_negctx_length_past_end(env):
    c, r = send_negotiate(env, neg311_body([ctx(1, PREAUTH[8:],
                                                claimed=0xFFFF)]))
    expect_status(r, INVALID_PARAMETER, "negotiate")


@case("negotiate", "INVALID_PARAMETER: odd DataLength ending at the frame's "
      "end with a second context claimed (alignment underflow, row 19)")
def case_negctx_align_underflow(env):
    odd = PREAUTH[8:] + b"\x01"
    body = bytearray(neg311_body([ctx(1, odd)]))
    struct.pack_into("<H", body, 32, 2)
    c, r = send_negotiate(env, bytes(body))
    expect_status(r, INVALID_PARAMETER, "negotiate")


@case("negotiate", "INVALID_PARAMETER: NegotiateContextOffset unaligned, "
      "inside the dialects, past the frame, 0xFFFFFFFF")
def case_negctx_bad_offsets(env):
    for off in (0x6A, 64, 0x1000, 0xFFFFFFFF):
        body = bytearray(neg311_body([PREAUTH]))
        struct.pack_into("<I", body, 28, off)
        c, r = send_negotiate(env, bytes(body))
        expect_status(r, INVALID_PARAMETER, "offset 0x%x" % off)
        c.close()


@case("negotiate", "INVALID_PARAMETER: NegotiateContextCount 65535 with one "
      "context present")
def case_negctx_count_huge(env):
    body = bytearray(neg311_body([PREAUTH]))
    struct.pack_into("<H", body, 32, 0xFFFF)
    c, r = send_negotiate(env, bytes(body))
    expect_status(r, INVALID_PARAMETER, "negotiate")


@case("negotiate", "INVALID_PARAMETER: preauth context with HashAlgorithm"
      "Count and SaltLength past its DataLength")
def case_negctx_preauth_inner_lengths(env):
    for data in (struct.pack("<HHH", 200, 0, 1),
                 struct.pack("<HHH", 1, 0xFFFF, 1) + b"\0" * 4,
                 struct.pack("<H", 1)):
        c, r = send_negotiate(env, neg311_body([ctx(1, data)]))
        expect_status(r, INVALID_PARAMETER, "preauth %s" % data.hex())
        c.close()


@case("negotiate", "INVALID_PARAMETER: DialectCount 0, and DialectCount "
      "past the frame")
def case_dialect_count(env):
    for count in (0, 4000):
        body = bytearray(wire.negotiate_body([0x0210]))
        struct.pack_into("<H", body, 2, count)
        c, r = send_negotiate(env, bytes(body))
        expect_status(r, INVALID_PARAMETER, "DialectCount %d" % count)
        c.close()


@case("negotiate", "connection dropped: a failed NEGOTIATE, then "
      "SESSION_SETUP (row 50)")
def case_session_setup_after_failed_negotiate(env):
    body = bytearray(wire.negotiate_body([0x0210]))
    struct.pack_into("<H", body, 2, 0)
    c, r = send_negotiate(env, bytes(body))
    expect_status(r, INVALID_PARAMETER, "negotiate")
    c.send_frame(c.header(SESSION_SETUP, 1) +
                 body_session_setup(spnego_init(b"NTLMSSP\0")))
    expect(c.is_dropped(), "SESSION_SETUP after a failed negotiate answered")


@case("negotiate", "connection dropped: SESSION_SETUP as the first request")
def case_session_setup_before_negotiate(env):
    c = Client(env)
    c.send_frame(c.header(SESSION_SETUP, 0) +
                 body_session_setup(spnego_init(b"NTLMSSP\0")))
    expect(c.is_dropped(), "not dropped")


@case("negotiate", "connection dropped: second NEGOTIATE, also after a "
      "session exists")
def case_negotiate_twice(env):
    c = env.client("session")
    c.send_frame(c.element(NEGOTIATE, wire.negotiate_body([0x0311]),
                           sign=False))
    expect(c.is_dropped(), "second negotiate not dropped")


@case("negotiate", "INVALID_PARAMETER for a NEGOTIATE that is 2 bytes "
      "short of its fixed part; then still negotiable")
def case_negotiate_truncated(env):
    c = Client(env)
    c.send_frame(c.header(NEGOTIATE, 0) +
                 wire.negotiate_body([0x0210])[:34])
    r = c.recv()
    expect_status(r, INVALID_PARAMETER, "negotiate")
    c.mid = 1
    r = c.negotiate((0x0210,))
    expect_status(r, SUCCESS, "negotiate after the short one")
