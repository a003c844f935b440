/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Linux's system.posix_acl_access / _default values (a u32 version 2,
 * then 8-byte entries: u16 tag, u16 perm, u32 id) as the entries
 * proto/ntacl.h takes: what the NTACL tool and the fixture tests read
 * from a file or a captured hex dump.
 */
#ifndef KSMBD_TEST_POSIX_XATTR_H
#define KSMBD_TEST_POSIX_XATTR_H

#include "proto/ntacl.h"

/* 0, or -EINVAL when malformed or more than cap entries. */
int posix_xattr_parse(const u8 *val, u32 len, struct ksmbd_posix_ace *out,
		      u16 cap, u16 *count);

#endif
