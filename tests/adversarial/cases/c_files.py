# SPDX-License-Identifier: GPL-2.0-or-later
"""Open files: offsets, locks, query/set info buffers, EA lists, security
descriptors, paths escaping the share (rows 3, 4, 5, 12, 29, 32, 42, 45,
46, 49, 56, 57, 59)."""
import os
import struct
import time

import advlib
from advlib import (expect, expect_status, sname, is_error, SUCCESS,
                    INFO_LENGTH_MISMATCH,
                    INVALID_PARAMETER, NOT_IMPLEMENTED, FILE_CLOSED,
                    INVALID_HANDLE, CREATE, CLOSE, READ, WRITE, LOCK, IOCTL,
                    QUERY_INFO, SET_INFO, QUERY_DIRECTORY, FLUSH, INFO_FILE,
                    INFO_SECURITY, LOCK_SHARED, LOCK_EXCLUSIVE, LOCK_UNLOCK,
                    LOCK_FAIL_IMMEDIATELY, body_create, body_close,
                    body_read, body_write, body_lock, body_ioctl,
                    body_query_info, body_set_info, body_query_directory,
                    body_flush, create_context, utf16)
from suite import case, host_path

FILE_TOO_LARGE = 0xC0000904
LI = LOCK_EXCLUSIVE | LOCK_FAIL_IMMEDIATELY


def file_client(env, name="adv_file.txt", **kw):
    """A connection with name open; below file level, the CREATE's answer
    is checked (an error, connection usable) and the case skipped."""
    c = env.client("tree")
    r = c.create(name, **kw) if c.level == "tree" else \
        c.call(CREATE, body_create(name))
    if r.status == SUCCESS:
        c.fid = r.fid
        return c
    expect(is_error(r.status), "CREATE: %s" % sname(r.status))
    expect(c.alive(), "connection unusable after CREATE")
    if r.status == NOT_IMPLEMENTED or not env.has("file"):
        raise advlib.Skip("CREATE not implemented yet")
    raise advlib.CaseFailure("CREATE %s: %s" % (name, sname(r.status)))


def call(env, c, cmd, body, what, **kw):
    r = c.call(cmd, body, **kw)
    env.not_impl(c, r, what)
    return r


@case("files", "INVALID_PARAMETER (or DISK_FULL/FILE_TOO_LARGE) for WRITE "
      "at offsets 2^63, 2^64-16 and 2^63-1 with 16 bytes; the file does not "
      "grow (row 42)")
def case_write_negative_offset(env):
    c = file_client(env, "adv_negw.txt", disposition=advlib.FILE_OVERWRITE_IF)
    for off in (1 << 63, (1 << 64) - 16, (1 << 63) - 1):
        r = call(env, c, WRITE, body_write(c.fid, b"n" * 16, offset=off),
                 "WRITE")
        expect_status(r, (INVALID_PARAMETER, advlib.DISK_FULL,
                          FILE_TOO_LARGE), "offset 0x%x" % off)
    p = host_path(env, "adv_negw.txt")
    if os.path.exists(p):
        expect(os.path.getsize(p) < 1 << 20, "file grew to %d" %
               os.path.getsize(p))


@case("files", "INVALID_PARAMETER or END_OF_FILE for READ at offsets 2^63 "
      "and 2^64-1 (row 42)")
def case_read_negative_offset(env):
    c = file_client(env, "adv_negr.txt")
    for off in (1 << 63, (1 << 64) - 1):
        r = call(env, c, READ, body_read(c.fid, 16, offset=off), "READ")
        expect_status(r, (INVALID_PARAMETER, advlib.END_OF_FILE),
                      "offset 0x%x" % off)


@case("files", "stream 'adv_s.txt:s1': WRITE/READ at 2^63 refused (rows 42, "
      "57); CREATE refused cleanly where streams are unsupported")
