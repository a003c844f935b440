# SPDX-License-Identifier: GPL-2.0-or-later
"""SMB2 on the wire: the 64-byte header (MS-SMB2 2.2.1), commands, flags,
NT statuses (MS-ERREF 2.3.1), NEGOTIATE bodies and contexts (2.2.3),
responses and compound chains, and the NetBIOS-style length prefix."""
import struct

MAGIC = b"\xfeSMB"
TRANSFORM_MAGIC = b"\xfdSMB"
SMB2_MAGIC = MAGIC
HDR = struct.Struct("<4sHHIHHIIQIIQ16s")  # MS-SMB2 2.2.1.2 (sync form)
assert HDR.size == 64

(NEGOTIATE, SESSION_SETUP, LOGOFF, TREE_CONNECT, TREE_DISCONNECT, CREATE,
 CLOSE, FLUSH, READ, WRITE, LOCK, IOCTL, CANCEL, ECHO, QUERY_DIRECTORY,
 CHANGE_NOTIFY, QUERY_INFO, SET_INFO, OPLOCK_BREAK) = range(19)
CMD_NAMES = ["negotiate", "session_setup", "logoff", "tree_connect",
             "tree_disconnect", "create", "close", "flush", "read", "write",
             "lock", "ioctl", "cancel", "echo", "query_directory",
             "change_notify", "query_info", "set_info", "oplock_break"]

FLAG_RESPONSE, FLAG_ASYNC, FLAG_RELATED, FLAG_SIGNED = 0x1, 0x2, 0x4, 0x8
FLAG_REPLAY = 0x20000000
NOTIFY_MID = 0xFFFFFFFFFFFFFFFF   # MessageId of an unsolicited break
RELATED_SESSION, RELATED_TREE = 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFF

# NEGOTIATE context types (MS-SMB2 2.2.3.1)
CTX_PREAUTH, CTX_ENCRYPTION, CTX_SIGNING = 1, 2, 8

# NT status values: every one a test names, by its name without STATUS_.
ST = dict(
    SUCCESS=0, PENDING=0x103, NOTIFY_CLEANUP=0x10B, NOTIFY_ENUM_DIR=0x10C,
    BUFFER_OVERFLOW=0x80000005, NO_MORE_FILES=0x80000006,
    INVALID_EA_NAME=0x80000013, EA_LIST_INCONSISTENT=0x80000014,
    STOPPED_ON_SYMLINK=0x8000002D,
    UNSUCCESSFUL=0xC0000001, NOT_IMPLEMENTED=0xC0000002,
    INVALID_INFO_CLASS=0xC0000003, INFO_LENGTH_MISMATCH=0xC0000004,
    INVALID_HANDLE=0xC0000008, INVALID_PARAMETER=0xC000000D,
    NO_SUCH_FILE=0xC000000F, INVALID_DEVICE_REQUEST=0xC0000010,
    END_OF_FILE=0xC0000011, MORE_PROCESSING_REQUIRED=0xC0000016,
    ACCESS_DENIED=0xC0000022, BUFFER_TOO_SMALL=0xC0000023,
    OBJECT_NAME_INVALID=0xC0000033, OBJECT_NAME_NOT_FOUND=0xC0000034,
    OBJECT_NAME_COLLISION=0xC0000035, OBJECT_PATH_INVALID=0xC0000039,
    OBJECT_PATH_NOT_FOUND=0xC000003A, OBJECT_PATH_SYNTAX_BAD=0xC000003B,
    SHARING_VIOLATION=0xC0000043, EAS_NOT_SUPPORTED=0xC000004F,
    EA_TOO_LARGE=0xC0000050, NONEXISTENT_EA_ENTRY=0xC0000051,
    FILE_LOCK_CONFLICT=0xC0000054, LOCK_NOT_GRANTED=0xC0000055,
    DELETE_PENDING=0xC0000056, INVALID_OWNER=0xC000005A,
    LOGON_FAILURE=0xC000006D, INVALID_ACL=0xC0000077,
    INVALID_SID=0xC0000078, INVALID_SECURITY_DESCR=0xC0000079,
    RANGE_NOT_LOCKED=0xC000007E, DISK_FULL=0xC000007F,
    INSUFFICIENT_RESOURCES=0xC000009A, FILE_IS_A_DIRECTORY=0xC00000BA,
    NOT_SUPPORTED=0xC00000BB, BAD_NETWORK_PATH=0xC00000BE,
    NETWORK_NAME_DELETED=0xC00000C9, BAD_NETWORK_NAME=0xC00000CC,
    REQUEST_NOT_ACCEPTED=0xC00000D0, NOT_SAME_DEVICE=0xC00000D4,
    INVALID_OPLOCK_PROTOCOL=0xC00000E3, INTERNAL_ERROR=0xC00000E5,
    DIRECTORY_NOT_EMPTY=0xC0000101, NOT_A_DIRECTORY=0xC0000103,
    TOO_MANY_OPENED_FILES=0xC000011F, CANCELLED=0xC0000120,
    FILE_CLOSED=0xC0000128, INVALID_DEVICE_STATE=0xC0000184,
    INVALID_LOCK_RANGE=0xC00001A1, USER_SESSION_DELETED=0xC0000203,
    NOT_A_REPARSE_POINT=0xC0000275, NETWORK_SESSION_EXPIRED=0xC000035C,
    REQUEST_OUT_OF_SEQUENCE=0xC000042A, FILE_NOT_AVAILABLE=0xC0000467,
    FILE_TOO_LARGE=0xC0000904, PRIVILEGE_NOT_HELD=0xC0000061,
    NO_PREAUTH_OVERLAP=0xC05D0000,
)
# The same values as STATUS_<NAME> constants.
globals().update(("STATUS_" + _k, _v) for _k, _v in ST.items())
STATUS_NAMES = {v: k for k, v in ST.items()}


