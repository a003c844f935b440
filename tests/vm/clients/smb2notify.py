#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""CHANGE_NOTIFY against the server, with tests/smb2's AsyncTree.

Changes are made in the share's backing directory by this process (the
client runs in the guest), so they reach the server through fsnotify as
a local program's would. Cases: a pending notify completed by a create,
changes buffered between requests, rename and modify actions, the
completion filter, WATCH_TREE against a plain watch, OutputBufferLength
overflow (STATUS_NOTIFY_ENUM_DIR), CANCEL, close and disconnect of a
watching handle, notify on a file and on a closed handle, the directory
of a WATCH_TREE handle removed locally (STATUS_DELETE_PENDING), attributes
the file system could not keep still notified.

CLI: smb2notify.py [--host H] [--port P] [--prefix NAME] [--user U]
                   [--password PW] [--share-dir DIR] [--list] [CASE ...]
"""
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import AsyncTree, notify_body  # noqa: E402
from smb2.create import DIRECTORY_FILE, GENERIC_READ  # noqa: E402
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403
from smb2.wire import expect_status as want  # noqa: E402

WATCH_TREE = 0x1
F_FILE_NAME, F_DIR_NAME, F_ATTRIBUTES, F_SIZE, F_LAST_WRITE = 1, 2, 4, 8, 0x10
ADDED, REMOVED, MODIFIED, OLD_NAME, NEW_NAME = 1, 2, 3, 4, 5
DIR = "notify-case"


def entries(r):
    """[(action, name)] from a CHANGE_NOTIFY response."""
    if r.status != 0:
        return []
    off, length = struct.unpack_from("<HI", r.body, 2)
    data = r.raw[off:off + length]
    out, pos = [], 0
    while True:
        nxt, action, nlen = struct.unpack_from("<III", data, pos)
        out.append((action, data[pos + 12:pos + 12 + nlen].decode("utf-16-le")))
        if not nxt:
            return out
        pos += nxt


class NotifyTree(AsyncTree):
    def open_dir(self, name=DIR):
        return self.must_create(name, options=DIRECTORY_FILE,
                                access=GENERIC_READ).fid

    def notify(self, fid, filt, **kw):
        return self.send(CHANGE_NOTIFY, notify_body(fid, filt, **kw))

    def pending(self, fid, filt, **kw):
        mid = self.notify(fid, filt, **kw)
        r = self.recv_mid(mid)
        want(r, "PENDING", "notify interim")
        expect(r.async_id != 0, "notify interim without AsyncId")
        return mid, r


def local(env, *parts):
    return os.path.join(env.share_dir, DIR, *parts)


def touch(path, data=b""):
    with open(path, "wb") as f:
        f.write(data)


def fresh_dir(env):
    d = local(env)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "sub"))
    return d


CASES, case = case_registry()


@case
def case_create_wakes(env):
    fresh_dir(env)
    t = NotifyTree(env)
    d = t.open_dir()
    mid, interim = t.pending(d, F_FILE_NAME | F_DIR_NAME)
    expect(t.nothing_for(mid, 1.0), "notify completed with nothing changed")
    touch(local(env, "n1.txt"))
    r = t.final(mid, interim, "notify")
    want(r, "SUCCESS", "notify after create")
    expect_eq(entries(r)[0], (ADDED, "n1.txt"), "first change")
    # changes between requests are kept for the next one, which needs no wait
    touch(local(env, "n2.txt"))
    os.mkdir(local(env, "d3"))
    os.unlink(local(env, "n1.txt"))
    r = t.recv_mid(t.notify(d, F_FILE_NAME | F_DIR_NAME))
    want(r, "SUCCESS", "buffered changes")
    expect_eq(entries(r), [(ADDED, "n2.txt"), (ADDED, "d3"),
                           (REMOVED, "n1.txt")], "buffered changes")
    # rename, and a filter that wants only writes
    os.rename(local(env, "n2.txt"), local(env, "n2b.txt"))
    r = t.recv_mid(t.notify(d, F_FILE_NAME))
    expect_eq(entries(r), [(OLD_NAME, "n2.txt"), (NEW_NAME, "n2b.txt")],
              "rename")
    # into another directory and back: removed here, then added (Windows)
    touch(local(env, "n4.txt"))
    os.rename(local(env, "n4.txt"), local(env, "sub", "n4.txt"))
    os.rename(local(env, "sub", "n4.txt"), local(env, "n4b.txt"))
    os.unlink(local(env, "n4b.txt"))
    r = t.recv_mid(t.notify(d, F_FILE_NAME))
    expect_eq(entries(r), [(ADDED, "n4.txt"), (REMOVED, "n4.txt"),
                           (ADDED, "n4b.txt"), (REMOVED, "n4b.txt")],
              "renames between directories")
    w = t.open_dir()
    mid, interim = t.pending(w, F_LAST_WRITE)
    touch(local(env, "ignored.txt"))
    expect(t.nothing_for(mid, 1.0), "a create woke a LAST_WRITE-only notify")
    with open(local(env, "n2b.txt"), "ab") as f:
        f.write(b"more")
    r = t.final(mid, interim, "modify")
    expect_eq(entries(r)[0], (MODIFIED, "n2b.txt"), "modify")
    t.close(w)
    # a handle keeps its first request's filter (as Windows does): the
    # LAST_WRITE-only request on d gets the create d's names filter saw
    r = t.recv_mid(t.notify(d, F_LAST_WRITE))
    want(r, "SUCCESS", "later filter on d")
    expect_eq(entries(r), [(ADDED, "ignored.txt")], "the first filter stays")
    t.close(d)
    t.bye()


@case
def case_watch_tree(env):
    fresh_dir(env)
    t = NotifyTree(env)
    flat = t.open_dir()
    tree = t.open_dir()
    mf, inf = t.pending(flat, F_FILE_NAME)
    mt, itr = t.pending(tree, F_FILE_NAME, flags=WATCH_TREE)
    touch(local(env, "sub", "deep.txt"))
    r = t.final(mt, itr, "tree notify")
    expect_eq(entries(r), [(ADDED, "sub\\deep.txt")], "tree notify")
    expect(t.nothing_for(mf, 1.0), "plain watch saw a change in a subdirectory")
    touch(local(env, "top.txt"))
    r = t.final(mf, inf, "plain notify")
    expect_eq(entries(r), [(ADDED, "top.txt")], "plain notify")
    # the tree watch buffered top.txt meanwhile; outside the share: nothing
    r = t.recv_mid(t.notify(tree, F_FILE_NAME, flags=WATCH_TREE))
    expect_eq(entries(r), [(ADDED, "top.txt")], "tree watch, top level")
    mt, itr = t.pending(tree, F_FILE_NAME, flags=WATCH_TREE)
    touch(os.path.join(env.share_dir, "notify-outside.txt"))
    expect(t.nothing_for(mt, 1.0), "tree watch saw a change outside it")
    os.unlink(os.path.join(env.share_dir, "notify-outside.txt"))
    t.cancel(mt, itr.async_id)
    want(t.final(mt, itr, "cancel"), "CANCELLED", "cancel tree notify")
    t.close(flat)
    t.close(tree)
    t.bye()


@case
def case_attributes_not_kept(env):
    # HIDDEN set where the file system cannot keep it (the guest's tmpfs
    # share: no user.* xattrs before 6.6): the server answers success,
    # so the watcher hears of the change too; before, nothing on the
    # inode changed and the notify (smb2.notify.mask-change) never came.
    fresh_dir(env)
    touch(local(env, "attr.txt"))
    os.chmod(local(env, "attr.txt"), 0o666)       # the client may write it
    t = NotifyTree(env)
    f = t.must_create(DIR + "\\attr.txt", access=0x180).fid  # attributes
    d = t.open_dir()
    mid, interim = t.pending(d, F_ATTRIBUTES)
    basic = struct.pack("<QQQQI4x", 0, 0, 0, 0, 0x2)        # HIDDEN
    want(t.set_info(f, 1, 4, basic), "SUCCESS", "set HIDDEN")
    r = t.final(mid, interim, "attributes notify")
    want(r, "SUCCESS", "attributes notify")
    expect_eq(entries(r), [(MODIFIED, "attr.txt")], "attributes changed")
    t.close(f)
    t.close(d)
    t.bye()


@case
def case_overflow(env):
    fresh_dir(env)
    t = NotifyTree(env)
    d = t.open_dir()
    mid, interim = t.pending(d, F_FILE_NAME, out_len=16)
    touch(local(env, "a-name-longer-than-sixteen-bytes.txt"))
    r = t.final(mid, interim, "small buffer")
    want(r, "NOTIFY_ENUM_DIR", "change larger than OutputBufferLength")
    # the first request sized the handle's buffer: later ones overflow too
    mid, interim = t.pending(d, F_FILE_NAME, out_len=4096)
    touch(local(env, "another-name-longer-than-sixteen.txt"))
    want(t.final(mid, interim, "later"), "NOTIFY_ENUM_DIR",
         "buffer sized by the first request")
    t.close(d)
    # many changes while nobody asks: the watch's buffer overflows
    d = t.open_dir()
    mid, interim = t.pending(d, F_FILE_NAME, out_len=65536)
    t.cancel(mid, interim.async_id)
    want(t.final(mid, interim, "cancel"), "CANCELLED", "cancel")
    for i in range(3000):
        touch(local(env, "many-%04d-%s.txt" % (i, "x" * 20)))
    r = t.recv_mid(t.notify(d, F_FILE_NAME, out_len=65536))
    want(r, "NOTIFY_ENUM_DIR", "watch buffer overflow")
    # and then it works normally again
    mid, interim = t.pending(d, F_FILE_NAME)
    touch(local(env, "after.txt"))
    expect_eq(entries(t.final(mid, interim, "after"))[0], (ADDED, "after.txt"),
              "after an overflow")
    t.close(d)
    t.bye()


@case
def case_local_rmdir(env):
    # the directory a WATCH_TREE handle watches goes: its pending request
    # answers DELETE_PENDING, and so does a later one on the handle
    fresh_dir(env)
    t = NotifyTree(env)
    tree = t.open_dir(DIR + "\\sub")
    mt, itr = t.pending(tree, F_FILE_NAME, flags=WATCH_TREE)
    os.rmdir(local(env, "sub"))
    want(t.final(mt, itr, "rmdir"), "DELETE_PENDING", "tree watch at rmdir")
    want(t.recv_mid(t.notify(tree, F_FILE_NAME)), "DELETE_PENDING",
         "notify after rmdir")
    want(t.close(tree), "SUCCESS", "close after rmdir")
    t.bye()


@case
def case_close_and_errors(env):
    fresh_dir(env)
    t = NotifyTree(env)
    d = t.open_dir()
    mid, interim = t.pending(d, F_FILE_NAME)
    m2, i2 = t.pending(d, F_FILE_NAME)
    want(t.close(d), "SUCCESS", "close the watching handle")
    want(t.final(mid, interim, "close"), "NOTIFY_CLEANUP", "notify 1 at close")
    want(t.final(m2, i2, "close"), "NOTIFY_CLEANUP", "notify 2 at close")
    want(t.recv_mid(t.notify(d, F_FILE_NAME)), "FILE_CLOSED",
         "notify on a closed handle")
    touch(local(env, "f.txt"))
    f = t.must_create(DIR + "\\f.txt", access=GENERIC_READ).fid
    want(t.recv_mid(t.notify(f, F_FILE_NAME)), "INVALID_PARAMETER",
         "notify on a file")
    d = t.open_dir()
    want(t.recv_mid(t.notify(d, 0)), "INVALID_PARAMETER", "empty filter")
    # CANCEL by MessageId, then the connection drops with one pending
    mid, interim = t.pending(d, F_FILE_NAME)
    t.cancel(mid)
    want(t.final(mid, interim, "cancel"), "CANCELLED", "cancel by MessageId")
    t.pending(d, F_FILE_NAME | F_DIR_NAME, flags=WATCH_TREE)
    t.bye()
    touch(local(env, "after-drop.txt"))
    # a logoff with one pending
    t = NotifyTree(env)
    d = t.open_dir()
    mid, interim = t.pending(d, F_FILE_NAME)
    lo = t.send(LOGOFF, struct.pack("<HH", 4, 0))
    want(t.final(mid, interim, "logoff"), "NOTIFY_CLEANUP", "notify at logoff")
    want(t.recv_mid(lo), "SUCCESS", "logoff")
    t.bye()
    shutil.rmtree(local(env), ignore_errors=True)


def main():
    return case_main(__doc__, "smb2notify", CASES, lambda ap: ap.add_argument(
        "--share-dir", default="/srv/share"))

if __name__ == "__main__":
    sys.exit(main())
