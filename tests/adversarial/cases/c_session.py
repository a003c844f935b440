# SPDX-License-Identifier: GPL-2.0-or-later
"""SESSION_SETUP, LOGOFF, TREE_CONNECT and TREE_DISCONNECT with hostile
blobs and ids (rows 10, 15, 17, 20, 30, 33, 34, 50-54)."""
import struct
import threading
import time

import advlib
from advlib import (expect, expect_status, sname, is_error, SUCCESS,
                    MORE_PROCESSING_REQUIRED, LOGON_FAILURE,
                    INVALID_PARAMETER, USER_SESSION_DELETED,
                    NETWORK_NAME_DELETED, BAD_NETWORK_NAME, ACCESS_DENIED,
                    SESSION_SETUP, LOGOFF, TREE_CONNECT, TREE_DISCONNECT,
                    ECHO, body_simple, body_session_setup, body_tree_connect,
                    spnego_init, spnego_resp, spnego_token, der, OID_SPNEGO)
from suite import case

E = body_simple()


def first_leg(env, c, blob):
    """Send one SESSION_SETUP; skip when there is no handler yet."""
    r = c.call(SESSION_SETUP, body_session_setup(blob))
    env.not_impl(c, r, "SESSION_SETUP")
    return r


def refused(r, what):
    expect(is_error(r.status) and r.status != MORE_PROCESSING_REQUIRED,
           "%s: %s" % (what, sname(r.status)))


def login_still_works(env):
    c = env.client("session")
    expect(c.sess != 0, "no session id after a good login")
    c.close()


@case("session", "error (not MORE_PROCESSING_REQUIRED) for SPNEGO blobs "
      "with lengths past the blob, wrong OID, 300-deep nesting, a mechToken "
      "of length 2^32-1, and an empty blob (row 34)")
def case_spnego_malformed(env):
    t1 = b"NTLMSSP\0\x01\0\0\0" + struct.pack("<I", 0x62088215) + b"\0" * 16
    good = spnego_init(t1)
    nested = b"\x05\x00"
    for _ in range(300):
        nested = der(0x30, nested)
    huge_token = der(0x60, der(0x06, OID_SPNEGO) + der(
        0xA0, der(0x30, b"\xa2\x06\x04\x84\xff\xff\xff\xff")))
    blobs = {
        "outer length past blob": good[:1] + b"\x84\x00\x01\x00\x00" +
        good[2:],
        "inner length past blob": good[:-len(t1) - 2] + b"\x04\x7f" + t1,
        "wrong OID": der(0x60, der(0x06, b"\x2b\x06\x01\x05\x05\x99") +
                         good[10:]),
        "300-deep nesting": der(0x60, der(0x06, OID_SPNEGO) +
                                der(0xA0, nested)),
        "mechToken 2^32-1": huge_token,
        "truncated": good[:7],
    }
    for what, blob in blobs.items():
        c = env.client("negotiate")
        r = first_leg(env, c, blob)
        refused(r, what)
        expect(c.alive(), "%s: connection unusable" % what)
        c.close()
    login_still_works(env)


def auth_leg(env):
    """A connection after a good first leg: (client, type1, challenge)."""
    from impacket import ntlm
    c = env.client("negotiate")
    t1 = ntlm.getNTLMSSPType1("", "", signingRequired=False)
    r = first_leg(env, c, spnego_init(t1.getData()))
    expect_status(r, MORE_PROCESSING_REQUIRED, "first leg")
    c.sess = r.session
    off, ln = struct.unpack_from("<HH", r.body, 4)
    return c, t1, spnego_token(r.raw[off:off + ln])


def type3(env, t1, challenge, password=None, user=None):
    from impacket import ntlm
    t3, _ = ntlm.getNTLMSSPType3(t1, challenge,
                                 env.user if user is None else user,
                                 env.password if password is None
                                 else password, "")
    return bytearray(t3.getData())


# NTLMSSP AUTHENTICATE_MESSAGE field offsets (MS-NLMP 2.2.1.3)
F_LM, F_NT, F_DOMAIN, F_USER, F_WS, F_KEY = 12, 20, 28, 36, 44, 52


def set_field(blob, at, length, offset):
    struct.pack_into("<HHI", blob, at, length, length, offset)


def auth_case(what, mutate):
    def fn(env):
        c, t1, ch = auth_leg(env)
        blob = type3(env, t1, ch)
        mutate(blob)
        r = c.call(SESSION_SETUP, body_session_setup(spnego_resp(
            bytes(blob))))
        refused(r, what)
        expect(c.alive(), "connection unusable")
        login_still_works(env)
    fn.__name__ = "case_ntlm_auth_" + what.replace(" ", "_")
    return fn


def _user_outside(b):
    set_field(b, F_USER, 8, len(b) + 100)


def _user_huge(b):
    set_field(b, F_USER, 0xFFFE, struct.unpack_from("<I", b, F_USER + 4)[0])