def case_stream_negative_offset(env):
    c = file_client(env, "adv_s.txt")
    r = c.create("adv_s.txt:s1")
    if r.status != SUCCESS:
        expect(is_error(r.status), "stream CREATE: %s" % sname(r.status))
        expect(c.alive(), "connection unusable")
        raise advlib.Skip("named streams not supported (%s)" %
                          sname(r.status))
    for cmd, body in ((WRITE, body_write(r.fid, b"s" * 16, offset=1 << 63)),
                      (READ, body_read(r.fid, 16, offset=1 << 63))):
        rr = call(env, c, cmd, body, advlib.CMD_NAMES[cmd].upper())
        expect_status(rr, (INVALID_PARAMETER, advlib.END_OF_FILE,
                           advlib.DISK_FULL, FILE_TOO_LARGE), "stream op")


@case("files", "zero-length LOCK SUCCESS, its UNLOCK SUCCESS; close with a "
      "zero-length lock held SUCCESS (row 45)")
def case_lock_zero_length(env):
    c = file_client(env, "adv_lock0.txt")
    r = call(env, c, LOCK, body_lock(c.fid, [(0, 0, LI)]), "LOCK")
    expect_status(r, SUCCESS, "zero-length lock")
    expect_status(c.call(LOCK, body_lock(c.fid, [(0, 0, LOCK_UNLOCK)])),
                  SUCCESS, "unlock")
    expect_status(c.call(LOCK, body_lock(c.fid, [(100, 0, LI)])), SUCCESS,
                  "second zero-length lock")
    expect_status(c.close_file(c.fid), SUCCESS, "close with lock held")


@case("files", "INVALID_PARAMETER for lock lists mixing LOCK and UNLOCK, "
      "and for SHARED|EXCLUSIVE together (CVE-2025-21944/21945)")
def case_lock_mixed_flags(env):
    c = file_client(env, "adv_lockmix.txt")
    call(env, c, LOCK, body_lock(c.fid, [(0, 1, LI)]), "LOCK")
    c.call(LOCK, body_lock(c.fid, [(0, 1, LOCK_UNLOCK)]))
    for els in ([(0, 10, LOCK_SHARED | LOCK_FAIL_IMMEDIATELY),
                 (0, 10, LOCK_UNLOCK)],
                [(0, 10, LOCK_UNLOCK), (20, 10, LI)],
                [(0, 10, LOCK_SHARED | LOCK_EXCLUSIVE)],
                [(0, 10, LI), (0, 10, LI | LOCK_UNLOCK)]):
        r = c.call(LOCK, body_lock(c.fid, els))
        expect_status(r, (INVALID_PARAMETER, advlib.RANGE_NOT_LOCKED),
                      "elements %s" % els)
    expect_status(c.close_file(c.fid), SUCCESS, "close")


@case("files", "RANGE_NOT_LOCKED for unlocking what is not locked; "
      "INVALID_LOCK_RANGE for a range wrapping 2^64")
def case_lock_ranges(env):
    c = file_client(env, "adv_lockr.txt")
    r = call(env, c, LOCK, body_lock(c.fid, [(0, 10, LOCK_UNLOCK)]), "LOCK")
    expect_status(r, advlib.RANGE_NOT_LOCKED, "unlock of nothing")
    r = c.call(LOCK, body_lock(c.fid, [((1 << 64) - 16, 0x100, LI)]))
    expect_status(r, advlib.INVALID_LOCK_RANGE, "wrapping range")


@case("files", "LOCK_NOT_GRANTED on a conflicting handle; after the owner "
      "closes with the lock held, the lock is granted")
def case_lock_released_on_close(env):
    c = file_client(env, "adv_lockc.txt")
    r = call(env, c, LOCK, body_lock(c.fid, [(0, 10, LI)]), "LOCK")
    expect_status(r, SUCCESS, "first lock")
    r2 = c.create("adv_lockc.txt")
    expect_status(r2, SUCCESS, "second open")
    expect_status(c.call(LOCK, body_lock(r2.fid, [(5, 1, LI)])),
                  (advlib.LOCK_NOT_GRANTED, 0xC0000054), "conflict")
    expect_status(c.close_file(c.fid), SUCCESS, "close with the lock held")
    expect_status(c.call(LOCK, body_lock(r2.fid, [(5, 1, LI)])), SUCCESS,
                  "lock after the owner closed")


