// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NTLM session security (proto/ntlmsec.c): the MS-NLMP 4.2.4.4 sealing
 * example (keys, RC4 stream, signature), the SPNEGO mechListMIC of a real
 * Windows 10 client, and the server's own MIC as a client would check it.
 */
#include "testlib.h"
#include "proto/ntlmsec.h"
#include "proto/ntlmssp.h"
#include "proto/spnego.h"
#include "samples.h"
#include "vectors.h"

#include <stdlib.h>

/* MS-NLMP 4.2.4 Challenge flags (33 82 8a e2) and 4.2.4.4 results. */
#define NLMP_FLAGS		0xe28a8233u
#define NLMP_C2S_SEAL_KEY	"59f600973cc4960a25480a7c196e4c58"
#define NLMP_C2S_SIGN_KEY	"4788dc861b4782f35d43fd98fe1a2d39"
#define NLMP_SEALED		"54e50165bf1936dc996020c1811b0f06fb5f"
#define NLMP_SIGNATURE		"010000007fb38ec5c55d497600000000"

static void hex(const char *h, u8 *out, u32 n)
{
	if (sample_unhex(h, out, n) != n)
		test_fail_("bad vector %.16s...", h);
}

/* "Plaintext" in UTF-16LE. */
static const u8 plaintext[18] = {
	'P', 0, 'l', 0, 'a', 0, 'i', 0, 'n', 0, 't', 0, 'e', 0, 'x', 0, 't', 0 };

TEST(nlmp_keys)
{
	struct ksmbd_ntlm_sec sec;
	u8 key[16], want[16];

	hex(NLMP_RANDOM_SESSION_KEY, key, 16);
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&sec, NLMP_FLAGS, key), 0);
	hex(NLMP_C2S_SIGN_KEY, want, 16);
	CHECK_EQ_MEM(sec.c2s.sign_key, want, 16);
	hex(NLMP_C2S_SEAL_KEY, want, 16);
	CHECK_EQ_MEM(sec.c2s.seal_key, want, 16);
	/* the other direction has keys of its own */
	CHECK(memcmp(sec.s2c.sign_key, sec.c2s.sign_key, 16) != 0);
	CHECK(memcmp(sec.s2c.seal_key, sec.c2s.seal_key, 16) != 0);
	CHECK_EQ_INT(sec.c2s.seq, 0);
	ksmbd_ntlm_sec_wipe(&sec);
}

/* 4.2.4.4 SEAL: RC4 the message, then the signature continues the stream. */
TEST(nlmp_seal_example)
{
	struct ksmbd_ntlm_sec sec;
	u8 key[16], msg[18], want_msg[18], sig[16], want_sig[16];
	struct ksmbd_buf m = ksmbd_buf_make(plaintext, sizeof(plaintext));

	hex(NLMP_RANDOM_SESSION_KEY, key, 16);
	hex(NLMP_SEALED, want_msg, 18);
	hex(NLMP_SIGNATURE, want_sig, 16);
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&sec, NLMP_FLAGS, key), 0);
	memcpy(msg, plaintext, sizeof(msg));
	ksmbd_arc4_apply(&sec.c2s.seal, msg, sizeof(msg));
	CHECK_EQ_MEM(msg, want_msg, 18);
	/* MS-NLMP signs the plaintext */
	CHECK_EQ_INT(ksmbd_ntlm_sec_sign(&sec, &sec.c2s, &m, sig), 0);
	CHECK_EQ_MEM(sig, want_sig, 16);
	CHECK_EQ_INT(sec.c2s.seq, 1);
	ksmbd_ntlm_sec_wipe(&sec);
}

