// SPDX-License-Identifier: GPL-2.0
/* UTF-8 to UTF-16LE conversion with full validation (RFC 3629). */
#include <errno.h>
#include <stdlib.h>

#include "utf16.h"

/* Decodes one code point at *s; returns its length or 0 when invalid. */
static size_t utf8_decode(const uint8_t *s, size_t left, uint32_t *cp)
{
	static const uint32_t min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n, i;
	uint32_t c = s[0];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0) {
		n = 2;
		c &= 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3;
		c &= 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4;
		c &= 0x07;
	} else {
		return 0;
	}
	if (n > left)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past Unicode are refused. */
	if (c < min_cp[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

static void put_le16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

int ksmbd_utf8_to_utf16le(const char *in, size_t len, uint8_t **out,
			  size_t *out_len)
{
	const uint8_t *s = (const uint8_t *)in;
	size_t pos = 0, n = 0;
	uint8_t *buf;

	/* Each input byte yields at most one UTF-16 unit (4 bytes -> 2 units). */
	buf = malloc(len * 2 + 1);
	if (!buf)
		return -ENOMEM;
	while (pos < len) {
		uint32_t cp;
		size_t step = utf8_decode(s + pos, len - pos, &cp);

		if (!step) {
			free(buf);
			return -EILSEQ;
		}
		pos += step;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			put_le16(buf + n, 0xd800 | (cp >> 10));
			put_le16(buf + n + 2, 0xdc00 | (cp & 0x3ff));
			n += 4;
		} else {
			put_le16(buf + n, cp);
			n += 2;
		}
	}
	*out = buf;
	*out_len = n;
	return 0;
}
