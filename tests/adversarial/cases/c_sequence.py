# SPDX-License-Identifier: GPL-2.0-or-later
"""MessageId window and credits (rows 7, 40)."""
import struct
import threading

from advlib import (Client, expect, Dropped, ECHO, body_simple,
                    wire)
from suite import case, live_counts

E = body_simple()


@case("sequence", "connection dropped: a MessageId used twice")
def case_mid_replay(env):
    c = env.client("negotiate")
    c.call(ECHO, E, mid=1)
    c.send_frame(c.header(ECHO, 1) + E)
    expect(c.is_dropped(), "replayed MessageId answered")


@case("sequence", "connection dropped: MessageId 5000 with ~64 credits "
      "granted, and 2^64-1")
def case_mid_out_of_window(env):
    for mid in (5000, 0xFFFFFFFFFFFFFFFF):
        c = env.client("negotiate")
        c.send_frame(c.header(ECHO, mid) + E)
        expect(c.is_dropped(), "MessageId %d answered" % mid)


@case("sequence", "connection dropped: CreditCharge 600 on an ECHO, more "
      "than ever granted")
def case_charge_beyond_granted(env):
    c = env.client("negotiate")
    c.send_frame(c.header(ECHO, 1, charge=600) + E)
    expect(c.is_dropped(), "charge beyond the credits answered")


@case("sequence", "credits granted never exceed 8192 held, even when each "
      "request asks for 65535")
def case_credit_request_huge(env):
    c = Client(env)
    c.send_frame(c.header(0, 0, credit_req=65535) +
                 wire.negotiate_body([0x0311]))
    held = c.recv().credits
    mid = 1
    for _ in range(5):
        r = c.call(ECHO, E, mid=mid, credit_req=65535)
        mid += 1
        held += r.credits - 1
        expect(held <= 8192, "client holds %d credits" % held)
    expect(held == 8192, "client holds %d credits, not the 8192 it asked "
           "for" % held)


@case("sequence", "2000 ECHOs pipelined with 1 credit each (rows 7, 40): "
      "each answered once or the connection dropped; live works stay "
      "bounded (<= 200)")
def case_pipeline_beyond_credits(env):
    c = Client(env)
    c.send_frame(c.header(0, 0, credit_req=1) +
                 wire.negotiate_body([0x0311]))
    c.recv()
    peak = [0]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            lc = live_counts()
            if lc:
                peak[0] = max(peak[0], lc.get("works", 0))
            stop.wait(0.01)
    t = threading.Thread(target=sample)
    t.start()
    blob = b"".join(struct.pack(">I", 68) + c.header(ECHO, m, credit_req=0)
                    + E for m in range(1, 2001))
    seen = []
    try:
        try:
            c.send_raw(blob)
        except OSError:
            pass
        while len(seen) < 2000:
            seen.append(c.recv().mid)
    except (Dropped, OSError):
        pass
    finally:
        stop.set()
        t.join()
    expect(len(seen) == len(set(seen)), "a MessageId answered twice")
    expect(peak[0] <= 200, "live works peaked at %d" % peak[0])
