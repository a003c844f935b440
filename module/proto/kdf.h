/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB 3.x key derivation (MS-SMB2 3.1.4.2): SP800-108 counter mode with
 * HMAC-SHA256, r = 32, and the 3.1.1 pre-authentication integrity hash.
 */
#ifndef KSMBD_PROTO_KDF_H
#define KSMBD_PROTO_KDF_H

#include "shim.h"
#include "buf.h"
#include "crypto.h"

/* KDF(key, label, context) truncated to out_len bytes (16 or 32). */
int ksmbd_kdf_derive(const u8 *key, u32 key_len, const struct ksmbd_buf *label,
		     const struct ksmbd_buf *context, u8 *out, u32 out_len);

enum ksmbd_key_kind {
	KSMBD_KEY_SIGNING,
	KSMBD_KEY_SERVER_IN,	/* client-to-server: the server decrypts */
	KSMBD_KEY_SERVER_OUT,	/* server-to-client: the server encrypts */
	KSMBD_KEY_APPLICATION,
};

/*
 * The session keys of MS-SMB2 3.3.5.5.3 for dialect 0x0300, 0x0302 or
 * 0x0311 (preauth_hash, 64 bytes, required for 0x0311 only).  out_len is
 * 16, or 32 for AES-256 cipher keys.
 */
int ksmbd_kdf_session_key(u16 dialect, enum ksmbd_key_kind kind,
			  const u8 *session_key, u32 session_key_len,
			  const u8 *preauth_hash, u8 *out, u32 out_len);

/*
 * Preauth integrity (MS-SMB2 3.3.5.4, 3.3.5.5): hash = SHA-512(hash ||
 * message), the message given as parts (e.g. the iovecs of a response).
 */
int ksmbd_preauth_hash_update(u8 hash[KSMBD_SHA512_SIZE],
			      const struct ksmbd_buf *msg, u32 nparts);

#endif /* KSMBD_PROTO_KDF_H */
