/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attributes of an open handle (fattr.c): what CREATE, CLOSE, QUERY_INFO
 * and QUERY_DIRECTORY report, and what CREATE and SET_INFO store.
 */
#ifndef KSMBD_FATTR_H
#define KSMBD_FATTR_H

#include <linux/types.h>
#include "fileinfo.h"

struct kstat;
struct ksmbd_file;
struct ksmbd_dosattr;

/*
 * A ksmbd_fattr from a kstat (with the DOS attributes and creation time
 * of da, if any), and the whole thing for an open handle.
 */
void ksmbd_fattr_from_kstat(const struct kstat *st, u32 attrs,
			    const struct ksmbd_dosattr *da,
			    struct ksmbd_fattr *a);
int ksmbd_fattr_of_file(struct ksmbd_file *fp, struct kstat *st,
			struct ksmbd_fattr *a);
/*
 * An open handle's attributes and times as QUERY_INFO reports them, from
 * st (which the caller has): the DOS attributes are read once, for the
 * CREATE and CLOSE answers too.
 */
void ksmbd_fattr_of_stat(struct ksmbd_file *fp, const struct kstat *st,
			 struct ksmbd_fattr *a);
/* user.DOSATTRIB of an open handle when its share stores DOS attributes. */
bool ksmbd_file_dosattr(struct ksmbd_file *fp, struct ksmbd_dosattr *da);

/* Does fp's share keep DOS attributes in user.DOSATTRIB? */
bool ksmbd_fattr_stores_dos(const struct ksmbd_file *fp);
/*
 * FSCTL_SET_SPARSE's SPARSE_FILE attribute, kept in user.DOSATTRIB:
 * whether fp's file has it; set or clear it (-EOPNOTSUPP when the share
 * keeps no DOS attributes). Holes exist whatever it says: it only
 * decides what the client is told (allocated ranges, attributes).
 */
bool ksmbd_fattr_is_sparse(struct ksmbd_file *fp);
int ksmbd_fattr_set_sparse(struct ksmbd_file *fp, bool sparse);
/*
 * Update user.DOSATTRIB with attributes (set_attrs) and/or the creation
 * time (btime, 0 = keep the stored one).
 */
int ksmbd_fattr_store_dosattr(struct ksmbd_file *fp, const struct kstat *st,
			      u32 attrs, bool set_attrs, u64 btime);
/*
 * READONLY is the mode's write bits, so the kernel enforces it: the mode
 * attrs asks for in *mode, false when st's mode already matches or the
 * share keeps READONLY in user.DOSATTRIB (KSMBD_FILE_TREE_RO_XATTR).
 */
bool ksmbd_fattr_readonly_mode(const struct ksmbd_file *fp,
			       const struct kstat *st, u32 attrs, umode_t *mode);
/* Is fp's file READONLY (its mode, or its stored attribute)? */
bool ksmbd_fattr_readonly(struct ksmbd_file *fp);
/*
 * CREATE's READONLY rules (MS-FSA 2.1.5.1.2.1) for an existing file where
 * the attribute is stored rather than the mode (the kernel enforces the
 * mode): delete-on-close -KSMBD_ECANNOT_DELETE, an overwrite or a write
 * asked for -EACCES, MAXIMUM_ALLOWED loses the write rights.
 */
int ksmbd_fattr_readonly_open(struct ksmbd_file *fp, u32 desired,
			      bool delete_on_close, bool overwrite);
/*
 * CREATE made a file or directory with FileAttributes beyond NORMAL and
 * ARCHIVE (MS-FSA 2.1.5.1.2.1): store them as SET_INFO would (READONLY
 * in the mode, the rest in user.DOSATTRIB where the share keeps it).
 */
void ksmbd_create_set_attrs(struct ksmbd_file *fp, u32 attrs);

#endif
