#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""SESSION_SETUP (NTLMv2, raw and in SPNEGO), signing, LOGOFF, TREE_CONNECT
and TREE_DISCONNECT against the server, with the client of tests/smb2.

The NTLMv2 response, the SMB2 signing keys (2.1 session key, 3.0 KDF, 3.1.1
KDF over the preauth hash) and the signatures are computed by tests/smb2
from the specifications, so a passing session setup also proves the server derived
the same keys: it must accept our signed requests and its own signatures
must verify.

Cases in CASES need the demo configuration; those in CONFIG_CASES
(--config) need the one tests/vm/cases/smb2-guest.sh writes ("map to
guest = bad user", "restrict anonymous = 2", "max sessions per
connection = 3", a "guest ok" share named public, a second user).

CLI: smb2auth.py [--host H] [--port P] [--prefix NAME] [--user U]
                 [--password PW] [--user2 U --password2 PW] [--config]
                 [CASE ...]
"""
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2 import ntlm  # noqa: E402
from smb2.client import (AuthConn, Session, bind_channel,  # noqa: E402
                         compound, flush_body, logged_on, sign, signature_ok,
                         CAP_MULTI_CHANNEL,
                         SESSION_FLAG_BINDING as FLAG_BINDING,
                         SESSION_FLAG_IS_GUEST, SESSION_FLAG_IS_NULL)
from smb2.create import GENERIC_ALL_RW, OVERWRITE_IF, create_body  # noqa: E402
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.spnego import mech_types, spnego_init, spnego_resp  # noqa: E402
from smb2.wire import *  # noqa: E402,F401,F403

CASES, case = case_registry()


def check_login(env, dialect, spnego=False, krb5_first=False):
    c, sess, r = logged_on(env, dialect, spnego=spnego, krb5_first=krb5_first)
    expect_eq(sess.flags, 0, "SessionFlags (not guest, not null)")
    if dialect == 0x0311:
        expect(r.flags & FLAG_SIGNED, "final 3.1.1 session setup not signed")
        expect(signature_ok(sess, r.raw),
               "final session setup signature does not verify")
    e = c.echo(sess, signed=True)
    expect_eq(e.status, STATUS_SUCCESS, "signed echo")
    expect(e.flags & FLAG_SIGNED, "answer to a signed echo not signed")
    expect(signature_ok(sess, e.raw), "echo response signature")
    expect_eq(c.logoff(sess, signed=True).status, STATUS_SUCCESS, "logoff")
    c.close()


@case
def case_login_210(env):
    check_login(env, 0x0210)


@case
def case_login_300(env):
    check_login(env, 0x0300)


@case
def case_login_302(env):
    check_login(env, 0x0302)


@case
def case_login_311(env):
    check_login(env, 0x0311)


@case
def case_login_311_spnego(env):
    check_login(env, 0x0311, spnego=True)


@case
def case_login_300_spnego(env):
    check_login(env, 0x0300, spnego=True)


@case
def case_login_311_kerberos_preferred(env):
    check_login(env, 0x0311, krb5_first=True)


def check_server_mic(sess, krb5_first=False):
    want = ntlm.mic(sess.key, b"server-to-client",
                    mech_types(krb5_first))
    expect(sess.server_mic is not None, "no mechListMIC in the final answer")
    expect_eq(sess.server_mic.hex(), want.hex(), "server's mechListMIC")


@case
def case_spnego_mech_list_mic(env):
    """MS-SPNG 3.1.5.1: the client's mechListMIC is checked and the final
    NegTokenResp carries the server's, signed with its own keys."""
    c, sess, _ = logged_on(env, 0x0311, spnego=True, mech_mic=True)
    check_server_mic(sess)
    e = c.echo(sess, signed=True)
    expect_eq(e.status, STATUS_SUCCESS, "signed echo")
    c.close()
    # No MIC from the client (NTLMSSP preferred): none from us either.
    c, sess, _ = logged_on(env, 0x0311, spnego=True)
    expect(sess.server_mic is None, "mechListMIC the client did not ask for")
    c.close()


@case
def case_kerberos_preferred_mech_list_mic(env):
    c, sess, _ = logged_on(env, 0x0311, krb5_first=True)
    check_server_mic(sess, krb5_first=True)
    c.close()


def refused_mic(env, **kw):
    c = AuthConn(env.host, env.port, 0x0311)
    st, sess, _ = c.login(env.user, env.password, spnego=True, **kw)
    expect_eq(st, STATUS_LOGON_FAILURE, "status")
    t = c.tree_connect(sess, "share")
    expect_eq(t.status, STATUS_USER_SESSION_DELETED, "tree connect after failure")
    c.close()


@case
def case_bad_mech_list_mic_refused(env):
    refused_mic(env, mech_mic="bad")


@case
def case_kerberos_preferred_without_mic_refused(env):
    """RFC 4178 section 5: NTLMSSP was not the first choice, so the MIC
    that protects the mechanism list is mandatory."""
    refused_mic(env, krb5_first=True, mech_mic=False)


@case
def case_mech_choice_only_once(env):
    c = AuthConn(env.host, env.port, 0x0311)
    s = Session()
    _, _, r = c.setup_leg(s, spnego_init(b"\x60\x03\x06\x01\x00", True))
    expect_eq(r.status, STATUS_MORE_PROCESSING_REQUIRED, "mech choice")
    s.id = r.session
    _, _, r = c.setup_leg(s, spnego_init(b"\x60\x03\x06\x01\x00", True))
    expect_eq(r.status, STATUS_REQUEST_NOT_ACCEPTED, "second mech choice")
    _, _, r = c.setup_leg(s, spnego_resp(ntlm.negotiate()))
    expect_eq(r.status, STATUS_USER_SESSION_DELETED, "refused setup is gone")
    c.close()


def failed_login(env, user, password):
    c = AuthConn(env.host, env.port, 0x0311)
    t0 = time.monotonic()
    st, sess, r = c.login(user, password)
    dt = time.monotonic() - t0
    expect_eq(st, STATUS_LOGON_FAILURE, "status")
    # The failed session is gone: the id cannot be used for anything.
    t = c.tree_connect(sess, "share")
    expect_eq(t.status, STATUS_USER_SESSION_DELETED, "tree connect after failure")
    c.close()
    return r.body, dt


@case
def case_wrong_password(env):
    failed_login(env, env.user, "wrong")


@case
def case_malformed_av_pairs_invalid_parameter(env):
    """MS-NLMP 2.2.2.7: the AV_PAIR list in the NTLMv2 response ends with
    MsvAvEOL. One that runs past the response or never ends is a malformed
    message, answered STATUS_INVALID_PARAMETER as Windows does (Samba bug
    14932), before any proof is checked: with the right password (the
    proof covers the bad list) and a wrong one alike. The session is
    gone afterwards."""
    lists = {
        "pair past the end": lambda ti: struct.pack("<HH", 2, 0x200) + b"\x5e" * 47,
        "no MsvAvEOL": lambda ti: ti[:-4],
        "EOL cut short": lambda ti: ti[:-2],
    }
    for what, av in lists.items():
        for pw in (env.password, "wrong"):
            c = AuthConn(env.host, env.port, 0x0311)
            st, sess, _ = c.login(env.user, pw, av_list=av)
            expect_eq(st, STATUS_INVALID_PARAMETER, what + ", status")
            t = c.tree_connect(sess, "share")
            expect_eq(t.status, STATUS_USER_SESSION_DELETED,
                      what + ", tree connect after it")
            c.close()
    # padding after MsvAvEOL is fine
    c = AuthConn(env.host, env.port, 0x0311)
    st, _, _ = c.login(env.user, env.password,
                       av_list=lambda ti: ti + b"\0" * 12)
    expect_eq(st, STATUS_SUCCESS, "padding after MsvAvEOL")
    c.close()


@case
def case_unknown_user_same_answer(env):
    bad_pw, _ = failed_login(env, env.user, "wrong")
    no_user, _ = failed_login(env, "nosuchuser", "whatever")
    expect_eq(no_user, bad_pw, "error body for unknown user vs wrong password")


@case
def case_bad_signature_denied(env):
    c, sess, _ = logged_on(env)
    msg = bytearray(sign(sess, c.build(ECHO, struct.pack("<HH", 4, 0),
                                       session=sess.id)))
    msg[50] ^= 0x55
    c.send_frame(bytes(msg))
    r = Response(c.recv_frame())
    expect_eq(r.status, STATUS_ACCESS_DENIED, "corrupted signature")
    # A signed request with a signature over other bytes is refused too.
    msg = bytearray(sign(sess, c.build(ECHO, struct.pack("<HH", 4, 0),
                                       session=sess.id)))
    msg[64 + 2] ^= 1
    c.send_frame(bytes(msg))
    expect_eq(Response(c.recv_frame()).status, STATUS_ACCESS_DENIED,
              "body changed after signing")
    expect_eq(c.echo(sess, signed=True).status, STATUS_SUCCESS,
              "good signature still accepted")
    c.close()


@case
def case_signing_required_by_client(env):
    c = AuthConn(env.host, env.port, 0x0300)
    st, sess, _ = c.login(env.user, env.password, security_mode=3)
    expect_eq(st, STATUS_SUCCESS, "session setup")
    r = c.tree_connect(sess, "share")
    expect_eq(r.status, STATUS_ACCESS_DENIED, "unsigned request, signing required")
    r = c.tree_connect(sess, "share", signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "signed tree connect")
    expect(signature_ok(sess, r.raw), "tree connect response signature")
    c.close()


def tcon_rsp(r):
    return struct.unpack_from("<HBBIII", r.body, 0)


@case
def case_tree_connect_share(env):
    c, sess, _ = logged_on(env)
    r = c.tree_connect(sess, "share", signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "tree connect")
    ss, stype, _, sflags, caps, access = tcon_rsp(r)
    expect_eq((ss, stype), (16, 1), "StructureSize/ShareType DISK")
    expect(r.tree not in (0, 0xFFFFFFFF), "no tree id")
    expect_eq(access, 0x001F01FF, "MaximalAccess on a writable share")
    # Share names are case-insensitive.
    r2 = c.tree_connect(sess, "SHARE", signed=True)
    expect_eq(r2.status, STATUS_SUCCESS, "tree connect SHARE")
    expect(r2.tree != r.tree, "second tree got the same id")
    c.close()


@case
def case_tree_connect_ipc(env):
    c, sess, _ = logged_on(env)
    r = c.tree_connect(sess, "IPC$", signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "tree connect IPC$")
    expect_eq(tcon_rsp(r)[1], 2, "ShareType PIPE")
    c.close()


@case
def case_tree_connect_nosuch(env):
    c, sess, _ = logged_on(env)
    r = c.tree_connect(sess, "nosuch", signed=True)
    expect_eq(r.status, STATUS_BAD_NETWORK_NAME, "unknown share")
    r = c.tree_connect(sess, "x" * 81, signed=True)
    expect_eq(r.status, STATUS_BAD_NETWORK_NAME, "81-character share name")
    c.close()


@case
def case_tree_disconnect_reuse(env):
    c, sess, _ = logged_on(env, 0x0210)
    tid = c.tree_connect(sess, "share", signed=True).tree
    expect_eq(c.tree_disconnect(sess, tid, signed=True).status,
              STATUS_SUCCESS, "tree disconnect")
    expect_eq(c.tree_disconnect(sess, tid, signed=True).status,
              STATUS_NETWORK_NAME_DELETED, "second disconnect")
    msg = sign(sess, c.build(FLUSH, flush_body(), session=sess.id, tree=tid))
    c.send_frame(msg)
    expect_eq(Response(c.recv_frame()).status, STATUS_NETWORK_NAME_DELETED,
              "flush on a disconnected tree")
    c.close()


@case
def case_logoff_reuse(env):
    c, sess, _ = logged_on(env)
    tid = c.tree_connect(sess, "share", signed=True).tree
    expect_eq(c.logoff(sess, signed=True).status, STATUS_SUCCESS, "logoff")
    expect_eq(c.logoff(sess).status, STATUS_USER_SESSION_DELETED,
              "second logoff")
    expect_eq(c.tree_connect(sess, "share").status,
              STATUS_USER_SESSION_DELETED, "tree connect after logoff")
    expect_eq(c.tree_disconnect(sess, tid).status,
              STATUS_USER_SESSION_DELETED, "tree disconnect after logoff")
    c.close()


@case
def case_other_connection_session(env):
    a, sess, _ = logged_on(env)
    b = AuthConn(env.host, env.port, 0x0311)
    expect_eq(b.tree_connect(sess, "share").status,
              STATUS_USER_SESSION_DELETED, "session of another connection")
    expect_eq(a.tree_connect(sess, "share", signed=True).status,
              STATUS_SUCCESS, "still fine on its own connection")
    a.close()
    b.close()


def check_reauth(env, dialect, spnego=False):
    c, sess, _ = logged_on(env, dialect, spnego=spnego)
    tid = c.tree_connect(sess, "share", signed=True).tree
    st, _, r = c.login(env.user, env.password, spnego=spnego, reauth=sess)
    expect_eq(st, STATUS_SUCCESS, "re-authentication")
    expect_eq(r.session, sess.id, "session id kept")
    expect_eq(struct.unpack_from("<H", r.body, 2)[0], 0, "SessionFlags")
    if r.flags & FLAG_SIGNED:
        expect(signature_ok(sess, r.raw), "re-auth response signed with the kept key")
    # MS-SMB2 3.3.5.5.2: the session key, so the signing key, stays.
    e = c.echo(sess, signed=True)
    expect_eq(e.status, STATUS_SUCCESS, "signed echo after re-authentication")
    expect(signature_ok(sess, e.raw), "echo signed with the kept key")
    expect_eq(c.tree_disconnect(sess, tid, signed=True).status,
              STATUS_SUCCESS, "tree of the session survived")
    # Again: a session re-authenticates as often as it likes.
    st, _, _ = c.login(env.user, env.password, spnego=spnego, reauth=sess)
    expect_eq(st, STATUS_SUCCESS, "second re-authentication")
    expect_eq(c.logoff(sess, signed=True).status, STATUS_SUCCESS, "logoff")
    c.close()


@case
def case_reauth_311(env):
    check_reauth(env, 0x0311)


@case
def case_reauth_210_spnego(env):
    check_reauth(env, 0x0210, spnego=True)


@case
def case_reauth_signed_legs(env):
    """Signing required: the legs on the valid session must be signed."""
    c = AuthConn(env.host, env.port, 0x0300)
    st, sess, _ = c.login(env.user, env.password, security_mode=3)
    expect_eq(st, STATUS_SUCCESS, "session setup")
    _, _, r = c.setup_leg(sess, ntlm.negotiate(), 3)
    expect_eq(r.status, STATUS_ACCESS_DENIED, "unsigned re-authentication leg")
    st, _, r = c.login(env.user, env.password, security_mode=3, reauth=sess,
                       signed=True)
    expect_eq(st, STATUS_SUCCESS, "signed re-authentication")
    expect(r.flags & FLAG_SIGNED and signature_ok(sess, r.raw),
           "re-auth response signed")
    expect_eq(c.tree_connect(sess, "share", signed=True).status,
              STATUS_SUCCESS, "signed tree connect after it")
    c.close()


@case
def case_reauth_wrong_password_ends_session(env):
    c, sess, _ = logged_on(env)
    st, _, _ = c.login(env.user, "wrong", reauth=sess)
    expect_eq(st, STATUS_LOGON_FAILURE, "re-authentication, wrong password")
    expect_eq(c.echo(sess).status, STATUS_SUCCESS, "echo needs no session")
    expect_eq(c.tree_connect(sess, "share").status,
              STATUS_USER_SESSION_DELETED, "session after the failure")
    c.close()


@case
def case_reauth_interleaved(env):
    """Commands keep working between the legs of a re-authentication."""
    c, sess, _ = logged_on(env)
    _, _, r = c.setup_leg(sess, ntlm.negotiate())
    expect_eq(r.status, STATUS_MORE_PROCESSING_REQUIRED, "re-auth first leg")
    r = c.tree_connect(sess, "share", signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "tree connect during re-authentication")
    # A new first leg starts the exchange over; it then completes.
    st, _, _ = c.login(env.user, env.password, reauth=sess)
    expect_eq(st, STATUS_SUCCESS, "restarted re-authentication")
    c.close()


@case
def case_null_session(env):
    """Default "restrict anonymous = 0": an anonymous logon is a null
    session as the guest account: IPC$ yes, a share without guest ok no."""
    c = AuthConn(env.host, env.port, 0x0311)
    st, sess, r = c.login(None, None)
    expect_eq(st, STATUS_SUCCESS, "anonymous session setup")
    expect_eq(sess.flags, SESSION_FLAG_IS_NULL, "SessionFlags")
    expect(not r.flags & FLAG_SIGNED, "null session response signed")
    expect_eq(c.tree_connect(sess, "share").status, STATUS_ACCESS_DENIED,
              "share without guest ok")
    r = c.tree_connect(sess, "IPC$")
    expect_eq(r.status, STATUS_SUCCESS, "IPC$")
    expect(not r.flags & FLAG_SIGNED, "null session response signed")
    expect_eq(c.logoff(sess).status, STATUS_SUCCESS, "logoff")
    c.close()


@case
def case_unknown_user_not_guest(env):
    """Default "map to guest = never"."""
    c = AuthConn(env.host, env.port, 0x0311)
    st, _, _ = c.login("nosuchuser", "whatever")
    expect_eq(st, STATUS_LOGON_FAILURE, "unknown user")
    c.close()


# ---- binding (MS-SMB2 3.3.5.5.2): a second connection joins a session ----



bind = bind_channel


def create_file(c, sess, tree, name):
    body = create_body(name, access=GENERIC_ALL_RW, disp=OVERWRITE_IF)
    r = c.call(CREATE, body, sess, tree=tree, signed=True)
    expect_eq(r.status, STATUS_SUCCESS, "create " + name)
    return r.body[64:80]



def write_file(c, sess, tree, fid, data):
    body = struct.pack("<HHIQ16sIIHHI", 49, 64 + 48, len(data), 0, fid, 0,
                       0, 0, 0, 0) + data
    return c.call(WRITE, body, sess, tree=tree, signed=True)


def read_file(c, sess, tree, fid, length):
    body = struct.pack("<HBBIQ16sIIIHH", 49, 0, 0, length, 0, fid, 0, 0, 0,
                       0, 0) + b"\0"
    r = c.call(READ, body, sess, tree=tree, signed=True)
    if r.status != STATUS_SUCCESS:
        return r, None
    off = r.body[2]
    (n,) = struct.unpack_from("<I", r.body, 4)
    return r, r.raw[off:off + n]


@case
def case_binding_multichannel_cap(env):
    """A 3.x client asking for multichannel gets it (server multi channel
    support = yes, the default); 2.1 never does."""
    c = AuthConn(env.host, env.port, 0x0311, caps=0x7f)
    expect(c.neg["capabilities"] & CAP_MULTI_CHANNEL, "3.1.1: no MULTI_CHANNEL")
    c.close()
    c = AuthConn(env.host, env.port, 0x0210, caps=0x7f)
    expect(not c.neg["capabilities"] & CAP_MULTI_CHANNEL,
           "2.1: MULTI_CHANNEL")
    c.close()


@case
def case_binding_channel(env):
    """Bind a second connection (another ClientGuid, as Windows allows) to
    a 3.1.1 session: a file opened and written on channel 1 reads on
    channel 2, signed with channel 2's key; channel 2 survives channel 1
    dropping; binding twice is refused; LOGOFF ends it for all."""
    c1, sess, _ = logged_on(env)
    tree = c1.tree_connect(sess, "share", signed=True).tree
    fid = create_file(c1, sess, tree, "bind-%d.dat" % os.getpid())
    data = os.urandom(300)
    expect_eq(write_file(c1, sess, tree, fid, data).status, STATUS_SUCCESS,
              "write on channel 1")
    c2 = AuthConn(env.host, env.port, 0x0311, guid=b"\x43" * 16)
    st, ch, _ = bind(c2, sess, env.user, env.password)
    expect_eq(st, STATUS_SUCCESS, "binding")
    r, got = read_file(c2, ch, tree, fid, len(data))
    expect_eq(r.status, STATUS_SUCCESS, "read on channel 2")
    expect(signature_ok(ch, r.raw), "read answer signed with the channel key")
    expect(got == data, "channel 2 reads what channel 1 wrote")
    # Signed with the session's key, not the channel's: refused.
    expect_eq(c2.tree_connect(sess, "share", signed=True).status,
              STATUS_ACCESS_DENIED, "channel 2 request signed with channel 1's key")
    _, _, r = c2.setup_leg(ch, ntlm.negotiate(), flags=FLAG_BINDING,
                           signed=True)
    expect_eq(r.status, STATUS_ACCESS_DENIED, "binding twice")
    c1.close()
    time.sleep(1)
    r, got = read_file(c2, ch, tree, fid, len(data))
    expect_eq(r.status, STATUS_SUCCESS, "read after channel 1 dropped")
    expect(got == data, "data after channel 1 dropped")
    expect_eq(c2.call(CLOSE, struct.pack("<HHI16s", 24, 1, 0, fid), ch,
                      tree=tree, signed=True).status, STATUS_SUCCESS,
              "close on channel 2")
    expect_eq(c2.logoff(ch, signed=True).status, STATUS_SUCCESS, "logoff")
    expect_eq(c2.tree_connect(ch, "share", signed=True).status,
              STATUS_USER_SESSION_DELETED, "session after logoff")
    c2.close()


@case
def case_binding_refusals(env):
    """Each binding check's status; none of them harms the session."""
    c1, sess, _ = logged_on(env)
    c2 = AuthConn(env.host, env.port, 0x0311)
    ghost = Session()
    ghost.id, ghost.sign_key, ghost.alg = sess.id ^ (1 << 40), os.urandom(16), sess.alg
    st, _, r = bind(c2, ghost, env.user, env.password)
    expect_eq(st, STATUS_USER_SESSION_DELETED, "binding to an unknown session")
    st, _, _ = bind(c2, sess, env.user, env.password, signed=False)
    expect_eq(st, STATUS_INVALID_PARAMETER, "unsigned binding")
    forged = Session()
    forged.id, forged.sign_key, forged.alg = sess.id, os.urandom(16), sess.alg
    st, _, r = bind(c2, sess, env.user, env.password, key_sess=forged)
    expect_eq(st, STATUS_ACCESS_DENIED, "binding signed with another key")
    expect(not r.flags & FLAG_SIGNED, "refusal of a forged binding signed")
    st, _, r = bind(c2, sess, env.user, "wrong")
    expect_eq(st, STATUS_LOGON_FAILURE, "binding with a wrong password")
    expect(r.flags & FLAG_SIGNED and signature_ok(sess, r.raw),
           "binding refusal signed with the session's key")
    # Not a channel: the session is unknown on c2.
    expect_eq(c2.tree_connect(sess, "share", signed=True).status,
              STATUS_USER_SESSION_DELETED, "session on an unbound connection")
    c2.close()
    # 2.1 connection; 3.0 connection to a 3.1.1 (AES-GMAC) session.
    c3 = AuthConn(env.host, env.port, 0x0210)
    st, _, _ = bind(c3, sess, env.user, env.password)
    expect_eq(st, STATUS_REQUEST_OUT_OF_SEQUENCE if sess.alg == "gmac" else
              STATUS_REQUEST_NOT_ACCEPTED, "binding a 2.1 connection")
    c3.close()
    c4 = AuthConn(env.host, env.port, 0x0311,
                  contexts=[preauth_ctx(), signing_ctx((1,))])
    c5 = AuthConn(env.host, env.port, 0x0300)
    st, s4, _ = c4.login(env.user, env.password)
    expect_eq(st, STATUS_SUCCESS, "AES-CMAC 3.1.1 session")
    st, _, _ = bind(c5, s4, env.user, env.password)
    expect_eq(st, STATUS_INVALID_PARAMETER, "binding 3.0 to a 3.1.1 session")
    c4.close()
    c5.close()
    expect_eq(c1.tree_connect(sess, "share", signed=True).status,
              STATUS_SUCCESS, "the session after the refusals")
    c1.close()


@case
def case_compound_tdis_then_tree_use(env):
    c, sess, _ = logged_on(env, 0x0210)
    tid = c.tree_connect(sess, "share", signed=True).tree
    rs = compound(c, [
        (TREE_DISCONNECT, struct.pack("<HH", 4, 0), sess.id, tid, 0),
        (ECHO, struct.pack("<HH", 4, 0), sess.id, tid, FLAG_RELATED),
        (FLUSH, flush_body(), 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFF, FLAG_RELATED),
    ])
    expect_eq(len(rs), 3, "responses")
    expect_eq(rs[0].status, STATUS_SUCCESS, "tree disconnect")
    expect_eq(rs[1].status, STATUS_SUCCESS, "echo")
    expect_eq(rs[2].status, STATUS_NETWORK_NAME_DELETED, "flush on the tree")
    expect_eq(c.echo().status, STATUS_SUCCESS, "connection alive")
    c.close()


@case
def case_compound_logoff_then_tcon(env):
    c, sess, _ = logged_on(env, 0x0210)
    path = "\\\\127.0.0.1\\share".encode("utf-16-le")
    tcon = struct.pack("<HHHH", 9, 0, 64 + 8, len(path)) + path
    rs = compound(c, [
        (LOGOFF, struct.pack("<HH", 4, 0), sess.id, 0, 0),
        (TREE_CONNECT, tcon, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFF, FLAG_RELATED),
        (TREE_CONNECT, tcon, sess.id, 0, 0),
    ])
    expect_eq(len(rs), 3, "responses")
    expect_eq(rs[0].status, STATUS_SUCCESS, "logoff")
    expect_eq(rs[1].status, STATUS_USER_SESSION_DELETED, "related tree connect")
    expect_eq(rs[2].status, STATUS_USER_SESSION_DELETED, "unrelated tree connect")
    expect_eq(c.echo().status, STATUS_SUCCESS, "connection alive")
    c.close()


@case
def case_compound_tcon_then_related(env):
    c, sess, _ = logged_on(env, 0x0210)
    path = "\\\\127.0.0.1\\share".encode("utf-16-le")
    tcon = struct.pack("<HHHH", 9, 0, 64 + 8, len(path)) + path
    rs = compound(c, [
        (TREE_CONNECT, tcon, sess.id, 0, 0),
        (TREE_DISCONNECT, struct.pack("<HH", 4, 0), 0xFFFFFFFFFFFFFFFF,
         0xFFFFFFFF, FLAG_RELATED),
    ])
    expect_eq(rs[0].status, STATUS_SUCCESS, "tree connect")
    expect_eq(rs[1].status, STATUS_SUCCESS, "related disconnect of the new tree")
    expect_eq(rs[1].tree, rs[0].tree, "inherited tree id")
    c.close()


@case
def case_half_done_setups_bounded(env):
    c = AuthConn(env.host, env.port, 0x0311)
    granted = refused = 0
    for _ in range(50):
        _, _, r = c.setup_leg(Session(), ntlm.negotiate())
        if r.status == STATUS_MORE_PROCESSING_REQUIRED:
            granted += 1
        else:
            expect_eq(r.status, STATUS_INSUFFICIENT_RESOURCES, "refused setup")
            refused += 1
    expect(1 <= granted <= 16, "%d half-done setups accepted" % granted)
    expect(refused >= 34, "only %d of 50 refused" % refused)
    expect_eq(c.echo().status, STATUS_SUCCESS, "connection alive")
    # Another connection still gets its own.
    d = AuthConn(env.host, env.port, 0x0311)
    st, _, _ = d.login(env.user, env.password)
    expect_eq(st, STATUS_SUCCESS, "login on another connection")
    d.close()
    if env.hold:
        print("holding %d half-done setups" % granted)
        sys.stdout.flush()
        time.sleep(env.hold)
    c.close()


# ---- cases for the configuration of smb2-guest.sh (--config) -------------

CONFIG_CASES, config_case = case_registry()


@config_case
def case_bad_user_is_guest(env):
    for dialect in (0x0210, 0x0311):
        c = AuthConn(env.host, env.port, dialect)
        st, sess, r = c.login("nosuchuser", "whatever")
        expect_eq(st, STATUS_SUCCESS, "unknown user, map to guest")
        expect_eq(sess.flags, SESSION_FLAG_IS_GUEST, "SessionFlags")
        expect(not r.flags & FLAG_SIGNED, "guest session response signed")
        expect_eq(c.tree_connect(sess, "share").status, STATUS_ACCESS_DENIED,
                  "guest on a share without guest ok")
        r = c.tree_connect(sess, "public")
        expect_eq(r.status, STATUS_SUCCESS, "guest on the guest ok share")
        expect(not r.flags & FLAG_SIGNED, "guest response signed")
        expect_eq(c.tree_connect(sess, "IPC$").status, STATUS_SUCCESS, "IPC$")
        c.close()


@config_case
def case_bad_password_not_guest(env):
    c = AuthConn(env.host, env.port, 0x0311)
    st, _, _ = c.login(env.user, "wrong")
    expect_eq(st, STATUS_LOGON_FAILURE, "known user, wrong password")
    c.close()


@config_case
def case_anonymous_refused(env):
    """restrict anonymous = 2."""
    c = AuthConn(env.host, env.port, 0x0311)
    st, sess, _ = c.login(None, None)
    expect_eq(st, STATUS_LOGON_FAILURE, "anonymous logon")
    expect_eq(c.tree_connect(sess, "IPC$").status,
              STATUS_USER_SESSION_DELETED, "refused session is gone")
    c.close()


@config_case
def case_user_on_guest_share(env):
    c, sess, _ = logged_on(env)
    expect_eq(sess.flags, 0, "SessionFlags of a real user")
    expect_eq(c.tree_connect(sess, "public", signed=True).status,
              STATUS_SUCCESS, "user on the guest ok share")
    c.close()


@config_case
def case_max_sessions_per_connection(env):
    c = AuthConn(env.host, env.port, 0x0311)
    sessions = []
    for i in range(env.max_sessions):
        st, sess, _ = c.login(env.user, env.password)
        expect_eq(st, STATUS_SUCCESS, "session %d of %d" % (i + 1, env.max_sessions))
        sessions.append(sess)
    _, _, r = c.setup_leg(Session(), ntlm.negotiate())
    expect_eq(r.status, STATUS_INSUFFICIENT_RESOURCES, "one session too many")
    for sess in sessions:
        expect_eq(c.echo(sess, signed=True).status, STATUS_SUCCESS,
                  "earlier sessions still valid")
    expect_eq(c.logoff(sessions[0], signed=True).status, STATUS_SUCCESS,
              "logoff")
    st, _, _ = c.login(env.user, env.password)
    expect_eq(st, STATUS_SUCCESS, "a session after a logoff made room")
    # The limit is per connection.
    d = AuthConn(env.host, env.port, 0x0311)
    st, _, _ = d.login(env.user, env.password)
    expect_eq(st, STATUS_SUCCESS, "another connection")
    d.close()
    c.close()


@config_case
def case_reauth_other_user_denied(env):
    expect(env.user2, "--user2 not given")
    c, sess, _ = logged_on(env)
    st, _, _ = c.login(env.user2, env.password2, reauth=sess)
    expect_eq(st, STATUS_ACCESS_DENIED, "re-authentication as another user")
    expect_eq(c.tree_connect(sess, "share").status,
              STATUS_USER_SESSION_DELETED, "session after the refusal")
    c.close()


@config_case
def case_reauth_guest_as_user_denied(env):
    c = AuthConn(env.host, env.port, 0x0311)
    st, sess, _ = c.login("nosuchuser", "whatever")
    expect_eq(st, STATUS_SUCCESS, "guest session")
    st, _, _ = c.login("nosuchuser", "other", reauth=sess)
    expect_eq(st, STATUS_SUCCESS, "guest re-authenticates as guest")
    st, _, _ = c.login(env.user, env.password, reauth=sess)
    expect_eq(st, STATUS_ACCESS_DENIED, "guest re-authenticates as a user")
    c.close()


def main():
    def args(ap):
        ap.add_argument("--hold", type=float, default=0,
                        help="half_done_setups_bounded: keep them this long")
        ap.add_argument("--user2", default="")
        ap.add_argument("--password2", default="")
        ap.add_argument("--max-sessions", type=int, default=3)
        ap.add_argument("--config", action="store_true",
                        help="the cases for smb2-guest.sh's configuration")
    return case_main(__doc__, "smb2auth", CASES, args,
                     pick=lambda env: CONFIG_CASES if env.config else CASES)


if __name__ == "__main__":
    sys.exit(main())
