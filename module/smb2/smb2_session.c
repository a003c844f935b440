// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SESSION_SETUP (MS-SMB2 3.3.5.5) with NTLMv2 (MS-NLMP), raw or inside
 * SPNEGO (MS-SPNG), and LOGOFF (3.3.5.6).
 *
 * Two legs: NTLMSSP NEGOTIATE creates an IN_PROGRESS session and answers
 * CHALLENGE with STATUS_MORE_PROCESSING_REQUIRED; AUTHENTICATE on that
 * session id asks the daemon for the account, checks the NTLMv2 proof,
 * derives the signing key and makes the session VALID. Every failure is
 * STATUS_LOGON_FAILURE, and an unknown user costs the same work as a
 * wrong password (the proof is checked against a dummy hash).
 *
 * Guests (MS-SMB2 3.3.5.5.3): an anonymous AUTHENTICATE (empty user and
 * NT response) becomes an IS_NULL session when the daemon allows null
 * sessions ("restrict anonymous" < 2); an unknown user becomes an
 * IS_GUEST session under "map to guest = bad user" (a wrong password of
 * a known user never does). Both run as the daemon's guest account, have
 * no key, never sign, and are refused under "server signing =
 * mandatory".
 *
 * Re-authentication (3.3.5.5.2): SESSION_SETUP legs on a VALID session
 * run a new NTLMSSP exchange while the session stays usable; it must
 * prove the same account (else STATUS_ACCESS_DENIED). The session key,
 * and so the signing key, is kept; the preauth hash is not extended.
 * Any failure ends the session, as a failed first setup does.
 *
 * Kerberos (a SPNEGO NegTokenInit whose first mechanism is krb5 with an
 * AP-REQ) is checked by the daemon: smb2_session_krb5.c.
 *
 * PreviousSessionId (3.3.5.5.3): a successful setup naming another
 * session of the same user ends that one as a dropped connection would,
 * keeping its durable handles (session.c).
 *
 * Binding (3.3.5.5.2, SMB2_SESSION_FLAG_BINDING): another 3.x connection
 * joins a VALID session as a channel. The request is signed with the
 * session's key; the session's dialect, cipher and AES-GMAC use must
 * match the connection's; a new NTLMSSP exchange (on a channel state of
 * its own, with this connection's preauth chain on 3.1.1) must prove the
 * session's user; the channel then signs with a key derived from that
 * exchange's session key (3.3.5.5.3). A failed binding leaves the session
 * as it was. Kerberos binding is not implemented (STATUS_NOT_SUPPORTED).
 * Binding is in smb2_session_bind.c; the per-element session and tree
 * lookup and signature check the dispatcher runs, in smb2_attach.c.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/cred.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "connection.h"
#include "debug.h"
#include "ipc.h"
#include "ksmbd_trace.h"
#include "proto/encode.h"
#include "proto/kdf.h"
#include "proto/ntlmsec.h"
#include "proto/ntlmssp.h"
#include "proto/ntlmv2.h"
#include "proto/spnego.h"
#include "server.h"
#include "session.h"
#include "share.h"
#include "smb2_dispatch.h"
#include "smb2_session_int.h"
#include "smb2_transform.h"
#include "tree.h"
#include "work.h"

/* Seconds from 1601-01-01 (FILETIME epoch) to 1970-01-01. */
#define FILETIME_UNIX_OFFSET	11644473600ULL



void ksmbd_auth_state_free(struct ksmbd_auth_state *auth)
{
	kfree_sensitive(auth);
}

static u64 filetime_now(void)
{
	return div_u64(ktime_get_real_ns(), 100) +
	       FILETIME_UNIX_OFFSET * 10000000ULL;
}

bool ksmbd_sess_is_311(const struct ksmbd_session *sess)
{
	return sess->dialect == SMB311_DIALECT;
}

static int preauth_absorb(struct ksmbd_session *sess, const u8 *msg, u32 len)
{
	struct ksmbd_buf part = ksmbd_buf_make(msg, len);

	/* A re-authentication keeps the key the hash went into. */
	if (!ksmbd_sess_is_311(sess) || (sess->auth && sess->auth->reauth))
		return 0;
	return ksmbd_preauth_hash_update(sess->preauth_hash, &part, 1);
}

/* ---- Decode ---- */

