// SPDX-License-Identifier: GPL-2.0
/*
 * One SPNEGO round trip with MIT GSS-API: the client's NegTokenInit
 * holds an optimistic krb5 AP-REQ; the SPNEGO mechanism of the library
 * checks it with the keytab's keys (ticket, authenticator, replay cache,
 * clock skew) and produces the NegTokenResp (accept-completed, AP-REP).
 * A token that would need a second round is refused: SMB clients send
 * the AP-REQ in the first SESSION_SETUP.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>

#include "krb5_gss.h"

/* 1.3.6.1.5.5.2 */
static gss_OID_desc spnego_oid = { 6, (void *)"\x2b\x06\x01\x05\x05\x02" };

/* Major and minor status texts, joined, into @why. */
static void gss_reason(OM_uint32 major, OM_uint32 minor, const char *what,
		       char *why, size_t cap)
{
	OM_uint32 codes[2] = { major, minor }, ctx, junk;
	int types[2] = { GSS_C_GSS_CODE, GSS_C_MECH_CODE }, i;
	gss_buffer_desc msg;
	size_t used;

	snprintf(why, cap, "%s", what);
	for (i = 0; i < 2; i++) {
		if (i == 1 && !minor)
			break;
		ctx = 0;
		do {
			if (GSS_ERROR(gss_display_status(&junk, codes[i],
							 types[i], GSS_C_NO_OID,
							 &ctx, &msg)))
				break;
			used = strlen(why);
			if (used < cap)
				snprintf(why + used, cap - used, ": %.*s",
					 (int)msg.length, (char *)msg.value);
			gss_release_buffer(&junk, &msg);
		} while (ctx);
	}
}

/*
 * MIT's texts for the krb5 errors of an AP-REQ check (the error table's
 * messages and the keytab lookup's own), first match wins: a key that is
 * there but does not open the ticket before a key that is not there.
 */
static const struct {
	const char *text;
	enum mountd_krb5_refusal refusal;
} refusal_texts[] = {
	{ "Ticket expired", MOUNTD_KRB5_EXPIRED },
	{ "Ticket not yet valid", MOUNTD_KRB5_EXPIRED },
	{ "Clock skew too great", MOUNTD_KRB5_SKEW },
	{ "Request is a replay", MOUNTD_KRB5_REPLAY },
	{ "decrypt ticket", MOUNTD_KRB5_BAD_KEY },
	{ "Decrypt integrity check failed", MOUNTD_KRB5_BAD_KEY },
	{ "Message stream modified", MOUNTD_KRB5_BAD_KEY },
	{ "ticket is likely out of date", MOUNTD_KRB5_BAD_KEY },
	{ "Specified version of key is not available", MOUNTD_KRB5_BAD_KEY },
	{ "not found in keytab", MOUNTD_KRB5_WRONG_PRINCIPAL },
	{ "does not match", MOUNTD_KRB5_WRONG_PRINCIPAL },
	{ "Cannot find key for", MOUNTD_KRB5_WRONG_PRINCIPAL },
	{ "No key table entry found", MOUNTD_KRB5_WRONG_PRINCIPAL },
	{ "Key table entry not found", MOUNTD_KRB5_WRONG_PRINCIPAL },
	{ "Service key not available", MOUNTD_KRB5_WRONG_PRINCIPAL },
	{ "The ticket isn't for us", MOUNTD_KRB5_WRONG_PRINCIPAL },
	{ "Wrong principal in request", MOUNTD_KRB5_WRONG_PRINCIPAL },
};

enum mountd_krb5_refusal mountd_krb5_refusal_of(const char *text)
{
	size_t i;

	for (i = 0; i < sizeof(refusal_texts) / sizeof(refusal_texts[0]); i++)
		if (strcasestr(text, refusal_texts[i].text))
			return refusal_texts[i].refusal;
	return MOUNTD_KRB5_REFUSED;
}

