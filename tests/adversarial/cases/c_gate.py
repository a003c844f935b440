# SPDX-License-Identifier: GPL-2.0-or-later
"""The validation gate, command by command: StructureSize, truncated fixed
parts, every offset/length pair, counts and negotiated maxima (rows 6, 9,
10, 23, 36, 37, 44). Sent on the deepest connection the server allows
(session, tree, open file) so that a request the gate let through would
reach its handler."""
import struct

import advlib
from advlib import (expect, expect_status, INVALID_PARAMETER, SUCCESS,
                    NO_FID, FIXED, STRUCTURE_SIZE, BUFFERS, minimal_body,
                    CANCEL, NEGOTIATE, ECHO, READ, WRITE, QUERY_INFO,
                    QUERY_DIRECTORY, IOCTL, LOCK, CREATE, body_read,
                    body_write, body_query_info, body_query_directory,
                    body_ioctl, body_lock, body_simple)
from suite import case, cmd_name


def deep_client(env):
    c = env.client("file", name="adv_gate.txt")
    return c, (c.fid or NO_FID)


def check_invalid(c, cmd, body, what, **kw):
    r = c.call(cmd, body, **kw)
    expect_status(r, INVALID_PARAMETER, what)
    expect(r.command == cmd, "%s: response command %d" % (what, r.command))


def structure_size_case(cmd):
    def fn(env):
        c, fid = deep_client(env)
        base = minimal_body(cmd, fid)
        ss = STRUCTURE_SIZE[cmd]
        for bad in (0, ss - 1, ss + 1, 0xFFFF):
            if cmd == advlib.OPLOCK_BREAK and bad in (24, 36):
                continue
            body = struct.pack("<H", bad) + base[2:]
            check_invalid(c, cmd, body, "StructureSize %d" % bad)
        # The fixed part cut short by one byte, and the body ending at the
        # StructureSize field itself.
        check_invalid(c, cmd, base[:FIXED[cmd] - 1], "fixed part - 1")
        check_invalid(c, cmd, base[:2], "StructureSize only")
        expect(c.alive(), "connection unusable afterwards")
    fn.__name__ = "case_structure_size_" + advlib.CMD_NAMES[cmd]
    return fn


for _cmd in range(1, 19):
    if _cmd in (CANCEL,):
        continue
    case("gate", "INVALID_PARAMETER for StructureSize 0, -1, +1, 0xFFFF, "
         "a fixed part one byte short and a 2-byte body; connection usable "
         "(%s)" % cmd_name(_cmd))(structure_size_case(_cmd))


@case("gate", "INVALID_PARAMETER for wrong StructureSize and a 2-byte "
      "NEGOTIATE; connection still negotiable")
def case_structure_size_negotiate(env):
    c = advlib.Client(env)
    base = minimal_body(NEGOTIATE)
    for i, bad in enumerate((35, 37, 0)):
        c.send_frame(c.header(NEGOTIATE, i) + struct.pack("<H", bad) +
                     base[2:])
        expect_status(c.recv(), INVALID_PARAMETER, "StructureSize %d" % bad)
    c.mid = 3
    expect_status(c.negotiate(), SUCCESS, "negotiate afterwards")


def field_max(width):
    return 0xFFFF if width == 2 else 0xFFFFFFFF


def buffer_case(cmd, name, off_at, off_w, len_at, len_w):
    def fn(env):
        c, fid = deep_client(env)
        fixed_end = 64 + FIXED[cmd]
        base = bytearray(minimal_body(cmd, fid)[:FIXED[cmd]] + b"\0" * 24)
        elem_len = 64 + len(base)
        # 8-aligned, past the fixed part: valid unless the case breaks it.
        good_off = (fixed_end + 7) & ~7
        variants = [
            ("offset inside the header", 8, 2),
            ("offset just before the fixed part's end", fixed_end - 2, 2),
            ("offset past the element", elem_len + 8, 2),
            ("offset at 0xFF..F", field_max(off_w), 2),
            ("length past the element", good_off, elem_len - good_off + 2),
            ("length 0xFF..F (32-bit wrap)", good_off,
             field_max(len_w) & ~1),
        ]
        for what, off, length in variants:
            body = bytearray(base)
            fmt = {2: "<H", 4: "<I"}
            struct.pack_into(fmt[off_w], body, off_at, off & field_max(off_w))
            struct.pack_into(fmt[len_w], body, len_at,
                             length & field_max(len_w))
            check_invalid(c, cmd, bytes(body), "%s %s: %s" %
                          (cmd_name(cmd), name, what), charge=1)
        expect(c.alive(), "connection unusable afterwards")
    fn.__name__ = "case_buffer_%s_%s" % (advlib.CMD_NAMES[cmd], name)
    return fn


for _b in BUFFERS:
    case("gate", "INVALID_PARAMETER for %s %s offset inside the header, "
         "before the fixed part's end, past the element, at the field's "
         "maximum, length past the element and at 0xFF..F; connection "
         "usable" % (cmd_name(_b[0]), _b[1]))(buffer_case(*_b))


