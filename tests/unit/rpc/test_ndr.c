// SPDX-License-Identifier: GPL-2.0
/* NDR32 primitives: alignment, strings, arrays, pointers, SIDs. */
#include <stdlib.h>

#include "testlib.h"
#include "ndr.h"

TEST(align_and_integers)
{
	static const uint8_t want[] = {
		0x01, 0x00, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12,
		0x02, 0x00, 0x00, 0x00, 0xef, 0xbe, 0xad, 0xde,
		0x01, 0x00, 0x00, 0x00,
	};
	struct ndr_enc e;
	struct ndr_dec d;

	ndr_enc_init(&e);
	ndr_put_u8(&e, 1);
	ndr_put_u16(&e, 0x1234);	/* aligned to 2 */
	ndr_put_u32(&e, 0x12345678);
	ndr_put_u8(&e, 2);
	ndr_put_u64(&e, 0x1deadbeefull);	/* 4-aligned hyper */
	CHECK_EQ_INT(e.err, 0);
	CHECK_EQ_INT(e.len, sizeof(want));
	CHECK_EQ_MEM(e.data, want, sizeof(want));

	ndr_dec_init(&d, e.data, e.len);
	CHECK_EQ_INT(ndr_get_u8(&d), 1);
	CHECK_EQ_INT(ndr_get_u16(&d), 0x1234);
	CHECK_EQ_INT(ndr_get_u32(&d), 0x12345678);
	CHECK_EQ_INT(ndr_get_u8(&d), 2);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xdeadbeef);
	CHECK_EQ_INT(ndr_get_u32(&d), 1);
	CHECK_EQ_INT(d.err, 0);
	CHECK_EQ_INT(ndr_dec_remaining(&d), 0);
	/* Reading past the end fails, sticks, and yields zeros. */
	CHECK_EQ_INT(ndr_get_u8(&d), 0);
	CHECK(d.err != 0);
	ndr_enc_free(&e);
}

TEST(padding_must_be_present)
{
	static const uint8_t buf[] = { 0x01, 0xaa, 0xbb, 0xcc };
	struct ndr_dec d;

	/* u8 then u32: the u32 needs 3 pad bytes and 4 more bytes. */
	ndr_dec_init(&d, buf, sizeof(buf));
	ndr_get_u8(&d);
	ndr_get_u32(&d);
	CHECK(d.err != 0);
}

TEST(string_roundtrip_utf8)
{
	const char *s = "Gr\xc3\xbc\xc3\x9f \xf0\x9f\x98\x80 \\\\srv";
	struct ndr_enc e;
	struct ndr_dec d;
	char *out;

	ndr_enc_init(&e);
	ndr_put_u8(&e, 7);
	ndr_put_string_ptr(&e, s);
	ndr_put_string_ptr(&e, NULL);
	ndr_put_u32(&e, 0xfeedface);
	CHECK_EQ_INT(e.err, 0);
	/* 1 + pad 3 + ptr 4 + 3 counts; "Grüß 😀 \\srv" is 13 units + NUL */
	CHECK_EQ_INT(e.data[8], 14);
	CHECK_EQ_INT(e.data[16], 14);

	ndr_dec_init(&d, e.data, e.len);
	ndr_get_u8(&d);
	out = ndr_get_string_ptr(&d, NULL);
	CHECK_EQ_STR(out, s);
	free(out);
	bool present = true;

	CHECK(ndr_get_string_ptr(&d, &present) == NULL);
	CHECK(!present);
	CHECK_EQ_INT(ndr_get_u32(&d), 0xfeedface);
	CHECK_EQ_INT(d.err, 0);
	ndr_enc_free(&e);
}

static void put_raw_string(struct ndr_enc *e, uint32_t max, uint32_t off,
			   uint32_t actual, const uint16_t *u, size_t n)
{
	size_t i;

	ndr_put_u32(e, max);
	ndr_put_u32(e, off);
	ndr_put_u32(e, actual);
	for (i = 0; i < n; i++)
		ndr_put_u16(e, u[i]);
}

static int decode_string_ok(uint32_t max, uint32_t off, uint32_t actual,
			    const uint16_t *u, size_t n)
{
	struct ndr_enc e;
	struct ndr_dec d;
	char *s;
	int ok;

	ndr_enc_init(&e);
	put_raw_string(&e, max, off, actual, u, n);
	ndr_dec_init(&d, e.data, e.len);
	s = ndr_get_string(&d);
	ok = s != NULL && d.err == 0;
	free(s);
	ndr_enc_free(&e);
	return ok;
}

