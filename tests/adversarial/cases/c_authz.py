# SPDX-License-Identifier: GPL-2.0-or-later
"""Authorization (issue 25): no handle does more than its access allows,
nothing is closed, broken or written before the request doing it is
authorized, and a ClientGuid a client claims buys it nothing of another
user's. Runs on a share whose file system stores xattrs and file flags
(tests/vm/cases/adversarial-ext4.sh names the group)."""
import os
import socket
import struct
import time

import advlib
from advlib import (expect, expect_status, sname, SUCCESS, ACCESS_DENIED,
                    LOCK, IOCTL, READ, WRITE, CLOSE, SET_INFO, OPLOCK_BREAK,
                    LOCK_SHARED, LOCK_EXCLUSIVE, LOCK_UNLOCK,
                    LOCK_FAIL_IMMEDIATELY, body_lock, body_ioctl, body_read,
                    body_write, body_close, body_set_info, create_context,
                    INFO_FILE)
from suite import case, host_path

FILE_LOCK_CONFLICT = 0xC0000054
CANCELLED = 0xC0000120
OBJECT_NAME_NOT_FOUND = advlib.OBJECT_NAME_NOT_FOUND
FILE_CLOSED = advlib.FILE_CLOSED

READ_ATTRIBUTES = 0x80
SYNCHRONIZE = 0x00100000
READ_DATA, WRITE_DATA, DELETE = 0x1, 0x2, 0x00010000
GENERIC_READ = 0x80000000
LEASE_R, LEASE_H, LEASE_W = 1, 2, 4
NOTIFY_MID = 0xFFFFFFFFFFFFFFFF

FSCTL_SET_ZERO_DATA = 0x000980C8
FSCTL_DUPLICATE_EXTENTS = 0x00098344
FSCTL_REQUEST_RESUME_KEY = 0x00140078
FSCTL_COPYCHUNK_WRITE = 0x001480F2

APP_INSTANCE_TAG = bytes([0x45, 0xBC, 0xA6, 0x6A, 0xEF, 0xA7, 0xF7, 0x4A,
                          0x90, 0x08, 0xFA, 0x46, 0x2E, 0x14, 0x4D, 0x74])


# ---- request pieces ------------------------------------------------------

def chain(*ctxs):
    """Create contexts (tag, data) chained as MS-SMB2 2.2.13.2 lays out."""
    out = b""
    for i, (tag, data) in enumerate(ctxs):
        one = create_context(tag, data)
        if i + 1 < len(ctxs):
            one += b"\0" * ((8 - len(one) % 8) % 8)
            one = struct.pack("<I", len(one)) + one[4:]
        out += one
    return out


def lease(key, state):
    """RqLs v2 data: key, state, flags, duration, parent, epoch."""
    return (b"RqLs", struct.pack("<16sIIQ16sHH", key, state, 0, 0,
                                 b"\0" * 16, 0, 0))


def dh2q(create_guid):
    return (b"DH2Q", struct.pack("<IIQ16s", 0, 0, 0, create_guid))


def dh2c(fid, create_guid):
    return (b"DH2C", fid + create_guid + struct.pack("<I", 0))


def app_instance(app_id):
    return (APP_INSTANCE_TAG, struct.pack("<HH", 20, 0) + app_id)


def rsp_contexts(r):
    """The CREATE response's contexts by tag."""
    off, ln = struct.unpack_from("<II", r.body, 80)
    out, pos = {}, off
    while ln and pos + 16 <= len(r.raw):
        nxt, noff, nlen, _, doff, dlen = struct.unpack_from("<IHHHHI",
                                                          r.raw, pos)
        out[r.raw[pos + noff:pos + noff + nlen]] = \
            r.raw[pos + doff:pos + doff + dlen]
        if not nxt:
            break
        pos += nxt
    return out


def lease_state(r):
    d = rsp_contexts(r).get(b"RqLs")
    expect(d is not None, "no lease in the CREATE answer")
    return struct.unpack_from("<I", d, 16)[0]


def lock(c, fid, off, length, flags):
    return c.call(LOCK, body_lock(fid, [(off, length, flags)]))


def next_break(c, wait):
    """The next unsolicited OPLOCK_BREAK on c within wait seconds, as a
    Response, or None when nothing arrived."""
    c.sock.settimeout(wait)
    try:
        while True:
            r = advlib.Response(c.recv_frame())
            if r.mid == NOTIFY_MID and r.command == OPLOCK_BREAK:
                return r
    except (socket.timeout, advlib.Dropped, OSError):
        return None
    finally:
        c.sock.settimeout(10)


def fresh_file(env, name, data=b"0123456789" * 10, mode=0o666, owner=None):
    p = host_path(env, name)
    with open(p, "wb") as f:
        f.write(data)
    os.chmod(p, mode)
    if owner is not None:
        os.chown(p, owner, owner)
    return p