const char *mountd_krb5_refusal_name(enum mountd_krb5_refusal r)
{
	switch (r) {
	case MOUNTD_KRB5_EXPIRED:
		return "expired";
	case MOUNTD_KRB5_SKEW:
		return "clock skew";
	case MOUNTD_KRB5_REPLAY:
		return "replay";
	case MOUNTD_KRB5_WRONG_PRINCIPAL:
		return "wrong principal";
	case MOUNTD_KRB5_BAD_KEY:
		return "wrong key";
	default:
		return "refused";
	}
}

static int acquire(const char *keytab, gss_cred_id_t *cred, char *why,
		   size_t cap)
{
	gss_key_value_element_desc el = { "keytab", keytab };
	gss_key_value_set_desc store = { 1, &el };
	gss_OID_set_desc mechs = { 1, &spnego_oid };
	OM_uint32 major, minor;

	major = gss_acquire_cred_from(&minor, GSS_C_NO_NAME, GSS_C_INDEFINITE,
				      &mechs, GSS_C_ACCEPT, &store, cred,
				      NULL, NULL);
	if (GSS_ERROR(major)) {
		gss_reason(major, minor, "keytab", why, cap);
		return -1;
	}
	return 0;
}

/* Display form of @name into @out; -1 when it does not fit. */
static int name_text(gss_name_t name, char *out, size_t cap)
{
	gss_buffer_desc buf;
	OM_uint32 minor;
	int ret = -1;

	if (GSS_ERROR(gss_display_name(&minor, name, &buf, NULL)))
		return -1;
	if (buf.length < cap && !memchr(buf.value, '\0', buf.length)) {
		memcpy(out, buf.value, buf.length);
		out[buf.length] = '\0';
		ret = 0;
	}
	gss_release_buffer(&minor, &buf);
	return ret;
}

/*
 * The key that opened the ticket must be one of "service/host@REALM" for
 * our service. With no acceptor name, MIT tries every keytab entry and
 * names the context's target by the entry whose key worked, not by the
 * ticket's sname (which is outside the sealed part and so proves
 * nothing): a host/ ticket edited to say cifs/ still fails here when
 * host/ and cifs/ have their own keys.
 */
static bool target_matches(const char *target, const char *service)
{
	size_t n = strlen(service);

	/* "cifs": any host and realm of that service. */
	if (!strchr(service, '/'))
		return !strncmp(target, service, n) && target[n] == '/';
	/* "cifs/host@REALM" exactly; "cifs/host" in any realm. */
	if (strchr(service, '@'))
		return !strcmp(target, service);
	return !strncmp(target, service, n) && (target[n] == '@' || !target[n]);
}

static int check_target(gss_ctx_id_t ctx, const char *service, char *why,
			size_t cap)
{
	char target[MOUNTD_KRB5_NAME_MAX];
	gss_name_t tname = GSS_C_NO_NAME;
	OM_uint32 minor;
	int ret = -1;

	if (GSS_ERROR(gss_inquire_context(&minor, ctx, NULL, &tname, NULL,
					  NULL, NULL, NULL, NULL)) ||
	    name_text(tname, target, sizeof(target))) {
		snprintf(why, cap, "cannot name the ticket's service");
	} else if (!target_matches(target, service)) {
		snprintf(why, cap, "ticket for %s, not for service %s",
			 target, service);
	} else {
		ret = 0;
	}
	if (tname != GSS_C_NO_NAME)
		gss_release_name(&minor, &tname);
	return ret;
}

static int session_key(gss_ctx_id_t ctx, struct mountd_krb5_result *out,
		       char *why, size_t cap)
{
	gss_buffer_set_t set = GSS_C_NO_BUFFER_SET;
	OM_uint32 major, minor;
	size_t len;

	major = gss_inquire_sec_context_by_oid(&minor, ctx,
					       GSS_C_INQ_SSPI_SESSION_KEY,
					       &set);
	if (GSS_ERROR(major) || !set || set->count < 1) {
		gss_reason(major, minor, "session key", why, cap);
		if (set)
			gss_release_buffer_set(&minor, &set);
		return -1;
	}
	len = set->elements[0].length;
	if (len == 0 || len > sizeof(out->key)) {
		snprintf(why, cap, "session key of %zu bytes", len);
		gss_release_buffer_set(&minor, &set);
		return -1;
	}
	memcpy(out->key, set->elements[0].value, len);
	out->key_len = len;
	gss_release_buffer_set(&minor, &set);
	return 0;
}

