#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""CREATE, CLOSE, READ, WRITE, FLUSH, named pipes and IOCTL against the
server, with the client of tests/smb2 (login, tree connect, handles).

Every case logs on as the test user, connects the share (or IPC$), and
checks statuses and bytes the server sends back: names the server must
refuse, dispositions and their CreateAction, the create contexts it
answers, WRITE DataOffset/Length at the edges of the element, READ past
the end of file, share modes, delete-on-close, related compounds, the
srvsvc pipe, and the FSCTLs.

CLI: smb2files.py [--host H] [--port P] [--prefix NAME] [--user U]
                  [--password PW] [--list] [CASE ...]
"""
import os
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import Tree, compound, read_body  # noqa: E402
from smb2.create import *  # noqa: E402,F401,F403
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

ALL_ONES = (0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF)

CASES, case = case_registry()


@case
def case_bad_names(env):
    t = Tree(env)
    # MS-SMB2 3.3.5.9: a leading separator is INVALID_PARAMETER; a ".."
    # that would climb above the share root is OBJECT_PATH_SYNTAX_BAD (as
    # smbtorture's smb2.mkdir.mkdir wants), never a name outside it
    for name, want in [("\\lead", "INVALID_PARAMETER"),
                       ("..", "OBJECT_PATH_SYNTAX_BAD"),
                       ("a\\..\\..\\etc\\passwd", "OBJECT_PATH_SYNTAX_BAD"),
                       ("no-such-dir\\..\\..", "OBJECT_PATH_SYNTAX_BAD"),
                       ("a\\.\\b", "OBJECT_NAME_INVALID"),
                       ("a\\\\b", "OBJECT_NAME_INVALID"),
                       ("star*", "OBJECT_NAME_INVALID"),
                       ("q?", "OBJECT_NAME_INVALID"),
                       ("pipe|x", "OBJECT_NAME_INVALID"),
                       ("slash/x", "OBJECT_NAME_INVALID"),
                       ("file:stream", "NOT_SUPPORTED"),
                       ("no-such-dir\\f", "OBJECT_PATH_NOT_FOUND")]:
        r, _ = t.create(name, disp=OPEN_IF)
        expect_status(r, want, "create %r" % name)
    # Unpaired surrogate in the name.
    body = bytearray(create_body("ab"))
    body[56 + 2:56 + 4] = b"\x00\xd8"
    expect_status(t.call(CREATE, bytes(body)), "OBJECT_NAME_INVALID",
                  "lone surrogate")
    r, _ = t.create("missing", disp=OPEN)
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "open missing")
    t.bye()


@case
def case_stream_names(env):
    """Named streams from the wire (MS-FSCC 2.1.5): on --stream-share (a
    file system with user xattrs) every bad name is refused before anything
    is made, dispositions on a missing base, the size limit; on the main
    (tmpfs) share a stream is NOT_SUPPORTED and leaves no base file."""
    if not env.stream_share:
        t = Tree(env)
        t.unlink("nsbase.txt")
        r, _ = t.create("nsbase.txt:s", disp=OPEN_IF)
        expect_status(r, "NOT_SUPPORTED", "stream without user xattrs")
        r, _ = t.create("nsbase.txt", disp=OPEN)
        expect_status(r, "OBJECT_NAME_NOT_FOUND", "no base file left behind")
        t.bye()
        return
    t = Tree(env, env.stream_share)
    t.unlink("sn.txt")
    t.put_file("sn.txt", b"base")
    for name, want in [("sn.txt:", "OBJECT_NAME_INVALID"),
                       ("sn.txt:s:$FOO", "OBJECT_NAME_INVALID"),
                       ("sn.txt:s:$INDEX_ALLOCATION", "OBJECT_NAME_INVALID"),
                       ("sn.txt:s:$DATA:x", "OBJECT_NAME_INVALID"),
                       ("sn.txt:s:", "OBJECT_NAME_INVALID"),
                       ("sn.txt:a/b", "OBJECT_NAME_INVALID"),
                       ("sn.txt:a\0b", "OBJECT_NAME_INVALID"),
                       ("sn.txt:a\\b", "OBJECT_NAME_INVALID"),
                       ("sn.txt:s\\", "OBJECT_NAME_INVALID"),
                       ("dir:s\\f", "OBJECT_NAME_INVALID"),
                       ("sn.txt:" + "x" * 239, "OBJECT_NAME_INVALID"),
                       ("sn.txt:" + "x" * 5000, "OBJECT_NAME_INVALID"),
                       ("sn.txt:*:$DATA", "OBJECT_NAME_NOT_FOUND"),
                       ("no-such-dir\\f:s", "OBJECT_PATH_NOT_FOUND")]:
        r, _ = t.create(name, disp=OPEN)
        expect_status(r, want, "open %r" % name[:40])
    # A data stream is never a directory.
    r, _ = t.create("sn.txt:s", disp=OPEN_IF, options=DIRECTORY_FILE)
    expect_status(r, "NOT_A_DIRECTORY", "stream with DIRECTORY_FILE")
    r, _ = t.create("sn.txt::$DATA", disp=OPEN, options=DIRECTORY_FILE)
    expect_status(r, "NOT_A_DIRECTORY", "::$DATA with DIRECTORY_FILE")
    # The longest name that fits one xattr name, and ::$DATA = the file.
    cr = t.must_create("sn.txt:" + "y" * 238, disp=CREATE_NEW)
    t.close(cr.fid)
    cr = t.must_create("sn.txt::$DATA", disp=OPEN)
    expect_eq(cr.eof, 4, "::$DATA is the file's data")
    t.close(cr.fid)
    # A stream on a missing base, by disposition.
    for disp, want in [(OPEN, "OBJECT_NAME_NOT_FOUND"),
                       (OVERWRITE, "OBJECT_NAME_NOT_FOUND"),
                       (SUPERSEDE, "SUCCESS"), (CREATE_NEW, "SUCCESS"),
                       (OPEN_IF, "SUCCESS"), (OVERWRITE_IF, "SUCCESS")]:
        t.unlink("snb.txt")
        r, cr = t.create("snb.txt:s", disp=disp)
        expect_status(r, want, "missing base, disposition %d" % disp)
        if cr:
            expect_eq(cr.eof, 0, "new stream is empty")
            t.close(cr.fid)
            base = t.must_create("snb.txt", disp=OPEN)
            expect_eq(base.eof, 0, "base made for the stream")
            t.close(base.fid)
        else:
            r, _ = t.create("snb.txt", disp=OPEN)
            expect_status(r, "OBJECT_NAME_NOT_FOUND", "no base made")
    # CREATE of an existing stream collides; data round trip.
    r, _ = t.create("snb.txt:S", disp=CREATE_NEW)
    expect_status(r, "OBJECT_NAME_COLLISION", "stream names ignore case")
    cr = t.must_create("snb.txt:s:$DATA", disp=OPEN, access=GENERIC_ALL)
    expect_status(t.write(cr.fid, b"hello", offset=3), "SUCCESS", "write")
    r, got = t.read(cr.fid, 100)
    expect(got == b"\0\0\0hello", "stream data %r" % got)
    r, _ = t.read(cr.fid, 10, offset=8)
    expect_status(r, "END_OF_FILE", "read at the stream's end")
    # Past the size limit (64 KiB, or what one xattr holds): DISK_FULL.
    expect_status(t.write(cr.fid, b"x", offset=65536), "DISK_FULL",
                  "write past 64 KiB")
    r, got = t.read(cr.fid, 100)
    expect(got == b"\0\0\0hello", "failed writes changed nothing")
    # Up to 64 KiB if one xattr holds it (ext4 without ea_inode: a block).
    r = t.write(cr.fid, b"z" * 65000)
    if r.status == ST["SUCCESS"]:
        r, got = t.read(cr.fid, 65536)
        expect(got == b"z" * 65000, "64 KiB stream read back")
    else:
        expect_status(r, "DISK_FULL", "write larger than one xattr")
        r, got = t.read(cr.fid, 100)
        expect(got == b"\0\0\0hello", "refused write changed nothing")
    # Delete-on-close of the stream leaves the file.
    expect_status(t.dispose(cr.fid), "SUCCESS", "stream disposition")
    t.close(cr.fid)
    r, _ = t.create("snb.txt:s", disp=OPEN)
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "stream deleted")
    base = t.must_create("snb.txt", disp=OPEN)
    t.close(base.fid)
    t.unlink("snb.txt")
    t.unlink("sn.txt")
    t.bye()


@case
def case_dispositions(env):
    t = Tree(env)
    t.unlink("disp.txt")
    cr = t.must_create("disp.txt", disp=CREATE_NEW)
    expect_eq(cr.action, 2, "CREATE: FILE_CREATED")
    t.write(cr.fid, b"0123456789")
    t.close(cr.fid)
    r, _ = t.create("disp.txt", disp=CREATE_NEW)
    expect_status(r, "OBJECT_NAME_COLLISION", "CREATE on existing")
    cr = t.must_create("DISP.TXT", disp=OPEN)
    expect_eq(cr.action, 1, "OPEN (case-insensitive): FILE_OPENED")
    expect_eq(cr.eof, 10, "EndOfFile of the existing file")
    t.close(cr.fid)
    cr = t.must_create("disp.txt", disp=OVERWRITE)
    expect_eq(cr.action, 3, "OVERWRITE: FILE_OVERWRITTEN")
    expect_eq(cr.eof, 0, "overwritten to empty")
    t.close(cr.fid)
    cr = t.must_create("disp.txt", disp=SUPERSEDE)
    expect_eq(cr.action, 0, "SUPERSEDE: FILE_SUPERSEDED")
    t.close(cr.fid)
    r, _ = t.create("nothere.txt", disp=OVERWRITE)
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "OVERWRITE missing")
    r, _ = t.create("disp.txt", disp=OPEN, options=DIRECTORY_FILE)
    expect_status(r, "NOT_A_DIRECTORY", "DIRECTORY_FILE on a file")
    t.unlink("ddir")
    cr = t.must_create("ddir", disp=CREATE_NEW, options=DIRECTORY_FILE,
                       access=GENERIC_ALL)
    expect(cr.attrs & 0x10, "directory attribute")
    t.close(cr.fid)
    r, _ = t.create("ddir", disp=OPEN, options=NON_DIRECTORY_FILE)
    expect_status(r, "FILE_IS_A_DIRECTORY", "NON_DIRECTORY_FILE on a dir")
    t.unlink("ddir")
    t.unlink("disp.txt")
    r, _ = t.create("disp.txt", disp=OPEN)
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "deleted on close")
    t.bye()


@case
def case_create_contexts(env):
    t = Tree(env)
    ctxs = chain_ctxs([create_ctx(b"MxAc", b""), create_ctx(b"QFid", b"")])
    cr = t.must_create("ctx.txt", disp=OVERWRITE_IF, ctxs=ctxs)
    expect(b"MxAc" in cr.contexts, "MxAc answered")
    qstatus, access = struct.unpack("<II", cr.contexts[b"MxAc"])
    expect_eq(qstatus, 0, "MxAc QueryStatus")
    expect(access & FILE_WRITE_DATA and access & DELETE, "maximal access 0x%x" % access)
    expect(b"QFid" in cr.contexts and len(cr.contexts[b"QFid"]) == 32, "QFid")
    expect(struct.unpack_from("<Q", cr.contexts[b"QFid"])[0] != 0, "disk file id")
    t.close(cr.fid)
    # A context whose name runs past its end: refused by the gate.
    bad = bytearray(create_ctx(b"MxAc", b""))
    struct.pack_into("<H", bad, 6, 200)
    r, _ = t.create("ctx.txt", ctxs=bytes(bad))
    expect_status(r, "INVALID_PARAMETER", "context NameLength past the end")
    # DataOffset 0 with a length (ZDI-CAN-21824 shape).
    bad = bytearray(create_ctx(b"AlSi", struct.pack("<Q", 4096)))
    struct.pack_into("<H", bad, 10, 0)
    r, _ = t.create("ctx.txt", ctxs=bytes(bad))
    expect_status(r, "INVALID_PARAMETER", "context DataOffset 0")
    # ExtA whose NextEntryOffset points outside the buffer.
    ea = struct.pack("<IBBH", 64, 0, 2, 1) + b"ab\0x"
    r, _ = t.create("ctx.txt", ctxs=create_ctx(b"ExtA", ea))
    expect_status(r, "INVALID_PARAMETER", "ExtA chain past the end")
    # A good ExtA, and unknown contexts, are accepted.
    ea = struct.pack("<IBBH", 0, 0, 3, 2) + b"foo\0hi"
    ctxs = chain_ctxs([create_ctx(b"ExtA", ea), create_ctx(b"Zzzz", b"1234")])
    cr = t.must_create("ctx.txt", ctxs=ctxs)
    t.close(cr.fid)
    t.unlink("ctx.txt")
    t.bye()


@case
def case_read_write(env):
    t = Tree(env)
    cr = t.must_create("rw.bin", disp=OVERWRITE_IF)
    data = os.urandom(60000)
    r = t.write(cr.fid, data)
    expect_status(r, "SUCCESS", "write")
    expect_eq(struct.unpack_from("<I", r.body, 4)[0], len(data), "count")
    r, got = t.read(cr.fid, 60000)
    expect_status(r, "SUCCESS", "read back")
    expect(got == data, "data read back differs")
    r, got = t.read(cr.fid, 100, offset=59990)
    expect_eq(len(got), 10, "short read at the end")
    r, got = t.read(cr.fid, 100, offset=60000)
    expect_status(r, "END_OF_FILE", "read at EOF")
    r, got = t.read(cr.fid, 100, offset=1 << 40)
    expect_status(r, "END_OF_FILE", "read far past EOF")
    r, got = t.read(cr.fid, 100, offset=59990, min_count=50)
    expect_status(r, "END_OF_FILE", "MinimumCount not reached")
    r, got = t.read(cr.fid, 10, offset=0xFFFFFFFFFFFFFFF0)
    expect_status(r, "INVALID_PARAMETER", "offset overflowing")
    # Append: offset all ones.
    r = t.write(cr.fid, b"tail", offset=0xFFFFFFFFFFFFFFFF)
    expect_status(r, "SUCCESS", "append")
    r, got = t.read(cr.fid, 4, offset=60000)
    expect(got == b"tail", "appended data")
    expect_status(t.call(FLUSH, struct.pack("<HHIQQ", 24, 0, 0, *cr.fid)),
                  "SUCCESS", "flush")
    # Write-through flag.
    expect_status(t.write(cr.fid, b"x", offset=5, flags=1), "SUCCESS",
                  "write-through")
    t.close(cr.fid)
    r, _ = t.read(cr.fid, 10)
    expect_status(r, "FILE_CLOSED", "read after close")
    expect_status(t.close(cr.fid), "FILE_CLOSED", "second close")
    t.unlink("rw.bin")
    t.bye()


def write_raw(t, fid, data_off, length, payload):
    body = struct.pack("<HHIQQQIIHHI", 49, data_off, length, 0, fid[0],
                       fid[1], 0, 0, 0, 0, 0) + payload
    return t.call(WRITE, body)


@case
def case_write_edges(env):
    t = Tree(env)
    cr = t.must_create("edge.bin", disp=OVERWRITE_IF)
    # Exactly the element: accepted.
    expect_status(write_raw(t, cr.fid, 112, 8, b"12345678"), "SUCCESS",
                  "data to the last byte")
    # One byte past the element.
    expect_status(write_raw(t, cr.fid, 112, 9, b"12345678"),
                  "INVALID_PARAMETER", "length one past the element")
    # Offset inside the fixed part (CVE-2022-47940 / bb29d2b shapes).
    expect_status(write_raw(t, cr.fid, 0, 8, b"12345678"),
                  "INVALID_PARAMETER", "DataOffset 0")
    expect_status(write_raw(t, cr.fid, 100, 8, b"12345678"),
                  "INVALID_PARAMETER", "DataOffset in the header")
    expect_status(write_raw(t, cr.fid, 112, 0xFFFFFFFF, b"1"),
                  "INVALID_PARAMETER", "huge length")
    expect_status(write_raw(t, cr.fid, 0xFFFF, 1, b"1"),
                  "INVALID_PARAMETER", "offset past the element")
    # Zero-length write.
    expect_status(write_raw(t, cr.fid, 112, 0, b""), "SUCCESS", "empty write")
    r, got = t.read(cr.fid, 100)
    expect(got == b"12345678", "only the valid write landed: %r" % got)
    t.close(cr.fid)
    t.unlink("edge.bin")
    t.bye()


@case
def case_access_checks(env):
    t = Tree(env)
    t.put_file("acc.txt", b"hello")
    cr = t.must_create("acc.txt", access=FILE_READ_ATTRIBUTES, disp=OPEN)
    r, _ = t.read(cr.fid, 5)
    expect_status(r, "ACCESS_DENIED", "read without read access")
    expect_status(t.write(cr.fid, b"x"), "ACCESS_DENIED",
                  "write without write access")
    t.close(cr.fid)
    cr = t.must_create("acc.txt", access=GENERIC_READ, disp=OPEN)
    expect_status(t.write(cr.fid, b"x"), "ACCESS_DENIED", "write on read-only open")
    r, data = t.read(cr.fid, 5)
    expect(data == b"hello", "read on read open")
    t.close(cr.fid)
    r, _ = t.create("acc.txt", access=GENERIC_READ, disp=OPEN,
                    options=DELETE_ON_CLOSE)
    expect_status(r, "ACCESS_DENIED", "DELETE_ON_CLOSE without DELETE")
    cr = t.must_create("acc.txt", access=MAXIMUM_ALLOWED, disp=OPEN)
    r, data = t.read(cr.fid, 5)
    expect(data == b"hello", "MAXIMUM_ALLOWED grants read")
    t.close(cr.fid)
    t.unlink("acc.txt")
    t.bye()


@case
def case_share_modes(env):
    t = Tree(env)
    a = t.must_create("share.txt", disp=OVERWRITE_IF, share=1)  # read only
    r, _ = t.create("share.txt", access=GENERIC_WRITE, disp=OPEN)
    expect_status(r, "SHARING_VIOLATION", "writer vs share-read")
    b = t.must_create("share.txt", access=GENERIC_READ, disp=OPEN)
    r, _ = t.create("share.txt", access=FILE_READ_ATTRIBUTES, disp=OPEN, share=0)
    expect_status(r, "SUCCESS", "attribute-only open never conflicts")
    t.close(Created(r).fid)
    t.close(b.fid)
    t.close(a.fid)
    c = t.must_create("share.txt", access=GENERIC_WRITE, disp=OPEN)
    t.close(c.fid)
    # Delete pending blocks new opens until the last close.
    d = t.must_create("share.txt", access=DELETE | GENERIC_READ, disp=OPEN,
                      options=DELETE_ON_CLOSE)
    e = t.must_create("share.txt", access=GENERIC_READ, disp=OPEN)
    t.close(d.fid)
    r, _ = t.create("share.txt", access=GENERIC_READ, disp=OPEN)
    expect_status(r, "DELETE_PENDING", "open while delete pending")
    t.close(e.fid)
    r, _ = t.create("share.txt", disp=OPEN)
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "deleted at the last close")
    t.bye()


@case
def case_delete_on_close_data_handles(env):
    """Delete-on-close run by the last close of a handle that has data
    access (a real open file, not O_PATH), alone and after other opens of
    the same file, many times over: the server must keep its own
    reference on the dentry while it unlinks, or the file's last fput
    finds a negative dentry (guest oops in __fput)."""
    t = Tree(env)
    rw = DELETE | GENERIC_READ | GENERIC_WRITE
    for i in range(20):
        name = "doc%d.txt" % i
        # Alone, delete asked at CREATE.
        t.put_file(name, b"x" * 100)
        cr = t.must_create(name, access=rw, disp=OPEN, options=DELETE_ON_CLOSE)
        t.close(cr.fid)
        r, _ = t.create(name, disp=OPEN)
        expect_status(r, "OBJECT_NAME_NOT_FOUND", "deleted at close (%d)" % i)
        # Alone, delete asked by SET_INFO on a read/write handle.
        cr = t.must_create(name, access=rw, disp=OVERWRITE_IF)
        expect_status(t.write(cr.fid, b"data"), "SUCCESS", "write")
        expect_status(t.dispose(cr.fid), "SUCCESS", "disposition")
        t.close(cr.fid)
        r, _ = t.create(name, disp=OPEN)
        expect_status(r, "OBJECT_NAME_NOT_FOUND", "disposed at close (%d)" % i)
        # Two handles: the deleting one closes first, a reader last.
        t.put_file(name, b"y")
        d = t.must_create(name, access=rw, disp=OPEN, options=DELETE_ON_CLOSE)
        e = t.must_create(name, access=GENERIC_READ, disp=OPEN)
        t.close(d.fid)
        r, data = t.read(e.fid, 1)
        expect(data == b"y", "reader still reads after the delete close")
        t.close(e.fid)
        r, _ = t.create(name, disp=OPEN)
        expect_status(r, "OBJECT_NAME_NOT_FOUND", "deleted at last close (%d)" % i)
        # A directory opened for listing, removed at its close.
        dname = "docdir%d" % i
        cr = t.must_create(dname, access=DELETE | GENERIC_READ,
                           disp=CREATE_NEW, options=DIRECTORY_FILE | DELETE_ON_CLOSE)
        t.close(cr.fid)
        r, _ = t.create(dname, disp=OPEN, options=DIRECTORY_FILE)
        expect_status(r, "OBJECT_NAME_NOT_FOUND", "directory removed (%d)" % i)
    t.bye()


@case
def case_delete_non_empty_dir(env):
    """A non-empty directory: SET_INFO disposition answers
    DIRECTORY_NOT_EMPTY; CREATE with DELETE_ON_CLOSE opens it but arms
    nothing (no delete pending for others, nothing removed at close)."""
    t = Tree(env)
    d = t.must_create("nedir", access=GENERIC_ALL, disp=OPEN_IF,
                      options=DIRECTORY_FILE)
    t.put_file("nedir\\inside", b"x")
    expect_eq(t.dispose(d.fid).status, 0xC0000101,
              "disposition on a non-empty directory")
    t.close(d.fid)
    d = t.must_create("nedir", access=GENERIC_READ | DELETE, disp=OPEN,
                      options=DIRECTORY_FILE | DELETE_ON_CLOSE)
    e = t.must_create("nedir", access=GENERIC_READ, disp=OPEN,
                      options=DIRECTORY_FILE)
    t.close(d.fid)
    # Armed, the close of d would have left a delete pending until e's.
    f = t.must_create("nedir", access=GENERIC_READ, disp=OPEN,
                      options=DIRECTORY_FILE)
    t.close(f.fid)
    t.close(e.fid)
    t.unlink("nedir\\inside")
    d = t.must_create("nedir", access=GENERIC_READ | DELETE, disp=OPEN,
                      options=DIRECTORY_FILE)
    expect_status(t.dispose(d.fid), "SUCCESS", "disposition once empty")
    t.close(d.fid)
    r, _ = t.create("nedir", disp=OPEN, options=DIRECTORY_FILE)
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "empty directory removed")
    t.bye()


@case
def case_rename_parent_open_scope(env):
    """A rename inside a directory that the renaming session holds open
    with DELETE (sharing no delete) is SHARING_VIOLATION (smb2.rename's
    rule); another session's open of that directory, a watcher's say,
    does not stop it (Samba's scope; smb2.notify-inotify.inotify-rename)."""
    a, b = Tree(env), Tree(env)
    for n in ("rps\\one", "rps\\two", "rps\\three", "rps\\four"):
        a.unlink(n)
    d = a.must_create("rps", access=GENERIC_ALL, disp=OPEN_IF,
                      options=DIRECTORY_FILE, share=SHARE_READ | SHARE_WRITE)
    f = b.must_create("rps\\one", access=GENERIC_READ | DELETE,
                      disp=OVERWRITE_IF)
    expect_status(b.rename(f.fid, "rps\\two", False), "SUCCESS",
                  "rename while another session holds the folder")
    b.close(f.fid)
    f = a.must_create("rps\\three", access=GENERIC_READ | DELETE,
                      disp=OVERWRITE_IF)
    expect_status(a.rename(f.fid, "rps\\four", False), "SHARING_VIOLATION",
                  "rename while the same session holds the folder")
    a.close(f.fid)
    a.close(d.fid)
    r, _ = a.create("rps\\two", disp=OPEN)
    expect_status(r, "SUCCESS", "the other session's rename happened")
    a.close(Created(r).fid)
    r, _ = a.create("rps\\four", disp=OPEN)
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "the refused rename left no name")
    for n in ("rps\\two", "rps\\three"):
        a.unlink(n)
    a.bye()
    b.bye()


