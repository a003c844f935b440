// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per element, for the dispatcher: which session and tree the element
 * runs in, whether its signature holds, and which session signs its
 * response (smb2_dispatch.h).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include "connection.h"
#include "debug.h"
#include "ksmbd_trace.h"
#include "proto/decode.h"
#include "proto/smb2.h"
#include "session.h"
#include "share.h"
#include "signing.h"
#include "smb2_dispatch.h"
#include "tree.h"
#include "work.h"

static bool needs_session(u16 cmd)
{
	return cmd != SMB2_NEGOTIATE && cmd != SMB2_SESSION_SETUP &&
	       cmd != SMB2_ECHO && cmd != SMB2_CANCEL;
}

/*
 * MS-SMB2 3.3.5.2.9: what an expired session may still do: re-authenticate,
 * log off, close, unlock (a LOCK whose first element unlocks: a lock
 * request mixes no unlocks, 3.3.5.14), echo and cancel.
 */
static bool lock_is_unlock(const struct ksmbd_req *req)
{
	struct ksmbd_lock_req lk;
	struct ksmbd_lock_elem e;

	/* A malformed LOCK is refused as expired; its own decode says more. */
	if (ksmbd_lock_decode(req, &lk) || !ksmbd_lock_elem(&lk, 0, &e))
		return false;
	return e.flags & SMB2_LOCKFLAG_UNLOCK;
}

static bool allowed_expired(const struct ksmbd_req *req)
{
	switch (req->hdr.command) {
	case SMB2_SESSION_SETUP:
	case SMB2_LOGOFF:
	case SMB2_CLOSE:
	case SMB2_ECHO:
	case SMB2_CANCEL:
		return true;
	case SMB2_LOCK:
		return lock_is_unlock(req);
	default:
		return false;
	}
}

static bool needs_tree(u16 cmd)
{
	return needs_session(cmd) && cmd != SMB2_LOGOFF &&
	       cmd != SMB2_TREE_CONNECT;
}

/*
 * A SESSION_SETUP on a bound channel signed with the session's key, not
 * the channel's: a client that does not know this connection is bound
 * (binding again, or re-authenticating on a channel object of its own).
 * It is refused, and the refusal signed with that key, which is the one
 * such a client checks it with (MS-SMB2 3.3.5.5.2).
 */
static bool setup_signed_by_session(const struct ksmbd_smb2_ctx *ctx,
				    struct ksmbd_session *sess,
				    const struct ksmbd_signer *signer)
{
	const struct ksmbd_req *req = ctx->req;

	return req->hdr.command == SMB2_SESSION_SETUP &&
	       signer != &sess->signer &&
	       (req->hdr.flags & SMB2_FLAGS_SIGNED) &&
	       !ksmbd_signer_verify(&sess->signer, req->elem.p, req->elem.len);
}

/*
 * MS-SMB2 3.3.5.2.4 (signature) and 3.3.5.2.9 (session, tree). A bad or
 * missing required signature is answered unsigned and without the
 * session: nothing is computed with a key for a request we did not
 * authenticate.
 */
/*
 * MS-SMB2 3.3.5.7: on 3.1.1 a TREE_CONNECT of a session with a key (not
 * guest, not anonymous) must be signed or encrypted, else the connection
 * goes. Its signed answer is what proves to the client that nobody in
 * the middle stripped signing from a connection that did not require it
 * (preauth integrity covers only NEGOTIATE and SESSION_SETUP).
 */
static bool tree_connect_unprotected(struct ksmbd_smb2_ctx *ctx,
				     const struct ksmbd_session *sess,
				     const struct ksmbd_signer *signer,
				     bool protected)
{
	if (protected || ctx->conn->neg.dialect != SMB311_DIALECT ||
	    (sess->session_flags & (SMB2_SESSION_FLAG_IS_GUEST |
				    SMB2_SESSION_FLAG_IS_NULL)) ||
	    !ksmbd_signer_ready(signer))
		return false;
	ksmbd_conn_note_rejected(ctx->conn, SMB2_TREE_CONNECT,
				 ctx->req->hdr.message_id,
				 "unsigned 3.1.1 tree connect");
	ctx->drop_reason = "unsigned 3.1.1 tree connect";
	return true;
}

