// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON strings from untrusted bytes (see ksmbd_json.h). */
#include "ksmbd_json.h"

size_t ksmbd_utf8_len(const unsigned char *s, size_t n)
{
	unsigned int cp, min;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void ksmbd_json_str(FILE *f, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = 0, i, len;

	while (n < max && s[n])
		n++;
	fputc('"', f);
	for (i = 0; i < n; i += len) {
		len = ksmbd_utf8_len(s + i, n - i);
		if (!len) {
			fputs("\\ufffd", f);
			len = 1;
		} else if (s[i] == '"' || s[i] == '\\') {
			fprintf(f, "\\%c", s[i]);
		} else if (s[i] < 0x20 || s[i] == 0x7f) {
			fprintf(f, "\\u%04x", s[i]);
		} else {
			fwrite(s + i, 1, len, f);
		}
	}
	fputc('"', f);
}
