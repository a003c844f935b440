/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decisions of CREATE that need no file system: access masks
 * (MS-SMB2 2.2.13.1), share-mode conflicts (MS-FSA 2.1.5.1.2), what a
 * disposition does to an existing or missing file (MS-SMB2 2.2.13,
 * 2.2.14), request field checks, and the FILE_FULL_EA_INFORMATION chain
 * (MS-FSCC 2.4.15). Plain C on proto/shim.h, so host unit tests and fuzz
 * targets run the same code as ksmbd.ko.
 */
#ifndef KSMBD_CREATE_RULES_H
#define KSMBD_CREATE_RULES_H

#include "proto/shim.h"
#include "proto/buf.h"

/* Access mask bits (MS-SMB2 2.2.13.1.1, MS-DTYP 2.4.3). */
enum {
	FILE_READ_DATA		= 0x00000001,	/* FILE_LIST_DIRECTORY */
	FILE_WRITE_DATA		= 0x00000002,	/* FILE_ADD_FILE */
	FILE_APPEND_DATA	= 0x00000004,	/* FILE_ADD_SUBDIRECTORY */
	FILE_READ_EA		= 0x00000008,
	FILE_WRITE_EA		= 0x00000010,
	FILE_EXECUTE		= 0x00000020,	/* FILE_TRAVERSE */
	FILE_DELETE_CHILD	= 0x00000040,
	FILE_READ_ATTRIBUTES	= 0x00000080,
	FILE_WRITE_ATTRIBUTES	= 0x00000100,
	FILE_DELETE		= 0x00010000,	/* DELETE */
	FILE_READ_CONTROL	= 0x00020000,
	FILE_WRITE_DAC		= 0x00040000,
	FILE_WRITE_OWNER	= 0x00080000,
	FILE_SYNCHRONIZE	= 0x00100000,
	FILE_ACCESS_SYSTEM_SECURITY = 0x01000000,
	FILE_MAXIMUM_ALLOWED	= 0x02000000,
	FILE_GENERIC_ALL	= 0x10000000,
	FILE_GENERIC_EXECUTE	= 0x20000000,
	FILE_GENERIC_WRITE	= 0x40000000,
	FILE_GENERIC_READ	= 0x80000000,
};

/* The specific rights each generic right stands for on files. */
#define FILE_ALL_ACCESS_MASK	0x001f01ffU
#define FILE_GENERIC_READ_MASK	(FILE_READ_CONTROL | FILE_READ_DATA | \
				 FILE_READ_ATTRIBUTES | FILE_READ_EA | \
				 FILE_SYNCHRONIZE)
#define FILE_GENERIC_WRITE_MASK	(FILE_READ_CONTROL | FILE_WRITE_DATA | \
				 FILE_WRITE_ATTRIBUTES | FILE_WRITE_EA | \
				 FILE_APPEND_DATA | FILE_SYNCHRONIZE)
#define FILE_GENERIC_EXEC_MASK	(FILE_READ_CONTROL | FILE_READ_ATTRIBUTES | \
				 FILE_EXECUTE | FILE_SYNCHRONIZE)
/* Rights that need data access to the file (read, write, both). */
#define FILE_READ_RIGHTS	(FILE_READ_DATA | FILE_EXECUTE)
#define FILE_WRITE_RIGHTS	(FILE_WRITE_DATA | FILE_APPEND_DATA)
/* Rights that change the file without touching data. */
#define FILE_MODIFY_RIGHTS	(FILE_WRITE_DATA | FILE_APPEND_DATA | \
				 FILE_WRITE_EA | FILE_WRITE_ATTRIBUTES | \
				 FILE_DELETE | FILE_WRITE_DAC | \
				 FILE_WRITE_OWNER | FILE_DELETE_CHILD)

enum {
	FILE_SHARE_READ		= 0x1,
	FILE_SHARE_WRITE	= 0x2,
	FILE_SHARE_DELETE	= 0x4,
	FILE_SHARE_ALL		= 0x7,
};

enum ksmbd_create_disposition {
	FILE_SUPERSEDE		= 0,
	FILE_OPEN		= 1,
	FILE_CREATE		= 2,
	FILE_OPEN_IF		= 3,
	FILE_OVERWRITE		= 4,
	FILE_OVERWRITE_IF	= 5,
};

enum ksmbd_create_action {
	FILE_SUPERSEDED		= 0,
	FILE_OPENED		= 1,
	FILE_CREATED		= 2,
	FILE_OVERWRITTEN	= 3,
};

