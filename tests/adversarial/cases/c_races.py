# SPDX-License-Identifier: GPL-2.0-or-later
"""Races on object lifetimes: requests pipelined so that the server's
workers run them at once, and two connections on one session (rows 8,
14-17, 33, 41, 43, 48, 51-54). Each race is bounded by --race-iters and
--race-seconds; its oracle is that every answer is one of the allowed
statuses, the server keeps serving, and (group check) nothing is left
alive afterwards."""
import struct
import time

from advlib import ntlm
import advlib
from advlib import (Client, expect, sname, SUCCESS, MORE_PROCESSING_REQUIRED,
                    USER_SESSION_DELETED, NETWORK_NAME_DELETED, FILE_CLOSED,
                    INVALID_HANDLE, NOT_IMPLEMENTED, Dropped,
                    ECHO, LOGOFF, TREE_CONNECT, TREE_DISCONNECT,
                    SESSION_SETUP, CREATE, CLOSE, READ, WRITE, QUERY_INFO,
                    body_simple, body_tree_connect, body_session_setup,
                    body_create, body_close, body_read, body_write,
                    body_query_info, spnego_init)
from suite import case

E = body_simple()
GONE = (USER_SESSION_DELETED, NETWORK_NAME_DELETED, FILE_CLOSED,
        INVALID_HANDLE)


def rounds(env):
    end = time.monotonic() + env.race_seconds
    i = 0
    while i < env.race_iters and time.monotonic() < end:
        yield i
        i += 1


def burst(c, items):
    """Send every item as its own frame in one write; answers by mid."""
    frames, mids = [], []
    for cmd, body, kw in items:
        el = c.element(cmd, body, **kw)
        mids.append(struct.unpack_from("<Q", el, 24)[0])
        frames.append(struct.pack(">I", len(el)) + el)
    c.send_raw(b"".join(frames))
    got = {}
    while len(got) < len(mids):
        r = c.recv()
        got[r.mid] = r
    return [got[m] for m in mids]


def check_all(answers, allowed, what):
    for r in answers:
        expect(r.status in allowed, "%s: command %d answered %s" %
               (what, r.command, sname(r.status)))


def tc_body(env):
    return body_tree_connect("\\\\%s\\%s" % (env.host, env.share))


@case("races", "TREE_CONNECTs pipelined around a LOGOFF on one connection "
      "(rows 15, 33): each SUCCESS or USER_SESSION_DELETED", timeout=120)
def case_race_logoff_vs_tree_connect(env):
    env.need("session")
    for _ in rounds(env):
        c = env.client("session")
        items = [(TREE_CONNECT, tc_body(env), {"tree": 0})] * 6 + \
            [(LOGOFF, E, {})] + [(TREE_CONNECT, tc_body(env),
                                   {"tree": 0})] * 6
        check_all(burst(c, items), (SUCCESS, USER_SESSION_DELETED,
                                    NOT_IMPLEMENTED), "burst")
        c.close()


@case("races", "two TREE_DISCONNECTs and CREATE/QUERY_INFO pipelined on one "
      "tree (rows 8, 14): exactly one disconnect SUCCESS, the rest "
      "SUCCESS or NETWORK_NAME_DELETED", timeout=120)
def case_race_tree_disconnect(env):
    env.need("tree")
    for i in rounds(env):
        c = env.client("tree")
        ops = [(CREATE, body_create("adv_rtd_%d.txt" % (i % 3)), {})] * 4 + \
            [(TREE_DISCONNECT, E, {})] * 2 + \
            [(CREATE, body_create("adv_rtd_x.txt"), {})] * 4
        answers = burst(c, ops)
        check_all(answers, (SUCCESS, NOT_IMPLEMENTED) + GONE, "burst")
        tds = [r.status for r in answers if r.command == TREE_DISCONNECT]
        expect(tds.count(SUCCESS) == 1, "TREE_DISCONNECT statuses %s" %
               [sname(s) for s in tds])
        c.close()


@case("races", "CLOSEs of 4 open files pipelined with a LOGOFF (row 16): "
      "each SUCCESS or a 'gone' status; open_files back to 0 (group check)",
      timeout=120)
