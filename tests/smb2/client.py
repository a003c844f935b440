# SPDX-License-Identifier: GPL-2.0-or-later
"""The layered raw client: Conn (one TCP connection, frames) -> AuthConn
(negotiate, NTLMv2 session setup, signing, tree connect) -> CryptConn (a
cipher and transform headers) and Tree (a share connected, handle
helpers) -> AsyncTree (responses matched by MessageId, for interims,
CANCEL and several requests in flight).

Every layer still sends what the caller built: build() takes every header
field, call() the body as bytes."""
import struct

from . import crypto, ntlm, wire
from . import spnego as spng
from .conn import Conn, ECHO_BODY  # noqa: F401  (the layer below, re-exported)
from .create import (Created, DELETE, DELETE_ON_CLOSE, OPEN, OVERWRITE_IF,
                     create_body, fid_bytes)
from .wire import Response, expect, expect_eq, expect_status

SESSION_FLAG_IS_GUEST, SESSION_FLAG_IS_NULL = 0x1, 0x2
SESSION_FLAG_ENCRYPT_DATA = 0x4
SHAREFLAG_ENCRYPT_DATA = 0x8000
CAP_MULTI_CHANNEL, CAP_ENCRYPTION = 0x8, 0x40
SESSION_FLAG_BINDING = 1


class Session:
    def __init__(self):
        self.id = 0
        self.key = None        # the session key
        self.sign_key = None
        self.alg = None        # "hmac", "cmac" or "gmac"
        self.flags = 0
        self.preauth = None    # 3.1.1: the hash the keys come from
        self.server_mic = None  # the final NegTokenResp's mechListMIC


def sign(sess, msg):
    return crypto.sign_message(sess.alg, sess.sign_key, msg)


def signature_ok(sess, raw):
    return crypto.signature_valid(sess.alg, sess.sign_key, raw)


def tree_connect_body(share, host="127.0.0.1", flags=0):
    path = ("\\\\%s\\%s" % (host, share)).encode("utf-16-le")
    return struct.pack("<HHHH", 9, flags, 64 + 8, len(path)) + path


def flush_body(fid=b"\xff" * 16):
    return struct.pack("<HHI16s", 24, 0, 0, fid_bytes(fid))


def session_setup_body(blob, flags=0, security_mode=1, prev=0):
    return struct.pack("<HBBIIHHQ", 25, flags, security_mode, 0, 0,
                       64 + 24, len(blob), prev) + blob


def security_blob(r):
    """The security buffer of a SESSION_SETUP response."""
    boff, blen = struct.unpack_from("<HH", r.body, 4)
    return r.raw[boff:boff + blen]


