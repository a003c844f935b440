// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SESSION_SETUP binding a connection to a session as a channel (MS-SMB2
 * 3.3.5.5.2, SMB2_SESSION_FLAG_BINDING); smb2_session.c says how it goes.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/slab.h>
#include <linux/string.h>
#include "connection.h"
#include "debug.h"
#include "ipc.h"
#include "ksmbd_trace.h"
#include "proto/kdf.h"
#include "session.h"
#include "smb2_dispatch.h"
#include "smb2_session_int.h"
#include "smb2_transform.h"

/*
 * The checks of a binding request against the session, in the order
 * Windows and Samba answer them (smbtorture smb2.session.bind_negative_*):
 * AES-GMAC signing must be on both connections or neither, binding needs
 * a 3.x connection and multichannel, and the dialect and cipher must be
 * the session's. The ClientGuid is not compared: Windows binds
 * connections of another ClientGuid (bind_negative_smb3signCtoHd).
 */
static u32 bind_check(const struct ksmbd_conn *conn,
		      const struct ksmbd_session *sess)
{
	const struct ksmbd_conn_neg *neg = &conn->neg;
	u16 alg = neg->dialect == SMB311_DIALECT ? neg->signing_alg : 0;
	u16 sess_alg = sess->signer.alg;

	if (sess_alg == SMB2_SIGNING_AES_GMAC && alg != sess_alg)
		return STATUS_REQUEST_OUT_OF_SEQUENCE;
	if (alg == SMB2_SIGNING_AES_GMAC && alg != sess_alg)
		return STATUS_NOT_SUPPORTED;
	if (neg->dialect < SMB30_DIALECT ||
	    !ksmbd_sess_server_flag(KSMBD_GLOBAL_FLAG_SMB3_MULTICHANNEL))
		return STATUS_REQUEST_NOT_ACCEPTED;
	if (neg->dialect != sess->dialect ||
	    neg->cipher != sess->conn->neg.cipher)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

/*
 * A binding request names a session of another connection: it must be
 * VALID, have a key (not guest or anonymous) and be signed with it
 * (3.3.5.2.4: the session's key until the channel has its own). The
 * session, with a reference, or NULL and the status.
 */
static struct ksmbd_session *bind_session(struct ksmbd_smb2_ctx *ctx, u32 *st)
{
	const struct ksmbd_req *req = ctx->req;
	struct ksmbd_session *sess;

	sess = ksmbd_session_lookup_global(ctx->session_id);
	if (!sess) {
		*st = STATUS_USER_SESSION_DELETED;
		return NULL;
	}
	if (!ksmbd_session_valid(sess))
		*st = STATUS_REQUEST_NOT_ACCEPTED;
	else if (!ksmbd_signer_ready(&sess->signer))
		*st = STATUS_NOT_SUPPORTED;
	else if (!(req->hdr.flags & SMB2_FLAGS_SIGNED))
		*st = STATUS_INVALID_PARAMETER;
	else if (ksmbd_signer_verify(&sess->signer, req->elem.p,
				     req->elem.len))
		*st = STATUS_ACCESS_DENIED;
	else
		return sess;
	ksmbd_conn_note_rejected(ctx->conn, SMB2_SESSION_SETUP,
				 req->hdr.message_id, "bad binding request");
	ksmbd_session_put(sess);
	return NULL;
}

/* 3.1.1: a binding leg joins this connection's preauth chain. */
static int bind_absorb(struct ksmbd_session *sess, struct ksmbd_channel *ch,
		       const u8 *msg, u32 len)
{
	struct ksmbd_buf part = ksmbd_buf_make(msg, len);

	if (!ksmbd_sess_is_311(sess))
		return 0;
	return ksmbd_preauth_hash_update(ch->preauth_hash, &part, 1);
}

/*
 * The interim response is signed with the session's key (the client
 * checks it with that one) and, on 3.1.1, joins the chain as sent.
 */
static void bind_challenge_finish(struct ksmbd_smb2_ctx *ctx, const u8 *rsp,
				  u32 len)
{
	struct ksmbd_session *sess = ctx->sess;
	struct ksmbd_channel *ch;
	bool bound;

	mutex_lock(&sess->auth_lock);
	ch = ksmbd_channel_pending(sess, ctx->conn, false, &bound);
	if (ch && ksmbd_signer_sign(&sess->signer, (u8 *)rsp, len))
		ch = NULL;
	if (!ch || bind_absorb(sess, ch, rsp, len))
		ksmbd_conn_drop(ctx->conn, "preauth hash failed");
	mutex_unlock(&sess->auth_lock);
}

/* Under auth_lock: NTLMSSP NEGOTIATE (or a mechanism-only first leg). */
static u32 bind_negotiate(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq,
			  struct ksmbd_session *sess)
{
	struct ksmbd_channel *ch;
	struct ksmbd_auth_state *auth;
	bool bound;
	int ret;

	ch = ksmbd_channel_pending(sess, ctx->conn, true, &bound);
	if (!ch)
		return bound ? STATUS_ACCESS_DENIED :
			       STATUS_INSUFFICIENT_RESOURCES;
	auth = ch->auth;
	if (!auth || auth->neg_len || sq->mech_only) {
		ksmbd_auth_state_free(ch->auth);
		ch->auth = kzalloc(sizeof(*ch->auth), GFP_KERNEL);
		auth = ch->auth;
		if (!auth)
			return STATUS_INSUFFICIENT_RESOURCES;
		auth->spnego = sq->spnego;
		ksmbd_sess_keep_mech_list(auth, sq);
		memcpy(ch->preauth_hash, ctx->conn->neg.preauth_hash,
		       sizeof(ch->preauth_hash));
	}
	ret = bind_absorb(sess, ch, ctx->req->elem.p, ctx->req->elem.len);
	if (!ret && !sq->mech_only)
		ret = ksmbd_sess_build_challenge(auth, &sq->token);
	if (!ret)
		ret = ksmbd_sess_encode(&ctx->body, 0, auth->spnego,
					KSMBD_SPNEGO_ACCEPT_INCOMPLETE,
					auth->chal_blob, auth->chal_len,
					NULL, 0);
	if (ret) {
		ksmbd_auth_state_free(ch->auth);
		ch->auth = NULL;
		return ret == -ENOSPC ? STATUS_INSUFFICIENT_RESOURCES :
					STATUS_INVALID_PARAMETER;
	}
	ctx->finish = bind_challenge_finish;
	return STATUS_MORE_PROCESSING_REQUIRED;
}

/*
 * MS-SMB2 3.3.5.5.3: the channel's signing key, from this exchange's
 * session key (and on 3.1.1 this connection's preauth hash), signing
 * with this connection's algorithm. Encrypted traffic on the channel
 * uses the session's cipher keys and this connection's buffers.
 */
static int bind_keys(struct ksmbd_session *sess, struct ksmbd_channel *ch,
		     const u8 exported[KSMBD_NTLMV2_KEY_SIZE])
{
	struct ksmbd_conn *conn = ch->conn;
	u8 key[KSMBD_SIGNING_KEY_SIZE];
	u16 alg = sess->dialect == SMB311_DIALECT ? conn->neg.signing_alg :
						    SMB2_SIGNING_AES_CMAC;
	int ret;

	ret = ksmbd_kdf_session_key(sess->dialect, KSMBD_KEY_SIGNING, exported,
				    KSMBD_NTLMV2_KEY_SIZE, ch->preauth_hash,
				    key, sizeof(key));
	if (!ret)
		ret = ksmbd_signer_init(&ch->signer, alg, key, conn);
	memzero_explicit(key, sizeof(key));
	if (!ret && sess->crypto.enc)
		ret = ksmbd_conn_crypto_prepare(conn, sess->crypto.enc);
	return ret;
}

/* Under auth_lock: the AUTHENTICATE of a binding exchange. */
static int bind_prove(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq,
		      struct ksmbd_session *sess, struct ksmbd_channel *ch,
		      struct ksmbd_ntlm_auth *na,
		      struct ksmbd_login_response *lr,
		      u8 mic[KSMBD_NTLM_SEC_SIG_SIZE], u32 *mic_len)
{
	u8 exported[KSMBD_NTLMV2_KEY_SIZE];
	u16 flags = 0;
	int ret;

	*mic_len = 0;
	ret = ksmbd_ntlmssp_parse_authenticate(sq->token.p, sq->token.len, na);
	if (!ret)
		ret = bind_absorb(sess, ch, ctx->req->elem.p,
				  ctx->req->elem.len);
	if (!ret)
		ret = ksmbd_sess_identify(ch->auth, sq, na, lr, exported, &flags);
	/* The session's user, proven again; a guest is another user. */
	if (!ret && flags)
		ret = -EPERM;
	if (!ret)
		ret = ksmbd_sess_reauth(sess, lr, 0);
	if (!ret)
		ret = ksmbd_sess_mech_list_mic(ch->auth, sq, na->flags,
					       exported, mic, mic_len);
	if (!ret)
		ret = bind_keys(sess, ch, exported);
	memzero_explicit(exported, sizeof(exported));
	return ret;
}

static u32 bind_authenticate(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq,
			     struct ksmbd_session *sess)
{
	struct ksmbd_login_response *lr;
	struct ksmbd_ntlm_auth *na;
	struct ksmbd_channel *ch;
	u8 mic[KSMBD_NTLM_SEC_SIG_SIZE];
	u32 mic_len;
	bool bound, spnego;
	int ret;

	ch = ksmbd_channel_pending(sess, ctx->conn, false, &bound);
	if (!ch || !ch->auth || !ch->auth->chal_len)
		return bound ? STATUS_ACCESS_DENIED :
			       STATUS_REQUEST_NOT_ACCEPTED;
	spnego = ch->auth->spnego;
	na = kzalloc(sizeof(*na), GFP_KERNEL);
	lr = kzalloc(sizeof(*lr), GFP_KERNEL);
	ret = na && lr ? bind_prove(ctx, sq, sess, ch, na, lr, mic, &mic_len) :
			 -ENOMEM;
	kfree(lr);
	ksmbd_auth_state_free(ch->auth);
	ch->auth = NULL;
	if (ret) {
		trace_ksmbd_auth_failure(ctx->conn->id, ctx->session_id,
					 na ? na->user_utf8 : "",
					 ksmbd_sess_failure_reason(ret),
					 &ctx->conn->peer);
		kfree(na);
		return ret == -ENOMEM ? STATUS_INSUFFICIENT_RESOURCES :
					ksmbd_sess_auth_failure_status(ret);
	}
	kfree(na);
	if (ksmbd_sess_encode(&ctx->body, 0, spnego,
			      KSMBD_SPNEGO_ACCEPT_COMPLETED, NULL, 0, mic,
			      mic_len))
		return STATUS_INSUFFICIENT_RESOURCES;
	/* From here requests on this connection find the session. */
	ksmbd_channel_bind(sess, ch);
	ksmbd_conn_set_authenticated(ctx->conn);
	return STATUS_SUCCESS;
}

/*
 * SESSION_SETUP with SMB2_SESSION_FLAG_BINDING (MS-SMB2 3.3.5.5). Every
 * answer after the signature was verified is signed: with the session's
 * key, or the final one with the new channel's.
 */
u32 ksmbd_sess_bind_setup(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq)
{
	struct ksmbd_session *sess;
	u32 st;

	/* The session is already this connection's. */
	if (ctx->sess)
		return STATUS_ACCESS_DENIED;
	sess = bind_session(ctx, &st);
	if (!sess)
		return st;
	st = bind_check(ctx->conn, sess);
	if (st == STATUS_SUCCESS && sq->krb5)
		st = STATUS_NOT_SUPPORTED;	/* NTLMSSP binding only */
	if (st == STATUS_SUCCESS) {
		mutex_lock(&sess->auth_lock);
		if (sq->type == NTLMSSP_NEGOTIATE_MSG || sq->mech_only)
			st = bind_negotiate(ctx, sq, sess);
		else
			st = bind_authenticate(ctx, sq, sess);
		mutex_unlock(&sess->auth_lock);
	}
	ctx->sess = sess;		/* the dispatcher puts it */
	ctx->sign_rsp = true;
	return st;
}
