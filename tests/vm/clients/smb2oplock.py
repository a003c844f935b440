#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Oplocks and leases against the server, with two (or more) raw
connections: grants, break notifications, acknowledgements with right and
wrong levels, the break timeout, and the races the in-kernel ksmbd got
wrong (close during a break, disconnect during a break, acks for other
clients' leases). Built on tests/smb2's Tree.

The server must run with a short "oplock break timeout" (--timeout, 2 s
by default in the VM case) so the timeout cases finish quickly.

CLI: smb2oplock.py [--host H] [--port P] [--prefix NAME] [--timeout S]
                   [--list] [CASE ...]
"""
import os
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import (Tree, query_info_body, rename_info,  # noqa: E402
                         set_info_body)
from smb2.create import *  # noqa: E402,F401,F403
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

R, H, W = LEASE_R, LEASE_H, LEASE_W


class Peer(Tree):
    """A logged-on connection with its own ClientGuid."""

    def __init__(self, env, guid):
        super().__init__(env, guid=guid)
        self.lock = threading.Lock()

    def open(self, name, level=0, lease=None, **kw):
        """CREATE with an oplock level or a lease (key, state, v2)."""
        ctxs = b""
        if lease:
            ctxs = create_ctx(b"RqLs", lease_data(*lease))
            level = LEVEL_LEASE
        r = self.call(CREATE, create_body(name, ctxs=ctxs, oplock=level,
                                          **kw))
        return r, (Created(r) if r.status == 0 else None)

    send_mid = Tree.send

    def ack_oplock(self, fid, level):
        body = struct.pack("<HBBIQQ", 24, level, 0, 0, *fid)
        return self.call(OPLOCK_BREAK, body)

    def ack_lease(self, key, state):
        body = struct.pack("<HHI16sIQ", 36, 0, 0, key, state, 0)
        return self.call(OPLOCK_BREAK, body)



def lease_answer(cr):
    d = cr.contexts.get(b"RqLs")
    expect(d is not None, "no lease context in the response")
    key, state, flags = struct.unpack_from("<16sII", d, 0)
    epoch = struct.unpack_from("<H", d, 48)[0] if len(d) >= 52 else None
    return key, state, flags, epoch


def oplock_level(r):
    return r.body[2]


def parse_break(r):
    expect_eq(r.command, OPLOCK_BREAK, "notification command")
    expect_eq(r.mid, NOTIFY_MID, "notification MessageId")
    ss = struct.unpack_from("<H", r.body, 0)[0]
    if ss == 24:
        level, pid, vid = struct.unpack_from("<B5xQQ", r.body, 2)
        return dict(kind="oplock", level=level, fid=(pid, vid))
    expect_eq(ss, 44, "lease break StructureSize")
    epoch, flags, key, cur, new = struct.unpack_from("<HI16sII", r.body, 2)
    return dict(kind="lease", epoch=epoch, flags=flags, key=key, cur=cur,
                new=new)


class Opener(threading.Thread):
    """peer.open(...) in the background. timeouts: the server's break
    timeouts so far when the open returned (break_timeouts())."""

    def __init__(self, peer, name, **kw):
        super().__init__(daemon=True)
        self.peer, self.name, self.kw = peer, name, kw
        self.result = self.error = self.timeouts = None
        self.start()

    def run(self):
        try:
            self.result = self.peer.open(self.name, **self.kw)
            self.timeouts = break_timeouts()
        except Exception as e:  # noqa: BLE001
            self.error = e

    def finished(self, wait):
        self.join(wait)
        if self.error:
            raise self.error
        expect(not self.is_alive(), "the waiting open did not finish")
        return self.result


# Whether a wait ended by the break timeout is read from the server's own
# record, its ksmbd_oplock_break_timeout tracepoint, never from a clock: a
# slow guest stretches every wait, and a fast wrong answer is still wrong.
TRACE = "/sys/kernel/tracing"
TIMEOUT_EVENT = "ksmbd_oplock_break_timeout"


def break_timeouts():
    """How many break timeouts the trace holds (the event is on)."""
    with open(TRACE + "/trace") as f:
        return sum(TIMEOUT_EVENT + ":" in line for line in f)


def trace_break_timeouts():
    """Turns the event on (the case file does; a single run may not) and
    gives the count so far."""
    enable = "%s/events/ksmbd/%s/enable" % (TRACE, TIMEOUT_EVENT)
    expect(os.path.exists(enable), "no %s event in %s" %
           (TIMEOUT_EVENT, TRACE))
    with open(enable) as f:
        on = f.read().strip() == "1"
    if not on:
        with open(enable, "w") as f:
            f.write("1")
    return break_timeouts()


GUIDS = iter(bytes([i]) * 16 for i in range(0x60, 0xff))


def two_peers(env):
    return Peer(env, next(GUIDS)), Peer(env, next(GUIDS))


def fresh(t, name):
    t.unlink(name)
    t.put_file(name, b"0123456789")


CASES, case = case_registry()


@case
def case_oplock_is_per_handle(env):
    """Batch alone; a second open by the same client breaks it too."""
    a = Peer(env, next(GUIDS))
    fresh(a, "op-alone.txt")
    r, cr = a.open("op-alone.txt", level=LEVEL_BATCH)
    expect_status(r, "SUCCESS", "open")
    expect_eq(oplock_level(r), LEVEL_BATCH, "granted level")
    body = bytearray(create_body("op-alone.txt", disp=OPEN))
    body[3] = LEVEL_EXCL
    a.send(CREATE, bytes(body))
    # The open goes async before the break it waits for goes out.
    x = a.next_frame(10)
    expect_status(x, "PENDING", "second open's interim response")
    expect(x.flags & FLAG_ASYNC, "interim without SMB2_FLAGS_ASYNC_COMMAND")
    n = parse_break(a.next_frame(10))
    expect_eq((n["level"], n["fid"]), (LEVEL_II, cr.fid), "break of handle 1")
    a.send(OPLOCK_BREAK, struct.pack("<HBBIQQ", 24, LEVEL_II, 0, 0, *cr.fid))
    got = {}
    for _ in range(2):
        x = a.next_frame(10)
        got[struct.unpack_from("<H", x.body, 0)[0]] = x
    expect(24 in got and 89 in got, "ack and create responses")
    expect_eq(got[24].status, 0, "ack status")
    expect_eq(got[89].status, 0, "second open status")
    expect_eq(oplock_level(got[89]), LEVEL_II, "second handle's level")
    a.close(Created(got[89]).fid)
    a.close(cr.fid)
    a.bye()


@case
def case_batch_break_ack(env):
    """B's open waits for A's acknowledgement, then gets level II."""
    a, b = two_peers(env)
    fresh(a, "op-ack.txt")
    r, cr = a.open("op-ack.txt", level=LEVEL_BATCH)
    expect_eq(oplock_level(r), LEVEL_BATCH, "A's level")
    op = Opener(b, "op-ack.txt", level=LEVEL_BATCH, disp=OPEN)
    n = parse_break(a.next_frame(10))
    expect_eq(n["kind"], "oplock", "notification kind")
    expect_eq(n["level"], LEVEL_II, "break to level")
    expect_eq(n["fid"], cr.fid, "notification FileId")
    time.sleep(0.5)
    expect(op.is_alive(), "B's open finished before A acknowledged")
    ra = a.ack_oplock(cr.fid, LEVEL_II)
    expect_status(ra, "SUCCESS", "ack")
    expect_eq(ra.body[2], LEVEL_II, "ack response level")
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open")
    expect_eq(oplock_level(rb), LEVEL_II, "B's level")
    # A second ack is not expected any more.
    expect_status(a.ack_oplock(cr.fid, LEVEL_II), "INVALID_DEVICE_STATE",
                  "ack without a break")
    b.close(crb.fid)
    a.close(cr.fid)
    a.bye()
    b.bye()


@case
def case_batch_break_timeout(env):
    """No acknowledgement: B continues after the break timeout."""
    a, b = two_peers(env)
    fresh(a, "op-to.txt")
    r, cr = a.open("op-to.txt", level=LEVEL_BATCH)
    expect_eq(oplock_level(r), LEVEL_BATCH, "A's level")
    t0 = trace_break_timeouts()
    op = Opener(b, "op-to.txt", level=LEVEL_BATCH, disp=OPEN)
    n = parse_break(a.next_frame(10))
    expect_eq(n["level"], LEVEL_II, "break to level")
    rb, crb = op.finished(env.timeout + 20)
    expect_status(rb, "SUCCESS", "B's open after the timeout")
    expect_eq(op.timeouts - t0, 1, "break timeouts when B's open returned")
    # Too late: the break resolved without A.
    expect_status(a.ack_oplock(cr.fid, LEVEL_II), "INVALID_DEVICE_STATE",
                  "late ack")
    b.close(crb.fid)
    a.close(cr.fid)
    a.bye()
    b.bye()


@case
def case_lease_break_timeout_to_none(env):
    """No acknowledgement of a lease break: at the timeout the lease goes
    to none, not to the state the break offered (MS-SMB2 3.3.2.5)."""
    a, b = two_peers(env)
    fresh(a, "ls-to.txt")
    k1, k2 = os.urandom(16), os.urandom(16)
    r, cr = a.open("ls-to.txt", lease=(k1, R | W | H, True))
    expect_eq(lease_answer(cr)[1], R | W | H, "A's lease")
    t0 = trace_break_timeouts()
    op = Opener(b, "ls-to.txt", lease=(k2, R | W | H, True), disp=OPEN)
    n = parse_break(a.next_frame(10))
    expect_eq((n["cur"], n["new"], n["flags"] & 1), (R | W | H, R | H, 1),
              "break RWH to RH, ack required")
    rb, crb = op.finished(env.timeout + 20)
    expect_status(rb, "SUCCESS", "B's open after the timeout")
    expect_eq(op.timeouts - t0, 1, "break timeouts when B's open returned")
    expect_eq(lease_answer(crb)[1], R | H, "B's lease")
    expect_status(a.ack_lease(k1, R | H), "UNSUCCESSFUL", "late ack")
    # A's lease, asked for nothing more, shows what it kept: nothing.
    r2, cr2 = a.open("ls-to.txt", lease=(k1, 0, True), disp=OPEN)
    expect_status(r2, "SUCCESS", "A's second open")
    expect_eq(lease_answer(cr2)[1], 0, "A's lease after the timeout")
    a.close(cr2.fid)
    b.close(crb.fid)
    a.close(cr.fid)
    a.bye()
    b.bye()


@case
def case_ack_wrong_levels(env):
    a, b = two_peers(env)
    fresh(a, "op-wrong.txt")
    # Not breaking at all.
    r, cr = a.open("op-wrong.txt", level=LEVEL_BATCH)
    expect_status(a.ack_oplock(cr.fid, LEVEL_NONE), "INVALID_DEVICE_STATE",
                  "ack with no break")
    expect_status(a.ack_oplock((cr.fid[0] + 99, cr.fid[1] + 99), LEVEL_NONE),
                  "FILE_CLOSED", "ack on an unknown FileId")
    # Acking more than the notification offered.
    op = Opener(b, "op-wrong.txt", disp=OPEN)
    n = parse_break(a.next_frame(10))
    expect_eq(n["level"], LEVEL_II, "break to level")
    expect_status(a.ack_oplock(cr.fid, LEVEL_BATCH),
                  "INVALID_OPLOCK_PROTOCOL", "ack with batch")
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open after the bad ack")
    b.close(crb.fid)
    a.close(cr.fid)
    # An ack naming a lease level on an oplock.
    r, cr = a.open("op-wrong.txt", level=LEVEL_BATCH)
    expect_eq(oplock_level(r), LEVEL_BATCH, "A's level again")
    op = Opener(b, "op-wrong.txt", disp=OPEN)
    parse_break(a.next_frame(10))
    expect_status(a.ack_oplock(cr.fid, LEVEL_LEASE), "INVALID_PARAMETER",
                  "ack with the lease level")
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open")
    # Another session's FileId is not A's to acknowledge.
    expect_status(b.ack_oplock(cr.fid, LEVEL_NONE), "FILE_CLOSED",
                  "ack on another session's handle")
    b.close(crb.fid)
    a.close(cr.fid)
    a.bye()
    b.bye()


@case
def case_close_during_break(env):
    """A closes instead of acknowledging: B continues at once."""
    a, b = two_peers(env)
    fresh(a, "op-close.txt")
    r, cr = a.open("op-close.txt", level=LEVEL_BATCH)
    expect_eq(oplock_level(r), LEVEL_BATCH, "A's level")
    t0 = trace_break_timeouts()
    op = Opener(b, "op-close.txt", level=LEVEL_BATCH, disp=OPEN)
    parse_break(a.next_frame(10))
    expect_status(a.close(cr.fid), "SUCCESS", "close during the break")
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open")
    expect_eq(op.timeouts - t0, 0, "break timeouts before B's open returned")
    expect_eq(oplock_level(rb), LEVEL_BATCH, "B alone gets batch")
    b.close(crb.fid)
    a.bye()
    b.bye()


@case
def case_disconnect_during_break(env):
    """A's connection drops during the break: B continues at once."""
    a, b = two_peers(env)
    fresh(a, "op-drop.txt")
    r, cr = a.open("op-drop.txt", level=LEVEL_BATCH)
    expect_eq(oplock_level(r), LEVEL_BATCH, "A's level")
    t0 = trace_break_timeouts()
    op = Opener(b, "op-drop.txt", level=LEVEL_BATCH, disp=OPEN)
    parse_break(a.next_frame(10))
    a.bye()
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open")
    expect_eq(op.timeouts - t0, 0, "break timeouts before B's open returned")
    b.close(crb.fid)
    b.bye()


@case
def case_disconnect_before_break(env):
    """A's connection is gone before anyone opens: no wait at all."""
    a, b = two_peers(env)
    fresh(a, "op-gone.txt")
    r, cr = a.open("op-gone.txt", level=LEVEL_BATCH)
    expect_eq(oplock_level(r), LEVEL_BATCH, "A's level")
    a.bye()
    t0 = trace_break_timeouts()
    rb, crb = b.open("op-gone.txt", disp=OPEN)
    expect_status(rb, "SUCCESS", "B's open")
    expect_eq(break_timeouts() - t0, 0, "break timeouts before B's open")
    b.close(crb.fid)
    b.bye()


@case
def case_level2_break_on_write(env):
    """Level II holders are told (no ack) when another handle writes."""
    a, b = two_peers(env)
    fresh(a, "op-l2.txt")
    r, cra = a.open("op-l2.txt", level=LEVEL_II)
    expect_eq(oplock_level(r), LEVEL_II, "A's level")
    rb, crb = b.open("op-l2.txt", disp=OPEN)
    expect_status(rb, "SUCCESS", "B's open")
    t0 = trace_break_timeouts()
    expect_status(b.write(crb.fid, b"new data"), "SUCCESS", "B's write")
    expect_eq(break_timeouts() - t0, 0, "break timeouts before the write")
    n = parse_break(a.next_frame(10))
    expect_eq(n["level"], LEVEL_NONE, "break to none")
    expect_eq(n["fid"], cra.fid, "FileId")
    b.close(crb.fid)
    a.close(cra.fid)
    a.bye()
    b.bye()


@case
def case_lease_break_ack(env):
    """Lease RWH: break to RH with an epoch, ack, B continues."""
    a, b = two_peers(env)
    fresh(a, "ls-ack.txt")
    key = os.urandom(16)
    r, cr = a.open("ls-ack.txt", lease=(key, R | W | H, True, 5))
    expect_status(r, "SUCCESS", "open")
    expect_eq(oplock_level(r), LEVEL_LEASE, "OplockLevel")
    k, state, _, epoch = lease_answer(cr)
    expect_eq((k, state), (key, R | W | H), "granted lease")
    expect_eq(epoch, 6, "epoch of a new v2 lease")
    op = Opener(b, "ls-ack.txt", disp=OPEN)
    n = parse_break(a.next_frame(10))
    expect_eq(n["kind"], "lease", "notification kind")
    expect_eq((n["key"], n["cur"], n["new"]), (key, R | W | H, R | H),
              "lease break")
    expect_eq(n["flags"] & 1, 1, "ACK_REQUIRED")
    expect_eq(n["epoch"], 7, "NewEpoch")
    time.sleep(0.3)
    expect(op.is_alive(), "B's open finished before the ack")
    # Acking more than offered is refused and the break goes on.
    expect_status(a.ack_lease(key, R | W | H), "REQUEST_NOT_ACCEPTED",
                  "ack with W")
    ra = a.ack_lease(key, R | H)
    expect_status(ra, "SUCCESS", "ack")
    expect_eq(struct.unpack_from("<16sI", ra.body, 8), (key, R | H),
              "ack response")
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open")
    expect_status(a.ack_lease(key, R | H), "UNSUCCESSFUL", "ack w/o break")
    b.close(crb.fid)
    a.close(cr.fid)
    a.bye()
    b.bye()


@case
def case_lease_shared_by_handles(env):
    """Two handles with one key from one client share one lease."""
    a, b = two_peers(env)
    fresh(a, "ls-share.txt")
    key = os.urandom(16)
    r1, c1 = a.open("ls-share.txt", lease=(key, R | W | H, False))
    expect_eq(lease_answer(c1)[1], R | W | H, "first handle")
    r2, c2 = a.open("ls-share.txt", lease=(key, R | W | H, False), disp=OPEN)
    expect_status(r2, "SUCCESS", "second handle")
    expect_eq(lease_answer(c2)[1], R | W | H, "second handle keeps RWH")
    # No break was sent to ourselves.
    try:
        a.next_frame(0.5)
        raise AssertionError("unexpected frame after our own open")
    except (OSError, Dropped):
        pass
    # Closing one handle keeps the lease; B's open breaks it once.
    a.close(c1.fid)
    op = Opener(b, "ls-share.txt", disp=OPEN)
    n = parse_break(a.next_frame(10))
    expect_eq(n["new"], R | H, "break to RH")
    expect_status(a.ack_lease(key, R | H), "SUCCESS", "ack")
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open")
    b.close(crb.fid)
    a.close(c2.fid)
    a.bye()
    b.bye()


@case
def case_lease_ack_foreign_key(env):
    """Another client cannot acknowledge (or find) A's lease."""
    a, b = two_peers(env)
    fresh(a, "ls-foreign.txt")
    key = os.urandom(16)
    r, cr = a.open("ls-foreign.txt", lease=(key, R | W | H, True))
    c = Peer(env, next(GUIDS))
    op = Opener(b, "ls-foreign.txt", disp=OPEN)
    parse_break(a.next_frame(10))
    expect_status(c.ack_lease(key, R | H), "OBJECT_NAME_NOT_FOUND",
                  "ack from another client")
    c.bye()
    expect_status(a.ack_lease(os.urandom(16), 0), "OBJECT_NAME_NOT_FOUND",
                  "ack of an unknown key")
    expect_status(a.ack_lease(key, R | H), "SUCCESS", "A's own ack")
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open")
    b.close(crb.fid)
    a.close(cr.fid)
    a.bye()
    b.bye()


@case
def case_lease_disconnect_during_break(env):
    a, b = two_peers(env)
    fresh(a, "ls-drop.txt")
    key = os.urandom(16)
    r, cr = a.open("ls-drop.txt", lease=(key, R | W | H, True))
    t0 = trace_break_timeouts()
    op = Opener(b, "ls-drop.txt", disp=OPEN)
    parse_break(a.next_frame(10))
    a.bye()
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open")
    expect_eq(op.timeouts - t0, 0, "break timeouts before B's open returned")
    b.close(crb.fid)
    b.bye()


@case
def case_lease_handle_break_on_sharing(env):
    """An RH lease on a handle that denies sharing is asked to give up
    H; closing the handle lets the conflicting open in."""
    a, b = two_peers(env)
    fresh(a, "ls-sv.txt")
    key = os.urandom(16)
    r, cr = a.open("ls-sv.txt", lease=(key, R | H, True), share=0)
    expect_eq(lease_answer(cr)[1], R | H, "RH granted")
    op = Opener(b, "ls-sv.txt", disp=OPEN)
    n = parse_break(a.next_frame(10))
    expect_eq((n["cur"], n["new"]), (R | H, R), "break H")
    expect_status(a.close(cr.fid), "SUCCESS", "close instead of ack")
    rb, crb = op.finished(10)
    expect_status(rb, "SUCCESS", "B's open after the close")
    b.close(crb.fid)
    a.bye()
    b.bye()


@case
def case_lease_sharing_break_keeps_write(env):
    """An open that fails on share modes breaks only H: the holder keeps
    RW, and the open still fails once the break is acknowledged."""
    a, b = two_peers(env)
    fresh(a, "ls-svw.txt")
    key = os.urandom(16)
    r, cr = a.open("ls-svw.txt", lease=(key, R | W | H, True), share=0)
    expect_eq(lease_answer(cr)[1], R | W | H, "RWH granted")
    op = Opener(b, "ls-svw.txt", disp=OPEN)
    n = parse_break(a.next_frame(10))
    expect_eq((n["cur"], n["new"], n["flags"] & 1), (R | W | H, R | W, 1),
              "break H only")
    expect_status(a.ack_lease(key, R | W), "SUCCESS", "ack RW")
    rb, crb = op.finished(10)
    expect_status(rb, "SHARING_VIOLATION", "B's open")
    a.close(cr.fid)
    a.bye()
    b.bye()


@case
def case_overwrite_breaks_lease_to_none(env):
    a, b = two_peers(env)
    fresh(a, "ls-ow.txt")
    key = os.urandom(16)
    r, cr = a.open("ls-ow.txt", lease=(key, R, True))
    expect_eq(lease_answer(cr)[1], R, "R granted")
    rb, crb = b.open("ls-ow.txt", disp=OVERWRITE_IF)
    expect_status(rb, "SUCCESS", "overwrite open (no ack needed)")
    n = parse_break(a.next_frame(10))
    expect_eq((n["cur"], n["new"], n["flags"] & 1), (R, 0, 0),
              "R to none without ack")
    b.close(crb.fid)
    a.close(cr.fid)
    a.bye()
    b.bye()


@case
def case_race_close_and_drop(env):
    """Many rounds: B opens while A closes or drops during the break."""
    for i in range(env.rounds):
        a, b = two_peers(env)
        name = "op-race%d.txt" % (i % 3)
        fresh(a, name)
        use_lease = i % 2 == 0
        if use_lease:
            r, cr = a.open(name, lease=(os.urandom(16), R | W | H, True))
        else:
            r, cr = a.open(name, level=LEVEL_BATCH)
        op = Opener(b, name, level=LEVEL_BATCH, disp=OVERWRITE_IF)
        if i % 3 == 0:
            a.send(CLOSE, struct.pack("<HHIQQ", 24, 0, 0, *cr.fid))
        elif i % 3 == 1:
            time.sleep(0.01 * (i % 5))
            a.bye()
        else:
            try:
                parse_break(a.next_frame(10))
            except AssertionError:
                pass
            a.bye()
        rb, crb = op.finished(env.timeout + 20)
        expect_status(rb, "SUCCESS", "round %d: B's open" % i)
        b.close(crb.fid)
        a.bye()
        b.bye()


# ---- Local processes (the server's kernel leases) ----

LOCAL_OP = r"""
import os, sys
path, how = sys.argv[1], sys.argv[2]
if how == "write":
    fd = os.open(path, os.O_WRONLY)
    os.write(fd, b"local")
    os.close(fd)
elif how == "read":
    fd = os.open(path, os.O_RDONLY)
    os.read(fd, 4)
    os.close(fd)
elif how == "truncate":
    os.truncate(path, 0)
elif how == "unlink":
    os.unlink(path)
with open(sys.argv[3]) as f:
    print("done", sum(sys.argv[4] in line for line in f), flush=True)
"""


class Local:
    """A local process in the server's machine doing one file operation."""

    def __init__(self, env, name, how):
        import subprocess
        self.p = subprocess.Popen(
            [sys.executable, "-c", LOCAL_OP,
             os.path.join(env.share_dir, name), how, TRACE + "/trace",
             TIMEOUT_EVENT + ":"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def running(self):
        return self.p.poll() is None

    def finished(self, wait):
        try:
            out = self.p.communicate(timeout=wait)[0]
        except Exception:  # noqa: BLE001
            self.p.kill()
            self.p.communicate()
            raise AssertionError("the local operation did not finish")
        words = out.split()
        expect_eq((self.p.returncode, words[:1]), (0, [b"done"]),
                  "the local operation: %r" % out)
        # the server's break timeouts when the operation had returned
        return int(words[1])


def need_share_dir(env, name):
    path = os.path.join(env.share_dir, name)
    expect(os.path.exists(path), "%s not found: --share-dir must be the "
           "share's directory on this machine" % path)


@case
def case_local_write_breaks_lease(env):
    """A local open for writing breaks an RH lease to none; it waits for
    the acknowledgement, then goes on."""
    a = Peer(env, next(GUIDS))
    fresh(a, "ls-local.txt")
    need_share_dir(env, "ls-local.txt")
    key = os.urandom(16)
    r, cr = a.open("ls-local.txt", lease=(key, R | H, True, 1))
    expect_eq(lease_answer(cr)[1], R | H, "granted lease")
    rd = Local(env, "ls-local.txt", "read")
    rd.finished(10)
    try:
        frame = a.next_frame(1.0)
    except OSError:
        frame = None
    expect(frame is None, "a local read broke the lease")
    lw = Local(env, "ls-local.txt", "write")
    n = parse_break(a.next_frame(10))
    expect_eq((n["kind"], n["key"], n["cur"], n["new"]),
              ("lease", key, R | H, 0), "lease break")
    expect_eq(n["flags"] & 1, 1, "ACK_REQUIRED")
    time.sleep(0.3)
    expect(lw.running(), "the local open finished before the ack")
    expect_status(a.ack_lease(key, 0), "SUCCESS", "ack")
    lw.finished(10)
    a.close(cr.fid)
    a.bye()


@case
def case_local_truncate_breaks_batch(env):
    """A local truncate breaks a batch oplock to none (acknowledged)."""
    a = Peer(env, next(GUIDS))
    fresh(a, "op-local.txt")
    need_share_dir(env, "op-local.txt")
    r, cr = a.open("op-local.txt", level=LEVEL_BATCH)
    expect_eq(oplock_level(r), LEVEL_BATCH, "A's level")
    lt = Local(env, "op-local.txt", "truncate")
    n = parse_break(a.next_frame(10))
    expect_eq((n["kind"], n["level"], n["fid"]), ("oplock", LEVEL_NONE, cr.fid),
              "oplock break")
    time.sleep(0.3)
    expect(lt.running(), "the truncate finished before the ack")
    expect_status(a.ack_oplock(cr.fid, LEVEL_NONE), "SUCCESS", "ack")
    lt.finished(10)
    expect_eq(os.path.getsize(os.path.join(env.share_dir, "op-local.txt")), 0,
              "size after the truncate")
    a.close(cr.fid)
    a.bye()


@case
def case_local_unlink_level2(env):
    """A level II oplock needs no ack: a local unlink breaks it and goes
    on at once; an unacknowledged lease break ends with the timeout."""
    a = Peer(env, next(GUIDS))
    fresh(a, "op-local2.txt")
    need_share_dir(env, "op-local2.txt")
    r, cr = a.open("op-local2.txt", level=LEVEL_II)
    expect_eq(oplock_level(r), LEVEL_II, "A's level")
    t0 = trace_break_timeouts()
    lu = Local(env, "op-local2.txt", "unlink")
    n = parse_break(a.next_frame(10))
    expect_eq((n["level"], n["fid"]), (LEVEL_NONE, cr.fid), "oplock break")
    expect_eq(lu.finished(env.timeout + 20) - t0, 0,
              "break timeouts before the unlink returned")
    a.close(cr.fid)
    # no acknowledgement: the local writer goes on after the break timeout
    fresh(a, "ls-local2.txt")
    key = os.urandom(16)
    r, cr = a.open("ls-local2.txt", lease=(key, R | W | H, True, 1))
    expect_eq(lease_answer(cr)[1], R | W | H, "granted lease")
    t0 = trace_break_timeouts()
    lw = Local(env, "ls-local2.txt", "write")
    n = parse_break(a.next_frame(10))
    expect_eq(n["new"], 0, "lease break to none")
    expect_eq(lw.finished(env.timeout + 20) - t0, 1,
              "break timeouts when the local open had gone on")
    a.close(cr.fid)
    a.bye()


def pending_open(b, name, **kw):
    """B's CREATE that has to wait for a break: (mid, interim)."""
    body = bytearray(create_body(name, **kw))
    body[3] = LEVEL_BATCH
    mid = b.send_mid(CREATE, bytes(body))
    r = b.next_frame(10)
    expect_eq(r.mid, mid, "interim MessageId")
    expect_status(r, "PENDING", "open waiting for the break")
    expect(r.flags & FLAG_ASYNC, "interim without SMB2_FLAGS_ASYNC_COMMAND")
    expect(r.async_id != 0, "interim AsyncId is 0")
    expect(r.credits >= 1, "interim grants no credits")
    return mid, r


@case
def case_cancel_pending_open(env):
    """B's open waits for A's break acknowledgement and is cancelled (by
    AsyncId, then by MessageId): it answers CANCELLED in async form with
    no credits, and holds nothing afterwards (an open denying all sharing
    gets in once A closed)."""
    a, b = two_peers(env)
    fresh(a, "op-cancel.txt")
    for how in ("AsyncId", "MessageId"):
        r, cr = a.open("op-cancel.txt", level=LEVEL_BATCH)
        expect_eq(oplock_level(r), LEVEL_BATCH, "A's level")
        mid, interim = pending_open(b, "op-cancel.txt", disp=OPEN)
        parse_break(a.next_frame(10))
        b.cancel(mid, interim.async_id if how == "AsyncId" else None)
        f = b.next_frame(10)
        expect_eq(f.mid, mid, "final MessageId")
        expect_status(f, "CANCELLED", "cancel by " + how)
        expect(f.flags & FLAG_ASYNC, "final response not async")
        expect_eq(f.async_id, interim.async_id, "final AsyncId")
        expect_eq(f.credits, 0, "final response credits")
        # A never acknowledged; its close ends the break.
        expect_status(a.close(cr.fid), "SUCCESS", "A's close")
        rb, crb = b.open("op-cancel.txt", disp=OPEN, share=0)
        expect_status(rb, "SUCCESS", "exclusive open after the cancel")
        b.close(crb.fid)
    # Cancels of what is finished or unknown are ignored.
    b.cancel(mid, interim.async_id)
    b.cancel(123456, 0xDEADBEEF)
    b.cancel(0)
    rb, crb = b.open("op-cancel.txt", disp=OPEN)
    expect_status(rb, "SUCCESS", "open after stray cancels")
    b.close(crb.fid)
    a.bye()
    b.bye()


@case
def case_drop_pending_open(env):
    """B's connection drops while its open waits for A's acknowledgement:
    the wait ends with it (the case script checks the log for warnings),
    A's late ack still works, and nothing of B's open is left."""
    a, b = two_peers(env)
    fresh(a, "op-dropwait.txt")
    r, cr = a.open("op-dropwait.txt", level=LEVEL_BATCH)
    expect_eq(oplock_level(r), LEVEL_BATCH, "A's level")
    pending_open(b, "op-dropwait.txt", disp=OPEN)
    parse_break(a.next_frame(10))
    b.c.close()
    time.sleep(0.5)
    expect_status(a.ack_oplock(cr.fid, LEVEL_II), "SUCCESS", "A's ack")
    expect_status(a.close(cr.fid), "SUCCESS", "A's close")
    c = Peer(env, next(GUIDS))
    deadline = time.monotonic() + 10
    while True:
        rc, crc = c.open("op-dropwait.txt", disp=OPEN, share=0)
        if rc.status == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    expect_status(rc, "SUCCESS", "exclusive open after B dropped")
    c.close(crc.fid)
    a.bye()
    c.bye()


# ---- one connection's requests act in the order they were sent --------------
#
# The server may run a connection's requests side by side, but what one
# does to names, opens and leases must be done before a request sent after
# it on the same connection acts (smb2.lease.rename_wait). The pairs below
# go out in one TCP segment, so both are read before either has run.

ORDER_ROUNDS = 20


class Inbox:
    """A connection's responses (compounds split) in arrival order; take()
    hands out the first not yet taken that matches."""

    def __init__(self, t):
        self.t, self.log, self.unread = t, [], []

    def take(self, want, what, wait=10):
        while True:
            for r in self.unread:
                if want(r):
                    self.unread.remove(r)
                    return r
            self.t.c.sock.settimeout(wait)
            try:
                rs = split_compound(self.t.c.recv_frame())
            except OSError as e:
                raise AssertionError("waiting for %s: %s" % (what, e))
            finally:
                self.t.c.sock.settimeout(30)
            self.log += rs
            self.unread += rs

    def final(self, mid, what):
        return self.take(lambda r: r.mid == mid and
                         r.status != STATUS_PENDING, what)


def rename_body(fid, target):
    return set_info_body(fid, 1, 10, rename_info(target, True))


def lease_ack_body(key, state):
    return struct.pack("<HHI16sIQ", 36, 0, 0, key, state, 0)


def lease_open_body(name, key, state, **kw):
    return create_body(name, ctxs=create_ctx(b"RqLs", lease_data(key, state)),
                       oplock=LEVEL_LEASE, **kw)


def send_together(t, *msgs):
    t.c.send_raw(b"".join(frame(m) for m in msgs))


@case
def case_order_rename_then_open(env):
    """smb2.lease.rename_wait's shape: a rename that breaks another
    handle's lease (no ack yet) and, in the same segment, an open of the
    rename's target. The open must act after the rename has started: it
    answers OBJECT_NAME_NOT_FOUND only once the lease break is on the wire
    before it. After the ack the rename is done and the target opens."""
    a = Peer(env, next(GUIDS))
    for i in range(ORDER_ROUNDS):
        src, dst = "ord-ren-%d.txt" % i, "ord-ren-%d.dst" % i
        fresh(a, src)
        a.unlink(dst)
        k1, k2, k3 = os.urandom(16), os.urandom(16), os.urandom(16)
        r1, c1 = a.open(src, lease=(k1, R | H, True), disp=OPEN,
                        access=GENERIC_READ | GENERIC_WRITE | DELETE)
        expect_eq(lease_answer(c1)[1], R | H, "first handle's lease")
        r2, c2 = a.open(src, lease=(k2, R | H, True), disp=OPEN,
                        access=GENERIC_READ)
        expect_eq(lease_answer(c2)[1], R | H, "second handle's lease")
        mr = a.c.mid
        ren = a.build(SET_INFO, rename_body(c1.fid, dst))
        mc = a.c.mid
        cre = a.build(CREATE, lease_open_body(dst, k3, R | H, disp=OPEN,
                                              access=GENERIC_READ))
        send_together(a, ren, cre)
        box = Inbox(a)
        rc = box.final(mc, "the open of the target")
        expect_status(rc, "OBJECT_NAME_NOT_FOUND", "round %d: open" % i)
        breaks = [parse_break(r) for r in box.log if r.mid == NOTIFY_MID]
        expect(breaks, "round %d: the open sent after the rename was "
               "answered before the rename's lease break" % i)
        n = breaks[0]
        expect_eq((n["key"], n["cur"]), (k2, R | H), "the break's lease")
        expect(not n["new"] & H, "the rename's break leaves H")
        ma = a.c.mid
        a.c.send_frame(a.build(OPLOCK_BREAK, lease_ack_body(k2, n["new"])))
        expect_status(box.final(ma, "the ack"), "SUCCESS", "ack")
        expect_status(box.final(mr, "the rename"), "SUCCESS", "rename")
        r3, c3 = a.open(dst, disp=OPEN, access=GENERIC_READ)
        expect_status(r3, "SUCCESS", "round %d: the renamed file" % i)
        for c in (c3, c2, c1):
            a.close(c.fid)
        a.unlink(dst)
    a.bye()


def query_all_body(fid):
    """FileAllInformation."""
    return query_info_body(fid, 1, 18, 4096)


@case
def case_order_compound_then_open(env):
    """A compound that renames a file in its last element, after 31
    queries, and in the same segment a lone open of the new name: the open
    acts after the whole compound (SUCCESS), never beside it."""
    a = Peer(env, next(GUIDS))
    for i in range(ORDER_ROUNDS):
        old, new = "ord-cmp-%d.txt" % i, "ord-cmp-%d.new" % i
        fresh(a, old)
        a.unlink(new)
        r, c = a.open(old, disp=OPEN,
                      access=GENERIC_READ | GENERIC_WRITE | DELETE)
        expect_status(r, "SUCCESS", "open")
        elems = [a.build(QUERY_INFO, query_all_body(c.fid))
                 for _ in range(31)]
        mr = a.c.mid
        elems.append(a.build(SET_INFO, rename_body(c.fid, new)))
        mc = a.c.mid
        cre = a.build(CREATE, create_body(new, disp=OPEN,
                                          access=GENERIC_READ))
        send_together(a, compound_frame(elems), cre)
        box = Inbox(a)
        rc = box.final(mc, "the open of the new name")
        expect_status(rc, "SUCCESS", "round %d: open of the name the "
                      "compound sent before it renamed to" % i)
        expect_status(box.final(mr, "the rename"), "SUCCESS", "rename")
        a.close(Created(rc).fid)
        a.close(c.fid)
        a.unlink(new)
    a.bye()


@case
def case_order_compound_waits_own_ack(env):
    """An open inside a compound waits for a break synchronously (no
    interim inside a compound); the break is of the same client's lease,
    which acknowledges on the same connection. The ack must run while the
    compound waits, not after it: queued behind it, it would be heard only
    at the break timeout (which the trace then shows, and the late ack
    answers UNSUCCESSFUL)."""
    a = Peer(env, next(GUIDS))
    name = "ord-ack.txt"
    fresh(a, name)
    k1, k2 = os.urandom(16), os.urandom(16)
    r, c1 = a.open(name, lease=(k1, R | W | H, True), disp=OPEN)
    expect_eq(lease_answer(c1)[1], R | W | H, "first lease")
    before = trace_break_timeouts()
    m1 = a.c.mid
    e1 = a.build(CREATE, lease_open_body(name, k2, R | H, disp=OPEN))
    e2 = a.build(CLOSE, struct.pack("<HHI16s", 24, 0, 0, b"\xff" * 16),
                 flags=FLAG_RELATED)
    a.c.send_frame(compound_frame([e1, e2]))
    box = Inbox(a)
    n = parse_break(box.take(lambda r: r.mid == NOTIFY_MID, "the break"))
    expect_eq((n["key"], n["cur"], n["new"]), (k1, R | W | H, R | H),
              "the break")
    ma = a.c.mid
    a.c.send_frame(a.build(OPLOCK_BREAK, lease_ack_body(k1, R | H)))
    expect_status(box.final(ma, "the ack"), "SUCCESS", "ack while the "
                  "compound waits")
    rc = box.final(m1, "the compound's open")
    expect_status(rc, "SUCCESS", "the compound's open")
    expect_eq(lease_answer(Created(rc))[1], R | H, "the compound's lease")
    expect_status(box.final(m1 + 1, "the compound's close"), "SUCCESS",
                  "the compound's close")
    expect_eq(break_timeouts(), before, "break timeouts meanwhile")
    a.close(c1.fid)
    a.bye()


# ---- Directory leases (SMB 3.x, lease v2) ----

CAP_DIRECTORY_LEASING = 0x20
PARENT_KEY_SET = 0x4


def dir_open(t, name, key, state=R | W | H, v2=True):
    """Opens (creating) directory name asking for a lease."""
    r, cr = t.open(name, lease=(key, state, v2, 1), disp=OPEN_IF,
                   options=DIRECTORY_FILE, access=GENERIC_READ)
    expect_status(r, "SUCCESS", "open of directory " + name)
    return r, cr


def no_break(t, wait, what):
    try:
        frame = t.next_frame(wait)
    except OSError:
        frame = None
    expect(frame is None, what)


def dir_break(t, key, epoch, what):
    """The RH -> none break of t's directory lease key, acknowledged."""
    n = parse_break(t.next_frame(10))
    expect_eq((n["kind"], n["key"], n["cur"], n["new"]),
              ("lease", key, R | H, 0), what)
    expect_eq(n["flags"] & 1, 1, what + ": ACK_REQUIRED (H is lost)")
    expect_eq(n["epoch"], epoch, what + ": NewEpoch")
    expect_status(t.ack_lease(key, 0), "SUCCESS", what + ": ack")


@case
def case_dir_lease_granted_rh(env):
    """A directory's v2 lease asking RWH is granted RH (W never); a v1
    lease context and an oplock on a directory get nothing."""
    a = Peer(env, next(GUIDS))
    expect(a.c.neg["capabilities"] & CAP_DIRECTORY_LEASING,
           "SMB2_GLOBAL_CAP_DIRECTORY_LEASING not advertised on 3.1.1")
    d = "dl-grant-%s" % os.urandom(3).hex()
    key = os.urandom(16)
    r, cr = dir_open(a, d, key)
    expect_eq(oplock_level(r), LEVEL_LEASE, "OplockLevel")
    k, state, flags, epoch = lease_answer(cr)
    expect_eq((k, state, epoch), (key, R | H, 2), "directory lease")
    r1, cr1 = dir_open(a, d, os.urandom(16), v2=False)
    expect(b"RqLs" not in cr1.contexts, "a v1 lease granted on a directory")
    r2, cr2 = a.open(d, level=LEVEL_BATCH, disp=OPEN, options=DIRECTORY_FILE,
                     access=GENERIC_READ)
    expect_status(r2, "SUCCESS", "oplock open of the directory")
    expect_eq(oplock_level(r2), LEVEL_NONE, "oplock on a directory")
    for c in (cr2, cr1, cr):
        a.close(c.fid)
    a.unlink(d)
    a.bye()


@case
def case_dir_lease_broken_by_other_client(env):
    """Another client's CREATE of a file in the directory breaks the
    directory's RH lease to none (ack required) without waiting for the
    ack; after it the lease is taken again, and that client's delete of
    the file breaks it again."""
    a, b = two_peers(env)
    d = "dl-other-%s" % os.urandom(3).hex()
    key = os.urandom(16)
    r, cr = dir_open(a, d, key)
    expect_eq(lease_answer(cr)[1], R | H, "directory lease")
    rb, crb = b.open(d + "\\f.txt", disp=CREATE_NEW)
    expect_status(rb, "SUCCESS", "B's create in the directory")
    b.close(crb.fid)
    dir_break(a, key, 3, "break by B's create")
    r2, cr2 = dir_open(a, d, key)
    expect_eq(lease_answer(cr2)[1:4:2], (R | H, 4), "lease taken again")
    b.unlink(d + "\\f.txt")
    dir_break(a, key, 5, "break by B's delete")
    a.close(cr2.fid)
    a.close(cr.fid)
    a.unlink(d)
    a.bye()
    b.bye()


@case
def case_dir_lease_broken_by_local_touch(env):
    """A local process's touch in the directory on the server (a new
    file, then the times of an existing one) breaks the lease."""
    import subprocess
    a = Peer(env, next(GUIDS))
    d = "dl-local-%s" % os.urandom(3).hex()
    key = os.urandom(16)
    r, cr = dir_open(a, d, key)
    need_share_dir(env, d)
    expect_eq(lease_answer(cr)[1], R | H, "directory lease")
    path = os.path.join(env.share_dir, d, "touched")
    subprocess.run(["touch", path], check=True)
    dir_break(a, key, 3, "break by a local touch (create)")
    r2, cr2 = dir_open(a, d, key)
    expect_eq(lease_answer(cr2)[1], R | H, "lease taken again")
    subprocess.run(["touch", "-d", "2001-01-01", path], check=True)
    dir_break(a, key, 5, "break by a local touch (times)")
    a.close(cr2.fid)
    a.close(cr.fid)
    os.unlink(path)
    a.unlink(d)
    a.bye()


@case
def case_dir_lease_parent_key_keeps(env):
    """The lease holder's own create naming the directory's lease key as
    its ParentLeaseKey breaks nothing; its create without one does."""
    a = Peer(env, next(GUIDS))
    d = "dl-parent-%s" % os.urandom(3).hex()
    key = os.urandom(16)
    r, cr = dir_open(a, d, key)
    expect_eq(lease_answer(cr)[1], R | H, "directory lease")
    fkey = os.urandom(16)
    rf, crf = a.open(d + "\\own.txt", disp=CREATE_NEW,
                     lease=(fkey, R | W | H, True, 1, key, PARENT_KEY_SET))
    expect_status(rf, "SUCCESS", "create with the parent's key")
    d2 = crf.contexts[b"RqLs"]
    expect_eq(struct.unpack_from("<I", d2, 20)[0] & PARENT_KEY_SET,
              PARENT_KEY_SET, "PARENT_LEASE_KEY_SET echoed")
    expect_eq(d2[32:48], key, "ParentLeaseKey echoed")
    no_break(a, 1.0, "the owner's own create broke the directory lease")
    a.close(crf.fid)
    no_break(a, 0.5, "the close of an unwritten file broke the lease")
    # The break goes out before this CREATE's own answer.
    a.send(CREATE, create_body(d + "\\other.txt", disp=CREATE_NEW))
    n = parse_break(a.next_frame(10))
    expect_eq((n["key"], n["cur"], n["new"], n["epoch"]), (key, R | H, 0, 3),
              "break by a create without the parent key")
    rg = a.next_frame(10)
    expect_status(rg, "SUCCESS", "create without a parent key")
    expect_status(a.ack_lease(key, 0), "SUCCESS", "ack")
    a.close(Created(rg).fid)
    a.close(cr.fid)
    for f in ("own.txt", "other.txt"):
        a.unlink(d + "\\" + f)
    a.unlink(d)
    a.bye()


@case
def case_dir_lease_broken_by_rename_and_write(env):
    """Another client's rename of a file into the directory breaks its
    lease; so does the close (not the WRITE) of a file written in it."""
    a, b = two_peers(env)
    d = "dl-rename-%s" % os.urandom(3).hex()
    key = os.urandom(16)
    r, cr = dir_open(a, d, key)
    expect_eq(lease_answer(cr)[1], R | H, "directory lease")
    fresh(b, d + "-in.txt")
    rb, crb = b.open(d + "-in.txt", disp=OPEN, access=GENERIC_ALL)
    expect_status(rb, "SUCCESS", "B's open of the file to move")
    expect_status(b.rename(crb.fid, d + "\\in.txt", False), "SUCCESS",
                  "B's rename into the directory")
    dir_break(a, key, 3, "break by B's rename into the directory")
    r2, cr2 = dir_open(a, d, key)
    expect_eq(lease_answer(cr2)[1], R | H, "lease taken again")
    expect_status(b.write(crb.fid, b"more data"), "SUCCESS", "B's write")
    no_break(a, 1.0, "a WRITE broke the directory lease before the close")
    b.close(crb.fid)
    dir_break(a, key, 5, "break by the close of a written file")
    a.close(cr2.fid)
    a.close(cr.fid)
    b.unlink(d + "\\in.txt")
    a.unlink(d)
    a.bye()
    b.bye()


def main():
    def args(ap):
        ap.add_argument("--timeout", type=int, default=2,
                        help="the server's oplock break timeout in seconds")
        ap.add_argument("--rounds", type=int, default=30)
        ap.add_argument("--share-dir", default="/srv/share",
                        help="the share's directory (cases with local processes)")
    return case_main(__doc__, "smb2oplock", CASES, args)


if __name__ == "__main__":
    sys.exit(main())
