#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Host-side self-test of tests/smb2's pure parts (no server needed): keys,
NTLMv2, signatures and the transform against published vectors (those of
tests/unit/proto/vectors.h: MS-NLMP 4.2.4, Microsoft's SMB 3.0 and 3.1.1
key-derivation examples; RFC 4493 for AES-CMAC) or, where no vector is
published (256-bit keys, AES-GMAC, the NTLM session security keys, the
AEAD), against independent implementations (impacket, cryptography); DER
and SPNEGO round trips; the layout of CREATE, NEGOTIATE and compounds.

    selftest.py [--list] [TEST ...]     (no TEST: all of them)
"""
import os
import re
import struct
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from smb2 import client, create, crypto, ntlm, spnego, wire  # noqa: E402

PREFIX = "smb2-selftest"
TESTS = {}


def test(fn):
    TESTS[fn.__name__[2:].replace("_", "-")] = fn
    return fn


class Failed(AssertionError):
    pass


def same(got, want, what):
    if got != want:
        raise Failed("%s: %s, expected %s" % (
            what, got.hex() if isinstance(got, bytes) else got,
            want.hex() if isinstance(want, bytes) else want))


def vectors():
    """The #defines of tests/unit/proto/vectors.h, as bytes."""
    path = os.path.join(HERE, "..", "unit", "proto", "vectors.h")
    text = open(path).read()
    out = {}
    for m in re.finditer(r'#define\s+(\w+)\s+\\?\s*((?:"[0-9A-Fa-f]*"\s*\\?\s*)+)',
                         text):
        out[m.group(1)] = bytes.fromhex("".join(
            re.findall(r'"([0-9A-Fa-f]*)"', m.group(2))))
    return out


V = vectors()


# ---- KDF and keys ------------------------------------------------------------

@test
def t_kdf_smb30_vectors():
    key = V["KDF30_SESSION_KEY"]
    same(crypto.signing_key(0x0300, key), V["KDF30_SIGNING_KEY"],
         "3.0 signing key")
    same(crypto.encryption_keys(0x0300, crypto.AES128_CCM, key),
         (V["KDF30_SERVER_IN_KEY"], V["KDF30_SERVER_OUT_KEY"]),
         "3.0 ServerIn/ServerOut keys")
    same(crypto.kdf(key, b"SMB2APP\0", b"SmbRpc\0"), V["KDF30_APP_KEY"],
         "3.0 application key")


@test
def t_preauth_chain_smb311():
    h = V["W10_PREAUTH_AFTER_NEGREQ"]
    for msg, after in (("NEGOTIATE_RSP", "NEGRSP"),
                       ("SESS_SETUP_REQ1", "SSREQ1"),
                       ("SESS_SETUP_RSP1", "SSRSP1"),
                       ("SESS_SETUP_REQ2", "SSREQ2")):
        h = crypto.sha512_chain(h, V["W10_" + msg])
        same(h, V["W10_PREAUTH_AFTER_" + after], "hash after " + msg)
    same(crypto.sha512_chain(b"\0" * 64, V["W10_NEGOTIATE_REQ"]),
         V["W10_PREAUTH_AFTER_NEGREQ2"], "hash of a NEGOTIATE from zero")


@test
def t_kdf_smb311_vectors():
    key, h = V["W10_SESSION_KEY"], V["W10_PREAUTH_AFTER_SSREQ2"]
    same(crypto.signing_key(0x0311, key, h), V["W10_SIGNING_KEY"],
         "3.1.1 signing key")
    for cipher in (crypto.AES128_CCM, crypto.AES128_GCM):
        same(crypto.encryption_keys(0x0311, cipher, key, h),
             (V["W10_SERVER_IN_KEY"], V["W10_SERVER_OUT_KEY"]),
             "3.1.1 cipher keys, cipher %d" % cipher)
    same(crypto.kdf(key, b"SMBAppKey\0", h), V["W10_APP_KEY"],
         "3.1.1 application key")