@case("files", "INFO_LENGTH_MISMATCH or BUFFER_OVERFLOW for "
      "FileAllInformation into 8 bytes and FileBasicInformation into 0; "
      "no more bytes than asked for")
def case_query_info_tiny_output(env):
    c = file_client(env, "adv_qi.txt")
    for cls, n in ((0x12, 8), (0x04, 0), (0x05, 4)):
        r = call(env, c, QUERY_INFO, body_query_info(c.fid, info_class=cls,
                                                     out_len=n),
                 "QUERY_INFO")
        expect_status(r, (advlib.INFO_LENGTH_MISMATCH,
                          advlib.BUFFER_OVERFLOW), "class %d into %d" %
                      (cls, n))
        if r.status == advlib.BUFFER_OVERFLOW:
            expect(struct.unpack_from("<I", r.body, 4)[0] <= n,
                   "returned more than OutputBufferLength")


@case("files", "BUFFER_TOO_SMALL for a security descriptor into 4 bytes "
      "(the needed size in the error data)")
def case_query_security_tiny(env):
    c = file_client(env, "adv_qs.txt")
    r = call(env, c, QUERY_INFO, body_query_info(
        c.fid, info_type=INFO_SECURITY, info_class=0, out_len=4,
        add_info=0x7), "QUERY_INFO")
    expect_status(r, (advlib.BUFFER_TOO_SMALL, advlib.BUFFER_OVERFLOW),
                  "security into 4 bytes")


@case("files", "error for FileFullEaInformation with a 4-byte get-EA list "
      "and one whose EaNameLength runs past it (rows 3, 60)")
def case_query_ea_bad_input(env):
    c = file_client(env, "adv_qea.txt")
    for inp in (b"\0\0\0\0", struct.pack("<IB", 0, 200) + b"abc"):
        r = call(env, c, QUERY_INFO, body_query_info(
            c.fid, info_class=0x0F, out_len=1024, input_buf=inp),
            "QUERY_INFO")
        expect(is_error(r.status) and r.status != NOT_IMPLEMENTED,
               "get-EA list %s: %s" % (inp.hex(), sname(r.status)))


def dir_client(env):
    c = file_client(env, "adv_dir_probe.txt")
    r = c.create("", disposition=advlib.FILE_OPEN, options=advlib.OPT_DIRECTORY,
                 access=0x00120089)
    expect_status(r, SUCCESS, "open the share root")
    return c, r.fid


@case("files", "INFO_LENGTH_MISMATCH (or BUFFER_TOO_SMALL) for "
      "QUERY_DIRECTORY into 1 byte")
def case_query_dir_tiny_output(env):
    c, d = dir_client(env)
    r = call(env, c, QUERY_DIRECTORY, body_query_directory(d, out_len=1),
             "QUERY_DIRECTORY")
    expect_status(r, (advlib.INFO_LENGTH_MISMATCH, advlib.BUFFER_TOO_SMALL),
                  "1-byte output")


@case("files", "NO_SUCH_FILE within 5 s for patterns matching nothing "
      "('zz*nomatch.q', DOS wildcards '<\"zz_nomatch>?q', 300 x '*' + "
      "'x.none') (row 56)")
def case_query_dir_patterns(env):
    c, d = dir_client(env)
    for pat in ("zz*nomatch.q", "<\"zz_nomatch>?q", "*" * 300 + "x.none"):
        t = time.monotonic()
        r = call(env, c, QUERY_DIRECTORY, body_query_directory(
            d, pattern=pat, flags=1), "QUERY_DIRECTORY")
        expect(time.monotonic() - t < 5, "pattern %r took %.1f s" %
               (pat, time.monotonic() - t))
        expect_status(r, (advlib.NO_SUCH_FILE, advlib.NO_MORE_FILES,
                          advlib.OBJECT_NAME_INVALID), "pattern %r" % pat)


