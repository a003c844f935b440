// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SMB 3.1.1 negotiate contexts: a real Windows 10 request, the sample list,
 * duplicate and missing contexts, lengths running past the list (row 19),
 * and the server's response list built and parsed back.
 */
#include "testlib.h"
#include "proto/negctx.h"
#include "proto/validate.h"
#include "samples.h"
#include "vectors.h"

#include <stdlib.h>

static const struct ksmbd_req_limits lim = { 1 << 20, 1 << 20, 1 << 20, true };

static u32 parse_hex_list(const u8 *l, u32 len, u16 count, struct ksmbd_negctx_offer *o)
{
	struct ksmbd_buf b = ksmbd_buf_make(l, len);

	return ksmbd_negctx_parse(&b, count, o);
}

TEST(windows10_request)
{
	u8 m[512];
	u32 n = sample_unhex(W10_NEGOTIATE_REQ, m, sizeof(m));
	struct ksmbd_req req;
	struct ksmbd_negotiate_req neg;
	struct ksmbd_negctx_offer o;
	static const u16 prefs[] = { SMB2_ENCRYPTION_AES256_GCM, SMB2_ENCRYPTION_AES128_GCM };
	u8 salt[32];

	CHECK_EQ_INT(ksmbd_request_validate(m, n, &lim, &req), KSMBD_VALID_OK);
	CHECK_EQ_INT(ksmbd_negotiate_decode(&req, &neg), 0);
	CHECK_EQ_INT(neg.dialect_count, 5);
	CHECK(neg.offers_311);
	CHECK_EQ_INT(neg.context_count, 2);
	CHECK_EQ_INT(ksmbd_negctx_parse(&neg.contexts, neg.context_count, &o), STATUS_SUCCESS);
	CHECK(o.has_preauth && o.preauth_sha512);
	sample_unhex("3E38B8B81A9AFB172278056F4898FD09A1B9976A49B2D771161FCD4D40DF7D7D", salt, 32);
	CHECK_EQ_INT(o.salt.len, 32);
	CHECK_EQ_MEM(o.salt.p, salt, 32);
	CHECK(o.has_encryption);
	CHECK_EQ_INT(o.ciphers.len, 4);
	CHECK_EQ_INT(ksmbd_negctx_pick(&o.ciphers, prefs, 2, 0), SMB2_ENCRYPTION_AES128_GCM);
	CHECK(!o.has_signing && !o.posix && !o.has_netname);
}

TEST(sample_list)
{
	u8 l[256];
	u16 count;
	u32 len = sample_negctx_list(l, sizeof(l), &count);
	struct ksmbd_negctx_offer o;

	CHECK_EQ_INT(parse_hex_list(l, len, count, &o), STATUS_SUCCESS);
	CHECK(o.has_signing);
	CHECK(ksmbd_negctx_has_id(&o.signing_algs, SMB2_SIGNING_AES_CMAC));
	CHECK(ksmbd_negctx_has_id(&o.signing_algs, SMB2_SIGNING_HMAC_SHA256));
	CHECK(!ksmbd_negctx_has_id(&o.signing_algs, SMB2_SIGNING_AES_GMAC));
	CHECK(o.has_netname);
	CHECK_EQ_INT(o.netname.len, 6);
	CHECK(o.posix);
	/* fewer contexts claimed than present is fine; more is not */
	CHECK_EQ_INT(parse_hex_list(l, len, 1, &o), STATUS_SUCCESS);
	CHECK_EQ_INT(parse_hex_list(l, len, count + 1, &o), STATUS_INVALID_PARAMETER);
	CHECK_EQ_INT(parse_hex_list(l, len, 0, &o), STATUS_INVALID_PARAMETER);
	CHECK_EQ_INT(parse_hex_list(l, len, KSMBD_NEGCTX_MAX_COUNT + 1, &o), STATUS_INVALID_PARAMETER);
}

TEST(truncated_at_every_byte)
{
	u8 l[256];
	u16 count;
	u32 len = sample_negctx_list(l, sizeof(l), &count), n;
	struct ksmbd_negctx_offer o;

	for (n = 0; n < len; n++) {
		u8 *copy = malloc(n ? n : 1);

		memcpy(copy, l, n);
		if (parse_hex_list(copy, n, count, &o) == STATUS_SUCCESS)
			test_fail_("truncated to %u parsed", n);
		free(copy);
	}
}