@case
def case_related_compound(env):
    t = Tree(env)
    sid, tid = t.sess.id, t.tid
    data = b"compound data"
    wbody = struct.pack("<HHIQQQIIHHI", 49, 112, len(data), 0, *ALL_ONES,
                        0, 0, 0, 0, 0) + data
    rbody = struct.pack("<HBBIQQQIIIHH", 49, 0, 0, 100, 0, *ALL_ONES,
                        0, 0, 0, 0, 0) + b"\0"
    cbody = struct.pack("<HHIQQ", 24, 1, 0, *ALL_ONES)
    rs = compound(t.c, [
        (CREATE, create_body("cmp.txt", disp=OVERWRITE_IF), sid, tid, 0),
        (WRITE, wbody, sid, tid, FLAG_RELATED),
        (READ, rbody, sid, tid, FLAG_RELATED),
        (CLOSE, cbody, sid, tid, FLAG_RELATED),
    ])
    expect_eq([r.status for r in rs], [0, 0, 0, 0], "compound statuses")
    doff, _, dlen = struct.unpack_from("<BBI", rs[2].body, 2)
    expect(rs[2].raw[doff:doff + dlen] == data, "read in compound")
    eof = struct.unpack_from("<Q", rs[3].body, 48)[0]
    expect_eq(eof, len(data), "CLOSE POSTQUERY EndOfFile")
    # All-ones FileId without a related CREATE: nothing to find.
    rs = compound(t.c, [(READ, rbody, sid, tid, 0)])
    expect_status(rs[0], "FILE_CLOSED", "unrelated all-ones FileId")
    t.unlink("cmp.txt")
    t.bye()


