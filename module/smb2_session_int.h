/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between smb2_session.c (SESSION_SETUP, NTLMv2) and smb2_session_krb5.c
 * (SESSION_SETUP with a Kerberos AP-REQ checked by the daemon).
 */
#ifndef KSMBD_SMB2_SESSION_INT_H
#define KSMBD_SMB2_SESSION_INT_H

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

#endif