def guid(n):
    return bytes([n]) * 16


# ---- 1: LOCK needs data access -------------------------------------------

@case("authz", "LOCK (exclusive, shared, unlock) on a handle granted "
      "FILE_READ_ATTRIBUTES only: ACCESS_DENIED, also after that durable "
      "handle is reconnected; a data handle then locks the whole file "
      "(MS-FSA 2.1.5.7)")
def case_lock_needs_data_access(env):
    name = "az_lock.txt"
    fresh_file(env, name)
    c = env.client("tree", guid=guid(0x71))
    key, cguid = os.urandom(16), os.urandom(16)
    r = c.create(name, access=READ_ATTRIBUTES, disposition=advlib.FILE_OPEN,
                 oplock=0xFF, contexts=chain(lease(key, LEASE_R | LEASE_H),
                                             dh2q(cguid)))
    expect_status(r, SUCCESS, "attributes-only open")
    expect(b"DH2Q" in rsp_contexts(r), "the attributes-only open with a "
           "handle lease was not made durable")
    fid = r.fid
    try:
        for flags in (LOCK_EXCLUSIVE | LOCK_FAIL_IMMEDIATELY,
                      LOCK_SHARED | LOCK_FAIL_IMMEDIATELY, LOCK_EXCLUSIVE):
            expect_status(lock(c, fid, 0, 1 << 63, flags), ACCESS_DENIED,
                          "lock flags 0x%x" % flags)
        expect_status(lock(c, fid, 0, 1 << 63, LOCK_UNLOCK), ACCESS_DENIED,
                      "unlock")
    except advlib.CaseFailure:
        c.close_file(fid)  # no durable handle left behind
        raise
    c.close()
    # The same handle reconnected on a new connection: still no lock.
    c2 = env.client("tree", guid=guid(0x71))
    deadline = time.monotonic() + 10
    while True:
        r = c2.create(name, access=READ_ATTRIBUTES,
                      disposition=advlib.FILE_OPEN, oplock=0xFF,
                      contexts=chain(lease(key, LEASE_R | LEASE_H),
                                     dh2c(fid, cguid)))
        # until the server has seen the first connection go
        if r.status != OBJECT_NAME_NOT_FOUND or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    expect_status(r, SUCCESS, "durable reconnect")
    expect_status(lock(c2, r.fid, 0, 1 << 63,
                       LOCK_EXCLUSIVE | LOCK_FAIL_IMMEDIATELY),
                  ACCESS_DENIED, "lock on the reconnected handle")
    d = c2.create(name, access=READ_DATA | WRITE_DATA,
                  disposition=advlib.FILE_OPEN)
    expect_status(d, SUCCESS, "data open")
    expect_status(lock(c2, d.fid, 0, 1 << 63,
                       LOCK_EXCLUSIVE | LOCK_FAIL_IMMEDIATELY),
                  SUCCESS, "whole-file lock by a data handle")
    c2.close_file(d.fid)
    c2.close_file(r.fid)
    c2.close()


# ---- 3: copy, duplicate-extents and zeroing are writes --------------------

def resume_key(c, fid):
    r = c.call(IOCTL, body_ioctl(fid, FSCTL_REQUEST_RESUME_KEY, max_out=32))
    expect_status(r, SUCCESS, "FSCTL_SRV_REQUEST_RESUME_KEY")
    off, n = struct.unpack_from("<II", r.body, 32)
    expect(n >= 24, "resume key answer of %d bytes" % n)
    return r.raw[off:off + 24]


def copychunk(c, dst, key, soff, doff, length):
    data = key + struct.pack("<II", 1, 0) + struct.pack("<QQII", soff, doff,
                                                        length, 0)
    return c.call(IOCTL, body_ioctl(dst, FSCTL_COPYCHUNK_WRITE, data,
                                    max_out=12))


@case("authz", "FSCTL_SRV_COPYCHUNK_WRITE, FSCTL_SET_ZERO_DATA and "
      "FSCTL_DUPLICATE_EXTENTS_TO_FILE over a range another open locked: "
      "FILE_LOCK_CONFLICT and the file unchanged (source range locked "
      "exclusively, destination range locked shared); a copy into a file "
      "another client caches (lease RWH) breaks that lease, as WRITE does")