def ea(name, value, nxt=0, name_len=None, flags=0):
    n = len(name) if name_len is None else name_len
    return struct.pack("<IBBH", nxt, flags, n, len(value)) + name + b"\0" + \
        value


@case("files", "error for SET_INFO FileFullEaInformation lists with "
      "NextEntryOffset past the buffer, unaligned, name without NUL room, "
      "EaValueLength past the end (rows 29, 59, CVE-2026-31705)")
def case_set_ea_malformed(env):
    c = file_client(env, "adv_sea.txt")
    good = ea(b"user.a", b"1")
    bad = {
        "next past end": ea(b"user.a", b"1", nxt=0x1000) + b"\0" * 4,
        "next unaligned": ea(b"user.a", b"1", nxt=5) + ea(b"b", b"2"),
        "name without NUL room": struct.pack("<IBBH", 0, 0, 8, 0) +
        b"user.abc",
        "value past end": struct.pack("<IBBH", 0, 0, 1, 0xFFF0) + b"a\0",
        "zero name": ea(b"", b"1"),
    }
    r = call(env, c, SET_INFO, body_set_info(c.fid, INFO_FILE, 0x0F, good),
             "SET_INFO")
    for what, buf in bad.items():
        r = c.call(SET_INFO, body_set_info(c.fid, INFO_FILE, 0x0F, buf))
        expect(is_error(r.status) or r.status == advlib.EA_LIST_INCONSISTENT,
               "%s: %s" % (what, sname(r.status)))
    expect(c.alive(), "connection unusable")


def ea_query(c, out_len):
    return c.call(QUERY_INFO, body_query_info(c.fid, info_class=0x0F,
                                              out_len=out_len))


def ea_answer(r, out_len):
    """The output buffer of a QUERY_INFO answer, checked to be inside the
    frame and no longer than asked."""
    off, n = struct.unpack_from("<HI", r.body, 2)
    expect(n <= out_len, "%d bytes into %d" % (n, out_len))
    expect(off + n <= len(r.raw), "output %d+%d past the frame" % (off, n))
    return r.raw[off:off + n]


def parse_ea_chain(buf):
    """(name, value) pairs of a FILE_FULL_EA_INFORMATION chain; raises
    CaseFailure when an entry or a NextEntryOffset leaves the buffer."""
    out, pos = [], 0
    while True:
        expect(pos + 8 <= len(buf), "entry header at %d past %d" % (pos, len(buf)))
        nxt, _flags, nlen, vlen = struct.unpack_from("<IBBH", buf, pos)
        end = pos + 8 + nlen + 1 + vlen
        expect(end <= len(buf), "entry at %d ends at %d past %d" % (pos, end, len(buf)))
        expect(buf[pos + 8 + nlen] == 0, "EA name at %d without its NUL" % pos)
        out.append((buf[pos + 8:pos + 8 + nlen], buf[pos + 9 + nlen:end]))
        if not nxt:
            return out
        expect(nxt % 4 == 0 and nxt >= end - pos, "NextEntryOffset %d at %d" % (nxt, pos))
        pos += nxt


@case("files", "FileFullEaInformation of three EAs whose entries are not "
      "4-byte multiples, for every OutputBufferLength from 0 to the whole "
      "list + 8: never more bytes than asked; SUCCESS exactly when every "
      "EA fits (and then all three come back), else BUFFER_OVERFLOW with "
      "whole entries or INFO_LENGTH_MISMATCH; every answer's chain stays "
      "inside it (row 60: CVE-2026-31705, CVE-2026-31612). SKIP where the "
      "share's file system stores no EAs")