def status_name(v):
    return STATUS_NAMES.get(v, "0x%08x" % v)


class Dropped(Exception):
    """The server closed the connection."""


def expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


def expect_eq(a, b, what):
    if a != b:
        raise AssertionError("%s: got %s, expected %s" %
                             (what, hex(a) if isinstance(a, int) else a,
                              hex(b) if isinstance(b, int) else b))


def expect_status(r, name, what):
    """r's status must be ST[name]."""
    if r.status != ST[name]:
        raise AssertionError("%s: status %s, expected %s" %
                             (what, status_name(r.status), name))


# ---- requests ----------------------------------------------------------------

def header(command, mid, credit_req=1, flags=0, next_cmd=0, charge=0,
           session=0, tree=0, status=0, pid=0xFEFF, sig=b"\0" * 16):
    """A sync-form request header; every field is the caller's."""
    return HDR.pack(MAGIC, 64, charge, status, command, credit_req, flags,
                    next_cmd, mid, pid, tree, session, sig)


smb2_header = header


def cancel_frame(mid, tree, session, aid=None):
    """SMB2 CANCEL (MS-SMB2 2.2.30): the async form naming aid, else the
    sync form naming MessageId mid."""
    if aid is None:
        hdr = HDR.pack(MAGIC, 64, 0, 0, CANCEL, 0, 0, 0, mid, 0xFEFF,
                       tree, session, b"\0" * 16)
    else:
        hdr = HDR.pack(MAGIC, 64, 0, 0, CANCEL, 0, FLAG_ASYNC, 0, mid,
                       aid & 0xFFFFFFFF, aid >> 32, session, b"\0" * 16)
    return hdr + struct.pack("<HH", 4, 0)


def pad8(b):
    return b + b"\0" * ((8 - len(b) % 8) % 8)


def negctx(ctype, data):
    return struct.pack("<HHI", ctype, len(data), 0) + data


def preauth_ctx(algs=(1,), salt=b"\x11" * 32):
    data = struct.pack("<HH", len(algs), len(salt))
    data += b"".join(struct.pack("<H", a) for a in algs) + salt
    return negctx(CTX_PREAUTH, data)


def signing_ctx(algs=(2, 1, 0)):
    return negctx(CTX_SIGNING, struct.pack("<H", len(algs)) +
                  b"".join(struct.pack("<H", a) for a in algs))


def encryption_ctx(ciphers):
    return negctx(CTX_ENCRYPTION, struct.pack("<H", len(ciphers)) +
                  b"".join(struct.pack("<H", c) for c in ciphers))