@test
def t_kdf_256_bits():
    from impacket.crypto import KDF_CounterMode
    key, h = bytes(range(16)), bytes(range(64))
    for label in (b"SMBC2SCipherKey\0", b"SMBS2CCipherKey\0"):
        mine = crypto.kdf(key, label, h, 256)
        same(len(mine), 32, "256-bit key length")
        same(mine, KDF_CounterMode(key, label, h, 256)[:32],
             "256-bit %r against impacket" % label)
        # L is an input of the PRF: the 128-bit key is no prefix of it
        if mine[:16] == crypto.kdf(key, label, h, 128):
            raise Failed("128-bit key equals the 256-bit key's prefix")
    c2s, s2c = crypto.encryption_keys(0x0311, crypto.AES256_GCM, key, h)
    same(c2s, crypto.kdf(key, b"SMBC2SCipherKey\0", h, 256), "AES-256 c2s")
    same(s2c, crypto.kdf(key, b"SMBS2CCipherKey\0", h, 256), "AES-256 s2c")


@test
def t_signing_key_smb2():
    same(crypto.signing_key(0x0210, b"k" * 16), b"k" * 16,
         "2.x: the session key itself")
    same(crypto.signing_key(0x0202, b"k" * 8), b"k" * 8 + b"\0" * 8,
         "2.x: a short key padded")


# ---- NTLMv2 (MS-NLMP 4.2.4) ----------------------------------------------------

NLMP_TARGET_INFO = (struct.pack("<HH", 2, 12) + "Domain".encode("utf-16-le") +
                    struct.pack("<HH", 1, 12) + "Server".encode("utf-16-le") +
                    struct.pack("<HH", 0, 0))


def nlmp_field(msg, at):
    n, _, off = struct.unpack_from("<HHI", msg, at)
    return msg[off:off + n]


@test
def t_ntlmv2_vectors():
    same(crypto.nt_hash("Password"), V["NLMP_NT_HASH"], "NTOWFv1")
    owf = ntlm.ntowfv2("User", "Password", "Domain")
    same(owf, V["NLMP_NTOWFV2"], "NTOWFv2")
    blob = ntlm.client_blob(b"\0" * 8, b"\xaa" * 8,
                            NLMP_TARGET_INFO + b"\0" * 4)
    published = nlmp_field(V["NLMP_AUTHENTICATE"], 20)
    same(blob, published[16:], "NTLMv2_CLIENT_CHALLENGE")
    proof, key = ntlm.ntlmv2_proof(owf, V["NLMP_SERVER_CHALLENGE"], blob)
    same(proof, V["NLMP_NTPROOFSTR"], "NTProofStr")
    same(key, V["NLMP_SESSION_BASE_KEY"], "SessionBaseKey")
    same(ntlm.lmv2_response(owf, V["NLMP_SERVER_CHALLENGE"], b"\xaa" * 8),
         nlmp_field(V["NLMP_AUTHENTICATE"], 12), "LMv2 response")


@test
def t_ntlm_authenticate_layout():
    msg, key = ntlm.authenticate("User", "Password", "Domain",
                                 V["NLMP_SERVER_CHALLENGE"], NLMP_TARGET_INFO,
                                 client_challenge=b"\xaa" * 8)
    same(key, V["NLMP_SESSION_BASE_KEY"], "exported key (no KEY_EXCH)")
    same(msg[:12], ntlm.SIG + b"\x03\0\0\0", "signature and type")
    same(nlmp_field(msg, 20), nlmp_field(V["NLMP_AUTHENTICATE"], 20),
         "NtChallengeResponse")
    same(nlmp_field(msg, 28), "Domain".encode("utf-16-le"), "DomainName")
    same(nlmp_field(msg, 36), "User".encode("utf-16-le"), "UserName")
    same(struct.unpack_from("<I", msg, 60)[0], ntlm.FLAGS, "NegotiateFlags")
    anon, none = ntlm.authenticate(None, "", "", b"\0" * 8, b"")
    same(none, None, "anonymous key")
    same((nlmp_field(anon, 12), nlmp_field(anon, 20), nlmp_field(anon, 36)),
         (b"\0", b"", b""), "anonymous LM, NT and user")


@test
def t_ntlm_challenge_parse():
    info = NLMP_TARGET_INFO
    msg = ntlm.SIG + struct.pack("<IHHII8s8sHHI", 2, 12, 12, 56,
                                 ntlm.FLAGS, V["NLMP_SERVER_CHALLENGE"],
                                 b"\0" * 8, len(info), len(info), 68) + \
        b"\0" * 8 + "Domain".encode("utf-16-le") + info
    flags, chal, tinfo = ntlm.parse_challenge(msg)
    same((flags, chal, tinfo), (ntlm.FLAGS, V["NLMP_SERVER_CHALLENGE"], info),
         "CHALLENGE fields")
    same(ntlm.av_pairs(tinfo), {2: "Domain".encode("utf-16-le"),
                                1: "Server".encode("utf-16-le")}, "AV pairs")


