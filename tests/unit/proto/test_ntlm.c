// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NTLMSSP parsing/building and NTLMv2 verification: MS-NLMP 4.2.4 vectors,
 * a real Windows 10 exchange (with MIC), and every AUTHENTICATE field
 * pointed outside its blob.
 */
#include "testlib.h"
#include "proto/ntlmssp.h"
#include "proto/ntlmv2.h"
#include "proto/spnego.h"
#include "proto/utf16.h"
#include "samples.h"
#include "vectors.h"

#include <stdlib.h>

static u8 auth_msg[1024];
static u32 auth_len;

static void hex(const char *h, u8 *out, u32 n)
{
	if (sample_unhex(h, out, n) != n)
		test_fail_("bad vector %.16s...", h);
}

static void load_nlmp_auth(void)
{
	memset(auth_msg, 0, sizeof(auth_msg));
	auth_len = sample_unhex(NLMP_AUTHENTICATE, auth_msg, sizeof(auth_msg));
}

static struct ksmbd_buf utf16(const char *s, u8 *buf, u32 cap)
{
	int n = ksmbd_utf8_to_utf16(s, (u32)strlen(s), buf, cap);

	return ksmbd_buf_make(buf, n < 0 ? 0 : (u32)n);
}

TEST(ntowfv2_vector)
{
	u8 nt[16], owf[16], want[16], ub[64], db[64];
	struct ksmbd_buf user = utf16("User", ub, sizeof(ub));
	struct ksmbd_buf dom = utf16("Domain", db, sizeof(db));

	hex(NLMP_NT_HASH, nt, 16);
	hex(NLMP_NTOWFV2, want, 16);
	CHECK_EQ_INT(ksmbd_ntlmv2_owf(nt, &user, &dom, owf), 0);
	CHECK_EQ_MEM(owf, want, 16);
	/* the user name is case-insensitive, the domain is not */
	user = utf16("uSeR", ub, sizeof(ub));
	CHECK_EQ_INT(ksmbd_ntlmv2_owf(nt, &user, &dom, owf), 0);
	CHECK_EQ_MEM(owf, want, 16);
	dom = utf16("DOMAIN", db, sizeof(db));
	CHECK_EQ_INT(ksmbd_ntlmv2_owf(nt, &user, &dom, owf), 0);
	CHECK(memcmp(owf, want, 16) != 0);
}

TEST(parse_nlmp_authenticate)
{
	struct ksmbd_ntlm_auth a;
	u8 key[16];

	load_nlmp_auth();
	CHECK_EQ_INT(auth_len, 232);
	CHECK_EQ_INT(ksmbd_ntlmssp_type(auth_msg, auth_len), NTLMSSP_AUTHENTICATE_MSG);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), 0);
	CHECK_EQ_INT(a.flags, 0xe2888235);
	CHECK_EQ_STR(a.user_utf8, "User");
	CHECK_EQ_STR(a.domain_utf8, "Domain");
	CHECK_EQ_STR(a.workstation_utf8, "COMPUTER");
	CHECK_EQ_INT(a.lm_response.len, 24);
	CHECK_EQ_INT(a.nt_response.len, 84);
	CHECK(!a.has_mic);
	CHECK(!a.anonymous);
	hex(NLMP_ENC_SESSION_KEY, key, 16);
	CHECK_EQ_INT(a.session_key.len, 16);
	CHECK_EQ_MEM(a.session_key.p, key, 16);
	CHECK(!ksmbd_ntlmv2_mic_required(&a.nt_response));
}