@case
def case_handles_scoped(env):
    t = Tree(env)
    cr = t.must_create("scope.txt", disp=OVERWRITE_IF)
    u = Tree(env)
    r, _ = u.read(cr.fid, 1)
    expect_status(r, "FILE_CLOSED", "another session's handle")
    expect_status(u.close(cr.fid), "FILE_CLOSED", "close another session's handle")
    u.bye()
    r = t.write(cr.fid, b"still mine")
    expect_status(r, "SUCCESS", "handle survives the other session")
    t.close(cr.fid)
    t.unlink("scope.txt")
    t.bye()


@case
def case_symlinks_refused(env):
    t = Tree(env)
    for name in ("link", "link\\passwd", "flink"):
        r, _ = t.create(name, access=GENERIC_READ, disp=OPEN, options=0)
        expect_status(r, "ACCESS_DENIED", "through symlink %r" % name)
    t.bye()


# MS-RPCE bind to srvsvc v3.0 with the NDR transfer syntax.
SRVSVC = bytes.fromhex("c84f324b7016d30112785a47bf6ee188") + struct.pack("<HH", 3, 0)
NDR = bytes.fromhex("045d888aeb1cc9119fe808002b104860") + struct.pack("<I", 2)


def rpc_bind():
    body = struct.pack("<HHIBBH", 4280, 4280, 0, 1, 0, 0) + \
        struct.pack("<HBB", 0, 1, 0) + SRVSVC + NDR
    hdr = struct.pack("<BBBB4sHHI", 5, 0, 11, 3, b"\x10\0\0\0",
                      16 + len(body), 0, 1)
    return hdr + body