u32 ksmbd_smb2_attach(struct ksmbd_smb2_ctx *ctx)
{
	const struct ksmbd_req *req = ctx->req;
	u16 cmd = req->hdr.command;
	struct ksmbd_session *sess = NULL;
	const struct ksmbd_signer *signer;
	bool is_signed = req->hdr.flags & SMB2_FLAGS_SIGNED;
	bool encrypted;

	if (cmd == SMB2_NEGOTIATE)
		return STATUS_SUCCESS;
	if (ctx->session_id)
		sess = ksmbd_session_lookup(ctx->conn, ctx->session_id);
	if (!sess)
		return needs_session(cmd) ? STATUS_USER_SESSION_DELETED :
					    STATUS_SUCCESS;
	encrypted = ctx->work->enc_sess && ctx->work->enc_sess->id == sess->id;
	/* 3.3.5.2.9: RejectUnencryptedAccess with Session.EncryptData. */
	if (!encrypted && sess->crypto.reject_unencrypted) {
		ksmbd_conn_note_rejected(ctx->conn, cmd, req->hdr.message_id,
					 "unencrypted request");
		ksmbd_session_put(sess);
		return STATUS_ACCESS_DENIED;
	}
	/*
	 * An encrypted request is authenticated by its AEAD tag; guest and
	 * anonymous sessions have no key, so nothing to verify.
	 */
	signer = ksmbd_session_signer(sess, ctx->conn);
	if (!encrypted && (is_signed || sess->signing_required) &&
	    ksmbd_signer_ready(signer) &&
	    ksmbd_signer_verify(signer, req->elem.p, req->elem.len)) {
		ksmbd_debug(AUTH, "session %llx: bad signature on command %u\n",
			    sess->id, cmd);
		if (setup_signed_by_session(ctx, sess, signer)) {
			ctx->sess = sess;
			ctx->sign_session_key = true;
			return STATUS_ACCESS_DENIED;
		}
		ksmbd_conn_note_rejected(ctx->conn, cmd, req->hdr.message_id,
					 "bad signature");
		ksmbd_session_put(sess);
		return STATUS_ACCESS_DENIED;
	}
	ctx->sess = sess;
	/* answered signed, as the session's requests are */
	if (ksmbd_session_expired(sess) && !allowed_expired(req))
		return STATUS_NETWORK_SESSION_EXPIRED;
	if (cmd == SMB2_TREE_CONNECT &&
	    tree_connect_unprotected(ctx, sess, signer, is_signed || encrypted))
		return STATUS_ACCESS_DENIED;
	if (!needs_tree(cmd))
		return STATUS_SUCCESS;
	ctx->tree = ksmbd_tree_lookup(sess, ctx->tree_id);
	if (!ctx->tree)
		return STATUS_NETWORK_NAME_DELETED;
	/* 3.3.5.2.11: a share that requires encryption. */
	if (!encrypted && ksmbd_share_has(ctx->tree->share,
					  KSMBD_SHARE_FLAG_ENCRYPT)) {
		ksmbd_conn_note_rejected(ctx->conn, cmd, req->hdr.message_id,
					 "unencrypted request on an encrypted share");
		return STATUS_ACCESS_DENIED;
	}
	return STATUS_SUCCESS;
}

void ksmbd_smb2_detach(struct ksmbd_smb2_ctx *ctx)
{
	if (ctx->tree)
		ksmbd_tree_put(ctx->tree);
	if (ctx->sess)
		ksmbd_session_put(ctx->sess);
	ctx->tree = NULL;
	ctx->sess = NULL;
}

/* The session whose key signs this element's response, with a reference. */
struct ksmbd_session *ksmbd_smb2_rsp_signer(const struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_session *sess = ctx->sess;

	if (!sess ||
	    !ksmbd_signer_ready(ksmbd_session_signer(sess, ctx->conn)) ||
	    ctx->status == STATUS_PENDING)
		return NULL;
	if (!ctx->sign_rsp && !sess->signing_required &&
	    !(ctx->req && (ctx->req->hdr.flags & SMB2_FLAGS_SIGNED)))
		return NULL;
	ksmbd_session_get(sess);
	return sess;
}