def case_copy_zero_clone_respect_locks(env):
    src, dst = "az_cc_src.txt", "az_cc_dst.txt"
    fresh_file(env, src, b"S" * 4096)
    fresh_file(env, dst, b"D" * 4096)
    c = env.client("tree", guid=guid(0x72))
    s = c.create(src, disposition=advlib.FILE_OPEN)
    d = c.create(dst, disposition=advlib.FILE_OPEN)
    expect_status(s, SUCCESS, "open source")
    expect_status(d, SUCCESS, "open destination")
    key = resume_key(c, s.fid)
    # another open (of another connection) holds the locks
    o = env.client("tree", guid=guid(0x73))
    os_ = o.create(src, disposition=advlib.FILE_OPEN)
    od = o.create(dst, disposition=advlib.FILE_OPEN)
    expect_status(lock(o, os_.fid, 0, 100,
                       LOCK_EXCLUSIVE | LOCK_FAIL_IMMEDIATELY), SUCCESS,
                  "lock source range")
    expect_status(lock(o, od.fid, 1000, 100,
                       LOCK_SHARED | LOCK_FAIL_IMMEDIATELY), SUCCESS,
                  "lock destination range")
    expect_status(copychunk(c, d.fid, key, 0, 2000, 50), FILE_LOCK_CONFLICT,
                  "copy from a locked source range")
    expect_status(copychunk(c, d.fid, key, 200, 1000, 50),
                  FILE_LOCK_CONFLICT, "copy into a locked destination range")
    zero = struct.pack("<QQ", 1000, 1100)
    expect_status(c.call(IOCTL, body_ioctl(d.fid, FSCTL_SET_ZERO_DATA, zero,
                                           max_out=0)),
                  FILE_LOCK_CONFLICT, "zeroing a locked range")
    dup = s.fid + struct.pack("<QQQ", 0, 1000, 100)
    expect_status(c.call(IOCTL, body_ioctl(d.fid, FSCTL_DUPLICATE_EXTENTS,
                                           dup, max_out=0)),
                  FILE_LOCK_CONFLICT, "duplicating into a locked range")
    with open(host_path(env, dst), "rb") as f:
        expect(f.read() == b"D" * 4096, "the destination changed")
    # unlocked ranges copy
    expect_status(copychunk(c, d.fid, key, 200, 3000, 50), SUCCESS,
                  "copy between unlocked ranges")
    # a lease holder of the destination is told (to none, as a WRITE does)
    h = env.client("tree", guid=guid(0x74))
    lkey = os.urandom(16)
    hr = h.create(dst, disposition=advlib.FILE_OPEN, oplock=0xFF,
                  share=7, contexts=chain(lease(lkey, 7)))
    expect_status(hr, SUCCESS, "lease holder's open")
    expect(lease_state(hr) & LEASE_R, "the holder got no read caching")
    expect_status(copychunk(c, d.fid, key, 300, 3100, 50), SUCCESS,
                  "copy into the cached file")
    b = next_break(h, 10)
    expect(b is not None, "no lease break for a copy into the cached file")
    k, cur, new = struct.unpack_from("<16sII", b.body, 8)
    expect(k == lkey and not new & LEASE_R,
           "break to 0x%x, read caching kept" % new)
    for cl, fids in ((c, (s.fid, d.fid)), (o, (os_.fid, od.fid)),
                     (h, (hr.fid,))):
        for f in fids:
            cl.close_file(f)
        cl.close()


# ---- 2: AppInstanceId closes nothing before the open is authorized --------

def tester_uid():
    import pwd
    return pwd.getpwnam("tester").pw_uid


def app_open(c, name, app_id, **kw):
    return c.create(name, contexts=chain(dh2q(os.urandom(16)),
                                         app_instance(app_id)), **kw)


def still_open(c, fid):
    return c.call(READ, body_read(fid, 4)).status == SUCCESS


@case("authz", "AppInstanceId (MS-SMB2 3.3.5.9.13): the open of that "
      "instance by another client stays open when the new open fails its "
      "access check (another user, file 0600), fails its disposition "
      "(FILE_CREATE on an existing file) or is another user's (SHARING_"
      "VIOLATION, nothing closed); the same user's authorized open closes "
      "it (FILE_CLOSED on the old handle)")