def case_query_ea_output_sweep(env):
    c = file_client(env, "adv_easweep.txt", disposition=advlib.FILE_OVERWRITE_IF)
    eas = [(b"A", b"1"), (b"BCDEF", b"xyz12"), (b"GH", b"0123456")]
    chain = b""
    for i, (n, v) in enumerate(eas):
        e = ea(n, v)
        if i + 1 < len(eas):
            e += b"\0" * (-len(e) % 4)
            e = struct.pack("<I", len(e)) + e[4:]
        chain += e
    r = call(env, c, SET_INFO, body_set_info(c.fid, INFO_FILE, 0x0F, chain),
             "SET_INFO")
    if r.status == advlib.NOT_SUPPORTED:
        raise advlib.Skip("the share's file system stores no EAs")
    expect_status(r, SUCCESS, "SET_INFO of three EAs")
    whole = ea_query(c, 4096)
    expect_status(whole, SUCCESS, "all EAs into 4096 bytes")
    full = ea_answer(whole, 4096)
    got = sorted(n.upper() for n, _ in parse_ea_chain(full))
    expect(got == sorted(n for n, _ in eas), "EAs %r" % got)
    for out_len in range(0, len(full) + 9):
        r = ea_query(c, out_len)
        if out_len >= len(full):
            expect_status(r, SUCCESS, "OutputBufferLength %d (the list is %d)"
                          % (out_len, len(full)))
            expect(ea_answer(r, out_len) == full, "a different list into %d" % out_len)
        elif r.status == advlib.BUFFER_OVERFLOW:
            part = parse_ea_chain(ea_answer(r, out_len))
            expect(len(part) < len(eas), "all EAs in %d bytes" % out_len)
        else:
            expect_status(r, (INFO_LENGTH_MISMATCH, advlib.BUFFER_TOO_SMALL),
                          "OutputBufferLength %d" % out_len)
    expect(c.alive(), "connection unusable")


def sd(owner_off=20, group_off=0, dacl_off=0, control=0x8004, tail=b""):
    return struct.pack("<BBHIIII", 1, 0, control, owner_off, group_off, 0,
                       dacl_off) + tail


SID_TESTER = struct.pack("<BB6sI", 1, 1, b"\0\0\0\0\0\x05", 18)


@case("files", "INVALID_SECURITY_DESCR/INVALID_PARAMETER (an error) for "
      "SDs with owner/DACL offsets outside, SubAuthorityCount 200, AceCount "
      "65535, AceSize 0, DACL offset 0xFFFFFFF0; QUERY_INFO security "
      "afterwards still answers (rows 12, 46, 49)")
def case_set_security_malformed(env):
    c = file_client(env, "adv_ssd.txt")
    acl_huge = struct.pack("<BBHHH", 2, 0, 8, 0xFFFF, 0)
    acl_ace0 = struct.pack("<BBHHH", 2, 0, 16, 1, 0) + \
        struct.pack("<BBHI", 0, 0, 0, 0x1F01FF)
    bad = {
        "owner offset outside": sd(owner_off=4000, tail=SID_TESTER),
        "owner inside header": sd(owner_off=4, tail=SID_TESTER),
        "subauth 200": sd(tail=struct.pack("<BB6s", 1, 200, b"\0" * 5 +
                                           b"\x05") + b"\0" * 8),
        "dacl offset wraps": sd(owner_off=0, dacl_off=0xFFFFFFF0),
        "ace count 65535": sd(owner_off=0, dacl_off=20, tail=acl_huge),
        "ace size 0": sd(owner_off=0, dacl_off=20, tail=acl_ace0),
    }
    for what, buf in bad.items():
        add = 0x4 if "dacl" in what or "ace" in what else 0x1
        r = call(env, c, SET_INFO, body_set_info(c.fid, INFO_SECURITY, 0, buf,
                                                 add_info=add), "SET_INFO")
        expect(is_error(r.status), "%s: %s" % (what, sname(r.status)))
    r = c.call(QUERY_INFO, body_query_info(c.fid, info_type=INFO_SECURITY,
                                           info_class=0, out_len=4096,
                                           add_info=0x7))
    expect_status(r, (SUCCESS, NOT_IMPLEMENTED, advlib.ACCESS_DENIED),
                  "QUERY_INFO security afterwards")


