# SPDX-License-Identifier: GPL-2.0-or-later
"""Transport framing: the RFC1002 length, protocol ids, transform and
compression headers, half frames (rows 13, 21, 22, 27, 28, 38)."""
import socket
import struct
import time

import advlib
from advlib import Client, expect, wire, NEGOTIATE
from suite import case, mem_available_kb


def raw_conn(env):
    return Client(env)


@case("framing", "connection dropped (RFC1002 length 0)")
def case_rfc_length_zero(env):
    c = raw_conn(env)
    c.send_raw(b"\0\0\0\0")
    expect(c.is_dropped(), "not dropped")


@case("framing", "connection dropped (RFC1002 length 3, below any header)")
def case_rfc_length_three(env):
    c = raw_conn(env)
    c.send_raw(b"\0\0\0\x03\xfeSM")
    expect(c.is_dropped(), "not dropped")


@case("framing", "each connection dropped at once, MemAvailable does not "
      "fall by 16 MiB per connection (no allocation by the length)")
def case_rfc_length_16m_no_alloc(env):
    before = mem_available_kb()
    conns = []
    for _ in range(32):
        c = raw_conn(env)
        c.send_raw(b"\x00\xff\xff\xff" + b"\xfeSMB" + b"\0" * 60)
        conns.append(c)
    low = mem_available_kb()
    t = time.monotonic()
    for c in conns:
        expect(c.is_dropped(wait=5), "16 MiB frame not dropped")
    expect(time.monotonic() - t < 10, "dropped only after a timeout")
    # 32 connections x 16 MiB would be 512 MiB; allow noise of 64 MiB.
    expect(before - low < 65536, "MemAvailable fell by %d KiB" % (before - low))


@case("framing", "connection dropped (16 MiB frame after NEGOTIATE, above "
      "the pre-auth bound)")
def case_rfc_length_16m_after_negotiate(env):
    c = env.client("negotiate")
    c.send_raw(b"\x00\xff\xff\xff" + b"\xfeSMB")
    expect(c.is_dropped(), "not dropped")


@case("framing", "connection dropped for every length 1..63 "
      "(frame shorter than an SMB2 header)")
def case_truncated_header(env):
    for n in (1, 4, 8, 20, 32, 48, 63):
        c = raw_conn(env)
        c.send_frame(advlib.HDR.pack(b"\xfeSMB", 64, 0, 0, NEGOTIATE, 1, 0,
                                     0, 0, 0, 0, 0, b"\0" * 16)[:n])
        expect(c.is_dropped(), "length %d not dropped" % n)


@case("framing", "connection dropped for protocol ids other than "
      "SMB1/SMB2/transform/compression (row 21)")
def case_bad_protocol_ids(env):
    for magic in (b"\x00SMB", b"\xfeSMC", b"\xfdSMC", b"\xfcSMb", b"GET "):
        c = raw_conn(env)
        c.send_frame(magic + b"\0" * 60 + wire.negotiate_body([0x0210]))
        expect(c.is_dropped(), "%r not dropped" % magic)


@case("framing", "connection dropped (SMB2 header StructureSize 0 and 65)")
def case_header_structure_size(env):
    for hs in (0, 65):
        c = raw_conn(env)
        hdr = advlib.HDR.pack(b"\xfeSMB", hs, 0, 0, NEGOTIATE, 1, 0, 0, 0, 0,
                              0, 0, b"\0" * 16)
        c.send_frame(hdr + wire.negotiate_body([0x0210]))
        expect(c.is_dropped(), "header StructureSize %d not dropped" % hs)


@case("framing", "connection dropped for NetBIOS session types 0x81, 0x82, "
      "0x85 (Direct TCP has none)")
def case_netbios_types(env):
    for t in (0x81, 0x82, 0x85):
        c = raw_conn(env)
        c.send_raw(bytes([t, 0, 0, 0]))
        expect(c.is_dropped(), "type 0x%x not dropped" % t)


@case("framing", "answered: a NEGOTIATE sent one byte every 20 ms is "
      "still served")
def case_slow_sender(env):
    c = raw_conn(env)
    frame = advlib.HDR.pack(b"\xfeSMB", 64, 0, 0, NEGOTIATE, 1, 0, 0, 0,
                            0xFEFF, 0, 0, b"\0" * 16) + \
        wire.negotiate_body([0x0210, 0x0300])
    data = struct.pack(">I", len(frame)) + frame
    c.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for i in range(0, len(data), 2):
        c.send_raw(data[i:i + 2])
        time.sleep(0.02)
    r = advlib.Response(c.recv_frame())
    expect(r.status == 0, "status %s" % advlib.sname(r.status))


