#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""SMB 3.x encryption (AES-128/256, CCM/GCM) and AES-GMAC signing against
the server, with tests/smb2's CryptConn.

Keys are derived by tests/smb2 from the specification (SP800-108 KDF over the
session key, with the 3.1.1 preauth hash), the TRANSFORM_HEADER is built
and the AEAD run with Cryptodome, so a request the server answers proves
it decrypted with the same key and nonce layout, and a response we can
decrypt proves its encryption. Hostile transform headers must make the
server drop the connection and nothing else.

CLI: smb2crypt.py [--host H] [--port P] [--prefix NAME] [--user U]
                  [--password PW] [--secure-share NAME]
                  [--sealed-share NAME] [CASE ...]
Cases that need a server configuration (global_required, global_desired)
are only run when named.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import (AuthConn, CryptConn, Session, sign,  # noqa: E402
                         signature_ok, ECHO_BODY, CAP_ENCRYPTION,
                         SESSION_FLAG_ENCRYPT_DATA, SHAREFLAG_ENCRYPT_DATA)
from smb2.client import tree_connect_body as tcon_body  # noqa: E402
from smb2.client import (read_body, rename_info, set_info_body,  # noqa: E402
                         write_body)
from smb2.create import *  # noqa: E402,F401,F403
from smb2.crypto import (AES128_CCM, AES128_GCM, AES256_CCM,  # noqa: E402
                         AES256_GCM)
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

CASES, case = case_registry()


def logged_on(env, **kw):
    c = CryptConn(env, **kw)
    st, sess, _ = c.login(env.user, env.password)
    expect_eq(st, STATUS_SUCCESS, "session setup")
    return c, sess


def check_cipher(env, dialect, cipher):
    c, sess = logged_on(env, dialect=dialect, ciphers=(cipher,))
    expect_eq(c.cipher, cipher, "negotiated cipher")
    r = c.ecall(sess, TREE_CONNECT, tcon_body("share"))
    expect_eq(r.status, STATUS_SUCCESS, "encrypted tree connect")
    expect(not r.flags & FLAG_SIGNED, "encrypted response also signed")
    tid = r.tree
    r = c.ecall(sess, ECHO, ECHO_BODY)
    expect_eq(r.status, STATUS_SUCCESS, "encrypted echo")
    r = c.ecall(sess, TREE_DISCONNECT, ECHO_BODY, tree=tid)
    expect_eq(r.status, STATUS_SUCCESS, "encrypted tree disconnect")
    c.close()


@case
def case_smb311_aes128_gcm(env):
    check_cipher(env, 0x0311, AES128_GCM)


@case
def case_smb311_aes128_ccm(env):
    check_cipher(env, 0x0311, AES128_CCM)


@case
def case_smb311_aes256_gcm(env):
    check_cipher(env, 0x0311, AES256_GCM)


@case
def case_smb311_aes256_ccm(env):
    check_cipher(env, 0x0311, AES256_CCM)


@case
def case_smb300_ccm(env):
    check_cipher(env, 0x0300, AES128_CCM)


@case
def case_smb302_ccm(env):
    check_cipher(env, 0x0302, AES128_CCM)


@case
def case_server_preference(env):
    c = CryptConn(env, ciphers=(AES256_CCM, AES256_GCM, AES128_CCM,
                                AES128_GCM))
    expect_eq(c.cipher, AES128_GCM, "server's first choice")
    c.close()
    c = CryptConn(env, ciphers=(AES256_CCM, AES256_GCM))
    expect_eq(c.cipher, AES256_GCM, "GCM before CCM")
    c.close()
    c = CryptConn(env, ciphers=(7, 9))
    expect_eq(c.cipher, 0, "no common cipher answered with 0")
    c.close()


@case
def case_no_encryption_311_no_cap(env):
    c = CryptConn(env, ciphers=None)
    expect(CTX_ENCRYPTION not in c.neg["contexts"],
           "encryption context answered unasked")
    expect_eq(c.neg["capabilities"] & CAP_ENCRYPTION, 0, "3.1.1 capability")
    c.close()
    c = CryptConn(env, dialect=0x0300, ciphers=())
    expect_eq(c.cipher, 0, "3.0 without the client's capability")
    c.close()


