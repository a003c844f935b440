#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Durable handles v1 (DHnQ/DHnC) and v2 (DH2Q/DH2C) against the server,
with raw connections dropped by closing the socket: the handle survives
the drop and is reclaimed on a new connection with the same FileId, the
oplock or lease and the data; another user cannot reclaim it; LOGOFF
does not leave it behind; a short v2 timeout gets it scavenged (its share
modes go with it); a conflicting open from elsewhere closes it; a
replayed DH2Q CREATE gets the same open; malformed or contradictory
durable contexts are refused. Built on tests/smb2's Tree.

CLI: smb2durable.py [--host H] [--port P] [--prefix NAME] [--user U]
                    [--password PW] [--other-user U] [--other-password PW]
                    [--list] [CASE ...]
"""
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import Tree  # noqa: E402
from smb2.create import *  # noqa: E402,F401,F403
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

R, H, W = LEASE_R, LEASE_H, LEASE_W


def lease_v2(key, state):
    return lease_ctx(key, state)


def guid_of(tag):
    return (tag.encode() * 16)[:16]


class Client(Tree):
    def open(self, name, level=0, ctxs=(), flags=0, **kw):
        body = create_body(name, ctxs=chain_ctxs(list(ctxs)), oplock=level,
                           **kw)
        self.c.send_frame(self.build(CREATE, body, flags=flags))
        r = Response(self.c.recv_frame())
        return r, (Created(r) if r.status == 0 else None)

    def must_open(self, name, **kw):
        r, cr = self.open(name, **kw)
        expect_status(r, "SUCCESS", "open %r" % name)
        return r, cr

    def drop(self):
        """The TCP connection goes away without LOGOFF or CLOSE."""
        self.c.close()


def as_other(env):
    class E:
        pass
    e = E()
    e.__dict__.update(env.__dict__)
    e.user, e.password = env.other_user, env.other_password
    return e


def gone(env, name):
    """Retry for a moment: the server handles the drop asynchronously."""
    for _ in range(50):
        t = Client(env)
        r, cr = t.open(name, access=GENERIC_READ, disp=OPEN,
                       share=0)
        if cr:
            t.close(cr.fid)
            t.bye()
            return True
        t.bye()
        time.sleep(0.1)
    return False


def cleanup(env, name):
    t = Client(env)
    t.unlink(name)
    t.bye()


CASES, case = case_registry()


@case
def case_v1_reconnect(env):
    """Batch oplock + DHnQ, drop, DHnC on a new connection: same handle."""
    name = env.prefix + "-v1.bin"
    a = Client(env)
    r, cr = a.must_open(name, level=LEVEL_BATCH, ctxs=[dhnq()],
                        disp=OVERWRITE_IF)
    expect_eq(r.body[2], LEVEL_BATCH, "oplock level")
    expect(b"DHnQ" in cr.contexts, "no DHnQ in the response")
    expect_status(a.write(cr.fid, b"durable data v1"), "SUCCESS", "write")
    a.drop()
    time.sleep(0.3)
    b = Client(env)
    r, cr2 = b.must_open(name, level=LEVEL_BATCH, ctxs=[dhnc(cr.fid)])
    expect_eq(cr2.fid, cr.fid, "reconnected FileId")
    expect_eq(r.body[2], LEVEL_BATCH, "oplock level after reconnect")
    r, data = b.read(cr.fid, 100)
    expect_status(r, "SUCCESS", "read after reconnect")
    expect_eq(data, b"durable data v1", "data after reconnect")
    # A second reconnect to a handle that is connected again: not found.
    c = Client(env)
    r, _ = c.open(name, level=LEVEL_BATCH, ctxs=[dhnc(cr.fid)])
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "reconnect of a live handle")
    c.bye()
    expect_status(b.close(cr.fid), "SUCCESS", "close after reconnect")
    b.unlink(name)
    b.bye()


@case
def case_v2_lease_reconnect(env):
    """RWH lease + DH2Q, drop, DH2C with the same key and CreateGuid."""
    name = env.prefix + "-v2.bin"
    key, guid = guid_of("k2"), guid_of("g2")
    a = Client(env)
    r, cr = a.must_open(name, level=LEVEL_LEASE,
                        ctxs=[lease_v2(key, R | W | H), dh2q(guid, 30000)],
                        disp=OVERWRITE_IF)
    d = cr.contexts.get(b"DH2Q")
    expect(d is not None and len(d) == 8, "DH2Q response")
    timeout, flags = struct.unpack("<II", d)
    expect_eq(flags, 0, "DH2Q flags (not persistent)")
    expect(0 < timeout <= 30000, "DH2Q timeout %d" % timeout)
    expect_status(a.write(cr.fid, b"lease data"), "SUCCESS", "write")
    a.drop()
    time.sleep(0.3)
    b = Client(env)
    # Wrong CreateGuid: not this handle.
    r, _ = b.open(name, level=LEVEL_LEASE,
                  ctxs=[lease_v2(key, R | W | H), dh2c(cr.fid, guid_of("xx"))])
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "DH2C with another CreateGuid")
    # Without the lease: not this handle either (3.3.5.9.12).
    r, _ = b.open(name, ctxs=[dh2c(cr.fid, guid)])
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "DH2C without the lease")
    r, cr2 = b.must_open(name, level=LEVEL_LEASE,
                         ctxs=[lease_v2(key, R | W | H), dh2c(cr.fid, guid)])
    expect_eq(cr2.fid, cr.fid, "reconnected FileId")
    ls = cr2.contexts.get(b"RqLs")
    expect(ls is not None, "no lease in the reconnect response")
    expect_eq(struct.unpack_from("<16sI", ls, 0), (key, R | W | H),
              "lease key and state after reconnect")
    r, data = b.read(cr.fid, 100)
    expect_eq(data, b"lease data", "data after reconnect")
    b.close(cr.fid)
    b.unlink(name)
    b.bye()


@case
def case_other_user(env):
    """Another user's DHnC is refused, and the owner still gets it back."""
    name = env.prefix + "-other.bin"
    a = Client(env)
    _, cr = a.must_open(name, level=LEVEL_BATCH, ctxs=[dhnq()],
                        disp=OVERWRITE_IF)
    a.write(cr.fid, b"mine")
    a.drop()
    time.sleep(0.3)
    o = Client(as_other(env))
    r, _ = o.open(name, level=LEVEL_BATCH, ctxs=[dhnc(cr.fid)])
    expect_status(r, "ACCESS_DENIED", "other user's reconnect")
    r, _ = o.open(name, level=LEVEL_BATCH,
                  ctxs=[dh2c(cr.fid, guid_of("g"))])
    expect(r.status != 0, "other user's DH2C succeeded")
    o.bye()
    b = Client(env)
    _, cr2 = b.must_open(name, level=LEVEL_BATCH, ctxs=[dhnc(cr.fid)])
    expect_eq(cr2.fid, cr.fid, "owner's reconnect after the refusal")
    r, data = b.read(cr.fid, 10)
    expect_eq(data, b"mine", "data")
    b.close(cr.fid)
    b.unlink(name)
    b.bye()


