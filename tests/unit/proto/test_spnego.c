// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DER and SPNEGO: real Windows tokens, smbclient-shaped tokens built here
 * from RFC 4178, round trips of what the server builds, and malformed
 * input (lengths, nesting, truncation at every byte).
 */
#include "testlib.h"
#include "proto/der.h"
#include "proto/spnego.h"
#include "samples.h"
#include "vectors.h"

#include <stdlib.h>

static const u8 oid_ntlm[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a };
static const u8 oid_krb5[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 };
static const u8 oid_mskrb5[] = { 0x2a, 0x86, 0x48, 0x82, 0xf7, 0x12, 0x01, 0x02, 0x02 };
static const u8 oid_spnego[] = { 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02 };

/* Test-side DER writer, independent of the library's: tag, length, bytes. */
static u32 tlv(u8 *out, u8 tag, const u8 *v, u32 len)
{
	u32 h = 0;

	out[h++] = tag;
	if (len < 0x80) {
		out[h++] = (u8)len;
	} else if (len < 0x100) {
		out[h++] = 0x81;
		out[h++] = (u8)len;
	} else {
		out[h++] = 0x82;
		out[h++] = (u8)(len >> 8);
		out[h++] = (u8)len;
	}
	if (len)
		memmove(out + h, v, len);
	return h + len;
}

/* Token shaped like smbclient's: krb5 OIDs then NTLMSSP, mechToken. */
static u32 smbclient_init(u8 *out, bool krb5, const u8 *mt, u32 mt_len)
{
	u8 a[512], b[512];
	u32 n = 0, m;

	if (krb5) {
		n += tlv(a + n, 0x06, oid_mskrb5, sizeof(oid_mskrb5));
		n += tlv(a + n, 0x06, oid_krb5, sizeof(oid_krb5));
	}
	n += tlv(a + n, 0x06, oid_ntlm, sizeof(oid_ntlm));
	m = tlv(b, 0x30, a, n);
	n = tlv(a, 0xa0, b, m);
	m = tlv(b, 0x04, mt, mt_len);
	n += tlv(a + n, 0xa2, b, m);
	m = tlv(b, 0x30, a, n);
	n = tlv(a, 0xa0, b, m);
	m = tlv(b, 0x06, oid_spnego, sizeof(oid_spnego));
	memcpy(b + m, a, n);
	return tlv(out, 0x60, b, m + n);
}

static struct ksmbd_buf sec_blob(const char *msg_hex, u8 *buf, u32 cap)
{
	u32 n = sample_unhex(msg_hex, buf, cap), off, len;

	if (buf[64] == 25) {		/* SESSION_SETUP request */
		off = get_unaligned_le16(buf + 76);
		len = get_unaligned_le16(buf + 78);
	} else if (buf[64] == 65) {	/* NEGOTIATE response */
		off = get_unaligned_le16(buf + 64 + 56);
		len = get_unaligned_le16(buf + 64 + 58);
	} else {			/* SESSION_SETUP response */
		off = get_unaligned_le16(buf + 68);
		len = get_unaligned_le16(buf + 70);
	}
	if (off + len > n)
		return ksmbd_buf_make(NULL, 0);
	return ksmbd_buf_make(buf + off, len);
}

TEST(windows_client_init)
{
	static u8 m[512];
	struct ksmbd_buf b = sec_blob(W10_SESS_SETUP_REQ1, m, sizeof(m));
	struct ksmbd_spnego_token t;
	bool first = false;

	CHECK_EQ_INT(b.len, 74);
	CHECK_EQ_INT(ksmbd_spnego_parse(b.p, b.len, &t), 0);
	CHECK(t.is_init);
	CHECK_EQ_INT(t.mech_count, 1);
	CHECK(ksmbd_spnego_offers(&t, KSMBD_MECH_NTLMSSP, &first));
	CHECK(first);
	CHECK(!ksmbd_spnego_offers(&t, KSMBD_MECH_KRB5, NULL));
	CHECK_EQ_INT(t.mech_token.len, 40);
	CHECK(!memcmp(t.mech_token.p, "NTLMSSP\0\1", 9));
	CHECK_EQ_INT(t.mech_list.len, 14);
}

TEST(windows_server_init2)
{
	static u8 m[1024];
	struct ksmbd_buf b = sec_blob(W10_NEGOTIATE_RSP, m, sizeof(m));
	struct ksmbd_spnego_token t;
	bool first = true;

	CHECK_EQ_INT(b.len, 320);
	CHECK_EQ_INT(ksmbd_spnego_parse(b.p, b.len, &t), 0);
	CHECK(t.is_init);
	CHECK_EQ_INT(t.mech_count, 2);
	CHECK_EQ_INT(t.mechs[0], KSMBD_MECH_NEGOEX);
	CHECK(ksmbd_spnego_offers(&t, KSMBD_MECH_NTLMSSP, &first));
	CHECK(!first);
	CHECK_EQ_INT(t.mech_token.len, 264);
}