static int decode_setup(const struct ksmbd_req *req, struct setup_req *out)
{
	struct ksmbd_spnego_token tok;
	const struct ksmbd_buf *blob;

	if (ksmbd_sess_setup_decode(req, &out->sr))
		return -EINVAL;
	blob = &out->sr.security_blob;
	out->spnego = false;
	out->mech_only = false;
	out->krb5 = false;
	out->not_preferred = false;
	out->mech_list = ksmbd_buf_make(NULL, 0);
	out->mech_list_mic = ksmbd_buf_make(NULL, 0);
	out->token = *blob;
	if (blob->len && (blob->p[0] == 0x60 || blob->p[0] == 0xa1)) {
		bool first;

		if (ksmbd_spnego_parse(blob->p, blob->len, &tok))
			return -EINVAL;
		if (tok.is_init && ksmbd_krb5_wanted(&tok)) {
			out->spnego = true;
			out->krb5 = true;
			return 0;
		}
		if (tok.is_init && !ksmbd_spnego_offers(&tok,
						KSMBD_MECH_NTLMSSP, &first))
			return -EOPNOTSUPP;
		out->spnego = true;
		out->token = tok.mech_token;
		if (tok.is_init) {
			out->not_preferred = !first;
			out->mech_list = tok.mech_list;
		} else {
			out->mech_list_mic = tok.mech_list_mic;
		}
	}
	out->type = ksmbd_ntlmssp_type(out->token.p, out->token.len);
	if (out->type == NTLMSSP_NEGOTIATE_MSG ||
	    out->type == NTLMSSP_AUTHENTICATE_MSG)
		return 0;
	/* Another mechanism's optimistic token: answer by choosing ours. */
	if (out->spnego && tok.is_init) {
		out->type = NTLMSSP_NEGOTIATE_MSG;
		out->token.len = 0;
		out->mech_only = true;
		return 0;
	}
	return -EINVAL;
}

/* ---- Encode ---- */

/*
 * SESSION_SETUP response: fixed part, then the security buffer built by
 * put_token (raw NTLMSSP, or wrapped in a NegTokenResp).
 */
int ksmbd_sess_encode(struct ksmbd_wbuf *w, u16 session_flags, bool spnego,
		      enum ksmbd_spnego_state state, const u8 *token,
		      u32 token_len, const u8 *mic, u32 mic_len)
{
	u32 blob_len = 0;
	u8 *fixed, *at;
	int ret;

	fixed = ksmbd_wbuf_reserve(w, sizeof(struct smb2_sess_setup_rsp));
	if (!fixed)
		return -ENOSPC;
	at = w->p + w->len;
	if (spnego) {
		ret = ksmbd_spnego_build_resp(state,
					state == KSMBD_SPNEGO_ACCEPT_INCOMPLETE,
					token, token_len, mic, mic_len, at,
					w->cap - w->len, &blob_len);
		if (ret)
			return ret;
	} else if (token_len) {
		if (token_len > w->cap - w->len)
			return -ENOSPC;
		memcpy(at, token, token_len);
		blob_len = token_len;
	}
	w->len += blob_len;
	ksmbd_sess_setup_rsp_set(fixed, session_flags, blob_len);
	return 0;
}

/* ---- Leg 1: NEGOTIATE -> CHALLENGE ---- */

static void challenge_names(struct ksmbd_ntlm_challenge_params *p)
{
	const char *nb = ksmbd_server_conf.netbios_name;
	const char *wg = ksmbd_server_conf.work_group;

	/* Without a daemon's configuration (autostart) use the defaults. */
	p->nb_computer = nb[0] ? nb : "KSMBD";
	p->nb_domain = wg[0] ? wg : "WORKGROUP";
	p->dns_computer = p->nb_computer;
	p->dns_domain = p->nb_domain;
}

int ksmbd_sess_build_challenge(struct ksmbd_auth_state *auth,
			       const struct ksmbd_buf *negotiate)
{
	struct ksmbd_ntlm_challenge_params p = { };
	u32 client_flags;
	int ret;

	if (negotiate->len > sizeof(auth->neg_blob))
		return -EINVAL;
	ret = ksmbd_ntlmssp_parse_negotiate(negotiate->p, negotiate->len,
					    &client_flags);
	if (ret)
		return ret;
	memcpy(auth->neg_blob, negotiate->p, negotiate->len);
	auth->neg_len = negotiate->len;
	get_random_bytes(auth->server_challenge,
			 sizeof(auth->server_challenge));
	p.client_flags = client_flags;
	p.server_challenge = auth->server_challenge;
	p.timestamp = filetime_now();
	challenge_names(&p);
	return ksmbd_ntlmssp_build_challenge(&p, auth->chal_blob,
					     sizeof(auth->chal_blob),
					     &auth->chal_len, &auth->flags);
}