def case_race_close_vs_logoff(env):
    env.need("file")
    for i in rounds(env):
        c = env.client("file", name="adv_rcl_0.txt")
        fids = [c.fid] + [c.create("adv_rcl_%d.txt" % k).fid
                          for k in range(1, 4)]
        items = [(CLOSE, body_close(f), {}) for f in fids[:2]] + \
            [(LOGOFF, E, {})] + [(CLOSE, body_close(f), {}) for f in fids[2:]]
        check_all(burst(c, items), (SUCCESS,) + GONE, "burst")
        c.close()


@case("races", "a re-authentication first leg, LOGOFF and another first "
      "leg pipelined on one session (rows 15, 41, 53): no success from a "
      "logged-off session, no crash", timeout=120)
def case_race_session_setup_vs_logoff(env):
    env.need("session")
    t1 = spnego_init(ntlm.negotiate())
    for _ in rounds(env):
        c = env.client("session")
        items = [(SESSION_SETUP, body_session_setup(t1), {}),
                 (LOGOFF, E, {}),
                 (SESSION_SETUP, body_session_setup(t1), {}),
                 (TREE_CONNECT, tc_body(env), {"tree": 0})]
        for r in burst(c, items):
            expect(r.status != SUCCESS or r.command != SESSION_SETUP,
                   "a first leg completed a session")
        c.close()


@case("races", "connection B floods A's session id (TREE_CONNECT, binding "
      "SESSION_SETUP, LOGOFF) while A logs off (rows 16, 51, 52): B is "
      "never served", timeout=120)
def case_race_two_connections_one_session(env):
    env.need("session")
    t1 = spnego_init(ntlm.negotiate())
    for _ in rounds(env):
        a = env.client("session")
        b = env.client("negotiate")
        items = []
        for _k in range(4):
            items += [(TREE_CONNECT, tc_body(env), {"sess": a.sess,
                                                    "tree": 0}),
                      (SESSION_SETUP, body_session_setup(t1, flags=1),
                       {"sess": a.sess}),
                      (LOGOFF, E, {"sess": a.sess})]
        frames = b"".join(struct.pack(">I", 64 + len(body)) +
                          b.element(cmd, body, **kw)
                          for cmd, body, kw in items)
        b.send_raw(frames)
        a.send_frame(a.element(LOGOFF, E))
        for _k in range(len(items)):
            r = b.recv()
            expect(r.status not in (SUCCESS, MORE_PROCESSING_REQUIRED),
                   "B's %s with A's session: %s" % (r.command,
                                                    sname(r.status)))
        ra = a.recv()
        expect(ra.status == SUCCESS, "A's LOGOFF: %s" % sname(ra.status))
        a.close()
        b.close()


@case("races", "60 requests pipelined, then a TCP RST before the answers "
      "(row 43); repeated; the server keeps serving", timeout=120)
def case_race_disconnect_in_flight(env):
    for i in rounds(env):
        c = env.client("file" if i % 2 else "session", name="adv_rst.txt")
        items = [(ECHO, E, {})] * 20
        if c.level in ("tree", "file"):
            items += [(TREE_CONNECT, tc_body(env), {"tree": 0})] * 20
        if c.fid:
            items += [(READ, body_read(c.fid, 4096), {}),
                      (WRITE, body_write(c.fid, b"d" * 4096), {})] * 10
        c.send_raw(b"".join(struct.pack(">I", 64 + len(b)) +
                            c.element(cmd, b, **kw) for cmd, b, kw in items))
        c.rst()


@case("races", "16 x 64 KiB READ/WRITE in flight, then LOGOFF, then TCP "
      "close (rows 15, 43): every answer SUCCESS or 'gone'", timeout=120)
def case_race_logoff_with_io(env):
    env.need("file")
    for i in rounds(env):
        c = env.client("file", name="adv_rio.txt")
        data = b"i" * 65536
        items = [(WRITE, body_write(c.fid, data, offset=k * 65536), {})
                 for k in range(8)]
        items += [(READ, body_read(c.fid, 65536, offset=k * 65536), {})
                  for k in range(8)]
        items.insert(8 + i % 8, (LOGOFF, E, {}))
        try:
            check_all(burst(c, items), (SUCCESS, advlib.END_OF_FILE,
                                        NOT_IMPLEMENTED) + GONE, "burst")
        except Dropped:
            pass
        c.close()