TEST(windows_resp_tokens)
{
	static u8 m2[512], m3[1024];
	struct ksmbd_buf chal = sec_blob(W10_SESS_SETUP_RSP1, m2, sizeof(m2));
	struct ksmbd_buf auth = sec_blob(W10_SESS_SETUP_REQ2, m3, sizeof(m3));
	struct ksmbd_spnego_token t;

	CHECK_EQ_INT(ksmbd_spnego_parse(chal.p, chal.len, &t), 0);
	CHECK(!t.is_init);
	CHECK_EQ_INT(t.neg_state, KSMBD_SPNEGO_ACCEPT_INCOMPLETE);
	CHECK_EQ_INT(t.supported_mech, KSMBD_MECH_NTLMSSP);
	CHECK_EQ_INT(t.mech_token.len, 148);

	CHECK_EQ_INT(ksmbd_spnego_parse(auth.p, auth.len, &t), 0);
	CHECK_EQ_INT(t.neg_state, KSMBD_SPNEGO_ACCEPT_INCOMPLETE);
	CHECK_EQ_INT(t.supported_mech, 0);
	CHECK_EQ_INT(t.mech_token.len, 422);
	CHECK_EQ_INT(t.mech_list_mic.len, 16);
}

TEST(smbclient_shaped_init)
{
	static const u8 ntlm_neg[] = "NTLMSSP\0\1\0\0\0\x15\x82\x08\x60";
	u8 tok[512];
	struct ksmbd_spnego_token t;
	bool first;
	u32 n = smbclient_init(tok, true, ntlm_neg, sizeof(ntlm_neg) - 1);

	CHECK_EQ_INT(ksmbd_spnego_parse(tok, n, &t), 0);
	CHECK_EQ_INT(t.mech_count, 3);
	CHECK(ksmbd_spnego_offers(&t, KSMBD_MECH_MS_KRB5, &first) && first);
	CHECK(ksmbd_spnego_offers(&t, KSMBD_MECH_NTLMSSP, &first) && !first);
	CHECK_EQ_INT(t.mech_token.len, 16);
	CHECK_EQ_MEM(t.mech_token.p, ntlm_neg, 16);

	n = smbclient_init(tok, false, ntlm_neg, sizeof(ntlm_neg) - 1);
	CHECK_EQ_INT(ksmbd_spnego_parse(tok, n, &t), 0);
	CHECK(ksmbd_spnego_offers(&t, KSMBD_MECH_NTLMSSP, &first) && first);
}

TEST(hint_round_trip)
{
	u8 out[256];
	struct ksmbd_spnego_token t;
	u32 len, cap;
	bool first;

	CHECK_EQ_INT(ksmbd_spnego_build_hint(false, out, sizeof(out), &len), 0);
	CHECK_EQ_INT(out[0], 0x60);
	CHECK_EQ_INT(ksmbd_spnego_parse(out, len, &t), 0);
	CHECK(t.is_init);
	CHECK_EQ_INT(t.mech_count, 1);
	CHECK(ksmbd_spnego_offers(&t, KSMBD_MECH_NTLMSSP, &first) && first);
	CHECK_EQ_INT(t.mech_token.len, 0);
	CHECK_EQ_INT(t.mech_list_mic.len, 0);
	CHECK(memmem(out, len, "not_defined_in_RFC4178@please_ignore", 36) != NULL);

	CHECK_EQ_INT(ksmbd_spnego_build_hint(true, out, sizeof(out), &len), 0);
	CHECK_EQ_INT(ksmbd_spnego_parse(out, len, &t), 0);
	CHECK_EQ_INT(t.mech_count, 3);
	CHECK_EQ_INT(t.mechs[0], KSMBD_MECH_MS_KRB5);
	CHECK_EQ_INT(t.mechs[1], KSMBD_MECH_KRB5);
	CHECK_EQ_INT(t.mechs[2], KSMBD_MECH_NTLMSSP);
	for (cap = 0; cap < len; cap++)
		if (ksmbd_spnego_build_hint(true, out, cap, &len) != -ENOSPC)
			test_fail_("cap %u not -ENOSPC", cap);
}