TEST(string_counts_checked)
{
	static const uint16_t ab[] = { 'a', 'b', 0 };
	static const uint16_t no_nul[] = { 'a', 'b', 'c' };
	static const uint16_t inner_nul[] = { 'a', 0, 0 };
	static const uint16_t lone_surrogate[] = { 0xd800, 'x', 0 };

	CHECK(decode_string_ok(3, 0, 3, ab, 3));
	CHECK(!decode_string_ok(2, 0, 3, ab, 3));	/* actual > max */
	CHECK(!decode_string_ok(3, 1, 2, ab, 3));	/* offset */
	CHECK(!decode_string_ok(4, 0, 4, ab, 3));	/* short data */
	CHECK(!decode_string_ok(0x7fffffff, 0, 0x7fffffff, ab, 3));
	CHECK(!decode_string_ok(0, 0, 0, ab, 0));	/* no terminator */
	CHECK(!decode_string_ok(3, 0, 3, no_nul, 3));
	CHECK(!decode_string_ok(3, 0, 3, inner_nul, 3));
	CHECK(!decode_string_ok(3, 0, 3, lone_surrogate, 3));
}

TEST(unicode_string)
{
	struct ndr_enc e;
	struct ndr_dec d;
	struct ndr_ustr u1, u2;
	char *a, *b;

	ndr_enc_init(&e);
	ndr_put_u16(&e, 9);
	ndr_put_ustr_hdr(&e, "KSMBD");
	ndr_put_ustr_hdr(&e, NULL);
	ndr_put_ustr_body(&e, "KSMBD");
	CHECK_EQ_INT(e.err, 0);
	/* 4-aligned header: Length 10, MaximumLength 10, non-NULL ptr. */
	CHECK_EQ_INT(e.data[4], 10);
	CHECK_EQ_INT(e.data[6], 10);
	CHECK(e.data[8] | e.data[9] | e.data[10] | e.data[11]);

	ndr_dec_init(&d, e.data, e.len);
	ndr_get_u16(&d);
	ndr_get_ustr_hdr(&d, &u1);
	ndr_get_ustr_hdr(&d, &u2);
	a = ndr_get_ustr_body(&d, &u1);
	b = ndr_get_ustr_body(&d, &u2);
	CHECK_EQ_STR(a, "KSMBD");
	CHECK_EQ_STR(b, "");
	CHECK_EQ_INT(d.err, 0);
	free(a);
	free(b);

	/* Body counts disagreeing with the header are refused. */
	u1.length = 8;
	ndr_dec_init(&d, e.data, e.len);
	d.off = 28;
	a = ndr_get_ustr_body(&d, &u1);
	CHECK(a == NULL);
	CHECK(d.err != 0);
	ndr_enc_free(&e);

	/* Odd length or length > maximum in the header. */
	ndr_enc_init(&e);
	ndr_put_u16(&e, 3);
	ndr_put_u16(&e, 4);
	ndr_put_u32(&e, 0);
	ndr_dec_init(&d, e.data, e.len);
	ndr_get_ustr_hdr(&d, &u1);
	CHECK(d.err != 0);
	ndr_enc_free(&e);
	ndr_enc_init(&e);
	ndr_put_u16(&e, 6);
	ndr_put_u16(&e, 4);
	ndr_put_u32(&e, 0);
	ndr_dec_init(&d, e.data, e.len);
	ndr_get_ustr_hdr(&d, &u1);
	CHECK(d.err != 0);
	ndr_enc_free(&e);
}

TEST(conformant_array_counts)
{
	struct ndr_enc e;
	struct ndr_dec d;

	/* A count promising 1000 u32 with 8 bytes present. */
	ndr_enc_init(&e);
	ndr_put_u32(&e, 1000);
	ndr_put_u32(&e, 1);
	ndr_put_u32(&e, 2);
	ndr_dec_init(&d, e.data, e.len);
	CHECK_EQ_INT(ndr_get_count(&d, 4), 0);
	CHECK(d.err != 0);
	e.data[0] = 2;
	e.data[1] = 0;
	ndr_dec_init(&d, e.data, e.len);
	CHECK_EQ_INT(ndr_get_count(&d, 4), 2);
	CHECK_EQ_INT(d.err, 0);
	ndr_enc_free(&e);

	/* Varying: actual > max, and non-zero offset. */
	ndr_enc_init(&e);
	ndr_put_u32(&e, 1);
	ndr_put_u32(&e, 0);
	ndr_put_u32(&e, 2);
	ndr_put_u32(&e, 0);
	ndr_put_u32(&e, 0);
	ndr_dec_init(&d, e.data, e.len);
	ndr_get_varying(&d, 4, NULL);
	CHECK(d.err != 0);
	e.data[0] = 2;
	ndr_dec_init(&d, e.data, e.len);
	CHECK_EQ_INT(ndr_get_varying(&d, 4, NULL), 2);
	CHECK_EQ_INT(d.err, 0);
	e.data[4] = 1;
	ndr_dec_init(&d, e.data, e.len);
	ndr_get_varying(&d, 4, NULL);
	CHECK(d.err != 0);
	ndr_enc_free(&e);
}

TEST(unique_pointers_distinct)
{
	struct ndr_enc e;
	struct ndr_dec d;
	uint32_t a, b, c;

	ndr_enc_init(&e);
	ndr_put_ptr(&e, true);
	ndr_put_ptr(&e, false);
	ndr_put_ptr(&e, true);
	ndr_dec_init(&d, e.data, e.len);
	a = ndr_get_ptr(&d);
	b = ndr_get_ptr(&d);
	c = ndr_get_ptr(&d);
	CHECK(a != 0 && c != 0 && a != c);
	CHECK_EQ_INT(b, 0);
	ndr_enc_free(&e);
}