/* CreateOptions (MS-SMB2 2.2.13). */
enum {
	FILE_DIRECTORY_FILE		= 0x00000001,
	FILE_WRITE_THROUGH		= 0x00000002,
	FILE_SEQUENTIAL_ONLY		= 0x00000004,
	FILE_NO_INTERMEDIATE_BUFFERING	= 0x00000008,
	FILE_NON_DIRECTORY_FILE		= 0x00000040,
	FILE_CREATE_TREE_CONNECTION	= 0x00000080,
	FILE_DELETE_ON_CLOSE		= 0x00001000,
	FILE_OPEN_BY_FILE_ID		= 0x00002000,
	FILE_RESERVE_OPFILTER		= 0x00100000,
	FILE_OPEN_REPARSE_POINT		= 0x00200000,
	FILE_CREATE_OPTIONS_VALID	= 0x00ffffff,
};

/* FILE_ATTRIBUTE_* (MS-FSCC 2.6). */
enum {
	FILE_ATTRIBUTE_READONLY		= 0x00000001,
	FILE_ATTRIBUTE_HIDDEN		= 0x00000002,
	FILE_ATTRIBUTE_SYSTEM		= 0x00000004,
	FILE_ATTRIBUTE_DIRECTORY	= 0x00000010,
	FILE_ATTRIBUTE_ARCHIVE		= 0x00000020,
	FILE_ATTRIBUTE_NORMAL		= 0x00000080,
	FILE_ATTRIBUTE_TEMPORARY	= 0x00000100,
	FILE_ATTRIBUTE_SPARSE_FILE	= 0x00000200,
	FILE_ATTRIBUTE_ENCRYPTED	= 0x00004000,
	FILE_ATTRIBUTE_VALID_FLAGS	= 0x00007fb7,
};

enum {
	SMB2_IMPERSONATION_DELEGATE	= 3,
};

/* The request fields CREATE checks before touching anything. */
struct ksmbd_create_args {
	u32 impersonation_level;
	u32 desired_access;
	u32 file_attributes;
	u32 share_access;
	u32 disposition;
	u32 options;
	/* the caller holds SeSecurityPrivilege (ksmbd_sd_may_audit()) */
	bool may_audit;
};

/* 0, or the NT status a malformed CREATE is refused with. */
u32 ksmbd_create_args_check(const struct ksmbd_create_args *a);

/* GENERIC_* replaced by what they stand for; MAXIMUM_ALLOWED kept. */
u32 ksmbd_access_map_generic(u32 access);

/* Granted-access mask from the user's Unix permissions on a file. */
u32 ksmbd_access_from_perms(bool may_read, bool may_write, bool may_exec,
			    bool may_delete);

/* Stat opens: no right beyond these (MS-FSA's oplock rules ignore them). */
#define FILE_STAT_OPEN_RIGHTS	(FILE_READ_ATTRIBUTES | FILE_WRITE_ATTRIBUTES | \
				 FILE_SYNCHRONIZE)

/* An open with this access takes part in share modes (data or delete rights). */
bool ksmbd_access_shares(u32 access);

/*
 * MS-FSA 2.1.5.1.2.1: does a new open (access, share) conflict with an
 * existing one? Only data and delete rights take part.
 */
bool ksmbd_share_conflict(u32 old_access, u32 old_share, u32 new_access,
			  u32 new_share);

/* What happens to an existing / missing file for a disposition. */
enum ksmbd_create_step {
	KSMBD_STEP_OPEN,	/* open as it is */
	KSMBD_STEP_TRUNCATE,	/* open and overwrite (OVERWRITE*, SUPERSEDE) */
	KSMBD_STEP_CREATE,	/* create it */
	KSMBD_STEP_FAIL_EXISTS,	/* STATUS_OBJECT_NAME_COLLISION */
	KSMBD_STEP_FAIL_MISSING,/* STATUS_OBJECT_NAME_NOT_FOUND */
};

enum ksmbd_create_step ksmbd_create_step(u32 disposition, bool exists);
/* CreateAction for a step (and disposition) that succeeded. */
u32 ksmbd_create_action(u32 disposition, enum ksmbd_create_step step);

/*
 * MS-FSCC 2.4.15 FILE_FULL_EA_INFORMATION chain: every entry inside buf,
 * NextEntryOffset 4-aligned and advancing, names NUL-terminated inside the
 * entry and non-empty. Returns the entry count or -EINVAL.
 */
int ksmbd_ea_chain_check(const struct ksmbd_buf *buf);

struct ksmbd_ea_entry {
	u8 flags;
	struct ksmbd_buf name;	/* without the NUL */
	struct ksmbd_buf value;
};

/* Iterate a chain that passed ksmbd_ea_chain_check(): 1, 0 at the end. */
int ksmbd_ea_next(const struct ksmbd_buf *buf, u32 *pos,
		  struct ksmbd_ea_entry *e);

/*
 * An EA name a client may not set, whether by SET_INFO or by CREATE's
 * ExtA context (it becomes "user." + name): the xattrs the server keeps
 * itself, user.DOSATTRIB (DOS attributes and creation time), named
 * streams (ours, user.KsmbdStream.*, and Samba's, user.DosStream.*),
 * in any case, and names with a NUL inside.
 */
bool ksmbd_ea_name_reserved(const struct ksmbd_buf *name);

#endif
