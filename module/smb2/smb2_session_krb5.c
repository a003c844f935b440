// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SESSION_SETUP with Kerberos (MS-SMB2 3.3.5.5.3, MS-SPNG): a SPNEGO
 * NegTokenInit whose first mechanism is krb5 (or Microsoft's krb5 OID)
 * and whose optimistic token is an AP-REQ. The whole security buffer
 * goes to the daemon (SPNEGO_AUTHEN), which checks the ticket with its
 * keytab and answers with the user's record, the GSS session key and
 * the SPNEGO reply (accept-completed with the AP-REP), which becomes our
 * response's security buffer as it is. One round trip: the session is
 * VALID when the response leaves.
 *
 * Keys (3.3.5.5.3): Session.SessionKey is the first 16 bytes of the GSS
 * key (zero-padded if shorter) and feeds signing and the 128-bit
 * ciphers; the 256-bit ciphers use the full key.
 *
 * A re-authentication (a VALID session id) must name the same account.
 * Every failure is STATUS_LOGON_FAILURE (ACCESS_DENIED for another
 * account on re-authentication) with the reason on the auth_failure
 * tracepoint: the daemon's status names it (expired ticket, clock skew,
 * replayed authenticator, wrong service principal or key, no local user)
 * and its log line gives the library's words.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "connection.h"
#include "debug.h"
#include "ipc.h"
#include "ksmbd_trace.h"
#include "proto/spnego_krb5.h"
#include "server.h"
#include "session.h"
#include "smb2_session_int.h"
#include "smb2_transform.h"

#define SMB2_SESSION_KEY_SIZE	16

bool ksmbd_krb5_enabled(void)
{
	return READ_ONCE(ksmbd_server_conf.flags) & KSMBD_GLOBAL_FLAG_KERBEROS;
}

bool ksmbd_krb5_wanted(const struct ksmbd_spnego_token *tok)
{
	return ksmbd_krb5_enabled() && ksmbd_spnego_krb5_ap_req(tok);
}

/* The trace's reason for each refusal the daemon names. */
static const char *const refusals[KSMBD_SPNEGO_STATUS_MAX + 1] = {
	[KSMBD_SPNEGO_DENIED]		= "krb5: ticket refused by the daemon",
	[KSMBD_SPNEGO_EXPIRED]		= "krb5: ticket expired",
	[KSMBD_SPNEGO_SKEW]		= "krb5: authenticator outside the clock skew",
	[KSMBD_SPNEGO_REPLAY]		= "krb5: authenticator replayed",
	[KSMBD_SPNEGO_WRONG_PRINCIPAL]	= "krb5: ticket for a principal not in our keytab",
	[KSMBD_SPNEGO_BAD_KEY]		= "krb5: ticket not sealed with our service key",
	[KSMBD_SPNEGO_NO_USER]		= "krb5: no local user for the principal",
};

/* The daemon's verdict as an errno, with the reason for the trace. */
static int verdict(const struct ksmbd_spnego_authen_response *rsp,
		   const char **why)
{
	if (IS_ERR(rsp)) {
		*why = "krb5: no answer from the daemon";
		return PTR_ERR(rsp);
	}
	switch (rsp->status) {
	case KSMBD_SPNEGO_OK:
		break;
	case KSMBD_SPNEGO_NOT_SUPPORTED:
		*why = "krb5: not configured in the daemon";
		return -EOPNOTSUPP;
	default:
		/* The validator bounded status by KSMBD_SPNEGO_STATUS_MAX. */
		*why = refusals[rsp->status] ?: refusals[KSMBD_SPNEGO_DENIED];
		return -EKEYREJECTED;
	}
	if (!rsp->session_key_len) {
		*why = "krb5: no session key";
		return -EINVAL;
	}
	if (!(rsp->login_response.status & KSMBD_USER_FLAG_OK) ||
	    (rsp->login_response.status & KSMBD_USER_FLAG_GUEST_ACCOUNT)) {
		*why = "krb5: no usable account";
		return -EKEYREJECTED;
	}
	return 0;
}

/* Bytes of the key the ciphers' KDF takes: see the top. */
static u32 cipher_key_len(const struct ksmbd_session *sess, u32 full)
{
	u16 c = sess->conn->neg.cipher;

	if (c == SMB2_ENCRYPTION_AES256_CCM || c == SMB2_ENCRYPTION_AES256_GCM)
		return max_t(u32, full, SMB2_SESSION_KEY_SIZE);
	return SMB2_SESSION_KEY_SIZE;
}