def case_app_instance_after_authorization(env):
    name = "az_app.txt"
    p = fresh_file(env, name, mode=0o600, owner=tester_uid())
    app_id = os.urandom(16)
    a = env.client("tree", guid=guid(0x81))
    ra = app_open(a, name, app_id, disposition=advlib.FILE_OPEN, share=0)
    expect_status(ra, SUCCESS, "first instance's open")
    o = env.client("tree", guid=guid(0x82), user="other", password="other2")
    r = app_open(o, name, app_id, disposition=advlib.FILE_OPEN)
    expect_status(r, ACCESS_DENIED, "another user's open of a 0600 file")
    expect(still_open(a, ra.fid), "the first instance's handle was closed "
           "by an open that was refused")
    b = env.client("tree", guid=guid(0x83))
    r = app_open(b, name, app_id, disposition=advlib.FILE_CREATE)
    expect_status(r, advlib.OBJECT_NAME_COLLISION, "FILE_CREATE of an "
                  "existing file")
    expect(still_open(a, ra.fid), "the first instance's handle was closed "
           "by an open that failed")
    os.chmod(p, 0o666)
    r = app_open(o, name, app_id, disposition=advlib.FILE_OPEN)
    expect_status(r, 0xC0000043, "another user's open beside a share-none "
                  "open (SHARING_VIOLATION)")
    expect(still_open(a, ra.fid), "another user's request closed the "
           "first instance's handle")
    r = app_open(b, name, app_id, disposition=advlib.FILE_OPEN)
    expect_status(r, SUCCESS, "the same user's open of the instance")
    expect_status(a.call(READ, body_read(ra.fid, 4)), FILE_CLOSED,
                  "the first instance's handle after its successor opened")
    b.close_file(r.fid)
    for cl in (a, o, b):
        cl.close()


# ---- 4: a claimed ClientGuid buys nothing of another user's lease ---------

@case("authz", "another user's connection naming the same ClientGuid "
      "(and older, so first in line) is sent none of the lease's breaks, "
      "cannot acknowledge it (OBJECT_NAME_NOT_FOUND) and cannot join it "
      "with the same lease key: its open gets a lease of its own and "
      "breaks the owner's write caching")
def case_lease_client_guid_spoofed(env):
    name = "az_lease.txt"
    fresh_file(env, name, mode=0o666)
    g = os.urandom(16)
    # the other user's connection comes first: the client's "oldest"
    spy = env.client("tree", guid=g, user="other", password="other2")
    own = env.client("tree", guid=g)
    key = os.urandom(16)
    r = own.create(name, disposition=advlib.FILE_OPEN, oplock=0xFF,
                   contexts=chain(lease(key, 7)))
    expect_status(r, SUCCESS, "owner's open")
    expect(lease_state(r) == 7, "owner's lease 0x%x" % lease_state(r))
    fid = r.fid
    # a third client opens: the owner's lease breaks RWH -> RH
    t = env.client("tree", guid=os.urandom(16))
    t.send_frame(t.element(advlib.CREATE, advlib.body_create(
        name, disposition=advlib.FILE_OPEN)))
    got = next_break(own, 10)
    leaked = next_break(spy, 0.5)
    expect(leaked is None, "the break of another user's lease went to the "
           "connection claiming its ClientGuid")
    expect(got is not None, "the owner got no break")
    ack = struct.pack("<HHI16sIQ", 36, 0, 0, key, LEASE_R | LEASE_H, 0)
    expect_status(spy.call(OPLOCK_BREAK, ack), OBJECT_NAME_NOT_FOUND,
                  "acknowledgement by another user")
    expect_status(own.call(OPLOCK_BREAK, ack), SUCCESS, "owner's own ack")
    rt = t.recv()
    expect_status(rt, SUCCESS, "third client's open")
    t.close_file(rt.body[64:80])
    t.close()
    # the other user opens with the owner's key: a lease of its own
    r = spy.create(name, disposition=advlib.FILE_OPEN, oplock=0xFF,
                   contexts=chain(lease(key, 7)))
    expect_status(r, SUCCESS, "other user's open with the same key")
    expect(not lease_state(r) & LEASE_W, "the other user joined the "
           "owner's lease (state 0x%x)" % lease_state(r))
    spy.close_file(r.fid)
    own.close_file(fid)
    spy.close()
    own.close()


# ---- 6: 3.1.1 TREE_CONNECT must be signed ---------------------------------

@case("authz", "an unsigned TREE_CONNECT on a 3.1.1 session of a user "
      "drops the connection (MS-SMB2 3.3.5.7); signed it is served; on 3.0 "
      "an unsigned one still is")
def case_tree_connect_unsigned_311(env):
    path = "\\\\%s\\%s" % (env.host, env.share)
    c = env.client("session")
    c.send_frame(c.element(advlib.TREE_CONNECT,
                           advlib.body_tree_connect(path), tree=0,
                           sign=False))
    expect(c.is_dropped(5), "an unsigned 3.1.1 tree connect was served")
    c.close()
    c = env.client("session")
    expect_status(c.call(advlib.TREE_CONNECT, advlib.body_tree_connect(path),
                         tree=0), SUCCESS, "signed 3.1.1 tree connect")
    c.close()
    c = env.client("session", dialect=0x0300)
    expect_status(c.call(advlib.TREE_CONNECT, advlib.body_tree_connect(path),
                         tree=0, sign=False), SUCCESS,
                  "unsigned 3.0 tree connect")
    c.close()


# ---- 5: confinement: mounts inside the share, append-only, immutable ------

