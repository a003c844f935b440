// SPDX-License-Identifier: GPL-2.0
/*
 * MD4 message digest, written from RFC 1320. Needed only for the NT hash
 * (NTOWFv1): OpenSSL 3 keeps MD4 in its legacy provider, which is often
 * not loaded, so we carry our own.
 */
#include <string.h>

#include "md4.h"

static uint32_t rol32(uint32_t x, unsigned int s)
{
	return (x << s) | (x >> (32 - s));
}

static uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* The three auxiliary functions of RFC 1320 section 3.4. */
#define MD4_F(x, y, z)	(((x) & (y)) | (~(x) & (z)))
#define MD4_G(x, y, z)	(((x) & (y)) | ((x) & (z)) | ((y) & (z)))
#define MD4_H(x, y, z)	((x) ^ (y) ^ (z))

static void md4_block(uint32_t st[4], const uint8_t *block)
{
	/* Word order and shifts of the three rounds. */
	static const uint8_t r2_order[16] = {
		0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15
	};
	static const uint8_t r3_order[16] = {
		0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15
	};
	static const uint8_t s1[4] = { 3, 7, 11, 19 };
	static const uint8_t s2[4] = { 3, 5, 9, 13 };
	static const uint8_t s3[4] = { 3, 9, 11, 15 };
	uint32_t x[16], v[4], t;
	unsigned int i;

	for (i = 0; i < 16; i++)
		x[i] = load_le32(block + 4 * i);
	memcpy(v, st, sizeof(v));

	/*
	 * Each step updates one of a, b, c, d in turn (a, d, c, b), i.e. the
	 * word at index (4 - i % 4) % 4, using the other three in rotation.
	 */
	for (i = 0; i < 16; i++) {
		unsigned int a = (4 - i % 4) % 4;
		uint32_t b = v[(a + 1) % 4], c = v[(a + 2) % 4], d = v[(a + 3) % 4];

		t = v[a] + MD4_F(b, c, d) + x[i];
		v[a] = rol32(t, s1[i % 4]);
	}
	for (i = 0; i < 16; i++) {
		unsigned int a = (4 - i % 4) % 4;
		uint32_t b = v[(a + 1) % 4], c = v[(a + 2) % 4], d = v[(a + 3) % 4];

		t = v[a] + MD4_G(b, c, d) + x[r2_order[i]] + 0x5a827999u;
		v[a] = rol32(t, s2[i % 4]);
	}
	for (i = 0; i < 16; i++) {
		unsigned int a = (4 - i % 4) % 4;
		uint32_t b = v[(a + 1) % 4], c = v[(a + 2) % 4], d = v[(a + 3) % 4];

		t = v[a] + MD4_H(b, c, d) + x[r3_order[i]] + 0x6ed9eba1u;
		v[a] = rol32(t, s3[i % 4]);
	}
	for (i = 0; i < 4; i++)
		st[i] += v[i];
}

void ksmbd_md4_init(struct ksmbd_md4 *ctx)
{
	ctx->state[0] = 0x67452301u;
	ctx->state[1] = 0xefcdab89u;
	ctx->state[2] = 0x98badcfeu;
	ctx->state[3] = 0x10325476u;
	ctx->length = 0;
	ctx->fill = 0;
}

void ksmbd_md4_update(struct ksmbd_md4 *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;

	ctx->length += len;
	while (len) {
		size_t n = 64 - ctx->fill;

		if (n > len)
			n = len;
		memcpy(ctx->block + ctx->fill, p, n);
		ctx->fill += n;
		p += n;
		len -= n;
		if (ctx->fill == 64) {
			md4_block(ctx->state, ctx->block);
			ctx->fill = 0;
		}
	}
}

void ksmbd_md4_final(struct ksmbd_md4 *ctx, uint8_t out[KSMBD_MD4_DIGEST_SZ])
{
	static const uint8_t pad[64] = { 0x80 };
	uint64_t bits = ctx->length * 8;
	uint8_t len_le[8];
	unsigned int i;

	for (i = 0; i < 8; i++)
		len_le[i] = (uint8_t)(bits >> (8 * i));
	/* Pad to 56 mod 64, then the bit length: RFC 1320 sections 3.1-3.2. */
	ksmbd_md4_update(ctx, pad, ctx->fill < 56 ? 56 - ctx->fill : 120 - ctx->fill);
	ksmbd_md4_update(ctx, len_le, sizeof(len_le));
	for (i = 0; i < 4; i++)
		store_le32(out + 4 * i, ctx->state[i]);
	memset(ctx, 0, sizeof(*ctx));
}

void ksmbd_md4(const void *data, size_t len, uint8_t out[KSMBD_MD4_DIGEST_SZ])
{
	struct ksmbd_md4 ctx;

	ksmbd_md4_init(&ctx);
	ksmbd_md4_update(&ctx, data, len);
	ksmbd_md4_final(&ctx, out);
}
