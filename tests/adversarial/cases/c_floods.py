# SPDX-License-Identifier: GPL-2.0-or-later
"""Pre-authentication floods (rows 13, 35, 55): sockets that never speak,
connect-then-RST, half frames. The wrapper shortens the negotiate deadline
to 2 s; a legitimate client must be served throughout."""
import resource
import socket
import struct
import time

import advlib
from advlib import expect, Client
from suite import case, live_counts


def raise_nofile(n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(n, hard), hard))


def deadline_ms():
    try:
        with open("/sys/module/ksmbd/parameters/negotiate_timeout_ms") as f:
            return int(f.read())
    except OSError:
        return 10000


def wait_all_cut(conns, secs):
    left = list(conns)
    end = time.monotonic() + secs
    while left and time.monotonic() < end:
        left = [c for c in left if not c.is_dropped(wait=0.02)]
    return left


def flood_source(i):
    """Flood connections come from 8 loopback addresses, each under the
    server's per-address bound (max ip connections, 128), so that it is
    the server-wide bounds and deadlines these cases exercise, and the
    checks from 127.0.0.1 stay another peer's."""
    return "127.0.1.%d" % (1 + i % 8)


def serve_check(env, errors):
    bad = advlib.fresh_ok(env, timeout=15)
    if bad:
        errors.append(bad)


@case("floods", "%s idle connections cut by the negotiate deadline; a "
      "client negotiating meanwhile is served every time (rows 13, 55)",
      timeout=180)
def case_idle_connection_flood(env):
    raise_nofile(env.flood + 200)
    conns = []
    errors = []
    for i in range(env.flood):
        try:
            conns.append(Client(env, timeout=5, source=flood_source(i)))
        except OSError as e:
            # Refused beyond max_connections is allowed; hanging is not.
            if i < 400:
                errors.append("connect %d: %s" % (i, e))
            break
        if i % 100 == 99:
            serve_check(env, errors)
    serve_check(env, errors)
    left = wait_all_cut(conns, deadline_ms() / 1000 + 15)
    serve_check(env, errors)
    for c in conns:
        c.close()
    expect(not left, "%d of %d idle connections not cut" % (len(left),
                                                           len(conns)))
    expect(not errors, "legitimate client: %s" % errors[:3])


@case("floods", "500 connect-then-RST and 200 connect-then-close: fresh "
      "connection served; connections count back to 0 (row 35)",
      timeout=120)
def case_connect_rst_flood(env):
    raise_nofile(1200)
    for i in range(700):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((flood_source(i), 0))
        if i < 500:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                         struct.pack("ii", 1, 0))
        try:
            s.connect((env.host, env.port))
        except OSError:
            pass
        s.close()
    expect(advlib.fresh_ok(env) is None, "fresh connection refused")
    ok = advlib.wait_until(lambda: (live_counts() or {}).get(
        "connections", 0) <= 2, 10)
    expect(ok, "connections still %s" % (live_counts() or {}))


@case("floods", "200 connections each holding half a frame are cut by the "
      "negotiate deadline; a legitimate client is served (row 13)",
      timeout=120)
def case_half_frame_flood(env):
    raise_nofile(600)
    conns, errors = [], []
    for i in range(200):
        c = Client(env, timeout=5, source=flood_source(i))
        c.send_raw(struct.pack(">I", 1000) + b"\xfeSMB" + b"\0" * (i % 50))
        conns.append(c)
    serve_check(env, errors)
    left = wait_all_cut(conns, deadline_ms() / 1000 + 15)
    for c in conns:
        c.close()
    expect(not left, "%d half frames held" % len(left))
    expect(not errors, "legitimate client: %s" % errors)


@case("floods", "100 connections that negotiate and never set up a session "
      "are cut by the session deadline (session_timeout_s)", timeout=180)
def case_negotiated_idle_flood(env):
    try:
        with open("/sys/module/ksmbd/parameters/session_timeout_s") as f:
            secs = int(f.read())
    except OSError:
        raise advlib.Skip("no session_timeout_s parameter")
    if secs > 60:
        raise advlib.Skip("session_timeout_s is %d s" % secs)
    conns = [env.client("negotiate", source=flood_source(i))
             for i in range(100)]
    left = wait_all_cut(conns, secs + 15)
    for c in conns:
        c.close()
    expect(not left, "%d negotiated connections not cut after %d s" %
           (len(left), secs + 15))
