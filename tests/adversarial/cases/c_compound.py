# SPDX-License-Identifier: GPL-2.0-or-later
"""Compound requests: the NextCommand walk, and session/tree/file objects
torn down by one element while later elements use them (rows 1, 2, 8, 24,
25, 26, 60)."""

import struct

from advlib import ntlm
import advlib
from advlib import (expect, expect_status, sname, is_error, SUCCESS,
                    FILE_OPEN, FILE_OPEN_IF, INVALID_PARAMETER, NOT_IMPLEMENTED, FILE_CLOSED,
                    USER_SESSION_DELETED, NETWORK_NAME_DELETED,
                    INSUFFICIENT_RESOURCES, ECHO, LOGOFF, TREE_DISCONNECT,
                    TREE_CONNECT, SESSION_SETUP, CREATE, CLOSE, READ, WRITE,
                    QUERY_INFO, RELATED_FID, body_simple, body_create,
                    body_close, body_read, body_write, body_query_info,
                    body_tree_connect, body_session_setup, spnego_init)
from suite import case

E = body_simple()


def echo_elem(c, mid, nxt, flags=0):
    return c.header(ECHO, mid, next_cmd=nxt, flags=flags) + E


@case("compound", "connection dropped: NextCommand past the frame (row 1)")
def case_next_past_end(env):
    c = env.client("negotiate")
    c.send_frame(echo_elem(c, 1, 4096) + b"\0" * 4 + echo_elem(c, 2, 0))
    expect(c.is_dropped(), "not dropped")


@case("compound", "connection dropped: NextCommand not 8-aligned")
def case_next_unaligned(env):
    c = env.client("negotiate")
    c.send_frame(echo_elem(c, 1, 70) + b"\0" * 2 + echo_elem(c, 2, 0))
    expect(c.is_dropped(), "not dropped")


@case("compound", "connection dropped: NextCommand 0xFFFFFFF8 (wraps back "
      "to an earlier element) and 8 (inside the header)")
def case_next_loop(env):
    for nxt in (0xFFFFFFF8, 8, 0x80000000):
        c = env.client("negotiate")
        c.send_frame(echo_elem(c, 1, 72) + b"\0" * 4 +
                     echo_elem(c, 2, nxt, advlib.FLAG_RELATED) + b"\0" * 4 +
                     echo_elem(c, 3, 0, advlib.FLAG_RELATED))
        expect(c.is_dropped(), "NextCommand 0x%x not dropped" % nxt)


@case("compound", "two answers: NextCommand 0 in the middle ends the walk; "
      "the trailing element is the second's padding")
def case_next_zero_in_middle(env):
    c = env.client("negotiate")
    c.send_frame(echo_elem(c, 1, 72) + b"\0" * 4 +
                 echo_elem(c, 2, 0, advlib.FLAG_RELATED) + b"\0" * 4 +
                 echo_elem(c, 3, 0, advlib.FLAG_RELATED))
    parts = c.recv().parts
    expect([p.mid for p in parts] == [1, 2], "answered MessageIds %s" %
           [p.mid for p in parts])
    c.mid = 3
    expect(c.alive(), "connection unusable")


@case("compound", "element 1 SUCCESS, element 2 (a bare 64-byte header) "
      "INVALID_PARAMETER (CVE-2026-64578 shape)")
def case_last_element_header_only(env):
    c = env.client("negotiate")
    c.send_frame(echo_elem(c, 1, 72) + b"\0" * 4 +
                 c.header(ECHO, 2, flags=advlib.FLAG_RELATED))
    parts = c.recv().parts
    expect([p.status for p in parts] == [SUCCESS, INVALID_PARAMETER],
           "statuses %s" % [sname(p.status) for p in parts])


@case("compound", "ECHO then related CREATE/TREE_DISCONNECT: the inherited "
      "ids name no session, so both fail (row 25)")
