/* SPDX-License-Identifier: GPL-2.0 */
/* MD4 (RFC 1320). Only for NTOWFv1: MD4 is not a secure hash. */
#ifndef KSMBD_MD4_H
#define KSMBD_MD4_H

#include <stddef.h>
#include <stdint.h>

#define KSMBD_MD4_DIGEST_SZ 16

struct ksmbd_md4 {
	uint32_t state[4];
	uint64_t length;		/* bytes hashed so far */
	uint8_t block[64];
	size_t fill;			/* bytes waiting in block */
};

void ksmbd_md4_init(struct ksmbd_md4 *ctx);
void ksmbd_md4_update(struct ksmbd_md4 *ctx, const void *data, size_t len);
void ksmbd_md4_final(struct ksmbd_md4 *ctx, uint8_t out[KSMBD_MD4_DIGEST_SZ]);
void ksmbd_md4(const void *data, size_t len, uint8_t out[KSMBD_MD4_DIGEST_SZ]);

#endif