@case
def case_encrypted_compound(env):
    c, sess = logged_on(env)
    rs = c.ecompound(sess, [
        (TREE_CONNECT, tcon_body("share"), 0, 0),
        (ECHO, ECHO_BODY, 0xFFFFFFFF, FLAG_RELATED),
        (TREE_DISCONNECT, ECHO_BODY, 0xFFFFFFFF, FLAG_RELATED),
    ])
    expect_eq(len(rs), 3, "responses in one transform")
    expect_eq([r.status for r in rs], [STATUS_SUCCESS] * 3, "statuses")
    c.close()


class Sealed:
    """Encrypted requests on one tree, several sent at once; responses
    kept by MessageId (compounds split)."""

    def __init__(self, env):
        self.c, self.sess = logged_on(env)
        r = self.c.ecall(self.sess, TREE_CONNECT, tcon_body("share"))
        expect_eq(r.status, STATUS_SUCCESS, "encrypted tree connect")
        self.tid, self.got = r.tree, {}

    def msg(self, cmd, body, flags=0):
        """(MessageId, message)."""
        mid = self.c.mid
        return mid, self.c.build(cmd, body, session=self.sess.id,
                                 tree=self.tid, flags=flags)

    def send(self, *frames):
        """Each item a message or a list of them (one compound), every
        frame in its own transform, all in one write."""
        out = b""
        for f in frames:
            m = compound_frame(f) if isinstance(f, list) else f
            out += frame(self.c.wrap(self.sess, m))
        self.c.send_raw(out)

    def answer(self, mid):
        while mid not in self.got:
            raw = self.c.unwrap(self.sess, self.c.recv_frame())
            for r in split_compound(raw):
                if r.status != STATUS_PENDING:
                    self.got[r.mid] = r
        return self.got.pop(mid)

    def call(self, cmd, body):
        mid, m = self.msg(cmd, body)
        self.send(m)
        return self.answer(mid)


ORDER_ROUNDS = 10


def close_body(fid):
    return struct.pack("<HHI16s", 24, 0, 0, fid_bytes(fid))


@case
def case_order_sealed(env):
    """Encrypted frames keep their connection's order (their commands are
    read only once decrypted, by their work): pipelined READs, then a
    compound that truncates and renames the file, then a READ of the new
    name and an open of the old one, all sent in one write. The READs
    before the compound see the data, what comes after it sees the
    compound done."""
    s = Sealed(env)
    data = bytes(range(256)) * 16
    for i in range(ORDER_ROUNDS):
        old, new = "ord-seal-%d.txt" % i, "ord-seal-%d.new" % i
        for name in (old, new):
            r = s.call(CREATE, create_body(name, access=DELETE, disp=OPEN,
                                           options=DELETE_ON_CLOSE))
            if r.status == 0:
                s.call(CLOSE, close_body(Created(r).fid))
        r = s.call(CREATE, create_body(old, access=GENERIC_READ |
                                       GENERIC_WRITE | DELETE,
                                       disp=OVERWRITE_IF))
        expect_status(r, "SUCCESS", "create")
        fid = Created(r).fid
        expect_status(s.call(WRITE, write_body(fid, data)), "SUCCESS",
                      "write")
        reads = [s.msg(READ, read_body(fid, len(data))) for _ in range(4)]
        eof = struct.pack("<Q", 0)
        m_eof, e1 = s.msg(SET_INFO, set_info_body(fid, 1, 20, eof))
        m_ren, e2 = s.msg(SET_INFO, set_info_body(fid, 1, 10,
                                                  rename_info(new, True)))
        m_after, after = s.msg(READ, read_body(fid, len(data)))
        m_old, old_open = s.msg(CREATE, create_body(old, disp=OPEN))
        s.send(*[m for _, m in reads], [e1, e2], after, old_open)
        for mid, _ in reads:
            r = s.answer(mid)
            expect_status(r, "SUCCESS", "round %d: READ sent before the "
                          "truncate" % i)
        expect_status(s.answer(m_eof), "SUCCESS", "truncate")
        expect_status(s.answer(m_ren), "SUCCESS", "rename")
        expect_status(s.answer(m_after), "END_OF_FILE", "round %d: READ "
                      "sent after the truncate" % i)
        expect_status(s.answer(m_old), "OBJECT_NAME_NOT_FOUND", "round %d: "
                      "open of the name renamed before it" % i)
        s.call(CLOSE, close_body(fid))
    s.c.close()


