// SPDX-License-Identifier: GPL-2.0-or-later
#include "testlib.h"
#include "proto/utf16.h"

static int to8(const u16 *units, u32 n, char *out, u32 cap)
{
	u8 b[64];
	u32 i;

	for (i = 0; i < n; i++)
		put_unaligned_le16(units[i], b + 2 * i);
	return ksmbd_utf16_to_utf8(b, n * 2, out, cap);
}

TEST(round_trips)
{
	static const char *const s[] = {
		"share", "caf\xc3\xa9", "\xe4\xb8\xad\xe6\x96\x87",
		"smile \xf0\x9f\x98\x80!", "\xef\xbf\xbd\xf4\x8f\xbf\xbf",
	};
	u8 u16[128];
	char back[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(s); i++) {
		int n = ksmbd_utf8_to_utf16(s[i], (u32)strlen(s[i]), u16, sizeof(u16));
		int m;

		CHECK(n > 0);
		m = ksmbd_utf16_to_utf8(u16, (u32)n, back, sizeof(back));
		CHECK_EQ_INT(m, strlen(s[i]));
		CHECK_EQ_STR(back, s[i]);
	}
}

TEST(surrogate_pairs)
{
	static const u16 pair[] = { 0xd83d, 0xde00 };
	u8 u16[8];
	char out[8];

	CHECK_EQ_INT(to8(pair, 2, out, sizeof(out)), 4);
	CHECK_EQ_STR(out, "\xf0\x9f\x98\x80");
	CHECK_EQ_INT(ksmbd_utf8_to_utf16("\xf0\x9f\x98\x80", 4, u16, sizeof(u16)), 4);
	CHECK_EQ_INT(get_unaligned_le16(u16), 0xd83d);
	CHECK_EQ_INT(get_unaligned_le16(u16 + 2), 0xde00);
}

TEST(invalid_utf16)
{
	static const u16 lone_high_end[] = { 'a', 0xd800 };
	static const u16 high_then_char[] = { 0xd800, 'a' };
	static const u16 lone_low[] = { 0xdc00, 'a' };
	static const u16 two_highs[] = { 0xd800, 0xd801 };
	static const u16 nul[] = { 'a', 0, 'b' };
	char out[32];
	u8 odd[3] = { 'a', 0, 'b' };

	CHECK_EQ_INT(to8(lone_high_end, 2, out, sizeof(out)), -EILSEQ);
	CHECK_EQ_INT(to8(high_then_char, 2, out, sizeof(out)), -EILSEQ);
	CHECK_EQ_INT(to8(lone_low, 2, out, sizeof(out)), -EILSEQ);
	CHECK_EQ_INT(to8(two_highs, 2, out, sizeof(out)), -EILSEQ);
	CHECK_EQ_INT(to8(nul, 3, out, sizeof(out)), -EILSEQ);
	CHECK_EQ_INT(ksmbd_utf16_to_utf8(odd, 3, out, sizeof(out)), -EINVAL);
}

TEST(output_bounds)
{
	static const u16 s[] = { 'a', 'b', 0xe9 };	/* 4 bytes of UTF-8 */
	char out[8];
	u8 u16[8];

	memset(out, 'x', sizeof(out));
	CHECK_EQ_INT(to8(s, 3, out, 5), 4);
	CHECK_EQ_STR(out, "ab\xc3\xa9");
	CHECK_EQ_INT(to8(s, 3, out, 4), -ENAMETOOLONG);
	CHECK_EQ_INT(to8(s, 3, out, 3), -ENAMETOOLONG);
	CHECK_EQ_INT(to8(s, 3, out, 0), -ENAMETOOLONG);
	CHECK_EQ_INT(to8(s, 0, out, 1), 0);
	CHECK_EQ_STR(out, "");
	CHECK_EQ_INT(ksmbd_utf8_to_utf16("abc", 3, u16, 6), 6);
	CHECK_EQ_INT(ksmbd_utf8_to_utf16("abc", 3, u16, 5), -ENAMETOOLONG);
	CHECK_EQ_INT(ksmbd_utf8_to_utf16("\xf0\x9f\x98\x80", 4, u16, 3), -ENAMETOOLONG);
}

