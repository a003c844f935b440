// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: 1 byte splits the input into a pattern and a name. Whatever
 * compiles is matched; "*" and the pattern against itself (when it has no
 * wildcard) must match.
 */
#include "proto/pattern.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksmbd_pattern *p;
	u32 split, plen, nlen;
	const char *pat, *name;

	if (size < 1 || size > 8192)
		return 0;
	split = data[0];
	plen = min_t(u32, split, (u32)size - 1);
	pat = (const char *)data + 1;
	name = pat + plen;
	nlen = (u32)size - 1 - plen;
	if (ksmbd_pattern_compile(pat, plen, &p))
		return 0;
	(void)ksmbd_pattern_match(p, name, nlen);
	if (ksmbd_pattern_is_literal(p) && plen &&
	    !ksmbd_pattern_match(p, pat, plen))
		abort();
	ksmbd_pattern_free(p);
	if (ksmbd_pattern_compile("*", 1, &p))
		abort();
	if (!ksmbd_pattern_match(p, name, nlen))
		abort();
	ksmbd_pattern_free(p);
	return 0;
}