@test
def t_ntlm_session_security():
    from impacket import ntlm as ref
    key = V["NLMP_RANDOM_SESSION_KEY"]
    flags = ref.NTLMSSP_NEGOTIATE_EXTENDED_SESSIONSECURITY | \
        ref.NTLMSSP_NEGOTIATE_128
    for mode, direction in (("Client", b"client-to-server"),
                            ("Server", b"server-to-client")):
        same(ntlm.sign_key(key, direction), ref.SIGNKEY(flags, key, mode),
             "SIGNKEY " + mode)
        same(ntlm.seal_key(key, direction), ref.SEALKEY(flags, key, mode),
             "SEALKEY " + mode)
    msg = spnego.mech_types()
    want = ref.MAC(flags, None, ref.SIGNKEY(flags, key), 5, msg).getData()
    same(ntlm.mic(key, b"client-to-server", msg, 5), want, "mechListMIC")


# ---- signing -------------------------------------------------------------------

def sample_request(cmd=wire.ECHO, flags=0, mid=0x1122334455):
    return wire.header(cmd, mid, flags=flags, session=0x77) + \
        struct.pack("<HH", 4, 0)


@test
def t_aes_cmac_rfc4493():
    key = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
    same(crypto.aes_cmac(key, b""),
         bytes.fromhex("bb1d6929e95937287fa37d129b756746"), "empty message")
    same(crypto.aes_cmac(key, bytes.fromhex("6bc1bee22e409f96e93d7e117393172a")),
         bytes.fromhex("070a16b46b4d4144f79bdd9dd04a287c"), "16-byte message")


@test
def t_aes_gmac_nonce_and_tag():
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    key = bytes(range(16))
    for cmd, flags, word in ((wire.ECHO, 0, 0),
                             (wire.ECHO, wire.FLAG_RESPONSE, 1),
                             (wire.CANCEL, 0, 2),
                             (wire.CANCEL, wire.FLAG_RESPONSE, 1)):
        msg = sample_request(cmd, flags)
        nonce = struct.pack("<QI", 0x1122334455, word)
        same(crypto.gmac_nonce(msg), nonce, "nonce of cmd %d flags %d" %
             (cmd, flags))
        same(crypto.aes_gmac(key, msg), AESGCM(key).encrypt(nonce, b"", msg),
             "GMAC against cryptography")


@test
def t_sign_and_verify():
    import hashlib
    import hmac
    key = bytes(range(16))
    for alg in ("hmac", "cmac", "gmac", 0, 1, 2):
        signed = crypto.sign_message(alg, key, sample_request())
        if not struct.unpack_from("<I", signed, 16)[0] & wire.FLAG_SIGNED:
            raise Failed("%r: SMB2_FLAGS_SIGNED not set" % alg)
        if not crypto.signature_valid(alg, key, signed):
            raise Failed("%r: own signature does not verify" % alg)
        bad = bytearray(signed)
        bad[66] ^= 1   # StructureSize
        if crypto.signature_valid(alg, key, bytes(bad)):
            raise Failed("%r: a changed body still verifies" % alg)
    signed = crypto.sign_message("hmac", key, sample_request())
    zeroed = signed[:48] + b"\0" * 16 + signed[64:]
    same(signed[48:64], hmac.new(key, zeroed, hashlib.sha256).digest()[:16],
         "HMAC-SHA256 over the zeroed signature")


# ---- encryption ----------------------------------------------------------------