/* The same key without KEY_EXCH: the checksum goes out in clear. */
TEST(sign_without_key_exch)
{
	struct ksmbd_ntlm_sec sec;
	u8 key[16], sig[16], sig2[16];
	struct ksmbd_buf m = ksmbd_buf_make(plaintext, sizeof(plaintext));
	struct ksmbd_buf s = ksmbd_buf_make(sig, 16);

	hex(NLMP_RANDOM_SESSION_KEY, key, 16);
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&sec, NLMP_FLAGS & ~NTLMSSP_NEGOTIATE_KEY_EXCH, key), 0);
	CHECK_EQ_INT(ksmbd_ntlm_sec_sign(&sec, &sec.s2c, &m, sig), 0);
	/* HMAC_MD5(SignKey, 0 || msg)[0..7] is the same for any sequence... */
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&sec, NLMP_FLAGS & ~NTLMSSP_NEGOTIATE_KEY_EXCH, key), 0);
	CHECK_EQ_INT(ksmbd_ntlm_sec_verify(&sec, &sec.s2c, &m, &s), 0);
	/* ...but the second signature has sequence number 1 */
	CHECK_EQ_INT(ksmbd_ntlm_sec_sign(&sec, &sec.s2c, &m, sig2), 0);
	CHECK_EQ_INT(sig2[12], 1);
	CHECK(memcmp(sig + 4, sig2 + 4, 8) != 0);
	ksmbd_ntlm_sec_wipe(&sec);
}

/* 40- and 56-bit sealing keys hash a prefix of the session key. */
TEST(weak_seal_key_lengths)
{
	struct ksmbd_ntlm_sec a, b;
	u8 key[16];

	hex(NLMP_RANDOM_SESSION_KEY, key, 16);
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&a, NTLMSSP_NEGOTIATE_56, key), 0);
	key[7] ^= 0xff;		/* outside the 56-bit prefix */
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&b, NTLMSSP_NEGOTIATE_56, key), 0);
	CHECK_EQ_MEM(a.c2s.seal_key, b.c2s.seal_key, 16);
	CHECK(memcmp(a.c2s.sign_key, b.c2s.sign_key, 16) != 0);
	key[5] ^= 0xff;		/* inside it, outside the 40-bit one */
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&b, NTLMSSP_NEGOTIATE_56, key), 0);
	CHECK(memcmp(a.c2s.seal_key, b.c2s.seal_key, 16) != 0);
	/* neither flag: 40 bits */
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&a, 0, key), 0);
	key[5] ^= 0xff;
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&b, 0, key), 0);
	CHECK_EQ_MEM(a.c2s.seal_key, b.c2s.seal_key, 16);
	key[4] ^= 0xff;
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&b, 0, key), 0);
	CHECK(memcmp(a.c2s.seal_key, b.c2s.seal_key, 16) != 0);
	ksmbd_ntlm_sec_wipe(&a);
	ksmbd_ntlm_sec_wipe(&b);
}

/* The SPNEGO token of a SESSION_SETUP message in the W10 capture. */
static int w10_spnego(const char *msg_hex, u8 *buf, u32 cap,
		      struct ksmbd_spnego_token *t)
{
	u32 n = sample_unhex(msg_hex, buf, cap);
	u32 off = get_unaligned_le16(buf + 76), len = get_unaligned_le16(buf + 78);

	if (off + len > n)
		return -EINVAL;
	return ksmbd_spnego_parse(buf + off, len, t);
}