TEST(nlmp_proof_base_key_and_key_exchange)
{
	struct ksmbd_ntlm_auth a;
	u8 owf[16], chal[8], base[16], want[16], exp[16];

	load_nlmp_auth();
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), 0);
	hex(NLMP_NTOWFV2, owf, 16);
	hex(NLMP_SERVER_CHALLENGE, chal, 8);
	hex(NLMP_NTPROOFSTR, want, 16);
	CHECK_EQ_MEM(a.nt_response.p, want, 16);
	CHECK_EQ_INT(ksmbd_ntlmv2_verify(owf, chal, &a.nt_response, base), 0);
	hex(NLMP_SESSION_BASE_KEY, want, 16);
	CHECK_EQ_MEM(base, want, 16);
	CHECK_EQ_INT(ksmbd_ntlmv2_exported_key(a.flags, base, &a.session_key, exp), 0);
	hex(NLMP_RANDOM_SESSION_KEY, want, 16);
	CHECK_EQ_MEM(exp, want, 16);
	/* without KEY_EXCH the exported key is the base key */
	CHECK_EQ_INT(ksmbd_ntlmv2_exported_key(0, base, &a.session_key, exp), 0);
	CHECK_EQ_MEM(exp, base, 16);
	/* a wrong challenge is a wrong password */
	chal[0] ^= 1;
	CHECK_EQ_INT(ksmbd_ntlmv2_verify(owf, chal, &a.nt_response, base), -EKEYREJECTED);
}

TEST(nlmp_full_authenticate)
{
	struct ksmbd_ntlm_auth a;
	struct ksmbd_buf none = { NULL, 0 }, whole;
	u8 nt[16], chal[8], exp[16], want[16];

	load_nlmp_auth();
	whole = ksmbd_buf_make(auth_msg, auth_len);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), 0);
	hex(NLMP_NT_HASH, nt, 16);
	hex(NLMP_SERVER_CHALLENGE, chal, 8);
	CHECK_EQ_INT(ksmbd_ntlmv2_authenticate(nt, chal, &a, &none, &none, &whole, exp), 0);
	hex(NLMP_RANDOM_SESSION_KEY, want, 16);
	CHECK_EQ_MEM(exp, want, 16);
	nt[5] ^= 0x40;
	CHECK_EQ_INT(ksmbd_ntlmv2_authenticate(nt, chal, &a, &none, &none, &whole, exp), -EKEYREJECTED);
}

TEST(arc4_vectors)
{
	u8 key[16], buf[16], want[16];

	hex(NLMP_SESSION_BASE_KEY, key, 16);
	hex(NLMP_ENC_SESSION_KEY, buf, 16);
	hex(NLMP_RANDOM_SESSION_KEY, want, 16);
	ksmbd_arc4_crypt(key, 16, buf, 16);
	CHECK_EQ_MEM(buf, want, 16);
	hex(W10_SESSION_BASE_KEY, key, 16);
	hex(W10_ENC_SESSION_KEY, buf, 16);
	hex(W10_SESSION_KEY, want, 16);
	ksmbd_arc4_crypt(key, 16, buf, 16);
	CHECK_EQ_MEM(buf, want, 16);
}

/* NTLMSSP tokens out of the blog's SESSION_SETUP messages. */
static struct ksmbd_buf w10_token(const char *msg_hex, u8 *buf, u32 cap)
{
	struct ksmbd_spnego_token t;
	u32 n = sample_unhex(msg_hex, buf, cap);
	u32 off, len;

	/* request: SecurityBufferOffset at body+12; response: at body+4 */
	if (buf[64] == 25) {
		off = get_unaligned_le16(buf + 76);
		len = get_unaligned_le16(buf + 78);
	} else {
		off = get_unaligned_le16(buf + 68);
		len = get_unaligned_le16(buf + 70);
	}
	if (off + len > n || ksmbd_spnego_parse(buf + off, len, &t))
		return ksmbd_buf_make(NULL, 0);
	return t.mech_token;
}

