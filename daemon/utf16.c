// SPDX-License-Identifier: GPL-2.0
/*
 * Allocating wrappers over module/proto/utf16.c (see utf16.h). That file is
 * compiled into this object with the protocol library's user-space shim,
 * so every daemon build (libraries, tools, unit tests, fuzz targets) that
 * takes this file gets the one converter without a rule of its own.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "utf16.h"

#define KSMBD_USERSPACE 1
#include "../module/proto/utf16.c"

/* Both directions stay far below this; larger input is refused. */
#define UTF16_MAX_IN (1u << 28)

int ksmbd_utf8_to_utf16le(const char *in, size_t len, uint8_t **out,
			  size_t *out_len)
{
	uint8_t *buf;
	int n;

	if (len > UTF16_MAX_IN)
		return -ENOMEM;
	/* Each input byte yields at most one UTF-16 unit (4 bytes -> 2 units). */
	buf = malloc(len * 2 + 1);
	if (!buf)
		return -ENOMEM;
	n = ksmbd_utf8_to_utf16(in, (uint32_t)len, buf, (uint32_t)len * 2);
	if (n < 0) {
		free(buf);
		return n == -ENAMETOOLONG ? -ENOMEM : n;
	}
	*out = buf;
	*out_len = (size_t)n;
	return 0;
}

int ksmbd_utf16le_to_utf8(const uint8_t *le, size_t units, char **out)
{
	uint32_t cap;
	char *s;
	int n;

	if (units > UTF16_MAX_IN)
		return -ENOMEM;
	/* One unit is at most 3 bytes of UTF-8, a surrogate pair 4. */
	cap = (uint32_t)units * 3 + 1;
	s = malloc(cap);
	if (!s)
		return -ENOMEM;
	n = ksmbd_utf16_to_utf8(le, (uint32_t)units * 2, s, cap);
	if (n < 0) {
		free(s);
		return n == -ENAMETOOLONG ? -ENOMEM : -EILSEQ;
	}
	*out = s;
	return 0;
}