@test
def t_transform_all_ciphers():
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM
    msg = sample_request()
    for cipher in (crypto.AES128_CCM, crypto.AES128_GCM, crypto.AES256_CCM,
                   crypto.AES256_GCM):
        key = bytes(range(crypto.cipher_bits(cipher) // 8))
        nonce = crypto.make_nonce(cipher, 9)
        frame = crypto.seal(cipher, key, 0x77, msg, nonce)
        tag, got_nonce, size, flags, sid = crypto.transform_fields(frame)
        same((frame[:4], got_nonce, size, flags, sid),
             (wire.TRANSFORM_MAGIC, nonce, len(msg), 1, 0x77),
             "transform header, cipher %d" % cipher)
        same(crypto.unseal(cipher, key, frame), msg, "round trip")
        if crypto.is_ccm(cipher):
            same(nonce[11:], b"\0" * 5, "CCM nonce tail")
            ref = AESCCM(key, tag_length=16).decrypt(nonce[:11],
                                                     frame[52:] + tag,
                                                     frame[20:52])
        else:
            ref = AESGCM(key).decrypt(nonce[:12], frame[52:] + tag,
                                      frame[20:52])
        same(ref, msg, "decrypted by cryptography, cipher %d" % cipher)
        bad = bytearray(frame)
        bad[40] ^= 1   # inside the authenticated header
        try:
            crypto.unseal(cipher, key, bytes(bad))
        except ValueError:
            continue
        raise Failed("a changed transform header still decrypts")


# ---- DER and SPNEGO ------------------------------------------------------------

@test
def t_der_lengths():
    for n, enc in ((0, "00"), (0x7f, "7f"), (0x80, "8180"), (0xff, "81ff"),
                   (0x100, "820100"), (70000, "83011170")):
        same(spnego.der_len(n), bytes.fromhex(enc), "length %d" % n)
        tlv = spnego.der(0x04, b"x" * n)
        same(spnego.der_read(tlv + b"tail", 0), (0x04, b"x" * n, len(tlv)),
             "read back %d" % n)
    same(spnego.der(0x30, b"ab", length=0x200), bytes.fromhex("3082020061 62"
                                                              .replace(" ", "")),
         "a lying length")


@test
def t_spnego_tokens():
    from impacket.spnego import (SPNEGO_NegTokenInit, SPNEGO_NegTokenResp,
                                 TypesMech)
    token = ntlm.negotiate() + b"\x55" * 200
    init = SPNEGO_NegTokenInit(spnego.spnego_init(token))
    ntlm_oid = TypesMech["NTLMSSP - Microsoft NTLM Security Support Provider"]
    same((init["MechToken"], init["MechTypes"]), (token, [ntlm_oid]),
         "NegTokenInit parsed by impacket")
    init = SPNEGO_NegTokenInit(spnego.spnego_init(token, krb5_first=True))
    same(len(init["MechTypes"]), 2, "Kerberos first, then NTLMSSP")
    same(init["MechTypes"][1], ntlm_oid, "NTLMSSP second")
    resp = SPNEGO_NegTokenResp(spnego.spnego_resp(token))
    same(resp["ResponseToken"], token, "NegTokenResp parsed by impacket")
    fields = spnego.spnego_resp_fields(spnego.spnego_resp(token, b"M" * 16))
    same(fields, {2: token, 3: b"M" * 16}, "responseToken and mechListMIC")
    same(spnego.find_ntlmssp(b"junk" + token), token, "NTLMSSP found")


# ---- CREATE --------------------------------------------------------------------

@test
def t_create_layout():
    body = create.create_body("dir\\a.txt", oplock=create.LEVEL_BATCH)
    ss, oplock = struct.unpack_from("<HxB", body, 0)
    name_off, name_len, ctx_off, ctx_len = struct.unpack_from("<HHII", body,
                                                              44)
    same((ss, oplock, name_off, name_len, ctx_off, ctx_len),
         (57, 9, 120, 18, 0, 0), "fixed part without contexts")
    same(body[56:], "dir\\a.txt".encode("utf-16-le"), "name")
    same(len(create.create_body("")), 57, "empty name: one byte of buffer")
    ctxs = create.chain_ctxs([create.create_ctx(b"MxAc", b""),
                              create.lease_ctx(b"K" * 16, 7),
                              create.dh2q(b"G" * 16, 5000)])
    body = create.create_body("abc", ctxs=ctxs)
    name_off, name_len, ctx_off, ctx_len = struct.unpack_from("<HHII", body,
                                                              44)
    same((ctx_off % 8, ctx_off + ctx_len), (0, 64 + len(body)),
         "contexts aligned and last")
    pos, seen = ctx_off - 64, []
    while True:
        nxt, noff, nlen, _, doff, dlen = struct.unpack_from("<IHHHHI", body,
                                                            pos)
        seen.append((body[pos + noff:pos + noff + nlen], doff, dlen))
        if nxt % 8:
            raise Failed("Next %d not 8-aligned" % nxt)
        if not nxt:
            break
        pos += nxt
    same(seen, [(b"MxAc", 0, 0), (b"RqLs", 24, 52), (b"DH2Q", 24, 32)],
         "contexts walked by Next")


@test
def t_created_parse():
    ctxs = create.chain_ctxs([create.create_ctx(b"MxAc", b"\0" * 8),
                              create.create_ctx(b"QFid", b"q" * 32)])
    fixed = struct.pack("<HBBIQQQQQQIIQQII", 89, 9, 0, 2, 0, 0, 0, 0, 4096,
                        10, 0x20, 0, 0x11, 0x22, 64 + 88, len(ctxs))
    cr = create.Created(wire.Response(wire.header(wire.CREATE, 1) + fixed +
                                      ctxs))
    same((cr.oplock, cr.action, cr.eof, cr.fid), (9, 2, 10, (0x11, 0x22)),
         "fields")
    same(cr.contexts, {b"MxAc": b"\0" * 8, b"QFid": b"q" * 32}, "contexts")
    same(create.fid_bytes(cr.fid), cr.fid_bytes, "FileId bytes")


# ---- framing -------------------------------------------------------------------

@test
def t_negotiate_body():
    ctxs = [wire.preauth_ctx(), wire.signing_ctx(), wire.encryption_ctx([2])]
    body = wire.negotiate_body([0x0210, 0x0300, 0x0311], ctxs)
    ss, count, _, _, caps, _, off, nctx = struct.unpack_from(
        "<HHHHI16sIH", body, 0)
    same((ss, count, caps, off % 8, nctx), (36, 3, 0x7f, 0, 3),
         "fixed part")
    pos, types = off - 64, []
    for _ in range(nctx):
        ctype, dlen = struct.unpack_from("<HH", body, pos)
        types.append(ctype)
        pos += 8 + dlen
        pos += (8 - pos % 8) % 8
    same(types, [1, 8, 2], "context types in order")
    same(len(wire.negotiate_body([0x0210])), 36 + 2, "2.1 without contexts")


@test
def t_compound_frame():
    msgs = [sample_request(mid=1), sample_request(mid=2) + b"x",
            sample_request(mid=3)]
    frame = wire.compound_frame(msgs)
    rs = wire.split_compound(frame)
    same([r.mid for r in rs], [1, 2, 3], "MessageIds")
    same([r.next for r in rs], [72, 72, 0], "NextCommand, padded to 8")
    same(rs[1].body, struct.pack("<HH", 4, 0) + b"x" + b"\0" * 3,
         "second element with its padding")


@test
def t_cancel_frame():
    r = wire.Response(wire.cancel_frame(5, 9, 7, aid=0x0000000300000004))
    same((r.command, r.flags, r.mid, r.async_id, r.session),
         (wire.CANCEL, wire.FLAG_ASYNC, 5, 0x0000000300000004, 7),
         "async CANCEL")
    r = wire.Response(wire.cancel_frame(5, 9, 7))
    same((r.flags, r.tree), (0, 9), "sync CANCEL")


@test
def t_lock_and_notify_bodies():
    body = client.lock_body((1, 2), [(10, 5, client.LOCK_EXCLUSIVE)])
    same(struct.unpack_from("<HHI16sQQII", body, 0),
         (48, 1, 0, struct.pack("<QQ", 1, 2), 10, 5, 2, 0), "LOCK")
    same(len(client.notify_body(b"f" * 16, 1, flags=1)), 32, "CHANGE_NOTIFY")


def main(argv):
    if "--list" in argv:
        print("\n".join(TESTS))
        return 0
    names = [a for a in argv if not a.startswith("-")] or list(TESTS)
    failed = 0
    for name in names:
        try:
            if name not in TESTS:
                raise KeyError("no such test")
            TESTS[name]()
            print("PASS: %s/%s" % (PREFIX, name))
        except Exception as e:  # a crashing test is a failing test
            failed += 1
            print("FAIL: %s/%s: %s: %s" % (PREFIX, name, type(e).__name__, e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
