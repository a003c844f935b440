# SPDX-License-Identifier: GPL-2.0-or-later
"""The hostile client's toolbox: an SMB2 connection whose every byte is under
the caller's control, with just enough of a real client (NTLMv2 session
setup, signing, tree connect, create) to reach each handler, and request
bodies laid out as MS-SMB2 2.2 describes them so that cases can corrupt one
field at a time.
"""
import os
import socket
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from smb2 import client, create, crypto, ntlm, spnego, wire  # noqa: E402,F401
from smb2.crypto import aes_cmac, aes_gmac, kdf  # noqa: E402,F401
from smb2.spnego import der, spnego_init, spnego_resp  # noqa: E402,F401
from smb2.wire import Dropped, Response, split_compound  # noqa: E402,F401
from smb2.wire import (NEGOTIATE, SESSION_SETUP, LOGOFF,  # noqa: E402,F401
                       TREE_CONNECT, TREE_DISCONNECT, CREATE, CLOSE, FLUSH,
                       READ, WRITE, LOCK, IOCTL, CANCEL, ECHO,
                       QUERY_DIRECTORY, CHANGE_NOTIFY, QUERY_INFO, SET_INFO,
                       OPLOCK_BREAK, CMD_NAMES, FLAG_RESPONSE, FLAG_ASYNC,
                       FLAG_RELATED, FLAG_SIGNED, HDR)

# Cryptodome loads on its first use, seconds in a loaded TCG guest: here,
# not between a NEGOTIATE and its session's end, which adversarial.sh
# bounds to 15 s (session_timeout_s).
crypto.nt_hash("")

# NT status values by their bare names (SUCCESS, ACCESS_DENIED, ...)
globals().update(wire.ST)
STATUS_NAMES = wire.STATUS_NAMES


def sname(status):
    return "%s(0x%08x)" % (STATUS_NAMES.get(status, "?"), status)


class Skip(Exception):
    """The server cannot be driven this deep yet."""


class CaseFailure(AssertionError):
    pass


def expect(cond, msg):
    if not cond:
        raise CaseFailure(msg)


def expect_status(r, allowed, what):
    if isinstance(allowed, int):
        allowed = (allowed,)
    if r.status not in allowed:
        raise CaseFailure("%s: got %s, expected %s" % (
            what, sname(r.status), " or ".join(sname(a) for a in allowed)))


def expect_body(r, n, what):
    """A response body of at least n bytes (its fixed part)."""
    if len(r.body) < n:
        raise CaseFailure("%s: %s response with a %d-byte body (command %d)"
                          % (what, sname(r.status), len(r.body), r.command))


def is_error(status):
    return status >= 0xC0000000


RELATED_FID = b"\xff" * 16
NO_FID = b"\x00" * 16

# ---- request bodies (MS-SMB2 2.2.x), fixed part first ---------------------

# Where each command's fixed part ends, counted from the body start, and
# the minimal valid body for it (no variable buffers).
FIXED = {SESSION_SETUP: 24, LOGOFF: 4, TREE_CONNECT: 8, TREE_DISCONNECT: 4,
         CREATE: 56, CLOSE: 24, FLUSH: 24, READ: 48, WRITE: 48, LOCK: 48,
         IOCTL: 56, CANCEL: 4, ECHO: 4, QUERY_DIRECTORY: 32,
         CHANGE_NOTIFY: 32, QUERY_INFO: 40, SET_INFO: 32, OPLOCK_BREAK: 24,
         NEGOTIATE: 36}
STRUCTURE_SIZE = {SESSION_SETUP: 25, LOGOFF: 4, TREE_CONNECT: 9,
                  TREE_DISCONNECT: 4, CREATE: 57, CLOSE: 24, FLUSH: 24,
                  READ: 49, WRITE: 49, LOCK: 48, IOCTL: 57, CANCEL: 4,
                  ECHO: 4, QUERY_DIRECTORY: 33, CHANGE_NOTIFY: 32,
                  QUERY_INFO: 41, SET_INFO: 33, OPLOCK_BREAK: 24,
                  NEGOTIATE: 36}

