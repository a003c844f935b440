// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SMB2 TRANSFORM_HEADER checks and building, against the encrypted
 * messages Microsoft published for SMB 3.0 (AES-128-CCM) and 3.1.1
 * (AES-128-GCM) ("Encryption in SMB 3.0: a protocol perspective", "SMB
 * 3.1.1 Encryption in Windows 10"): keys from our KDF, slices from our
 * validator, header from our builder; the AEAD is OpenSSL's, so a match
 * proves the layout the module feeds its AEAD with.
 */
#include "testlib.h"
#include "proto/kdf.h"
#include "proto/smb2.h"
#include "proto/transform.h"
#include "samples.h"

#include <openssl/evp.h>

#define MAX_MSG	512

/* SMB 3.0: session key, a WRITE request from the client, a WRITE response. */
#define V30_SESSION_KEY	"B4546771B515F766A86735532DD6C4F0"
#define V30_SERVER_IN	"261B72350558F2E9DCF613070383EDBF"
#define V30_SERVER_OUT	"8FE2B57EC34D2DB5B1A9727F526BBDB5"
#define V30_REQ_PLAIN \
	"FE534D4240000100000000000900400008000000000000000400000000000000" \
	"FFFE0000010000001100001400E4080000000000000000000000000000000000" \
	"3100700017000000000000000000000015010000390000020100000039020000" \
	"00000000000000007000000000000000536D623320656E6372797074696F6E20" \
	"74657374696E67"
#define V30_REQ_FRAME \
	"FD534D4281A286535415445DAE393921E44FA42E66E69A111892584FB5ED524A" \
	"744DA3EE87000000000001001100001400E4080025C8FEE16605A437832D1CD5" \
	"2DA9F4645333482A175FE5384563F45FCDAFAEF38BC62BA4D5C62897996625A4" \
	"4C29BE5658DE2E6117585779E7B59FFD971278D08580D7FA899E410E910EABF5" \
	"AA1DB43050B33B49182637759AC15D84BFCDF5B6B238993C0F4CF4D6012023F6" \
	"C627297075D84B7803912D0A9639634453595EF3E33FFE4E7AC2AB"
#define V30_RSP_FRAME \
	"FD534D42A6015530A18F6D9AFFE22AFAE8E66484860000000000000011000014" \
	"00E4080050000000000001001100001400E40800DBF46435C5F14169293CE079" \
	"E344479BF670227E49873F458672C3098DAC467DD5809F369D67409166515787" \
	"1483E01F7BECD02064EAC3E235F913668BBC2F097980D4B378F1993EFF6E60D1" \
	"77309E5B"
#define V30_RSP_PLAIN \
	"FE534D4240000100000000000900210009000000000000000400000000000000" \
	"FFFE0000010000001100001400E4080000000000000000000000000000000000" \
	"11000000170000000000000000000000"

/* SMB 3.1.1 with AES-128-GCM. */
#define V311_SESSION_KEY "419FDDF34C1E001909D362AE7FB6AF79"
#define V311_PREAUTH \
	"B23F3CBFD69487D9832B79B1594A367CDD950909B774C3A4C412B4FCEA9EDDDB" \
	"A7DB256BA2EA30E977F11F9B113247578E0E915C6D2A513B8F2FCA5707DC8770"
#define V311_SERVER_IN	"A2F5E80E5D59103034F32E52F698E5EC"
#define V311_SERVER_OUT	"748C50868C90F302962A5C35F5F9A8BF"
#define V311_REQ_PLAIN \
	"FE534D4240000100000000000900010008000000000000000500000000000000" \
	"FFFE000001000000250000000010000000000000000000000000000000000000" \
	"3100700017000000000000000000000006000000040000000100000004000000" \
	"00000000000000007000000000000000536D623320656E6372797074696F6E20" \
	"74657374696E67"
#define V311_REQ_FRAME \
	"FD534D42BD73D97D2BC9001BCAFAC0FDFF5FEEBCC7D6822D269CAF48904C664C" \
	"00000000870000000000010025000000001000006ECDD2A7AFC7B47763057A04" \
	"1B8FD4DAFFE990B70C9E09D36C084E02D14EF247F8BDE38ACF6256F8B1D3B56F" \
	"77FBDEB312FEA5E92CBCC1ED8FB2EBBFAA75E49A4A394BB44576545567C24D4C" \
	"014D47C9FBDFDAFD2C4F9B72F8D256452620A299F48E29E53D6B61D1C13A19E9" \
	"1AF013F00D17E3ABC2FC3D36C8C1B6B93973253852DBD442E46EE8"
#define V311_RSP_FRAME \
	"FD534D42ACBE1CB7ED343ADF1725EF144D90D4B0E06831DD2E8EB7B400000000" \
	"0000000050000000000001002500000000100000" \
	"26BBBF949983A6C1C796559D0F2C510CB651D1F7B6AC8DED32A2A0B8F2D793A8" \
	"15C6F6B848D69767A215841A42D400AE6DDB5F0B44173A014973321FDD7950DA" \
	"6179159B82E03C9E18A050FF0EA1C967"
#define V311_RSP_PLAIN \
	"FE534D4240000100000000000900010001000000000000000500000000000000" \
	"FFFE000001000000250000000010000000000000000000000000000000000000" \
	"11000000170000000000000000000000"

static u32 hex(const char *h, u8 *out, u32 cap)
{
	u32 n = sample_unhex(h, out, cap);

	if (!n)
		test_fail_("bad vector %.16s...", h);
	return n;
}

/* OpenSSL AEAD: encrypt (tag out) or decrypt (tag in); 0 or -EBADMSG. */
static int aead(const struct ksmbd_cipher_info *ci, bool enc, const u8 *key,
		const u8 *nonce, const u8 *ad, const u8 *in, u32 len, u8 *out,
		u8 tag[16])
{
	const EVP_CIPHER *c;
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n, ok = 0;

	if (ci->gcm)
		c = ci->key_len == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm();
	else
		c = ci->key_len == 16 ? EVP_aes_128_ccm() : EVP_aes_256_ccm();
	if (!ctx || !EVP_CipherInit_ex(ctx, c, NULL, NULL, NULL, enc))
		goto out;
	EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, ci->nonce_len, NULL);
	if (!ci->gcm)
		EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
				    enc ? NULL : tag);
	if (!EVP_CipherInit_ex(ctx, NULL, NULL, key, nonce, enc))
		goto out;
	if (!ci->gcm && !EVP_CipherUpdate(ctx, NULL, &n, NULL, (int)len))
		goto out;
	if (!EVP_CipherUpdate(ctx, NULL, &n, ad, KSMBD_TRANSFORM_AD_SIZE))
		goto out;
	if (!EVP_CipherUpdate(ctx, out, &n, in, (int)len))
		goto out;
	if (ci->gcm && !enc)
		EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag);
	if (!ci->gcm && !enc) {
		ok = 1;		/* CCM verified the tag in the update */
		goto out;
	}
	if (!EVP_CipherFinal_ex(ctx, out + n, &n))
		goto out;
	if (enc)
		EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag);
	ok = 1;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -EBADMSG;
}

