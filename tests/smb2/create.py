# SPDX-License-Identifier: GPL-2.0-or-later
"""The CREATE request (MS-SMB2 2.2.13), its create contexts (2.2.13.2) and
the CREATE response (2.2.14)."""
import struct

from . import wire

# DesiredAccess (MS-SMB2 2.2.13.1)
FILE_READ_DATA, FILE_WRITE_DATA, FILE_APPEND_DATA = 0x1, 0x2, 0x4
FILE_READ_ATTRIBUTES = 0x80
DELETE, SYNCHRONIZE = 0x10000, 0x100000
MAXIMUM_ALLOWED = 0x02000000
GENERIC_ALL, GENERIC_WRITE, GENERIC_READ = 0x10000000, 0x40000000, 0x80000000
ALL_ACCESS = 0x001F01FF
GENERIC_ALL_RW = 0x0012019F   # read, write, attributes, EAs, synchronize
SHARE_READ, SHARE_WRITE, SHARE_DELETE, SHARE_ALL = 1, 2, 4, 7
# CreateDisposition
SUPERSEDE, OPEN, CREATE_NEW, OPEN_IF, OVERWRITE, OVERWRITE_IF = range(6)
# CreateOptions
DIRECTORY_FILE, NON_DIRECTORY_FILE, DELETE_ON_CLOSE = 0x1, 0x40, 0x1000
# RequestedOplockLevel
LEVEL_NONE, LEVEL_II, LEVEL_EXCL, LEVEL_BATCH, LEVEL_LEASE = 0, 1, 8, 9, 0xFF
# Lease states
LEASE_R, LEASE_H, LEASE_W = 1, 2, 4
IMPERSONATION = 2


def create_ctx(tag, data, next_off=0):
    """One create context: the name at 16, the data at the next 8-byte
    boundary (DataOffset 0 when there is none), nothing after it."""
    name_off = 16
    data_off = (name_off + len(tag) + 7) & ~7 if data else 0
    out = struct.pack("<IHHHHI", next_off, name_off, len(tag), 0, data_off,
                      len(data)) + tag
    if data:
        out += b"\0" * (data_off - len(out)) + data
    return out


def chain_ctxs(ctxs):
    """Chain contexts: each but the last padded to 8, Next pointing on."""
    out = b""
    for i, c in enumerate(ctxs):
        if i < len(ctxs) - 1:
            c = wire.pad8(c)
            c = struct.pack("<I", len(c)) + c[4:]
        out += c
    return out


def create_body(name, access=GENERIC_READ | GENERIC_WRITE, disp=OPEN_IF,
                options=NON_DIRECTORY_FILE, share=SHARE_ALL, ctxs=b"",
                attrs=0x80, oplock=LEVEL_NONE, impersonation=IMPERSONATION):
    """The request body: name at offset 120 (also when empty), contexts
    (already chained) at the next 8-byte boundary."""
    uname = name.encode("utf-16-le")
    name_off = 64 + 56
    ctx_off = (name_off + len(uname) + 7) & ~7 if ctxs else 0
    body = struct.pack("<HBBIQQIIIIIHHII", 57, 0, oplock, impersonation, 0, 0,
                       access, attrs, share, disp, options, name_off,
                       len(uname), ctx_off, len(ctxs))
    body += uname
    if ctxs:
        body += b"\0" * (ctx_off - 64 - len(body)) + ctxs
    elif not uname:
        body += b"\0"   # a variable part of at least one byte
    return body


# ---- contexts ----------------------------------------------------------------

def lease_data(key, state, v2=True, epoch=0, parent=b"\0" * 16, flags=0):
    """SMB2_CREATE_REQUEST_LEASE(_V2) (MS-SMB2 2.2.13.2.8, 2.2.13.2.10)."""
    if v2:
        return struct.pack("<16sIIQ16sHH", key, state, flags, 0, parent,
                           epoch, 0)
    return struct.pack("<16sIIQ", key, state, flags, 0)


def lease_ctx(key, state, v2=True, epoch=0, parent=b"\0" * 16):
    return create_ctx(b"RqLs", lease_data(key, state, v2, epoch, parent))


def dhnq():
    """Durable handle v1 request (2.2.13.2.3)."""
    return create_ctx(b"DHnQ", b"\0" * 16)


def dhnc(fid):
    """Durable handle v1 reconnect (2.2.13.2.4)."""
    return create_ctx(b"DHnC", struct.pack("<QQ", *fid))


def dh2q(guid, timeout_ms=0, flags=0):
    """Durable handle v2 request (2.2.13.2.11)."""
    return create_ctx(b"DH2Q", struct.pack("<IIQ16s", timeout_ms, flags, 0,
                                           guid))


def dh2c(fid, guid, flags=0):
    """Durable handle v2 reconnect (2.2.13.2.12)."""
    return create_ctx(b"DH2C", struct.pack("<QQ16sI", fid[0], fid[1], guid,
                                           flags))


# ---- the response --------------------------------------------------------------

class Created:
    """A CREATE response: its fields and {tag: data} of its contexts."""

    def __init__(self, r):
        (self.ss, self.oplock, _, self.action, _, _, _, _, self.alloc,
         self.eof, self.attrs, _, self.pid, self.vid, self.ctx_off,
         self.ctx_len) = struct.unpack_from("<HBBIQQQQQQIIQQII", r.body, 0)
        self.contexts = {}
        pos = self.ctx_off
        while self.ctx_len:
            nxt, noff, nlen, _, doff, dlen = struct.unpack_from(
                "<IHHHHI", r.raw, pos)
            tag = r.raw[pos + noff:pos + noff + nlen]
            self.contexts[tag] = r.raw[pos + doff:pos + doff + dlen]
            if not nxt:
                break
            pos += nxt

    @property
    def fid(self):
        return (self.pid, self.vid)

    @property
    def fid_bytes(self):
        return struct.pack("<QQ", self.pid, self.vid)


def fid_bytes(fid):
    """A FileId as its 16 wire bytes, from bytes or a (persistent,
    volatile) pair."""
    return fid if isinstance(fid, (bytes, bytearray)) else \
        struct.pack("<QQ", *fid)