/* Contexts: type, data; laid out with 8-byte padding like a client does. */
static u32 ctx(u8 *l, u32 at, u16 type, const u8 *data, u16 dlen)
{
	at = (at + 7) & ~7u;
	put_unaligned_le16(type, l + at);
	put_unaligned_le16(dlen, l + at + 2);
	put_unaligned_le32(0, l + at + 4);
	memcpy(l + at + 8, data, dlen);
	return at + 8 + dlen;
}

static const u8 preauth[] = { 1, 0, 4, 0, 1, 0, 9, 9, 9, 9 };
static const u8 preauth_sha1ish[] = { 1, 0, 0, 0, 2, 0 };
static const u8 preauth_none[] = { 0, 0, 0, 0 };
static const u8 enc[] = { 1, 0, 2, 0 };
static const u8 enc_empty[] = { 0, 0 };

TEST(duplicates_and_missing)
{
	u8 l[256] = { 0 };
	struct ksmbd_negctx_offer o;
	u32 n;

	n = ctx(l, 0, 1, preauth, sizeof(preauth));
	n = ctx(l, n, 1, preauth, sizeof(preauth));
	CHECK_EQ_INT(parse_hex_list(l, n, 2, &o), STATUS_INVALID_PARAMETER);
	n = ctx(l, 0, 2, enc, sizeof(enc));
	CHECK_EQ_INT(parse_hex_list(l, n, 1, &o), STATUS_INVALID_PARAMETER);
	n = ctx(l, 0, 1, preauth_sha1ish, sizeof(preauth_sha1ish));
	CHECK_EQ_INT(parse_hex_list(l, n, 1, &o), STATUS_SMB_NO_PREAUTH_INTEGRITY_HASH_OVERLAP);
	n = ctx(l, 0, 1, preauth_none, sizeof(preauth_none));
	CHECK_EQ_INT(parse_hex_list(l, n, 1, &o), STATUS_INVALID_PARAMETER);
	n = ctx(l, 0, 1, preauth, sizeof(preauth));
	n = ctx(l, n, 2, enc, sizeof(enc));
	n = ctx(l, n, 2, enc, sizeof(enc));
	CHECK_EQ_INT(parse_hex_list(l, n, 3, &o), STATUS_INVALID_PARAMETER);
	n = ctx(l, 0, 1, preauth, sizeof(preauth));
	n = ctx(l, n, 2, enc_empty, sizeof(enc_empty));
	CHECK_EQ_INT(parse_hex_list(l, n, 2, &o), STATUS_INVALID_PARAMETER);
	n = ctx(l, 0, 1, preauth, sizeof(preauth));
	n = ctx(l, n, 8, enc_empty, sizeof(enc_empty));	/* no signing algs */
	CHECK_EQ_INT(parse_hex_list(l, n, 2, &o), STATUS_INVALID_PARAMETER);
	/* unknown types are skipped */
	n = ctx(l, 0, 0x7777, enc, sizeof(enc));
	n = ctx(l, n, 1, preauth, sizeof(preauth));
	CHECK_EQ_INT(parse_hex_list(l, n, 2, &o), STATUS_SUCCESS);
	CHECK_EQ_INT(o.salt.len, 4);
}