TEST(invalid_utf8)
{
	static const char *const bad[] = {
		"\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xe4\xb8", "\x80", "\xf8\x88\x80\x80\x80", "a\xc3", "\xc3\x28",
	};
	u8 u16[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (ksmbd_utf8_to_utf16(bad[i], (u32)strlen(bad[i]), u16, sizeof(u16)) != -EILSEQ)
			test_fail_("bad UTF-8 #%zu accepted", i);
	CHECK_EQ_INT(ksmbd_utf8_to_utf16("a\0b", 3, u16, sizeof(u16)), -EILSEQ);
}

TEST(ascii_case)
{
	u8 a[16], b[16];
	int n = ksmbd_utf8_to_utf16("Share\xc3\xa9", 7, a, sizeof(a));
	int m = ksmbd_utf8_to_utf16("sHARE\xc3\xa9", 7, b, sizeof(b));

	CHECK(ksmbd_utf16_eq_ascii_ci(a, (u32)n, b, (u32)m));
	CHECK(!ksmbd_utf16_eq_ascii_ci(a, (u32)n, b, (u32)m - 2));
	m = ksmbd_utf8_to_utf16("sHARE\xc3\x89", 7, b, sizeof(b));	/* É: not ASCII */
	CHECK(!ksmbd_utf16_eq_ascii_ci(a, (u32)n, b, (u32)m));
	ksmbd_utf16_upper(a, (u32)n);
	CHECK_EQ_INT(get_unaligned_le16(a + 2), 'H');
	CHECK_EQ_INT(get_unaligned_le16(a + 10), 0xc9);
}

/* NTOWFv2's UPPER(): what Windows computes for non-ASCII user names. */
TEST(user_name_upper_case)
{
	static const struct {
		u16 in, out;
	} cases[] = {
		{ 'a', 'A' }, { 'Z', 'Z' }, { '1', '1' },
		{ 0xe9, 0xc9 },		/* e acute */
		{ 0xf1, 0xd1 },		/* n tilde */
		{ 0xfe, 0xde },		/* thorn */
		{ 0xff, 0x178 },	/* y diaeresis */
		{ 0xf7, 0xf7 },		/* division sign */
		{ 0xdf, 0xdf },		/* sharp s: SS is two units */
		{ 0xc9, 0xc9 },
		{ 0x101, 0x100 },	/* a macron */
		{ 0x107, 0x106 },	/* c acute */
		{ 0x131, 0x131 },	/* dotless i */
		{ 0x142, 0x141 },	/* l stroke: the odd-upper run */
		{ 0x148, 0x147 },
		{ 0x151, 0x150 },	/* o double acute */
		{ 0x17e, 0x17d },	/* z caron */
		{ 0x3b1, 0x391 },	/* alpha */
		{ 0x3c2, 0x3a3 },	/* final sigma */
		{ 0x3c9, 0x3a9 },	/* omega */
		{ 0x3ac, 0x386 },	/* alpha tonos */
		{ 0x3ce, 0x38f },	/* omega tonos */
		{ 0x436, 0x416 },	/* zhe */
		{ 0x451, 0x401 },	/* io */
		{ 0x4e00, 0x4e00 },	/* CJK: no case */
	};
	u8 buf[2];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		put_unaligned_le16(cases[i].in, buf);
		ksmbd_utf16_upper(buf, 2);
		CHECK_EQ_INT(get_unaligned_le16(buf), cases[i].out);
	}
}

int main(void)
{
	RUN(round_trips);
	RUN(surrogate_pairs);
	RUN(invalid_utf16);
	RUN(output_bounds);
	RUN(invalid_utf8);
	RUN(ascii_case);
	RUN(user_name_upper_case);
	return test_report();
}
