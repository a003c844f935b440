/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user.DOSATTRIB extended attribute in Samba's format, so DOS
 * attributes and creation times survive switching between Samba and us
 * ("store dos attributes").
 *
 * The blob is NDR (librpc xattr.idl, xattr_DOSATTRIB) behind a legacy
 * NUL-terminated ASCII string, alignment counted from the blob's start:
 *   char    attrib_hex[]   "0x20" for version 3, "" from version 4 on
 *   (align 2) u16 version
 *   u16     level          the union switch, equal to version
 *   (align 4) the version's structure:
 *     1: attrib, ea_size, size(8), alloc_size(8), create_time(8), change_time(8)
 *     3: valid_flags, then as 1
 *     4: valid_flags, attrib, itime(8), create_time(8)
 *     5: valid_flags, attrib, create_time(8)
 * The oldest Samba wrote only the hex string. We read all of these and
 * write version 5, as Samba 4.17 does.
 */
#ifndef KSMBD_DOSATTR_H
#define KSMBD_DOSATTR_H

#include "proto/shim.h"

#define KSMBD_DOSATTR_XATTR	"user.DOSATTRIB"
/* Largest blob we read: a version 3 blob with a long hex string fits. */
#define KSMBD_DOSATTR_MAX	128

/* xattr_DosInfoValidFlags */
enum {
	KSMBD_DOSINFO_ATTRIB		= 0x01,
	KSMBD_DOSINFO_EA_SIZE		= 0x02,
	KSMBD_DOSINFO_SIZE		= 0x04,
	KSMBD_DOSINFO_ALLOC_SIZE	= 0x08,
	KSMBD_DOSINFO_CREATE_TIME	= 0x10,
	KSMBD_DOSINFO_CHANGE_TIME	= 0x20,
	KSMBD_DOSINFO_ITIME		= 0x40,
};

struct ksmbd_dosattr {
	u16 version;
	u32 valid;		/* KSMBD_DOSINFO_* */
	u32 attrib;		/* FILE_ATTRIBUTE_* */
	u64 create_time;	/* FILETIME */
	u64 change_time;
	u64 itime;
};

/* 0, or -EINVAL for a malformed blob, -EOPNOTSUPP for an unknown version. */
int ksmbd_dosattr_decode(const u8 *blob, u32 len, struct ksmbd_dosattr *da);
/* Version 5 from attrib and create_time (when valid); returns the length. */
int ksmbd_dosattr_encode(u32 attrib, u64 create_time, bool has_create,
			 u8 *out, u32 cap);

#endif /* KSMBD_DOSATTR_H */