/* MS-SMB2 3.3.5.5.3: this leg's response joins the preauth hash. */
static void challenge_finish(struct ksmbd_smb2_ctx *ctx, const u8 *rsp,
			     u32 len)
{
	struct ksmbd_session *sess = ctx->sess;

	mutex_lock(&sess->auth_lock);
	if (preauth_absorb(sess, rsp, len))
		ksmbd_conn_drop(ctx->conn, "preauth hash failed");
	mutex_unlock(&sess->auth_lock);
}

/*
 * The session a NEGOTIATE leg works on: a new one, or (session id set)
 * one whose first leg only settled the mechanism. A re-authentication of
 * a VALID session is refused: see the top.
 */
static struct ksmbd_session *leg_session(struct ksmbd_smb2_ctx *ctx, u32 *st)
{
	struct ksmbd_session *sess;

	if (ctx->session_id) {
		sess = ksmbd_session_lookup_any(ctx->conn, ctx->session_id);
		if (!sess)
			*st = STATUS_USER_SESSION_DELETED;
		return sess;
	}
	sess = ksmbd_session_create(ctx->conn);
	if (IS_ERR(sess)) {
		*st = PTR_ERR(sess) == -EAGAIN ? STATUS_INSUFFICIENT_RESOURCES :
						 STATUS_REQUEST_NOT_ACCEPTED;
		return NULL;
	}
	return sess;
}

/*
 * Under auth_lock: does this NEGOTIATE leg start an exchange? On a new
 * session, yes; on a VALID one (re-authentication) unless a previous leg
 * only settled the mechanism (then it continues that one).
 */
static bool leg_starts(struct ksmbd_session *sess, bool fresh)
{
	return fresh || (ksmbd_session_valid(sess) &&
			 (!sess->auth || sess->auth->neg_len));
}

/* Under auth_lock: the exchange this leg continues, or NULL out of turn. */
static struct ksmbd_auth_state *leg_auth(struct ksmbd_session *sess,
					 bool start)
{
	struct ksmbd_auth_state *auth = sess->auth;
	bool reauth = ksmbd_session_valid(sess);

	if (start) {
		ksmbd_auth_state_free(sess->auth);
		sess->auth = kzalloc(sizeof(*sess->auth), GFP_KERNEL);
		if (sess->auth)
			sess->auth->reauth = reauth;
		return sess->auth;
	}
	if (!auth || auth->neg_len || auth->reauth != reauth ||
	    (!reauth && READ_ONCE(sess->state) != KSMBD_SESS_IN_PROGRESS))
		return NULL;
	return auth;
}

/* Drop a re-authentication's exchange; the session stays as it was. */
static void reauth_abandon(struct ksmbd_session *sess)
{
	mutex_lock(&sess->auth_lock);
	if (sess->auth && sess->auth->reauth) {
		ksmbd_auth_state_free(sess->auth);
		sess->auth = NULL;
	}
	mutex_unlock(&sess->auth_lock);
}

/*
 * MS-SPNG 3.1.5.1 / RFC 4178: the mechListMIC is over the mechTypes of
 * the client's first NegTokenInit. A list too long to keep leaves none,
 * and a MIC then cannot verify.
 */
void ksmbd_sess_keep_mech_list(struct ksmbd_auth_state *auth,
			       const struct setup_req *sq)
{
	auth->not_preferred = sq->not_preferred;
	auth->mech_list_len = 0;
	if (sq->mech_list.len && sq->mech_list.len <= sizeof(auth->mech_list)) {
		memcpy(auth->mech_list, sq->mech_list.p, sq->mech_list.len);
		auth->mech_list_len = sq->mech_list.len;
	}
}

/*
 * NTLMSSP NEGOTIATE -> CHALLENGE. A SPNEGO NegTokenInit whose optimistic
 * token is another mechanism's (Kerberos) gets an answer choosing
 * NTLMSSP and no token; the client's NEGOTIATE then comes on that
 * session id.
 */