class AuthConn(Conn):
    """A negotiated connection (one dialect) that sets up sessions."""

    def __init__(self, host, port, dialect, contexts=None, caps=None,
                 guid=b"\x42" * 16):
        super().__init__(host, port)
        self.dialect = dialect
        self.preauth = b"\0" * 64
        self.signing_alg = "hmac" if dialect < 0x0300 else "cmac"
        body = bytearray(wire.negotiate_body([dialect], contexts, guid))
        if caps is not None:
            struct.pack_into("<I", body, 8, caps)
        req = self.build(wire.NEGOTIATE, bytes(body), credit_req=64)
        self.send_frame(req)
        raw = self.recv_frame()
        r = Response(raw)
        expect_eq(r.status, wire.STATUS_SUCCESS, "negotiate status")
        n = r.negotiate()
        self.neg = n
        expect_eq(n["dialect"], dialect, "negotiated dialect")
        if dialect == 0x0311:
            self.preauth = self.chain(self.chain(self.preauth, req), raw)
            sig = n["contexts"].get(wire.CTX_SIGNING)
            if sig:
                alg = struct.unpack_from("<H", sig, 2)[0]
                self.signing_alg = crypto.SIGNING_NAMES.get(alg, "?")

    chain = staticmethod(crypto.sha512_chain)

    def build(self, command, body, session=0, tree=0, flags=0, credit_req=8,
              mid=None, next_cmd=0):
        if mid is None:
            mid = self.mid
            self.mid += 1
        return wire.header(command, mid, credit_req, flags, next_cmd,
                           charge=1, session=session, tree=tree) + body

    def call(self, command, body, sess=None, tree=0, signed=False, flags=0):
        msg = self.build(command, body, session=sess.id if sess else 0,
                         tree=tree, flags=flags)
        if signed:
            msg = sign(sess, msg)
        self.send_frame(msg)
        return Response(self.recv_frame())

    # -- session setup --

    def setup_leg(self, sess, blob, security_mode=1, flags=0, signed=False):
        body = session_setup_body(blob, flags, security_mode)
        req = self.build(wire.SESSION_SETUP, body, session=sess.id)
        if signed:
            req = sign(sess, req)
        self.send_frame(req)
        raw = self.recv_frame()
        return req, raw, Response(raw)

    def login(self, user, password, domain="", spnego=False, security_mode=1,
              krb5_first=False, reauth=None, signed=False, mech_mic=None,
              av_list=None):
        """(status, Session, final response); Session is set up on success.

        krb5_first: the first leg is a SPNEGO NegTokenInit preferring
        Kerberos with a (bogus) Kerberos token, as domain clients send.
        user None: an anonymous logon. reauth: a Session to
        re-authenticate (its key stays, MS-SMB2 3.3.5.5.2); signed: sign
        every leg with its key. mech_mic (SPNEGO): send a mechListMIC
        with AUTHENTICATE, "bad" a corrupted one; None sends one when
        krb5_first (RFC 4178 requires it then). av_list: see
        ntlm.authenticate (or a function of the server's target info).
        """
        if mech_mic is None:
            mech_mic = krb5_first
        if reauth:
            return self.reauthenticate(reauth, user, password, domain,
                                       spnego, security_mode, signed)
        sess = Session()
        tok = ntlm.negotiate()
        h = self.preauth
        if krb5_first:
            spnego = True
            req, raw, r = self.setup_leg(
                sess, spng.spnego_init(b"\x60\x03\x06\x01\x00", True),
                security_mode)
            if r.status != wire.STATUS_MORE_PROCESSING_REQUIRED:
                return r.status, sess, r
            expect(raw.find(ntlm.SIG) < 0, "token in the mech choice")
            expect(raw.find(spng.NTLMSSP_OID[2:]) >= 0,
                   "NTLMSSP not chosen")
            sess.id = r.session
            h = self.chain(self.chain(h, req), raw)
            first = spng.spnego_resp(tok)
        else:
            first = spng.spnego_init(tok) if spnego else tok
        req, raw, r = self.setup_leg(sess, first, security_mode)
        if r.status != wire.STATUS_MORE_PROCESSING_REQUIRED:
            return r.status, sess, r
        expect(r.session != 0, "no session id with the challenge")
        expect(not sess.id or r.session == sess.id, "session id changed")
        sess.id = r.session
        h = self.chain(self.chain(h, req), raw)
        _, challenge, tinfo = ntlm.parse_challenge(
            spng.find_ntlmssp(security_blob(r)))
        if callable(av_list):
            av_list = av_list(tinfo)
        msg, key = ntlm.authenticate(user, password, domain, challenge, tinfo,
                                     av_list=av_list)
        mic = None
        if mech_mic and key is not None:
            mic = ntlm.mic(key, b"client-to-server",
                           spng.mech_types(krb5_first))
            if mech_mic == "bad":
                mic = mic[:8] + bytes([mic[8] ^ 1]) + mic[9:]
        req, raw, r = self.setup_leg(
            sess, spng.spnego_resp(msg, mic) if spnego else msg,
            security_mode)
        if r.status != wire.STATUS_SUCCESS:
            return r.status, sess, r
        if spnego:
            sess.server_mic = spng.spnego_resp_fields(
                security_blob(r)).get(3)
        h = self.chain(h, req)
        sess.flags = struct.unpack_from("<H", r.body, 2)[0]
        if key is None or sess.flags & (SESSION_FLAG_IS_GUEST |
                                        SESSION_FLAG_IS_NULL):
            return r.status, sess, r  # guest or anonymous: no key
        sess.key = key
        sess.preauth = h
        sess.alg = self.signing_alg
        sess.sign_key = crypto.signing_key(self.dialect, key, h)
        return r.status, sess, r

    def reauthenticate(self, sess, user, password, domain, spnego,
                       security_mode, signed):
        tok = ntlm.negotiate()
        _, raw, r = self.setup_leg(sess, spng.spnego_init(tok) if spnego else tok,
                                   security_mode, signed=signed)
        if r.status != wire.STATUS_MORE_PROCESSING_REQUIRED:
            return r.status, sess, r
        expect_eq(r.session, sess.id, "session id of the re-authentication")
        _, challenge, tinfo = ntlm.parse_challenge(
            spng.find_ntlmssp(security_blob(r)))
        msg, _ = ntlm.authenticate(user, password, domain, challenge, tinfo)
        _, raw, r = self.setup_leg(
            sess, spng.spnego_resp(msg) if spnego else msg,
            security_mode, signed=signed)
        return r.status, sess, r

    # -- trees --

    def tree_connect(self, sess, share, signed=None):
        """signed None: as a real client, signed on 3.1.1 when the session
        has a key (MS-SMB2 3.3.5.7 drops the connection otherwise)."""
        if signed is None:
            signed = self.dialect == 0x0311 and sess is not None and \
                sess.sign_key is not None and not sess.flags & 0x3
        return self.call(wire.TREE_CONNECT, tree_connect_body(share), sess,
                         signed=signed)

    def tree_disconnect(self, sess, tree, signed=False):
        return self.call(wire.TREE_DISCONNECT, ECHO_BODY, sess, tree=tree,
                         signed=signed)

    def logoff(self, sess, signed=False):
        return self.call(wire.LOGOFF, ECHO_BODY, sess, signed=signed)

    def echo(self, sess=None, signed=False):
        return self.call(wire.ECHO, ECHO_BODY, sess, signed=signed)

    def flush(self, sess, tree):
        return self.call(wire.FLUSH, flush_body(), sess, tree=tree)



