/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The access check of MS-DTYP 2.5.3.2 over a parsed security descriptor,
 * the file objects' generic mapping (2.4.3, MS-SMB2 2.2.13.1.1) and the
 * well-known SIDs the descriptor code gives a meaning to (2.4.2.4).
 *
 * The caller is a token: every SID that names the user and the
 * privileges it holds. Building it (from the session's uid, gids and the
 * daemon's answer) is the caller's business; this file only reads it.
 */
#ifndef KSMBD_PROTO_SD_ACCESS_H
#define KSMBD_PROTO_SD_ACCESS_H

#include "shim.h"
#include "secdesc_parse.h"

/* The file generic mapping: what each GENERIC_* bit stands for. */
#define KSMBD_FILE_GENERIC_READ		0x00120089u
#define KSMBD_FILE_GENERIC_WRITE	0x00120116u
#define KSMBD_FILE_GENERIC_EXECUTE	0x001200a0u
#define KSMBD_FILE_ALL_ACCESS		0x001f01ffu

/* Privileges the check looks at (token->privileges bits). */
enum {
	/* SeSecurityPrivilege: ACCESS_SYSTEM_SECURITY (the SACL) */
	KSMBD_PRIV_SECURITY		= 0x1,
	/* SeTakeOwnershipPrivilege: WRITE_OWNER whatever the DACL says */
	KSMBD_PRIV_TAKE_OWNERSHIP	= 0x2,
	/*
	 * SeRestorePrivilege / SeBackupPrivilege: what Windows grants a
	 * holder that opens with FILE_OPEN_FOR_BACKUP_INTENT; the caller
	 * sets them in the token only for such an open.
	 */
	KSMBD_PRIV_RESTORE		= 0x4,
	KSMBD_PRIV_BACKUP		= 0x8,
};

/* What the backup and restore privileges grant (as Windows' I/O manager). */
#define KSMBD_PRIV_BACKUP_ACCESS	(KSMBD_READ_CONTROL | \
					 KSMBD_ACCESS_SYSTEM_SECURITY | \
					 KSMBD_FILE_GENERIC_READ | \
					 KSMBD_FILE_EXECUTE)
#define KSMBD_PRIV_RESTORE_ACCESS	(KSMBD_WRITE_DAC | KSMBD_WRITE_OWNER | \
					 KSMBD_ACCESS_SYSTEM_SECURITY | \
					 KSMBD_FILE_GENERIC_WRITE | \
					 KSMBD_DELETE)

/* A caller's identity. */
struct ksmbd_token {
	const struct ksmbd_sid *sids;	/* sids[0] is the user */
	u32 nr_sids;
	u32 privileges;			/* KSMBD_PRIV_* */
};

/* Well-known SIDs (MS-DTYP 2.4.2.4) */
enum ksmbd_wk_sid {
	KSMBD_WK_EVERYONE,		/* S-1-1-0 */
	KSMBD_WK_CREATOR_OWNER,		/* S-1-3-0 */
	KSMBD_WK_CREATOR_GROUP,		/* S-1-3-1 */
	KSMBD_WK_OWNER_RIGHTS,		/* S-1-3-4 */
	KSMBD_WK_AUTHENTICATED_USERS,	/* S-1-5-11 */
	KSMBD_WK_SYSTEM,		/* S-1-5-18 */
	KSMBD_WK_ADMINISTRATORS,	/* S-1-5-32-544 */
	KSMBD_WK_USERS,			/* S-1-5-32-545 */
	KSMBD_WK_NETWORK,		/* S-1-5-2 */
	KSMBD_WK_GUESTS,		/* S-1-5-32-546 */
	KSMBD_WK_NR
};

void ksmbd_sid_well_known(enum ksmbd_wk_sid which, struct ksmbd_sid *sid);
bool ksmbd_sid_is(const struct ksmbd_sid *sid, enum ksmbd_wk_sid which);