def check_sd_inside(c, fid, what):
    """QUERY_INFO security answers a descriptor whose offsets lie in it."""
    r = c.call(QUERY_INFO, body_query_info(fid, info_type=INFO_SECURITY,
                                           info_class=0, out_len=4096,
                                           add_info=0x7))
    if r.status == NOT_IMPLEMENTED:
        return
    expect_status(r, SUCCESS, "%s: QUERY_INFO security" % what)
    off, ln = struct.unpack_from("<HI", r.body, 2)
    blob = r.raw[off:off + ln]
    expect(len(blob) == ln and ln >= 20, "%s: descriptor of %d bytes" %
           (what, ln))
    for at in (4, 8, 12, 16):
        o = struct.unpack_from("<I", blob, at)[0]
        expect(o == 0 or 20 <= o < ln, "%s: descriptor offset %d outside "
               "%d bytes" % (what, o, ln))


@case("files", "CREATE with a malformed SecD context: refused, or accepted "
      "and ignored (then the file's descriptor is well formed); with a "
      "malformed ExtA (EA) context: error and nothing created (rows 29, 32, "
      "46)")
def case_create_bad_sd_ea_contexts(env):
    c = file_client(env, "adv_cctx_probe.txt")
    for tag, data in ((b"SecD", sd(owner_off=9000, tail=SID_TESTER)),
                      (b"ExtA", ea(b"user.x", b"1", nxt=0x800))):
        name = "adv_cctx_%s_%d.txt" % (tag.decode(), os.getpid())
        r = c.call(CREATE, body_create(name, disposition=advlib.FILE_CREATE,
                                       contexts=create_context(tag, data)))
        if tag == b"SecD" and r.status == SUCCESS:
            check_sd_inside(c, r.body[64:80], "SecD ignored")
            continue
        expect(is_error(r.status), "%s: %s" % (tag, sname(r.status)))
        expect(not os.path.exists(host_path(env, name)),
               "%s created despite the bad context" % name)


@case("files", "error for CREATE of '..\\x', 'a\\..\\..\\x', '\\..\\x', "
      "'C:\\x', '/etc/passwd', '\\\\?\\C:\\x'; nothing appears outside "
      "the share (row 4)")
def case_create_escaping_paths(env):
    c = file_client(env, "adv_esc_probe.txt")
    parent = os.path.dirname(env.share_path.rstrip("/"))
    for name in ("..\\adv_escape.txt", "a\\..\\..\\adv_escape.txt",
                 "\\..\\adv_escape.txt", "..", "C:\\adv_escape.txt",
                 "/etc/passwd", "\\\\?\\C:\\adv_escape.txt",
                 "adv_ok\\..\\..\\..\\adv_escape.txt"):
        r = c.call(CREATE, body_create(name, disposition=advlib.FILE_OPEN_IF))
        expect(is_error(r.status), "%r: %s" % (name, sname(r.status)))
    expect(not os.path.exists(os.path.join(parent, "adv_escape.txt")),
           "a file escaped the share")


@case("files", "error for opening through planted symlinks to /etc "
      "('adv_link\\passwd', 'adv_flink') (row 4)")
def case_create_through_symlink(env):
    c = file_client(env, "adv_sym_probe.txt")
    if not os.path.islink(host_path(env, "adv_link")):
        raise advlib.Skip("no planted symlink %s" % host_path(env, "adv_link"))
    for name in ("adv_link\\passwd", "adv_flink", "ADV_LINK\\passwd"):
        r = c.call(CREATE, body_create(name, disposition=advlib.FILE_OPEN,
                                       access=0x00120089))
        if r.status == SUCCESS:
            fid = r.body[64:80]
            rd = c.call(READ, body_read(fid, 64))
            raise advlib.CaseFailure("%r opened (%s, read %r)" % (
                name, sname(rd.status), rd.raw[80:100]))
        expect(is_error(r.status) or r.status == advlib.STOPPED_ON_SYMLINK,
               "%r: %s" % (name, sname(r.status)))


def rename_info(target, replace=False):
    t = utf16(target)
    return struct.pack("<B7xQI", 1 if replace else 0, 0, len(t)) + t


@case("files", "error for rename and hard-link targets '..\\x', "
      "'\\..\\x', 'adv_link\\x' (through a symlink); the source stays, "
      "nothing appears outside (row 4)")