def compound(conn, elems):
    """elems: (command, body, session, tree, flags); returns the responses."""
    msgs = [conn.build(cmd, body, session=sid, tree=tid, flags=fl)
            for cmd, body, sid, tid, fl in elems]
    conn.send_frame(wire.compound_frame(msgs))
    return wire.split_compound(conn.recv_frame())


def logged_on(env, dialect=0x0311, guid=b"\x42" * 16, **kw):
    """(AuthConn, Session, response) of env's user logged on."""
    c = AuthConn(env.host, env.port, dialect, guid=guid)
    st, sess, r = c.login(env.user, env.password, **kw)
    expect_eq(st, wire.STATUS_SUCCESS, "session setup status")
    return c, sess, r


def bind_channel(c2, sess, user, password, key_sess=None, signed=True):
    """Bind c2 to sess: (status, channel Session, response). The legs are
    signed with key_sess's key (the session's unless told); the channel's
    key comes from this exchange (3.1.1: over c2's preauth chain)."""
    key_sess = key_sess or sess
    h = c2.preauth
    req, raw, r = c2.setup_leg(key_sess, ntlm.negotiate(),
                               flags=SESSION_FLAG_BINDING, signed=signed)
    if r.status != wire.STATUS_MORE_PROCESSING_REQUIRED:
        return r.status, None, r
    expect(r.flags & wire.FLAG_SIGNED and signature_ok(sess, raw),
           "binding challenge signed with the session's key")
    h = c2.chain(c2.chain(h, req), raw)
    boff, blen = struct.unpack_from("<HH", r.body, 4)
    _, challenge, tinfo = ntlm.parse_challenge(
        spng.find_ntlmssp(raw[boff:boff + blen]))
    msg, key = ntlm.authenticate(user, password, "", challenge, tinfo)
    req, raw, r = c2.setup_leg(key_sess, msg, flags=SESSION_FLAG_BINDING,
                               signed=signed)
    if r.status != wire.STATUS_SUCCESS:
        return r.status, None, r
    h = c2.chain(h, req)
    ch = Session()
    ch.id = sess.id
    ch.alg = c2.signing_alg
    if c2.dialect == 0x0311:
        ch.sign_key = crypto.kdf(key, b"SMBSigningKey\0", h)
    else:
        ch.sign_key = crypto.kdf(key, b"SMB2AESCMAC\0", b"SmbSign\0")
    expect(r.flags & wire.FLAG_SIGNED and signature_ok(ch, raw),
           "final binding response signed with the channel's key")
    return r.status, ch, r


# ---- encryption ----------------------------------------------------------------