static void resp_round_trip(enum ksmbd_spnego_state st, bool mech, u32 tok_len,
			    u32 mic_len)
{
	static u8 tok[70000], out[70100];
	u8 mic[32];
	struct ksmbd_spnego_token t;
	u32 len, i;

	for (i = 0; i < tok_len; i++)
		tok[i] = (u8)(i * 7);
	memset(mic, 0x5a, sizeof(mic));
	CHECK_EQ_INT(ksmbd_spnego_build_resp(st, mech, tok, tok_len, mic, mic_len,
					     out, sizeof(out), &len), 0);
	CHECK_EQ_INT(ksmbd_spnego_parse(out, len, &t), 0);
	CHECK(!t.is_init);
	CHECK_EQ_INT(t.neg_state, st);
	CHECK_EQ_INT(t.supported_mech, mech ? KSMBD_MECH_NTLMSSP : 0);
	CHECK_EQ_INT(t.mech_token.len, tok_len);
	if (tok_len)
		CHECK_EQ_MEM(t.mech_token.p, tok, tok_len);
	CHECK_EQ_INT(t.mech_list_mic.len, mic_len);
	if (ksmbd_spnego_build_resp(st, mech, tok, tok_len, mic, mic_len, out,
				    len - 1, &len) != -ENOSPC)
		test_fail_("one byte short did not fail (%u)", tok_len);
}

TEST(resp_round_trips)
{
	resp_round_trip(KSMBD_SPNEGO_ACCEPT_INCOMPLETE, true, 148, 0);
	resp_round_trip(KSMBD_SPNEGO_ACCEPT_COMPLETED, false, 0, 16);
	resp_round_trip(KSMBD_SPNEGO_REJECT, false, 0, 0);
	resp_round_trip(KSMBD_SPNEGO_ACCEPT_INCOMPLETE, true, 300, 16);
	resp_round_trip(KSMBD_SPNEGO_ACCEPT_INCOMPLETE, true, 70000, 0);
	CHECK_EQ_INT(ksmbd_spnego_build_resp(7, false, NULL, 0, NULL, 0, NULL, 0, NULL), -EINVAL);
}

TEST(truncated_at_every_byte)
{
	static u8 m[1024];
	struct ksmbd_buf b = sec_blob(W10_SESS_SETUP_REQ2, m, sizeof(m));
	struct ksmbd_spnego_token t;
	u32 n;

	for (n = 0; n < b.len; n++) {
		u8 *copy = malloc(n ? n : 1);

		memcpy(copy, b.p, n);
		if (ksmbd_spnego_parse(copy, n, &t) == 0)
			test_fail_("truncated to %u parsed", n);
		free(copy);
	}
}

TEST(malformed_lengths)
{
	static const u8 ntlm[] = "NTLMSSP";
	u8 tok[256], bad[300];
	struct ksmbd_spnego_token t;
	u32 n = smbclient_init(tok, false, ntlm, 8);

	memcpy(bad, tok, n);
	bad[1] = 0x80;			/* indefinite length */
	CHECK_EQ_INT(ksmbd_spnego_parse(bad, n, &t), -EBADMSG);
	bad[1] = 0x85;			/* 5 length bytes */
	CHECK_EQ_INT(ksmbd_spnego_parse(bad, n, &t), -EBADMSG);
	bad[1] = (u8)(n - 1);		/* longer than what remains */
	CHECK_EQ_INT(ksmbd_spnego_parse(bad, n, &t), -EBADMSG);
	bad[1] = tok[1];
	bad[n] = 0;			/* trailing byte after the token */
	CHECK_EQ_INT(ksmbd_spnego_parse(bad, n + 1, &t), -EBADMSG);
	bad[4] = 0x2c;			/* not the SPNEGO OID */
	CHECK_EQ_INT(ksmbd_spnego_parse(bad, n, &t), -EBADMSG);
	memcpy(bad, tok, n);
	bad[0] = 0x7f;			/* high tag number form */
	CHECK_EQ_INT(ksmbd_spnego_parse(bad, n, &t), -EBADMSG);
	bad[0] = 0x30;
	CHECK_EQ_INT(ksmbd_spnego_parse(bad, n, &t), -EBADMSG);
	CHECK_EQ_INT(ksmbd_spnego_parse(tok, 0, &t), -EBADMSG);
	CHECK_EQ_INT(ksmbd_spnego_parse(tok, n, &t), 0);
}

