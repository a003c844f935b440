// SPDX-License-Identifier: GPL-2.0
/*
 * SPNEGO_AUTHEN: a SESSION_SETUP's SPNEGO token with a Kerberos AP-REQ.
 * The ticket is checked by GSS-API (krb5_gss.c) against the keytab of
 * "kerberos keytab"; the client principal user@REALM becomes the local
 * account "user" (the user database's spelling when it has that user,
 * else the Unix account of that name). The answer carries the account's
 * record, the GSS session key and the SPNEGO reply for the client.
 * Every refusal is one log line saying why and a status naming the
 * reason where there is one (expired, clock skew, replay, wrong principal
 * or key, no local user), KSMBD_SPNEGO_DENIED otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handlers_int.h"
#include "krb5_gss.h"

bool mountd_krb5_configured(const struct ksmbd_global *g)
{
	if (g->krb5_support == KSMBD_KRB5_NO)
		return false;
	return g->krb5_keytab[0] && access(g->krb5_keytab, R_OK) == 0;
}

/* The local account behind @principal into @lr; false (logged) if none. */
static bool map_principal(const struct mountd_state *st, const char *principal,
			  struct ksmbd_login_response *lr)
{
	char acct[KSMBD_REQ_MAX_ACCOUNT_NAME_SZ];
	const struct ksmbd_user *u;
	const char *name;

	if (mountd_krb5_account(principal, acct, sizeof(acct))) {
		mountd_log(LOG_WARNING, "Kerberos logon of %s refused: not a user principal",
			   principal);
		return false;
	}
	u = ksmbd_userdb_find(st->db, acct);
	name = u ? u->name : acct;
	if (!mountd_fill_unix(name, lr)) {
		mountd_log(LOG_WARNING, "Kerberos logon of %s refused: no local user %s",
			   principal, name);
		return false;
	}
	snprintf(lr->account, sizeof(lr->account), "%s", name);
	lr->status = KSMBD_USER_FLAG_OK;
	return true;
}

static uint32_t refusal_status(enum mountd_krb5_refusal r)
{
	switch (r) {
	case MOUNTD_KRB5_EXPIRED:
		return KSMBD_SPNEGO_EXPIRED;
	case MOUNTD_KRB5_SKEW:
		return KSMBD_SPNEGO_SKEW;
	case MOUNTD_KRB5_REPLAY:
		return KSMBD_SPNEGO_REPLAY;
	case MOUNTD_KRB5_WRONG_PRINCIPAL:
		return KSMBD_SPNEGO_WRONG_PRINCIPAL;
	case MOUNTD_KRB5_BAD_KEY:
		return KSMBD_SPNEGO_BAD_KEY;
	default:
		return KSMBD_SPNEGO_DENIED;
	}
}

static int reply_status(struct mountd_reply *reply, uint32_t handle,
			uint32_t status)
{
	struct ksmbd_spnego_authen_response *r;

	r = mountd_reply_alloc(reply, KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE,
			       sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->handle = handle;
	r->status = status;
	return 0;
}

static int reply_ok(struct mountd_reply *reply, uint32_t handle,
		    const struct ksmbd_login_response *lr,
		    const struct mountd_krb5_result *res)
{
	struct ksmbd_spnego_authen_response *r;

	r = mountd_reply_alloc(reply, KSMBD_EVENT_SPNEGO_AUTHEN_RESPONSE,
			       sizeof(*r) + res->key_len + res->reply_len);
	if (!r)
		return -ENOMEM;
	r->handle = handle;
	r->status = KSMBD_SPNEGO_OK;
	r->login_response = *lr;
	r->session_key_len = res->key_len;
	r->spnego_blob_len = res->reply_len;
	r->valid_secs = res->valid_secs;
	memcpy(r->payload, res->key, res->key_len);
	if (res->reply_len)
		memcpy(r->payload + res->key_len, res->reply, res->reply_len);
	return 0;
}

int mountd_handle_spnego(struct mountd_state *st, const void *data,
			 size_t len, struct mountd_reply *reply)
{
	const struct ksmbd_global *g = ksmbd_config_global(st->cfg);
	struct ksmbd_spnego_authen_request req;
	struct ksmbd_login_response lr;
	struct mountd_krb5_result res;
	char why[512];
	int ret;

	if (len < sizeof(req))
		return mountd_drop(KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST, len, "size");
	memcpy(&req, data, sizeof(req));
	if (req.spnego_blob_len > KSMBD_SPNEGO_MAX_BLOB ||
	    len != sizeof(req) + req.spnego_blob_len)
		return mountd_drop(KSMBD_EVENT_SPNEGO_AUTHEN_REQUEST, len,
				   "blob size");
	if (!mountd_krb5_configured(g)) {
		if (!st->spnego_warned && g->krb5_support == KSMBD_KRB5_NO)
			mountd_log(LOG_WARNING, "Kerberos logon refused: kerberos support = no");
		else if (!st->spnego_warned)
			mountd_log(LOG_WARNING, "Kerberos logon refused: keytab %s not readable",
				   g->krb5_keytab);
		st->spnego_warned = true;
		return reply_status(reply, req.handle, KSMBD_SPNEGO_NOT_SUPPORTED);
	}
	if (mountd_krb5_accept(g->krb5_keytab, g->krb5_service,
			       (const uint8_t *)data + sizeof(req),
			       req.spnego_blob_len, &res, why, sizeof(why))) {
		mountd_log(LOG_WARNING, "Kerberos logon refused (%s): %s",
			   mountd_krb5_refusal_name(res.refusal), why);
		return reply_status(reply, req.handle,
				    refusal_status(res.refusal));
	}
	memset(&lr, 0, sizeof(lr));
	if (res.reply_len > KSMBD_SPNEGO_MAX_BLOB ||
	    res.key_len > KSMBD_SESSION_KEY_MAX) {
		mountd_log(LOG_WARNING, "Kerberos logon of %s refused: reply too large",
			   res.client);
		ret = reply_status(reply, req.handle, KSMBD_SPNEGO_DENIED);
	} else if (!map_principal(st, res.client, &lr)) {
		ret = reply_status(reply, req.handle, KSMBD_SPNEGO_NO_USER);
	} else {
		if (res.valid_secs)
			mountd_log(LOG_INFO, "Kerberos logon: %s as %s (ticket valid %u s)",
				   res.client, lr.account, res.valid_secs);
		else
			mountd_log(LOG_INFO, "Kerberos logon: %s as %s", res.client,
				   lr.account);
		ret = reply_ok(reply, req.handle, &lr, &res);
	}
	explicit_bzero(res.key, sizeof(res.key));
	free(res.reply);
	return ret;
}
