/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Crypto hooks the protocol library needs.  proto/ never implements a
 * primitive itself (ARC4 excepted, it is a dozen lines): the kernel build
 * provides these over the kernel crypto API (module/core/proto_crypto_kernel.c),
 * host tests and fuzzers over OpenSSL (tests/unit/proto/crypto_openssl.c).
 *
 * Messages are passed as a vector of parts so callers can hash
 * "previous hash || message" or "challenge || blob" without copying; this
 * is the incremental form of every hash here.  All return 0 or -errno.
 */
#ifndef KSMBD_PROTO_CRYPTO_H
#define KSMBD_PROTO_CRYPTO_H

#include "shim.h"
#include "buf.h"

enum {
	KSMBD_MD5_SIZE		= 16,
	KSMBD_SHA256_SIZE	= 32,
	KSMBD_SHA512_SIZE	= 64,
	KSMBD_CMAC_AES_SIZE	= 16,
};

int ksmbd_crypto_md5(const struct ksmbd_buf *parts, u32 nparts,
		     u8 out[KSMBD_MD5_SIZE]);
int ksmbd_crypto_hmac_md5(const u8 *key, u32 key_len,
			  const struct ksmbd_buf *parts, u32 nparts,
			  u8 out[KSMBD_MD5_SIZE]);
int ksmbd_crypto_hmac_sha256(const u8 *key, u32 key_len,
			     const struct ksmbd_buf *parts, u32 nparts,
			     u8 out[KSMBD_SHA256_SIZE]);
int ksmbd_crypto_sha256(const struct ksmbd_buf *parts, u32 nparts,
			u8 out[KSMBD_SHA256_SIZE]);
int ksmbd_crypto_sha512(const struct ksmbd_buf *parts, u32 nparts,
			u8 out[KSMBD_SHA512_SIZE]);
/* key_len 16 (AES-128-CMAC, SMB 3.x signing) */
int ksmbd_crypto_cmac_aes(const u8 *key, u32 key_len,
			  const struct ksmbd_buf *parts, u32 nparts,
			  u8 out[KSMBD_CMAC_AES_SIZE]);

#endif /* KSMBD_PROTO_CRYPTO_H */
