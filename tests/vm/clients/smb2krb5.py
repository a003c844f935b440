#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Kerberos SESSION_SETUP with an AP-REQ built here (impacket's krb5 ASN.1
and crypto, on top of tests/smb2's AuthConn), so the ticket and the
authenticator are under the test's control: a valid logon, then the
hostile ones that must end in STATUS_LOGON_FAILURE.

Tickets come from the KDC (a TGT for --user, then a service ticket for
cifs/--host) or are forged with a service key read from --keytab
(klist -kK), as a KDC would have made them.

Cases:
  valid            fresh ticket and authenticator: SUCCESS, and the
                   response's signature checks out with the AP-REP subkey
  replay           the same AP-REQ bytes on a second connection
  expired          forged ticket whose endtime is an hour past
  skew             KDC ticket, authenticator ctime an hour back
  wrong_principal  KDC ticket for --other (a service not in the keytab)
  wrong_key        forged ticket for our service, encrypted with a key
                   that is not the service's
  after            a valid logon again: the server still serves

CLI: smb2krb5.py [--host H] [--port P] [--realm R] [--kdc IP]
                 [--user U --password PW] [--keytab PATH] [--other SPN]
                 [CASE ...]
"""
import datetime
import os
import random
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from smb2.client import AuthConn, Session, signature_ok  # noqa: E402
from smb2.crypto import kdf  # noqa: E402
from smb2.runner import case_main, case_registry  # noqa: E402
from smb2.spnego import (der, der_read, spnego_init,  # noqa: E402
                         spnego_resp_fields)
from smb2.wire import (FLAG_SIGNED, STATUS_LOGON_FAILURE,  # noqa: E402
                       STATUS_SUCCESS, expect, expect_eq)

from pyasn1.codec.der import decoder, encoder  # noqa: E402
from pyasn1.type.univ import noValue  # noqa: E402
from impacket.krb5 import constants  # noqa: E402
from impacket.krb5 import kerberosv5  # noqa: E402
from impacket.krb5.asn1 import (AP_REP, AP_REQ, AS_REP,  # noqa: E402
                                Authenticator, EncAPRepPart, EncTGSRepPart,
                                EncTicketPart, TGS_REP, TGS_REQ, seq_set,
                                seq_set_iter)
from impacket.krb5.crypto import (Cksumtype, Key,  # noqa: E402
                                  _checksum_table, _enctype_table)
from impacket.krb5.kerberosv5 import getKerberosTGT  # noqa: E402
from impacket.krb5.types import KerberosTime, Principal  # noqa: E402

# MIT's KDC seals the AS-REP's encrypted part with the EncTGSRepPart tag
# (RFC 4120 5.4.2 tells clients to accept either); impacket 0.10 insists
# on EncASRepPart. The two have the same fields.
kerberosv5.EncASRepPart = EncTGSRepPart

AES256 = 18
GSS_KRB5_OID = bytes.fromhex("06092a864886f712010202")
# RFC 4121 4.1.1: the authenticator checksum type of the GSS mechanism and
# its flags (mutual, replay, sequence, confidentiality, integrity).
GSS_CHECKSUM = 0x8003
GSS_FLAGS = 0x02 | 0x04 | 0x08 | 0x10 | 0x20
AP_OPT_MUTUAL = 2
# RFC 4120 7.5.1 key usages.
KU_TICKET, KU_TGS_REQ_CKSUM, KU_TGS_REQ_AUTH, KU_TGS_REP = 2, 6, 7, 8
KU_AP_REQ_AUTH, KU_AP_REP = 11, 12


def utcnow():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


class Ticket:
    """A service ticket (the asn1 Ticket) and its session key."""

    def __init__(self, asn1, key):
        self.asn1 = asn1
        self.key = key


def client_name(env):
    return Principal(env.user,
                     type=constants.PrincipalNameType.NT_PRINCIPAL.value)


def authenticator(env, when, cksumtype, checksum):
    auth = Authenticator()
    auth["authenticator-vno"] = 5
    auth["crealm"] = env.realm
    seq_set(auth, "cname", client_name(env).components_to_asn1)
    auth["cksum"] = noValue
    auth["cksum"]["cksumtype"] = cksumtype
    auth["cksum"]["checksum"] = checksum
    auth["cusec"] = when.microsecond
    auth["ctime"] = KerberosTime.to_asn1(when)
    auth["seq-number"] = random.getrandbits(31)
    return auth


def ap_req_msg(ticket, key, auth, usage, options):
    """An AP-REQ (DER) presenting ticket (asn1) with auth sealed in key."""
    cipher = _enctype_table[key.enctype]
    req = AP_REQ()
    req["pvno"] = 5
    req["msg-type"] = int(constants.ApplicationTagNumbers.AP_REQ.value)
    req["ap-options"] = constants.encodeFlags(options)
    # The Ticket's own tag differs between the messages that carry one:
    # copy its fields.
    dst = req.setComponentByName("ticket").getComponentByName("ticket")
    for name in ("tkt-vno", "realm", "sname", "enc-part"):
        dst.setComponentByName(name, ticket.getComponentByName(name))
    req["authenticator"] = noValue
    req["authenticator"]["etype"] = cipher.enctype
    req["authenticator"]["cipher"] = cipher.encrypt(
        key, usage, encoder.encode(auth), None)
    return encoder.encode(req)


def kdc_tgt(env):
    """(AS-REP, its cipher, TGT session key) for env.user, asked once."""
    if getattr(env, "tgt", None) is None:
        rep, cipher, _, key = getKerberosTGT(client_name(env), env.password,
                                             env.realm, b"", b"",
                                             kdcHost=env.kdc)
        env.tgt = (decoder.decode(rep, asn1Spec=AS_REP())[0], cipher, key)
    return env.tgt


def kdc_ticket(env, service):
    """A service ticket for service, asked once per service: every AP-REQ
    still gets a fresh authenticator. The TGS-REQ is ours: MIT's KDC wants
    the authenticator's checksum over the request body, which impacket
    0.10's getKerberosTGS leaves out."""
    if not hasattr(env, "tickets"):
        env.tickets = {}
    if service not in env.tickets:
        env.tickets[service] = tgs_exchange(env, service)
    return env.tickets[service]