/*
 * Seconds the ticket has left: the lucid context's endtime is the
 * ticket's own (time_rec from the acceptor adds the clock skew, 5
 * minutes by default). The export ends the context; 0 when it fails.
 */
static uint32_t ticket_life(gss_ctx_id_t *ctx)
{
	gss_krb5_lucid_context_v1_t *lucid;
	void *exported = NULL;
	OM_uint32 minor;
	time_t now = time(NULL);
	uint32_t left;

	if (gss_krb5_export_lucid_sec_context(&minor, ctx, 1, &exported) !=
	    GSS_S_COMPLETE || !exported)
		return 0;
	lucid = exported;
	left = (time_t)lucid->endtime > now ? (uint32_t)(lucid->endtime - now) : 1;
	gss_krb5_free_lucid_sec_context(&minor, exported);
	return left;
}

static int take_reply(gss_buffer_t tok, struct mountd_krb5_result *out,
		      char *why, size_t cap)
{
	if (!tok->length) {
		out->reply = NULL;
		out->reply_len = 0;
		return 0;
	}
	out->reply = malloc(tok->length);
	if (!out->reply) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	memcpy(out->reply, tok->value, tok->length);
	out->reply_len = tok->length;
	return 0;
}

int mountd_krb5_accept(const char *keytab, const char *service,
		       const uint8_t *blob, size_t len,
		       struct mountd_krb5_result *out,
		       char *why, size_t why_len)
{
	gss_buffer_desc in = { len, (void *)blob }, tok = { 0, NULL };
	gss_cred_id_t cred = GSS_C_NO_CREDENTIAL;
	gss_ctx_id_t ctx = GSS_C_NO_CONTEXT;
	gss_name_t client = GSS_C_NO_NAME;
	OM_uint32 major, minor, life = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (acquire(keytab, &cred, why, why_len))
		return -1;
	major = gss_accept_sec_context(&minor, &ctx, cred, &in,
				       GSS_C_NO_CHANNEL_BINDINGS, &client,
				       NULL, &tok, NULL, &life, NULL);
	if (GSS_ERROR(major)) {
		gss_reason(major, minor, "AP-REQ refused", why, why_len);
		out->refusal = mountd_krb5_refusal_of(why);
		goto out;
	}
	if (major != GSS_S_COMPLETE) {
		snprintf(why, why_len, "SPNEGO wants another round trip");
		goto out;
	}
	if (check_target(ctx, service, why, why_len)) {
		out->refusal = MOUNTD_KRB5_WRONG_PRINCIPAL;
		goto out;
	}
	if (name_text(client, out->client, sizeof(out->client))) {
		snprintf(why, why_len, "client name too long");
		goto out;
	}
	if (session_key(ctx, out, why, why_len) ||
	    take_reply(&tok, out, why, why_len))
		goto out;
	/* The session lives as long as the ticket */
	out->valid_secs = ticket_life(&ctx);
	if (!out->valid_secs && life != GSS_C_INDEFINITE)
		out->valid_secs = life ? life : 1;
	ret = 0;
out:
	if (ret) {
		explicit_bzero(out->key, sizeof(out->key));
		out->key_len = 0;
	}
	gss_release_buffer(&minor, &tok);
	if (client != GSS_C_NO_NAME)
		gss_release_name(&minor, &client);
	if (ctx != GSS_C_NO_CONTEXT)
		gss_delete_sec_context(&minor, &ctx, GSS_C_NO_BUFFER);
	gss_release_cred(&minor, &cred);
	return ret;
}

int mountd_krb5_account(const char *principal, char *acct, size_t cap)
{
	const char *at = strrchr(principal, '@');
	size_t n = at ? (size_t)(at - principal) : strlen(principal);

	/*
	 * "user/instance" is a service or admin principal, not a user; and
	 * "user@" (an empty realm) is no principal a KDC issues.
	 */
	if (!n || n >= cap || memchr(principal, '/', n) || (at && !at[1]))
		return -1;
	memcpy(acct, principal, n);
	acct[n] = '\0';
	return 0;
}