@case
def case_unencrypted_still_allowed(env):
    """Without "smb3 encryption = required", a session with a cipher may
    still send plain (signed) requests; the answer is plain too."""
    c, sess = logged_on(env)
    expect_eq(sess.flags & SESSION_FLAG_ENCRYPT_DATA, 0,
              "EncryptData without the server asking")
    r = c.echo(sess, signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "plain signed echo")
    expect(signature_ok(sess, r.raw), "echo signature")
    c.close()


def hostile(env, mutate, what):
    c, sess = logged_on(env)
    frame = bytearray(c.wrap(sess, c.build(ECHO, ECHO_BODY,
                                           session=sess.id)))
    frame = mutate(frame, c, sess)
    c.send_frame(bytes(frame))
    expect(c.is_dropped(), "%s: connection not dropped" % what)
    # The server itself is fine.
    d, s2 = logged_on(env)
    expect_eq(d.ecall(s2, ECHO, ECHO_BODY).status, STATUS_SUCCESS,
              "echo on a fresh connection")
    d.close()


def flip(at):
    def m(f, c, s):
        f[at] ^= 0x01
        return f
    return m


@case
def case_hostile_tampered_tag(env):
    hostile(env, flip(4), "tag")


@case
def case_hostile_tampered_ciphertext(env):
    hostile(env, flip(60), "ciphertext")


@case
def case_hostile_tampered_nonce(env):
    hostile(env, flip(21), "nonce (associated data)")


def set_u32(at, v):
    def m(f, c, s):
        struct.pack_into("<I", f, at, v)
        return f
    return m


@case
def case_hostile_size_larger(env):
    hostile(env, lambda f, c, s: set_u32(36, len(f) - 52 + 8)(f, c, s),
            "OriginalMessageSize past the frame")


@case
def case_hostile_size_smaller(env):
    hostile(env, lambda f, c, s: set_u32(36, len(f) - 52 - 8)(f, c, s),
            "OriginalMessageSize short of the frame")


@case
def case_hostile_size_huge(env):
    hostile(env, set_u32(36, 0xFFFFFFF0), "OriginalMessageSize 4 GiB")


@case
def case_hostile_flags(env):
    def m(f, c, s):
        struct.pack_into("<H", f, 42, 2)
        return f
    hostile(env, m, "Flags 2")


@case
def case_hostile_unknown_session(env):
    def m(f, c, s):
        return bytearray(c.wrap(s, c.build(ECHO, ECHO_BODY, session=s.id),
                                session_id=s.id ^ 0x5A5A))
    hostile(env, m, "unknown SessionId")


@case
def case_hostile_truncated(env):
    hostile(env, lambda f, c, s: f[:52], "header only")


@case
def case_hostile_short_body(env):
    def m(f, c, s):
        g = bytearray(f[:52 + 20])
        struct.pack_into("<I", g, 36, 20)
        return g
    hostile(env, m, "20-byte message")


@case
def case_hostile_before_session(env):
    c = CryptConn(env)
    s = Session()
    s.id = 1
    s.key = b"\0" * 16
    s.preauth = b"\0" * 64
    c.send_frame(c.wrap(s, c.build(ECHO, ECHO_BODY, session=1)))
    expect(c.is_dropped(), "transform before any session not dropped")


@case
def case_hostile_no_cipher(env):
    c, sess = logged_on(env, ciphers=None)
    c.cipher = AES128_GCM
    c.send_frame(c.wrap(sess, c.build(ECHO, ECHO_BODY, session=sess.id)))
    expect(c.is_dropped(), "transform without a negotiated cipher")


@case
def case_hostile_nested_transform(env):
    c, sess = logged_on(env)
    inner = c.wrap(sess, c.build(ECHO, ECHO_BODY, session=sess.id))
    c.send_frame(c.wrap(sess, inner))
    expect(c.is_dropped(), "transform inside a transform not dropped")


# ---- AES-GMAC signing ---------------------------------------------------

def check_signing(env, offer, want):
    c, sess = logged_on(env, signing=offer)
    expect_eq(c.signing_alg, want, "negotiated signing algorithm")
    r = c.echo(sess, signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "signed echo")
    expect(r.flags & FLAG_SIGNED, "response not signed")
    expect(signature_ok(sess, r.raw), "response signature")
    return c, sess