static void derive(u16 dialect, enum ksmbd_key_kind kind, const char *sk,
		   const char *preauth, u8 out[16])
{
	u8 key[16], hash[64];

	hex(sk, key, 16);
	if (preauth)
		hex(preauth, hash, 64);
	CHECK_EQ_INT(ksmbd_kdf_session_key(dialect, kind, key, 16,
					   preauth ? hash : NULL, out, 16), 0);
}

/* The server's side of a request: validate, slice, decrypt, compare. */
static void check_request(u16 dialect, u16 cipher, const char *sk,
			  const char *preauth, const char *frame_hex,
			  const char *plain_hex)
{
	const struct ksmbd_cipher_info *ci = ksmbd_cipher_info(cipher);
	u8 frame[MAX_MSG], plain[MAX_MSG], out[MAX_MSG], key[16], tag[16];
	struct ksmbd_transform t;
	u32 len = hex(frame_hex, frame, sizeof(frame));
	u32 plen = hex(plain_hex, plain, sizeof(plain));

	derive(dialect, KSMBD_KEY_SERVER_IN, sk, preauth, key);
	CHECK_EQ_INT(ksmbd_transform_validate(frame, len, cipher, &t),
		     KSMBD_VALID_OK);
	CHECK_EQ_INT(t.msg_len, plen);
	CHECK_EQ_INT(t.msg_off + t.msg_len, len);
	memcpy(tag, t.tag, 16);
	CHECK_EQ_INT(aead(ci, false, key, t.nonce, t.ad, frame + t.msg_off,
			  t.msg_len, out, tag), 0);
	CHECK_EQ_MEM(out, plain, plen);
	/* One flipped ciphertext bit and the tag no longer verifies. */
	frame[t.msg_off + 7] ^= 0x10;
	CHECK_EQ_INT(aead(ci, false, key, t.nonce, t.ad, frame + t.msg_off,
			  t.msg_len, out, tag), -EBADMSG);
}

