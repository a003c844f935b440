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

struct mountd_krb5_result {
	char client[MOUNTD_KRB5_NAME_MAX];	/* user@REALM */
	uint8_t key[MOUNTD_KRB5_KEY_MAX];
	size_t key_len;
	uint8_t *reply;				/* malloc'd SPNEGO answer */
	size_t reply_len;
};

/*
 * Accept @blob for service @service (first component of the ticket's
 * server principal) with the keys of @keytab. 0 and *@out filled, or -1
 * with a reason in @why (for the log). The caller frees out->reply and
 * wipes out->key.
 */
int mountd_krb5_accept(const char *keytab, const char *service,
		       const uint8_t *blob, size_t len,
		       struct mountd_krb5_result *out,
		       char *why, size_t why_len);

/* The account part of "user@REALM" into @acct; -1 when it does not fit. */
int mountd_krb5_account(const char *principal, char *acct, size_t cap);

#endif