class CryptConn(AuthConn):
    """A connection that negotiates a cipher (3.1.1 context, or the 3.0
    capability) and can wrap requests in transform headers."""

    def __init__(self, env, dialect=0x0311, ciphers=(crypto.AES128_GCM,),
                 signing=(2, 1, 0), guid=b"\x42" * 16):
        ctxs = [wire.preauth_ctx(), wire.signing_ctx(signing)]
        if ciphers is not None:
            ctxs.append(wire.encryption_ctx(ciphers))
        super().__init__(env.host, env.port, dialect,
                         contexts=ctxs if dialect == 0x0311 else [],
                         caps=0x7f if ciphers else 0x3f, guid=guid)
        self.cipher = 0
        if dialect == 0x0311:
            enc = self.neg["contexts"].get(wire.CTX_ENCRYPTION)
            if ciphers is not None:
                expect(enc is not None, "encryption context not answered")
                cnt, self.cipher = struct.unpack_from("<HH", enc, 0)
                expect_eq(cnt, 1, "CipherCount")
        elif self.neg["capabilities"] & CAP_ENCRYPTION:
            self.cipher = crypto.AES128_CCM
        self.nonce = 0

    def keys(self, sess):
        """(client-to-server key, server-to-client key) of the session."""
        return crypto.encryption_keys(self.dialect, self.cipher, sess.key,
                                      sess.preauth)

    def wrap(self, sess, msg, session_id=None, flags=1):
        self.nonce += 1
        return crypto.seal(self.cipher, self.keys(sess)[0],
                           sess.id if session_id is None else session_id,
                           msg, crypto.make_nonce(self.cipher, self.nonce),
                           flags)

    def unwrap(self, sess, frame):
        expect_eq(frame[:4], wire.TRANSFORM_MAGIC, "response protocol id")
        _, _, size, flags, sid = crypto.transform_fields(frame)
        expect_eq(sid, sess.id, "transform SessionId")
        expect_eq(flags, 1, "transform Flags")
        expect_eq(size, len(frame) - 52, "OriginalMessageSize")
        return crypto.unseal(self.cipher, self.keys(sess)[1], frame)

    def ecall(self, sess, command, body, tree=0, flags=0):
        """One encrypted request; the decrypted response."""
        msg = self.build(command, body, session=sess.id, tree=tree,
                         flags=flags)
        self.send_frame(self.wrap(sess, msg))
        return Response(self.unwrap(sess, self.recv_frame()))

    def ecompound(self, sess, elems):
        """elems: (command, body, tree, flags) in one transform."""
        msgs = [self.build(cmd, body, session=sess.id, tree=tid, flags=fl)
                for cmd, body, tid, fl in elems]
        self.send_frame(self.wrap(sess, wire.compound_frame(msgs)))
        return wire.split_compound(self.unwrap(sess, self.recv_frame()))


# ---- request bodies for a handle ---------------------------------------------------

def write_body(fid, data, offset=0, flags=0):
    return struct.pack("<HHIQ16sIIHHI", 49, 64 + 48, len(data), offset,
                       fid_bytes(fid), 0, 0, 0, 0, flags) + data


def read_body(fid, length, offset=0, min_count=0):
    return struct.pack("<HBBIQ16sIIIHH", 49, 0, 0, length, offset,
                       fid_bytes(fid), min_count, 0, 0, 0, 0) + b"\0"


def query_info_body(fid, itype, cls, out_len, addl=0, inp=b""):
    return struct.pack("<HBBIHHIII16s", 41, itype, cls, out_len,
                       64 + 40 if inp else 0, 0, len(inp), addl, 0,
                       fid_bytes(fid)) + (inp or b"\0")


def set_info_body(fid, itype, cls, buf, addl=0):
    return struct.pack("<HBBIHHI16s", 33, itype, cls, len(buf), 64 + 32,
                       0, addl, fid_bytes(fid)) + buf


def rename_info(target, replace):
    """FileRenameInformation (class 10) naming target."""
    n = target.encode("utf-16-le")
    return struct.pack("<B7sQI", 1 if replace else 0, b"", 0, len(n)) + n


# ---- a tree and its handles -------------------------------------------------------