@case
def case_logoff_closes(env):
    """LOGOFF is not a disconnect: the durable handle is closed."""
    name = env.prefix + "-logoff.bin"
    a = Client(env)
    _, cr = a.must_open(name, level=LEVEL_BATCH, ctxs=[dhnq()],
                        disp=OVERWRITE_IF, share=0)
    expect_status(a.c.logoff(a.sess), "SUCCESS", "logoff")
    a.drop()
    b = Client(env)
    r, _ = b.open(name, level=LEVEL_BATCH, ctxs=[dhnc(cr.fid)])
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "reconnect after logoff")
    _, cr2 = b.must_open(name, share=0)
    b.close(cr2.fid)
    b.unlink(name)
    b.bye()


@case
def case_scavenged(env):
    """Two v2 handles dropped together: the one with a 1 s timeout is gone
    after 3 s, the one with 30 s is still there."""
    short, long_ = env.prefix + "-scav1.bin", env.prefix + "-scav30.bin"
    g1, g30 = guid_of("s1"), guid_of("s3")
    a = Client(env)
    _, c1 = a.must_open(short, level=LEVEL_BATCH, ctxs=[dh2q(g1, 1000)],
                        disp=OVERWRITE_IF, share=0)
    _, c30 = a.must_open(long_, level=LEVEL_BATCH, ctxs=[dh2q(g30, 30000)],
                         disp=OVERWRITE_IF, share=0)
    expect_eq(struct.unpack("<I", c1.contexts[b"DH2Q"][:4])[0], 1000,
              "granted timeout")
    a.drop()
    time.sleep(3)
    b = Client(env)
    r, _ = b.open(short, level=LEVEL_BATCH, ctxs=[dh2c(c1.fid, g1)])
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "reconnect after the timeout")
    _, cr = b.must_open(long_, level=LEVEL_BATCH, ctxs=[dh2c(c30.fid, g30)])
    expect_eq(cr.fid, c30.fid, "the 30 s handle")
    b.close(cr.fid)
    b.bye()
    expect(gone(env, short), "the scavenged handle's file cannot be opened")
    cleanup(env, short)
    cleanup(env, long_)