# (command, name, offset field at, width, length field at, width): the
# variable buffers a request names by offset and length.
BUFFERS = [
    (SESSION_SETUP, "security_buffer", 12, 2, 14, 2),
    (TREE_CONNECT, "path", 4, 2, 6, 2),
    (CREATE, "name", 44, 2, 46, 2),
    (CREATE, "contexts", 48, 4, 52, 4),
    (READ, "channel_info", 44, 2, 46, 2),
    (WRITE, "data", 2, 2, 4, 4),
    (WRITE, "channel_info", 40, 2, 42, 2),
    (IOCTL, "input", 24, 4, 28, 4),
    (IOCTL, "output", 36, 4, 40, 4),
    (QUERY_DIRECTORY, "file_name", 24, 2, 26, 2),
    (QUERY_INFO, "input", 8, 2, 12, 4),
    (SET_INFO, "buffer", 8, 2, 4, 4),
]


def utf16(s):
    return s.encode("utf-16-le")


def body_session_setup(blob, flags=0, sec_mode=1, prev=0):
    return struct.pack("<HBBIIHHQ", 25, flags, sec_mode, 0, 0,
                       88 if blob else 0, len(blob), prev) + blob


def body_tree_connect(path, flags=0):
    p = utf16(path)
    return struct.pack("<HHHH", 9, flags, 72, len(p)) + p


def body_simple():
    return struct.pack("<HH", 4, 0)


# CREATE defaults: generic read+write, share all, open-if, non-directory.
GENERIC_ALL_RW = create.GENERIC_ALL_RW
FILE_OPEN, FILE_CREATE, FILE_OPEN_IF, FILE_OVERWRITE_IF = 1, 2, 3, 5
OPT_DIRECTORY, OPT_NON_DIRECTORY = 0x1, 0x40


def body_create(name, access=GENERIC_ALL_RW, disposition=FILE_OPEN_IF,
                options=OPT_NON_DIRECTORY, contexts=b"", share=7, attrs=0x80,
                oplock=0):
    return create.create_body(name, access, disposition, options, share,
                              contexts, attrs, oplock)


create_context = create.create_ctx


def body_close(fid, flags=0):
    return struct.pack("<HHI16s", 24, flags, 0, fid)


def body_flush(fid):
    return struct.pack("<HHI16s", 24, 0, 0, fid)


def body_read(fid, length, offset=0):
    return struct.pack("<HBBIQ16sIIIHH", 49, 0, 0, length, offset, fid, 0,
                       0, 0, 0, 0) + b"\0"


def body_write(fid, data, offset=0, data_offset=112, length=None):
    return struct.pack("<HHIQ16sIIHHI", 49, data_offset,
                       len(data) if length is None else length, offset, fid,
                       0, 0, 0, 0, 0) + data


LOCK_SHARED, LOCK_EXCLUSIVE, LOCK_UNLOCK, LOCK_FAIL_IMMEDIATELY = 1, 2, 4, 16


def body_lock(fid, elements):
    """elements: (offset, length, flags) tuples."""
    body = struct.pack("<HHI16s", 48, len(elements), 0, fid)
    for off, length, flags in elements:
        body += struct.pack("<QQII", off, length, flags, 0)
    return body


def body_ioctl(fid, ctl, data=b"", max_out=1024, flags=1):
    return struct.pack("<HHI16sIIIIIIII", 57, 0, ctl, fid,
                       120 if data else 0, len(data), 0, 0, 0, max_out,
                       flags, 0) + (data or b"\0" * 8)


def body_query_directory(fid, pattern="*", out_len=4096, info_class=0x25,
                         flags=0):
    p = utf16(pattern)
    return struct.pack("<HBBI16sHHI", 33, info_class, flags, 0, fid,
                       96 if p else 0, len(p), out_len) + (p or b"\0")


