# SPDX-License-Identifier: GPL-2.0-or-later
"""Availability (issue 25, items 8-12): no client can lock the others out
or stall them. Other loopback addresses (127.0.0.x) stand for other peers,
so the legitimate client (127.0.0.1) is never the flooding peer."""
import struct

from advlib import (expect, sname, is_error, MORE_PROCESSING_REQUIRED,
                    SESSION_SETUP, body_session_setup, spnego_init)
from suite import case, live_counts, read_stats

FLOOD_PEER = "127.0.0.3"
OTHER_PEER = "127.0.0.4"


def stat(name):
    s = read_stats() or {}
    return int(s.get(name, "0"))


def ntlm_first_leg():
    from impacket import ntlm
    return spnego_init(ntlm.getNTLMSSPType1("", "", False).getData())


@case("avail", "64 connections x 4 unfinished NTLM first legs from one "
      "peer (item 8): every leg answered; that peer holds at most 16 "
      "half-done setups; a login from another peer and a new one from the "
      "flooding peer both SUCCESS", timeout=180)
def case_pending_session_lockout(env):
    env.need("session")
    t1 = ntlm_first_leg()
    body = body_session_setup(t1)
    conns = [env.client("negotiate", source=FLOOD_PEER) for _ in range(64)]
    try:
        for c in conns:
            c.send_raw(b"".join(struct.pack(">I", 64 + len(body)) +
                                c.element(SESSION_SETUP, body, sess=0)
                                for _ in range(4)))
        for c in conns:
            for _ in range(4):
                r = c.recv()
                expect(r.status == MORE_PROCESSING_REQUIRED or
                       is_error(r.status), "first leg: %s" % sname(r.status))
        # 16 of the flood's, and room for the legitimate client's.
        held = (live_counts() or {}).get("sessions", 0)
        other = env.client("session", source=OTHER_PEER)
        other.close()
        same = env.client("session", source=FLOOD_PEER)
        same.close()
        expect(held <= 20, "%d sessions held after the flood" % held)
    finally:
        for c in conns:
            c.rst()

