# SPDX-License-Identifier: GPL-2.0-or-later
"""Keys, signatures and encryption of SMB 2/3 (MS-SMB2 3.1.4), computed
here from the specifications so that a server that accepts our requests
and whose answers verify derived the same keys.

Cryptodome (python3-pycryptodomex) supplies the block ciphers and MD4."""
import hashlib
import hmac
import os
import struct

from . import wire


# Cryptodome is imported on first use: its C modules take seconds to load
# in a TCG guest, and clients that only frame requests (started in the
# background by case files that then wait for their connections) need none.
def _aes():
    from Cryptodome.Cipher import AES
    return AES

# SigningAlgorithmId (MS-SMB2 2.2.3.1.7) and their names in Session.alg
SIGN_HMAC_SHA256, SIGN_AES_CMAC, SIGN_AES_GMAC = 0, 1, 2
SIGNING_NAMES = {0: "hmac", 1: "cmac", 2: "gmac"}
SIGNING_IDS = {v: k for k, v in SIGNING_NAMES.items()}

# Cipher ids (MS-SMB2 2.2.3.1.2)
AES128_CCM, AES128_GCM, AES256_CCM, AES256_GCM = 1, 2, 3, 4
CIPHER_NAMES = {1: "AES-128-CCM", 2: "AES-128-GCM", 3: "AES-256-CCM",
                4: "AES-256-GCM"}
TRANSFORM = struct.Struct("<4s16s16sIHHQ")  # MS-SMB2 2.2.41
assert TRANSFORM.size == 52


def hmac_md5(key, data):
    return hmac.new(key, data, hashlib.md5).digest()


def nt_hash(password):
    from Cryptodome.Hash import MD4
    return MD4.new(password.encode("utf-16-le")).digest()


def sha512_chain(h, msg):
    """One step of the 3.1.1 preauth integrity hash (MS-SMB2 3.2.5.2)."""
    return hashlib.sha512(h + msg).digest()