TEST(semantic_errors)
{
	u8 a[128], b[128], oids[512], out[600];
	struct ksmbd_spnego_token t;
	u32 n, m, i;

	/* empty mechTypes */
	n = tlv(a, 0x30, NULL, 0);
	m = tlv(b, 0xa0, a, n);
	n = tlv(a, 0x30, b, m);
	m = tlv(b, 0xa0, a, n);
	CHECK_EQ_INT(ksmbd_spnego_parse(b, m, &t), -EBADMSG);
	/* 17 mechs: over the bound */
	for (n = 0, i = 0; i < 17; i++)
		n += tlv(oids + n, 0x06, oid_ntlm, sizeof(oid_ntlm));
	m = tlv(out, 0x30, oids, n);
	n = tlv(oids, 0xa0, out, m);
	m = tlv(out, 0x30, oids, n);
	n = tlv(oids, 0xa0, out, m);
	CHECK_EQ_INT(ksmbd_spnego_parse(oids, n, &t), -EBADMSG);
	/* negState out of range */
	a[0] = 0x0a; a[1] = 1; a[2] = 7;
	m = tlv(b, 0xa0, a, 3);
	n = tlv(a, 0x30, b, m);
	m = tlv(b, 0xa1, a, n);
	CHECK_EQ_INT(ksmbd_spnego_parse(b, m, &t), -EBADMSG);
	b[m - 1] = 2;
	CHECK_EQ_INT(ksmbd_spnego_parse(b, m, &t), 0);
	CHECK_EQ_INT(t.neg_state, KSMBD_SPNEGO_REJECT);
	/* responseToken that is not an OCTET STRING */
	a[0] = 0x02; a[1] = 1; a[2] = 1;
	m = tlv(b, 0xa2, a, 3);
	n = tlv(a, 0x30, b, m);
	m = tlv(b, 0xa1, a, n);
	CHECK_EQ_INT(ksmbd_spnego_parse(b, m, &t), -EBADMSG);
	/* fields out of order */
	a[0] = 0x04; a[1] = 0;
	m = tlv(b, 0xa2, a, 2);
	a[0] = 0x0a; a[1] = 1; a[2] = 0;
	m += tlv(b + m, 0xa0, a, 3);
	n = tlv(a, 0x30, b, m);
	m = tlv(b, 0xa1, a, n);
	CHECK_EQ_INT(ksmbd_spnego_parse(b, m, &t), -EBADMSG);
}

TEST(nesting_bound)
{
	u8 a[64], b[64];
	struct ksmbd_spnego_token t;
	struct ksmbd_buf in;
	u32 n = 0, d;

	/* KSMBD_DER_MAX_DEPTH levels are fine for the checker, one more is not */
	for (d = 0; d < KSMBD_DER_MAX_DEPTH; d++) {
		n = tlv(b, 0x30, a, n);
		memcpy(a, b, n);
	}
	in = ksmbd_buf_make(a, n);
	CHECK_EQ_INT(ksmbd_der_check(&in, KSMBD_DER_MAX_DEPTH), 0);
	n = tlv(b, 0x30, a, n);
	in = ksmbd_buf_make(b, n);
	CHECK_EQ_INT(ksmbd_der_check(&in, KSMBD_DER_MAX_DEPTH), -EBADMSG);
	b[0] = 0xa1;
	CHECK_EQ_INT(ksmbd_spnego_parse(b, n, &t), -EBADMSG);
}

TEST(der_long_lengths)
{
	static const u8 four[] = { 0x04, 0x84, 0, 0, 0, 3, 'a', 'b', 'c' };
	static const u8 huge[] = { 0x04, 0x84, 0xff, 0xff, 0xff, 0xff, 'a' };
	static const u8 cut[] = { 0x04, 0x82, 0x01 };
	struct ksmbd_buf in = ksmbd_buf_make(four, sizeof(four)), v;
	u8 tag;

	CHECK_EQ_INT(ksmbd_der_read(&in, &tag, &v), 0);
	CHECK_EQ_INT(v.len, 3);
	CHECK_EQ_INT(in.len, 0);
	CHECK_EQ_INT(ksmbd_der_read(&in, &tag, &v), -ENODATA);
	in = ksmbd_buf_make(huge, sizeof(huge));
	CHECK_EQ_INT(ksmbd_der_read(&in, &tag, &v), -EBADMSG);
	in = ksmbd_buf_make(cut, sizeof(cut));
	CHECK_EQ_INT(ksmbd_der_read(&in, &tag, &v), -EBADMSG);
	CHECK_EQ_INT(ksmbd_der_tlv_size(127), 129);
	CHECK_EQ_INT(ksmbd_der_tlv_size(128), 131);
	CHECK_EQ_INT(ksmbd_der_tlv_size(70000), 70005);
}

int main(void)
{
	RUN(windows_client_init);
	RUN(windows_server_init2);
	RUN(windows_resp_tokens);
	RUN(smbclient_shaped_init);
	RUN(hint_round_trip);
	RUN(resp_round_trips);
	RUN(truncated_at_every_byte);
	RUN(malformed_lengths);
	RUN(semantic_errors);
	RUN(nesting_bound);
	RUN(der_long_lengths);
	return test_report();
}