INFO_FILE, INFO_FS, INFO_SECURITY = 1, 2, 3


def body_query_info(fid, info_type=INFO_FILE, info_class=0x12,
                    out_len=4096, add_info=0, input_buf=b""):
    return struct.pack("<HBBIHHIII16s", 41, info_type, info_class, out_len,
                       104 if input_buf else 0, 0, len(input_buf), add_info,
                       0, fid) + (input_buf or b"\0")


def body_set_info(fid, info_type, info_class, buf, add_info=0):
    return struct.pack("<HBBIHHI16s", 33, info_type, info_class, len(buf),
                       96, 0, add_info, fid) + buf


def body_change_notify(fid, out_len=1024):
    return struct.pack("<HHI16sII", 32, 0, out_len, fid, 0x17, 0)


def body_oplock_break(fid):
    return struct.pack("<HBBI16s", 24, 0, 0, 0, fid)


def minimal_body(cmd, fid=NO_FID):
    """A well-formed request of every command (for gate cases)."""
    if cmd == SESSION_SETUP:
        return body_session_setup(b"\x60\x00")
    if cmd == TREE_CONNECT:
        return body_tree_connect("\\\\127.0.0.1\\share")
    if cmd == CREATE:
        return body_create("adv_gate.txt")
    if cmd == CLOSE:
        return body_close(fid)
    if cmd == FLUSH:
        return body_flush(fid)
    if cmd == READ:
        return body_read(fid, 16)
    if cmd == WRITE:
        return body_write(fid, b"x" * 16)
    if cmd == LOCK:
        return body_lock(fid, [(0, 1, LOCK_EXCLUSIVE | LOCK_FAIL_IMMEDIATELY)])
    if cmd == IOCTL:
        return body_ioctl(fid, 0x00060194, b"\0" * 8)
    if cmd == QUERY_DIRECTORY:
        return body_query_directory(fid)
    if cmd == CHANGE_NOTIFY:
        return body_change_notify(fid)
    if cmd == QUERY_INFO:
        return body_query_info(fid)
    if cmd == SET_INFO:
        return body_set_info(fid, INFO_FILE, 0x14, struct.pack("<Q", 0))
    if cmd == OPLOCK_BREAK:
        return body_oplock_break(fid)
    if cmd == NEGOTIATE:
        return wire.negotiate_body([0x0210])
    return body_simple()


# ---- SPNEGO: tests/smb2's, with the bare OIDs hostile DER is built from ----

OID_SPNEGO = spnego.SPNEGO_OID[2:]
OID_NTLMSSP = spnego.NTLMSSP_OID[2:]


def spnego_token(blob):
    """The NTLMSSP token inside a server's NegTokenResp (first one found)."""
    try:
        return spnego.find_ntlmssp(blob)
    except AssertionError:
        raise CaseFailure("no NTLMSSP token in the server's security blob")


# ---- the connection -------------------------------------------------------

