// SPDX-License-Identifier: GPL-2.0-or-later
#include "posix_xattr.h"

enum { POSIX_XATTR_VERSION = 2, POSIX_XATTR_ENTRY = 8 };

int posix_xattr_parse(const u8 *val, u32 len, struct ksmbd_posix_ace *out,
		      u16 cap, u16 *count)
{
	u32 i, n;

	if (len < 4 || get_unaligned_le32(val) != POSIX_XATTR_VERSION ||
	    (len - 4) % POSIX_XATTR_ENTRY)
		return -EINVAL;
	n = (len - 4) / POSIX_XATTR_ENTRY;
	if (n > cap)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const u8 *e = val + 4 + i * POSIX_XATTR_ENTRY;

		out[i].tag = get_unaligned_le16(e);
		out[i].perm = get_unaligned_le16(e + 2);
		out[i].id = get_unaligned_le32(e + 4);
	}
	*count = (u16)n;
	return 0;
}