TEST(windows10_exchange_with_mic)
{
	static u8 m1[512], m2[512], m3[1024];
	struct ksmbd_buf neg = w10_token(W10_SESS_SETUP_REQ1, m1, sizeof(m1));
	struct ksmbd_buf chal = w10_token(W10_SESS_SETUP_RSP1, m2, sizeof(m2));
	struct ksmbd_buf auth = w10_token(W10_SESS_SETUP_REQ2, m3, sizeof(m3));
	struct ksmbd_ntlm_auth a;
	u8 owf[16], base[16], exp[16], want[16];
	u32 flags;

	CHECK_EQ_INT(neg.len, 40);
	CHECK_EQ_INT(chal.len, 148);
	CHECK_EQ_INT(auth.len, 422);
	if (!neg.len || !chal.len || !auth.len)
		return;
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_negotiate(neg.p, neg.len, &flags), 0);
	CHECK_EQ_INT(flags, 0xe2088297);
	CHECK_EQ_INT(ksmbd_ntlmssp_type(chal.p, chal.len), NTLMSSP_CHALLENGE_MSG);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth.p, auth.len, &a), 0);
	CHECK_EQ_STR(a.user_utf8, "administrator");
	CHECK_EQ_STR(a.domain_utf8, "SUT311");
	CHECK_EQ_STR(a.workstation_utf8, "DRIVER311");
	CHECK(a.has_mic);
	CHECK(ksmbd_ntlmv2_mic_required(&a.nt_response));

	/* the blog gives ResponseKeyNT (= NTOWFv2), not the password */
	hex(W10_RESPONSE_KEY_NT, owf, 16);
	CHECK_EQ_INT(ksmbd_ntlmv2_verify(owf, chal.p + 24, &a.nt_response, base), 0);
	hex(W10_SESSION_BASE_KEY, want, 16);
	CHECK_EQ_MEM(base, want, 16);
	CHECK_EQ_INT(ksmbd_ntlmv2_exported_key(a.flags, base, &a.session_key, exp), 0);
	hex(W10_SESSION_KEY, want, 16);
	CHECK_EQ_MEM(exp, want, 16);
	CHECK_EQ_INT(ksmbd_ntlmv2_verify_mic(exp, &neg, &chal, &auth), 0);
	/* any change to any of the three messages breaks the MIC */
	m1[neg.p - m1 + 12] ^= 1;
	CHECK_EQ_INT(ksmbd_ntlmv2_verify_mic(exp, &neg, &chal, &auth), -EKEYREJECTED);
	m1[neg.p - m1 + 12] ^= 1;
	m3[auth.p - m3 + 100] ^= 1;
	CHECK_EQ_INT(ksmbd_ntlmv2_verify_mic(exp, &neg, &chal, &auth), -EKEYREJECTED);
}

/* Row 20: each (Len, MaxLen, Offset) field pointing outside the blob. */
TEST(every_field_outside_blob)
{
	static const u32 fields[] = { 12, 20, 28, 36, 44, 52 };
	struct ksmbd_ntlm_auth a;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		u32 f = fields[i];

		load_nlmp_auth();
		put_unaligned_le16(8, auth_msg + f);
		put_unaligned_le32(auth_len, auth_msg + f + 4);
		CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EINVAL);
		put_unaligned_le32(auth_len - 4, auth_msg + f + 4);
		CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EINVAL);
		put_unaligned_le32(0xfffffffc, auth_msg + f + 4);
		CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EINVAL);
		put_unaligned_le32(16, auth_msg + f + 4);	/* into the header */
		CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EINVAL);
		put_unaligned_le32(72, auth_msg + f + 4);
		put_unaligned_le16(0xffff, auth_msg + f);
		CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EINVAL);
	}
}

TEST(truncated_at_every_byte)
{
	struct ksmbd_ntlm_auth a;
	u32 n;

	load_nlmp_auth();
	for (n = 0; n < auth_len; n++) {
		u8 *copy = malloc(n ? n : 1);

		memcpy(copy, auth_msg, n);
		if (ksmbd_ntlmssp_parse_authenticate(copy, n, &a) == 0)
			test_fail_("truncated to %u parsed", n);
		free(copy);
	}
}