TEST(smb30_ccm_request)
{
	u8 k[16], want[16];

	derive(SMB30_DIALECT, KSMBD_KEY_SERVER_IN, V30_SESSION_KEY, NULL, k);
	hex(V30_SERVER_IN, want, 16);
	CHECK_EQ_MEM(k, want, 16);
	check_request(SMB30_DIALECT, SMB2_ENCRYPTION_AES128_CCM,
		      V30_SESSION_KEY, NULL, V30_REQ_FRAME, V30_REQ_PLAIN);
}

TEST(smb311_gcm_request)
{
	u8 k[16], want[16];

	derive(SMB311_DIALECT, KSMBD_KEY_SERVER_IN, V311_SESSION_KEY,
	       V311_PREAUTH, k);
	hex(V311_SERVER_IN, want, 16);
	CHECK_EQ_MEM(k, want, 16);
	check_request(SMB311_DIALECT, SMB2_ENCRYPTION_AES128_GCM,
		      V311_SESSION_KEY, V311_PREAUTH, V311_REQ_FRAME,
		      V311_REQ_PLAIN);
}

/* 3.0 response: Windows' own nonce padding, so only the AEAD layout. */
TEST(smb30_ccm_response)
{
	const struct ksmbd_cipher_info *ci =
		ksmbd_cipher_info(SMB2_ENCRYPTION_AES128_CCM);
	u8 frame[MAX_MSG], plain[MAX_MSG], out[MAX_MSG], key[16], want[16];
	u8 tag[16];
	u32 len = hex(V30_RSP_FRAME, frame, sizeof(frame));
	u32 plen = hex(V30_RSP_PLAIN, plain, sizeof(plain));

	derive(SMB30_DIALECT, KSMBD_KEY_SERVER_OUT, V30_SESSION_KEY, NULL, key);
	hex(V30_SERVER_OUT, want, 16);
	CHECK_EQ_MEM(key, want, 16);
	CHECK_EQ_INT(len, SMB2_TRANSFORM_HEADER_SIZE + plen);
	CHECK_EQ_INT(aead(ci, true, key, frame + 20,
			  frame + KSMBD_TRANSFORM_AD_OFF, plain, plen, out,
			  tag), 0);
	CHECK_EQ_MEM(out, frame + SMB2_TRANSFORM_HEADER_SIZE, plen);
	CHECK_EQ_MEM(tag, frame + 4, 16);
}

