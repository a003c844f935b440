// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kerberos detection in a NegTokenInit. Only the framing is looked at:
 * the ticket itself is the daemon's (GSS-API's) to check.
 */
#include "spnego_krb5.h"
#include "der.h"

static const u8 oid_krb5[] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 };
static const u8 oid_ms_krb5[] = {
	0x2a, 0x86, 0x48, 0x82, 0xf7, 0x12, 0x01, 0x02, 0x02 };

/* RFC 2743 3.1 InitialContextToken: [APPLICATION 0] { OID, inner }. */
static bool krb5_gss_token(const struct ksmbd_buf *tok)
{
	struct ksmbd_buf in = *tok, body, oid;
	u8 tag;

	if (ksmbd_der_read(&in, &tag, &body) || tag != DER_APPLICATION_0 ||
	    in.len)
		return false;
	if (ksmbd_der_expect(&body, DER_OID, &oid))
		return false;
	if (!ksmbd_der_oid_eq(&oid, oid_krb5, sizeof(oid_krb5)) &&
	    !ksmbd_der_oid_eq(&oid, oid_ms_krb5, sizeof(oid_ms_krb5)))
		return false;
	/* RFC 4121 4.1: TOK_ID 01 00 (KRB_AP_REQ), then the AP-REQ. */
	return body.len > 2 && body.p[0] == 0x01 && body.p[1] == 0x00;
}

bool ksmbd_spnego_krb5_ap_req(const struct ksmbd_spnego_token *tok)
{
	if (!tok->is_init || !tok->mech_count || !tok->mech_token.len)
		return false;
	if (tok->mechs[0] != KSMBD_MECH_KRB5 &&
	    tok->mechs[0] != KSMBD_MECH_MS_KRB5)
		return false;
	return krb5_gss_token(&tok->mech_token);
}