/* The four GENERIC_* bits of an access mask. */
#define KSMBD_GENERIC_BITS	(KSMBD_GENERIC_ALL | KSMBD_GENERIC_EXECUTE | \
				 KSMBD_GENERIC_WRITE | KSMBD_GENERIC_READ)

/* GENERIC_* bits replaced by the file rights they stand for. */
u32 ksmbd_sd_map_generic(u32 mask);

/*
 * What an ACE does in a file's access check: allowed and denied ACEs and
 * their object forms without an ObjectType (files have no object types);
 * a callback ACE's condition is not evaluated, so its allow is skipped
 * and its deny applies (an unknown condition denies, MS-DTYP 2.4.4.17).
 * Inherit-only ACEs and every other type: skipped.
 */
enum ksmbd_ace_effect {
	KSMBD_ACE_SKIPPED,
	KSMBD_ACE_ALLOWS,
	KSMBD_ACE_DENIES,
};

enum ksmbd_ace_effect ksmbd_ace_effect(const struct ksmbd_ace *ace);

/* True when the token carries sid. */
bool ksmbd_token_has_sid(const struct ksmbd_token *tok,
			 const struct ksmbd_sid *sid);

/*
 * MS-DTYP 2.5.3.2 for `desired` (generic bits mapped first; ACE masks are
 * mapped too, so a stored GENERIC_ALL grants what it says):
 *  - ACCESS_SYSTEM_SECURITY only with KSMBD_PRIV_SECURITY (else denied,
 *    *deciding_ace = -1); WRITE_OWNER always with _TAKE_OWNERSHIP;
 *    _BACKUP/_RESTORE add their rights;
 *  - a NULL DACL (or none) grants everything asked (MAXIMUM_ALLOWED:
 *    FILE_ALL_ACCESS);
 *  - the owner (sd->owner in the token) holds READ_CONTROL | WRITE_DAC
 *    unless the DACL has an ACE for OWNER RIGHTS (S-1-3-4) that takes
 *    effect (ksmbd_ace_effect()), which then says what the owner holds
 *    (one the walk skips does not count); so an empty DACL grants the
 *    owner those two bits and everyone else nothing;
 *  - ACEs in order, inherit-only ones skipped: an allowed ACE grants the
 *    bits not yet denied, a denied ACE denies the bits not yet granted;
 *    which ACEs count: ksmbd_ace_effect();
 *  - MAXIMUM_ALLOWED: every bit the DACL grants, plus the rest of
 *    `desired`, which must all be granted; nothing granted is a denial.
 * Returns 0 with *granted (never containing MAXIMUM_ALLOWED or generic
 * bits), or -EACCES with *granted 0 and *deciding_ace the index of the
 * denied ACE that refused, or -1 when no ACE granted a bit asked for.
 * deciding_ace may be NULL.
 */
int ksmbd_sd_access_check(const struct ksmbd_sd *sd,
			  const struct ksmbd_token *tok, u32 desired,
			  u32 *granted, int *deciding_ace);

/*
 * The check of an open of an existing file or directory (MS-FSA
 * 2.1.5.1.2.1): ksmbd_sd_access_check() on its descriptor, where DELETE
 * is also granted by FILE_DELETE_CHILD on the parent directory and
 * FILE_READ_ATTRIBUTES by FILE_LIST_DIRECTORY on it, even against a deny
 * ACE of the file's (smb2.acls.GENERIC's MAXIMUM_ALLOWED: the owner of
 * a file whose ACE grants nothing gets READ_CONTROL, WRITE_DAC, DELETE
 * and READ_ATTRIBUTES). parent NULL (the share root): no such grants.
 * Same returns as ksmbd_sd_access_check().
 */
int ksmbd_sd_access_check_open(const struct ksmbd_sd *sd,
			       const struct ksmbd_sd *parent,
			       const struct ksmbd_token *tok, u32 desired,
			       u32 *granted, int *deciding_ace);

#endif /* KSMBD_PROTO_SD_ACCESS_H */