@case
def case_gmac_signing(env):
    c, sess = check_signing(env, (2, 1, 0), "gmac")
    msg = bytearray(sign(sess, c.build(ECHO, ECHO_BODY,
                                                session=sess.id)))
    msg[52] ^= 0x80
    c.send_frame(bytes(msg))
    expect_eq(Response(c.recv_frame()).status, STATUS_ACCESS_DENIED,
              "bad GMAC signature")
    # The nonce is the MessageId: a signature made for another id fails.
    good = bytearray(sign(sess, c.build(ECHO, ECHO_BODY,
                                                 session=sess.id)))
    struct.pack_into("<Q", good, 24, struct.unpack_from("<Q", good, 24)[0] + 1)
    c.mid += 1
    c.send_frame(bytes(good))
    expect_eq(Response(c.recv_frame()).status, STATUS_ACCESS_DENIED,
              "GMAC over another MessageId")
    r = c.tree_connect(sess, "share", signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "signed tree connect")
    expect(signature_ok(sess, r.raw), "tree connect signature")
    c.close()


@case
def case_gmac_preferred_over_cmac(env):
    check_signing(env, (0, 1, 2), "gmac")[0].close()


@case
def case_cmac_when_offered(env):
    check_signing(env, (1, 0), "cmac")[0].close()


@case
def case_hmac_when_only_offer(env):
    check_signing(env, (0,), "hmac")[0].close()


# ---- "smb3 encryption = required" ----------------------------------------

@case
def case_share_required(env):
    share = env.secure_share
    c, sess = logged_on(env)
    r = c.tree_connect(sess, share, signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "tree connect to %s" % share)
    (_, _, _, sflags, _, _) = struct.unpack_from("<HBBIII", r.body, 0)
    expect(sflags & SHAREFLAG_ENCRYPT_DATA, "ShareFlags 0x%x" % sflags)
    tid = r.tree
    r = c.call(TREE_DISCONNECT, ECHO_BODY, sess, tree=tid, signed=True)
    expect_eq(r.status, STATUS_ACCESS_DENIED, "unencrypted request on it")
    r = c.ecall(sess, TREE_DISCONNECT, ECHO_BODY, tree=tid)
    expect_eq(r.status, STATUS_SUCCESS, "encrypted request on it")
    # Other shares of the same session take plain requests.
    r = c.tree_connect(sess, "share", signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "plain share")
    c.close()
    # A client without a cipher cannot connect to it at all.
    c, sess = logged_on(env, ciphers=None)
    r = c.tree_connect(sess, share, signed=True)
    expect_eq(r.status, STATUS_ACCESS_DENIED, "no cipher, required share")
    c.close()
    c = AuthConn(env.host, env.port, 0x0210)
    st, sess, _ = c.login(env.user, env.password)
    expect_eq(st, STATUS_SUCCESS, "2.1 session setup")
    r = c.tree_connect(sess, share, signed=True)
    expect_eq(r.status, STATUS_ACCESS_DENIED, "2.1, required share")
    c.close()


# ---- server-initiated messages of encrypting sessions ---------------------

F_FILE_NAME = 0x1


def erecv(c, sess, what, wait=15):
    """The next frame, which must be a transform; its decrypted message."""
    c.sock.settimeout(wait)
    try:
        frame = c.recv_frame()
    finally:
        c.sock.settimeout(30)
    expect_eq(frame[:4], b"\xfdSMB", what + ": protocol id (not encrypted)")
    return Response(c.unwrap(sess, frame))


def ecreate_body(name, level, disp):
    return create_body(name, disp=disp, oplock=level)