TEST(sid_roundtrip_and_limits)
{
	struct ndr_sid s = { .revision = 1, .num_auths = 4,
			     .id_auth = { 0, 0, 0, 0, 0, 5 },
			     .sub_auths = { 21, 1, 2, 3 } }, t, dom;
	struct ndr_enc e;
	struct ndr_dec d;
	uint32_t rid = 0;

	ndr_enc_init(&e);
	ndr_put_sid(&e, &s);
	CHECK_EQ_INT(e.len, 4 + 8 + 16);
	ndr_dec_init(&d, e.data, e.len);
	ndr_get_sid(&d, &t);
	CHECK_EQ_INT(d.err, 0);
	CHECK(ndr_sid_equal(&s, &t));

	/* Conformance count disagreeing with SubAuthorityCount. */
	e.data[0] = 3;
	ndr_dec_init(&d, e.data, e.len);
	ndr_get_sid(&d, &t);
	CHECK(d.err != 0);
	/* Truncated. */
	e.data[0] = 4;
	ndr_dec_init(&d, e.data, e.len - 1);
	ndr_get_sid(&d, &t);
	CHECK(d.err != 0);
	ndr_enc_free(&e);

	/* 16 sub-authorities: over the MS-DTYP limit of 15. */
	ndr_enc_init(&e);
	ndr_put_u32(&e, 16);
	ndr_put_u8(&e, 1);
	ndr_put_u8(&e, 16);
	ndr_put_zeros(&e, 6 + 16 * 4);
	ndr_dec_init(&d, e.data, e.len);
	ndr_get_sid(&d, &t);
	CHECK(d.err != 0);
	CHECK_EQ_INT(t.num_auths, 0);
	ndr_enc_free(&e);

	/* Encoding one with too many is refused too. */
	s.num_auths = 16;
	ndr_enc_init(&e);
	ndr_put_sid(&e, &s);
	CHECK(e.err != 0);
	ndr_enc_free(&e);

	s.num_auths = 4;
	dom = s;
	ndr_sid_compose(&t, &dom, 1000);
	CHECK(ndr_sid_in_domain(&t, &dom, &rid));
	CHECK_EQ_INT(rid, 1000);
	CHECK(!ndr_sid_in_domain(&dom, &dom, &rid));
}

TEST(handle_bytes)
{
	uint8_t h[NDR_HANDLE_SIZE], g[NDR_HANDLE_SIZE];
	struct ndr_enc e;
	struct ndr_dec d;
	int i;

	for (i = 0; i < NDR_HANDLE_SIZE; i++)
		h[i] = (uint8_t)(i * 7);
	ndr_enc_init(&e);
	ndr_put_u8(&e, 1);
	ndr_put_handle(&e, h);
	CHECK_EQ_INT(e.len, 24);
	ndr_dec_init(&d, e.data, e.len);
	ndr_get_u8(&d);
	ndr_get_handle(&d, g);
	CHECK_EQ_MEM(g, h, sizeof(h));
	ndr_dec_init(&d, e.data, e.len - 1);
	ndr_get_u8(&d);
	ndr_get_handle(&d, g);
	CHECK(d.err != 0);
	ndr_enc_free(&e);
}

TEST(sid_array)
{
	struct ndr_sid s = { .revision = 1, .num_auths = 1,
			     .id_auth = { 0, 0, 0, 0, 0, 5 },
			     .sub_auths = { 32 } }, *v;
	struct ndr_enc e;
	struct ndr_dec d;
	uint32_t n;

	ndr_enc_init(&e);
	ndr_put_u32(&e, 2);
	ndr_put_ptr(&e, true);
	ndr_put_u32(&e, 2);
	ndr_put_ptr(&e, true);
	ndr_put_ptr(&e, true);
	ndr_put_sid(&e, &s);
	ndr_put_sid(&e, &s);
	ndr_dec_init(&d, e.data, e.len);
	v = ndr_get_sid_array(&d, 10, &n);
	CHECK(v != NULL);
	CHECK_EQ_INT(n, 2);
	CHECK(v && ndr_sid_equal(&v[1], &s));
	free(v);
	/* Over the caller's maximum. */
	ndr_dec_init(&d, e.data, e.len);
	CHECK(ndr_get_sid_array(&d, 1, &n) == NULL);
	CHECK(d.err != 0);
	/* Count and conformance disagree. */
	e.data[8] = 3;
	ndr_dec_init(&d, e.data, e.len);
	CHECK(ndr_get_sid_array(&d, 10, &n) == NULL);
	ndr_enc_free(&e);
}

int main(void)
{
	RUN(align_and_integers);
	RUN(padding_must_be_present);
	RUN(string_roundtrip_utf8);
	RUN(string_counts_checked);
	RUN(unicode_string);
	RUN(conformant_array_counts);
	RUN(unique_pointers_distinct);
	RUN(sid_roundtrip_and_limits);
	RUN(handle_bytes);
	RUN(sid_array);
	return test_report();
}