/* Row 30: EncryptedRandomSessionKey must be 16 bytes under KEY_EXCH. */
TEST(session_key_length)
{
	struct ksmbd_ntlm_auth a;
	u32 len;

	load_nlmp_auth();
	len = auth_len + 16;	/* room so only the length rule can fail */
	put_unaligned_le16(17, auth_msg + 52);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, len, &a), -EINVAL);
	put_unaligned_le16(32, auth_msg + 52);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, len, &a), -EINVAL);
	put_unaligned_le16(15, auth_msg + 52);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, len, &a), -EINVAL);
	put_unaligned_le16(0, auth_msg + 52);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, len, &a), -EINVAL);
	/* without KEY_EXCH an absent key is fine */
	put_unaligned_le32(0xe2888235 & ~NTLMSSP_NEGOTIATE_KEY_EXCH, auth_msg + 60);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, len, &a), 0);
}

TEST(ntlmv1_refused)
{
	struct ksmbd_ntlm_auth a;
	struct ksmbd_buf r;
	u8 owf[16] = { 0 }, chal[8] = { 0 }, base[16];

	load_nlmp_auth();
	put_unaligned_le16(24, auth_msg + 20);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EOPNOTSUPP);
	r = ksmbd_buf_make(auth_msg + 0x84, 24);
	CHECK_EQ_INT(ksmbd_ntlmv2_verify(owf, chal, &r, base), -EOPNOTSUPP);
	r.len = 43;
	CHECK_EQ_INT(ksmbd_ntlmv2_verify(owf, chal, &r, base), -EINVAL);
	/* longer than NTLMv1, too short for NTLMv2's fixed part: malformed */
	put_unaligned_le16(30, auth_msg + 20);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EBADMSG);
}

/* Offset of the MsvAvEOL pair in the NT response at @nt, or 0. */
static u32 av_eol_at(const u8 *nt, u32 len)
{
	u32 pos = 44;

	while (pos + 4 <= len) {
		if (!get_unaligned_le16(nt + pos))
			return pos;
		pos += 4 + get_unaligned_le16(nt + pos + 2);
	}
	return 0;
}

/*
 * The AV_PAIR list of an NTLMv2 response must reach MsvAvEOL inside the
 * response (Samba bug 14932: Windows answers INVALID_PARAMETER, which
 * -EBADMSG becomes); bytes after MsvAvEOL are allowed.
 */
TEST(nt_response_av_pairs)
{
	struct ksmbd_ntlm_auth a;
	u32 nt_off, nt_len, eol;
	u8 *nt;

	load_nlmp_auth();
	nt_off = get_unaligned_le32(auth_msg + 24);
	nt_len = get_unaligned_le16(auth_msg + 20);
	nt = auth_msg + nt_off;
	eol = av_eol_at(nt, nt_len);
	CHECK(eol > 44 && eol + 4 <= nt_len);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), 0);

	/* cut just before MsvAvEOL, inside it, and right after it */
	put_unaligned_le16((u16)eol, auth_msg + 20);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EBADMSG);
	put_unaligned_le16((u16)(eol + 2), auth_msg + 20);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EBADMSG);
	put_unaligned_le16((u16)(eol + 4), auth_msg + 20);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), 0);
	/* the fixed part alone, no list */
	put_unaligned_le16(44, auth_msg + 20);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EBADMSG);

	/* the first pair claims more than the response holds */
	load_nlmp_auth();
	put_unaligned_le16(0xffff, nt + 44 + 2);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EBADMSG);
	/* MsvAvEOL turned into another pair that runs off the end */
	load_nlmp_auth();
	put_unaligned_le16(MSV_AV_FLAGS, nt + eol);
	put_unaligned_le16(8, nt + eol + 2);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EBADMSG);

	/* a 95-byte response whose "list" is 51 bytes of noise */
	load_nlmp_auth();
	memset(nt, 0xcd, 16);
	memset(nt + 16, 0, 28);
	nt[16] = nt[17] = 1;
	memset(nt + 44, 0x5e, 51);
	put_unaligned_le16(95, auth_msg + 20);
	put_unaligned_le16(95, auth_msg + 22);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EBADMSG);
}