class Client:
    """One TCP connection. Requests are built from (command, body, header
    overrides); signing is applied when the session has a key."""

    def __init__(self, env, timeout=10, source=None):
        self.env = env
        self.conn = client.Conn(env.host, env.port, timeout=timeout,
                                source=source)
        self.sock = self.conn.sock
        self.mid = 0
        self.sess = 0
        self.tree = 0
        self.dialect = None
        self.sign_alg = None
        self.key = None
        self.preauth = b"\0" * 64
        self.max_read = self.max_write = self.max_trans = 65536
        self.granted = 1

    # -- framing
    def close(self):
        self.conn.close()

    def rst(self):
        """Abort the connection with a TCP RST instead of a FIN."""
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                 struct.pack("ii", 1, 0))
        except OSError:
            pass
        self.close()

    def send_raw(self, data):
        self.conn.send_raw(data)

    def send_frame(self, payload):
        self.conn.send_frame(payload)

    def recv_frame(self):
        return self.conn.recv_frame()

    def is_dropped(self, wait=5.0):
        return self.conn.is_dropped(wait)

    def next_mid(self, charge=1):
        m = self.mid
        self.mid += max(charge, 1)
        return m

    def header(self, cmd, mid, credit_req=64, flags=0, next_cmd=0, charge=0,
               sess=None, tree=None, status=0):
        return wire.header(cmd, mid, credit_req, flags, next_cmd, charge,
                           self.sess if sess is None else sess,
                           self.tree if tree is None else tree, status)

    def sign(self, elem):
        return crypto.sign_message(self.sign_alg, self.key, elem)

    def element(self, cmd, body, mid=None, charge=None, sign=None, **kw):
        if charge is None:
            charge = self.default_charge(cmd, body)
        if mid is None:
            mid = self.next_mid(charge)
        elem = self.header(cmd, mid, charge=charge, **kw) + body
        if sign is None:
            sign = self.key is not None and cmd not in (NEGOTIATE,
                                                        SESSION_SETUP)
        return self.sign(elem) if sign else elem

    def default_charge(self, cmd, body):
        if self.dialect is None or self.dialect < 0x0210:
            return 0
        payload = 0
        if cmd == READ and len(body) >= 8:
            payload = struct.unpack_from("<I", body, 4)[0]
        elif cmd == WRITE and len(body) >= 8:
            payload = struct.unpack_from("<I", body, 4)[0]
        elif cmd in (QUERY_INFO, CHANGE_NOTIFY) and len(body) >= 8:
            payload = struct.unpack_from("<I", body, 4)[0]
        elif cmd == QUERY_DIRECTORY and len(body) >= 32:
            payload = struct.unpack_from("<I", body, 28)[0]
        elif cmd == IOCTL and len(body) >= 48:
            payload = max(struct.unpack_from("<I", body, 28)[0],
                          struct.unpack_from("<I", body, 44)[0])
        units = (payload - 1) // 65536 + 1 if payload else 1
        return min(units, 512)

    def recv(self):
        """The next response that is not an interim or a break notice."""
        while True:
            raw = self.recv_frame()
            r = Response(raw)
            if r.status == PENDING and r.flags & FLAG_ASYNC:
                continue
            if r.mid == 0xFFFFFFFFFFFFFFFF:
                continue
            if r.next:
                r.parts = split_compound(raw)
            else:
                r.parts = [r]
            if r.credits:
                self.granted = r.credits
            return r

    def call(self, cmd, body, **kw):
        self.send_frame(self.element(cmd, body, **kw))
        return self.recv()

    def compound(self, items, related=True):
        """items: (cmd, body, header overrides); returns the raw frame.
        Elements after the first are RELATED unless related=False."""
        elems = []
        for i, (cmd, body, kw) in enumerate(items):
            kw = dict(kw)
            if related and i:
                kw["flags"] = kw.get("flags", 0) | FLAG_RELATED
                kw.setdefault("sess", 0xFFFFFFFFFFFFFFFF)
                kw.setdefault("tree", 0xFFFFFFFF)
            elems.append([cmd, body, kw])
        out = b""
        for i, (cmd, body, kw) in enumerate(elems):
            last = i == len(elems) - 1
            size = 64 + len(body)
            padded = size if last else (size + 7) & ~7
            if not last:
                kw.setdefault("next_cmd", padded)
            # Signed over the padded element (MS-SMB2 3.2.4.1.4).
            want_sign = kw.pop("sign", True)
            el = self.element(cmd, body + b"\0" * (padded - size),
                              sign=False, **kw)
            if self.key is not None and want_sign:
                el = self.sign(el)
            out += el
        return out

    def call_compound(self, items, related=True):
        self.send_frame(self.compound(items, related))
        return self.recv().parts

    def alive(self):
        """The connection still answers an ECHO."""
        try:
            r = self.call(ECHO, body_simple(), sign=False)
        except (Dropped, OSError):
            return False
        return r.status == SUCCESS

    # -- the real-client steps
    def negotiate(self, dialects=(0x0311,), contexts=None, guid=None):
        """guid: the ClientGuid (the shared default when None)."""
        body = wire.negotiate_body(list(dialects), contexts) \
            if guid is None else \
            wire.negotiate_body(list(dialects), contexts, guid)
        req = self.header(NEGOTIATE, self.next_mid(), credit_req=64) + body
        self.send_frame(req)
        raw = self.recv_frame()
        r = Response(raw)
        if r.status != SUCCESS:
            return r
        n = r.negotiate()
        self.dialect = n["dialect"]
        self.max_read, self.max_write = n["max_read"], n["max_write"]
        self.max_trans = n["max_trans"]
        self.granted = r.credits
        if self.dialect == 0x0311:
            self.preauth = crypto.sha512_chain(self.preauth, req)
            self.preauth = crypto.sha512_chain(self.preauth, raw)
            sig = n["contexts"].get(wire.CTX_SIGNING)
            self.sign_alg = struct.unpack_from("<H", sig, 2)[0] if sig \
                else 1
        else:
            self.sign_alg = 1 if self.dialect >= 0x0300 else 0
        return r

    def session_setup_raw(self, blob, sess=None, flags=0, prev=0):
        req = self.element(SESSION_SETUP,
                           body_session_setup(blob, flags=flags, prev=prev),
                           sess=sess)
        self.send_frame(req)
        raw = self.recv_frame()
        return req, raw, Response(raw)

    def login(self, user=None, password=None, prev=0):
        """NTLMv2 through SPNEGO. Returns the final response; the session
        id and signing key are set on success. prev: the PreviousSessionId
        the last leg names (the server ends that session of the user)."""
        user = self.env.user if user is None else user
        password = self.env.password if password is None else password
        hash_ = self.preauth
        req, raw, r = self.session_setup_raw(spnego_init(ntlm.negotiate()))
        if r.status != MORE_PROCESSING_REQUIRED:
            return r
        hash_ = crypto.sha512_chain(crypto.sha512_chain(hash_, req), raw)
        self.sess = r.session
        _, challenge, tinfo = ntlm.parse_challenge(
            spnego_token(client.security_blob(r)))
        t3, key = ntlm.authenticate(user, password, "", challenge, tinfo)
        req, raw, r = self.session_setup_raw(spnego_resp(t3), prev=prev)
        hash_ = crypto.sha512_chain(hash_, req)
        if r.status != SUCCESS:
            return r
        self.key = crypto.signing_key(self.dialect, key, hash_)
        self.session_key = key
        return r

    def tree_connect(self, share=None):
        share = self.env.share if share is None else share
        r = self.call(TREE_CONNECT,
                      body_tree_connect("\\\\%s\\%s" % (self.env.host, share)),
                      tree=0)
        if r.status == SUCCESS:
            self.tree = struct.unpack_from("<I", r.raw, 36)[0]
        return r

    def create(self, name, **kw):
        r = self.call(CREATE, body_create(name, **kw))
        r.fid = r.body[64:80] if r.status == SUCCESS else None
        return r

    def close_file(self, fid):
        return self.call(CLOSE, body_close(fid))


def fresh_ok(env, timeout=10):
    """A new connection negotiates and echoes."""
    c = Client(env, timeout=timeout)
    try:
        r = c.negotiate()
        if r.status != SUCCESS:
            return "negotiate answered %s" % sname(r.status)
        if not c.alive():
            return "echo failed"
    except (Dropped, OSError) as e:
        return "%s: %s" % (type(e).__name__, e)
    finally:
        c.close()
    return None


def wait_until(pred, secs, step=0.1):
    end = time.monotonic() + secs
    while True:
        if pred():
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(step)