def run(*cmd):
    import subprocess
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30)


def read_all(c, fid, n=4096):
    r = c.call(READ, body_read(fid, n))
    expect_status(r, SUCCESS, "READ")
    off, ln = struct.unpack_from("<BxI", r.body, 2)
    return r.raw[off:off + ln]


@case("authz", "a file system mounted on a directory of the share is what "
      "the client sees there (its file opens and reads, the directory "
      "hidden beneath the mount is not reachable, the listing stats the "
      "mounted root); a symlink inside it still ends the walk; a rename "
      "out of it is NOT_SAME_DEVICE")
def case_mount_inside_share(env):
    d = host_path(env, "az_mnt")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "hidden.txt"), "w") as f:
        f.write("beneath")
    r = run("mount", "-t", "tmpfs", "-o", "size=1m,mode=0777", "az_tmpfs", d)
    if r.returncode:
        raise advlib.Skip("cannot mount a tmpfs in the share: %s" % r.stderr)
    try:
        with open(os.path.join(d, "inside.txt"), "w") as f:
            f.write("mounted")
        os.chmod(os.path.join(d, "inside.txt"), 0o666)
        os.symlink("/etc", os.path.join(d, "out"))
        c = env.client("tree")
        r = c.create("az_mnt\\inside.txt", access=READ_DATA | DELETE |
                     0x00100080, disposition=advlib.FILE_OPEN)
        expect_status(r, SUCCESS, "a file of the mounted file system")
        expect(read_all(c, r.fid) == b"mounted", "wrong data read")
        ren = "az_moved.txt".encode("utf-16-le")
        info = struct.pack("<BxxxxxxxQI", 0, 0, len(ren)) + ren
        expect_status(c.call(SET_INFO, body_set_info(r.fid, INFO_FILE, 10,
                                                     info)),
                      advlib.NOT_SAME_DEVICE, "rename out of the mount")
        c.close_file(r.fid)
        r = c.create("az_mnt\\hidden.txt", disposition=advlib.FILE_OPEN)
        expect_status(r, OBJECT_NAME_NOT_FOUND, "a file hidden beneath the "
                      "mount")
        r = c.create("az_mnt\\out\\passwd", disposition=advlib.FILE_OPEN)
        expect(advlib.is_error(r.status), "a symlink inside the mount was "
               "followed: %s" % sname(r.status))
        r = c.create("az_mnt", access=GENERIC_READ,
                     disposition=advlib.FILE_OPEN,
                     options=advlib.OPT_DIRECTORY)
        expect_status(r, SUCCESS, "the mountpoint directory")
        q = c.call(advlib.QUERY_DIRECTORY,
                   advlib.body_query_directory(r.fid, "*", 8192))
        expect_status(q, SUCCESS, "listing the mounted root")
        listing = q.raw.decode("utf-16-le", "ignore")
        expect("inside.txt" in listing and "hidden.txt" not in listing,
               "the listing is not the mounted file system's")
        c.close_file(r.fid)
        c.close()
    finally:
        run("umount", d)


def chattr(path, flags):
    r = run("chattr", flags, path)
    if r.returncode:
        raise advlib.Skip("chattr %s: %s" % (flags, r.stderr.strip()))


@case("authz", "an append-only (chattr +a) file: an open for WRITE_DATA "
      "and an overwrite are ACCESS_DENIED, an open for FILE_APPEND_DATA "
      "appends (a WRITE at offset 0 refused, at the end taken) and the old "
      "bytes stay; an immutable (chattr +i) file: no write open, no times "
      "set, no delete, no rename; both files unchanged on disk")
