/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kerberos through MIT GSS-API: accept one SPNEGO token (NegTokenInit
 * carrying a krb5 AP-REQ) with the service keys of a keytab.
 */
#ifndef KSMBD_MOUNTD_KRB5_GSS_H
#define KSMBD_MOUNTD_KRB5_GSS_H

#include <stddef.h>
#include <stdint.h>

#define MOUNTD_KRB5_KEY_MAX	64
#define MOUNTD_KRB5_NAME_MAX	256

/* Why a ticket was refused, from the Kerberos error behind the GSS one. */
enum mountd_krb5_refusal {
	MOUNTD_KRB5_REFUSED = 0,	/* any other reason */
	MOUNTD_KRB5_EXPIRED,		/* ticket past its endtime (or not yet valid) */
	MOUNTD_KRB5_SKEW,		/* authenticator time outside the clock skew */
	MOUNTD_KRB5_REPLAY,		/* authenticator already seen (replay cache) */
	MOUNTD_KRB5_WRONG_PRINCIPAL,	/* ticket for a service we hold no key of */
	MOUNTD_KRB5_BAD_KEY,		/* ticket does not decrypt with our key */
};

/*
 * The refusal the text of a GSS minor status names. Through SPNEGO the
 * minor code is an alias the mechanism glue made up for the krb5 error
 * (unique per process, not the krb5 code), so its text is what is left.
 */
enum mountd_krb5_refusal mountd_krb5_refusal_of(const char *text);

/* A short name of @r for the log ("replay", "clock skew", ...). */
const char *mountd_krb5_refusal_name(enum mountd_krb5_refusal r);

struct mountd_krb5_result {
	char client[MOUNTD_KRB5_NAME_MAX];	/* user@REALM */
	uint8_t key[MOUNTD_KRB5_KEY_MAX];
	size_t key_len;
	uint8_t *reply;				/* malloc'd SPNEGO answer */
	size_t reply_len;
	enum mountd_krb5_refusal refusal;	/* set when refused */
	uint32_t valid_secs;			/* ticket's life left; 0: none */
};

/*
 * Accept @blob for service @service with the keys of @keytab: either the
 * first component of the ticket's server principal ("cifs") or the whole
 * principal ("cifs/host@REALM", or "cifs/host" in any realm). 0 and *@out filled, or -1
 * with a reason in @why (for the log) and its class in out->refusal.
 * The caller frees out->reply and
 * wipes out->key.
 */
int mountd_krb5_accept(const char *keytab, const char *service,
		       const uint8_t *blob, size_t len,
		       struct mountd_krb5_result *out,
		       char *why, size_t why_len);

/* The account part of "user@REALM" into @acct; -1 when it does not fit. */
int mountd_krb5_account(const char *principal, char *acct, size_t cap);

#endif