/* 3.1.1 response: our header builder reproduces Windows' header exactly. */
TEST(smb311_gcm_response_built)
{
	const struct ksmbd_cipher_info *ci =
		ksmbd_cipher_info(SMB2_ENCRYPTION_AES128_GCM);
	u8 frame[MAX_MSG], plain[MAX_MSG], out[MAX_MSG], key[16], want[16];
	u8 hdr[SMB2_TRANSFORM_HEADER_SIZE], tag[16];
	static const u8 salt[4] = { 0, 0, 0, 0 };
	u32 len = hex(V311_RSP_FRAME, frame, sizeof(frame));
	u32 plen = hex(V311_RSP_PLAIN, plain, sizeof(plain));

	derive(SMB311_DIALECT, KSMBD_KEY_SERVER_OUT, V311_SESSION_KEY,
	       V311_PREAUTH, key);
	hex(V311_SERVER_OUT, want, 16);
	CHECK_EQ_MEM(key, want, 16);
	/* Windows' nonce E06831DD2E8EB7B4 00000000 as counter and salt. */
	ksmbd_transform_put_hdr(hdr, SMB2_ENCRYPTION_AES128_GCM,
				0xB4B78E2EDD3168E0ULL, salt, plen,
				0x0000100000000025ULL);
	CHECK_EQ_MEM(hdr + 20, frame + 20, SMB2_TRANSFORM_HEADER_SIZE - 20);
	CHECK_EQ_MEM(hdr, frame, 4);
	CHECK_EQ_INT(aead(ci, true, key, hdr + 20, hdr + KSMBD_TRANSFORM_AD_OFF,
			  plain, plen, out, tag), 0);
	CHECK_EQ_MEM(tag, frame + 4, 16);
	CHECK_EQ_MEM(out, frame + SMB2_TRANSFORM_HEADER_SIZE, plen);
	CHECK_EQ_INT(len, SMB2_TRANSFORM_HEADER_SIZE + plen);
}

/* CCM takes 3 salt bytes after the counter, GCM 4; nothing beyond. */
TEST(nonce_layout)
{
	static const u8 salt[4] = { 0xa1, 0xa2, 0xa3, 0xa4 };
	static const u8 ccm[16] = { 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
				    0xa1, 0xa2, 0xa3 };
	static const u8 gcm[16] = { 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
				    0xa1, 0xa2, 0xa3, 0xa4 };
	u8 hdr[SMB2_TRANSFORM_HEADER_SIZE];

	ksmbd_transform_put_hdr(hdr, SMB2_ENCRYPTION_AES256_CCM,
				0x0102030405060708ULL, salt, 100, 7);
	CHECK_EQ_MEM(hdr + 20, ccm, 16);
	ksmbd_transform_put_hdr(hdr, SMB2_ENCRYPTION_AES256_GCM,
				0x0102030405060708ULL, salt, 100, 7);
	CHECK_EQ_MEM(hdr + 20, gcm, 16);
	CHECK_EQ_INT(get_unaligned_le32(hdr + 36), 100);
	CHECK_EQ_INT(get_unaligned_le16(hdr + 42), 1);
	CHECK_EQ_INT(get_unaligned_le64(hdr + 44), 7);
}

static u32 frame_of(const char *h, u8 *f)
{
	return hex(h, f, MAX_MSG);
}

