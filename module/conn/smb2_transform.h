/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB 3.x encryption (MS-SMB2 3.1.4.3, 3.3.5.2.1.1, 3.3.4.1.4) and the
 * AEAD runs AES-GMAC signing shares with it, over the kernel crypto API.
 *
 * Allocation: keyed AEAD transforms live in the session (set up once, at
 * SESSION_SETUP); everything a single message needs (the aead_request,
 * a scatterlist sized for the connection's largest message, the transform
 * header and IV buffers, which must not be on the stack) is allocated
 * once per connection, the first time one of its sessions gets a key,
 * and reused under a mutex: rx for decryption and signature checks, tx
 * for encryption and signing. Nothing is allocated per message.
 */
#ifndef KSMBD_SMB2_TRANSFORM_H
#define KSMBD_SMB2_TRANSFORM_H

#include <linux/atomic.h>
#include <linux/types.h>
#include "session_types.h"

struct crypto_aead;
struct ksmbd_conn;
struct ksmbd_session;
struct ksmbd_conn_crypto;
struct ksmbd_transform;

static inline bool ksmbd_sess_crypto_ready(const struct ksmbd_sess_crypto *c)
{
	return c->enc != NULL;
}

/*
 * After authentication: derive the two cipher keys from session_key when
 * the connection negotiated a cipher, and decide EncryptData from the
 * global setting. 0 or -errno (the logon then fails).
 */
int ksmbd_sess_crypto_setup(struct ksmbd_session *sess, const u8 *session_key,
			    u32 key_len);
void ksmbd_sess_crypto_free(struct ksmbd_sess_crypto *c);

/* The connection's per-message buffers; made (or grown for tfm) on demand. */
int ksmbd_conn_crypto_prepare(struct ksmbd_conn *conn, struct crypto_aead *tfm);
void ksmbd_conn_crypto_free(struct ksmbd_conn *conn);

/*
 * A received transform frame, in two steps around the caller's lookup of
 * t->session_id's session (which this layer does not own): validate its
 * header into t, then decrypt it in place with sess (NULL or without keys:
 * refused); the plain message is then t->msg_len bytes at frame +
 * t->msg_off. On failure the connection has been dropped (MS-SMB2
 * 3.3.5.2.1.1) and -errno returned.
 */
int ksmbd_smb2_transform_check(struct ksmbd_conn *conn, const u8 *frame,
			       u32 len, struct ksmbd_transform *t);
int ksmbd_smb2_decrypt(struct ksmbd_conn *conn, struct ksmbd_session *sess,
		       u8 *frame, const struct ksmbd_transform *t);

/* Encrypt msg (len bytes, in place) for sess and send it as one frame. */
int ksmbd_smb2_send_encrypted(struct ksmbd_conn *conn,
			      struct ksmbd_session *sess, u8 *msg, u32 len);

/*
 * AES-GMAC over one SMB2 element (its Signature field taken as zeros):
 * sign writes the tag into the element's Signature; verify returns 0 or
 * -EBADMSG. tfm is "gcm(aes)" keyed with the signing key.
 */
int ksmbd_gmac_sign(struct ksmbd_conn *conn, struct crypto_aead *tfm,
		    u8 *msg, u32 len);
int ksmbd_gmac_verify(struct ksmbd_conn *conn, struct crypto_aead *tfm,
		      const u8 *msg, u32 len);

/* Frames dropped because they did not decrypt, and frames decrypted. */
u64 ksmbd_decrypt_failures(void);
u64 ksmbd_decrypted_frames(void);

#endif