def case_append_only_immutable(env):
    name, frozen = "az_append.txt", "az_immutable.txt"
    pa = fresh_file(env, name, b"log-line-1\n", mode=0o666)
    pi = fresh_file(env, frozen, b"frozen\n", mode=0o666)
    chattr(pa, "+a")
    try:
        chattr(pi, "+i")
        c = env.client("tree")
        r = c.create(name, access=READ_DATA | WRITE_DATA | 0x4,
                     disposition=advlib.FILE_OPEN)
        if r.status == SUCCESS:
            c.call(WRITE, body_write(r.fid, b"OVERWRITTEN", offset=0))
            c.close_file(r.fid)
        expect_status(r, ACCESS_DENIED, "open of an append-only file for "
                      "WRITE_DATA")
        r = c.create(name, disposition=advlib.FILE_OVERWRITE_IF)
        expect_status(r, ACCESS_DENIED, "overwrite of an append-only file")
        r = c.create(name, access=0x4 | SYNCHRONIZE,
                     disposition=advlib.FILE_OPEN)
        expect_status(r, SUCCESS, "open of an append-only file for "
                      "FILE_APPEND_DATA")
        w = c.call(WRITE, body_write(r.fid, b"XX", offset=0))
        expect_status(w, ACCESS_DENIED, "WRITE at 0 through an append handle")
        w = c.call(WRITE, body_write(r.fid, b"log-line-2\n",
                                     offset=0xFFFFFFFFFFFFFFFF))
        expect_status(w, SUCCESS, "appending WRITE")
        c.close_file(r.fid)
        for what, kw in (("write", dict(access=READ_DATA | WRITE_DATA)),
                         ("delete", dict(access=DELETE)),
                         ("overwrite",
                          dict(disposition=advlib.FILE_OVERWRITE_IF))):
            kw.setdefault("disposition", advlib.FILE_OPEN)
            r = c.create(frozen, **kw)
            if r.status == SUCCESS:
                c.close_file(r.fid)
            expect_status(r, ACCESS_DENIED, "%s open of an immutable file"
                          % what)
        r = c.create(frozen, access=0x100 | 0x80 | DELETE | SYNCHRONIZE,
                     disposition=advlib.FILE_OPEN)
        if r.status == SUCCESS:
            times = struct.pack("<QQQQII", 0, 0, 116444736000000000, 0, 0, 0)
            st = c.call(SET_INFO, body_set_info(r.fid, INFO_FILE, 4, times))
            expect(advlib.is_error(st.status), "times set on an immutable "
                   "file: %s" % sname(st.status))
            c.close_file(r.fid)
        c.close()
        with open(pa, "rb") as f:
            got = f.read()
        expect(got == b"log-line-1\nlog-line-2\n",
               "append-only file now holds %r" % got[:60])
        with open(pi, "rb") as f:
            expect(f.read() == b"frozen\n", "the immutable file changed")
    finally:
        run("chattr", "-a", pa)
        run("chattr", "-i", pi)


# ---- 7: the smaller ones --------------------------------------------------

def ea_entry(name, value):
    return struct.pack("<IBBH", 0, 0, len(name), len(value)) + name + \
        b"\0" + value


def xattrs(path):
    try:
        return {n: os.getxattr(path, n) for n in os.listxattr(path)}
    except OSError:
        return {}


@case("authz", "CREATE with an ExtA context naming an xattr the server "
      "keeps itself (DOSATTRIB, dosattrib, KsmbdStream.x, DosStream.y): "
      "ACCESS_DENIED, nothing created, no such xattr; an ordinary EA is "
      "still stored")
def case_create_ea_reserved_names(env):
    c = env.client("tree")
    fake_dos = b"\x00\x00\x04\x00\x04\x00\x00\x00\x51\x00\x00\x00" + \
        b"\x20" * 28
    for n, name in enumerate((b"DOSATTRIB", b"dosattrib", b"KsmbdStream.x",
                              b"DosStream.y")):
        fname = "az_ea_%d.txt" % n
        p = host_path(env, fname)
        if os.path.exists(p):
            os.unlink(p)
        r = c.create(fname, disposition=advlib.FILE_CREATE,
                     contexts=create_context(b"ExtA",
                                             ea_entry(name, fake_dos)))
        if r.status == SUCCESS:
            c.close_file(r.fid)
        expect_status(r, ACCESS_DENIED, "ExtA %r" % name)
        expect(not os.path.exists(p), "%s was created" % fname)
    p = host_path(env, "az_ea_ok.txt")
    if os.path.exists(p):
        os.unlink(p)
    r = c.create("az_ea_ok.txt", disposition=advlib.FILE_CREATE,
                 contexts=create_context(b"ExtA", ea_entry(b"plain", b"v")))
    expect_status(r, SUCCESS, "an ordinary EA")
    c.close_file(r.fid)
    got = xattrs(p)
    expect(got.get("user.plain") == b"v", "the ordinary EA was not stored")
    expect(not any(k.lower().startswith(("user.dosattrib",
                                         "user.ksmbdstream.",
                                         "user.dosstream.")) for k in got),
           "reserved xattrs on the file: %s" % sorted(got))
    c.close()


@case("authz", "clearing delete-pending (FileDispositionInformation 0) "
      "through a handle without DELETE access: ACCESS_DENIED, and the file "
      "is deleted when the handle that set it closes")