def negotiate_body(dialects, contexts=None, guid=b"\x42" * 16, caps=0x7f,
                   security_mode=1):
    """NEGOTIATE request body; contexts (list of bytes) only for 3.1.1,
    where None means a preauth and a signing context."""
    if contexts is None:
        contexts = [preauth_ctx(), signing_ctx()] if 0x0311 in dialects else []
    fixed_len = 36 + 2 * len(dialects)
    ctx_off = 0
    tail = b""
    if contexts:
        ctx_off = 64 + fixed_len + (8 - (64 + fixed_len) % 8) % 8
        tail = b"".join(pad8(c) for c in contexts[:-1]) + contexts[-1]
    body = struct.pack("<HHHHI16sIHH", 36, len(dialects), security_mode, 0,
                       caps, guid, ctx_off, len(contexts), 0)
    body += b"".join(struct.pack("<H", d) for d in dialects)
    if contexts:
        body += b"\0" * (ctx_off - 64 - len(body))
        body += tail
    return body


def smb1_negotiate(dialects):
    """An SMB1 NEGOTIATE (MS-CIFS 2.2.4.52) offering dialects, unframed:
    the one SMB1 message an SMB2 server answers (MS-SMB2 3.3.5.3)."""
    data = b"".join(b"\x02" + d + b"\0" for d in dialects)
    hdr = b"\xffSMB" + bytes([0x72]) + b"\0" * 4 + bytes([0x18]) + \
        struct.pack("<H", 0xc853) + b"\0" * 20
    assert len(hdr) == 32
    return hdr + b"\0" + struct.pack("<H", len(data)) + data


# ---- responses ---------------------------------------------------------------

class Response:
    def __init__(self, raw):
        self.raw = raw
        (magic, self.hsize, self.charge, self.status, self.command,
         self.credits, self.flags, self.next, self.mid, _pid, self.tree,
         self.session, self.sig) = HDR.unpack_from(raw, 0)
        if magic != MAGIC:
            raise ValueError("response is not SMB2: %r" % magic)
        self.body = raw[64:]

    @property
    def structure_size(self):
        return struct.unpack_from("<H", self.body, 0)[0]

    @property
    def async_id(self):
        """AsyncId (async form: where ProcessId and TreeId are)."""
        return struct.unpack_from("<Q", self.raw, 32)[0]

    def buffer(self, off_at=2, len_at=4, off_fmt="<H", len_fmt="<I"):
        """The variable buffer the body names by offset (from the header)
        and length at these body positions."""
        off = struct.unpack_from(off_fmt, self.body, off_at)[0]
        n = struct.unpack_from(len_fmt, self.body, len_at)[0]
        return self.raw[off:off + n]

    def negotiate(self):
        """Decode an SMB2 NEGOTIATE response body into a dict."""
        (ss, secmode, dialect, nctx, guid, caps, mtrans, mread, mwrite,
         systime, start, sboff, sblen, ctxoff) = struct.unpack_from(
            "<HHHH16sIIIIQQHHI", self.body, 0)
        out = dict(structure_size=ss, security_mode=secmode, dialect=dialect,
                   context_count=nctx, guid=guid, capabilities=caps,
                   max_trans=mtrans, max_read=mread, max_write=mwrite,
                   system_time=systime, sec_off=sboff, sec_len=sblen,
                   ctx_off=ctxoff, contexts={})
        pos = ctxoff
        for i in range(nctx):
            if i:
                pos += (8 - pos % 8) % 8
            ctype, dlen = struct.unpack_from("<HH", self.raw, pos)
            out["contexts"][ctype] = self.raw[pos + 8:pos + 8 + dlen]
            if pos + 8 + dlen > len(self.raw):
                raise ValueError("context past the end of the response")
            pos += 8 + dlen
        return out


def split_compound(raw):
    """The responses of a compound frame, each cut at its NextCommand."""
    out = []
    off = 0
    while True:
        r = Response(raw[off:])
        nxt = r.next
        if nxt:
            expect(off + nxt < len(raw), "NextCommand past the frame")
            r = Response(raw[off:off + nxt])
            r.next = nxt
        out.append(r)
        if not nxt:
            return out
        off += nxt


def compound_frame(elems):
    """Chain complete request messages (header + body): each but the last
    padded to 8 bytes and its NextCommand set (MS-SMB2 3.2.4.1.4)."""
    out = b""
    for i, msg in enumerate(elems):
        msg = bytearray(msg)
        if i < len(elems) - 1:
            msg += b"\0" * ((8 - len(msg) % 8) % 8)
            struct.pack_into("<I", msg, 20, len(msg))
        out += bytes(msg)
    return out


def frame(payload):
    """The 4-byte length prefix (MS-SMB2 2.1) and the payload."""
    return struct.pack(">I", len(payload)) + payload
