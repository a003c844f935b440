# SPDX-License-Identifier: GPL-2.0-or-later
"""The hostile client's toolbox: an SMB2 connection whose every byte is under
the caller's control, with just enough of a real client (NTLMv2 session
setup, signing, tree connect, create) to reach each handler, and request
bodies laid out as MS-SMB2 2.2 describes them so that cases can corrupt one
field at a time.
"""
import hashlib
import hmac
import os
import socket
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "vm", "clients"))
import smb2raw  # noqa: E402

from smb2raw import Dropped, Response, split_compound  # noqa: E402,F401

HDR = smb2raw.HDR

# Commands (MS-SMB2 2.2.1.2)
NEGOTIATE, SESSION_SETUP, LOGOFF, TREE_CONNECT, TREE_DISCONNECT = 0, 1, 2, 3, 4
CREATE, CLOSE, FLUSH, READ, WRITE, LOCK, IOCTL, CANCEL, ECHO = range(5, 14)
QUERY_DIRECTORY, CHANGE_NOTIFY, QUERY_INFO, SET_INFO, OPLOCK_BREAK = range(14, 19)
CMD_NAMES = ["negotiate", "session_setup", "logoff", "tree_connect",
             "tree_disconnect", "create", "close", "flush", "read", "write",
             "lock", "ioctl", "cancel", "echo", "query_directory",
             "change_notify", "query_info", "set_info", "oplock_break"]

FLAG_RESPONSE, FLAG_ASYNC, FLAG_RELATED, FLAG_SIGNED = 0x1, 0x2, 0x4, 0x8

# NT status values (MS-ERREF 2.3.1)
SUCCESS = 0
PENDING = 0x00000103
BUFFER_OVERFLOW = 0x80000005
NO_MORE_FILES = 0x80000006
INVALID_EA_NAME = 0x80000013
EA_LIST_INCONSISTENT = 0x80000014
STOPPED_ON_SYMLINK = 0x8000002D
NOT_IMPLEMENTED = 0xC0000002
INVALID_INFO_CLASS = 0xC0000003
INFO_LENGTH_MISMATCH = 0xC0000004
INVALID_HANDLE = 0xC0000008
INVALID_PARAMETER = 0xC000000D
NO_SUCH_FILE = 0xC000000F
INVALID_DEVICE_REQUEST = 0xC0000010
END_OF_FILE = 0xC0000011
MORE_PROCESSING_REQUIRED = 0xC0000016
ACCESS_DENIED = 0xC0000022
BUFFER_TOO_SMALL = 0xC0000023
OBJECT_NAME_INVALID = 0xC0000033
OBJECT_NAME_NOT_FOUND = 0xC0000034
OBJECT_NAME_COLLISION = 0xC0000035
OBJECT_PATH_INVALID = 0xC0000039
OBJECT_PATH_NOT_FOUND = 0xC000003A
OBJECT_PATH_SYNTAX_BAD = 0xC000003B
EAS_NOT_SUPPORTED = 0xC000004F
EA_TOO_LARGE = 0xC0000050
NONEXISTENT_EA_ENTRY = 0xC0000051
LOCK_NOT_GRANTED = 0xC0000055
LOGON_FAILURE = 0xC000006D
INVALID_SECURITY_DESCR = 0xC0000079
RANGE_NOT_LOCKED = 0xC000007E
DISK_FULL = 0xC000007F
INSUFFICIENT_RESOURCES = 0xC000009A
FILE_IS_A_DIRECTORY = 0xC00000BA
NOT_SUPPORTED = 0xC00000BB
BAD_NETWORK_PATH = 0xC00000BE
NETWORK_NAME_DELETED = 0xC00000C9
INTERNAL_ERROR = 0xC00000E5
BAD_NETWORK_NAME = 0xC00000CC
REQUEST_NOT_ACCEPTED = 0xC00000D0
NOT_SAME_DEVICE = 0xC00000D4
NOT_A_DIRECTORY = 0xC0000103
TOO_MANY_OPENED_FILES = 0xC000011F
FILE_CLOSED = 0xC0000128
INVALID_LOCK_RANGE = 0xC00001A1
USER_SESSION_DELETED = 0xC0000203
NETWORK_SESSION_EXPIRED = 0xC000035C
INVALID_SID = 0xC0000078
INVALID_ACL = 0xC0000077
INVALID_OWNER = 0xC000005A

STATUS_NAMES = {v: k for k, v in globals().items()
                if k.isupper() and isinstance(v, int) and
                (v >= 0x80000000 or k in ("SUCCESS", "PENDING"))}


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
GENERIC_ALL_RW = 0x0012019F
FILE_OPEN, FILE_CREATE, FILE_OPEN_IF, FILE_OVERWRITE_IF = 1, 2, 3, 5
OPT_DIRECTORY, OPT_NON_DIRECTORY = 0x1, 0x40


def body_create(name, access=GENERIC_ALL_RW, disposition=FILE_OPEN_IF,
                options=OPT_NON_DIRECTORY, contexts=b"", share=7, attrs=0x80,
                oplock=0):
    n = utf16(name)
    fixed = struct.pack("<HBBIQQIIIIIHHII", 57, 0, oplock, 2, 0, 0, access,
                        attrs, share, disposition, options, 120 if n else 0,
                        len(n), 0, 0)
    body = fixed + n
    if contexts:
        pad = (8 - (64 + len(body)) % 8) % 8
        body += b"\0" * pad
        off = 64 + len(body)
        body = body[:48] + struct.pack("<II", off, len(contexts)) + \
            body[56:] + contexts
    elif not n:
        body += b"\0"
    return body