def case_clear_delete_pending_needs_delete(env):
    name = "az_doc.txt"
    p = fresh_file(env, name)
    c = env.client("tree")
    d = c.create(name, access=DELETE | READ_ATTRIBUTES,
                 disposition=advlib.FILE_OPEN)
    expect_status(d, SUCCESS, "open for DELETE")
    o = c.create(name, access=READ_DATA | WRITE_DATA,
                 disposition=advlib.FILE_OPEN)
    expect_status(o, SUCCESS, "open without DELETE")
    expect_status(c.call(SET_INFO, body_set_info(d.fid, INFO_FILE, 13,
                                                 b"\x01")),
                  SUCCESS, "set delete-pending")
    expect_status(c.call(SET_INFO, body_set_info(o.fid, INFO_FILE, 13,
                                                 b"\x00")),
                  ACCESS_DENIED, "clear delete-pending without DELETE")
    c.close_file(o.fid)
    c.close_file(d.fid)
    expect(not os.path.exists(p), "the file survived: a handle without "
           "DELETE access cleared the pending delete")
    c.close()


@case("authz", "the persistent halves of FileIds are not sequential nor "
      "guessable from one's own (16 opens: no two within 2^32 of each "
      "other)")
def case_file_ids_unpredictable(env):
    name = "az_ids.txt"
    fresh_file(env, name)
    c = env.client("tree")
    fids = []
    for _ in range(16):
        r = c.create(name, disposition=advlib.FILE_OPEN)
        expect_status(r, SUCCESS, "open")
        fids.append(r.fid)
    pids = sorted(struct.unpack_from("<Q", f, 0)[0] for f in fids)
    for f in fids:
        c.close_file(f)
    c.close()
    gaps = [b - a for a, b in zip(pids, pids[1:])]
    expect(min(gaps) > 1 << 32, "persistent ids %s are close together" %
           ["0x%x" % p for p in pids[:4]])


def drop_durable(env, name, g, key=None, cguid=None):
    """An open of name by client g made durable (DH2Q with a batch oplock,
    or with a lease RH when key is given), its connection then dropped;
    (fid, create guid)."""
    c = env.client("tree", guid=g)
    cguid = cguid or os.urandom(16)
    if key:
        r = c.create(name, disposition=advlib.FILE_OPEN, oplock=0xFF,
                     contexts=chain(lease(key, LEASE_R | LEASE_H),
                                    dh2q(cguid)))
    else:
        r = c.create(name, disposition=advlib.FILE_OPEN, oplock=9,
                     contexts=chain(dh2q(cguid)))
    expect_status(r, SUCCESS, "durable open")
    expect(b"DH2Q" in rsp_contexts(r), "not made durable")
    c.close()
    return r.fid, cguid


def reconnect(c, name, ctx, oplock=9):
    """CREATE with a reconnect context, until the server has seen the old
    connection go (it answers OBJECT_NAME_NOT_FOUND while attached)."""
    deadline = time.monotonic() + 10
    while True:
        r = c.create(name, disposition=advlib.FILE_OPEN, oplock=oplock,
                     contexts=ctx)
        if r.status != OBJECT_NAME_NOT_FOUND or time.monotonic() > deadline:
            return r
        time.sleep(0.2)


@case("authz", "a v2 durable handle reconnected with DHnC (which carries no "
      "CreateGuid) by another ClientGuid: OBJECT_NAME_NOT_FOUND; by its own "
      "client: SUCCESS, and the restored handle acts with the reconnecting "
      "tree's rights (the share made read-only meanwhile: WRITE "
      "ACCESS_DENIED)")
def case_durable_reconnect_binds_client(env):
    name = "az_dhnc.txt"
    fresh_file(env, name)
    g = guid(0x91)
    # a batch oplock: no lease, whose ClientGuid 3.3.5.9.7 checks anyway
    fid, cguid = drop_durable(env, name, g)
    dhnc = (b"DHnC", fid)
    x = env.client("tree", guid=guid(0x92))
    r = reconnect(x, name, chain(dhnc))
    if r.status == SUCCESS:
        x.close_file(r.fid)
    expect_status(r, OBJECT_NAME_NOT_FOUND, "DHnC of a v2 handle by "
                  "another ClientGuid")
    x.close()
    # the share turns read-only while the handle is away
    set_read_only(env, True)
    try:
        o = env.client("tree", guid=g)
        r = reconnect(o, name, chain(dhnc))
        expect_status(r, SUCCESS, "DHnC by the handle's own client")
        expect_status(o.call(WRITE, body_write(r.fid, b"no")),
                      ACCESS_DENIED, "WRITE through a handle restored on a "
                      "read-only tree")
        o.close_file(r.fid)
        o.close()
    finally:
        set_read_only(env, False)


def set_read_only(env, on):
    conf = os.environ.get("KSMBD_CONF", "/etc/ksmbd/ksmbd.conf")
    tool = os.path.join(advlib.HERE, "..", "..", "build", "daemon",
                        "ksmbd.addshare")
    r = run(tool, "-c", conf, "-u", env.share, "-o",
            "read only = %s" % ("yes" if on else "no"))
    expect(r.returncode == 0, "ksmbd.addshare: %s" % r.stderr.strip())
    with open("/run/ksmbd.mountd.pid") as f:
        os.kill(int(f.read()), 1)
    time.sleep(1.5)


