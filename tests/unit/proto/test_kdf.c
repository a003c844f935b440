// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SMB 3.x key derivation and the 3.1.1 preauth integrity hash against
 * Microsoft's published vectors (see vectors.h).
 */
#include "testlib.h"
#include "proto/kdf.h"
#include "proto/smb2.h"
#include "samples.h"
#include "vectors.h"

static void hex(const char *h, u8 *out, u32 n)
{
	if (sample_unhex(h, out, n) != n)
		test_fail_("bad vector %.16s...", h);
}

static void check_key(u16 dialect, enum ksmbd_key_kind kind, const char *sk,
		      const char *preauth, const char *want)
{
	u8 key[16], hash[64], out[16], exp[16];

	hex(sk, key, 16);
	if (preauth)
		hex(preauth, hash, 64);
	hex(want, exp, 16);
	CHECK_EQ_INT(ksmbd_kdf_session_key(dialect, kind, key, 16,
					   preauth ? hash : NULL, out, 16), 0);
	CHECK_EQ_MEM(out, exp, 16);
}

TEST(smb30_keys)
{
	check_key(SMB30_DIALECT, KSMBD_KEY_SIGNING, KDF30_SESSION_KEY, NULL, KDF30_SIGNING_KEY);
	check_key(SMB30_DIALECT, KSMBD_KEY_SERVER_IN, KDF30_SESSION_KEY, NULL, KDF30_SERVER_IN_KEY);
	check_key(SMB30_DIALECT, KSMBD_KEY_SERVER_OUT, KDF30_SESSION_KEY, NULL, KDF30_SERVER_OUT_KEY);
	check_key(SMB30_DIALECT, KSMBD_KEY_APPLICATION, KDF30_SESSION_KEY, NULL, KDF30_APP_KEY);
	check_key(SMB302_DIALECT, KSMBD_KEY_SIGNING, KDF30_SESSION_KEY, NULL, KDF30_SIGNING_KEY);
}

TEST(smb311_keys)
{
	const char *h = W10_PREAUTH_AFTER_SSREQ2;

	check_key(SMB311_DIALECT, KSMBD_KEY_SIGNING, W10_SESSION_KEY, h, W10_SIGNING_KEY);
	check_key(SMB311_DIALECT, KSMBD_KEY_SERVER_IN, W10_SESSION_KEY, h, W10_SERVER_IN_KEY);
	check_key(SMB311_DIALECT, KSMBD_KEY_SERVER_OUT, W10_SESSION_KEY, h, W10_SERVER_OUT_KEY);
	check_key(SMB311_DIALECT, KSMBD_KEY_APPLICATION, W10_SESSION_KEY, h, W10_APP_KEY);
}

TEST(kdf_arguments)
{
	u8 key[16] = { 1 }, hash[64] = { 2 }, k16[16], k32[32];

	CHECK_EQ_INT(ksmbd_kdf_session_key(SMB21_DIALECT, KSMBD_KEY_SIGNING, key, 16, hash, k16, 16), -EINVAL);
	CHECK_EQ_INT(ksmbd_kdf_session_key(SMB311_DIALECT, KSMBD_KEY_SIGNING, key, 16, NULL, k16, 16), -EINVAL);
	CHECK_EQ_INT(ksmbd_kdf_session_key(SMB311_DIALECT, 9, key, 16, hash, k16, 16), -EINVAL);
	CHECK_EQ_INT(ksmbd_kdf_session_key(SMB311_DIALECT, KSMBD_KEY_SIGNING, key, 16, hash, k16, 20), -EINVAL);
	/* L is part of the PRF input: a 256-bit key is not a longer 128-bit one */
	CHECK_EQ_INT(ksmbd_kdf_session_key(SMB311_DIALECT, KSMBD_KEY_SERVER_IN, key, 16, hash, k16, 16), 0);
	CHECK_EQ_INT(ksmbd_kdf_session_key(SMB311_DIALECT, KSMBD_KEY_SERVER_IN, key, 16, hash, k32, 32), 0);
	CHECK(memcmp(k16, k32, 16) != 0);
}

/* Replays the blog's hash chain: each step is SHA-512(previous || message). */
TEST(preauth_hash_chain)
{
	static const char *const msgs[] = {
		W10_NEGOTIATE_RSP, W10_SESS_SETUP_REQ1, W10_SESS_SETUP_RSP1,
		W10_SESS_SETUP_REQ2,
	};
	static const char *const after[] = {
		W10_PREAUTH_AFTER_NEGRSP, W10_PREAUTH_AFTER_SSREQ1,
		W10_PREAUTH_AFTER_SSRSP1, W10_PREAUTH_AFTER_SSREQ2,
	};
	u8 hash[64], want[64], msg[1024];
	struct ksmbd_buf part;
	size_t i;

	hex(W10_PREAUTH_AFTER_NEGREQ, hash, 64);
	for (i = 0; i < ARRAY_SIZE(msgs); i++) {
		part.p = msg;
		part.len = sample_unhex(msgs[i], msg, sizeof(msg));
		CHECK(part.len > 64);
		CHECK_EQ_INT(ksmbd_preauth_hash_update(hash, &part, 1), 0);
		hex(after[i], want, 64);
		if (memcmp(hash, want, 64))
			test_fail_("hash after message %zu differs", i);
	}
}

TEST(preauth_hash_from_zero_in_parts)
{
	u8 hash[64] = { 0 }, want[64], msg[512];
	struct ksmbd_buf parts[3];
	u32 n = sample_unhex(W10_NEGOTIATE_REQ, msg, sizeof(msg));

	/* the same message handed over as three iovec-like pieces */
	parts[0] = ksmbd_buf_make(msg, 64);
	parts[1] = ksmbd_buf_make(msg + 64, 1);
	parts[2] = ksmbd_buf_make(msg + 65, n - 65);
	CHECK_EQ_INT(ksmbd_preauth_hash_update(hash, parts, 3), 0);
	hex(W10_PREAUTH_AFTER_NEGREQ2, want, 64);
	CHECK_EQ_MEM(hash, want, 64);
	CHECK_EQ_INT(ksmbd_preauth_hash_update(hash, parts, 100), -E2BIG);
}

/* The crypto hooks themselves (RFC 4493 section 4, example 1 and 2). */
TEST(crypto_hook_cmac)
{
	u8 key[16], want[16], out[16], msg[16];
	struct ksmbd_buf part;

	hex("2b7e151628aed2a6abf7158809cf4f3c", key, 16);
	hex("bb1d6929e95937287fa37d129b756746", want, 16);
	CHECK_EQ_INT(ksmbd_crypto_cmac_aes(key, 16, NULL, 0, out), 0);
	CHECK_EQ_MEM(out, want, 16);
	hex("6bc1bee22e409f96e93d7e117393172a", msg, 16);
	hex("070a16b46b4d4144f79bdd9dd04a287c", want, 16);
	part = ksmbd_buf_make(msg, 16);
	CHECK_EQ_INT(ksmbd_crypto_cmac_aes(key, 16, &part, 1, out), 0);
	CHECK_EQ_MEM(out, want, 16);
	CHECK_EQ_INT(ksmbd_crypto_cmac_aes(key, 15, &part, 1, out), -EINVAL);
}

int main(void)
{
	RUN(smb30_keys);
	RUN(smb311_keys);
	RUN(kdf_arguments);
	RUN(preauth_hash_chain);
	RUN(preauth_hash_from_zero_in_parts);
	RUN(crypto_hook_cmac);
	return test_report();
}
