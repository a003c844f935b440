#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the seeds of the krb5 fuzz target (tests/fuzz/corpus/krb5/):
SPNEGO tokens with AP-REQs forged (tests/vm/clients/smb2krb5.py) for the
key fuzz_krb5.c puts in its keytab, cifs/fuzzhost@FUZZ.TEST, and some
that are not. Run once; the output is committed. The authenticators are
made now: the target's krb5.conf allows ten years of clock skew (which
the expired ticket's endtime is further back than).

    tests/fuzz/krb5-seeds.py [OUTDIR]
"""
import datetime
import os
import struct
import sys

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "tests"))
sys.path.insert(0, os.path.join(top, "tests", "vm", "clients"))
import smb2krb5  # noqa: E402
from smb2 import spnego  # noqa: E402
from smb2.spnego import der  # noqa: E402
from smb2krb5 import AES256, Key  # noqa: E402

# fuzz_krb5.c's fuzz_key.
KEY = b"ksmbd-fuzz-krb5-" + bytes.fromhex("00112233445566778899aabbccddeeff")
# krb5_realm.h's krb5_realm_host_key, of host/fuzzhost.
HOST_KEY = b"host-key-of-fuzz" + bytes.fromhex("ffeeddccbbaa99887766554433221100")


class Env:
    user = "root"
    realm = "FUZZ.TEST"
    host = "fuzzhost"


class OtherHost(Env):
    host = "otherhost"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        top, "tests", "fuzz", "corpus", "krb5")
    os.makedirs(out, exist_ok=True)
    env = Env()
    now = smb2krb5.utcnow()
    start = now - datetime.timedelta(days=1)
    end = datetime.datetime(2045, 1, 1)
    good = smb2krb5.forged_ticket(env, "cifs", Key(AES256, KEY), 1, start, end)
    valid = smb2krb5.spnego_ap_req(env, good)
    seeds = {
        "negtokeninit-ap-req": valid,
        "negtokeninit-ap-req-truncated": valid[:len(valid) // 2],
        # The bare krb5 GSS token, no SPNEGO around it.
        "krb5-ap-req": smb2krb5.ap_req(env, good),
        # Expired ticket; one for another host and one for another
        # service, both sealed with our cifs key (MIT tries every keytab
        # key); one sealed with a key that is not ours; one at kvno 2.
        "expired": smb2krb5.spnego_ap_req(env, smb2krb5.forged_ticket(
            env, "cifs", Key(AES256, KEY), 1, datetime.datetime(2000, 1, 1),
            datetime.datetime(2001, 1, 1))),
        "other-service": smb2krb5.spnego_ap_req(env, smb2krb5.forged_ticket(
            env, "host", Key(AES256, KEY), 1, start, end)),
        "wrong-key": smb2krb5.spnego_ap_req(env, smb2krb5.forged_ticket(
            env, "cifs", Key(AES256, bytes(32)), 1, start, end)),
        "other-host": smb2krb5.spnego_ap_req(OtherHost(), smb2krb5.forged_ticket(
            OtherHost(), "cifs", Key(AES256, KEY), 1, start, end)),
        # A real host/ ticket (the host key): not for our service. The
        # same sealed part with its sname edited to cifs/ (the sname is
        # outside the sealed part).
        "host-ticket": smb2krb5.spnego_ap_req(env, smb2krb5.forged_ticket(
            env, "host", Key(AES256, HOST_KEY), 1, start, end)),
        "kvno2": smb2krb5.spnego_ap_req(env, smb2krb5.forged_ticket(
            env, "cifs", Key(AES256, KEY), 2, start, end)),
        # NegTokenResp (a second-leg token) carrying the AP-REQ.
        "negtokenresp": spnego.spnego_resp(smb2krb5.ap_req(env, good)),
        # NegTokenInit offering only NTLMSSP, with an NTLMSSP NEGOTIATE.
        "negtokeninit-ntlmssp": spnego.spnego_init(
            b"NTLMSSP\0" + struct.pack("<II", 1, 0xe2088297) + bytes(16)),
        "negtokeninit-empty": der(0x60, bytes.fromhex("06062b0601050502") +
                                  der(0xa0, der(0x30, b""))),
        "garbage": bytes.fromhex("600a0608ffffffffffffffffa0"),
    }
    host = smb2krb5.forged_ticket(env, "host", Key(AES256, HOST_KEY), 1,
                                  start, end)
    cifs = smb2krb5.forged_ticket(env, "cifs", Key(AES256, HOST_KEY), 1,
                                  start, end)
    host.asn1["sname"] = cifs.asn1["sname"]
    seeds["host-ticket-sname-cifs"] = smb2krb5.spnego_ap_req(env, host)
    # Client names: past MOUNTD_KRB5_NAME_MAX (256) with the realm, past
    # the account name size, and a service principal.
    for name, user in (("client-too-long", "u" * 300),
                       ("client-account-too-long", "a" * 100),
                       ("client-service", "cifs/somehost")):
        who = type("Client", (Env,), {"user": user})()
        seeds[name] = smb2krb5.spnego_ap_req(who, smb2krb5.forged_ticket(
            who, "cifs", Key(AES256, KEY), 1, start, end))
    # Also one whole SPNEGO_AUTHEN_REQUEST payload (handle, length, blob).
    seeds["request-ap-req"] = struct.pack("<II", 7, len(valid)) + valid
    for name, blob in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(blob)


if __name__ == "__main__":
    main()