static u32 leg_negotiate(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq)
{
	bool fresh = !ctx->session_id, start, reauth = false;
	struct ksmbd_auth_state *auth;
	struct ksmbd_session *sess;
	u32 st = STATUS_MORE_PROCESSING_REQUIRED;
	int ret;

	sess = leg_session(ctx, &st);
	if (!sess)
		return st;
	mutex_lock(&sess->auth_lock);
	start = leg_starts(sess, fresh);
	/* Choosing the mechanism happens once, on the first leg. */
	auth = start || !sq->mech_only ? leg_auth(sess, start) : NULL;
	if (!auth) {
		st = start ? STATUS_INSUFFICIENT_RESOURCES :
			     STATUS_REQUEST_NOT_ACCEPTED;
		goto out_unlock;
	}
	if (start) {
		auth->spnego = sq->spnego;
		ksmbd_sess_keep_mech_list(auth, sq);
	}
	reauth = auth->reauth;
	ret = preauth_absorb(sess, ctx->req->elem.p, ctx->req->elem.len);
	if (!ret && !sq->mech_only)
		ret = ksmbd_sess_build_challenge(auth, &sq->token);
	if (!ret)
		ret = ksmbd_sess_encode(&ctx->body, 0, auth->spnego,
					KSMBD_SPNEGO_ACCEPT_INCOMPLETE,
					auth->chal_blob, auth->chal_len,
					NULL, 0);
	if (ret)
		st = ret == -ENOSPC ? STATUS_INSUFFICIENT_RESOURCES :
				      STATUS_INVALID_PARAMETER;
out_unlock:
	mutex_unlock(&sess->auth_lock);
	if (st != STATUS_MORE_PROCESSING_REQUIRED) {
		/*
		 * A failed leg ends a setup in progress; of a valid session
		 * only the re-authentication it started.
		 */
		if (READ_ONCE(sess->state) == KSMBD_SESS_IN_PROGRESS)
			ksmbd_session_teardown(sess, "setup failed");
		else if (reauth)
			reauth_abandon(sess);
		ksmbd_session_put(sess);
		return st;
	}
	ctx->sess = sess;		/* the dispatcher puts it */
	ctx->session_id = sess->id;
	if (!reauth)
		ctx->finish = challenge_finish;
	return st;
}

/* ---- Leg 2: AUTHENTICATE ---- */

/*
 * The user's credentials for VFS calls: ids and supplementary groups from
 * the daemon, no capabilities.
 */
static const struct cred *build_cred(const struct ksmbd_login_response *lr)
{
	kuid_t uid = make_kuid(&init_user_ns, lr->uid);
	kgid_t gid = make_kgid(&init_user_ns, lr->gid);
	struct group_info *groups;
	struct cred *cred;
	u32 i;

	/* The validator bounded ngroups; a bad id is the daemon's error. */
	if (!uid_valid(uid) || !gid_valid(gid) ||
	    lr->ngroups > KSMBD_LOGIN_MAX_GROUPS)
		return ERR_PTR(-EINVAL);
	groups = groups_alloc(lr->ngroups);
	if (!groups)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < lr->ngroups; i++) {
		groups->gid[i] = make_kgid(&init_user_ns, lr->groups[i]);
		if (!gid_valid(groups->gid[i])) {
			put_group_info(groups);
			return ERR_PTR(-EINVAL);
		}
	}
	groups_sort(groups);
	cred = prepare_kernel_cred(NULL);
	if (!cred) {
		put_group_info(groups);
		return ERR_PTR(-ENOMEM);
	}
	cred->uid = cred->euid = cred->suid = cred->fsuid = uid;
	cred->gid = cred->egid = cred->sgid = cred->fsgid = gid;
	set_groups(cred, groups);
	put_group_info(groups);
	/* The kernel, not capabilities, decides what this user may do. */
	if (!uid_eq(uid, GLOBAL_ROOT_UID)) {
		cap_clear(cred->cap_inheritable);
		cap_clear(cred->cap_permitted);
		cap_clear(cred->cap_effective);
		cap_clear(cred->cap_ambient);
	}
	return cred;
}

/*
 * Ask the daemon and check the proof. Unknown user, no daemon, a guest
 * record without a hash: the proof is checked against zeros all the
 * same, then refused, so answers and timing match a wrong password.
 * *unknown tells the daemon did not know the name (or named the guest
 * account): the one case "map to guest = bad user" turns into a guest.
 */
