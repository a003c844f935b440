// SPDX-License-Identifier: GPL-2.0-or-later
#include "utf16.h"

static bool is_high(u32 u) { return u >= 0xd800 && u <= 0xdbff; }
static bool is_low(u32 u) { return u >= 0xdc00 && u <= 0xdfff; }

/* Bytes needed to encode code point cp in UTF-8. */
static u32 utf8_len(u32 cp)
{
	if (cp < 0x80)
		return 1;
	if (cp < 0x800)
		return 2;
	if (cp < 0x10000)
		return 3;
	return 4;
}

static void utf8_put(char *o, u32 cp, u32 n)
{
	u8 *p = (u8 *)o;

	switch (n) {
	case 1:
		p[0] = (u8)cp;
		break;
	case 2:
		p[0] = (u8)(0xc0 | (cp >> 6));
		p[1] = (u8)(0x80 | (cp & 0x3f));
		break;
	case 3:
		p[0] = (u8)(0xe0 | (cp >> 12));
		p[1] = (u8)(0x80 | ((cp >> 6) & 0x3f));
		p[2] = (u8)(0x80 | (cp & 0x3f));
		break;
	default:
		p[0] = (u8)(0xf0 | (cp >> 18));
		p[1] = (u8)(0x80 | ((cp >> 12) & 0x3f));
		p[2] = (u8)(0x80 | ((cp >> 6) & 0x3f));
		p[3] = (u8)(0x80 | (cp & 0x3f));
		break;
	}
}

int ksmbd_utf16_to_utf8(const u8 *in, u32 in_len, char *out, u32 cap)
{
	u32 i = 0, o = 0;

	if (in_len & 1)
		return -EINVAL;
	if (!cap)
		return -ENAMETOOLONG;
	while (i < in_len) {
		u32 cp = get_unaligned_le16(in + i), n;

		i += 2;
		if (is_low(cp) || !cp)
			return -EILSEQ;
		if (is_high(cp)) {
			u32 lo;

			if (i >= in_len)
				return -EILSEQ;
			lo = get_unaligned_le16(in + i);
			if (!is_low(lo))
				return -EILSEQ;
			i += 2;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		n = utf8_len(cp);
		if (n >= cap - o)	/* keep one byte for the NUL */
			return -ENAMETOOLONG;
		utf8_put(out + o, cp, n);
		o += n;
	}
	out[o] = '\0';
	return (int)o;
}

/* Decode one UTF-8 sequence at in[*i]; 0 and -EILSEQ on anything invalid. */
static int utf8_get(const u8 *in, u32 len, u32 *i, u32 *cp)
{
	static const u32 min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	u32 c = in[*i], n, k;

	if (c < 0x80) {
		n = 1;
	} else if ((c & 0xe0) == 0xc0) {
		n = 2;
		c &= 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3;
		c &= 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4;
		c &= 0x07;
	} else {
		return -EILSEQ;
	}
	if (n > len - *i)
		return -EILSEQ;
	for (k = 1; k < n; k++) {
		u8 b = in[*i + k];

		if ((b & 0xc0) != 0x80)
			return -EILSEQ;
		c = (c << 6) | (b & 0x3f);
	}
	if (c < min_cp[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) || !c)
		return -EILSEQ;
	*i += n;
	*cp = c;
	return 0;
}

int ksmbd_utf8_to_utf16(const char *in, u32 in_len, u8 *out, u32 cap)
{
	const u8 *s = (const u8 *)in;
	u32 i = 0, o = 0, cp;
	int rc;

	while (i < in_len) {
		rc = utf8_get(s, in_len, &i, &cp);
		if (rc)
			return rc;
		if (cp >= 0x10000) {
			if (cap - o < 4)
				return -ENAMETOOLONG;
			cp -= 0x10000;
			put_unaligned_le16((u16)(0xd800 | (cp >> 10)), out + o);
			put_unaligned_le16((u16)(0xdc00 | (cp & 0x3ff)), out + o + 2);
			o += 4;
		} else {
			if (cap - o < 2)
				return -ENAMETOOLONG;
			put_unaligned_le16((u16)cp, out + o);
			o += 2;
		}
	}
	return (int)o;
}

static u16 upper_ascii(u16 c)
{
	return (c >= 'a' && c <= 'z') ? (u16)(c - 'a' + 'A') : c;
}

/* Latin Extended-A: case pairs, the upper one even or, in two runs, odd. */
static u16 upper_latin_ext_a(u16 c)
{
	/* no simple upper case (or Windows keeps it): 0x131 dotless i too */
	if (c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17f)
		return c;
	if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e))
		return (c & 1) ? c : c - 1;
	return (c & 1) ? c - 1 : c;
}

static u16 upper_greek(u16 c)
{
	if (c == 0x3c2)				/* final sigma */
		return 0x3a3;
	if (c >= 0x3b1 && c <= 0x3cb)
		return c - 0x20;
	if (c == 0x3ac)
		return 0x386;
	if (c >= 0x3ad && c <= 0x3af)
		return c - 0x25;
	if (c == 0x3cc)
		return 0x38c;
	if (c == 0x3cd || c == 0x3ce)
		return c - 0x3f;
	return c;
}

/*
 * Upper case of one UTF-16 code unit as Windows upper-cases user names
 * for NTOWFv2 (MS-NLMP 3.3.2): ASCII, Latin-1, Latin Extended-A, Greek and
 * Cyrillic, the scripts account names are written in; other characters,
 * and those whose upper case is not one code unit (sharp s), stay.
 */
static u16 upper_unit(u16 c)
{
	if (c < 0x80)
		return upper_ascii(c);
	if (c >= 0xe0 && c <= 0xfe && c != 0xf7)
		return c - 0x20;
	if (c == 0xff)
		return 0x178;
	if (c >= 0x100 && c <= 0x17f)
		return upper_latin_ext_a(c);
	if (c >= 0x3ac && c <= 0x3ce)
		return upper_greek(c);
	if (c >= 0x430 && c <= 0x44f)
		return c - 0x20;
	if (c >= 0x450 && c <= 0x45f)
		return c - 0x50;
	return c;
}

void ksmbd_utf16_upper(u8 *s, u32 len)
{
	u32 i;

	for (i = 0; i + 1 < len; i += 2)
		put_unaligned_le16(upper_unit(get_unaligned_le16(s + i)), s + i);
}

bool ksmbd_utf16_eq_ascii_ci(const u8 *a, u32 alen, const u8 *b, u32 blen)
{
	u32 i;

	if (alen != blen || (alen & 1))
		return false;
	for (i = 0; i < alen; i += 2)
		if (upper_ascii(get_unaligned_le16(a + i)) !=
		    upper_ascii(get_unaligned_le16(b + i)))
			return false;
	return true;
}