def case_rename_link_escape(env):
    c = file_client(env, "adv_ren.txt")
    parent = os.path.dirname(env.share_path.rstrip("/"))
    for cls in (10, 11):
        for tgt in ("..\\adv_ren_out.txt", "\\..\\adv_ren_out.txt",
                    "adv_link\\adv_ren_out.txt",
                    "x\\..\\..\\adv_ren_out.txt"):
            r = call(env, c, SET_INFO, body_set_info(
                c.fid, INFO_FILE, cls, rename_info(tgt)), "SET_INFO")
            expect(is_error(r.status), "class %d to %r: %s" %
                   (cls, tgt, sname(r.status)))
    for p in (os.path.join(parent, "adv_ren_out.txt"),
              "/etc/adv_ren_out.txt"):
        expect(not os.path.exists(p), "%s exists" % p)
    expect(os.path.exists(host_path(env, "adv_ren.txt")), "source vanished")


@case("files", "SUCCESS for EOF set to the current size 0 (row 57), and "
      "error for EOF 2^63")
def case_set_eof_edges(env):
    c = file_client(env, "adv_eof.txt", disposition=advlib.FILE_OVERWRITE_IF)
    r = call(env, c, SET_INFO, body_set_info(c.fid, INFO_FILE, 0x14,
                                             struct.pack("<Q", 0)),
             "SET_INFO")
    expect_status(r, SUCCESS, "EOF 0 on an empty file")
    r = c.call(SET_INFO, body_set_info(c.fid, INFO_FILE, 0x14,
                                       struct.pack("<Q", 1 << 63)))
    expect(is_error(r.status), "EOF 2^63: %s" % sname(r.status))


@case("files", "FSCTL_SET_SPARSE on a read-only handle refused "
      "(CVE-2026-52944); FSCTL_PIPE_TRANSCEIVE on a file refused")
def case_ioctl_permissions(env):
    c = file_client(env, "adv_sparse.txt")
    r = c.create("adv_sparse.txt", access=0x00120089,
                 disposition=advlib.FILE_OPEN)
    expect_status(r, SUCCESS, "read-only open")
    rr = call(env, c, IOCTL, body_ioctl(r.fid, 0x000900C4, b"\x01"),
              "IOCTL")
    expect(is_error(rr.status), "SET_SPARSE read-only: %s" %
           sname(rr.status))
    rr = c.call(IOCTL, body_ioctl(c.fid, 0x0011C017, b"\x05\x00" * 8))
    expect(is_error(rr.status), "PIPE_TRANSCEIVE: %s" % sname(rr.status))


@case("files", "FILE_CLOSED for READ/WRITE/FLUSH/CLOSE on a closed id and "
      "on a random id; a file id of another session refused")
def case_stale_and_foreign_fids(env):
    c = file_client(env, "adv_stale.txt")
    fid = c.fid
    expect_status(c.close_file(fid), SUCCESS, "close")
    for cmd, body in ((READ, body_read(fid, 8)),
                      (WRITE, body_write(fid, b"s")),
                      (FLUSH, body_flush(fid)), (CLOSE, body_close(fid)),
                      (READ, body_read(os.urandom(16), 8))):
        r = c.call(cmd, body)
        if r.status == NOT_IMPLEMENTED:
            continue
        expect_status(r, (FILE_CLOSED, INVALID_HANDLE), "%s on a stale id" %
                      advlib.CMD_NAMES[cmd])
    other = file_client(env, "adv_stale2.txt")
    r = c.call(READ, body_read(other.fid, 8))
    if r.status != NOT_IMPLEMENTED:
        expect_status(r, (FILE_CLOSED, INVALID_HANDLE),
                      "READ with another session's id")


def sid(auth, *subs):
    return struct.pack("<BB6s", 1, len(subs), auth.to_bytes(6, "big")) + \
        b"".join(struct.pack("<I", x) for x in subs)


def everyone_full_dacl():
    ace_sid = sid(1, 0)
    ace = struct.pack("<BBHI", 0, 0, 8 + len(ace_sid), 0x1F01FF) + ace_sid
    return struct.pack("<BBHHH", 2, 0, 8 + len(ace), 1, 0) + ace