@case
def case_pipe_srvsvc(env):
    t = Tree(env, "IPC$")
    r, cr = t.create("srvsvc", access=GENERIC_READ | GENERIC_WRITE,
                     disp=OPEN, options=0)
    expect_status(r, "SUCCESS", "open srvsvc")
    r, out = t.ioctl(cr.fid, 0x0011C017, rpc_bind(), max_out=4280)
    expect_status(r, "SUCCESS", "transceive bind")
    expect(len(out) >= 24 and out[0] == 5 and out[2] == 12,
           "bind_ack expected, got %r" % out[:4])
    # Write/read the same exchange.
    expect_status(t.write(cr.fid, rpc_bind()), "SUCCESS", "pipe write")
    r, data = t.read(cr.fid, 4280)
    expect(r.status == 0 and data[:1] == b"\x05", "pipe read answer")
    t.close(cr.fid)
    r, _ = t.create("nosuchpipe", access=GENERIC_READ, disp=OPEN, options=0)
    expect_status(r, "OBJECT_NAME_NOT_FOUND", "unknown pipe")
    t.bye()


@case
def case_fsctls(env):
    t = Tree(env)
    t.put_file("src.bin", bytes(range(256)) * 64)   # 16 KiB
    src = t.must_create("src.bin", access=GENERIC_READ, disp=OPEN)
    dst = t.must_create("dst.bin", disp=OVERWRITE_IF)
    r, _ = t.ioctl(src.fid, 0x000900A8)
    expect_status(r, "NOT_A_REPARSE_POINT", "get reparse point")
    r, _ = t.ioctl(src.fid, 0x00090000 | 0x1234)
    expect_status(r, "NOT_SUPPORTED", "unknown FSCTL")
    r, key = t.ioctl(src.fid, 0x00140078, max_out=32)
    expect_status(r, "SUCCESS", "resume key")
    expect_eq(len(key), 32, "resume key size")
    chunks = [(0, 0, 8192), (8192, 10000, 8192)]
    cc = key[:24] + struct.pack("<II", len(chunks), 0) + b"".join(
        struct.pack("<QQII", s, d, n, 0) for s, d, n in chunks)
    r, out = t.ioctl(dst.fid, 0x001480F2, cc, max_out=12)
    expect_status(r, "SUCCESS", "copychunk write")
    expect_eq(struct.unpack("<III", out), (2, 0, 16384), "copychunk answer")
    r, got = t.read(dst.fid, 8192, offset=10000)
    expect(got == (bytes(range(256)) * 64)[8192:], "copied bytes")
    # Over the limits: the answer names them.
    cc = key[:24] + struct.pack("<II", 257, 0) + \
        struct.pack("<QQII", 0, 0, 1, 0) * 257
    r, out = t.ioctl(dst.fid, 0x001480F2, cc, max_out=12)
    expect_status(r, "INVALID_PARAMETER", "257 chunks")
    expect_eq(struct.unpack("<III", out), (256, 1 << 20, 16 << 20), "limits")
    cc = key[:24] + struct.pack("<II", 1, 0) + struct.pack("<QQII", 0, 0, 2 << 20, 0)
    r, out = t.ioctl(dst.fid, 0x001480F2, cc, max_out=12)
    expect_status(r, "INVALID_PARAMETER", "2 MiB chunk")
    # Count larger than the input holds.
    cc = key[:24] + struct.pack("<II", 5, 0) + struct.pack("<QQII", 0, 0, 1, 0)
    r, _ = t.ioctl(dst.fid, 0x001480F2, cc, max_out=12)
    expect_status(r, "INVALID_PARAMETER", "ChunkCount past the input")
    # Zero data punches a hole; allocated ranges still answer.
    r, _ = t.ioctl(dst.fid, 0x000980C8, struct.pack("<QQ", 0, 4096))
    expect_status(r, "SUCCESS", "set zero data")
    r, got = t.read(dst.fid, 16)
    expect(got == b"\0" * 16, "zeroed range reads zeros")
    r, out = t.ioctl(dst.fid, 0x000940CF, struct.pack("<QQ", 0, 1 << 20))
    expect_status(r, "SUCCESS", "query allocated ranges")
    expect(len(out) % 16 == 0 and len(out) >= 16, "ranges: %d bytes" % len(out))
    r, _ = t.ioctl(src.fid, 0x000900C4, b"\x01")
    expect_status(r, "ACCESS_DENIED", "set sparse on a read-only handle")
    r, _ = t.ioctl(dst.fid, 0x000900C4, b"\x01")
    expect_status(r, "SUCCESS", "set sparse with write access")
    t.close(src.fid)
    t.close(dst.fid)
    t.unlink("src.bin")
    t.unlink("dst.bin")
    t.bye()