def kdf(key, label, context, bits=128):
    """SP800-108 counter mode with HMAC-SHA256, one PRF block, L = bits
    (MS-SMB2 3.1.4.2). label and context as MS-SMB2 lists them, with
    their terminating NULs."""
    msg = struct.pack(">I", 1) + label + b"\0" + context + \
        struct.pack(">I", bits)
    return hmac.new(key, msg, hashlib.sha256).digest()[:bits // 8]


def signing_key(dialect, session_key, preauth=None):
    """Session.SigningKey (MS-SMB2 3.2.5.3.1); preauth for 3.1.1."""
    if dialect < 0x0300:
        return session_key[:16].ljust(16, b"\0")
    if dialect == 0x0311:
        return kdf(session_key, b"SMBSigningKey\0", preauth)
    return kdf(session_key, b"SMB2AESCMAC\0", b"SmbSign\0")


def cipher_bits(cipher):
    return 256 if cipher in (AES256_CCM, AES256_GCM) else 128


def encryption_keys(dialect, cipher, session_key, preauth=None):
    """(client-to-server key, server-to-client key) (MS-SMB2 3.2.5.3.1);
    256-bit ciphers take 32-byte keys from the KDF."""
    bits = cipher_bits(cipher)
    if dialect == 0x0311:
        return (kdf(session_key, b"SMBC2SCipherKey\0", preauth, bits),
                kdf(session_key, b"SMBS2CCipherKey\0", preauth, bits))
    return (kdf(session_key, b"SMB2AESCCM\0", b"ServerIn \0", bits),
            kdf(session_key, b"SMB2AESCCM\0", b"ServerOut\0", bits))


# ---- signing -----------------------------------------------------------------

def gmac_nonce(msg):
    """MS-SMB2 3.1.4.1: MessageId, then bit 0 = from the server, bit 1 =
    a CANCEL request."""
    (cmd,) = struct.unpack_from("<H", msg, 12)
    (flags,) = struct.unpack_from("<I", msg, 16)
    server = flags & wire.FLAG_RESPONSE
    word = (1 if server else 0) | \
        (2 if cmd == wire.CANCEL and not server else 0)
    return msg[24:32] + struct.pack("<I", word)


def aes_cmac(key, data):
    from Cryptodome.Hash import CMAC
    c = CMAC.new(key, ciphermod=_aes())
    c.update(data)
    return c.digest()


def aes_gmac(key, msg):
    """AES-GMAC: GCM over no plaintext with the message as associated
    data."""
    aes = _aes()
    g = aes.new(key, aes.MODE_GCM, nonce=gmac_nonce(msg), mac_len=16)
    g.update(msg)
    return g.digest()


def mac(alg, key, data):
    """The 16-byte signature of data (its Signature field zeroed) under
    alg: a name of SIGNING_NAMES or a SigningAlgorithmId."""
    alg = SIGNING_NAMES.get(alg, alg)
    if alg == "hmac":
        return hmac.new(key, data, hashlib.sha256).digest()[:16]
    if alg == "gmac":
        return aes_gmac(key, data)
    if alg == "cmac":
        return aes_cmac(key, data)
    raise ValueError("unknown signing algorithm %r" % (alg,))


def sign_message(alg, key, msg):
    """msg (one message of a compound, padding included) with
    SMB2_FLAGS_SIGNED set and its Signature filled in."""
    msg = bytearray(msg)
    flags = struct.unpack_from("<I", msg, 16)[0] | wire.FLAG_SIGNED
    struct.pack_into("<I", msg, 16, flags)
    msg[48:64] = b"\0" * 16
    msg[48:64] = mac(alg, key, bytes(msg))
    return bytes(msg)


def signature_valid(alg, key, raw):
    zeroed = raw[:48] + b"\0" * 16 + raw[64:]
    return hmac.compare_digest(mac(alg, key, zeroed), raw[48:64])


# ---- encryption (MS-SMB2 3.1.4.3, 2.2.41) ------------------------------------

def is_ccm(cipher):
    return cipher in (AES128_CCM, AES256_CCM)


def aead(cipher, key, nonce):
    """The AEAD of cipher over the transform's Nonce field (CCM uses its
    first 11 bytes, GCM its first 12)."""
    aes = _aes()
    if is_ccm(cipher):
        return aes.new(key, aes.MODE_CCM, nonce=nonce[:11], mac_len=16)
    return aes.new(key, aes.MODE_GCM, nonce=nonce[:12], mac_len=16)


def make_nonce(cipher, counter):
    """A nonce that never repeats within a connection: random, then a
    counter; CCM's tail past its 11 bytes is zero."""
    nonce = os.urandom(4) + struct.pack("<Q", counter) + b"\0" * 4
    return nonce[:11] + b"\0" * 5 if is_ccm(cipher) else nonce


def seal(cipher, key, session_id, msg, nonce, flags=1):
    """msg in a TRANSFORM_HEADER: the AEAD authenticates the header from
    Nonce on and encrypts msg; flags = 1 (Encrypted)."""
    hdr = TRANSFORM.pack(wire.TRANSFORM_MAGIC, b"\0" * 16, nonce, len(msg),
                         0, flags, session_id)
    c = aead(cipher, key, nonce)
    c.update(hdr[20:])
    ct, tag = c.encrypt_and_digest(msg)
    return hdr[:4] + tag + hdr[20:] + ct


def transform_fields(frame):
    """(signature, nonce, OriginalMessageSize, Flags, SessionId)."""
    (_, tag, nonce, size, _, flags, sid) = TRANSFORM.unpack_from(frame)
    return tag, nonce, size, flags, sid


def unseal(cipher, key, frame):
    """The message inside a transform frame; ValueError when the
    signature does not verify."""
    tag, nonce, _, _, _ = transform_fields(frame)
    c = aead(cipher, key, nonce)
    c.update(frame[20:52])
    return c.decrypt_and_verify(frame[52:], tag)
