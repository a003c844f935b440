// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kerberos detection in a NegTokenInit (proto/spnego_krb5.c): the first
 * mechanism must be krb5 (either OID) and the optimistic token a krb5
 * GSS token with the AP-REQ token id; everything else stays NTLMSSP's.
 */
#include "testlib.h"
#include "proto/spnego.h"
#include "proto/spnego_krb5.h"

static const u8 oid_ntlm[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a };
static const u8 oid_krb5[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 };
static const u8 oid_mskrb5[] = { 0x2a, 0x86, 0x48, 0x82, 0xf7, 0x12, 0x01, 0x02, 0x02 };
static const u8 oid_spnego[] = { 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02 };

/* Tag, short or 0x82 long length, value. */
static u32 put(u8 *out, u8 tag, const u8 *v, u32 len)
{
	u32 h = 0;

	out[h++] = tag;
	if (len < 0x80) {
		out[h++] = (u8)len;
	} else {
		out[h++] = 0x82;
		out[h++] = (u8)(len >> 8);
		out[h++] = (u8)len;
	}
	memmove(out + h, v, len);
	return h + len;
}

/* A krb5 GSS token: [APPLICATION 0] { oid, tok_id, fake AP-REQ }. */
static u32 gss_token(u8 *out, const u8 *oid, u32 oid_len, u8 id0, u8 id1)
{
	u8 body[256];
	u32 n = put(body, 0x06, oid, oid_len);

	body[n++] = id0;
	body[n++] = id1;
	/* [APPLICATION 14] with some bytes: the daemon's to check. */
	n += put(body + n, 0x6e, (const u8 *)"ticket and authenticator", 24);
	return put(out, 0x60, body, n);
}

/* NegTokenInit listing @mechs (OID encodings) with mechToken @mt. */
static u32 init_token(u8 *out, const u8 *const *mechs, const u32 *lens,
		      u32 nmech, const u8 *mt, u32 mt_len)
{
	u8 a[1024], b[1024];
	u32 n = 0, m, i;

	for (i = 0; i < nmech; i++)
		n += put(a + n, 0x06, mechs[i], lens[i]);
	m = put(b, 0x30, a, n);
	n = put(a, 0xa0, b, m);
	if (mt_len) {
		m = put(b, 0x04, mt, mt_len);
		n += put(a + n, 0xa2, b, m);
	}
	m = put(b, 0x30, a, n);
	n = put(a, 0xa0, b, m);
	m = put(b, 0x06, oid_spnego, sizeof(oid_spnego));
	memcpy(b + m, a, n);
	return put(out, 0x60, b, m + n);
}

static int detect(const u8 *const *mechs, const u32 *lens, u32 nmech,
		  const u8 *mt, u32 mt_len)
{
	static u8 blob[2048];
	struct ksmbd_spnego_token t;
	u32 len = init_token(blob, mechs, lens, nmech, mt, mt_len);

	if (ksmbd_spnego_parse(blob, len, &t))
		return -1;
	return ksmbd_spnego_krb5_ap_req(&t);
}

TEST(smbclient_and_cifs_upcall_shapes)
{
	const u8 *smbc[] = { oid_mskrb5, oid_krb5, oid_ntlm };
	const u32 smbc_len[] = { sizeof(oid_mskrb5), sizeof(oid_krb5), sizeof(oid_ntlm) };
	const u8 *upcall[] = { oid_krb5, oid_mskrb5 };
	const u32 upcall_len[] = { sizeof(oid_krb5), sizeof(oid_mskrb5) };
	u8 mt[512];
	u32 n;

	n = gss_token(mt, oid_krb5, sizeof(oid_krb5), 0x01, 0x00);
	CHECK_EQ_INT(detect(smbc, smbc_len, 3, mt, n), 1);
	CHECK_EQ_INT(detect(upcall, upcall_len, 2, mt, n), 1);
	n = gss_token(mt, oid_mskrb5, sizeof(oid_mskrb5), 0x01, 0x00);
	CHECK_EQ_INT(detect(smbc, smbc_len, 3, mt, n), 1);
}

TEST(not_kerberos)
{
	const u8 *ntlm_first[] = { oid_ntlm, oid_krb5 };
	const u32 ntlm_first_len[] = { sizeof(oid_ntlm), sizeof(oid_krb5) };
	const u8 *krb[] = { oid_krb5 };
	const u32 krb_len[] = { sizeof(oid_krb5) };
	u8 mt[512];
	u32 n;

	n = gss_token(mt, oid_krb5, sizeof(oid_krb5), 0x01, 0x00);
	/* The client prefers NTLMSSP: its token is NTLMSSP's. */
	CHECK_EQ_INT(detect(ntlm_first, ntlm_first_len, 2, mt, n), 0);
	/* krb5 listed, no optimistic token: mechanism choice only. */
	CHECK_EQ_INT(detect(krb, krb_len, 1, NULL, 0), 0);
	/* AP-REP / error token ids, a token for another mechanism. */
	n = gss_token(mt, oid_krb5, sizeof(oid_krb5), 0x02, 0x00);
	CHECK_EQ_INT(detect(krb, krb_len, 1, mt, n), 0);
	n = gss_token(mt, oid_krb5, sizeof(oid_krb5), 0x03, 0x00);
	CHECK_EQ_INT(detect(krb, krb_len, 1, mt, n), 0);
	n = gss_token(mt, oid_ntlm, sizeof(oid_ntlm), 0x01, 0x00);
	CHECK_EQ_INT(detect(krb, krb_len, 1, mt, n), 0);
	/* An NTLMSSP message where the AP-REQ should be. */
	CHECK_EQ_INT(detect(krb, krb_len, 1, (const u8 *)"NTLMSSP\0\1\0\0\0", 12), 0);
}

TEST(truncated_gss_token)
{
	const u8 *krb[] = { oid_krb5 };
	const u32 krb_len[] = { sizeof(oid_krb5) };
	u8 mt[512];
	u32 n, cut;
	int r;

	n = gss_token(mt, oid_krb5, sizeof(oid_krb5), 0x01, 0x00);
	/* A cut GSS token inside a well-formed OCTET STRING: never krb5. */
	for (cut = 1; cut < n; cut++) {
		r = detect(krb, krb_len, 1, mt, cut);
		CHECK(r == 0);
	}
	/* Trailing bytes after the GSS token. */
	mt[n] = 0;
	CHECK_EQ_INT(detect(krb, krb_len, 1, mt, n + 1), 0);
}

TEST(resp_token_is_not_init)
{
	struct ksmbd_spnego_token t;
	u8 out[256];
	u32 len;

	CHECK_EQ_INT(ksmbd_spnego_build_resp(KSMBD_SPNEGO_ACCEPT_COMPLETED,
					     false, (const u8 *)"\x60\x01\x00", 3,
					     NULL, 0, out, sizeof(out), &len), 0);
	CHECK_EQ_INT(ksmbd_spnego_parse(out, len, &t), 0);
	CHECK(!ksmbd_spnego_krb5_ap_req(&t));
}

int main(void)
{
	RUN(smbclient_and_cifs_upcall_shapes);
	RUN(not_kerberos);
	RUN(truncated_gss_token);
	RUN(resp_token_is_not_init);
	return test_report();
}