static int krb5_validate(struct ksmbd_smb2_ctx *ctx,
			 const struct ksmbd_sess_setup_req *sr,
			 struct ksmbd_session *sess,
			 const struct ksmbd_spnego_authen_response *rsp,
			 const char **why)
{
	u8 key[KSMBD_SESSION_KEY_MAX + SMB2_SESSION_KEY_SIZE] = { };
	u32 klen = rsp->session_key_len;
	int ret;

	if (ksmbd_session_valid(sess)) {
		ret = ksmbd_sess_reauth_check(sess, &rsp->login_response);
		if (ret)
			*why = "krb5: another user on re-authentication";
		else	/* the new ticket's end (3.3.5.5.3) */
			ksmbd_session_set_expiry(sess, rsp->valid_secs);
		return ret;
	}
	ret = ksmbd_sess_preauth_absorb(sess, ctx->req->elem.p,
					ctx->req->elem.len);
	if (ret) {
		*why = "krb5: preauth hash";
		return ret;
	}
	/* The validator bounded klen by KSMBD_SESSION_KEY_MAX. */
	memcpy(key, rsp->payload, klen);
	sess->signing_required = ksmbd_sess_wants_signing(ctx, sr);
	/* before it is valid: no request runs without its end */
	ksmbd_session_set_expiry(sess, rsp->valid_secs);
	ret = ksmbd_sess_make_valid(sess, &rsp->login_response, key,
				    cipher_key_len(sess, klen));
	memzero_explicit(key, sizeof(key));
	if (ret)
		*why = "krb5: session set-up";
	return ret;
}

static u32 krb5_answer(struct ksmbd_smb2_ctx *ctx, struct ksmbd_session *sess,
		       const struct ksmbd_spnego_authen_response *rsp)
{
	u16 flags = sess->session_flags;

	if (sess->crypto.encrypt_data)
		flags |= SMB2_SESSION_FLAG_ENCRYPT_DATA;
	if (ksmbd_sess_encode_rsp(&ctx->body, flags,
				  rsp->payload + rsp->session_key_len,
				  rsp->spnego_blob_len))
		return STATUS_INSUFFICIENT_RESOURCES;
	ksmbd_conn_set_authenticated(ctx->conn);
	ctx->sign_rsp = ksmbd_signer_ready(&sess->signer) &&
			(sess->dialect == SMB311_DIALECT ||
			 sess->signing_required ||
			 (ctx->req->hdr.flags & SMB2_FLAGS_SIGNED));
	return STATUS_SUCCESS;
}

static u32 krb5_logon(struct ksmbd_smb2_ctx *ctx,
		      const struct ksmbd_sess_setup_req *sr,
		      struct ksmbd_session *sess)
{
	const struct ksmbd_buf *blob = &sr->security_blob;
	struct ksmbd_spnego_authen_response *rsp;
	const char *why = "";
	size_t rsp_len = 0;
	u32 st;
	int ret;

	rsp = ksmbd_ipc_spnego_authen(blob->p, blob->len);
	ret = verdict(rsp, &why);
	if (!IS_ERR(rsp))
		rsp_len = sizeof(*rsp) + rsp->session_key_len +
			  rsp->spnego_blob_len;
	if (!ret)
		ret = krb5_validate(ctx, sr, sess, rsp, &why);
	if (ret) {
		trace_ksmbd_auth_failure(ctx->conn->id, ctx->session_id,
					 IS_ERR(rsp) ? "" :
					 rsp->login_response.account, why,
					 &ctx->conn->peer);
		st = ret == -EPERM ? STATUS_ACCESS_DENIED :
				     STATUS_LOGON_FAILURE;
	} else {
		st = krb5_answer(ctx, sess, rsp);
		ksmbd_debug(AUTH, "session %llx: user %s logged on with Kerberos\n",
			    sess->id, sess->account);
	}
	ksmbd_ipc_free_sensitive(rsp, rsp_len);
	return st;
}

u32 ksmbd_smb2_krb5_setup(struct ksmbd_smb2_ctx *ctx,
			  const struct ksmbd_sess_setup_req *sr)
{
	struct ksmbd_session *sess;
	bool reauth;
	u32 st = STATUS_SUCCESS;

	sess = ksmbd_sess_setup_session(ctx, &st);
	if (!sess)
		return st;
	mutex_lock(&sess->auth_lock);
	reauth = ksmbd_session_valid(sess);
	/* An NTLMSSP exchange this token replaces. */
	ksmbd_auth_state_free(sess->auth);
	sess->auth = NULL;
	if (!reauth && READ_ONCE(sess->state) != KSMBD_SESS_IN_PROGRESS)
		st = STATUS_REQUEST_NOT_ACCEPTED;
	else
		st = krb5_logon(ctx, sr, sess);
	mutex_unlock(&sess->auth_lock);
	if (st != STATUS_SUCCESS) {
		/* MS-SMB2 3.3.5.5.3: a failed setup removes the session. */
		ksmbd_session_teardown(sess, "logon failed");
		ksmbd_session_put(sess);
		return st;
	}
	ctx->sess = sess;		/* the dispatcher puts it */
	ctx->session_id = sess->id;
	return st;
}