@case
def case_teardown_closes(env):
    """Handles left open by logoff, tree disconnect and a dropped socket."""
    for how in ("logoff", "tdis", "drop"):
        t = Tree(env)
        for i in range(5):
            t.must_create("left%d.txt" % i, disp=OVERWRITE_IF)
        if how == "logoff":
            expect_eq(t.c.logoff(t.sess).status, 0, "logoff")
        elif how == "tdis":
            expect_eq(t.c.tree_disconnect(t.sess, t.tid).status, 0, "tdis")
        t.bye()
    t = Tree(env)
    for i in range(5):
        t.unlink("left%d.txt" % i)
    t.bye()


def dir_file_id(t, dfid, cls, name):
    """FileId of name from a FileIdBoth/IdFull directory listing."""
    p = name.encode("utf-16-le")
    body = struct.pack("<HBBI", 33, cls, 0x1, 0) + struct.pack("<QQ", *dfid)
    body += struct.pack("<HHI", 64 + 32, len(p), 4096) + p
    r = t.call(QUERY_DIRECTORY, body)
    expect_status(r, "SUCCESS", "query directory class %d" % cls)
    off, _ = struct.unpack_from("<HI", r.body, 2)
    at = {37: 96, 38: 72}[cls]
    return struct.unpack_from("<Q", r.raw, off + at)[0]


@case
def case_file_ids_consistent(env):
    """QFid's DiskFileId, FileInternalInformation and the FileId of
    FileIdBothDirectory / FileIdFullDirectory are one number, the backing
    inode's, for files and directories (the cifs client drops server inode
    numbers when they disagree)."""
    t = Tree(env)
    qfid = create_ctx(b"QFid", b"")
    root = t.must_create("", access=GENERIC_READ, disp=OPEN,
                         options=DIRECTORY_FILE)
    for name, opts in (("ids.txt", NON_DIRECTORY_FILE),
                       ("idsdir", DIRECTORY_FILE)):
        cr = t.must_create(name, disp=OPEN_IF, options=opts, ctxs=qfid,
                           access=GENERIC_READ | DELETE)
        disk = struct.unpack_from("<Q", cr.contexts[b"QFid"])[0]
        body = struct.pack("<HBBIHHIII", 41, 1, 6, 8, 0, 0, 0, 0, 0)
        body += struct.pack("<QQ", *cr.fid) + b"\0"
        r = t.call(QUERY_INFO, body)
        expect_status(r, "SUCCESS", "FileInternalInformation")
        off = struct.unpack_from("<H", r.body, 2)[0]
        internal = struct.unpack_from("<Q", r.raw, off)[0]
        both = dir_file_id(t, root.fid, 37, name)
        full = dir_file_id(t, root.fid, 38, name)
        expect(disk != 0, "%s: a file id" % name)
        expect_eq((internal, both, full), (disk,) * 3,
                  "%s: Internal/IdBoth/IdFull vs QFid" % name)
        if os.path.isdir(env.share_dir):
            ino = os.lstat(os.path.join(env.share_dir, name)).st_ino
            expect_eq(disk, ino, "%s: the backing inode number" % name)
        expect_status(t.dispose(cr.fid), "SUCCESS", "delete " + name)
        t.close(cr.fid)
    t.close(root.fid)
    t.bye()


STATS = "/sys/class/ksmbd-control/stats"


def live(key):
    """One of the server's live-object counts (the client runs in the
    guest)."""
    with open(STATS) as f:
        for line in f:
            k, _, v = line.partition(" ")
            if k == key:
                return int(v)
    raise AssertionError("no %s in %s" % (key, STATS))


def open_files():
    return live("open_files")


def wait_connections(limit, what, secs=10.0):
    """Until at most limit connections are left: a connection's count
    drops after its last request has ended, so a dropped connection's
    unanswered CREATEs can no longer open anything."""
    end = time.monotonic() + secs
    while live("connections") > limit and time.monotonic() < end:
        time.sleep(0.05)
    expect(live("connections") <= limit,
           "connections left after %s: %d, expected at most %d"
           % (what, live("connections"), limit))


def server_stacks():
    """The kernel stacks of the server's threads and of workers running
    its code: what still holds a file when one outlives its teardown."""
    out = []
    for pid in sorted((p for p in os.listdir("/proc") if p.isdigit()), key=int):
        try:
            with open("/proc/%s/comm" % pid) as f:
                comm = f.read().strip()
            with open("/proc/%s/stack" % pid) as f:
                stack = f.read()
        except OSError:
            continue
        if comm.startswith("ksmbd") or "[ksmbd]" in stack:
            out.append("%s %s:\n%s" % (pid, comm, stack))
    return "".join(out)


def wait_open_files_zero(what, secs=10.0):
    end = time.monotonic() + secs
    while open_files() and time.monotonic() < end:
        time.sleep(0.05)
    if open_files():
        with open(STATS) as f:
            sys.stderr.write("# %s: stats:\n%s# server threads:\n%s"
                             % (what, f.read(), server_stacks()))
    expect_eq(open_files(), 0, "open files left after " + what)


def burst(t, items):
    """Pipelined requests (one write), answered in any order."""
    frames = b""
    for cmd, body in items:
        msg = t.c.build(cmd, body, session=t.sess.id, tree=t.tid)
        frames += struct.pack(">I", len(msg)) + msg
    t.c.send_raw(frames)
    return [Response(t.c.recv_frame()) for _ in items]