def _key_long(b):
    # KEY_EXCH with a 200-byte EncryptedRandomSessionKey (CVE-2023-52440)
    off = len(b)
    b.extend(b"\x41" * 200)
    set_field(b, F_KEY, 200, off)
    flags = struct.unpack_from("<I", b, 60)[0] | 0x40000000
    struct.pack_into("<I", b, 60, flags)


def _nt_short(b):
    set_field(b, F_NT, 8, struct.unpack_from("<I", b, F_NT + 4)[0])


def _nt_wrap(b):
    set_field(b, F_NT, 0x40, 0xFFFFFFF0)


def _domain_in_header(b):
    set_field(b, F_DOMAIN, 16, 4)


for _what, _fn, _exp in (
        ("username outside", _user_outside, "UserName offset past the "
         "blob (row 20)"),
        ("username huge", _user_huge, "UserName length 0xFFFE"),
        ("session key long", _key_long, "EncryptedRandomSessionKey of 200 "
         "bytes with KEY_EXCH (row 30)"),
        ("nt response short", _nt_short, "NtChallengeResponse of 8 bytes"),
        ("nt response wraps", _nt_wrap, "NtChallengeResponse offset "
         "0xFFFFFFF0 (32-bit wrap)"),
        ("domain in header", _domain_in_header, "DomainName pointing into "
         "the message header")):
    case("session", "error, not SUCCESS, for an AUTHENTICATE message with "
         "%s; connection usable; a good login still works" % _exp)(
             auth_case(_what, _fn))


@case("session", "LOGON_FAILURE for a wrong password and an unknown user")
def case_wrong_password(env):
    for user, pw in ((env.user, "wrong-" + env.password),
                     ("nosuchuser", "x")):
        c, t1, ch = auth_leg(env)
        r = c.call(SESSION_SETUP, body_session_setup(spnego_resp(
            bytes(type3(env, t1, ch, password=pw, user=user)))))
        expect_status(r, LOGON_FAILURE, "user %s" % user)
        c.close()


@case("session", "USER_SESSION_DELETED (or another refusal) for a second "
      "leg naming a session id that does not exist")
def case_second_leg_unknown_session(env):
    c, t1, ch = auth_leg(env)
    real = c.sess
    c.sess = real ^ 0x5A5A0000
    r = c.call(SESSION_SETUP, body_session_setup(spnego_resp(
        bytes(type3(env, t1, ch)))))
    refused(r, "bogus session id")


@case("session", "another connection's session id is refused: "
      "TREE_CONNECT USER_SESSION_DELETED, binding SESSION_SETUP an error; "
      "the owner keeps working (rows 16, 33, 51, 52)")
def case_session_of_other_connection(env):
    env.need("session")
    a = env.client("session")
    b = env.client("negotiate")
    r = b.call(TREE_CONNECT, body_tree_connect("\\\\%s\\%s" % (env.host,
                                                               env.share)),
               sess=a.sess, sign=False)
    expect_status(r, (USER_SESSION_DELETED, ACCESS_DENIED),
                  "TREE_CONNECT with a foreign session")
    from impacket import ntlm
    t1 = ntlm.getNTLMSSPType1("", "", signingRequired=False)
    r = b.call(SESSION_SETUP, body_session_setup(spnego_init(t1.getData()),
                                                 flags=1), sess=a.sess)
    refused(r, "binding SESSION_SETUP without multichannel")
    expect(a.alive(), "owner's connection unusable")
    if env.has("tree"):
        expect_status(a.tree_connect(), SUCCESS, "owner's TREE_CONNECT")


@case("session", "NETWORK_NAME_DELETED: a tree id of session 1 used by "
      "session 2 on the same connection")
def case_tree_of_other_session(env):
    env.need("tree")
    c = env.client("tree")
    tree1 = c.tree
    c.sess, c.key = 0, None
    r = c.login()
    expect_status(r, SUCCESS, "second login")
    r = c.call(TREE_DISCONNECT, E, tree=tree1)
    expect_status(r, NETWORK_NAME_DELETED, "foreign tree id")


@case("session", "LOGOFF SUCCESS, a second LOGOFF and a TREE_CONNECT on "
      "the logged-off session USER_SESSION_DELETED")
def case_logoff_twice(env):
    env.need("session")
    c = env.client("session")
    expect_status(c.call(LOGOFF, E), SUCCESS, "LOGOFF")
    expect_status(c.call(LOGOFF, E, sign=False), USER_SESSION_DELETED,
                  "second LOGOFF")
    r = c.call(TREE_CONNECT, body_tree_connect("\\\\%s\\%s" % (
        env.host, env.share)), sign=False)
    expect_status(r, USER_SESSION_DELETED, "TREE_CONNECT after LOGOFF")


@case("session", "ACCESS_DENIED (or drop) for a signed request whose "
      "signature is wrong, alone and first in a compound; answered within "
      "10 s (CVE-2026-23220)")
