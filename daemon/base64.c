// SPDX-License-Identifier: GPL-2.0
/* Base64 (RFC 4648), strict on input: the db must not be misread. */
#include "base64.h"

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void ksmbd_base64_encode(const uint8_t *in, size_t len, char *out)
{
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		*out++ = b64_alphabet[v >> 18];
		*out++ = b64_alphabet[(v >> 12) & 63];
		*out++ = b64_alphabet[(v >> 6) & 63];
		*out++ = b64_alphabet[v & 63];
	}
	if (len - i == 1) {
		*out++ = b64_alphabet[in[i] >> 2];
		*out++ = b64_alphabet[(in[i] & 3) << 4];
		*out++ = '=';
		*out++ = '=';
	} else if (len - i == 2) {
		uint32_t v = (uint32_t)in[i] << 8 | in[i + 1];

		*out++ = b64_alphabet[v >> 10];
		*out++ = b64_alphabet[(v >> 4) & 63];
		*out++ = b64_alphabet[(v << 2) & 63];
		*out++ = '=';
	}
	*out = '\0';
}

static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

long ksmbd_base64_decode(const char *in, size_t len, uint8_t *out, size_t cap)
{
	size_t i, n = 0;

	if (len % 4)
		return -1;
	for (i = 0; i < len; i += 4) {
		int v[4], pad = 0, k;
		uint32_t w;

		for (k = 0; k < 4; k++) {
			/* '=' only at the very end, and at most two. */
			if (in[i + k] == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			if (pad)
				return -1;
			v[k] = b64_value(in[i + k]);
			if (v[k] < 0)
				return -1;
		}
		w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
		    (uint32_t)v[2] << 6 | (uint32_t)v[3];
		/* Bits below the last encoded byte must be zero (canonical form). */
		if ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff)))
			return -1;
		if (n + 3 - (size_t)pad > cap)
			return -1;
		out[n++] = (uint8_t)(w >> 16);
		if (pad < 2)
			out[n++] = (uint8_t)(w >> 8);
		if (pad < 1)
			out[n++] = (uint8_t)w;
	}
	return (long)n;
}