TEST(validate_rejects)
{
	u8 f[MAX_MSG];
	struct ksmbd_transform t;
	u32 len;

	len = frame_of(V311_REQ_FRAME, f);
	/* No cipher negotiated on this connection. */
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 0, &t),
		     KSMBD_VALID_BAD_TRANSFORM);
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 9, &t),
		     KSMBD_VALID_BAD_TRANSFORM);
	/* OriginalMessageSize one more, one less than the frame holds. */
	put_unaligned_le32(len - 52 + 1, f + 36);
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 2, &t),
		     KSMBD_VALID_BAD_TRANSFORM);
	put_unaligned_le32(len - 52 - 1, f + 36);
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 2, &t),
		     KSMBD_VALID_BAD_TRANSFORM);
	/* Huge size (would wrap an addition). */
	put_unaligned_le32(0xffffffff, f + 36);
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 2, &t),
		     KSMBD_VALID_BAD_TRANSFORM);
	/* Truncated: a header alone, less than a header, a short message. */
	put_unaligned_le32(len - 52, f + 36);
	CHECK(ksmbd_transform_validate(f, 52, 2, &t) != KSMBD_VALID_OK);
	CHECK(ksmbd_transform_validate(f, 30, 2, &t) != KSMBD_VALID_OK);
	put_unaligned_le32(10, f + 36);
	CHECK(ksmbd_transform_validate(f, 62, 2, &t) != KSMBD_VALID_OK);
	/* Flags 0 and 2; session id 0; wrong protocol id. */
	len = frame_of(V311_REQ_FRAME, f);
	put_unaligned_le16(0, f + 42);
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 2, &t),
		     KSMBD_VALID_BAD_TRANSFORM);
	put_unaligned_le16(2, f + 42);
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 2, &t),
		     KSMBD_VALID_BAD_TRANSFORM);
	len = frame_of(V311_REQ_FRAME, f);
	put_unaligned_le64(0, f + 44);
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 2, &t),
		     KSMBD_VALID_BAD_TRANSFORM);
	len = frame_of(V311_REQ_FRAME, f);
	f[0] = 0xfe;
	CHECK(ksmbd_transform_validate(f, len, 2, &t) != KSMBD_VALID_OK);
	/* And the untouched frame passes, for every known cipher. */
	len = frame_of(V311_REQ_FRAME, f);
	CHECK_EQ_INT(ksmbd_transform_validate(f, len, 4, &t), KSMBD_VALID_OK);
	CHECK_EQ_INT(t.session_id, 0x0000100000000025ULL);
}

TEST(cipher_table)
{
	CHECK(!ksmbd_cipher_info(0));
	CHECK(!ksmbd_cipher_info(5));
	CHECK_EQ_INT(ksmbd_cipher_info(1)->key_len, 16);
	CHECK_EQ_INT(ksmbd_cipher_info(1)->nonce_len, 11);
	CHECK_EQ_INT(ksmbd_cipher_info(2)->nonce_len, 12);
	CHECK_EQ_INT(ksmbd_cipher_info(3)->key_len, 32);
	CHECK_EQ_INT(ksmbd_cipher_info(4)->key_len, 32);
	CHECK(ksmbd_cipher_info(4)->gcm && !ksmbd_cipher_info(3)->gcm);
}

/* MS-SMB2 3.1.4.1: MessageId, then bit 0 server, bit 1 CANCEL request. */
TEST(gmac_nonce)
{
	u8 n[12], hdr[64] = { 0xfe, 'S', 'M', 'B', 64 };
	static const u8 srv[12] = { 5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 };
	static const u8 cli[12] = { 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const u8 cancel[12] = { 0x34, 0x12, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0 };

	ksmbd_gmac_nonce(5, true, false, n);
	CHECK_EQ_MEM(n, srv, 12);
	ksmbd_gmac_nonce(5, false, false, n);
	CHECK_EQ_MEM(n, cli, 12);
	put_unaligned_le16(SMB2_CANCEL, hdr + 12);
	put_unaligned_le64(0x1234, hdr + 24);
	ksmbd_gmac_nonce_of(hdr, n);
	CHECK_EQ_MEM(n, cancel, 12);
	/* A response (server to client) is never a CANCEL request. */
	put_unaligned_le32(SMB2_FLAGS_SERVER_TO_REDIR, hdr + 16);
	ksmbd_gmac_nonce_of(hdr, n);
	CHECK_EQ_INT(n[8], 1);
}

int main(void)
{
	RUN(smb30_ccm_request);
	RUN(smb311_gcm_request);
	RUN(smb30_ccm_response);
	RUN(smb311_gcm_response_built);
	RUN(nonce_layout);
	RUN(validate_rejects);
	RUN(cipher_table);
	RUN(gmac_nonce);
	return test_report();
}