def case_echo_first_then_session_commands(env):
    c = env.client("negotiate")
    parts = c.call_compound([(ECHO, E, {}),
                             (CREATE, body_create("adv_echo.txt"), {}),
                             (TREE_DISCONNECT, E, {})])
    expect(len(parts) == 3, "%d answers" % len(parts))
    expect_status(parts[0], SUCCESS, "ECHO")
    for p in parts[1:]:
        expect(is_error(p.status), "command %d succeeded without a session"
               % p.command)
    expect(c.alive(), "connection unusable")


@case("compound", "ECHO then SESSION_SETUP (row 26): the setup is answered "
      "MORE_PROCESSING_REQUIRED or an error, never a crash")
def case_echo_then_session_setup(env):
    c = env.client("negotiate")
    t1 = ntlm.negotiate()
    parts = c.call_compound([(ECHO, E, {}),
                             (SESSION_SETUP, body_session_setup(
                                 spnego_init(t1)), {})], related=False)
    expect_status(parts[0], SUCCESS, "ECHO")
    expect(parts[1].status in (advlib.MORE_PROCESSING_REQUIRED,
                               NOT_IMPLEMENTED) or is_error(parts[1].status),
           "SESSION_SETUP: %s" % sname(parts[1].status))
    expect(c.alive(), "connection unusable")


def position_case(ctl):
    """ctl at each position of a 3-element unrelated compound whose other
    elements use the session and tree it tears down."""
    def fn(env):
        env.need("tree")
        for pos in range(3):
            c = env.client("tree")
            items = []
            for i in range(3):
                if i == pos:
                    items.append((ctl, E if ctl != SESSION_SETUP else
                                  body_session_setup(spnego_init(b"NTLMSSP\0"
                                                     b"\x01\0\0\0")), {}))
                else:
                    items.append((TREE_CONNECT, body_tree_connect(
                        "\\\\%s\\%s" % (env.host, env.share)), {}))
            parts = c.call_compound(items, related=False)
            expect(len(parts) == 3, "pos %d: %d answers" % (pos, len(parts)))
            for i, p in enumerate(parts):
                if ctl == SESSION_SETUP and i == pos:
                    expect(is_error(p.status), "pos %d: a bare NTLMSSP "
                           "header re-authenticated: %s" %
                           (pos, sname(p.status)))
                elif ctl == SESSION_SETUP and i > pos:
                    # A failed re-authentication may or may not leave the
                    # session usable (MS-SMB2 3.3.5.5.3); never a crash.
                    expect_status(p, (SUCCESS, USER_SESSION_DELETED),
                                  "pos %d elem %d" % (pos, i))
                elif i < pos or ctl == ECHO:
                    expect_status(p, SUCCESS, "pos %d elem %d" % (pos, i))
                elif i == pos:
                    expect_status(p, SUCCESS, "pos %d: control command" % pos)
                elif ctl == LOGOFF:
                    expect_status(p, USER_SESSION_DELETED,
                                  "pos %d elem %d after LOGOFF" % (pos, i))
                else:
                    expect_status(p, SUCCESS, "pos %d elem %d: TREE_CONNECT "
                                  "after TREE_DISCONNECT" % (pos, i))
            if ctl == TREE_DISCONNECT:
                r = c.call(TREE_DISCONNECT, E)
                expect_status(r, NETWORK_NAME_DELETED,
                              "tree used after its disconnect")
            c.close()
    fn.__name__ = "case_compound_%s_each_position" % \
        advlib.CMD_NAMES[ctl]
    return fn


for _ctl, _exp in ((ECHO, "every element SUCCESS"),
                   (TREE_DISCONNECT, "SUCCESS; TREE_CONNECTs around it "
                    "SUCCESS; the tree is gone afterwards "
                    "(NETWORK_NAME_DELETED)"),
                   (LOGOFF, "SUCCESS; later elements USER_SESSION_DELETED "
                    "(rows 8, 60)"),
                   (SESSION_SETUP, "other elements SUCCESS; the setup "
                    "answers an error (row 26)")):
    case("compound", "%s at positions 1..3 of a 3-element compound: %s" %
         (advlib.CMD_NAMES[_ctl].upper(), _exp))(position_case(_ctl))


