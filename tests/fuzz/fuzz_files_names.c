// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: CREATE name conversion, veto matching and the EA chain walk
 * (module/fs/vfs_name.c, module/fs/create_rules.c). The first byte picks the
 * parser; the rest is the client's bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "create_rules.h"
#include "vfs_name.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A converted name never keeps a "." or ".." component (they resolve). */
static void check_components(const char *out)
{
	const char *c = out;

	while (*c) {
		size_t len = strcspn(c, "/");

		if ((len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.'))
			__builtin_trap();
		c += len;
		if (*c)
			c++;
	}
}

static void fuzz_name(const uint8_t *d, size_t n)
{
	struct ksmbd_buf b = ksmbd_buf_make(d, (u32)n);
	char out[KSMBD_NAME_MAX_PATH];
	static const char veto[] = "*.tmp\0a*b?c*\0.*\0";
	int len;

	len = ksmbd_name_from_utf16(&b, out, sizeof(out));
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(out) || out[len] != '\0')
		__builtin_trap();
	check_components(out);
	ksmbd_name_vetoed(veto, sizeof(veto) - 1, out);
	ksmbd_name_pipe_service(out);
	(void)ksmbd_name_last(out);
}

static void fuzz_ea(const uint8_t *d, size_t n)
{
	struct ksmbd_buf b = ksmbd_buf_make(d, (u32)n);
	struct ksmbd_ea_entry e;
	u32 pos = 0;
	int count, seen = 0;

	count = ksmbd_ea_chain_check(&b);
	if (count < 0)
		return;
	while (ksmbd_ea_next(&b, &pos, &e) > 0) {
		/* Every slice lies inside the input. */
		if (e.name.p < d || e.name.p + e.name.len > d + n ||
		    e.value.p < d || e.value.p + e.value.len > d + n)
			__builtin_trap();
		seen++;
	}
	if (seen != count)
		__builtin_trap();
}

static void fuzz_pattern(const uint8_t *d, size_t n)
{
	char pat[64];
	size_t plen = n < 63 ? n / 2 : 31;

	memcpy(pat, d, plen);
	pat[plen] = '\0';
	ksmbd_name_match(pat, (const char *)d + plen, (u32)(n - plen));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size || size > 70000)
		return 0;
	switch (data[0] % 3) {
	case 0:
		fuzz_name(data + 1, size - 1);
		break;
	case 1:
		fuzz_ea(data + 1, size - 1);
		break;
	default:
		fuzz_pattern(data + 1, size - 1);
		break;
	}
	return 0;
}
