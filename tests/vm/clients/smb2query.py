#!/usr/bin/env python3
"""QUERY_INFO / SET_INFO / QUERY_DIRECTORY cases with a raw SMB2 client.

Each case logs on as tester (tests/smb2's Tree), connects to "share", works in a
directory of its own and prints one PASS/FAIL line. Covered: output
buffers too small for fixed and variable classes, unknown classes, the
FileFullEa query with a short input buffer, security descriptors that do
not fit, QUERY_DIRECTORY with tiny buffers / single entries / patterns
that match nothing, SET_INFO with short buffers, rename with and without
ReplaceIfExists, renames out of the share, hostile EA chains and
security descriptors.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import Tree  # noqa: E402
from smb2.create import (ALL_ACCESS, DIRECTORY_FILE,  # noqa: E402
                         NON_DIRECTORY_FILE, OPEN_IF, create_body)
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

STATUS = ST
FILE_DIRECTORY_FILE, FILE_NON_DIRECTORY_FILE = DIRECTORY_FILE, NON_DIRECTORY_FILE
FILE_OPEN, FILE_CREATE, FILE_OPEN_IF = 1, 2, 3


class Client(Tree):
    """A logged-on connection with a tree on "share"; FileIds as bytes."""

    def create(self, name, disposition=OPEN_IF, options=0, access=ALL_ACCESS):
        r = self.call(CREATE, create_body(name, access=access,
                                          disp=disposition, options=options,
                                          attrs=0))
        if r.status:
            return r.status, None
        return 0, r.body[64:80]

    def mkdir(self, name):
        st, fid = self.create(name, FILE_OPEN_IF, FILE_DIRECTORY_FILE)
        expect_eq(st, 0, "create directory " + name)
        return fid

    def touch(self, name):
        st, fid = self.create(name, FILE_OPEN_IF, FILE_NON_DIRECTORY_FILE)
        expect_eq(st, 0, "create file " + name)
        return fid


def names_of(data, name_at, len_at):
    """Names in a QUERY_DIRECTORY buffer, checking the entry chain."""
    out, off = [], 0
    while True:
        nxt = struct.unpack_from("<I", data, off)[0]
        ln = struct.unpack_from("<I", data, off + len_at)[0]
        expect(off + name_at + ln <= len(data), "entry name past the buffer")
        out.append(data[off + name_at:off + name_at + ln].decode("utf-16-le"))
        if not nxt:
            return out
        expect(nxt % 8 == 0, "NextEntryOffset %d not 8-aligned" % nxt)
        off += nxt


CASES, case = case_registry()


def workdir(env, cl, tag):
    d = "q-%d-%s" % (os.getpid(), tag)
    cl.close(cl.mkdir(d))
    return d


@case
def case_qinfo_fixed_class_too_small(env):
    cl = Client(env)
    d = workdir(env, cl, "fixed")
    fid = cl.touch(d + "\\f")
    r, _ = cl.query_info(fid, 1, 4, 39)           # FileBasicInformation
    expect_eq(r.status, STATUS["INFO_LENGTH_MISMATCH"], "basic in 39 bytes")
    r, data = cl.query_info(fid, 1, 4, 40)
    expect_eq(r.status, 0, "basic in 40 bytes")
    expect_eq(len(data), 40, "basic length")
    r, data = cl.query_info(fid, 1, 5, 4096)      # FileStandardInformation
    expect_eq(r.status, 0, "standard")
    expect_eq(len(data), 24, "standard length")
    r, _ = cl.query_info(fid, 1, 5, 0)
    expect_eq(r.status, STATUS["INFO_LENGTH_MISMATCH"], "standard in 0 bytes")
    cl.close(fid)


@case
def case_qinfo_variable_class_overflow(env):
    cl = Client(env)
    d = workdir(env, cl, "var")
    fid = cl.touch(d + "\\a_long_file_name.txt")
    r, data = cl.query_info(fid, 1, 18, 4096)     # FileAllInformation
    expect_eq(r.status, 0, "all information")
    nlen = struct.unpack_from("<I", data, 96)[0]
    name = data[100:100 + nlen].decode("utf-16-le")
    expect(name.endswith("\\a_long_file_name.txt"), "name %r" % name)
    r, data = cl.query_info(fid, 1, 18, 104)
    expect_eq(r.status, STATUS["BUFFER_OVERFLOW"], "all information cut")
    expect_eq(len(data), 104, "cut to the buffer")
    expect_eq(struct.unpack_from("<I", data, 96)[0], nlen, "full name length")
    r, _ = cl.query_info(fid, 1, 18, 99)
    expect_eq(r.status, STATUS["INFO_LENGTH_MISMATCH"], "fixed part missing")
    cl.close(fid)


@case
def case_qinfo_unknown_class(env):
    cl = Client(env)
    fid = cl.mkdir(workdir(env, cl, "cls"))
    for itype, cls in ((1, 0), (1, 200), (2, 0), (2, 99)):
        r, _ = cl.query_info(fid, itype, cls, 1024)
        expect_eq(r.status, STATUS["INVALID_INFO_CLASS"],
                  "type %d class %d" % (itype, cls))
    cl.close(fid)


@case
def case_qinfo_alternate_name(env):
    # a generated 8.3 name: the same on every query, cut with
    # BUFFER_OVERFLOW from 8 bytes on, INFO_LENGTH_MISMATCH below
    cl = Client(env)
    fid = cl.mkdir(workdir(env, cl, "alternate-name"))
    r, out = cl.query_info(fid, 1, 21, 1024)       # FileAlternateName
    expect_eq(r.status, 0, "alternate name")
    n = struct.unpack_from("<I", out)[0]
    name = out[4:4 + n].decode("utf-16-le")
    base, _, ext = name.partition(".")
    expect("~" in base and len(base) <= 8 and len(ext) <= 3 and
           name == name.upper(), "not an 8.3 name: %r" % name)
    r, again = cl.query_info(fid, 1, 21, 1024)
    expect_eq(again, out, "second query")
    r, _ = cl.query_info(fid, 1, 21, 8)
    expect_eq(r.status, STATUS["BUFFER_OVERFLOW"], "8-byte buffer")
    r, _ = cl.query_info(fid, 1, 21, 7)
    expect_eq(r.status, STATUS["INFO_LENGTH_MISMATCH"], "7-byte buffer")
    cl.close(fid)


@case
def case_qinfo_full_ea_short_input(env):
    cl = Client(env)
    d = workdir(env, cl, "ea")
    fid = cl.touch(d + "\\f")
    r, _ = cl.query_info(fid, 1, 15, 1024, inp=b"\x00\x00\x00")
    expect_eq(r.status, STATUS["INVALID_PARAMETER"], "3-byte EA list")
    # a set EA comes back in the chain
    ea = struct.pack("<IBBH", 0, 0, 4, 3) + b"TEST\0abc"
    r = cl.set_info(fid, 1, 15, ea)
    if r.status == STATUS["NOT_SUPPORTED"]:
        # no user.* xattrs on this file system (tmpfs before 6.6)
        r, _ = cl.query_info(fid, 1, 15, 1024)
        expect_eq(r.status, 0xC0000052, "no EAs on file")
        cl.close(fid)
        return
    expect_eq(r.status, 0, "set EA")
    r, data = cl.query_info(fid, 1, 15, 1024)
    expect_eq(r.status, 0, "query EAs")
    expect(b"TEST\0abc" in data, "EA in %r" % data)
    cl.close(fid)


@case
def case_qinfo_security_too_small(env):
    cl = Client(env)
    d = workdir(env, cl, "sec")
    fid = cl.touch(d + "\\f")
    r, data = cl.query_info(fid, 3, 0, 4096, addl=7)
    expect_eq(r.status, 0, "security descriptor")
    need = len(data)
    expect(need > 20, "descriptor of %d bytes" % need)
    r, _ = cl.query_info(fid, 3, 0, 16, addl=7)
    expect_eq(r.status, STATUS["BUFFER_TOO_SMALL"], "sd in 16 bytes")
    # 3.1.1: ErrorContextCount 1, ByteCount 12, context data = size needed
    cnt, bc = struct.unpack_from("<BxI", r.body, 2)
    expect_eq((cnt, bc), (1, 12), "error context")
    expect_eq(struct.unpack_from("<I", r.body, 16)[0], need, "size needed")
    cl.close(fid)


@case
def case_qdir_tiny_and_single(env):
    cl = Client(env)
    d = workdir(env, cl, "dir")
    for n in ("one", "two", "three"):
        cl.close(cl.touch(d + "\\" + n))
    fid = cl.mkdir(d)
    r, _ = cl.query_dir(fid, 37, 8)               # FileIdBothDirectory
    expect_eq(r.status, STATUS["INFO_LENGTH_MISMATCH"], "8-byte buffer")
    r, data = cl.query_dir(fid, 37, 4096, flags=2)  # RETURN_SINGLE_ENTRY
    expect_eq(r.status, 0, "single entry")
    expect_eq(names_of(data, 104, 60), ["."], "first entry")
    r, data = cl.query_dir(fid, 37, 4096)
    expect_eq(r.status, 0, "rest")
    expect_eq(sorted(names_of(data, 104, 60)), ["..", "one", "three", "two"],
              "remaining entries")
    r, _ = cl.query_dir(fid, 37, 4096)
    expect_eq(r.status, STATUS["NO_MORE_FILES"], "end")
    r, data = cl.query_dir(fid, 12, 4096, "T*", flags=1)  # restart, names
    expect_eq(r.status, 0, "restart with a pattern")
    expect_eq(sorted(names_of(data, 12, 8)), ["three", "two"], "T* matches")
    r, _ = cl.query_dir(fid, 99, 4096, flags=1)
    expect_eq(r.status, STATUS["INVALID_INFO_CLASS"], "unknown class")
    cl.close(fid)


@case
def case_qdir_pattern_matching_nothing(env):
    cl = Client(env)
    d = workdir(env, cl, "none")
    for i in range(50):
        cl.close(cl.touch("%s\\file%02d" % (d, i)))
    fid = cl.mkdir(d)
    r, _ = cl.query_dir(fid, 37, 65536, "nomatch*zz")
    expect_eq(r.status, STATUS["NO_SUCH_FILE"], "first request")
    r, _ = cl.query_dir(fid, 37, 65536, "nomatch*zz")
    expect_eq(r.status, STATUS["NO_MORE_FILES"], "second request")
    r, data = cl.query_dir(fid, 1, 65536, "FILE4?", flags=1)
    expect_eq(r.status, 0, "FILE4? after restart")
    expect_eq(len(names_of(data, 64, 60)), 10, "file40..file49")
    cl.close(fid)


@case
def case_setinfo_lengths_and_classes(env):
    cl = Client(env)
    d = workdir(env, cl, "sl")
    fid = cl.touch(d + "\\f")
    r = cl.set_info(fid, 1, 4, b"\0" * 8)         # Basic in 8 bytes
    expect_eq(r.status, STATUS["INFO_LENGTH_MISMATCH"], "short basic")
    r = cl.set_info(fid, 1, 20, b"\0" * 4)        # EndOfFile in 4 bytes
    expect_eq(r.status, STATUS["INFO_LENGTH_MISMATCH"], "short eof")
    r = cl.set_info(fid, 1, 200, b"\0" * 8)
    expect_eq(r.status, STATUS["INVALID_INFO_CLASS"], "unknown class")
    r = cl.set_info(fid, 1, 20, struct.pack("<Q", 12345))
    expect_eq(r.status, 0, "set eof")
    r, data = cl.query_info(fid, 1, 5, 24)
    expect_eq(struct.unpack_from("<Q", data, 8)[0], 12345, "new size")
    cl.close(fid)


@case
def case_setinfo_rename_replace(env):
    cl = Client(env)
    d = workdir(env, cl, "ren")
    cl.close(cl.touch(d + "\\b"))
    fid = cl.touch(d + "\\a")
    r = cl.rename(fid, d + "\\b", False)
    expect_eq(r.status, STATUS["OBJECT_NAME_COLLISION"], "no replace")
    r = cl.rename(fid, d + "\\b", True)
    expect_eq(r.status, 0, "replace")
    r = cl.rename(fid, "..\\escaped", True)
    expect_eq(r.status, STATUS["OBJECT_NAME_INVALID"], "rename out of share")
    r = cl.rename(fid, d + "\\..\\..\\escaped", True)
    expect_eq(r.status, STATUS["OBJECT_NAME_INVALID"], "dot-dot inside")
    cl.close(fid)
    st, fid = cl.create(d + "\\a", FILE_OPEN)
    expect(st != 0, "old name gone")


@case
def case_setinfo_hostile_ea_chains(env):
    cl = Client(env)
    d = workdir(env, cl, "eac")
    fid = cl.touch(d + "\\f")
    bad = [
        struct.pack("<IBBH", 64, 0, 1, 1) + b"A\0x" + b"\0",   # next past end
        struct.pack("<IBBH", 0, 0, 8, 1) + b"AB\0x",           # name past end
        struct.pack("<IBBH", 0, 0, 2, 0) + b"AB",              # no NUL
        struct.pack("<IBBH", 6, 0, 1, 0) + b"A\0" +
        struct.pack("<IBBH", 0, 0, 1, 0) + b"B\0",             # unaligned next
    ]
    for i, buf in enumerate(bad):
        r = cl.set_info(fid, 1, 15, buf)
        expect_eq(r.status, STATUS["INVALID_PARAMETER"], "bad chain %d" % i)
    cl.close(fid)


def sd(owner_sub=2, dacl_off=None, count=1):
    sid = struct.pack("<BB6s", 1, owner_sub, b"\0\0\0\0\0\x16")
    sid += struct.pack("<%dI" % min(owner_sub, 2), *([1, 1000][:min(owner_sub, 2)]))
    hdr = struct.pack("<BBHIIII", 1, 0, 0x8004, 20, 0, 0,
                      dacl_off if dacl_off is not None else 20 + len(sid))
    acl = struct.pack("<BBHHH", 2, 0, 8, count, 0)
    return hdr + sid + acl


@case
def case_setinfo_hostile_security(env):
    cl = Client(env)
    d = workdir(env, cl, "sd")
    fid = cl.touch(d + "\\f")
    for what, buf in (("16 sub-authorities", sd(owner_sub=16)),
                      ("dacl offset past end", sd(dacl_off=0xFFFFFFF0)),
                      ("dacl offset in header", sd(dacl_off=4)),
                      ("ace count without aces", sd(count=40)),
                      ("truncated header", b"\x01\x00\x04\x80")):
        r = cl.set_info(fid, 3, 0, buf, addl=5)
        expect_eq(r.status, STATUS["INVALID_SECURITY_DESCR"], what)
    cl.close(fid)


@case
def case_rmdir_not_empty(env):
    cl = Client(env)
    d = workdir(env, cl, "rm")
    cl.close(cl.touch(d + "\\inside"))
    fid = cl.mkdir(d)
    r = cl.set_info(fid, 1, 13, b"\x01")          # FileDispositionInformation
    expect_eq(r.status, STATUS["DIRECTORY_NOT_EMPTY"], "delete non-empty dir")
    cl.close(fid)


@case
def case_setinfo_foreign_file_denied(env):
    """chmod through READONLY and through a DACL, on root's file."""
    if not env.foreign:
        raise AssertionError("needs --foreign NAME (a file root owns)")
    cl = Client(env)
    st, fid = cl.create(env.foreign, FILE_OPEN, access=0x180)
    expect_eq(st, 0, "open for attributes")
    basic = struct.pack("<QQQQII", 0, 0, 0, 0, 0x1, 0)   # READONLY
    r = cl.set_info(fid, 1, 4, basic)
    expect_eq(r.status, STATUS["ACCESS_DENIED"], "readonly on root's file")
    cl.close(fid)
    st, fid = cl.create(env.foreign, FILE_OPEN, access=0x000600A0)
    if st:
        expect_eq(st, STATUS["ACCESS_DENIED"], "WRITE_DAC open")
        return
    r, data = cl.query_info(fid, 3, 0, 4096, addl=4)
    expect_eq(r.status, 0, "read the DACL")
    r = cl.set_info(fid, 3, 0, data, addl=4)
    expect_eq(r.status, STATUS["ACCESS_DENIED"], "DACL on root's file")
    cl.close(fid)


def main():
    def args(ap):
        ap.add_argument("--foreign", default="",
                        help="share-relative name of a file root owns")
    return case_main(__doc__, "smb2query", CASES, args)


if __name__ == "__main__":
    sys.exit(main())
