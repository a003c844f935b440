// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: a security.NTACL value as getxattr returns it. The first
 * byte picks the permission state the hash is checked against (a file or
 * a directory, with or without POSIX ACLs); the rest is the value. What
 * decodes must parse as a descriptor, encode again and decode back to
 * the same bytes with the hash vouching for it.
 */
#include "proto/ntacl.h"
#include "proto/secdesc_parse.h"

#include <stdlib.h>

static const struct ksmbd_posix_ace acl[] = {
	{ KSMBD_POSIX_USER_OBJ, 7, 0 },
	{ KSMBD_POSIX_USER, 5, 1001 },
	{ KSMBD_POSIX_GROUP_OBJ, 5, 0 },
	{ KSMBD_POSIX_MASK, 5, 0 },
	{ KSMBD_POSIX_OTHER, 0, 0 },
};

static u8 sd[KSMBD_NTACL_MAX], again[KSMBD_NTACL_MAX];
static u8 val[KSMBD_NTACL_MAX + 4096];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksmbd_ntacl_unix u = { .uid = 1000, .gid = 1000 };
	struct ksmbd_ntacl_info info;
	struct ksmbd_sd parsed;
	struct ksmbd_buf b;
	int n, m, k;

	if (size < 1 || size > KSMBD_NTACL_MAX + 1)
		return 0;
	u.mode = data[0] & 1 ? 040755 : 0100644;
	if (data[0] & 2) {
		u.acl = acl;
		u.acl_count = ARRAY_SIZE(acl);
	}
	if (data[0] & 4) {
		u.def = acl;
		u.def_count = ARRAY_SIZE(acl);
	}
	n = ksmbd_ntacl_decode(data + 1, (u32)size - 1,
			       data[0] & 8 ? NULL : &u, sd, sizeof(sd), &info);
	if (n < 0)
		return 0;
	b = ksmbd_buf_make(sd, (u32)n);
	if ((u32)n != info.sd_len || ksmbd_sd_parse(&b, &parsed))
		abort();
	m = ksmbd_ntacl_encode(sd, (u32)n, &u, val, sizeof(val));
	if (m < 0 || m != ksmbd_ntacl_encoded_size(sd, (u32)n))
		abort();
	k = ksmbd_ntacl_decode(val, (u32)m, &u, again, sizeof(again), &info);
	if (k != n || !info.hash_ok || info.version != 4 ||
	    memcmp(sd, again, (size_t)n))
		abort();
	return 0;
}