def check_encrypted_break(env, share):
    """A holds a batch oplock on an encrypted tree; B's open makes the
    server break it: the notification (MS-SMB2 3.3.4.6) comes in a
    transform header with A's session. Then an async request: B's
    CHANGE_NOTIFY, whose interim and final answers (completed by A's
    create) must both be encrypted like the request."""
    name = "crypt-break.txt"
    a, sa = logged_on(env)
    ta = a.ecall(sa, TREE_CONNECT, tcon_body(share))
    expect_eq(ta.status, STATUS_SUCCESS, "A's tree connect to %s" % share)
    r = a.ecall(sa, CREATE,
                ecreate_body(name, LEVEL_BATCH, OVERWRITE_IF),
                tree=ta.tree)
    expect_eq(r.status, STATUS_SUCCESS, "A's create")
    expect_eq(r.body[2], LEVEL_BATCH, "A's oplock level")
    fid = Created(r).fid
    b, sb = logged_on(env)
    tb = b.ecall(sb, TREE_CONNECT, tcon_body(share))
    expect_eq(tb.status, STATUS_SUCCESS, "B's tree connect")
    msg = b.build(CREATE,
                  ecreate_body(name, LEVEL_BATCH, OPEN),
                  session=sb.id, tree=tb.tree)
    b.send_frame(b.wrap(sb, msg))
    n = erecv(a, sa, "oplock break")
    expect_eq(n.command, OPLOCK_BREAK, "notification command")
    expect_eq(n.mid, NOTIFY_MID, "notification MessageId")
    level, pid, vid = struct.unpack_from("<B5xQQ", n.body, 2)
    expect_eq(level, LEVEL_II, "break to level")
    expect_eq((pid, vid), fid, "notification FileId")
    ack = struct.pack("<HBBIQQ", 24, LEVEL_II, 0, 0, *fid)
    r = a.ecall(sa, OPLOCK_BREAK, ack, tree=ta.tree)
    expect_eq(r.status, STATUS_SUCCESS, "encrypted acknowledgement")
    rb = erecv(b, sb, "B's create answer")
    if rb.status == STATUS_PENDING:
        rb = erecv(b, sb, "B's final create answer")
    expect_eq(rb.status, STATUS_SUCCESS, "B's create")
    expect_eq(rb.body[2], LEVEL_II, "B's oplock level")
    fb = Created(rb).fid

    # B watches the share root (encrypted); A's create completes it.
    r = b.ecall(sb, CREATE, create_body(
        "", access=GENERIC_READ, disp=OPEN,
        options=DIRECTORY_FILE), tree=tb.tree)
    expect_eq(r.status, STATUS_SUCCESS, "B's directory open")
    fd = Created(r).fid
    msg = b.build(CHANGE_NOTIFY, struct.pack("<HHIQQII", 32, 0, 4096, *fd,
                                             F_FILE_NAME, 0),
                  session=sb.id, tree=tb.tree)
    b.send_frame(b.wrap(sb, msg))
    r = erecv(b, sb, "notify interim")
    expect_eq(r.status, STATUS_PENDING, "notify interim status")
    added = "crypt-notify-%s.txt" % os.urandom(4).hex()
    r = a.ecall(sa, CREATE, ecreate_body(added, 0,
                                                   OPEN_IF),
                tree=ta.tree)
    expect_eq(r.status, STATUS_SUCCESS, "A's create in the watched root")
    fa = Created(r).fid
    r = erecv(b, sb, "notify final answer")
    expect_eq(r.command, CHANGE_NOTIFY, "final answer command")
    expect(r.status in (STATUS_SUCCESS, STATUS_NOTIFY_ENUM_DIR),
           "notify final status 0x%x" % r.status)
    for c, s, t, f in ((b, sb, tb.tree, fd), (a, sa, ta.tree, fa),
                       (b, sb, tb.tree, fb), (a, sa, ta.tree, fid)):
        r = c.ecall(s, CLOSE, struct.pack("<HHIQQ", 24, 0, 0, *f),
                    tree=t)
        expect_eq(r.status, STATUS_SUCCESS, "close")
    a.close()
    b.close()


@case
def case_oplock_break_encrypted_share(env):
    """Share-level encryption: the session has no EncryptData."""
    check_encrypted_break(env, env.secure_share)


def elease_body(name, key, state, disp):
    return create_body(name, disp=disp, ctxs=lease_ctx(key, state),
                       oplock=LEVEL_LEASE)


