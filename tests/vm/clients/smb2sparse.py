#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Sparse files against the server, with the client of tests/smb2, on a
share whose file system keeps DOS attributes (ext4: tests/vm/cases/
sparse.sh makes one): FILE_SUPPORTS_SPARSE_FILES advertised,
FSCTL_SET_SPARSE stored and reported as FILE_ATTRIBUTE_SPARSE_FILE,
FSCTL_QUERY_ALLOCATED_RANGES from the file's holes (SEEK_DATA/SEEK_HOLE)
once it is sparse and the whole range before, FSCTL_SET_ZERO_DATA
punching a hole the file system holds (st_blocks from the share's path).

CLI: smb2sparse.py [--host H] [--port P] [--prefix NAME] [--user U]
                   [--password PW] --share NAME --path DIR [CASE ...]
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import Tree  # noqa: E402
from smb2.create import OVERWRITE_IF  # noqa: E402
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

CASES, case = case_registry()

FSCTL_SET_SPARSE = 0x000900C4
FSCTL_SET_ZERO_DATA = 0x000980C8
FSCTL_QUERY_ALLOCATED_RANGES = 0x000940CF
FILE_SUPPORTS_SPARSE_FILES = 0x40
FILE_ATTRIBUTE_SPARSE_FILE = 0x200
MIB = 1 << 20


def fs_attributes(t, fid):
    r, data = t.query_info(fid, 2, 5, 512)  # FileFsAttributeInformation
    expect_status(r, "SUCCESS", "FileFsAttributeInformation")
    return struct.unpack_from("<I", data, 0)[0]


def file_attributes(t, fid):
    r, data = t.query_info(fid, 1, 4, 40)   # FileBasicInformation
    expect_status(r, "SUCCESS", "FileBasicInformation")
    return struct.unpack_from("<I", data, 32)[0]


def ranges(t, fid, off, length, max_out=4096):
    r, out = t.ioctl(fid, FSCTL_QUERY_ALLOCATED_RANGES,
                     struct.pack("<QQ", off, length), max_out=max_out)
    return r, [struct.unpack_from("<QQ", out, i)
               for i in range(0, len(out), 16)]


def blocks(env, name):
    return os.stat(os.path.join(env.path, name)).st_blocks


def sparse_file(env, t, name):
    """name: 4 MiB of data, written on this share."""
    cr = t.must_create(name, disp=OVERWRITE_IF)
    chunk = 64 * 1024
    for off in range(0, 4 * MIB, chunk):
        expect_status(t.write(cr.fid, b"\x5a" * chunk, off), "SUCCESS",
                      "write at %d" % off)
    return cr


@case
def case_sparse_advertised(env):
    t = Tree(env, share=env.share)
    cr = t.must_create("sp-adv.bin", disp=OVERWRITE_IF)
    expect(fs_attributes(t, cr.fid) & FILE_SUPPORTS_SPARSE_FILES,
           "FILE_SUPPORTS_SPARSE_FILES")
    t.close(cr.fid)
    t.unlink("sp-adv.bin")
    t.bye()


@case
def case_set_sparse_stored(env):
    """SET_SPARSE (no buffer: TRUE) sets the attribute on the file, seen
    on another handle and a later open; SetSparse 0 clears it; a SET_INFO
    of other attributes keeps it."""
    t = Tree(env, share=env.share)
    cr = t.must_create("sp-attr.bin", disp=OVERWRITE_IF)
    expect(not file_attributes(t, cr.fid) & FILE_ATTRIBUTE_SPARSE_FILE,
           "a new file is not sparse")
    r, _ = t.ioctl(cr.fid, FSCTL_SET_SPARSE)
    expect_status(r, "SUCCESS", "set sparse without a buffer")
    expect(file_attributes(t, cr.fid) & FILE_ATTRIBUTE_SPARSE_FILE,
           "sparse after SET_SPARSE")
    basic = struct.pack("<QQQQII", 0, 0, 0, 0, 0x2 | 0x20, 0)  # HIDDEN
    expect_status(t.set_info(cr.fid, 1, 4, basic), "SUCCESS", "set HIDDEN")
    a = file_attributes(t, cr.fid)
    expect(a & FILE_ATTRIBUTE_SPARSE_FILE and a & 0x2,
           "SET_INFO kept SPARSE_FILE (%#x)" % a)
    t.close(cr.fid)
    cr = t.must_create("sp-attr.bin")
    expect(file_attributes(t, cr.fid) & FILE_ATTRIBUTE_SPARSE_FILE,
           "sparse on a later open")
    r, _ = t.ioctl(cr.fid, FSCTL_SET_SPARSE, b"\0")
    expect_status(r, "SUCCESS", "SetSparse FALSE")
    expect(not file_attributes(t, cr.fid) & FILE_ATTRIBUTE_SPARSE_FILE,
           "cleared")
    t.close(cr.fid)
    t.unlink("sp-attr.bin")
    t.bye()


@case
def case_zero_data_and_ranges(env):
    """4 MiB written; not sparse yet, the ranges are the whole file; set
    sparse, zero the second and third MiB: the file system frees their
    blocks, the data reads zeros there, and the ranges are the first and
    the last MiB; a range past the end of file is none."""
    t = Tree(env, share=env.share)
    name = "sp-ranges.bin"
    cr = sparse_file(env, t, name)
    r, got = ranges(t, cr.fid, 0, 64 * MIB)
    expect_status(r, "SUCCESS", "ranges of a file not sparse")
    expect_eq(got, [(0, 4 * MIB)], "one range up to the end of file")
    r, _ = t.ioctl(cr.fid, FSCTL_SET_SPARSE, b"\1")
    expect_status(r, "SUCCESS", "set sparse")
    before = blocks(env, name)
    r, _ = t.ioctl(cr.fid, FSCTL_SET_ZERO_DATA,
                   struct.pack("<QQ", MIB, 3 * MIB))
    expect_status(r, "SUCCESS", "zero data")
    freed = (before - blocks(env, name)) * 512
    expect(freed >= 2 * MIB, "blocks freed: %d bytes" % freed)
    r, data = t.read(cr.fid, 4096, MIB + 8192)
    expect(data == bytes(4096), "zeroed range reads zeros")
    r, got = ranges(t, cr.fid, 0, 64 * MIB)
    expect_status(r, "SUCCESS", "ranges of the sparse file")
    expect_eq(got, [(0, MIB), (3 * MIB, MIB)], "the data ranges")
    r, got = ranges(t, cr.fid, 2 * MIB, 2 * MIB)
    expect_eq(got, [(3 * MIB, MIB)], "ranges from inside the hole")
    r, got = ranges(t, cr.fid, 0, 64 * MIB, max_out=16)
    expect_status(r, "BUFFER_OVERFLOW", "room for one range of two")
    expect_eq(got, [(0, MIB)], "the first range")
    r, got = ranges(t, cr.fid, 8 * MIB, MIB)
    expect_status(r, "SUCCESS", "past the end of file")
    expect_eq(got, [], "no range past the end of file")
    t.close(cr.fid)
    t.unlink(name)
    t.bye()


def main():
    def args(ap):
        ap.add_argument("--share", required=True)
        ap.add_argument("--path", required=True,
                        help="the share's directory, for st_blocks")
    return case_main(__doc__, "smb2sparse", CASES, args)


if __name__ == "__main__":
    sys.exit(main())
