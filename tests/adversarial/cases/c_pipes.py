# SPDX-License-Identifier: GPL-2.0-or-later
"""Named pipes on IPC$: hostile DCE/RPC bytes go through the kernel to the
daemon (rows 39, 47, 58 from the client's side), and an oplock break
shape across two connections (row 48)."""
import struct
import threading
import time

import advlib
from advlib import (expect, expect_body, expect_status, sname, is_error, SUCCESS,
                    NOT_IMPLEMENTED, CREATE, READ, WRITE, IOCTL, CLOSE,
                    body_create, body_read, body_write, body_ioctl,
                    body_close)
from suite import case

PIPE_TRANSCEIVE = 0x0011C017


def pipe_client(env, name="srvsvc"):
    c = env.client("session")
    env.need("tree")
    r = c.tree_connect("IPC$")
    env.not_impl(c, r, "TREE_CONNECT")
    expect_status(r, SUCCESS, "TREE_CONNECT IPC$")
    r = c.call(CREATE, body_create(name, disposition=advlib.FILE_OPEN,
                                   options=0, attrs=0))
    env.not_impl(c, r, "CREATE")
    expect_status(r, SUCCESS, "open pipe %s" % name)
    c.fid = r.body[64:80]
    return c


def rpc_hdr(ptype, frag_len, auth_len=0, call_id=1, flags=3):
    return struct.pack("<BBBB4sHHI", 5, 0, ptype, flags, b"\x10\0\0\0",
                       frag_len, auth_len, call_id)


def bind_pdu(n_ctx=1, frag_len=None, auth_len=0):
    body = struct.pack("<HHIBxxx", 4280, 4280, 0, n_ctx)
    # srvsvc 4b324fc8-1670-01d3-1278-5a47bf6ee188 v3.0, NDR transfer syntax
    body += struct.pack("<HBx", 0, 1) + \
        bytes.fromhex("c84f324b7016d30112785a47bf6ee188") + \
        struct.pack("<HH", 3, 0) + \
        bytes.fromhex("045d888aeb1cc9119fe808002b104860") + \
        struct.pack("<I", 2)
    n = 16 + len(body) if frag_len is None else frag_len
    return rpc_hdr(11, n, auth_len) + body


HOSTILE_PDUS = {
    "frag length 0xFFFF": bind_pdu(frag_len=0xFFFF),
    "frag length 4": bind_pdu(frag_len=4),
    "auth length past frag": bind_pdu(auth_len=0x4000),
    "context count 255": bind_pdu(n_ctx=255),
    "version 4": b"\x04" + bind_pdu()[1:],
    "request before bind": rpc_hdr(0, 24 + 8) + struct.pack("<IHH", 8, 0,
                                                             15) + b"\0" * 8,
    "16 bytes of header only": rpc_hdr(11, 16),
}


@case("pipes", "hostile DCE/RPC PDUs written to srvsvc and sent by "
      "FSCTL_PIPE_TRANSCEIVE: each answered (error, fault PDU or bind_nak), "
      "the pipe and the daemon keep working (a good login after)")
def case_pipe_garbage_rpc(env):
    for what, pdu in HOSTILE_PDUS.items():
        c = pipe_client(env)
        w = c.call(WRITE, body_write(c.fid, pdu))
        env.not_impl(c, w, "WRITE")
        if w.status == SUCCESS:
            r = c.call(READ, body_read(c.fid, 4280))
            if r.status == SUCCESS:
                expect_body(r, 16, what + ": READ")
                off = r.body[2]
                ln = struct.unpack_from("<I", r.body, 4)[0]
                out = r.raw[off:off + ln]
                expect(len(out) < 16 or out[2] in (2, 3, 13),
                       "%s: answered PDU type %s"
                       % (what, out[2] if len(out) > 2 else "(short)"))
        t = c.call(IOCTL, body_ioctl(c.fid, PIPE_TRANSCEIVE, pdu,
                                     max_out=4280))
        if t.status in (SUCCESS, advlib.BUFFER_OVERFLOW):
            expect_body(t, 48, what + ": transceive")
        expect(c.alive(), "%s: connection unusable" % what)
        c.close()
    c = env.client("session")
    c.close()