@case("framing", "connection cut by the negotiate deadline (half a header, "
      "then silence)")
def case_partial_header_idle(env):
    c = raw_conn(env)
    c.send_raw(b"\x00\x00")
    expect(c.is_dropped(wait=20), "half header held the connection 20 s")


@case("framing", "connection cut by the negotiate deadline (header "
      "promising 4000 bytes, 10 sent)")
def case_partial_body_idle(env):
    c = raw_conn(env)
    c.send_raw(struct.pack(">I", 4000) + b"\xfeSMB" + b"\0" * 6)
    expect(c.is_dropped(wait=20), "half body held the connection 20 s")


@case("framing", "fresh connection served after a client closed mid-frame "
      "and one reset mid-frame")
def case_close_mid_frame(env):
    for how in ("close", "rst"):
        c = env.client("negotiate")
        c.send_raw(struct.pack(">I", 300) + b"\xfeSMB" + b"\0" * 100)
        time.sleep(0.05)
        c.rst() if how == "rst" else c.close()
    expect(advlib.fresh_ok(env) is None, "fresh connection refused")


@case("framing", "connection dropped (SMB1 NEGOTIATE after an SMB2 "
      "NEGOTIATE, row 27)")
def case_smb1_after_smb2(env):
    c = env.client("negotiate")
    c.send_frame(wire.smb1_negotiate([b"NT LM 0.12", b"SMB 2.???"]))
    expect(c.is_dropped(), "not dropped")


@case("framing", "connection dropped (SMB1 command other than NEGOTIATE)")
def case_smb1_other_command(env):
    c = raw_conn(env)
    hdr = b"\xffSMB" + bytes([0x73]) + b"\0" * 4 + bytes([0x18]) + \
        struct.pack("<H", 0xc853) + b"\0" * 20
    c.send_frame(hdr + b"\0\0\0")
    expect(c.is_dropped(), "not dropped")


@case("framing", "connection dropped (SMB1 NEGOTIATE with a dialect string "
      "count running past the frame)")
def case_smb1_truncated_dialects(env):
    c = raw_conn(env)
    frame = bytearray(wire.smb1_negotiate([b"SMB 2.???"]))
    struct.pack_into("<H", frame, 33, 4000)
    c.send_frame(bytes(frame))
    expect(c.is_dropped(), "not dropped")


def transform(orig_size, inner=b""):
    # MS-SMB2 2.2.41: 52 bytes before the encrypted message.
    return b"\xfdSMB" + b"\0" * 16 + b"\x11" * 16 + \
        struct.pack("<IHHQ", orig_size, 0, 1, 0) + inner


@case("framing", "connection dropped for transform headers of 5..51 bytes "
      "(row 28)")
def case_transform_short(env):
    for n in (5, 20, 36, 51):
        c = env.client("negotiate")
        c.send_frame(transform(68)[:n])
        expect(c.is_dropped(), "%d-byte transform not dropped" % n)


@case("framing", "connection dropped: transform with OriginalMessageSize "
      "0xFFFFFFFF, and one wrapping a 10-byte QUERY_INFO (row 38)")
def case_transform_bad_sizes(env):
    c = env.client("negotiate")
    c.send_frame(transform(0xFFFFFFFF, b"\0" * 64))
    expect(c.is_dropped(), "huge OriginalMessageSize not dropped")
    c = env.client("negotiate")
    inner = advlib.HDR.pack(b"\xfeSMB", 64, 0, 0, advlib.QUERY_INFO, 1, 0,
                            0, 1, 0, 0, 0, b"\0" * 16) + b"\x29\x00" + b"\0" * 8
    c.send_frame(transform(len(inner), inner))
    expect(c.is_dropped(), "short wrapped QUERY_INFO not dropped")


@case("framing", "connection dropped for compression transform headers "
      "(short, and OriginalSize 0xFFFFFFFF)")
def case_compression_header(env):
    for frame in (b"\xfcSMB" + b"\0" * 4,
                  b"\xfcSMB" + struct.pack("<IHHI", 0xFFFFFFFF, 1, 0, 0) +
                  b"\0" * 32):
        c = env.client("negotiate")
        c.send_frame(frame)
        expect(c.is_dropped(), "compression frame not dropped")


@case("framing", "connection dropped: 1000 bytes of garbage after a "
      "valid NetBIOS header on a negotiated connection")
def case_garbage_frame(env):
    c = env.client("negotiate")
    c.send_frame(bytes((i * 37) & 0xff for i in range(1000)))
    expect(c.is_dropped(), "garbage frame not dropped")
