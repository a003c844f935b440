/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Does a SPNEGO NegTokenInit carry a Kerberos AP-REQ for us to hand to
 * the daemon? Pure parsing, unit-tested and fuzzed on the host.
 */
#ifndef KSMBD_PROTO_SPNEGO_KRB5_H
#define KSMBD_PROTO_SPNEGO_KRB5_H

#include "spnego.h"

/*
 * True when the client's first mechanism is krb5 (RFC 4121 OID or the
 * Microsoft variant) and its optimistic mechToken is a krb5 GSS token
 * (RFC 2743 framing with a krb5 OID and the AP-REQ token id 01 00).
 */
bool ksmbd_spnego_krb5_ap_req(const struct ksmbd_spnego_token *tok);

#endif /* KSMBD_PROTO_SPNEGO_KRB5_H */