static int verify_user(const struct ksmbd_auth_state *auth,
		       const struct ksmbd_ntlm_auth *na,
		       const struct ksmbd_buf *auth_blob,
		       struct ksmbd_login_response *out,
		       u8 exported[KSMBD_NTLMV2_KEY_SIZE], bool *unknown)
{
	struct ksmbd_buf neg = ksmbd_buf_make(auth->neg_blob, auth->neg_len);
	struct ksmbd_buf chal = ksmbd_buf_make(auth->chal_blob, auth->chal_len);
	struct ksmbd_login_response *rsp;
	u8 hash[KSMBD_NT_HASH_SIZE] = { };
	bool known = false;
	int ret;

	*unknown = false;
	rsp = ksmbd_ipc_login(na->user_utf8, 0);
	if (!IS_ERR(rsp)) {
		known = (rsp->status & KSMBD_USER_FLAG_OK) &&
			!(rsp->status & KSMBD_USER_FLAG_GUEST_ACCOUNT) &&
			rsp->hash_sz == KSMBD_NT_HASH_SIZE;
		*unknown = !known &&
			   (rsp->status & (KSMBD_USER_FLAG_BAD_USER |
					   KSMBD_USER_FLAG_GUEST_ACCOUNT));
		if (known) {
			memcpy(hash, rsp->hash, sizeof(hash));
			*out = *rsp;
			memzero_explicit(out->hash, sizeof(out->hash));
		}
		ksmbd_ipc_free_sensitive(rsp, sizeof(*rsp));
	}
	ret = ksmbd_ntlmv2_authenticate(hash, auth->server_challenge, na, &neg,
					&chal, auth_blob, exported);
	memzero_explicit(hash, sizeof(hash));
	if (!ret && !known)
		ret = -EKEYREJECTED;
	return ret;
}

/* The guest account's record, for an IS_GUEST or IS_NULL session. */
static int guest_record(struct ksmbd_login_response *out)
{
	const u16 want = KSMBD_USER_FLAG_OK | KSMBD_USER_FLAG_GUEST_ACCOUNT;
	struct ksmbd_login_response *rsp;
	int ret = 0;

	/* Without "server signing = mandatory": guests cannot sign. */
	if (READ_ONCE(ksmbd_server_conf.signing) == KSMBD_OPT_MANDATORY)
		return -EACCES;
	rsp = ksmbd_ipc_login("", KSMBD_LOGIN_FLAG_GUEST);
	if (IS_ERR(rsp))
		return PTR_ERR(rsp);
	if ((rsp->status & want) != want)
		ret = -EACCES;
	else
		*out = *rsp;
	ksmbd_ipc_free_sensitive(rsp, sizeof(*rsp));
	return ret;
}

bool ksmbd_sess_server_flag(u32 flag)
{
	return READ_ONCE(ksmbd_server_conf.flags) & flag;
}

static int derive_signing(struct ksmbd_session *sess,
			  const u8 exported[KSMBD_NTLMV2_KEY_SIZE])
{
	u8 key[KSMBD_SIGNING_KEY_SIZE];
	u16 alg = sess->conn->neg.signing_alg;
	int ret = 0;

	if (sess->dialect < SMB30_DIALECT) {
		/* 2.x signs with the session key itself. */
		memcpy(key, exported, sizeof(key));
		alg = SMB2_SIGNING_HMAC_SHA256;
	} else {
		ret = ksmbd_kdf_session_key(sess->dialect, KSMBD_KEY_SIGNING,
					    exported, KSMBD_NTLMV2_KEY_SIZE,
					    sess->preauth_hash, key,
					    sizeof(key));
		if (sess->dialect != SMB311_DIALECT)
			alg = SMB2_SIGNING_AES_CMAC;
	}
	if (!ret)
		ret = ksmbd_signer_init(&sess->signer, alg, key, sess->conn);
	memzero_explicit(key, sizeof(key));
	return ret;
}

static bool wants_signing(const struct ksmbd_smb2_ctx *ctx,
			  const struct setup_req *sq)
{
	const struct ksmbd_conn_neg *neg = &ctx->conn->neg;

	return READ_ONCE(ksmbd_server_conf.signing) == KSMBD_OPT_MANDATORY ||
	       (sq->sr.security_mode & SMB2_NEGOTIATE_SIGNING_REQUIRED) ||
	       (neg->client_security_mode & SMB2_NEGOTIATE_SIGNING_REQUIRED);
}

/*
 * Fill the session from the daemon's record and the proven key (NULL for
 * guest and anonymous sessions: no key, no signing).
 */
static int make_valid(struct ksmbd_session *sess,
		      const struct ksmbd_login_response *lr,
		      const u8 *exported, u32 key_len, u16 session_flags)
{
	const struct cred *cred = build_cred(lr);
	int ret;

	if (IS_ERR(cred))
		return PTR_ERR(cred);
	sess->cred = cred;
	sess->uid = cred->uid;
	sess->gid = cred->gid;
	strscpy(sess->account, lr->account, sizeof(sess->account));
	sess->user_flags = lr->status;
	sess->session_flags = session_flags;
	if (exported) {
		ret = derive_signing(sess, exported);
		if (!ret)
			ret = ksmbd_sess_crypto_setup(sess, exported, key_len);
		if (ret)
			return ret;
	}
	return ksmbd_session_activate(sess);
}