@case("compound", "TREE_DISCONNECT then related WRITE/CREATE on that tree "
      "(CVE-2022-47939, CVE-2026-23428): SUCCESS, then NETWORK_NAME_DELETED")
def case_tree_disconnect_then_write(env):
    env.need("file")
    c = env.client("file", name="adv_td.txt")
    parts = c.call_compound([(TREE_DISCONNECT, E, {}),
                             (WRITE, body_write(RELATED_FID, b"z" * 100), {}),
                             (CREATE, body_create("adv_td2.txt"), {})])
    expect_status(parts[0], SUCCESS, "TREE_DISCONNECT")
    for p in parts[1:]:
        expect_status(p, (NETWORK_NAME_DELETED, FILE_CLOSED,
                          INVALID_PARAMETER), "element after disconnect")
    r = c.call(WRITE, body_write(c.fid, b"q" * 10))
    expect_status(r, NETWORK_NAME_DELETED, "WRITE on the old tree")


@case("compound", "LOGOFF then related TREE_CONNECT and CREATE: "
      "USER_SESSION_DELETED for both (row 60)")
def case_logoff_then_related(env):
    env.need("tree")
    c = env.client("tree")
    parts = c.call_compound([(LOGOFF, E, {}),
                             (TREE_CONNECT, body_tree_connect(
                                 "\\\\%s\\%s" % (env.host, env.share)), {}),
                             (CREATE, body_create("adv_lo.txt"), {})])
    expect_status(parts[0], SUCCESS, "LOGOFF")
    for p in parts[1:]:
        expect_status(p, (USER_SESSION_DELETED, INVALID_PARAMETER),
                      "element %d after LOGOFF" % p.command)


@case("compound", "CREATE, CLOSE, READ related: READ on the closed id "
      "answers FILE_CLOSED")
def case_related_fid_closed_earlier(env):
    env.need("file")
    c = env.client("file", name="adv_rel.txt")
    parts = c.call_compound([
        (CREATE, body_create("adv_rel2.txt",
                             disposition=advlib.FILE_OVERWRITE_IF), {}),
        (CLOSE, body_close(RELATED_FID), {}),
        (READ, body_read(RELATED_FID, 16), {})])
    env.not_impl(c, parts[0], "CREATE")
    expect_status(parts[0], SUCCESS, "CREATE")
    expect_status(parts[1], SUCCESS, "CLOSE")
    expect_status(parts[2], (FILE_CLOSED, advlib.INVALID_HANDLE),
                  "READ on the closed id")


@case("compound", "READ of 60 KiB then QUERY_INFO(FileAllInformation) and "
      "32 more QUERY_INFOs: each answered, none past the buffer "
      "(INSUFFICIENT_RESOURCES or BUFFER_OVERFLOW allowed) (row 2, 60)")
def case_compound_response_room(env):
    env.need("file")
    c = env.client("file", name="adv_room.txt")
    r = c.call(WRITE, body_write(c.fid, b"r" * 61440))
    env.not_impl(c, r, "WRITE")
    items = [(READ, body_read(c.fid, 61440), {})]
    items += [(QUERY_INFO, body_query_info(c.fid, info_class=0x12,
                                           out_len=4096), {})] * 30
    parts = c.call_compound(items, related=False)
    expect(len(parts) == 31, "%d answers" % len(parts))
    for p in parts:
        expect(p.status in (SUCCESS, INSUFFICIENT_RESOURCES,
                            advlib.BUFFER_OVERFLOW, NOT_IMPLEMENTED),
               "command %d: %s" % (p.command, sname(p.status)))
    expect(c.alive(), "connection unusable")


@case("compound", "unrelated compound READ 60 KiB, QUERY_DIRECTORY 64 KiB, "
      "then QUERY_INFO security (64 KiB out) and FileAllInformation, ten "
      "each: every element answered, SUCCESS or a clean shortage status "
      "(INSUFFICIENT_RESOURCES, BUFFER_OVERFLOW, BUFFER_TOO_SMALL), never "
      "a write past the response (row 60: CVE-2026-31432/31433)")