/* Windows 10's mechListMIC (over REQ1's mechTypes) in its AUTHENTICATE leg. */
TEST(windows10_mech_list_mic)
{
	static u8 m1[512], m3[1024];
	struct ksmbd_spnego_token init, resp;
	struct ksmbd_ntlm_auth a;
	struct ksmbd_buf list, mic;
	u8 key[16], ours[16], mic_copy[16];

	CHECK_EQ_INT(w10_spnego(W10_SESS_SETUP_REQ1, m1, sizeof(m1), &init), 0);
	CHECK_EQ_INT(w10_spnego(W10_SESS_SETUP_REQ2, m3, sizeof(m3), &resp), 0);
	CHECK(init.is_init);
	CHECK(!resp.is_init);
	CHECK_EQ_INT(resp.mech_list_mic.len, 16);
	if (resp.mech_list_mic.len != 16 || !init.mech_list.len)
		return;
	CHECK_EQ_INT(ksmbd_ntlmssp_parse_authenticate(resp.mech_token.p,
						      resp.mech_token.len, &a), 0);
	hex(W10_SESSION_KEY, key, 16);
	list = init.mech_list;
	mic = resp.mech_list_mic;
	CHECK_EQ_INT(ksmbd_ntlm_mech_list_mic(a.flags, key, &list, &mic, ours), 0);
	CHECK_EQ_INT(get_unaligned_le32(ours), 1);
	CHECK_EQ_INT(get_unaligned_le32(ours + 12), 0);
	CHECK(memcmp(ours, mic.p, 16) != 0);	/* the other direction */

	/* a changed list, MIC, key or flag is refused */
	m1[list.p - m1 + list.len - 1] ^= 1;
	CHECK_EQ_INT(ksmbd_ntlm_mech_list_mic(a.flags, key, &list, &mic, ours), -EKEYREJECTED);
	m1[list.p - m1 + list.len - 1] ^= 1;
	memcpy(mic_copy, mic.p, 16);
	mic_copy[6] ^= 0x80;
	mic = ksmbd_buf_make(mic_copy, 16);
	CHECK_EQ_INT(ksmbd_ntlm_mech_list_mic(a.flags, key, &list, &mic, ours), -EKEYREJECTED);
	mic = resp.mech_list_mic;
	CHECK_EQ_INT(ksmbd_ntlm_mech_list_mic(a.flags & ~NTLMSSP_NEGOTIATE_KEY_EXCH,
					      key, &list, &mic, ours), -EKEYREJECTED);
	key[0] ^= 1;
	CHECK_EQ_INT(ksmbd_ntlm_mech_list_mic(a.flags, key, &list, &mic, ours), -EKEYREJECTED);
	key[0] ^= 1;
	mic.len = 15;
	CHECK_EQ_INT(ksmbd_ntlm_mech_list_mic(a.flags, key, &list, &mic, ours), -EKEYREJECTED);
	mic.len = 16;
	list.len = 0;
	CHECK_EQ_INT(ksmbd_ntlm_mech_list_mic(a.flags, key, &list, &mic, ours), -EKEYREJECTED);
}

/* Our MIC is what a client checks with the server-to-client keys. */
TEST(server_mic_checks_as_client)
{
	static const u8 list_der[] = {
		0x30, 0x0c, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04,
		0x01, 0x82, 0x37, 0x02, 0x02, 0x0a };
	struct ksmbd_buf list = ksmbd_buf_make(list_der, sizeof(list_der));
	struct ksmbd_ntlm_sec client;
	u8 key[16], cmic[16], smic[16];
	struct ksmbd_buf c = ksmbd_buf_make(cmic, 16), s = ksmbd_buf_make(smic, 16);

	hex(NLMP_RANDOM_SESSION_KEY, key, 16);
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&client, NLMP_FLAGS, key), 0);
	CHECK_EQ_INT(ksmbd_ntlm_sec_sign(&client, &client.c2s, &list, cmic), 0);
	CHECK_EQ_INT(ksmbd_ntlm_mech_list_mic(NLMP_FLAGS, key, &list, &c, smic), 0);
	CHECK_EQ_INT(ksmbd_ntlm_sec_verify(&client, &client.s2c, &list, &s), 0);
	/* the client's own MIC is no answer */
	CHECK_EQ_INT(ksmbd_ntlm_sec_init(&client, NLMP_FLAGS, key), 0);
	CHECK_EQ_INT(ksmbd_ntlm_sec_verify(&client, &client.s2c, &list, &c), -EKEYREJECTED);
	ksmbd_ntlm_sec_wipe(&client);
}

int main(void)
{
	RUN(nlmp_keys);
	RUN(nlmp_seal_example);
	RUN(sign_without_key_exch);
	RUN(weak_seal_key_lengths);
	RUN(windows10_mech_list_mic);
	RUN(server_mic_checks_as_client);
	return test_report();
}