/* A re-authentication must prove the account the session already has. */
int ksmbd_sess_reauth(const struct ksmbd_session *sess,
		      const struct ksmbd_login_response *lr,
		      u16 session_flags)
{
	if (session_flags != sess->session_flags ||
	    strcmp(lr->account, sess->account) ||
	    !uid_eq(make_kuid(&init_user_ns, lr->uid), sess->uid))
		return -EPERM;
	return 0;
}

/* A class of reason for the trace; the client sees LOGON_FAILURE only. */
const char *ksmbd_sess_failure_reason(int err)
{
	switch (err) {
	case -EKEYREJECTED:
		return "bad proof or unknown user";
	case -EACCES:
		return "guest or anonymous refused";
	case -EPERM:
		return "another user on re-authentication";
	case -EOPNOTSUPP:
		return "not NTLMv2";
	case -ESHUTDOWN:
		return "session ended";
	case -ENOKEY:
		return "bad or missing mechListMIC";
	case -EBADMSG:
		return "malformed NTLMv2 response";
	default:
		return "malformed or internal";
	}
}

/*
 * A malformed NTLMv2 response is a bad parameter, as Windows answers it
 * (smbtorture smb2.session.ntlmssp_bug14932); a user of a re-authentication
 * who is not the session's is refused access; every other failure, whether
 * the user is unknown or the proof wrong, is the one logon failure.
 */
u32 ksmbd_sess_auth_failure_status(int err)
{
	switch (err) {
	case -EBADMSG:
		return STATUS_INVALID_PARAMETER;
	case -EPERM:
		return STATUS_ACCESS_DENIED;
	default:
		return STATUS_LOGON_FAILURE;
	}
}

/*
 * Who this AUTHENTICATE proves: the user's record in *lr and the key in
 * exported, or (*flags IS_NULL / IS_GUEST) the guest account's record.
 */
int ksmbd_sess_identify(const struct ksmbd_auth_state *auth,
			struct setup_req *sq, const struct ksmbd_ntlm_auth *na,
			struct ksmbd_login_response *lr,
			u8 exported[KSMBD_NTLMV2_KEY_SIZE], u16 *flags)
{
	bool unknown;
	int ret;

	*flags = 0;
	if (na->anonymous) {
		if (!ksmbd_sess_server_flag(KSMBD_GLOBAL_FLAG_NULL_SESSIONS))
			return -EACCES;
		*flags = SMB2_SESSION_FLAG_IS_NULL;
		return guest_record(lr);
	}
	ret = verify_user(auth, na, &sq->token, lr, exported, &unknown);
	if (ret != -EKEYREJECTED || !unknown ||
	    !ksmbd_sess_server_flag(KSMBD_GLOBAL_FLAG_MAP_TO_GUEST))
		return ret;
	*flags = SMB2_SESSION_FLAG_IS_GUEST;
	return guest_record(lr);
}

/*
 * MS-SPNG 3.1.5.1: a client's mechListMIC is checked (NTLM session
 * security, its first signature) and answered with ours in the final
 * NegTokenResp; one that preferred another mechanism must send one
 * (RFC 4178 section 5). Guest and anonymous sessions have no key to
 * check or sign with: their callers skip this.
 */
int ksmbd_sess_mech_list_mic(const struct ksmbd_auth_state *auth,
			     const struct setup_req *sq, u32 ntlm_flags,
			     const u8 exported[KSMBD_NTLMV2_KEY_SIZE],
			     u8 mic[KSMBD_NTLM_SEC_SIG_SIZE], u32 *mic_len)
{
	struct ksmbd_buf list = ksmbd_buf_make(auth->mech_list,
					       auth->mech_list_len);
	int ret;

	*mic_len = 0;
	if (!auth->spnego || (!sq->mech_list_mic.len && !auth->not_preferred))
		return 0;
	ret = ksmbd_ntlm_mech_list_mic(ntlm_flags, exported, &list,
				       &sq->mech_list_mic, mic);
	if (ret)
		return ret == -EKEYREJECTED ? -ENOKEY : ret;
	*mic_len = KSMBD_NTLM_SEC_SIG_SIZE;
	return 0;
}