def tgs_exchange(env, service):
    tgt, cipher, tgt_key = kdc_tgt(env)
    req = TGS_REQ()
    req["pvno"] = 5
    req["msg-type"] = int(constants.ApplicationTagNumbers.TGS_REQ.value)
    body = seq_set(req, "req-body")
    body["kdc-options"] = constants.encodeFlags([])
    seq_set(body, "sname", Principal(
        service, type=constants.PrincipalNameType.NT_SRV_INST.value
    ).components_to_asn1)
    body["realm"] = env.realm
    body["till"] = KerberosTime.to_asn1(utcnow() + datetime.timedelta(hours=1))
    body["nonce"] = random.getrandbits(31)
    seq_set_iter(body, "etype", (AES256,))
    # The checksum covers KDC-REQ-BODY itself, without the [4] wrapper.
    _, plain_body, _ = der_read(encoder.encode(body), 0)
    cks = _checksum_table[Cksumtype.SHA1_AES256].checksum(
        tgt_key, KU_TGS_REQ_CKSUM, plain_body)
    auth = authenticator(env, utcnow(), Cksumtype.SHA1_AES256, cks)
    req["padata"] = noValue
    req["padata"][0] = noValue
    req["padata"][0]["padata-type"] = \
        int(constants.PreAuthenticationDataTypes.PA_TGS_REQ.value)
    req["padata"][0]["padata-value"] = ap_req_msg(
        tgt["ticket"], tgt_key, auth, KU_TGS_REQ_AUTH, [])
    rep = kerberosv5.sendReceive(encoder.encode(req), env.realm, env.kdc)
    tgs = decoder.decode(rep, asn1Spec=TGS_REP())[0]
    plain = cipher.decrypt(tgt_key, KU_TGS_REP,
                           tgs["enc-part"]["cipher"].asOctets())
    part = decoder.decode(plain, asn1Spec=EncTGSRepPart())[0]
    return Ticket(tgs["ticket"], Key(int(part["key"]["keytype"]),
                                     part["key"]["keyvalue"].asOctets()))