def case_compound_response_room_mixed(env):
    env.need("file")
    c = env.client("file", name="adv_room2.txt")
    r = c.call(WRITE, body_write(c.fid, b"m" * 61440))
    env.not_impl(c, r, "WRITE")
    d = c.create("", disposition=advlib.FILE_OPEN,
                 options=advlib.OPT_DIRECTORY, access=0x00120089)
    expect_status(d, SUCCESS, "open the share root")
    items = [(READ, body_read(c.fid, 61440), {}),
             (advlib.QUERY_DIRECTORY,
              advlib.body_query_directory(d.fid, out_len=65536), {})]
    for _ in range(10):
        items.append((QUERY_INFO, body_query_info(
            c.fid, info_type=advlib.INFO_SECURITY, info_class=0,
            out_len=65536, add_info=0x7), {}))
        items.append((QUERY_INFO, body_query_info(c.fid, info_class=0x12,
                                                  out_len=65536), {}))
    parts = c.call_compound(items, related=False)
    expect(len(parts) == len(items), "%d answers to %d" % (len(parts), len(items)))
    for p in parts:
        expect(p.status in (SUCCESS, INSUFFICIENT_RESOURCES,
                            advlib.BUFFER_OVERFLOW, advlib.BUFFER_TOO_SMALL,
                            advlib.NO_MORE_FILES, NOT_IMPLEMENTED),
               "command %d: %s" % (p.command, sname(p.status)))
    expect(c.alive(), "connection unusable")


@case("compound", "WRITE whose Length runs past its element into the next "
      "(NextCommand shorter than DataOffset+Length, row 24): "
      "INVALID_PARAMETER; the next element still answered")
def case_write_length_past_element(env):
    c = env.client("file", name="adv_wnext.txt")
    fid = c.fid or advlib.NO_FID
    w = body_write(fid, b"w" * 16, length=16 + 72)
    parts = c.call_compound([(WRITE, w, {}), (ECHO, E, {})], related=False)
    expect(len(parts) == 2, "%d answers" % len(parts))
    expect_status(parts[0], INVALID_PARAMETER, "WRITE")
    expect_status(parts[1], SUCCESS, "ECHO")


@case("compound", "unrelated compound whose elements carry another "
      "session's id: USER_SESSION_DELETED for them, SUCCESS for its own")
def case_compound_foreign_session(env):
    env.need("tree")
    a = env.client("tree")
    b = env.client("tree")
    parts = b.call_compound([
        (TREE_CONNECT, body_tree_connect("\\\\%s\\%s" % (env.host,
                                                          env.share)), {}),
        (TREE_CONNECT, body_tree_connect("\\\\%s\\%s" % (env.host,
                                                          env.share)),
         {"sess": a.sess})], related=False)
    expect_status(parts[0], SUCCESS, "own session")
    expect_status(parts[1], (USER_SESSION_DELETED, advlib.ACCESS_DENIED),
                  "other connection's session")
    a.close()


def notify_body(fid, out_len=4096, tree=True, filt=0x3):
    """CHANGE_NOTIFY (MS-SMB2 2.2.35): WATCH_TREE, file and dir names."""
    return struct.pack("<HHI16sII", 32, 1 if tree else 0, out_len, fid,
                       filt, 0)


def statuses(parts):
    return [sname(p.status) for p in parts]


@case("compound", "first element RELATED (CREATE), then a related CLOSE "
      "and an unrelated CLOSE: INVALID_PARAMETER, INVALID_PARAMETER, "
      "FILE_CLOSED; every element answered (MS-SMB2 3.3.5.2.7.2)")
