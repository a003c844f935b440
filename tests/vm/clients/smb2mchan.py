#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Multichannel against the server, with the client of tests/smb2:
FSCTL_QUERY_NETWORK_INTERFACE_INFO (MS-SMB2 3.3.5.15.11) compared with
the guest's own addresses (ip -j addr, /sys/class/net), its bounds, and
channels bound over the addresses it lists.

Runs in the guest the server runs in: the addresses the answer must list
are this machine's.

CLI: smb2mchan.py [--host H] [--port P] [--prefix NAME] [--user U]
                  [--password PW] [--list] [CASE ...]
"""
import ipaddress
import json
import os
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import AuthConn, Tree, bind_channel  # noqa: E402
from smb2.create import (GENERIC_ALL_RW, LEASE_H, LEASE_R,  # noqa: E402
                         LEASE_W, LEVEL_BATCH, LEVEL_II, LEVEL_LEASE, OPEN,
                         OVERWRITE_IF, Created, create_body, create_ctx,
                         lease_data)
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

CASES, case = case_registry()

FSCTL_QUERY_NETWORK_INTERFACE_INFO = 0x001401FC
NO_FILE = b"\xff" * 16
ENTRY = 152
RSS_CAPABLE = 1


def parse_entries(out):
    """The NETWORK_INTERFACE_INFO chain: (ifindex, capability, speed,
    address string) per entry, in order."""
    entries, off = [], 0
    while True:
        expect(off + ENTRY <= len(out), "entry at %d inside the output" % off)
        nxt, idx, cap, _, speed, fam = struct.unpack_from("<IIIIQH", out, off)
        sa = out[off + 24:off + 24 + 128]
        if fam == 0x0002:
            addr = str(ipaddress.IPv4Address(sa[4:8]))
            expect(sa[8:] == bytes(120), "IPv4 SOCKADDR tail zero")
        elif fam == 0x0017:
            addr = str(ipaddress.IPv6Address(sa[8:24]))
            expect(sa[24:] == bytes(104), "IPv6 ScopeId and tail zero")
        else:
            raise AssertionError("family %#x" % fam)
        expect(sa[2:4] == b"\0\0", "port 0")
        entries.append((idx, cap, speed, addr))
        if not nxt:
            break
        expect_eq(nxt, ENTRY, "Next")
        off += nxt
    expect_eq(off + ENTRY, len(out), "output length is the chain's")
    return entries


def sysfs_speed(dev):
    try:
        with open("/sys/class/net/%s/speed" % dev) as f:
            mbps = int(f.read().strip())
    except (OSError, ValueError):
        return 1000000000
    return mbps * 1000000 if mbps > 0 else 1000000000


def rx_queues(dev):
    return len([q for q in os.listdir("/sys/class/net/%s/queues" % dev)
                if q.startswith("rx-")])


def local_addresses():
    """What the answer must hold: (ifindex, capability, speed, address)
    for every address of an interface that is up, but loopback and IPv6
    link-local ones."""
    links = json.loads(subprocess.run(["ip", "-j", "addr"], check=True,
                                      capture_output=True,
                                      text=True).stdout)
    want = set()
    for ln in links:
        if "LOOPBACK" in ln["flags"] or "UP" not in ln["flags"] or \
           ln.get("operstate") not in ("UP", "UNKNOWN"):
            continue
        dev = ln["ifname"]
        cap = RSS_CAPABLE if rx_queues(dev) > 1 else 0
        for a in ln.get("addr_info", []):
            if a["family"] == "inet6" and (a.get("scope") == "link" or
                                           a.get("tentative") or
                                           a.get("dadfailed")):
                continue
            if a["family"] not in ("inet", "inet6"):
                continue
            want.add((ln["ifindex"], cap, sysfs_speed(dev), a["local"]))
    return want


def query(t, max_out=65536, data=b""):
    return t.ioctl(NO_FILE, FSCTL_QUERY_NETWORK_INTERFACE_INFO, data,
                   max_out=max_out)


@case
def case_interface_info_lists_addresses(env):
    """The answer lists exactly the guest's usable addresses, with their
    ifindex, RSS capability and link speed; loopback is not among them."""
    t = Tree(env)
    r, out = query(t)
    expect_status(r, "SUCCESS", "interface query")
    got = parse_entries(out)
    expect_eq(len(got), len(set(got)), "no address listed twice")
    want = local_addresses()
    expect(want, "the guest has an address to list")
    expect_eq(sorted(got), sorted(want), "the addresses listed")
    expect(not [e for e in got if e[3].startswith("127.") or e[3] == "::1"],
           "loopback listed")
    t.bye()


@case
def case_interface_info_bounds(env):
    """MaxOutputResponse below one entry: BUFFER_TOO_SMALL and nothing;
    room for one of several: that one, ending the chain, with
    BUFFER_OVERFLOW; an input buffer: INVALID_PARAMETER."""
    t = Tree(env)
    _, out = query(t)
    n = len(out) // ENTRY
    expect(n >= 1, "an address to list")
    r, small = query(t, max_out=ENTRY - 1)
    expect_status(r, "BUFFER_TOO_SMALL", "MaxOutputResponse 151")
    expect_eq(small, b"", "output with BUFFER_TOO_SMALL")
    r, one = query(t, max_out=ENTRY + 7)
    expect_status(r, "BUFFER_OVERFLOW" if n > 1 else "SUCCESS",
                  "room for one entry of %d" % n)
    expect_eq(len(one), ENTRY, "one entry")
    expect_eq(parse_entries(one)[0], parse_entries(out)[0], "the first entry")
    r, _ = query(t, data=b"\0" * 8)
    expect_status(r, "INVALID_PARAMETER", "input buffer")
    t.bye()


@case
def case_interface_info_needs_multichannel(env):
    """Without multichannel negotiated (2.1, or 3.1.1 not asking for it):
    NOT_SUPPORTED, as 3.3.5.15.11 allows."""
    for dialect, caps in ((0x0210, 0x7f), (0x0311, 0x7f & ~0x8)):
        c = AuthConn(env.host, env.port, dialect, caps=caps)
        st, sess, _ = c.login(env.user, env.password)
        expect_eq(st, STATUS_SUCCESS, "logon")
        tree = c.tree_connect(sess, "share", signed=True).tree
        body = struct.pack("<HHI16sIIIIIIII", 57, 0,
                           FSCTL_QUERY_NETWORK_INTERFACE_INFO, NO_FILE, 0, 0,
                           0, 0, 0, 65536, 1, 0)
        r = c.call(IOCTL, body, sess, tree=tree, signed=True)
        expect_status(r, "NOT_SUPPORTED", "dialect %#x caps %#x" %
                      (dialect, caps))
        c.close()


def write(c, sess, tree, fid, data, off):
    body = struct.pack("<HHIQ16sIIHHI", 49, 64 + 48, len(data), off, fid, 0,
                       0, 0, 0, 0) + data
    r = c.call(WRITE, body, sess, tree=tree, signed=True)
    expect_status(r, "SUCCESS", "write")


def read(c, sess, tree, fid, length, off):
    body = struct.pack("<HBBIQ16sIIIHH", 49, 0, 0, length, off, fid, 0,
                       0, 0, 0, 0) + b"\0"
    r = c.call(READ, body, sess, tree=tree, signed=True)
    expect_status(r, "SUCCESS", "read")
    doff = r.body[2]
    (n,) = struct.unpack_from("<I", r.body, 4)
    return r.raw[doff:doff + n]


@case
def case_bind_listed_addresses(env):
    """Every listed address takes a channel of the session: what one
    channel writes, the others read."""
    t = Tree(env)
    _, out = query(t)
    addrs = [e[3] for e in parse_entries(out)]
    body = create_body("mchan-%d.dat" % os.getpid(), access=GENERIC_ALL_RW,
                       disp=OVERWRITE_IF)
    r = t.c.call(CREATE, body, t.sess, tree=t.tid, signed=True)
    expect_status(r, "SUCCESS", "create")
    fid = r.body[64:80]
    chans = []
    for i, a in enumerate(addrs):
        c = AuthConn(a, env.port, 0x0311, guid=b"\x42" * 16)
        st, ch, _ = bind_channel(c, t.sess, env.user, env.password)
        expect_eq(st, STATUS_SUCCESS, "binding over " + a)
        chans.append((c, ch))
        data = os.urandom(4096)
        write(c, ch, t.tid, fid, data, i * 4096)
        expect(read(c, ch, t.tid, fid, 4096, i * 4096) == data,
               "read back over " + a)
    for i, (c, ch) in enumerate(chans):
        other = chans[(i + 1) % len(chans)]
        data = os.urandom(512)
        write(c, ch, t.tid, fid, data, 65536 + i * 512)
        got = read(other[0], other[1], t.tid, fid, 512, 65536 + i * 512)
        expect(got == data, "channel %d reads channel %d's write" %
               ((i + 1) % len(chans), i))
    for c, _ in chans:
        c.close()
    t.close(fid)
    t.bye()


# ---- breaks over a surviving channel (MS-SMB2 3.3.4.6, 3.3.4.7) ----

def clients_lines():
    with open("/proc/fs/ksmbd/clients") as f:
        return f.read().splitlines()


def session_conn(sess_id):
    """The id of the connection the session was set up on."""
    for ln in clients_lines():
        w = ln.split()
        if w[0] == "sess" and int(w[1], 16) == sess_id:
            return w[2]
    raise AssertionError("session %#x not listed" % sess_id)


def wait_conn_gone(conn_id, secs=20):
    end = time.time() + secs
    while time.time() < end:
        if not [ln for ln in clients_lines()
                if ln.split()[:2] == ["conn", conn_id]]:
            return
        time.sleep(0.1)
    raise AssertionError("connection %s still listed" % conn_id)


class Background(threading.Thread):
    """fn() in a thread; result() waits for it."""

    def __init__(self, fn):
        super().__init__(daemon=True)
        self.fn, self.value, self.error = fn, None, None
        self.start()

    def run(self):
        try:
            self.value = self.fn()
        except Exception as e:  # noqa: BLE001
            self.error = e

    def result(self, wait):
        self.join(wait)
        if self.error:
            raise self.error
        expect(not self.is_alive(), "the waiting open did not finish")
        return self.value


def next_frame(c, wait):
    c.sock.settimeout(wait)
    try:
        return Response(c.recv_frame())
    finally:
        c.sock.settimeout(30)


def two_channels(env, name, guid):
    """A session on a first connection (a Tree) with a second bound to it
    (AuthConn, channel Session); name holds a few bytes."""
    a = Tree(env, guid=guid)
    a.put_file(name, b"0123456789")
    c2 = AuthConn(env.host, env.port, 0x0311, guid=guid)
    st, ch, _ = bind_channel(c2, a.sess, env.user, env.password)
    expect_eq(st, STATUS_SUCCESS, "binding")
    return a, c2, ch


def drop_first(a):
    """Closes the first connection; returns once the server has let it go
    (the session lives on through the second)."""
    conn_id = session_conn(a.sess.id)
    a.c.close()
    wait_conn_gone(conn_id)


def other_open(env, name):
    b = Tree(env, guid=b"\x77" * 16)
    return b, Background(lambda: b.call(CREATE, create_body(name, disp=OPEN)))


@case
def case_lease_break_on_surviving_channel(env):
    """A lease taken on channel 1, channel 1 dropped, another client's open
    breaks it: the break arrives on channel 2, whose acknowledgement lets
    the open go on."""
    name = "mchan-lease-%d.txt" % os.getpid()
    a, c2, ch = two_channels(env, name, b"\x71" * 16)
    key = os.urandom(16)
    body = create_body(name, disp=OPEN, oplock=LEVEL_LEASE,
                       ctxs=create_ctx(b"RqLs", lease_data(
                           key, LEASE_R | LEASE_W | LEASE_H)))
    r = a.call(CREATE, body)
    expect_status(r, "SUCCESS", "open with a lease")
    cr = Created(r)
    d = cr.contexts.get(b"RqLs")
    expect(d and struct.unpack_from("<I", d, 16)[0] == 7, "RWH granted")
    drop_first(a)
    b, op = other_open(env, name)
    n = next_frame(c2, 15)
    expect_eq((n.command, n.mid), (OPLOCK_BREAK, NOTIFY_MID),
              "a break notification on channel 2")
    _, flags, nkey, cur, new = struct.unpack_from("<HI16sII", n.body, 2)
    expect_eq((nkey, cur, new), (key, 7, LEASE_R | LEASE_H), "lease break")
    expect_eq(flags & 1, 1, "ACK_REQUIRED")
    ack = struct.pack("<HHI16sIQ", 36, 0, 0, key, LEASE_R | LEASE_H, 0)
    r = c2.call(OPLOCK_BREAK, ack, ch, tree=a.tid, signed=True)
    expect_status(r, "SUCCESS", "lease ack on channel 2")
    rb = op.result(15)
    expect_status(rb, "SUCCESS", "the other client's open")
    b.close(Created(rb).fid)
    r = c2.call(CLOSE, struct.pack("<HHI16s", 24, 0, 0, cr.fid_bytes), ch,
                tree=a.tid, signed=True)
    expect_status(r, "SUCCESS", "close on channel 2")
    c2.close()
    b.bye()


@case
def case_oplock_break_on_surviving_channel(env):
    """Likewise with a batch oplock: the break to level II names the
    handle and is acknowledged on channel 2."""
    name = "mchan-oplock-%d.txt" % os.getpid()
    a, c2, ch = two_channels(env, name, b"\x72" * 16)
    r = a.call(CREATE, create_body(name, disp=OPEN, oplock=LEVEL_BATCH))
    expect_status(r, "SUCCESS", "open with a batch oplock")
    expect_eq(r.body[2], LEVEL_BATCH, "batch granted")
    cr = Created(r)
    drop_first(a)
    b, op = other_open(env, name)
    n = next_frame(c2, 15)
    expect_eq((n.command, n.mid), (OPLOCK_BREAK, NOTIFY_MID),
              "a break notification on channel 2")
    level, fid = struct.unpack_from("<B5x16s", n.body, 2)
    expect_eq((level, fid), (LEVEL_II, cr.fid_bytes), "oplock break")
    ack = struct.pack("<HBBI16s", 24, LEVEL_II, 0, 0, cr.fid_bytes)
    r = c2.call(OPLOCK_BREAK, ack, ch, tree=a.tid, signed=True)
    expect_status(r, "SUCCESS", "oplock ack on channel 2")
    rb = op.result(15)
    expect_status(rb, "SUCCESS", "the other client's open")
    b.close(Created(rb).fid)
    r = c2.call(CLOSE, struct.pack("<HHI16s", 24, 0, 0, cr.fid_bytes), ch,
                tree=a.tid, signed=True)
    expect_status(r, "SUCCESS", "close on channel 2")
    c2.close()
    b.bye()


# ---- ChannelSequence (MS-SMB2 3.3.5.2.10) ----

def call_csn(t, cmd, body, csn, flags=0):
    """cmd on t's tree with ChannelSequence csn in the header."""
    msg = bytearray(t.build(cmd, body, flags=flags))
    struct.pack_into("<H", msg, 8, csn)
    t.c.send_frame(bytes(msg))
    return Response(t.c.recv_frame())