@case("pipes", "pipe I/O after CLOSE and on a closed IPC$ tree: FILE_CLOSED "
      "or NETWORK_NAME_DELETED")
def case_pipe_after_close(env):
    c = pipe_client(env)
    expect_status(c.call(CLOSE, body_close(c.fid)), SUCCESS, "CLOSE pipe")
    r = c.call(WRITE, body_write(c.fid, bind_pdu()))
    expect_status(r, (advlib.FILE_CLOSED, advlib.INVALID_HANDLE),
                  "WRITE after CLOSE")
    c2 = pipe_client(env)
    expect_status(c2.call(advlib.TREE_DISCONNECT, advlib.body_simple()),
                  SUCCESS, "TREE_DISCONNECT IPC$")
    r = c2.call(IOCTL, body_ioctl(c2.fid, PIPE_TRANSCEIVE, bind_pdu()))
    expect_status(r, (advlib.NETWORK_NAME_DELETED, advlib.FILE_CLOSED),
                  "transceive on a disconnected tree")


@case("pipes", "pipe transceives on 3 connections racing logins on 3 more "
      "for a bounded time (row 47): every transceive answered, every login "
      "SUCCESS", timeout=120)
def case_race_pipe_vs_logins(env):
    env.need("tree")
    errors = []
    end = time.monotonic() + min(env.race_seconds, 10)

    def piper():
        try:
            c = pipe_client(env)
        except advlib.Skip:
            return
        while time.monotonic() < end and not errors:
            r = c.call(IOCTL, body_ioctl(c.fid, PIPE_TRANSCEIVE, bind_pdu(),
                                         max_out=4280))
            if r.status == NOT_IMPLEMENTED:
                return
            if r.status not in (SUCCESS, advlib.BUFFER_OVERFLOW) and \
                    not is_error(r.status):
                errors.append("transceive: %s" % sname(r.status))

    def loginer():
        while time.monotonic() < end and not errors:
            try:
                env.client("session").close()
            except Exception as e:
                errors.append("login: %s: %s" % (type(e).__name__, e))
    ts = [threading.Thread(target=f) for f in (piper,) * 3 + (loginer,) * 3]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    expect(not any(t.is_alive() for t in ts), "a thread hung")
    expect(not errors, errors[0] if errors else "")


@case("pipes", "batch-oplock CREATE on connection A, overwriting CREATE + "
      "CLOSE on B, then both reset, repeated (row 48): every CREATE "
      "answered, server keeps serving", timeout=120)
def case_race_oplock_break_disconnect(env):
    env.need("file")
    end = time.monotonic() + env.race_seconds
    i = 0
    while i < env.race_iters and time.monotonic() < end:
        i += 1
        a = env.client("tree")
        b = env.client("tree")
        r = a.call(CREATE, body_create("adv_oplock.txt", oplock=0x09,
                                       disposition=advlib.FILE_OPEN_IF))
        expect_status(r, SUCCESS, "A's batch-oplock CREATE")
        b.send_frame(b.element(CREATE, body_create(
            "adv_oplock.txt", disposition=advlib.FILE_OVERWRITE_IF)))
        # A never answers a break: it resets, or closes its handle.
        if i % 2:
            a.rst()
        else:
            a.send_frame(a.element(CLOSE, body_close(r.body[64:80])))
        try:
            rb = b.recv()
            expect(rb.status == SUCCESS or is_error(rb.status),
                   "B's CREATE: %s" % sname(rb.status))
            if rb.status == SUCCESS:
                b.send_frame(b.element(CLOSE, body_close(rb.body[64:80])))
        except advlib.Dropped:
            raise advlib.CaseFailure("B dropped")
        b.rst()
        a.rst()