def keytab_key(path, principal):
    """(kvno, aes256 key) of principal in the keytab at path."""
    out = subprocess.run(["klist", "-k", "-t", "-e", "-K", path],
                         capture_output=True, text=True, check=True).stdout
    best = None
    pat = re.compile(r"^\s*(\d+)\s.*\s(\S+@\S+)\s+\(aes256-cts-hmac-sha1-96\)"
                     r"\s+\(0x([0-9a-fA-F]+)\)")
    for line in out.splitlines():
        m = pat.match(line)
        if m and m.group(2) == principal:
            kvno = int(m.group(1))
            if best is None or kvno > best[0]:
                best = (kvno, bytes.fromhex(m.group(3)))
    expect(best is not None, "no aes256 key of %s in %s" % (principal, path))
    return best


def forged_ticket(env, service, key, kvno, start, end):
    """A ticket for service/env.host made as a KDC would, sealed with key
    (an aes256 Key) at kvno, valid from start to end."""
    session = Key(AES256, os.urandom(32))
    part = EncTicketPart()
    part["flags"] = constants.encodeFlags([])
    part["key"] = noValue
    part["key"]["keytype"] = AES256
    part["key"]["keyvalue"] = session.contents
    part["crealm"] = env.realm
    seq_set(part, "cname", client_name(env).components_to_asn1)
    part["transited"] = noValue
    part["transited"]["tr-type"] = 0
    part["transited"]["contents"] = b""
    part["authtime"] = KerberosTime.to_asn1(start)
    part["starttime"] = KerberosTime.to_asn1(start)
    part["endtime"] = KerberosTime.to_asn1(end)
    sealed = _enctype_table[AES256].encrypt(key, KU_TICKET,
                                            encoder.encode(part), None)
    # Borrow the asn1 Ticket shape from an AP_REQ.
    req = AP_REQ()
    tkt = req["ticket"]
    tkt["tkt-vno"] = 5
    tkt["realm"] = env.realm
    seq_set(tkt, "sname", Principal(
        "%s/%s" % (service, env.host),
        type=constants.PrincipalNameType.NT_SRV_INST.value
    ).components_to_asn1)
    tkt["enc-part"] = noValue
    tkt["enc-part"]["etype"] = AES256
    tkt["enc-part"]["kvno"] = kvno
    tkt["enc-part"]["cipher"] = sealed
    return Ticket(tkt, session)


def gss_checksum():
    # Lgth, Bnd (no channel bindings: zeros), Flags.
    return struct.pack("<I", 16) + b"\0" * 16 + struct.pack("<I", GSS_FLAGS)


def ap_req(env, ticket, when=None):
    """The GSS krb5 initial context token (RFC 4121 4.1) for ticket, with
    an authenticator made at when (now by default)."""
    auth = authenticator(env, when or utcnow(), GSS_CHECKSUM, gss_checksum())
    msg = ap_req_msg(ticket.asn1, ticket.key, auth, KU_AP_REQ_AUTH,
                     [AP_OPT_MUTUAL])
    return der(0x60, GSS_KRB5_OID + b"\x01\x00" + msg)


def spnego_ap_req(env, ticket, when=None):
    return spnego_init(ap_req(env, ticket, when), krb5_first=True)


def setup(env, blob):
    """(status, connection, request, raw response) of one SESSION_SETUP."""
    c = AuthConn(env.host, env.port, 0x0311)
    req, raw, r = c.setup_leg(Session(), blob)
    return r.status, c, req, raw, r


def acceptor_subkey(ticket, raw, r):
    """The key of the session: the subkey in the AP-REP inside the
    response's NegTokenResp (MIT's acceptor always sends one)."""
    boff, blen = struct.unpack_from("<HH", r.body, 4)
    fields = spnego_resp_fields(raw[boff:boff + blen])
    tok = fields.get(2)
    expect(tok is not None, "no responseToken in the NegTokenResp")
    tag, inner, _ = der_read(tok, 0)
    expect_eq(tag, 0x60, "GSS token tag")
    expect(inner.startswith(GSS_KRB5_OID + b"\x02\x00"), "not a krb5 AP-REP")
    rep = decoder.decode(inner[len(GSS_KRB5_OID) + 2:], asn1Spec=AP_REP())[0]
    cipher = _enctype_table[ticket.key.enctype]
    plain = cipher.decrypt(ticket.key, KU_AP_REP,
                           rep["enc-part"]["cipher"].asOctets())
    part = decoder.decode(plain, asn1Spec=EncAPRepPart())[0]
    if part["subkey"].hasValue():
        return part["subkey"]["keyvalue"].asOctets()
    return ticket.key.contents