static int authenticate_leg(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq,
			    struct ksmbd_session *sess,
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
		ret = preauth_absorb(sess, ctx->req->elem.p, ctx->req->elem.len);
	if (!ret)
		ret = ksmbd_sess_identify(sess->auth, sq, na, lr, exported,
					  &flags);
	if (!ret && !flags)
		ret = ksmbd_sess_mech_list_mic(sess->auth, sq, na->flags,
					       exported, mic, mic_len);
	if (!ret && sess->auth->reauth) {
		ret = ksmbd_sess_reauth(sess, lr, flags);
		if (!ret)	/* NTLM: no ticket, no end */
			ksmbd_session_set_expiry(sess, 0);
	} else if (!ret) {
		sess->signing_required = !flags && wants_signing(ctx, sq);
		ret = make_valid(sess, lr, flags ? NULL : exported,
				 KSMBD_NTLMV2_KEY_SIZE, flags);
	}
	memzero_explicit(exported, sizeof(exported));
	return ret;
}

static u32 authenticate(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq,
			struct ksmbd_session *sess)
{
	struct ksmbd_login_response *lr;
	struct ksmbd_ntlm_auth *na;
	bool spnego = sess->auth->spnego;
	u8 mic[KSMBD_NTLM_SEC_SIG_SIZE];
	u32 mic_len;
	int ret;

	na = kzalloc(sizeof(*na), GFP_KERNEL);
	lr = kzalloc(sizeof(*lr), GFP_KERNEL);
	if (!na || !lr) {
		kfree(na);
		kfree(lr);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	ret = authenticate_leg(ctx, sq, sess, na, lr, mic, &mic_len);
	kfree(lr);
	if (ret) {
		trace_ksmbd_auth_failure(ctx->conn->id, ctx->session_id,
					 na->user_utf8,
					 ksmbd_sess_failure_reason(ret),
					 &ctx->conn->peer);
		kfree(na);
		return ksmbd_sess_auth_failure_status(ret);
	}
	ksmbd_debug(AUTH, "session %llx: user %s logged on (flags 0x%x)\n",
		    sess->id, sess->account, sess->session_flags);
	kfree(na);
	ksmbd_auth_state_free(sess->auth);
	sess->auth = NULL;
	ret = ksmbd_sess_encode(&ctx->body, sess->session_flags |
				(sess->crypto.encrypt_data ?
				 SMB2_SESSION_FLAG_ENCRYPT_DATA : 0), spnego,
				KSMBD_SPNEGO_ACCEPT_COMPLETED, NULL, 0, mic,
				mic_len);
	if (ret)
		return STATUS_INSUFFICIENT_RESOURCES;
	ksmbd_conn_set_authenticated(ctx->conn);
	/*
	 * MS-SMB2 3.3.5.5.3: the final 3.1.1 response is signed (the client
	 * checks it against the preauth chain); earlier dialects sign it
	 * when signing is in force. Guests have no key and sign nothing.
	 */
	ctx->sign_rsp = ksmbd_signer_ready(&sess->signer) &&
			(ksmbd_sess_is_311(sess) || sess->signing_required ||
			 (ctx->req->hdr.flags & SMB2_FLAGS_SIGNED));
	return STATUS_SUCCESS;
}

static u32 leg_authenticate(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq)
{
	struct ksmbd_session *sess;
	struct ksmbd_auth_state *auth;
	u32 st;

	sess = ksmbd_session_lookup_any(ctx->conn, ctx->session_id);
	if (!sess)
		return STATUS_USER_SESSION_DELETED;
	mutex_lock(&sess->auth_lock);
	auth = sess->auth;
	if (!auth || !auth->chal_len ||
	    READ_ONCE(sess->state) != (auth->reauth ? KSMBD_SESS_VALID :
						     KSMBD_SESS_IN_PROGRESS)) {
		mutex_unlock(&sess->auth_lock);
		ksmbd_session_put(sess);
		return STATUS_REQUEST_NOT_ACCEPTED;
	}
	st = authenticate(ctx, sq, sess);
	mutex_unlock(&sess->auth_lock);
	if (st != STATUS_SUCCESS) {
		/*
		 * MS-SMB2 3.3.5.5.3: a failed setup removes the session, a
		 * failed re-authentication too.
		 */
		ksmbd_session_teardown(sess, "logon failed");
		ksmbd_session_put(sess);
		return st;
	}
	ctx->sess = sess;
	return st;
}

enum ksmbd_smb2_verdict ksmbd_smb2_session_setup(struct ksmbd_smb2_ctx *ctx)
{
	struct setup_req sq;
	int ret;