class Tree:
    """A logged-on connection with one tree connected. FileIds are
    (persistent, volatile) pairs or their 16 bytes."""

    def __init__(self, env, share="share", guid=b"\x42" * 16,
                 dialect=0x0311):
        self.c, self.sess, _ = logged_on(env, dialect, guid=guid)
        r = self.c.tree_connect(self.sess, share)
        expect_eq(r.status, 0, "tree connect to " + share)
        self.tid = r.tree
        self.share_flags = struct.unpack_from("<I", r.body, 4)[0]

    def build(self, cmd, body, charge=1, flags=0, next_cmd=0):
        msg = bytearray(self.c.build(cmd, body, session=self.sess.id,
                                     tree=self.tid, flags=flags,
                                     next_cmd=next_cmd))
        struct.pack_into("<H", msg, 6, charge)
        self.c.mid += charge - 1
        return bytes(msg)

    def call(self, cmd, body, charge=1):
        self.c.send_frame(self.build(cmd, body, charge))
        r = Response(self.c.recv_frame())
        # An interim STATUS_PENDING (async form): the answer follows.
        while r.status == wire.STATUS_PENDING and r.flags & wire.FLAG_ASYNC:
            r = Response(self.c.recv_frame())
        return r

    def send(self, cmd, body, flags=0, next_cmd=0):
        """Send without waiting; the request's MessageId."""
        mid = self.c.mid
        self.c.send_frame(self.build(cmd, body, flags=flags,
                                     next_cmd=next_cmd))
        return mid

    def next_frame(self, wait):
        """The next response, whatever it answers, within wait seconds."""
        self.c.sock.settimeout(wait)
        try:
            return Response(self.c.recv_frame())
        finally:
            self.c.sock.settimeout(30)

    def cancel(self, mid, aid=None):
        """SMB2 CANCEL: async form with aid, else sync form by MessageId."""
        self.c.send_frame(wire.cancel_frame(mid, self.tid, self.sess.id, aid))

    def create(self, name, **kw):
        r = self.call(wire.CREATE, create_body(name, **kw))
        return r, (Created(r) if r.status == 0 else None)

    def must_create(self, name, **kw):
        r, cr = self.create(name, **kw)
        expect_status(r, "SUCCESS", "create %r" % name)
        return cr

    def close(self, fid, postquery=False):
        body = struct.pack("<HHI16s", 24, 1 if postquery else 0, 0,
                           fid_bytes(fid))
        return self.call(wire.CLOSE, body)

    def write(self, fid, data, offset=0, flags=0):
        body = write_body(fid, data, offset, flags)
        return self.call(wire.WRITE, body,
                         charge=max(1, (len(data) + 65535) // 65536))

    def read(self, fid, length, offset=0, min_count=0):
        body = read_body(fid, length, offset, min_count)
        r = self.call(wire.READ, body,
                      charge=max(1, (length + 65535) // 65536))
        data = b""
        if r.status in (0, wire.STATUS_BUFFER_OVERFLOW):
            doff, _, dlen = struct.unpack_from("<BBI", r.body, 2)
            data = r.raw[doff:doff + dlen]
        return r, data

    def ioctl(self, fid, code, data=b"", max_out=4096):
        body = struct.pack("<HHI16sIIIIIIII", 57, 0, code, fid_bytes(fid),
                           64 + 56 if data else 0, len(data), 0, 0, 0,
                           max_out, 1, 0) + data
        r = self.call(wire.IOCTL, body)
        out = b""
        if len(r.body) >= 48:
            ooff, olen = struct.unpack_from("<II", r.body, 32)
            out = r.raw[ooff:ooff + olen]
        return r, out

    def query_info(self, fid, itype, cls, out_len, addl=0, inp=b""):
        body = query_info_body(fid, itype, cls, out_len, addl, inp)
        r = self.call(wire.QUERY_INFO, body)
        data = b""
        if r.status in (0, wire.STATUS_BUFFER_OVERFLOW):
            data = r.buffer()
        return r, data

    def query_dir(self, fid, cls, out_len, pattern="*", flags=0):
        p = pattern.encode("utf-16-le")
        body = struct.pack("<HBBI16sHHI", 33, cls, flags, 0, fid_bytes(fid),
                           64 + 32, len(p), out_len) + (p or b"\0")
        r = self.call(wire.QUERY_DIRECTORY, body)
        return r, (r.buffer() if r.status == 0 else b"")

    def set_info(self, fid, itype, cls, buf, addl=0):
        return self.call(wire.SET_INFO, set_info_body(fid, itype, cls, buf,
                                                      addl))

    def dispose(self, fid, on=True):
        """SET_INFO FileDispositionInformation."""
        return self.set_info(fid, 1, 13, b"\x01" if on else b"\x00")

    def rename(self, fid, target, replace):
        """SET_INFO FileRenameInformation."""
        return self.set_info(fid, 1, 10, rename_info(target, replace))

    def put_file(self, name, data):
        cr = self.must_create(name, disp=OVERWRITE_IF)
        expect_status(self.write(cr.fid, data), "SUCCESS", "write " + name)
        self.close(cr.fid)

    def unlink(self, name):
        r, cr = self.create(name, access=DELETE, disp=OPEN,
                            options=DELETE_ON_CLOSE)
        if cr:
            self.close(cr.fid)

    def bye(self):
        self.c.close()


def lock_body(fid, elems, count=None):
    """LOCK (MS-SMB2 2.2.26); elems: (offset, length, flags); count: a
    LockCount other than len(elems)."""
    body = struct.pack("<HHI16s", 48, len(elems) if count is None else count,
                       0, fid_bytes(fid))
    for off, length, flags in elems:
        body += struct.pack("<QQII", off, length, flags, 0)
    return body


LOCK_SHARED, LOCK_EXCLUSIVE, LOCK_UNLOCK, LOCK_FAIL_IMMEDIATELY = 1, 2, 4, 16


def notify_body(fid, filt, out_len=4096, flags=0):
    """CHANGE_NOTIFY (MS-SMB2 2.2.35); flags 1 = SMB2_WATCH_TREE."""
    return struct.pack("<HHI16sII", 32, flags, out_len, fid_bytes(fid), filt,
                       0)


class AsyncTree(Tree):
    """A Tree whose responses match their requests by MessageId: several
    may be in flight, interims and finals are told apart."""

    def __init__(self, env, share="share"):
        super().__init__(env, share)
        self.stash = {}

    def call(self, cmd, body, charge=1):
        msg = self.build(cmd, body, charge)
        mid = struct.unpack_from("<Q", msg, 24)[0]
        self.c.send_frame(msg)
        return self.recv_mid(mid)

    def recv_mid(self, mid, timeout=10.0):
        """The next response for mid (interim or final); others are kept."""
        if mid in self.stash and self.stash[mid]:
            return self.stash[mid].pop(0)
        self.c.sock.settimeout(timeout)
        while True:
            try:
                raw = self.c.recv_frame()
            except OSError as e:
                raise type(e)("waiting for mid %d (held: %s): %s" % (
                    mid, {m: [wire.status_name(r.status) for r in rs]
                          for m, rs in self.stash.items() if rs}, e))
            for r in wire.split_compound(raw):
                self.stash.setdefault(r.mid, []).append(r)
            if self.stash.get(mid):
                return self.stash[mid].pop(0)

    def nothing_for(self, mid, wait=1.0):
        """True when no response for mid arrives within wait seconds."""
        try:
            r = self.recv_mid(mid, timeout=wait)
        except OSError:
            return True
        self.stash.setdefault(mid, []).insert(0, r)
        return False

    def interim(self, mid, what):
        """The interim response of mid: STATUS_PENDING, async, an AsyncId."""
        r = self.recv_mid(mid)
        expect_status(r, "PENDING", what + " interim")
        expect(r.flags & wire.FLAG_ASYNC,
               what + ": interim without SMB2_FLAGS_ASYNC_COMMAND")
        expect(r.async_id != 0, what + ": interim AsyncId is 0")
        return r

    def final(self, mid, interim, what):
        r = self.recv_mid(mid)
        expect(r.flags & wire.FLAG_ASYNC, what + ": final response not async")
        expect_eq(r.async_id, interim.async_id, what + ": AsyncId")
        expect_eq(r.credits, 0, what + ": final response credits")
        return r

    def lock(self, fid, elems, count=None):
        return self.recv_mid(self.send(wire.LOCK,
                                       lock_body(fid, elems, count)))

    def pending_lock(self, fid, off, length, flags=LOCK_EXCLUSIVE):
        """Send a blocking lock; return (mid, interim response)."""
        mid = self.send(wire.LOCK, lock_body(fid, [(off, length, flags)]))
        r = self.interim(mid, "blocking lock")
        expect(r.credits >= 1, "interim grants no credits")
        return mid, r

    def alive(self):
        r = self.recv_mid(self.send(wire.ECHO, ECHO_BODY))
        expect_eq(r.status, 0, "echo")