def case_first_element_related(env):
    env.need("tree")
    c = env.client("tree")
    parts = c.call_compound([
        (CREATE, body_create("adv_first_rel.txt"),
         {"flags": advlib.FLAG_RELATED}),
        (CLOSE, body_close(RELATED_FID),
         {"flags": advlib.FLAG_RELATED, "sess": 0xFFFFFFFFFFFFFFFF,
          "tree": 0xFFFFFFFF}),
        (CLOSE, body_close(RELATED_FID), {})], related=False)
    expect([p.status for p in parts] ==
           [INVALID_PARAMETER, INVALID_PARAMETER, FILE_CLOSED],
           "statuses %s" % statuses(parts))
    expect(c.alive(), "connection unusable")


@case("compound", "CREATE, an unrelated CLOSE naming an unknown session, "
      "then a related CLOSE: SUCCESS, USER_SESSION_DELETED, "
      "INVALID_PARAMETER (the related one inherits no session)")
def case_related_after_unknown_session(env):
    env.need("tree")
    c = env.client("tree")
    parts = c.call_compound([
        (CREATE, body_create("adv_rel_nosess.txt"), {}),
        (CLOSE, body_close(RELATED_FID), {"sess": 0xFFFFFFFFFFFFFFFF,
                                          "tree": 0xFFFFFFFF}),
        (CLOSE, body_close(RELATED_FID),
         {"flags": advlib.FLAG_RELATED, "sess": 0xFFFFFFFFFFFFFFFF,
          "tree": 0xFFFFFFFF})], related=False)
    expect([p.status for p in parts] ==
           [SUCCESS, USER_SESSION_DELETED, INVALID_PARAMETER],
           "statuses %s" % statuses(parts))
    expect(c.alive(), "connection unusable")


@case("compound", "CREATE, unrelated CLOSE of the compound FileId, then "
      "a related CLOSE of it: SUCCESS, FILE_CLOSED, FILE_CLOSED (an "
      "unrelated element ends the chain's FileId); the CREATE's handle "
      "is still open")
def case_unrelated_ends_chain_fid(env):
    env.need("tree")
    c = env.client("tree")
    parts = c.call_compound([
        (CREATE, body_create("adv_rel_reset.txt"), {}),
        (CLOSE, body_close(RELATED_FID), {}),
        (CLOSE, body_close(RELATED_FID),
         {"flags": advlib.FLAG_RELATED, "sess": 0xFFFFFFFFFFFFFFFF,
          "tree": 0xFFFFFFFF})], related=False)
    expect([p.status for p in parts] == [SUCCESS, FILE_CLOSED, FILE_CLOSED],
           "statuses %s" % statuses(parts))
    r = c.close_file(parts[0].body[64:80])
    expect_status(r, SUCCESS, "CLOSE of the CREATE's handle")


@case("compound", "CREATE of a directory, related CHANGE_NOTIFY, related "
      "QUERY_INFO: one answer in seconds, SUCCESS, INTERNAL_ERROR, SUCCESS "
      "(only the last element may go async)", timeout=30)
def case_notify_mid_compound(env):
    env.need("tree")
    c = env.client("tree")
    name = "adv_notify_mid"
    parts = c.call_compound([
        (CREATE, body_create(name, disposition=FILE_OPEN_IF,
                             options=advlib.OPT_DIRECTORY,
                             access=0x001F01FF, attrs=0x10), {}),
        (advlib.CHANGE_NOTIFY, notify_body(RELATED_FID), {}),
        (QUERY_INFO, body_query_info(RELATED_FID, info_class=0x04,
                                     out_len=4096), {})])
    expect([p.status for p in parts] == [SUCCESS, advlib.INTERNAL_ERROR,
                                         SUCCESS],
           "statuses %s" % statuses(parts))
    fid = parts[0].body[64:80]
    r = c.call(CLOSE, body_close(fid, flags=0))
    expect_status(r, SUCCESS, "CLOSE of the directory")
    # delete-on-close: leave nothing behind
    d = c.create(name, disposition=FILE_OPEN,
                 options=advlib.OPT_DIRECTORY | 0x1000, access=0x00010000)
    if d.status == SUCCESS:
        c.call(CLOSE, body_close(d.fid))
    expect(c.alive(), "connection unusable")
