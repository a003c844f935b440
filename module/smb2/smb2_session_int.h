/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between smb2_session.c (SESSION_SETUP, NTLMv2) and smb2_session_krb5.c
 * (SESSION_SETUP with a Kerberos AP-REQ checked by the daemon).
 */
#ifndef KSMBD_SMB2_SESSION_INT_H
#define KSMBD_SMB2_SESSION_INT_H

#include "proto/ntlmsec.h"
#include "proto/ntlmssp.h"
#include "proto/ntlmv2.h"
#include "proto/spnego.h"
#include "proto/validate.h"
#include "smb2_dispatch.h"
#include "uapi/ksmbd_netlink.h"

struct ksmbd_session;
struct ksmbd_wbuf;

/* smb2_session_krb5.c */
bool ksmbd_krb5_wanted(const struct ksmbd_spnego_token *tok);
bool ksmbd_krb5_enabled(void);
u32 ksmbd_smb2_krb5_setup(struct ksmbd_smb2_ctx *ctx,
			  const struct ksmbd_sess_setup_req *sr);

/* smb2_session.c: the steps a Kerberos setup shares with NTLMv2 */
struct ksmbd_session *ksmbd_sess_setup_session(struct ksmbd_smb2_ctx *ctx,
					       u32 *st);
int ksmbd_sess_preauth_absorb(struct ksmbd_session *sess, const u8 *msg,
			      u32 len);
bool ksmbd_sess_wants_signing(const struct ksmbd_smb2_ctx *ctx,
			      const struct ksmbd_sess_setup_req *sr);
int ksmbd_sess_make_valid(struct ksmbd_session *sess,
			  const struct ksmbd_login_response *lr,
			  const u8 *key, u32 key_len);
int ksmbd_sess_reauth_check(const struct ksmbd_session *sess,
			    const struct ksmbd_login_response *lr);
/* SESSION_SETUP response carrying @token (already SPNEGO) as it is. */
int ksmbd_sess_encode_rsp(struct ksmbd_wbuf *w, u16 session_flags,
			  const u8 *token, u32 token_len);

/*
 * Shared by SESSION_SETUP's files: smb2_session.c (the NTLMSSP legs),
 * smb2_session_bind.c (binding a channel) and smb2_session_krb5.c.
 */
/* An NTLMSSP NEGOTIATE is ~40 bytes; anything this large is not one. */
#define NEGOTIATE_BLOB_MAX	1024
/* CHALLENGE with our names and timestamp; SPNEGO adds a few dozen bytes. */
#define CHALLENGE_BLOB_MAX	1024
/* The client's DER MechTypeList, kept for the mechListMIC: 16 OIDs. */
#define MECH_LIST_MAX		256

struct ksmbd_auth_state {
	bool spnego;			/* wrap answers in NegTokenResp */
	bool reauth;			/* on a VALID session: see the top */
	u32 flags;			/* NTLMSSP flags we chose */
	u8 server_challenge[KSMBD_NTLM_CHALLENGE_SIZE];
	u32 neg_len;
	u32 chal_len;
	u8 neg_blob[NEGOTIATE_BLOB_MAX];	/* for the MIC */
	u8 chal_blob[CHALLENGE_BLOB_MAX];
	/* SPNEGO: NTLMSSP not the client's first choice, its mechTypes. */
	bool not_preferred;
	u32 mech_list_len;		/* 0: none, or too long to keep */
	u8 mech_list[MECH_LIST_MAX];
};

/* A decoded leg: which session, which NTLMSSP message. */
struct setup_req {
	struct ksmbd_sess_setup_req sr;
	bool spnego;
	struct ksmbd_buf token;		/* the NTLMSSP message */
	u32 type;			/* NTLMSSP_*_MSG */
	bool mech_only;			/* NegTokenInit without an NTLMSSP token */
	bool krb5;			/* a Kerberos AP-REQ: smb2_session_krb5.c */
	/* SPNEGO fields of this leg (empty when absent or raw NTLMSSP) */
	bool not_preferred;		/* NegTokenInit: NTLMSSP not first */
	struct ksmbd_buf mech_list;	/* NegTokenInit: DER mechTypes */
	struct ksmbd_buf mech_list_mic;	/* NegTokenResp: client's MIC */
};

int ksmbd_sess_build_challenge(struct ksmbd_auth_state *auth,
			       const struct ksmbd_buf *negotiate);
void ksmbd_sess_keep_mech_list(struct ksmbd_auth_state *auth,
			       const struct setup_req *sq);
bool ksmbd_sess_server_flag(u32 flag);
const char *ksmbd_sess_failure_reason(int err);
u32 ksmbd_sess_auth_failure_status(int err);
int ksmbd_sess_identify(const struct ksmbd_auth_state *auth,
			struct setup_req *sq, const struct ksmbd_ntlm_auth *na,
			struct ksmbd_login_response *lr,
			u8 exported[KSMBD_NTLMV2_KEY_SIZE], u16 *flags);
int ksmbd_sess_mech_list_mic(const struct ksmbd_auth_state *auth,
			     const struct setup_req *sq, u32 ntlm_flags,
			     const u8 exported[KSMBD_NTLMV2_KEY_SIZE],
			     u8 mic[KSMBD_NTLM_SEC_SIG_SIZE], u32 *mic_len);
bool ksmbd_sess_is_311(const struct ksmbd_session *sess);
int ksmbd_sess_encode(struct ksmbd_wbuf *w, u16 session_flags, bool spnego,
		      enum ksmbd_spnego_state state, const u8 *token,
		      u32 token_len, const u8 *mic, u32 mic_len);
int ksmbd_sess_reauth(const struct ksmbd_session *sess,
		      const struct ksmbd_login_response *lr,
		      u16 session_flags);
u32 ksmbd_sess_bind_setup(struct ksmbd_smb2_ctx *ctx, struct setup_req *sq);

#endif