def write_csn(t, fid, data, off, csn, flags=0):
    body = struct.pack("<HHIQ16sIIHHI", 49, 64 + 48, len(data), off, fid, 0,
                       0, 0, 0, 0) + data
    return call_csn(t, WRITE, body, csn, flags)


def eof_csn(t, fid, size, csn):
    body = struct.pack("<HBBIHHI16s", 33, 1, 20, 8, 64 + 32, 0, 0,
                       fid) + struct.pack("<Q", size)
    return call_csn(t, SET_INFO, body, csn)


def zero_csn(t, fid, off, end, csn):
    data = struct.pack("<QQ", off, end)
    body = struct.pack("<HHI16sIIIIIIII", 57, 0, 0x000980C8, fid, 64 + 56,
                       len(data), 0, 0, 0, 0, 1, 0) + data
    return call_csn(t, IOCTL, body, csn)


def csn_file(t, name, csn=0):
    r = call_csn(t, CREATE, create_body(name, access=GENERIC_ALL_RW,
                                        disp=OVERWRITE_IF), csn)
    expect_status(r, "SUCCESS", "create")
    return Created(r).fid_bytes


@case
def case_channel_sequence_stale_refused(env):
    """The open takes its CREATE's ChannelSequence; a newer one on WRITE
    becomes the open's; WRITE, SET_INFO and IOCTL with an older one are
    FILE_NOT_AVAILABLE and change nothing, READ with it still reads; the
    comparison is 16-bit with wrap (0x7FFF ahead is newer, 0x8000 older)."""
    t = Tree(env)
    name = "mchan-csn-%d.dat" % os.getpid()
    fid = csn_file(t, name, csn=5)
    expect_status(write_csn(t, fid, b"A" * 8, 0, 5), "SUCCESS", "csn 5")
    expect_status(write_csn(t, fid, b"B" * 8, 0, 7), "SUCCESS", "csn 7")
    expect_status(write_csn(t, fid, b"C" * 8, 0, 6), "FILE_NOT_AVAILABLE",
                  "WRITE with csn 6 after 7")
    expect_status(write_csn(t, fid, b"C" * 8, 0, 4), "FILE_NOT_AVAILABLE",
                  "WRITE with csn 4 (older than the CREATE's)")
    expect_status(eof_csn(t, fid, 2, 6), "FILE_NOT_AVAILABLE",
                  "SET_INFO with csn 6")
    expect_status(zero_csn(t, fid, 0, 4, 6), "FILE_NOT_AVAILABLE",
                  "IOCTL with csn 6")
    body = struct.pack("<HBBIQ16sIIIHH", 49, 0, 0, 8, 0, fid, 0, 0, 0, 0,
                       0) + b"\0"
    r = call_csn(t, READ, body, 6)
    expect_status(r, "SUCCESS", "READ with csn 6")
    doff = r.body[2]
    expect_eq(r.raw[doff:doff + 8], b"B" * 8, "what the stale requests left")
    expect_status(write_csn(t, fid, b"D" * 8, 0, 7), "SUCCESS", "csn 7 again")
    expect_status(write_csn(t, fid, b"E", 0, 7 + 0x8000),
                  "FILE_NOT_AVAILABLE", "0x8000 ahead counts as older")
    expect_status(write_csn(t, fid, b"F", 0, 7 + 0x7FFF), "SUCCESS",
                  "0x7FFF ahead is newer")
    expect_status(write_csn(t, fid, b"G", 0, 7), "FILE_NOT_AVAILABLE",
                  "csn 7 after it")
    expect_status(write_csn(t, fid, b"H", 0, 6 + 0x7FFF, flags=0x20000000),
                  "FILE_NOT_AVAILABLE", "a replay older than the open's")
    t.close(fid)
    t.bye()


@case
def case_channel_sequence_not_on_2x(env):
    """SMB 2.1 has no ChannelSequence (the field is Status, 0): any value
    there is ignored."""
    t = Tree(env, dialect=0x0210)
    name = "mchan-csn21-%d.dat" % os.getpid()
    fid = csn_file(t, name)
    expect_status(write_csn(t, fid, b"A", 0, 9), "SUCCESS", "value 9")
    expect_status(write_csn(t, fid, b"B", 0, 3), "SUCCESS", "value 3")
    t.close(fid)
    t.bye()


def main():
    return case_main(__doc__, "smb2mchan", CASES)


if __name__ == "__main__":
    sys.exit(main())
