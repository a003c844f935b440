#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Byte-range locks, asynchronous requests and CANCEL, with the client
of tests/smb2 (its AsyncTree: responses matched by MessageId).

Every case checks statuses and header fields the server sends back:
conflicts between handles and with READ/WRITE, the element rules of
MS-SMB2 3.3.5.14, all-or-nothing multi-element locks, blocking locks
(interim STATUS_PENDING with an AsyncId and credits, final response in
async form with no credits), CANCEL by AsyncId and by MessageId, a
pending lock ended by close, logoff and disconnects on either side, the
per-connection cap on pending requests, a blocking lock and the unlock
that frees it in one compound, and the POSIX locks local processes see.

CLI: smb2locks.py [--host H] [--port P] [--prefix NAME] [--user U]
                  [--password PW] [--share-dir DIR] [--list] [CASE ...]
"""
import fcntl
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import AsyncTree as LockTree  # noqa: E402
from smb2.client import (LOCK_SHARED as SHARED,  # noqa: E402
                         LOCK_EXCLUSIVE as EXCL, LOCK_UNLOCK as UNLOCK,
                         LOCK_FAIL_IMMEDIATELY as FI, lock_body)
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403
from smb2.wire import expect_status as want  # noqa: E402

U64 = 0xFFFFFFFFFFFFFFFF

CASES, case = case_registry()


def two_handles(t, name, size=200):
    t.put_file(name, b"\0" * size)
    return t.must_create(name).fid, t.must_create(name).fid


@case
def case_conflicts(env):
    t = LockTree(env)
    h1, h2 = two_handles(t, "lk-conf.bin")
    want(t.lock(h1, [(0, 10, EXCL | FI)]), "SUCCESS", "h1 exclusive")
    want(t.lock(h2, [(0, 10, EXCL | FI)]), "LOCK_NOT_GRANTED", "h2 exclusive")
    want(t.lock(h2, [(5, 1, SHARED | FI)]), "LOCK_NOT_GRANTED", "h2 shared")
    want(t.lock(h2, [(10, 5, EXCL | FI)]), "SUCCESS", "h2 adjacent")
    want(t.lock(h1, [(0, 10, SHARED | FI)]), "SUCCESS", "h1 shared on own excl")
    want(t.lock(h1, [(0, 10, EXCL | FI)]), "LOCK_NOT_GRANTED", "h1 excl twice")
    want(t.lock(h2, [(0, 10, UNLOCK)]), "RANGE_NOT_LOCKED", "h2 unlocks h1's")
    # READ/WRITE against the locks (h1: excl+shared [0,10); h2: excl [10,15))
    want(t.read(h2, 5, 0)[0], "FILE_LOCK_CONFLICT", "h2 read in h1 excl")
    want(t.write(h2, b"x", 3), "FILE_LOCK_CONFLICT", "h2 write in h1 excl")
    want(t.write(h1, b"x", 3), "FILE_LOCK_CONFLICT", "h1 write in own shared")
    want(t.read(h1, 5, 0)[0], "SUCCESS", "h1 read own range")
    want(t.read(h1, 4, 12)[0], "FILE_LOCK_CONFLICT", "h1 read in h2 excl")
    want(t.write(h2, b"y", 12), "SUCCESS", "h2 write own excl")
    # unlock takes the exclusive first: h2 may then share, not take excl
    want(t.lock(h1, [(0, 10, UNLOCK)]), "SUCCESS", "h1 unlock 1")
    want(t.write(h1, b"x", 3), "FILE_LOCK_CONFLICT", "shared lock still there")
    want(t.lock(h2, [(0, 10, SHARED | FI)]), "SUCCESS", "h2 shared now")
    want(t.lock(h1, [(0, 10, UNLOCK)]), "SUCCESS", "h1 unlock 2")
    want(t.lock(h1, [(0, 10, UNLOCK)]), "RANGE_NOT_LOCKED", "h1 unlock 3")
    want(t.lock(h2, [(0, 10, UNLOCK)]), "SUCCESS", "h2 unlock shared")
    want(t.write(h1, b"x", 3), "SUCCESS", "write after unlocks")
    t.close(h1)
    # the close released nothing of h2's; h2's lock still blocks a new handle
    h3 = t.must_create("lk-conf.bin").fid
    want(t.lock(h3, [(12, 1, SHARED | FI)]), "LOCK_NOT_GRANTED", "h2 lock kept")
    t.close(h2)
    want(t.lock(h3, [(12, 1, SHARED | FI)]), "SUCCESS", "close released h2")
    t.close(h3)
    t.unlink("lk-conf.bin")
    t.bye()


@case
def case_element_rules(env):
    t = LockTree(env)
    h1, h2 = two_handles(t, "lk-rules.bin")
    want(t.lock(h1, [(0, 1, 0)], count=0), "INVALID_PARAMETER", "count 0")
    want(t.lock(h1, [(0, 1, 0)]), "INVALID_PARAMETER", "flags 0")
    want(t.lock(h1, [(0, 1, SHARED | EXCL)]), "INVALID_PARAMETER", "both")
    want(t.lock(h1, [(0, 1, UNLOCK | EXCL)]), "INVALID_PARAMETER", "unlock+excl")
    want(t.lock(h1, [(0, 1, UNLOCK | FI)]), "INVALID_PARAMETER", "unlock+fi")
    want(t.lock(h1, [(0, 1, 0x100 | EXCL)]), "INVALID_PARAMETER", "unknown bit")
    want(t.lock(h1, [(0, 1, EXCL | FI), (5, 1, EXCL)]), "INVALID_PARAMETER",
         "multi without FAIL_IMMEDIATELY")
    want(t.lock(h1, [(0, 1, EXCL | FI), (5, 1, UNLOCK)]), "INVALID_PARAMETER",
         "lock then unlock")
    want(t.lock(h1, [(U64, 2, EXCL | FI)]), "INVALID_LOCK_RANGE", "max/2")
    want(t.lock(h1, [(U64, U64, EXCL | FI)]), "INVALID_LOCK_RANGE", "max/max")
    want(t.lock(h1, [(U64, 1, EXCL | FI)]), "SUCCESS", "max/1")
    want(t.lock(h2, [(U64, 1, EXCL | FI)]), "LOCK_NOT_GRANTED", "max/1 h2")
    want(t.lock(h1, [(U64, 1, UNLOCK)]), "SUCCESS", "max/1 unlock")
    # 2^63 and above: SMB-only locks (past POSIX's OFFSET_MAX)
    want(t.lock(h1, [(1 << 63, 1, EXCL | FI)]), "SUCCESS", "2^63")
    want(t.lock(h2, [(1 << 63, 1, SHARED | FI)]), "LOCK_NOT_GRANTED", "2^63 h2")
    want(t.lock(h1, [(1 << 63, 1, UNLOCK)]), "SUCCESS", "2^63 unlock")
    # zero-byte locks: never conflict with each other, only with a range
    # strictly containing them
    want(t.lock(h1, [(10, 0, EXCL | FI)]), "SUCCESS", "0-byte h1")
    want(t.lock(h2, [(10, 0, EXCL | FI)]), "SUCCESS", "0-byte h2")
    want(t.lock(h2, [(10, 2, EXCL | FI)]), "SUCCESS", "starts at 0-byte")
    want(t.lock(h2, [(10, 2, UNLOCK)]), "SUCCESS", "unlock starts at")
    want(t.lock(h2, [(9, 2, EXCL | FI)]), "LOCK_NOT_GRANTED", "contains 0-byte")
    want(t.lock(h1, [(10, 0, UNLOCK)]), "SUCCESS", "0-byte unlock")
    want(t.lock(h2, [(10, 0, UNLOCK)]), "SUCCESS", "0-byte unlock h2")
    # all or nothing: the second element conflicts, the first is rolled back
    want(t.lock(h1, [(50, 10, EXCL | FI)]), "SUCCESS", "h1 [50,60)")
    want(t.lock(h2, [(0, 10, EXCL | FI), (55, 1, EXCL | FI)]),
         "LOCK_NOT_GRANTED", "multi with a conflict")
    want(t.lock(h1, [(0, 10, EXCL | FI)]), "SUCCESS", "rolled back")
    want(t.lock(h2, [(20, 10, EXCL | FI), (30, 5, SHARED | FI)]), "SUCCESS",
         "multi granted")
    # unlocks run in order and are not rolled back
    want(t.lock(h2, [(20, 10, UNLOCK), (70, 1, UNLOCK), (30, 5, UNLOCK)]),
         "RANGE_NOT_LOCKED", "multi unlock, second missing")
    want(t.lock(h1, [(20, 10, EXCL | FI)]), "SUCCESS", "first unlock stayed")
    want(t.lock(h1, [(30, 1, EXCL | FI)]), "LOCK_NOT_GRANTED",
         "third unlock not done")
    # bad handle, and element counts at and past the limit
    want(t.lock((h1[0] + 1, h1[1]), [(0, 1, EXCL | FI)]), "FILE_CLOSED",
         "wrong persistent id")
    elems = [(1000 + 2 * i, 1, SHARED | FI) for i in range(1024)]
    want(t.lock(h2, elems), "SUCCESS", "1024 elements")
    want(t.lock(h2, [(1000 + 2 * i, 1, UNLOCK) for i in range(1024)]),
         "SUCCESS", "1024 unlocks")
    elems.append((5000, 1, SHARED | FI))
    want(t.lock(h2, elems), "INVALID_PARAMETER", "1025 elements")
    t.close(h1)
    t.close(h2)
    t.unlink("lk-rules.bin")
    t.bye()


@case
def case_blocking_unlock(env):
    t = LockTree(env)
    h1, h2 = two_handles(t, "lk-block.bin")
    want(t.lock(h1, [(100, 50, EXCL)]), "SUCCESS", "first lock")
    mid, interim = t.pending_lock(h2, 120, 10)
    expect(t.nothing_for(mid, 1.0), "blocking lock completed while held")
    want(t.lock(h1, [(100, 50, UNLOCK)]), "SUCCESS", "unlock")
    want(t.final(mid, interim, "woken lock"), "SUCCESS", "woken lock")
    want(t.lock(h1, [(125, 1, SHARED | FI)]), "LOCK_NOT_GRANTED",
         "woken lock is held")
    # a shared waiter behind an exclusive lock, woken together with another
    want(t.lock(h1, [(0, 10, EXCL | FI)]), "SUCCESS", "h1 excl again")
    h3 = t.must_create("lk-block.bin").fid
    m2, i2 = t.pending_lock(h2, 0, 5, SHARED)
    m3, i3 = t.pending_lock(h3, 5, 5, SHARED)
    expect(i2.async_id != i3.async_id, "two pending requests, one AsyncId")
    want(t.lock(h1, [(0, 10, UNLOCK)]), "SUCCESS", "unlock for two")
    want(t.final(m2, i2, "shared 1"), "SUCCESS", "shared waiter 1")
    want(t.final(m3, i3, "shared 2"), "SUCCESS", "shared waiter 2")
    for h in (h1, h2, h3):
        t.close(h)
    t.unlink("lk-block.bin")
    t.bye()


@case
def case_cancel(env):
    t = LockTree(env)
    h1, h2 = two_handles(t, "lk-cancel.bin")
    want(t.lock(h1, [(0, 10, EXCL)]), "SUCCESS", "first lock")
    # by AsyncId
    mid, interim = t.pending_lock(h2, 0, 10)
    t.cancel(mid, interim.async_id)
    want(t.final(mid, interim, "cancel by AsyncId"), "CANCELLED",
         "cancel by AsyncId")
    # by MessageId (sync form)
    mid, interim = t.pending_lock(h2, 0, 10)
    want(t.lock(h2, [(0, 10, UNLOCK)]), "RANGE_NOT_LOCKED",
         "unlock of a pending lock")
    t.cancel(mid)
    want(t.final(mid, interim, "cancel by MessageId"), "CANCELLED",
         "cancel by MessageId")
    # the cancelled requests hold nothing: h1 unlocks, h2 locks at once
    want(t.lock(h1, [(0, 10, UNLOCK)]), "SUCCESS", "unlock")
    want(t.lock(h2, [(0, 10, EXCL | FI)]), "SUCCESS", "nothing left behind")
    # hostile: cancel of a completed request, of unknown ids
    t.cancel(mid, interim.async_id)
    t.cancel(mid)
    t.cancel(123456, 0xDEADBEEF)
    t.cancel(0, 0)
    t.alive()
    t.close(h1)
    t.close(h2)
    t.unlink("lk-cancel.bin")
    t.bye()


@case
def case_close_pending(env):
    t = LockTree(env)
    h1, h2 = two_handles(t, "lk-close.bin")
    want(t.lock(h1, [(0, 10, EXCL)]), "SUCCESS", "first lock")
    mid, interim = t.pending_lock(h2, 0, 10)
    want(t.close(h2), "SUCCESS", "close the waiting handle")
    want(t.final(mid, interim, "closed handle"), "RANGE_NOT_LOCKED",
         "pending lock on a closed handle")
    # closing the holder wakes a waiter on another handle
    h3 = t.must_create("lk-close.bin").fid
    mid, interim = t.pending_lock(h3, 5, 1)
    want(t.close(h1), "SUCCESS", "close the holder")
    want(t.final(mid, interim, "holder closed"), "SUCCESS", "waiter granted")
    t.close(h3)
    t.unlink("lk-close.bin")
    t.bye()


@case
def case_teardown_pending(env):
    """Pending locks across logoff, tree disconnect and dropped sockets."""
    a = LockTree(env)
    a.put_file("lk-tear.bin", b"\0" * 64)
    ha = a.must_create("lk-tear.bin").fid
    want(a.lock(ha, [(0, 10, EXCL)]), "SUCCESS", "holder lock")
    # the waiter's connection drops, with and without the interim read
    for _ in range(3):
        b = LockTree(env)
        hb = b.must_create("lk-tear.bin").fid
        b.pending_lock(hb, 0, 10)
        b.send(CLOSE, struct.pack("<HHIQQ", 24, 0, 0, *hb))
        b.bye()
        b = LockTree(env)
        hb = b.must_create("lk-tear.bin").fid
        b.send(LOCK, lock_body(hb, [(0, 10, EXCL)]))
        b.bye()
    # logoff and tree disconnect of the waiter's session
    for how in ("logoff", "tdis"):
        b = LockTree(env)
        hb = b.must_create("lk-tear.bin").fid
        mid, interim = b.pending_lock(hb, 0, 10)
        if how == "logoff":
            m = b.send(LOGOFF, struct.pack("<HH", 4, 0))
        else:
            m = b.send(TREE_DISCONNECT, struct.pack("<HH", 4, 0))
        want(b.final(mid, interim, how), "RANGE_NOT_LOCKED", how)
        want(b.recv_mid(m), "SUCCESS", how + " response")
        b.bye()
    # nothing of the waiters remains: a's lock is alone, then gone
    want(a.lock(ha, [(0, 10, UNLOCK)]), "SUCCESS", "holder unlock")
    want(a.lock(ha, [(0, 10, EXCL | FI)]), "SUCCESS", "relock")
    # the holder's connection drops: the waiter on another is granted
    b = LockTree(env)
    hb = b.must_create("lk-tear.bin").fid
    mid, interim = b.pending_lock(hb, 0, 10)
    a.bye()
    want(b.final(mid, interim, "holder dropped"), "SUCCESS",
         "granted after the holder's connection dropped")
    b.close(hb)
    b.unlink("lk-tear.bin")
    b.bye()


@case
def case_pending_limit(env):
    t = LockTree(env)
    h1, h2 = two_handles(t, "lk-limit.bin")
    want(t.lock(h1, [(0, 10, EXCL)]), "SUCCESS", "first lock")
    got = {}
    for _ in range(260):
        r = t.recv_mid(t.send(LOCK, lock_body(h2, [(0, 10, EXCL)])))
        got[r.status] = got.get(r.status, 0) + 1
    expect_eq(got.get(ST["PENDING"], 0), 256, "pending requests admitted")
    expect_eq(got.get(ST["INSUFFICIENT_RESOURCES"], 0), 4,
              "requests past the cap")
    t.alive()
    t.bye()   # the 256 pending requests go with the connection
    t = LockTree(env)
    h = t.must_create("lk-limit.bin").fid
    want(t.lock(h, [(0, 10, EXCL | FI)]), "SUCCESS", "all released")
    t.close(h)
    t.unlink("lk-limit.bin")
    t.bye()


@case
def case_compound_lock_unlock(env):
    """A blocking lock and the unlock that frees it, in one compound."""
    t = LockTree(env)
    h1, h2 = two_handles(t, "lk-comp.bin")
    want(t.lock(h1, [(0, 10, EXCL)]), "SUCCESS", "first lock")
    e1 = lock_body(h2, [(0, 10, EXCL)])
    e1 += b"\0" * ((8 - (64 + len(e1)) % 8) % 8)
    m1 = t.c.mid
    msg1 = t.c.build(LOCK, e1, session=t.sess.id, tree=t.tid,
                     next_cmd=64 + len(e1))
    m2 = t.c.mid
    msg2 = t.c.build(LOCK, lock_body(h1, [(0, 10, UNLOCK)]),
                     session=t.sess.id, tree=t.tid)
    t.c.send_frame(msg1 + msg2)
    r1 = t.recv_mid(m1)
    r2 = t.recv_mid(m2)
    want(r2, "SUCCESS", "unlock in the compound")
    if r1.status == ST["PENDING"]:
        want(t.final(m1, r1, "compound waiter"), "SUCCESS", "compound waiter")
    else:
        raise AssertionError("first element: %s" % status_name(r1.status))
    want(t.lock(h1, [(0, 1, SHARED | FI)]), "LOCK_NOT_GRANTED", "h2 holds it")
    t.close(h1)
    t.close(h2)
    t.unlink("lk-comp.bin")
    t.bye()


@case
def case_posix_visible(env):
    """SMB locks are POSIX locks on the backing file, and the reverse."""
    path = os.path.join(env.share_dir, "lk-posix.bin")
    t = LockTree(env)
    h1, _ = two_handles(t, "lk-posix.bin")
    want(t.lock(h1, [(0, 10, EXCL | FI)]), "SUCCESS", "SMB lock")
    fd = os.open(path, os.O_RDWR)
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 5, 2)
            raise AssertionError("local lock granted over an SMB lock")
        except OSError:
            pass
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 10, 20)  # beside it
        want(t.lock(h1, [(0, 10, UNLOCK)]), "SUCCESS", "SMB unlock")
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 5, 2)
        want(t.lock(h1, [(21, 3, SHARED | FI)]), "LOCK_NOT_GRANTED",
             "SMB lock over a local one")
        fcntl.lockf(fd, fcntl.LOCK_UN, 0, 0)
        want(t.lock(h1, [(21, 3, SHARED | FI)]), "SUCCESS", "after local unlock")
    finally:
        os.close(fd)
    t.close(h1)
    t.unlink("lk-posix.bin")
    t.bye()


def main():
    return case_main(__doc__, "smb2locks", CASES, lambda ap: ap.add_argument(
        "--share-dir", default="/srv/share"))

if __name__ == "__main__":
    sys.exit(main())
