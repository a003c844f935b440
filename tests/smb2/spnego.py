# SPDX-License-Identifier: GPL-2.0-or-later
"""DER and the SPNEGO tokens (RFC 4178, MS-SPNG) the session setup carries,
by hand: hostile cases need DER that lies about its lengths."""
from . import wire

# The OIDs as complete DER TLVs (tag 06)
SPNEGO_OID = bytes.fromhex("06062b0601050502")
NTLMSSP_OID = bytes.fromhex("060a2b06010401823702020a")
KRB5_OID = bytes.fromhex("06092a864886f712010202")


def der_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag, body, length=None):
    """A TLV; length, when given, is written instead of len(body)."""
    return bytes([tag]) + der_len(len(body) if length is None else length) \
        + body


def der_read(b, pos):
    """(tag, value, next position) of the TLV at pos."""
    tag, n = b[pos], b[pos + 1]
    pos += 2
    if n & 0x80:
        k = n & 0x7f
        n = int.from_bytes(b[pos:pos + k], "big")
        pos += k
    return tag, b[pos:pos + n], pos + n


def mech_types(krb5_first=False):
    """The DER MechTypeList, which the SPNEGO mechListMIC covers."""
    return der(0x30, (KRB5_OID if krb5_first else b"") + NTLMSSP_OID)


def spnego_init(token, krb5_first=False):
    """A NegTokenInit in its GSS-API InitialContextToken wrapper."""
    mechs = der(0xa0, mech_types(krb5_first))
    tok = der(0xa2, der(0x04, token))
    return der(0x60, SPNEGO_OID + der(0xa0, der(0x30, mechs + tok)))


def spnego_resp(token, mic=None):
    """A NegTokenResp carrying token (and a mechListMIC)."""
    body = der(0xa2, der(0x04, token))
    if mic is not None:
        body += der(0xa3, der(0x04, mic))
    return der(0xa1, der(0x30, body))


def spnego_resp_fields(blob):
    """{context tag number: inner value} of a NegTokenResp."""
    tag, seq, _ = der_read(blob, 0)
    wire.expect_eq(tag, 0xa1, "NegTokenResp tag")
    tag, body, _ = der_read(seq, 0)
    wire.expect_eq(tag, 0x30, "NegTokenResp sequence")
    out, pos = {}, 0
    while pos < len(body):
        tag, val, pos = der_read(body, pos)
        out[tag & 0x1f] = der_read(val, 0)[1]
    return out


def find_ntlmssp(blob):
    """The NTLMSSP message inside a security blob, from its signature on."""
    at = blob.find(b"NTLMSSP\0")
    wire.expect(at >= 0, "no NTLMSSP message in the security blob")
    return blob[at:]