def create_context(tag, data):
    """One create context (MS-SMB2 2.2.13.2), last in its chain."""
    name_off = 16
    data_off = (name_off + len(tag) + 7) & ~7 if data else 0
    out = struct.pack("<IHHHHI", 0, name_off, len(tag), 0, data_off,
                      len(data)) + tag
    if data:
        out += b"\0" * (data_off - len(out)) + data
    return out


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
        return smb2raw.negotiate_body([0x0210])
    return body_simple()


# ---- SPNEGO (MS-SPNG, RFC 4178) by hand: hostile cases need bad DER -------

OID_SPNEGO = bytes.fromhex("2b0601050502")
OID_NTLMSSP = bytes.fromhex("2b0601040182370202 0a".replace(" ", ""))


def der(tag, content, length=None):
    n = len(content) if length is None else length
    if n < 0x80:
        ln = bytes([n])
    else:
        b = n.to_bytes((n.bit_length() + 7) // 8, "big")
        ln = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + ln + content


def spnego_init(mech_token):
    mechs = der(0x30, der(0x06, OID_NTLMSSP))
    inner = der(0x30, der(0xA0, mechs) + der(0xA2, der(0x04, mech_token)))
    return der(0x60, der(0x06, OID_SPNEGO) + der(0xA0, inner))


def spnego_resp(token):
    return der(0xA1, der(0x30, der(0xA2, der(0x04, token))))


def spnego_token(blob):
    """The NTLMSSP token inside a server's NegTokenResp (first one found)."""
    i = blob.find(b"NTLMSSP\0")
    if i < 0:
        raise CaseFailure("no NTLMSSP token in the server's security blob")
    return blob[i:]


# ---- keys and signatures (MS-SMB2 3.1.4.1, 3.1.4.2) ----------------------

def kdf(key, label, context):
    """SP800-108 counter mode with HMAC-SHA256, 128-bit output."""
    data = struct.pack(">I", 1) + label + b"\0" + context + \
        struct.pack(">I", 128)
    return hmac.new(key, data, hashlib.sha256).digest()[:16]


def aes_cmac(key, data):
    from cryptography.hazmat.primitives import cmac
    from cryptography.hazmat.primitives.ciphers import algorithms
    c = cmac.CMAC(algorithms.AES(key))
    c.update(data)
    return c.finalize()


def aes_gmac(key, elem):
    """AES-GMAC signing (3.1.1): GCM over nothing with the element as
    associated data; nonce = MessageId, then bit 0 for the server, bit 1 for
    a CANCEL request (MS-SMB2 3.1.4.1)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    cmd, = struct.unpack_from("<H", elem, 12)
    flags, = struct.unpack_from("<I", elem, 16)
    word = (flags & 1) | (2 if cmd == CANCEL and not flags & 1 else 0)
    nonce = elem[24:32] + struct.pack("<I", word)
    return AESGCM(key).encrypt(nonce, b"", elem)


# ---- the connection -------------------------------------------------------

class Client:
    """One TCP connection. Requests are built from (command, body, header
    overrides); signing is applied when the session has a key."""

    def __init__(self, env, timeout=10, source=None):
        self.env = env
        self.conn = smb2raw.Conn(env.host, env.port, timeout=timeout,
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
        return HDR.pack(b"\xfeSMB", 64, charge, status, cmd, credit_req,
                        flags, next_cmd, mid, 0xFEFF,
                        self.tree if tree is None else tree,
                        self.sess if sess is None else sess, b"\0" * 16)

    def sign(self, elem):
        elem = bytearray(elem)
        flags = struct.unpack_from("<I", elem, 16)[0] | FLAG_SIGNED
        struct.pack_into("<I", elem, 16, flags)
        elem[48:64] = b"\0" * 16
        if self.sign_alg == 2:
            mac = aes_gmac(self.key, bytes(elem))
        elif self.sign_alg == 1:
            mac = aes_cmac(self.key, bytes(elem))
        else:
            mac = hmac.new(self.key, bytes(elem), hashlib.sha256).digest()
        elem[48:64] = mac[:16]
        return bytes(elem)

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
        body = smb2raw.negotiate_body(list(dialects), contexts) \
            if guid is None else \
            smb2raw.negotiate_body(list(dialects), contexts, guid)
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
            self.preauth = hashlib.sha512(self.preauth + req).digest()
            self.preauth = hashlib.sha512(self.preauth + raw).digest()
            sig = n["contexts"].get(smb2raw.CTX_SIGNING)
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
        from impacket import ntlm
        user = self.env.user if user is None else user
        password = self.env.password if password is None else password
        t1 = ntlm.getNTLMSSPType1("", "", signingRequired=False)
        hash_ = self.preauth
        req, raw, r = self.session_setup_raw(spnego_init(t1.getData()))
        if r.status != MORE_PROCESSING_REQUIRED:
            return r
        hash_ = hashlib.sha512(hash_ + req).digest()
        hash_ = hashlib.sha512(hash_ + raw).digest()
        self.sess = r.session
        off, ln = struct.unpack_from("<HH", r.body, 4)
        challenge = spnego_token(raw[off:off + ln])
        t3, key = ntlm.getNTLMSSPType3(t1, challenge, user, password, "")
        req, raw, r = self.session_setup_raw(spnego_resp(t3.getData()),
                                             prev=prev)
        hash_ = hashlib.sha512(hash_ + req).digest()
        if r.status != SUCCESS:
            return r
        if self.dialect == 0x0311:
            self.key = kdf(key, b"SMBSigningKey\0", hash_)
        elif self.dialect >= 0x0300:
            self.key = kdf(key, b"SMB2AESCMAC\0", b"SmbSign\0")
        else:
            self.key = key.ljust(16, b"\0")
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