	ret = decode_setup(ctx->req, &sq);
	if (ret) {
		ctx->status = ret == -EOPNOTSUPP ? STATUS_NOT_SUPPORTED :
						   STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	/* MS-SMB2 3.3.5.5: encryption required, and this client cannot. */
	if ((READ_ONCE(ksmbd_server_conf.flags) &
	     KSMBD_GLOBAL_FLAG_ENCRYPTION_REQUIRED) && !ctx->conn->neg.cipher) {
		trace_ksmbd_auth_failure(ctx->conn->id, ctx->session_id, "",
					 "encryption required",
					 &ctx->conn->peer);
		ctx->status = STATUS_ACCESS_DENIED;
		return KSMBD_SMB2_REPLY;
	}
	if (ctx->session_id && (sq.sr.flags & SMB2_SESSION_FLAG_BINDING)) {
		ctx->status = ksmbd_sess_bind_setup(ctx, &sq);
		goto out;
	}
	/* The dispatcher's reference, if any, is the previous session's. */
	if (ctx->sess) {
		ksmbd_session_put(ctx->sess);
		ctx->sess = NULL;
	}
	if (sq.krb5)
		ctx->status = ksmbd_smb2_krb5_setup(ctx, &sq.sr);
	else if (sq.type == NTLMSSP_NEGOTIATE_MSG)
		ctx->status = leg_negotiate(ctx, &sq);
	else
		ctx->status = leg_authenticate(ctx, &sq);
	if (ctx->status == STATUS_SUCCESS && ctx->sess)
		ksmbd_session_end_previous(ctx->sess,
					   sq.sr.previous_session_id);
out:
	trace_ksmbd_session_setup(ctx->conn, ctx->session_id,
				  ctx->sess ? ctx->sess->account : "",
				  sq.krb5 ? "spnego-krb5" :
				  sq.spnego ? "spnego-ntlmssp" : "ntlmssp",
				  ctx->status,
				  ctx->sess && ctx->sess->signing_required,
				  ctx->sess && ctx->sess->crypto.encrypt_data,
				  sq.sr.flags & SMB2_SESSION_FLAG_BINDING,
				  ksmbd_tp_since(ctx->work->received_ns));
	if (ctx->status != STATUS_SUCCESS &&
	    ctx->status != STATUS_MORE_PROCESSING_REQUIRED)
		ctx->body.len = 0;
	return KSMBD_SMB2_REPLY;
}

enum ksmbd_smb2_verdict ksmbd_smb2_logoff(struct ksmbd_smb2_ctx *ctx)
{
	if (ksmbd_simple_decode(ctx->req, SMB2_LOGOFF)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	ksmbd_debug(AUTH, "session %llx: logoff\n", ctx->sess->id);
	/* ctx->sess stays a valid object until the dispatcher puts it. */
	ksmbd_session_teardown(ctx->sess, "logoff");
	ksmbd_wbuf_put_le16(&ctx->body, SMB2_SIMPLE_SIZE);
	ksmbd_wbuf_put_le16(&ctx->body, 0);
	return KSMBD_SMB2_REPLY;
}

/* ---- For smb2_session_krb5.c ---- */

struct ksmbd_session *ksmbd_sess_setup_session(struct ksmbd_smb2_ctx *ctx,
					       u32 *st)
{
	return leg_session(ctx, st);
}

int ksmbd_sess_preauth_absorb(struct ksmbd_session *sess, const u8 *msg,
			      u32 len)
{
	return preauth_absorb(sess, msg, len);
}

bool ksmbd_sess_wants_signing(const struct ksmbd_smb2_ctx *ctx,
			      const struct ksmbd_sess_setup_req *sr)
{
	struct setup_req sq = { .sr = *sr };

	return wants_signing(ctx, &sq);
}

int ksmbd_sess_make_valid(struct ksmbd_session *sess,
			  const struct ksmbd_login_response *lr,
			  const u8 *key, u32 key_len)
{
	return make_valid(sess, lr, key, key_len, 0);
}

int ksmbd_sess_reauth_check(const struct ksmbd_session *sess,
			    const struct ksmbd_login_response *lr)
{
	return ksmbd_sess_reauth(sess, lr, 0);
}

int ksmbd_sess_encode_rsp(struct ksmbd_wbuf *w, u16 session_flags,
			  const u8 *token, u32 token_len)
{
	return ksmbd_sess_encode(w, session_flags, false,
				 KSMBD_SPNEGO_ACCEPT_COMPLETED, token, token_len,
				 NULL, 0);
}
