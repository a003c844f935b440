# SPDX-License-Identifier: GPL-2.0-or-later
"""NTLMv2 (MS-NLMP): NEGOTIATE, CHALLENGE parsing, AUTHENTICATE with an
NTLMv2 response, and the session security keys and MAC."""
import hashlib
import os
import struct

from . import wire
from .crypto import hmac_md5, nt_hash

SIG = b"NTLMSSP\0"
# UNICODE, REQUEST_TARGET, SIGN, NTLM, ALWAYS_SIGN, EXTENDED_SESSIONSECURITY,
# TARGET_INFO, 128: no KEY_EXCH, so the exported key is the base key.
FLAGS = 0x00000001 | 0x00000004 | 0x00000010 | 0x00000200 | \
    0x00008000 | 0x00080000 | 0x00800000 | 0x20000000
AV_EOL, AV_NB_COMPUTER, AV_NB_DOMAIN, AV_TIMESTAMP = 0, 1, 2, 7


def ntowfv2(user, password, domain):
    """MS-NLMP 3.3.2 NTOWFv2."""
    return hmac_md5(nt_hash(password),
                    (user.upper() + domain).encode("utf-16-le"))


def client_blob(timestamp, client_challenge, av_list):
    """The NTLMv2_CLIENT_CHALLENGE (MS-NLMP 2.2.2.7) the proof covers;
    av_list is the AV_PAIR list (with its MsvAvEOL) plus any padding."""
    return b"\x01\x01" + b"\0" * 6 + timestamp + client_challenge + \
        b"\0" * 4 + av_list


def ntlmv2_proof(owf, server_challenge, blob):
    """(NTProofStr, SessionBaseKey) (MS-NLMP 3.3.2)."""
    proof = hmac_md5(owf, server_challenge + blob)
    return proof, hmac_md5(owf, proof)


def lmv2_response(owf, server_challenge, client_challenge):
    return hmac_md5(owf, server_challenge + client_challenge) + \
        client_challenge


def sign_key(key, direction):
    """MS-NLMP 3.4.5.2 SIGNKEY (extended session security); direction is
    b"client-to-server" or b"server-to-client"."""
    magic = b"session key to %s signing key magic constant\0" % direction
    return hashlib.md5(key + magic).digest()


def seal_key(key, direction):
    """MS-NLMP 3.4.5.3 SEALKEY with NEGOTIATE_128 (the whole key)."""
    magic = b"session key to %s sealing key magic constant\0" % direction
    return hashlib.md5(key + magic).digest()


def mic(key, direction, msg, seq=0):
    """MS-NLMP 3.4.4.2 MAC without KEY_EXCH (our FLAGS): the checksum
    goes out without RC4."""
    seqb = struct.pack("<I", seq)
    check = hmac_md5(sign_key(key, direction), seqb + msg)[:8]
    return struct.pack("<I", 1) + check + seqb


def negotiate(flags=FLAGS):
    return SIG + struct.pack("<II", 1, flags) + b"\0" * 16


def parse_challenge(msg):
    """(flags, server challenge, TargetInfo) of a CHALLENGE message."""
    wire.expect_eq(msg[:8], SIG, "CHALLENGE signature")
    (mtype,) = struct.unpack_from("<I", msg, 8)
    wire.expect_eq(mtype, 2, "NTLMSSP message type")
    (flags,) = struct.unpack_from("<I", msg, 20)
    challenge = msg[24:32]
    tlen, _, toff = struct.unpack_from("<HHI", msg, 40)
    wire.expect(toff + tlen <= len(msg), "TargetInfo past the message")
    return flags, challenge, msg[toff:toff + tlen]


def av_pairs(info):
    out, pos = {}, 0
    while pos + 4 <= len(info):
        aid, alen = struct.unpack_from("<HH", info, pos)
        if aid == AV_EOL:
            break
        out[aid] = info[pos + 4:pos + 4 + alen]
        pos += 4 + alen
    return out


def authenticate(user, password, domain, challenge, target_info,
                 flags=FLAGS, av_list=None, workstation="WS",
                 client_challenge=None):
    """AUTHENTICATE with an NTLMv2 response; returns (message, session key).
    user None: anonymous (MS-NLMP 3.2.5.1.2: empty user and NT response,
    LM Z(1)), and no key. av_list: these bytes instead of the AV_PAIR list
    (the server's target info and padding) in the client's blob, which
    the proof still covers."""
    ws = workstation.encode("utf-16-le")
    if user is None:
        fields = [b"\0", b"", b"", b"", ws, b""]
        key = None
    else:
        owf = ntowfv2(user, password, domain)
        ts = av_pairs(target_info).get(AV_TIMESTAMP) or struct.pack("<Q", 0)
        if av_list is None:
            av_list = target_info + b"\0" * 4
        blob = client_blob(ts, client_challenge or os.urandom(8), av_list)
        proof, key = ntlmv2_proof(owf, challenge, blob)
        fields = [b"\0" * 24, proof + blob, domain.encode("utf-16-le"),
                  user.encode("utf-16-le"), ws, b""]
    off = 88  # fixed part, Version and MIC
    hdr, payload = b"", b""
    for f in fields:
        hdr += struct.pack("<HHI", len(f), len(f), off + len(payload))
        payload += f
    msg = SIG + struct.pack("<I", 3) + hdr + struct.pack("<I", flags) + \
        b"\0" * 8 + b"\0" * 16 + payload
    return msg, key