TEST(lengths_past_the_list)
{
	u8 l[256] = { 0 };
	struct ksmbd_negctx_offer o;
	u32 n;

	/* DataLength past the end */
	n = ctx(l, 0, 1, preauth, sizeof(preauth));
	put_unaligned_le16(sizeof(preauth) + 1, l + 2);
	CHECK_EQ_INT(parse_hex_list(l, n, 1, &o), STATUS_INVALID_PARAMETER);
	put_unaligned_le16(0xffff, l + 2);
	CHECK_EQ_INT(parse_hex_list(l, n, 1, &o), STATUS_INVALID_PARAMETER);
	/* row 19: the last context ends unaligned and another is claimed */
	n = ctx(l, 0, 1, preauth, sizeof(preauth));	/* ends at 18 */
	CHECK_EQ_INT(parse_hex_list(l, n, 2, &o), STATUS_INVALID_PARAMETER);
	CHECK_EQ_INT(parse_hex_list(l, n + 5, 2, &o), STATUS_INVALID_PARAMETER);
	CHECK_EQ_INT(parse_hex_list(l, n, 1, &o), STATUS_SUCCESS);
	/* salt longer than the context data */
	n = ctx(l, 0, 1, preauth, sizeof(preauth));
	put_unaligned_le16(5, l + 10);
	CHECK_EQ_INT(parse_hex_list(l, n, 1, &o), STATUS_INVALID_PARAMETER);
	/* hash count past the context data */
	put_unaligned_le16(4, l + 10);
	put_unaligned_le16(400, l + 8);
	CHECK_EQ_INT(parse_hex_list(l, n, 1, &o), STATUS_INVALID_PARAMETER);
	/* compression context too short for its fixed part */
	n = ctx(l, 0, 1, preauth, sizeof(preauth));
	n = ctx(l, n, 3, enc, sizeof(enc));
	CHECK_EQ_INT(parse_hex_list(l, n, 2, &o), STATUS_INVALID_PARAMETER);
	/* odd-length netname */
	n = ctx(l, 0, 1, preauth, sizeof(preauth));
	n = ctx(l, n, 5, enc, 3);
	CHECK_EQ_INT(parse_hex_list(l, n, 2, &o), STATUS_INVALID_PARAMETER);
}

TEST(build_round_trip)
{
	u8 salt[32], out[256];
	struct ksmbd_negctx_choice c = {
		.salt = salt, .encryption = true, .cipher = SMB2_ENCRYPTION_AES128_GCM,
		.signing = true, .signing_alg = SMB2_SIGNING_AES_CMAC,
		.compression = true, .posix = true,
	};
	struct ksmbd_negctx_offer o;
	u32 len, cap, pos, i;
	u16 count, n2;

	for (i = 0; i < 32; i++)
		salt[i] = (u8)(0xc0 + i);
	CHECK_EQ_INT(ksmbd_negctx_build(&c, out, sizeof(out), &len, &count), 0);
	CHECK_EQ_INT(count, 5);
	CHECK_EQ_INT(parse_hex_list(out, len, count, &o), STATUS_SUCCESS);
	CHECK_EQ_MEM(o.salt.p, salt, 32);
	CHECK_EQ_INT(o.ciphers.len, 2);
	CHECK(ksmbd_negctx_has_id(&o.ciphers, SMB2_ENCRYPTION_AES128_GCM));
	CHECK_EQ_INT(o.signing_algs.len, 2);
	CHECK(ksmbd_negctx_has_id(&o.signing_algs, SMB2_SIGNING_AES_CMAC));
	CHECK(o.has_compression);
	CHECK(ksmbd_negctx_has_id(&o.compression_algs, SMB2_COMPRESSION_NONE));
	CHECK(o.posix);
	/* every context starts 8-aligned */
	for (pos = 0, i = 0; i < count; i++) {
		CHECK_EQ_INT(pos % 8, 0);
		pos += 8 + get_unaligned_le16(out + pos + 2);
		pos = (pos + 7) & ~7u;
	}
	for (cap = 0; cap < len; cap++)
		if (ksmbd_negctx_build(&c, out, cap, &pos, &n2) != -ENOSPC)
			test_fail_("cap %u did not fail", cap);
	c.encryption = c.signing = c.compression = c.posix = false;
	CHECK_EQ_INT(ksmbd_negctx_build(&c, out, sizeof(out), &len, &count), 0);
	CHECK_EQ_INT(count, 1);
	CHECK_EQ_INT(len, 8 + 38);
	c.salt = NULL;
	CHECK_EQ_INT(ksmbd_negctx_build(&c, out, sizeof(out), &len, &count), -EINVAL);
}

int main(void)
{
	RUN(windows10_request);
	RUN(sample_list);
	RUN(truncated_at_every_byte);
	RUN(duplicates_and_missing);
	RUN(lengths_past_the_list);
	RUN(build_round_trip);
	return test_report();
}