@case("races", "16 x 64 KiB READ/WRITE in flight with a TREE_DISCONNECT "
      "among them (rows 8, 14, 60): every answer SUCCESS or 'gone'",
      timeout=120)
def case_race_tree_disconnect_with_io(env):
    env.need("file")
    for i in rounds(env):
        c = env.client("file", name="adv_rtio.txt")
        items = [(WRITE, body_write(c.fid, b"t" * 65536), {}),
                 (READ, body_read(c.fid, 65536), {}),
                 (QUERY_INFO, body_query_info(c.fid), {})] * 5
        items.insert(i % 15, (TREE_DISCONNECT, E, {}))
        check_all(burst(c, items), (SUCCESS, advlib.END_OF_FILE,
                                    NOT_IMPLEMENTED) + GONE, "burst")
        c.close()


@case("races", "first leg sent, then RST before the answer, repeated "
      "(rows 15, 41): the server keeps serving, sessions back to 0 (group "
      "check)", timeout=120)
def case_race_rst_during_session_setup(env):
    t1 = spnego_init(ntlm.negotiate())
    for _ in rounds(env):
        c = env.client("negotiate")
        c.send_frame(c.element(SESSION_SETUP, body_session_setup(t1)))
        c.rst()


@case("races", "a durable handle (DHnQ, batch oplock) whose old connection "
      "stays open while the same user's new connection ends the old "
      "session (PreviousSessionId) and reconnects it with DHnC, as a second "
      "connection of that user fires DH2C with a wrong CreateGuid at the "
      "same handle (each claims it for a moment, then gives it back): the "
      "DHnC is SUCCESS every round, the bogus ones OBJECT_NAME_NOT_FOUND, "
      "and the old connection's own teardown afterwards leaves the "
      "reconnected handle alone", timeout=180)
def case_race_durable_reconnect_claimed(env):
    env.need("file")
    name = "adv_rdur.txt"
    x = env.client("tree")
    try:
        for i in rounds(env):
            old = env.client("tree")
            dhnq = advlib.create_context(b"DHnQ", b"\0" * 16)
            r = old.create(name, disposition=advlib.FILE_OPEN_IF, oplock=9,
                           contexts=dhnq)
            expect(r.status == SUCCESS, "durable open: %s" % sname(r.status))
            expect(b"DHnQ" in r.raw, "round %d: not made durable" % i)
            fid = r.fid
            new = Client(env)
            expect(new.negotiate().status == SUCCESS, "negotiate")
            expect(new.login(prev=old.sess).status == SUCCESS,
                   "login with PreviousSessionId")
            expect(new.tree_connect().status == SUCCESS, "tree connect")
            # x claims the handle over and over; new's DHnC lands among.
            bogus = advlib.create_context(b"DH2C", fid + bytes(range(16)) +
                                          struct.pack("<I", 0))
            frames = []
            for _ in range(16):
                el = x.element(CREATE, body_create(
                    name, disposition=advlib.FILE_OPEN, oplock=9,
                    contexts=bogus))
                frames.append(struct.pack(">I", len(el)) + el)
            x.send_raw(b"".join(frames))
            r = new.create(name, disposition=advlib.FILE_OPEN, oplock=9,
                           contexts=advlib.create_context(b"DHnC", fid))
            for _ in frames:
                b = x.recv()
                expect(b.status == advlib.OBJECT_NAME_NOT_FOUND,
                       "round %d: bogus DH2C answered %s" %
                       (i, sname(b.status)))
            expect(r.status == SUCCESS, "round %d: DHnC answered %s" %
                   (i, sname(r.status)))
            # The old connection's teardown must not take it back.
            old.close()
            time.sleep(0.3)
            expect(new.close_file(r.fid).status == SUCCESS,
                   "round %d: CLOSE of the reconnected handle" % i)
            new.close()
    finally:
        x.close()