/* Appends a UTF-16 user name at the end of the blob and points at it. */
static u32 with_user(const u8 *name, u32 name_len)
{
	load_nlmp_auth();
	memcpy(auth_msg + auth_len, name, name_len);
	put_unaligned_le16((u16)name_len, auth_msg + 36);
	put_unaligned_le16((u16)name_len, auth_msg + 38);
	put_unaligned_le32(auth_len, auth_msg + 40);
	return auth_len + name_len;
}

TEST(user_name_bounds)
{
	struct ksmbd_ntlm_auth a;
	char name[64];
	u8 u16[128];
	int n;

	memset(name, 'a', sizeof(name));
	n = ksmbd_utf8_to_utf16(name, 47, u16, sizeof(u16));
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, with_user(u16, (u32)n), &a), 0);
	CHECK_EQ_INT(strlen(a.user_utf8), 47);
	n = ksmbd_utf8_to_utf16(name, 48, u16, sizeof(u16));
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, with_user(u16, (u32)n), &a), -ENAMETOOLONG);
	/* 16 x U+00E9 is 32 bytes of UTF-8; 24 of them (48 bytes) do not fit */
	for (n = 0; n < 24; n++)
		put_unaligned_le16(0xe9, u16 + 2 * n);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, with_user(u16, 46), &a), 0);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, with_user(u16, 48), &a), -ENAMETOOLONG);
	put_unaligned_le16(0xd800, u16);	/* unpaired surrogate */
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, with_user(u16, 4), &a), -EILSEQ);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, with_user(u16, 5), &a), -EINVAL);
}

TEST(anonymous_and_oem)
{
	struct ksmbd_ntlm_auth a;

	load_nlmp_auth();
	put_unaligned_le16(1, auth_msg + 12);		/* LM = Z(1) */
	put_unaligned_le32(0xe7, auth_msg + 16);
	auth_msg[0xe7] = 0;
	put_unaligned_le16(0, auth_msg + 20);		/* no NT response */
	put_unaligned_le16(0, auth_msg + 36);		/* no user */
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), 0);
	CHECK(a.anonymous);
	CHECK_EQ_STR(a.user_utf8, "");

	load_nlmp_auth();
	put_unaligned_le16(0, auth_msg + 20);		/* user but no response */
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EINVAL);
	load_nlmp_auth();
	put_unaligned_le32(0xe2888234, auth_msg + 60);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EOPNOTSUPP);
	auth_msg[8] = 2;
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(auth_msg, auth_len, &a), -EINVAL);
}

static bool find_av(const u8 *ti, u32 len, u16 id, struct ksmbd_buf *val)
{
	u32 pos = 0;

	while (pos + 4 <= len) {
		u16 aid = get_unaligned_le16(ti + pos);
		u16 alen = get_unaligned_le16(ti + pos + 2);

		if (pos + 4 + alen > len)
			return false;
		if (aid == id) {
			*val = ksmbd_buf_make(ti + pos + 4, alen);
			return true;
		}
		if (aid == MSV_AV_EOL)
			return false;
		pos += 4 + alen;
	}
	return false;
}