def case_bad_signature(env):
    env.need("session")
    c = env.client("session")
    el = bytearray(c.element(TREE_CONNECT, body_tree_connect(
        "\\\\%s\\%s" % (env.host, env.share))))
    el[50] ^= 0xFF
    c.send_frame(bytes(el))
    try:
        r = c.recv()
        expect_status(r, ACCESS_DENIED, "bad signature")
    except advlib.Dropped:
        return
    items = [(TREE_CONNECT, body_tree_connect("\\\\%s\\%s" % (
        env.host, env.share)), {}), (ECHO, E, {})]
    frame = bytearray(c.compound(items, related=False))
    frame[52] ^= 0xFF
    c.send_frame(bytes(frame))
    try:
        parts = c.recv().parts
        expect_status(parts[0], ACCESS_DENIED, "bad signature in compound")
    except advlib.Dropped:
        pass


@case("session", "BAD_NETWORK_NAME for an unknown share, a path with "
      "'..', an empty share name; NETWORK_NAME_DELETED for a second "
      "TREE_DISCONNECT")
def case_tree_connect_bad_paths(env):
    c = env.client("session")
    env.need("session")
    for path in ("\\\\%s\\nosuchshare" % env.host,
                 "\\\\%s\\share\\..\\etc" % env.host,
                 "\\\\%s\\" % env.host, "\\\\%s\\..\\.." % env.host):
        r = c.call(TREE_CONNECT, body_tree_connect(path), tree=0)
        env.not_impl(c, r, "TREE_CONNECT")
        expect_status(r, (BAD_NETWORK_NAME, INVALID_PARAMETER,
                          advlib.BAD_NETWORK_PATH), path)
    env.need("tree")
    expect_status(c.tree_connect(), SUCCESS, "good TREE_CONNECT")
    expect_status(c.call(TREE_DISCONNECT, E), SUCCESS, "TREE_DISCONNECT")
    expect_status(c.call(TREE_DISCONNECT, E), NETWORK_NAME_DELETED,
                  "second TREE_DISCONNECT")


@case("session", "200 first legs over 20 connections, then all closed "
      "without finishing (rows 15, 54): every one answered "
      "MORE_PROCESSING_REQUIRED or refused; sessions back to 0 (group "
      "check)", timeout=120)
def case_session_setup_flood(env):
    from impacket import ntlm
    t1 = spnego_init(ntlm.getNTLMSSPType1("", "", False).getData())
    conns = [env.client("negotiate") for _ in range(20)]
    r = first_leg(env, conns[0], t1)
    for c in conns:
        frames = b"".join(struct.pack(">I", 64 + len(body_session_setup(t1))) +
                          c.element(SESSION_SETUP, body_session_setup(t1),
                                    sess=0) for _ in range(10))
        c.send_raw(frames)
    for c in conns:
        for _ in range(10):
            r = c.recv()
            expect(r.status == MORE_PROCESSING_REQUIRED or is_error(r.status),
                   "first leg: %s" % sname(r.status))
    for c in conns:
        c.rst()


@case("session", "8 threads logging in and off concurrently for a bounded "
      "time (row 17): every login SUCCESS, no hang", timeout=120)
def case_concurrent_logins(env):
    env.need("session")
    errors = []
    end = time.monotonic() + min(env.race_seconds, 10)

    def worker():
        while time.monotonic() < end and not errors:
            try:
                c = env.client("session")
                c.call(LOGOFF, E)
                c.close()
            except Exception as e:
                errors.append("%s: %s" % (type(e).__name__, e))
    ts = [threading.Thread(target=worker) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    expect(not any(t.is_alive() for t in ts), "a login hung")
    expect(not errors, errors[0] if errors else "")


@case("session", "30 first legs pipelined on one connection, then 30 "
      "garbage second legs pipelined on the resulting session (rows 41, "
      "54): all answered, no crash", timeout=90)
def case_pipelined_session_setups(env):
    from impacket import ntlm
    c = env.client("negotiate")
    t1 = spnego_init(ntlm.getNTLMSSPType1("", "", False).getData())
    r = first_leg(env, c, t1)
    sess = r.session
    body = body_session_setup(t1)
    c.send_raw(b"".join(struct.pack(">I", 64 + len(body)) +
                        c.element(SESSION_SETUP, body, sess=0)
                        for _ in range(30)))
    for _ in range(30):
        c.recv()
    bad = body_session_setup(spnego_resp(b"NTLMSSP\0\x03\0\0\0" +
                                         b"\0" * 56))
    c.send_raw(b"".join(struct.pack(">I", 64 + len(bad)) +
                        c.element(SESSION_SETUP, bad, sess=sess)
                        for _ in range(30)))
    for _ in range(30):
        r = c.recv()
        expect(r.status != SUCCESS, "garbage AUTHENTICATE succeeded")
    expect(c.alive(), "connection unusable")