@case
def case_lease_break_routed_encrypted(env):
    """A lease is its client's (ClientGuid): its break goes to the client's
    oldest connection carrying a session of the lease's user, and it goes
    out encrypted with that session's key (MS-SMB2 3.3.4.7, 3.3.4.1.4),
    never in the clear because the lease was opened on another session
    of another connection."""
    name = "crypt-lease-route.txt"
    g = os.urandom(16)
    a1, s1 = logged_on(env, guid=g)
    t1 = a1.ecall(s1, TREE_CONNECT, tcon_body(env.secure_share))
    expect_eq(t1.status, STATUS_SUCCESS, "first connection's tree connect")
    a2, s2 = logged_on(env, guid=g)
    t2 = a2.ecall(s2, TREE_CONNECT, tcon_body(env.secure_share))
    expect_eq(t2.status, STATUS_SUCCESS, "second connection's tree connect")
    key = os.urandom(16)
    r = a2.ecall(s2, CREATE,
                 elease_body(name, key, 7, OVERWRITE_IF),
                 tree=t2.tree)
    expect_eq(r.status, STATUS_SUCCESS, "lease open on the second")
    fid = Created(r).fid
    b, sb = logged_on(env)
    tb = b.ecall(sb, TREE_CONNECT, tcon_body(env.secure_share))
    expect_eq(tb.status, STATUS_SUCCESS, "breaker's tree connect")
    msg = b.build(CREATE, ecreate_body(name, 0, OPEN),
                  session=sb.id, tree=tb.tree)
    b.send_frame(b.wrap(sb, msg))
    n = erecv(a1, s1, "lease break on the client's first connection")
    expect_eq(n.command, OPLOCK_BREAK, "notification command")
    expect_eq(n.body[8:24], key, "notification lease key")
    ack = struct.pack("<HHI16sIQ", 36, 0, 0, key, 3, 0)
    r = a1.ecall(s1, OPLOCK_BREAK, ack, tree=t1.tree)
    expect_eq(r.status, STATUS_SUCCESS, "encrypted lease acknowledgement")
    rb = erecv(b, sb, "breaker's create answer")
    if rb.status == STATUS_PENDING:
        rb = erecv(b, sb, "breaker's final create answer")
    expect_eq(rb.status, STATUS_SUCCESS, "breaker's create")
    for c, s, t, f in ((b, sb, tb.tree, Created(rb).fid),
                       (a2, s2, t2.tree, fid)):
        r = c.ecall(s, CLOSE, struct.pack("<HHIQQ", 24, 0, 0, *f),
                    tree=t)
        expect_eq(r.status, STATUS_SUCCESS, "close")
    for c in (a1, a2, b):
        c.close()


@case
def case_share_desired(env):
    c, sess = logged_on(env)
    r = c.tree_connect(sess, env.sealed_share, signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "tree connect to %s" % env.sealed_share)
    (_, _, _, sflags, _, _) = struct.unpack_from("<HBBIII", r.body, 0)
    expect(sflags & SHAREFLAG_ENCRYPT_DATA, "ShareFlags 0x%x" % sflags)
    r = c.call(TREE_DISCONNECT, ECHO_BODY, sess, tree=r.tree, signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "unencrypted request still accepted")
    c.close()
    c, sess = logged_on(env, ciphers=None)
    r = c.tree_connect(sess, env.sealed_share, signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "no cipher, desired share")
    (_, _, _, sflags, _, _) = struct.unpack_from("<HBBIII", r.body, 0)
    expect_eq(sflags & SHAREFLAG_ENCRYPT_DATA, 0, "ENCRYPT_DATA without a cipher")
    c.close()


@case
def case_global_required(env):
    c = CryptConn(env, ciphers=None)
    st, _, _ = c.login(env.user, env.password)
    expect_eq(st, STATUS_ACCESS_DENIED, "session setup without a cipher")
    c.close()
    c, sess = logged_on(env)
    expect(sess.flags & SESSION_FLAG_ENCRYPT_DATA, "SessionFlags ENCRYPT_DATA")
    r = c.tree_connect(sess, "share", signed=True)
    expect_eq(r.status, STATUS_ACCESS_DENIED, "unencrypted tree connect")
    r = c.ecall(sess, TREE_CONNECT, tcon_body("share"))
    expect_eq(r.status, STATUS_SUCCESS, "encrypted tree connect")
    c.close()
    # Session.EncryptData: breaks on a share without encryption of its own.
    check_encrypted_break(env, "share")


@case
def case_global_desired(env):
    c, sess = logged_on(env)
    expect(sess.flags & SESSION_FLAG_ENCRYPT_DATA, "SessionFlags ENCRYPT_DATA")
    r = c.tree_connect(sess, "share", signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "unencrypted still accepted")
    r = c.ecall(sess, ECHO, ECHO_BODY)
    expect_eq(r.status, STATUS_SUCCESS, "encrypted echo")
    c.close()


CONFIG_CASES = ("global_required", "global_desired")


def main():
    def args(ap):
        ap.add_argument("--secure-share", default="secure",
                        help="a share with smb3 encryption = required")
        ap.add_argument("--sealed-share", default="sealed",
                        help="a share with smb3 encryption = yes")
    # The CONFIG_CASES need smb2-crypt.sh's later configuration: by name only.
    plain = [n for n in CASES if n not in CONFIG_CASES]
    return case_main(__doc__, "smb2crypt", CASES, args,
                             default_cases=plain)


if __name__ == "__main__":
    sys.exit(main())