@case("gate", "INVALID_PARAMETER for commands 0x13, 0x100, 0xFFFF; "
      "connection usable")
def case_unknown_commands(env):
    c, _ = deep_client(env)
    for cmd in (0x13, 0x100, 0xFFFF):
        r = c.call(cmd, body_simple())
        expect_status(r, INVALID_PARAMETER, "command 0x%x" % cmd)
    expect(c.alive(), "connection unusable")


@case("gate", "INVALID_PARAMETER for LockCount 0 and LockCount 1000 with "
      "one element present")
def case_lock_counts(env):
    c, fid = deep_client(env)
    for count in (0, 1000):
        body = bytearray(body_lock(fid, [(0, 1, 2)]))
        struct.pack_into("<H", body, 2, count)
        check_invalid(c, LOCK, bytes(body), "LockCount %d" % count)


@case("gate", "INVALID_PARAMETER for READ/WRITE lengths above MaxRead/"
      "MaxWriteSize and QUERY_INFO/QUERY_DIRECTORY/IOCTL output lengths "
      "above MaxTransactSize (row 6, 44)")
def case_oversized_lengths(env):
    c, fid = deep_client(env)
    check_invalid(c, READ, body_read(fid, c.max_read + 1), "READ", charge=1)
    check_invalid(c, READ, body_read(fid, 0xFFFFFFFF), "READ 4G", charge=1)
    check_invalid(c, WRITE, body_write(fid, b"x" * 16,
                                       length=c.max_write + 1), "WRITE",
                  charge=1)
    check_invalid(c, QUERY_INFO, body_query_info(fid, out_len=0xFFFFFFFF),
                  "QUERY_INFO", charge=1)
    check_invalid(c, QUERY_DIRECTORY,
                  body_query_directory(fid, out_len=c.max_trans + 1),
                  "QUERY_DIRECTORY", charge=1)
    check_invalid(c, IOCTL, body_ioctl(fid, 0x00060194, b"\0" * 8,
                                       max_out=0xFFFFFFFF),
                  "IOCTL MaxOutputResponse", charge=1)


@case("gate", "INVALID_PARAMETER: a 128 KiB READ with CreditCharge 1, and "
      "with CreditCharge 0 (multi-credit connection)")
def case_credit_charge_too_small(env):
    c, fid = deep_client(env)
    if c.max_read < 131072:
        raise advlib.Skip("MaxReadSize %d below 128 KiB" % c.max_read)
    check_invalid(c, READ, body_read(fid, 131072), "charge 1", charge=1)
    check_invalid(c, READ, body_read(fid, 131072), "charge 0", charge=0)


@case("gate", "INVALID_PARAMETER: CREATE context NameLength past the "
      "context, DataOffset 0 with DataLength, Next looping back (rows 18, 31)")
def case_create_context_bad(env):
    c, fid = deep_client(env)
    good = advlib.create_context(b"MxAc", b"")
    bad_name = bytearray(good)
    struct.pack_into("<H", bad_name, 6, 200)
    dataless = bytearray(advlib.create_context(b"ExtA", b"\0" * 8))
    struct.pack_into("<H", dataless, 10, 0)
    looping = bytearray(advlib.create_context(b"MxAc", b"")) + b"\0" * 4
    struct.pack_into("<I", looping, 0, 0)
    two = bytearray(good + b"\0" * 4)
    struct.pack_into("<I", two, 0, 24)
    two += good
    struct.pack_into("<I", two, 24, 0xFFFFFFF8)
    for what, ctx in (("NameLength 200", bad_name),
                      ("DataOffset 0", dataless),
                      ("Next past the list", two)):
        check_invalid(c, CREATE, advlib.body_create("adv_ctx.txt",
                                                    contexts=bytes(ctx)),
                      "create context " + what)


@case("gate", "INVALID_PARAMETER: TREE_CONNECT PathLength 0xFFFE in a "
      "short frame (row 10)")
def case_tree_connect_path_length(env):
    c = env.client("session")
    body = bytearray(advlib.body_tree_connect("\\\\a\\b"))
    struct.pack_into("<H", body, 6, 0xFFFE)
    check_invalid(c, advlib.TREE_CONNECT, bytes(body), "PathLength", tree=0)
    expect(c.alive(), "connection unusable")


@case("gate", "INVALID_PARAMETER: WRITE with DataOffset 0 and Length 1 MiB "
      "(rows 9, 11)")
def case_write_dataoffset_zero(env):
    c, fid = deep_client(env)
    check_invalid(c, WRITE, body_write(fid, b"y" * 64, data_offset=0,
                                       length=min(1 << 20, c.max_write)),
                  "WRITE DataOffset 0", charge=16)
    check_invalid(c, WRITE, body_write(fid, b"y" * 64, data_offset=0,
                                       length=16), "WRITE DataOffset 0 small")


@case("gate", "ECHO answered SUCCESS: a 1-byte trailing body after ECHO's "
      "fixed part is tolerated")
def case_echo_trailing_bytes(env):
    c, _ = deep_client(env)
    r = c.call(ECHO, body_simple() + b"\0" * 61)
    expect_status(r, SUCCESS, "echo with trailing bytes")