TEST(build_challenge)
{
	static const u8 sc[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ksmbd_ntlm_challenge_params p = {
		.client_flags = 0xe2088297, .server_challenge = sc,
		.nb_domain = "WORKGROUP", .nb_computer = "KSMBD",
		.dns_domain = "example.org", .dns_computer = "ksmbd.example.org",
		.timestamp = 0x01d0aecbadf5a1a1ULL,
	};
	u8 out[512], u16[64];
	struct ksmbd_buf v;
	u32 len, flags, ti_len, ti_off, cap;
	int n;

	CHECK_EQ_INT(ksmbd_ntlmssp_build_challenge(&p, out, sizeof(out), &len, &flags), 0);
	CHECK_EQ_INT(ksmbd_ntlmssp_type(out, len), NTLMSSP_CHALLENGE_MSG);
	CHECK_EQ_INT(get_unaligned_le32(out + 20), flags);
	CHECK(flags & NTLMSSP_NEGOTIATE_UNICODE);
	CHECK(flags & NTLMSSP_NEGOTIATE_TARGET_INFO);
	CHECK(flags & NTLMSSP_NEGOTIATE_KEY_EXCH);
	CHECK(flags & NTLMSSP_NEGOTIATE_SIGN);
	CHECK(!(flags & NTLMSSP_NEGOTIATE_OEM));
	CHECK_EQ_MEM(out + 24, sc, 8);
	n = ksmbd_utf8_to_utf16("KSMBD", 5, u16, sizeof(u16));
	CHECK_EQ_INT(get_unaligned_le16(out + 12), n);
	CHECK_EQ_MEM(out + get_unaligned_le32(out + 16), u16, (u32)n);
	ti_len = get_unaligned_le16(out + 40);
	ti_off = get_unaligned_le32(out + 44);
	CHECK_EQ_INT(ti_off + ti_len, len);
	CHECK(find_av(out + ti_off, ti_len, MSV_AV_NB_DOMAIN_NAME, &v));
	n = ksmbd_utf8_to_utf16("WORKGROUP", 9, u16, sizeof(u16));
	CHECK(v.len == (u32)n && !memcmp(v.p, u16, (u32)n));
	CHECK(find_av(out + ti_off, ti_len, MSV_AV_DNS_COMPUTER_NAME, &v));
	CHECK_EQ_INT(v.len, 34);
	CHECK(find_av(out + ti_off, ti_len, MSV_AV_TIMESTAMP, &v));
	CHECK_EQ_INT(get_unaligned_le64(v.p), p.timestamp);
	CHECK_EQ_INT(get_unaligned_le32(out + len - 4), 0);	/* MsvAvEOL */

	for (cap = 0; cap < len; cap++)
		if (ksmbd_ntlmssp_build_challenge(&p, out, cap, &ti_len, &flags) != -ENOSPC)
			test_fail_("cap %u did not report -ENOSPC", cap);
	p.client_flags = NTLMSSP_NEGOTIATE_UNICODE;
	CHECK_EQ_INT(ksmbd_ntlmssp_build_challenge(&p, out, sizeof(out), &len, &flags), 0);
	CHECK(!(flags & NTLMSSP_NEGOTIATE_KEY_EXCH));
	p.nb_domain = "bad\xff";
	CHECK_EQ_INT(ksmbd_ntlmssp_build_challenge(&p, out, sizeof(out), &len, &flags), -EILSEQ);
}

TEST(parse_negotiate)
{
	u8 b[40];
	u32 flags;

	memset(b, 0, sizeof(b));
	memcpy(b, "NTLMSSP", 8);
	b[8] = 1;
	put_unaligned_le32(0x12345678, b + 12);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_negotiate(b, 32, &flags), 0);
	CHECK_EQ_INT(flags, 0x12345678);
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_negotiate(b, 15, &flags), -EINVAL);
	b[8] = 3;
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_negotiate(b, 32, &flags), -EINVAL);
	b[8] = 1;
	b[0] = 'X';
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_negotiate(b, 32, &flags), -EINVAL);
}

int main(void)
{
	RUN(ntowfv2_vector);
	RUN(parse_nlmp_authenticate);
	RUN(nlmp_proof_base_key_and_key_exchange);
	RUN(nlmp_full_authenticate);
	RUN(arc4_vectors);
	RUN(windows10_exchange_with_mic);
	RUN(every_field_outside_blob);
	RUN(truncated_at_every_byte);
	RUN(session_key_length);
	RUN(ntlmv1_refused);
	RUN(nt_response_av_pairs);
	RUN(user_name_bounds);
	RUN(anonymous_and_oem);
	RUN(build_challenge);
	RUN(parse_negotiate);
	return test_report();
}