@case("authz", "CANCEL names a request of its own session: a second "
      "session on the same connection cannot cancel the first's blocking "
      "LOCK (async form nor sync form); the owner's CANCEL ends it "
      "(CANCELLED)")
def case_cancel_other_session(env):
    from advlib import wire
    name = "az_cancel.txt"
    fresh_file(env, name)
    c = env.client("tree")
    a_sess, a_key, a_tree = c.sess, c.key, c.tree
    h1 = c.create(name, disposition=advlib.FILE_OPEN)
    h2 = c.create(name, disposition=advlib.FILE_OPEN)
    expect_status(lock(c, h1.fid, 0, 10,
                       LOCK_EXCLUSIVE | LOCK_FAIL_IMMEDIATELY), SUCCESS,
                  "first lock")
    # a second session on the same connection (not a re-authentication)
    c.sess, c.key = 0, None
    r = c.login()
    expect_status(r, SUCCESS, "second login")
    b_sess = c.sess
    expect(b_sess != a_sess, "the second login got the first session")
    c.sess, c.key, c.tree = a_sess, a_key, a_tree
    mid = c.mid
    c.send_frame(c.element(LOCK, body_lock(h2.fid, [(0, 10,
                                                     LOCK_EXCLUSIVE)])))
    interim = advlib.Response(c.recv_frame())
    expect(interim.status == advlib.PENDING, "blocking lock answered %s" %
           sname(interim.status))
    aid = struct.unpack_from("<Q", interim.raw, 32)[0]
    c.send_frame(wire.cancel_frame(mid, a_tree, b_sess, aid))
    c.send_frame(wire.cancel_frame(mid, a_tree, b_sess))
    c.sock.settimeout(1.5)
    try:
        early = advlib.Response(c.recv_frame())
    except (socket.timeout, OSError):
        early = None
    c.sock.settimeout(10)
    expect(early is None, "another session's CANCEL ended the lock: %s "
           "(mid %d, async id 0x%x, sessions 0x%x 0x%x)" %
           (sname(early.status) if early else "", mid, aid, a_sess, b_sess))
    c.send_frame(wire.cancel_frame(mid, a_tree, a_sess, aid))
    fin = advlib.Response(c.recv_frame())
    expect_status(fin, CANCELLED, "the owner's CANCEL")
    c.close_file(h2.fid)
    c.close_file(h1.fid)
    c.close()


def addshare(*args):
    conf = os.environ.get("KSMBD_CONF", "/etc/ksmbd/ksmbd.conf")
    tool = os.path.join(advlib.HERE, "..", "..", "build", "daemon",
                        "ksmbd.addshare")
    return run(tool, "-c", conf, *args)


def hup_daemon():
    with open("/run/ksmbd.mountd.pid") as f:
        os.kill(int(f.read()), 1)
    time.sleep(1.5)


@case("authz", "a share with 'force user = other' creates and opens files "
      "as that user (a new file is owned by other, not by the logged-on "
      "tester); a share with 'inherit owner = yes', which the server does "
      "not implement, is refused (BAD_NETWORK_NAME), not served without it")
def case_force_user_applied(env):
    import pwd
    other = pwd.getpwnam("other")
    base = host_path(env, "az_forced")
    os.makedirs(base, exist_ok=True)
    os.chmod(base, 0o777)
    for name, opt in (("azforced", "force user = other"),
                      ("azinherit", "inherit owner = yes")):
        addshare("-d", name)
        r = addshare("-a", name, "-o", "path = %s" % base, "-o",
                     "read only = no", "-o", opt)
        expect(r.returncode == 0, "addshare %s: %s" % (name, r.stderr))
    hup_daemon()
    try:
        c = env.client("session")
        expect_status(c.tree_connect("azinherit"), advlib.BAD_NETWORK_NAME,
                      "tree connect to an 'inherit owner' share")
        expect_status(c.tree_connect("azforced"), SUCCESS,
                      "tree connect to a 'force user' share")
        p = os.path.join(base, "az_forced.txt")
        if os.path.exists(p):
            os.unlink(p)
        r = c.create("az_forced.txt", disposition=advlib.FILE_CREATE)
        expect_status(r, SUCCESS, "create on the forced share")
        c.close_file(r.fid)
        st = os.stat(p)
        expect(st.st_uid == other.pw_uid and st.st_gid == other.pw_gid,
               "new file owned by %d:%d, not by the forced user %d:%d" %
               (st.st_uid, st.st_gid, other.pw_uid, other.pw_gid))
        c.close()
    finally:
        addshare("-d", "azforced")
        addshare("-d", "azinherit")
        hup_daemon()