def check_valid(env, ticket=None, when=None):
    """A logon that must succeed; its response must be signed with the key
    derived from the session key we computed on our side."""
    ticket = ticket or kdc_ticket(env, "cifs/" + env.host)
    blob = spnego_ap_req(env, ticket, when)
    st, c, req, raw, r = setup(env, blob)
    expect_eq(st, STATUS_SUCCESS, "session setup")
    key = acceptor_subkey(ticket, raw, r)[:16]
    key = key + b"\0" * (16 - len(key))
    sess = Session()
    sess.id = r.session
    sess.alg = c.signing_alg
    sess.sign_key = kdf(key, b"SMBSigningKey\0",
                                 c.chain(c.preauth, req))
    expect(r.flags & FLAG_SIGNED, "final response not signed")
    expect(signature_ok(sess, raw), "response signature")
    expect_eq(c.logoff(sess, signed=True).status, STATUS_SUCCESS, "logoff")
    c.close()
    return blob


def refused(env, blob, what):
    st, c, _, _, r = setup(env, blob)
    expect_eq(st, STATUS_LOGON_FAILURE, what)
    expect_eq(r.session, 0, "session id on a refused logon")
    c.close()


CASES, case = case_registry()


@case
def case_valid(env):
    check_valid(env)


@case
def case_replay(env):
    ticket = kdc_ticket(env, "cifs/" + env.host)
    blob = spnego_ap_req(env, ticket)
    st, c, _, _, _ = setup(env, blob)
    expect_eq(st, STATUS_SUCCESS, "first use of the AP-REQ")
    c.close()
    refused(env, blob, "the same AP-REQ again")


@case
def case_expired(env):
    kvno, raw = keytab_key(env.keytab, "cifs/%s@%s" % (env.host, env.realm))
    now = utcnow()
    ticket = forged_ticket(env, "cifs", Key(AES256, raw), kvno,
                           now - datetime.timedelta(hours=3),
                           now - datetime.timedelta(hours=1))
    refused(env, spnego_ap_req(env, ticket), "expired ticket")
    # The same forgery with a live endtime is taken: the endtime alone
    # made the difference.
    ticket = forged_ticket(env, "cifs", Key(AES256, raw), kvno,
                           now - datetime.timedelta(minutes=5),
                           now + datetime.timedelta(hours=1))
    check_valid(env, ticket)


@case
def case_skew(env):
    ticket = kdc_ticket(env, "cifs/" + env.host)
    refused(env, spnego_ap_req(env, ticket,
                               utcnow() - datetime.timedelta(hours=1)),
            "authenticator an hour old")


@case
def case_wrong_principal(env):
    ticket = kdc_ticket(env, env.other)
    refused(env, spnego_ap_req(env, ticket), "ticket for " + env.other)


@case
def case_wrong_key(env):
    kvno, _ = keytab_key(env.keytab, "cifs/%s@%s" % (env.host, env.realm))
    now = utcnow()
    ticket = forged_ticket(env, "cifs", Key(AES256, os.urandom(32)), kvno,
                           now - datetime.timedelta(minutes=5),
                           now + datetime.timedelta(hours=1))
    refused(env, spnego_ap_req(env, ticket), "ticket under a wrong key")


@case
def case_after(env):
    check_valid(env)


def main():
    def args(ap):
        ap.add_argument("--realm", default="KSMBD.TEST")
        ap.add_argument("--kdc", default="127.0.0.1")
        ap.add_argument("--keytab", default="/etc/krb5.keytab")
        ap.add_argument("--other", default="cifs/other.host")
    return case_main(__doc__, "smb2krb5", CASES, args)


if __name__ == "__main__":
    sys.exit(main())