def write_frame(t, fid, data, offset=0):
    """A whole WRITE frame (RFC1002 length first), for sending in parts."""
    charge = max(1, (len(data) + 65535) // 65536)
    msg = bytearray(t.c.build(WRITE, struct.pack(
        "<HHIQQQIIHHI", 49, 112, len(data), offset, fid[0], fid[1],
        0, 0, 0, 0, 0) + data, session=t.sess.id, tree=t.tid))
    struct.pack_into("<H", msg, 6, charge)
    t.c.mid += charge - 1
    return struct.pack(">I", len(msg)) + bytes(msg)


@case
def case_create_vs_teardown(env):
    """CREATEs in flight while the tree is disconnected, the session logs
    off or the connection drops: a CREATE that publishes its handle after
    the teardown swept the table must not leave it there. Each new file is
    opened without sharing, so a leaked handle also shows as a sharing
    violation for the next opener."""
    tdis = struct.pack("<HH", 4, 0)
    names = ["race%d.txt" % k for k in range(4)]
    wait_open_files_zero("earlier cases")
    for rnd in range(24):
        how = ("tdis", "logoff", "drop")[rnd % 3]
        conns = live("connections")
        t = Tree(env)
        items = [(CREATE, create_body(n, disp=OVERWRITE_IF, share=0))
                 for n in names]
        if how == "drop":
            msgs = b""
            for cmd, body in items:
                msg = t.c.build(cmd, body, session=t.sess.id, tree=t.tid)
                msgs += struct.pack(">I", len(msg)) + msg
            t.c.send_raw(msgs)
            time.sleep(0.002 * (rnd % 4))
            t.bye()
        else:
            items.insert(1 + rnd % 4, (TREE_DISCONNECT
                                       if how == "tdis" else LOGOFF,
                                       tdis))
            for r in burst(t, items):
                expect(r.status in (0, 0xC00000C9, 0xC0000203),
                       "%s round %d: command %d answered %s" %
                       (how, rnd, r.command, status_name(r.status)))
            if how == "tdis":
                # The session lives on: no handle of the gone tree may.
                wait_open_files_zero("tree disconnect, round %d" % rnd, 5)
            t.bye()
        # A dropped connection's CREATEs may still be running (the file
        # they open is counted until they find the session gone).
        wait_connections(conns, "%s, round %d" % (how, rnd))
        wait_open_files_zero("%s, round %d" % (how, rnd))
    t = Tree(env)
    for n in names:
        cr = t.must_create(n, access=GENERIC_READ | GENERIC_WRITE | DELETE,
                           disp=OPEN_IF, share=0, options=DELETE_ON_CLOSE)
        t.close(cr.fid)
    t.bye()


def random_file(t, name, size):
    """A new file of size random bytes, written 64 KiB at a time: its
    handle's create answer and the bytes."""
    cr = t.must_create(name, disp=OVERWRITE_IF)
    data = os.urandom(size)
    for at in range(0, len(data), 65536):
        expect_status(t.write(cr.fid, data[at:at + 65536], offset=at),
                      "SUCCESS", "write at %d" % at)
    return cr, data


def read_frames(t, fid, spans):
    """READ requests for (offset, length), each with its length prefix;
    and their message ids."""
    msgs = [t.build(READ, read_body(fid, ln, off),
                    charge=max(1, (ln + 65535) // 65536)) for off, ln in spans]
    mids = [struct.unpack_from("<Q", m, 24)[0] for m in msgs]
    return [struct.pack(">I", len(m)) + m for m in msgs], mids


def read_answers(t, mids, what):
    """The data of the answers to mids, in the order of mids, whatever
    the order they came in."""
    got = {}
    while len(got) < len(mids):
        r = Response(t.c.recv_frame())
        expect_status(r, "SUCCESS", "%s read mid %d" % (what, r.mid))
        expect(r.mid in mids and r.mid not in got,
               "%s: unexpected answer mid %d" % (what, r.mid))
        doff, _, dlen = struct.unpack_from("<BBI", r.body, 2)
        got[r.mid] = r.raw[doff:doff + dlen]
    return [got[m] for m in mids]


def pipelined_reads(t, fid, spans):
    """READs of (offset, length) sent in one segment, all in flight at
    once; their data in the order asked."""
    frames, mids = read_frames(t, fid, spans)
    t.c.send_raw(b"".join(frames))
    return read_answers(t, mids, "pipelined")


@case
def case_cached_reads(env):
    """Small READs whose data is in the page cache are served in the
    receive thread even with others of the connection in flight
    (reads_inline); reads of data not in memory (a hole of a sparse tmpfs
    file has no page) or bigger than 64 KiB go to the workers. Only the last of a batch may find nothing else in flight and
    run alone. Every answer carries its own data."""
    t = Tree(env)
    cr, data = random_file(t, "cached.bin", 512 * 1024)
    spans = [((i * 37) % 120 * 4096, 4096) for i in range(16)]
    spans += [(4096 * 7 + 100, 3000), (65536 * 3, 65536)]
    before = live("reads_inline")
    got = pipelined_reads(t, cr.fid, spans)
    for (off, ln), d in zip(spans, got):
        expect(d == data[off:off + ln], "cached read at %d differs" % off)
    expect_eq(live("reads_inline") - before, len(spans),
              "reads served in the receive thread of %d cached" % len(spans))

    # A hole: no page in memory. Past 64 KiB: to the workers.
    expect_status(t.write(cr.fid, b"end", offset=64 << 20), "SUCCESS",
                  "write past a hole")
    for what, spans in (
            ("hole", [((8 << 20) + i * 65536, 4096) for i in range(8)]),
            ("128 KiB", [(i * 131072, 131072) for i in range(4)])):
        before = live("reads_inline")
        got = pipelined_reads(t, cr.fid, spans)
        for (off, ln), d in zip(spans, got):
            want = data[off:off + ln] if off < len(data) else bytes(ln)
            expect(d == want, "%s read at %d differs" % (what, off))
        expect(live("reads_inline") - before <= 1,
               "%s: %d of %d reads served in the receive thread" %
               (what, live("reads_inline") - before, len(spans)))
    t.close(cr.fid)
    t.unlink("cached.bin")
    t.bye()


@case
def case_corked_answers(env):
    """While the client has more frames waiting, the answers to the ones
    before them are corked and go out together (answer_corks); a client
    that waits for each answer is never corked; and whatever is corked is
    pushed before the receive thread waits for the client: answers to the
    complete frames arrive while the rest of the next frame is held back."""
    t = Tree(env)
    cr, data = random_file(t, "corked.bin", 256 * 1024)
    spans = [((i * 13) % 60 * 4096, 4096) for i in range(12)]

    before = live("answer_corks")
    for off, ln in spans:
        r, got = t.read(cr.fid, ln, off)
        expect_status(r, "SUCCESS", "lone read at %d" % off)
        expect(got == data[off:off + ln], "lone read at %d differs" % off)
    expect_eq(live("answer_corks") - before, 0,
              "corks for reads sent one at a time")

    before = live("answer_corks")
    got = pipelined_reads(t, cr.fid, spans)
    for (off, ln), d in zip(spans, got):
        expect(d == data[off:off + ln], "pipelined read at %d differs" % off)
    expect(live("answer_corks") > before,
           "no cork for %d reads sent in one segment" % len(spans))

    # The complete frames' answers while the last frame stops halfway.
    # TCP sends what was left corked by itself after at least 200 ms (its
    # probe timer, never sooner); pushed by the server, they come at once.
    # The quickest of five tries shows which, whatever this host's noise.
    waits = []
    for _ in range(5):
        frames, mids = read_frames(t, cr.fid, spans[:5])
        held = len(frames[-1]) // 2
        t0 = time.monotonic()
        t.c.send_raw(b"".join(frames)[:-held])
        got = read_answers(t, mids[:-1], "before the held rest")
        waits.append(time.monotonic() - t0)
        for (off, ln), d in zip(spans, got):
            expect(d == data[off:off + ln], "read at %d differs" % off)
        t.c.send_raw(frames[-1][-held:])
        got = read_answers(t, mids[-1:], "after the rest")
        off, ln = spans[4]
        expect(got[0] == data[off:off + ln], "the completed read differs")
    expect(min(waits) < 0.15,
           "answers waited for TCP's timer while a frame was held: "
           "%s s" % " ".join("%.3f" % w for w in waits))
    t.close(cr.fid)
    t.unlink("corked.bin")
    t.bye()


@case
def case_cached_reads_cold(env):
    """On a disk file system (the freeze share, ext4): READs of a file
    just dropped from the page cache go to the workers; once read, the
    same READs are served in the receive thread. A stream's data (an
    xattr) always goes to the workers."""
    if not env.freeze_share or not env.freeze_path:
        raise AssertionError("needs --freeze-share and --freeze-path")
    t = Tree(env, env.freeze_share)
    cr, data = random_file(t, "cold.bin", 256 * 1024)
    spans = [(i * 4096 * 5 % len(data), 4096) for i in range(12)]
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")
    for what, most in (("cold", 1), ("cached", len(spans))):
        before = live("reads_inline")
        got = pipelined_reads(t, cr.fid, spans)
        for (off, ln), d in zip(spans, got):
            expect(d == data[off:off + ln], "%s read at %d differs" %
                   (what, off))
        n = live("reads_inline") - before
        if what == "cold":
            expect(n <= most, "cold: %d of %d reads served in the receive "
                   "thread" % (n, len(spans)))
        else:
            expect_eq(n, most, "cached reads served in the receive thread")
    t.close(cr.fid)
    st = t.must_create("cold.bin:s1", disp=OVERWRITE_IF)
    # (ext4 keeps a file's xattrs in one block: 1 KiB on this image)
    expect_status(t.write(st.fid, data[:600]), "SUCCESS", "stream write")
    before = live("reads_inline")
    got = pipelined_reads(t, st.fid, [(0, 300), (300, 300), (0, 100),
                                      (100, 100)])
    expect(got[1] == data[300:600], "stream read differs")
    expect(live("reads_inline") - before <= 1,
           "stream: %d of 4 reads served in the receive thread" %
           (live("reads_inline") - before))
    t.close(st.fid)
    t.unlink("cold.bin")
    t.bye()


@case
def case_streamed_writes(env):
    """WRITEs of 64 KiB and more whose payload the server receives after
    checking the request, straight into the file (tcp_recv_file.c): data
    lands intact at any offset and length, also when it arrives in small
    pieces; a refused one (bad handle,
    read-only handle, too few credits, a pipe) is answered and its payload
    consumed, so the next request on the connection is read right; a
    connection that drops mid-payload leaves nothing open."""
    t = Tree(env)
    cr = t.must_create("streamed.bin", disp=OVERWRITE_IF)
    streamed = live("writes_streamed")
    expect_status(t.write(cr.fid, os.urandom(65535)), "SUCCESS", "64 KiB - 1")
    expect_eq(live("writes_streamed"), streamed, "streamed writes after one "
              "below 64 KiB")
    big = os.urandom(1 << 20)
    direct = live("writes_direct")
    r = t.write(cr.fid, big)
    expect_status(r, "SUCCESS", "1 MiB write")
    expect_eq(live("writes_streamed"), streamed + 1, "streamed writes after "
              "1 MiB")
    # On tmpfs the data goes from the socket's memory into the file.
    expect_eq(live("writes_direct"), direct + 1, "direct writes after 1 MiB")
    expect_eq(struct.unpack_from("<I", r.body, 4)[0], len(big), "1 MiB count")
    odd = os.urandom(65536 + 12345)
    r = t.write(cr.fid, odd, offset=777777)
    expect_status(r, "SUCCESS", "unaligned write")
    expect_eq(struct.unpack_from("<I", r.body, 4)[0], len(odd), "unaligned count")
    want = bytearray(big)
    want[777777:777777 + len(odd)] = odd
    tail = os.urandom(100 * 1024)
    r = t.write(cr.fid, tail, offset=0xFFFFFFFFFFFFFFFF)
    expect_status(r, "SUCCESS", "streamed append")
    want += tail
    # Trickled in 997-byte sends: many small segments, which the socket
    # may merge into skbs the server already holds clones of.
    trickle = os.urandom(80 * 1024 + 7)
    msg = bytearray(t.c.build(WRITE, struct.pack(
        "<HHIQQQIIHHI", 49, 112, len(trickle), 5000, cr.pid, cr.vid,
        0, 0, 0, 0, 0) + trickle, session=t.sess.id, tree=t.tid))
    struct.pack_into("<H", msg, 6, 2)
    t.c.mid += 1
    frame = struct.pack(">I", len(msg)) + bytes(msg)
    t.c.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for at in range(0, len(frame), 997):
        t.c.send_raw(frame[at:at + 997])
        if at % (997 * 8) == 0:
            time.sleep(0.002)
    r = Response(t.c.recv_frame())
    expect_status(r, "SUCCESS", "trickled write")
    expect_eq(struct.unpack_from("<I", r.body, 4)[0], len(trickle),
              "trickled count")
    want[5000:5000 + len(trickle)] = trickle
    r, got = t.read(cr.fid, len(want))
    expect_status(r, "SUCCESS", "read back")
    expect(got == bytes(want), "streamed data read back differs")
    # Refused with the payload still in the socket: each answer must be
    # the refusal, and the request after it must be answered normally.
    r = t.write((0x1234, 0x5678), os.urandom(256 * 1024))
    expect_status(r, "FILE_CLOSED", "streamed write to no handle")
    ro = t.must_create("streamed.bin", access=GENERIC_READ, disp=OPEN)
    r = t.write(ro.fid, os.urandom(128 * 1024))
    expect_status(r, "ACCESS_DENIED", "streamed write on a read-only handle")
    t.close(ro.fid)
    body = struct.pack("<HHIQQQIIHHI", 49, 112, 256 * 1024, 0, cr.pid,
                       cr.vid, 0, 0, 0, 0, 0) + os.urandom(256 * 1024)
    r = t.call(WRITE, body, charge=1)
    expect(r.status != 0, "256 KiB write charged one credit: %s"
           % status_name(r.status))
    r, got = t.read(cr.fid, len(want) + 1)
    expect_status(r, "SUCCESS", "read after the refusals")
    expect(got == bytes(want), "the refused writes changed the file")
    expect_eq(live("writes_streamed"), streamed + 7, "streamed writes after "
              "the refusals")
    t.close(cr.fid)
    p = Tree(env, "IPC$")
    r, pipe = p.create("srvsvc", access=GENERIC_READ | GENERIC_WRITE,
                       disp=OPEN, options=0)
    expect_status(r, "SUCCESS", "open srvsvc")
    # More than a pipe takes at once (60 KiB): refused after the payload
    # was received whole, so the bind after it is read as a request.
    r = p.write(pipe.fid, os.urandom(96 * 1024))
    expect_status(r, "INVALID_PARAMETER", "96 KiB streamed pipe write")
    r, out = p.ioctl(pipe.fid, 0x0011C017, rpc_bind(), max_out=4280)
    expect_eq(r.command, IOCTL, "the answer after a streamed pipe write")
    expect_status(r, "SUCCESS", "bind after a streamed pipe write")
    p.close(pipe.fid)
    p.bye()
    # Half a payload, then the connection goes.
    conns = live("connections")
    d = Tree(env)
    dfile = d.must_create("streamed-drop.bin", disp=OVERWRITE_IF)
    frame = write_frame(d, dfile.fid, os.urandom(512 * 1024))
    d.c.send_raw(frame[:len(frame) // 2])
    time.sleep(0.2)
    d.bye()
    wait_connections(conns, "a drop mid-payload")
    wait_open_files_zero("a drop mid-payload")
    t.unlink("streamed-drop.bin")
    t.unlink("streamed.bin")
    t.bye()


@case
def case_streamed_write_full(env):
    """A streamed WRITE larger than the room left (--tiny-share, 1 MiB):
    what fit is answered as a short count (or DISK_FULL when nothing
    did) and is exactly what the file holds, the rest of the payload is
    still consumed, so the next request on the connection is answered;
    a second one that finds no room at all is DISK_FULL."""
    if not env.tiny_share:
        raise AssertionError("needs --tiny-share (a 1 MiB file system)")
    t = Tree(env, env.tiny_share)
    cr = t.must_create("full.bin", disp=OVERWRITE_IF)
    streamed = live("writes_streamed")
    data = os.urandom(2 << 20)
    r = t.write(cr.fid, data)
    if r.status == 0:
        count = struct.unpack_from("<I", r.body, 4)[0]
        expect(0 < count < len(data), "count %d of a 2 MiB write on 1 MiB"
               % count)
    else:
        expect_status(r, "DISK_FULL", "2 MiB write on 1 MiB")
        count = 0
    expect_eq(live("writes_streamed"), streamed + 1, "streamed writes")
    r, got = t.read(cr.fid, len(data))
    expect_status(r, "SUCCESS", "read after the short write")
    expect_eq(len(got), count, "file size after the short write")
    expect(got == data[:count], "the file holds other than what was "
           "counted")
    r = t.write(cr.fid, os.urandom(256 * 1024), offset=count)
    expect_status(r, "DISK_FULL", "write with no room left")
    t.close(cr.fid)
    t.unlink("full.bin")
    t.bye()


STALL_PARAM = "/sys/module/ksmbd/parameters/frame_stall_s"


def set_frame_stall(seconds):
    """Sets the module's frame_stall_s; returns the value it had."""
    with open(STALL_PARAM) as f:
        old = f.read().strip()
    with open(STALL_PARAM, "w") as f:
        f.write(str(seconds))
    return old


@case
def case_stalled_frames(env):
    """A client that stops sending in the middle of a frame is dropped
    after frame_stall_s (3 s here) and what the frame held is let go: a
    streamed WRITE's open file (opened without sharing, so a leak shows as
    a sharing violation) and a plain frame's buffer. A frame that keeps
    trickling in for longer than that, and silence between frames, are
    not stalls."""
    old = set_frame_stall(3)
    try:
        wait_open_files_zero("earlier cases")
        conns = live("connections")
        bufs = live("buffers")
        a = Tree(env)
        fa = a.must_create("stalled.bin", disp=OVERWRITE_IF, share=0)
        frame = write_frame(a, fa.fid, os.urandom(512 * 1024))
        a.c.send_raw(frame[:len(frame) // 3])
        b = Tree(env)
        echo = b.c.build(ECHO, struct.pack("<HH", 4, 0),
                         session=b.sess.id) + bytes(936)
        b.c.send_raw(struct.pack(">I", len(echo)) + echo[:100])
        t0 = time.monotonic()
        expect(a.c.is_dropped(15), "a WRITE stalled mid-payload: the "
               "connection stayed")
        expect(b.c.is_dropped(15), "a frame stalled after 100 of its 1000 "
               "bytes: the connection stayed")
        took = time.monotonic() - t0
        expect(took >= 2.0, "dropped %.1f s after the last byte, before "
               "the 3 s stall timeout" % took)
        a.bye()
        b.bye()
        wait_connections(conns, "stalled frames")
        wait_open_files_zero("stalled frames")
        expect(live("buffers") <= bufs, "frame buffers held after the "
               "stalled connections went: %d, before them %d"
               % (live("buffers"), bufs))
        t = Tree(env)
        cr = t.must_create("stalled.bin", disp=OPEN, share=0)
        t.close(cr.fid)
        # 5 s of a streamed WRITE and of a plain one, a piece every 0.4 s
        slow = t.must_create("slow.bin", disp=OVERWRITE_IF)
        for size, off in ((192 * 1024, 0), (3000, 192 * 1024)):
            data = os.urandom(size)
            frame = write_frame(t, slow.fid, data, off)
            step = len(frame) // 12 + 1
            for at in range(0, len(frame), step):
                t.c.send_raw(frame[at:at + step])
                time.sleep(0.4)
            r = Response(t.c.recv_frame())
            expect_status(r, "SUCCESS", "a %d-byte WRITE sent over 5 s" % size)
            expect_eq(struct.unpack_from("<I", r.body, 4)[0], size,
                      "count of the slow %d-byte WRITE" % size)
            r, got = t.read(slow.fid, size, offset=off)
            expect(got == data, "the slow %d-byte WRITE read back differs"
                   % size)
        time.sleep(4)
        r = t.call(ECHO, struct.pack("<HH", 4, 0))
        expect_status(r, "SUCCESS", "ECHO after 4 s of silence")
        t.close(slow.fid)
        t.unlink("slow.bin")
        t.unlink("stalled.bin")
        t.bye()
    finally:
        set_frame_stall(old)


@case
def case_stalled_write_freeze(env):
    """A streamed WRITE whose client stalls mid-payload does not hold off
    a freeze of the share's file system (write protection is taken per
    piece written, not while waiting on the client); after the thaw the
    rest of the payload completes the WRITE. Needs --freeze-share and
    --freeze-path (a file system that freezes: ext4, not tmpfs)."""
    if not env.freeze_share or not env.freeze_path:
        raise AssertionError("needs --freeze-share and --freeze-path")
    old = set_frame_stall(120)
    a = None
    try:
        a = Tree(env, env.freeze_share)
        fa = a.must_create("freeze.bin", disp=OVERWRITE_IF)
        data = os.urandom(512 * 1024)
        frame = write_frame(a, fa.fid, data)
        a.c.send_raw(frame[:len(frame) // 2])
        time.sleep(0.5)
        try:
            r = subprocess.run(["fsfreeze", "-f", env.freeze_path],
                               capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            # let the freeze finish (the drop releases the file), then thaw
            a.bye()
            time.sleep(1)
            subprocess.run(["fsfreeze", "-u", env.freeze_path])
            raise AssertionError("fsfreeze -f waited 20 s on a client "
                                 "stalled mid-WRITE")
        expect_eq(r.returncode, 0, "fsfreeze -f: %s" % r.stderr.strip())
        subprocess.run(["fsfreeze", "-u", env.freeze_path], check=True)
        a.c.send_raw(frame[len(frame) // 2:])
        r = Response(a.c.recv_frame())
        expect_status(r, "SUCCESS", "the WRITE completed after the thaw")
        expect_eq(struct.unpack_from("<I", r.body, 4)[0], len(data),
                  "count of the WRITE completed after the thaw")
        r, got = a.read(fa.fid, len(data))
        expect(got == data, "the WRITE across the freeze read back differs")
        a.close(fa.fid)
        a.unlink("freeze.bin")
    finally:
        if a:
            a.bye()
        set_frame_stall(old)


STALE = b"<stale:response>"     # 16 bytes no SMB2 answer contains


@case
def case_no_stale_response_bytes(env):
    """Response buffers are reused without zeroing (module/core/bufpool.c): no
    answer may carry bytes of an earlier one (or, under slub_debug, the
    allocator's poison). Lone 8 KiB READs of a
    marker fill buffers (their data is read into place); the answers
    after them (a stat compound with its padding, info classes, a
    directory listing, errors, an IOCTL, FLUSH, ECHO) must not show it."""
    t = Tree(env)
    sid, tid = t.sess.id, t.tid
    data = STALE * 512
    cr = t.must_create("stale.bin", disp=OVERWRITE_IF)
    expect_status(t.write(cr.fid, data), "SUCCESS", "write the marker")
    root = t.must_create("", access=GENERIC_READ, disp=OPEN,
                         options=DIRECTORY_FILE)
    pieces = {STALE[i:i + 6] for i in range(len(STALE) - 5)}
    # Under the test guest's slub_debug the buffers have no constructor
    # (module/core/bufpool.c) and come poisoned (0x6b) instead of holding an
    # earlier answer: an unwritten byte shows as that.
    pieces.add(b"\x6b" * 8)
    leaks = []

    def probe(what, raw):
        if any(p in raw for p in pieces) and what not in leaks:
            leaks.append(what)

    def qinfo(fid, itype, cls, out=4096, addl=0):
        return t.call(QUERY_INFO, struct.pack(
            "<HBBIHHIIIQQ", 41, itype, cls, out, 0, 0, 0, addl, 0, *fid))

    # Four name lengths: FileAllInformation's output ends at every offset
    # mod 8, so three of them leave padding before the CLOSE.
    names = ["stale.bin"] + ["stale-%s.bin" % ("x" * k) for k in (1, 2, 3)]
    for name in names[1:]:
        t.put_file(name, b"")

    def stat(name):
        return [(CREATE, create_body(name, access=FILE_READ_ATTRIBUTES,
                                     disp=OPEN, options=0), sid, tid, 0),
                (QUERY_INFO, struct.pack("<HBBIHHIIIQQ", 41, 1, 18, 8192, 0,
                                         0, 0, 0, 0, *ALL_ONES), sid, tid,
                 FLAG_RELATED),
                (CLOSE, struct.pack("<HHIQQ", 24, 1, 0, *ALL_ONES), sid, tid,
                 FLAG_RELATED)]

    for rnd in range(12):
        for _ in range(3):
            r, got = t.read(cr.fid, len(data))
            expect(got == data, "round %d: marker read back" % rnd)
        for name in names:
            rs = compound(t.c, stat(name))
            expect_eq([x.status for x in rs], [0, 0, 0], "stat " + name)
            probe("stat compound", rs[0].raw)
            # The padding after QUERY_INFO's output, up to the CLOSE: zeros.
            off, n = struct.unpack_from("<HI", rs[1].body, 2)
            pad = rs[1].raw[off + n:rs[1].next]
            if pad.strip(b"\0") and not any(x.startswith("padding") for x in leaks):
                leaks.append("padding %r" % pad)
        for itype, cls in ((1, 4), (1, 5), (1, 18), (1, 22), (1, 34),
                           (1, 35), (2, 1), (2, 3), (2, 5), (2, 7)):
            probe("info %d/%d" % (itype, cls), qinfo(cr.fid, itype, cls).raw)
        probe("security", qinfo(cr.fid, 3, 0, addl=7).raw)
        probe("info too small", qinfo(cr.fid, 1, 18, out=8).raw)
        probe("listing", t.call(QUERY_DIRECTORY, struct.pack(
            "<HBBIQQHHI", 33, 37, 1, 0, *root.fid, 96, 2, 65536) + b"*\0").raw)
        probe("not found", t.create("no-such-%d" % rnd, disp=OPEN)[0].raw)
        probe("read at EOF", t.read(cr.fid, 100, offset=len(data))[0].raw)
        probe("ioctl", t.ioctl(cr.fid, 0x00090078)[0].raw)   # unknown FSCTL
        probe("flush", t.call(FLUSH, struct.pack("<HHIQQ", 24, 0, 0,
                                                 *cr.fid)).raw)
        probe("echo", t.call(0xD, struct.pack("<HH", 4, 0)).raw)
    expect(not leaks, "earlier answers' bytes in: %s" % ", ".join(leaks))
    t.close(root.fid)
    t.close(cr.fid)
    for name in names:
        t.unlink(name)
    t.bye()


def main():
    def args(ap):
        ap.add_argument("--share-dir", default="/srv/share",
                        help="the share's backing directory, when local")
        ap.add_argument("--stream-share", default=None,
                        help="a share on a file system with user xattrs "
                        "for the stream_names case")
        ap.add_argument("--tiny-share", default=None,
                        help="a share on a 1 MiB file system for the "
                        "streamed_write_full case")
        ap.add_argument("--freeze-share", default=None,
                        help="a share on a file system that freezes, for "
                        "the stalled_write_freeze and cached_reads_cold "
                        "cases")
        ap.add_argument("--freeze-path", default=None,
                        help="that share's mount point (for fsfreeze)")
    # run only when named: they need a file system the main share is not
    named_only = {"stalled_write_freeze", "cached_reads_cold"}
    return case_main(__doc__, "smb2files", CASES, args,
                             default_cases=[c for c in CASES
                                            if c not in named_only])


if __name__ == "__main__":
    sys.exit(main())