@case("files", "on a root-owned 0644 file in the share: open for "
      "WRITE_DAC|WRITE_OWNER|WRITE_ATTRIBUTES refused, or every owner/DACL/"
      "times change refused; mode, owner and mtime on disk unchanged (row 5)")
def case_chmod_chown_not_owner(env):
    c = file_client(env, "adv_perm_probe.txt")
    p = host_path(env, "adv_rootfile")
    if not os.path.exists(p):
        raise advlib.Skip("no planted root-owned file %s" % p)
    before = os.stat(p)
    r = c.create("adv_rootfile", access=0x000C0100,
                 disposition=advlib.FILE_OPEN)
    if r.status == SUCCESS:
        dacl = everyone_full_dacl()
        owner = sid(22, 1, 1000)
        for what, info_type, cls, buf, add in (
                ("owner", INFO_SECURITY, 0, sd(control=0x8000, tail=owner),
                 0x1),
                ("dacl", INFO_SECURITY, 0, sd(owner_off=0, dacl_off=20,
                                              tail=dacl), 0x4),
                ("times", INFO_FILE, 0x04, struct.pack("<QQQQII", 0, 0,
                                                       1 << 40, 0, 0, 0),
                 0)):
            rr = c.call(SET_INFO, body_set_info(r.fid, info_type, cls, buf,
                                                add_info=add))
            expect(is_error(rr.status), "%s change on another user's file: "
                   "%s" % (what, sname(rr.status)))
    else:
        expect_status(r, advlib.ACCESS_DENIED, "open for WRITE_DAC")
    after = os.stat(p)
    expect((after.st_mode, after.st_uid, after.st_gid, after.st_mtime) ==
           (before.st_mode, before.st_uid, before.st_gid, before.st_mtime),
           "root-owned file changed: mode %o uid %d mtime %d" %
           (after.st_mode, after.st_uid, after.st_mtime))


@case("files", "ACCESS_DENIED for WRITE on a handle opened read-only, and "
      "for READ on a handle opened write-only")
def case_io_beyond_granted_access(env):
    c = file_client(env, "adv_ro.txt")
    r = c.create("adv_ro.txt", access=0x00120089,
                 disposition=advlib.FILE_OPEN)
    expect_status(r, SUCCESS, "read-only open")
    w = call(env, c, WRITE, body_write(r.fid, b"no"), "WRITE")
    expect_status(w, advlib.ACCESS_DENIED, "WRITE on a read-only handle")
    r = c.create("adv_ro.txt", access=0x00120116,
                 disposition=advlib.FILE_OPEN)
    expect_status(r, SUCCESS, "write-only open")
    rd = call(env, c, READ, body_read(r.fid, 2), "READ")
    expect_status(rd, advlib.ACCESS_DENIED, "READ on a write-only handle")


@case("files", "error for a 300-character component, a 16000-character "
      "path and a name with an embedded NUL before '..\\..'; an unpaired "
      "UTF-16 surrogate answered on a usable connection")
def case_create_odd_names(env):
    c = file_client(env, "adv_names_probe.txt")
    for what, raw in (("300-char component", utf16("a" * 300)),
                      ("16000-char path", utf16("\\".join(["d"] * 8000))),
                      ("embedded NUL", utf16("adv_nul\0..\\..\\adv_escape"))):
        body = bytearray(body_create("x"))
        body = bytes(body[:56]) + raw
        body = body[:46] + struct.pack("<H", len(raw)) + body[48:]
        r = c.call(CREATE, body)
        expect(is_error(r.status), "%s: %s" % (what, sname(r.status)))
    raw = b"\x00\xd8" + utf16("x")
    body = body_create("x")[:56] + raw
    body = body[:46] + struct.pack("<H", len(raw)) + body[48:]
    r = c.call(CREATE, body)
    if r.status == SUCCESS:
        c.close_file(r.body[64:80])
    expect(c.alive(), "connection unusable after an unpaired surrogate")