@case
def case_conflict_closes(env):
    """An open that would break a disconnected durable handle closes it."""
    name = env.prefix + "-conflict.bin"
    a = Client(env)
    _, cr = a.must_open(name, level=LEVEL_BATCH, ctxs=[dhnq()],
                        disp=OVERWRITE_IF)
    a.write(cr.fid, b"old")
    a.drop()
    time.sleep(0.3)
    b = Client(env)
    t0 = time.time()
    _, cr2 = b.must_open(name, access=GENERIC_READ |
                         GENERIC_WRITE, disp=OPEN)
    expect(time.time() - t0 < 5, "conflicting open waited for a break")
    c = Client(env)
    r, _ = c.open(name, level=LEVEL_BATCH, ctxs=[dhnc(cr.fid)])
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "reconnect after the conflict")
    c.bye()
    r, data = b.read(cr2.fid, 10)
    expect_eq(data, b"old", "data")
    b.close(cr2.fid)
    b.unlink(name)
    b.bye()


@case
def case_replay(env):
    """A replayed DH2Q CREATE with the same CreateGuid gets the same open."""
    name = env.prefix + "-replay.bin"
    guid = guid_of("rp")
    a = Client(env)
    _, cr = a.must_open(name, level=LEVEL_BATCH, ctxs=[dh2q(guid, 5000)],
                        disp=OVERWRITE_IF)
    _, cr2 = a.must_open(name, level=LEVEL_BATCH, ctxs=[dh2q(guid, 5000)],
                         disp=OVERWRITE_IF, flags=FLAG_REPLAY)
    expect_eq(cr2.fid, cr.fid, "FileId of the replayed CREATE")
    expect_status(a.close(cr.fid), "SUCCESS", "close")
    expect_status(a.close(cr.fid), "FILE_CLOSED", "one handle, closed once")
    a.unlink(name)
    a.bye()


@case
def case_bad_contexts(env):
    """Wrong sizes and combinations: INVALID_PARAMETER; unknown ids: not found."""
    name = env.prefix + "-bad.bin"
    a = Client(env)
    bad = [
        ("short DHnQ", [create_ctx(b"DHnQ", b"\0" * 8)]),
        ("long DH2Q", [create_ctx(b"DH2Q", b"\0" * 40)]),
        ("short DHnC", [create_ctx(b"DHnC", b"\0" * 15)]),
        ("short DH2C", [create_ctx(b"DH2C", b"\0" * 32)]),
        ("empty DH2C", [create_ctx(b"DH2C", b"")]),
        ("DH2Q with DHnQ", [dh2q(guid_of("a")), dhnq()]),
        ("DH2C with DHnC", [dh2c((1, 1), guid_of("a")), dhnc((1, 1))]),
        ("DH2C with DH2Q", [dh2c((1, 1), guid_of("a")), dh2q(guid_of("b"))]),
    ]
    for what, ctxs in bad:
        r, _ = a.open(name, level=LEVEL_BATCH, ctxs=ctxs)
        expect_status(r, "INVALID_PARAMETER", what)
    for fid in [(0, 0), (1, 0xFFFFFFFF), (0xFFFFFFFFFFFFFFFF,) * 2,
                (12345, 1)]:
        r, _ = a.open(name, level=LEVEL_BATCH, ctxs=[dhnc(fid)])
        expect_status(r, "OBJECT_NAME_NOT_FOUND", "DHnC of %r" % (fid,))
    # No oplock, no lease: no durable handle (and no DHnQ answer).
    _, cr = a.must_open(name, ctxs=[dhnq()], disp=OVERWRITE_IF)
    expect(b"DHnQ" not in cr.contexts, "durable without batch or lease")
    a.close(cr.fid)
    a.unlink(name)
    a.bye()


def main():
    def args(ap):
        ap.add_argument("--other-user", default="other")
        ap.add_argument("--other-password", default="other2")
    return case_main(__doc__, "smb2durable", CASES, args)


if __name__ == "__main__":
    sys.exit(main())
