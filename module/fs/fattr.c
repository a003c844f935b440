// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Attributes of an open handle as the client sees them (struct
 * ksmbd_fattr from a kstat and user.DOSATTRIB) and storing them back.
 * Below the handlers: CREATE, CLOSE, QUERY_INFO, QUERY_DIRECTORY and
 * SET_INFO all report or change the same attributes, and none of them
 * calls another for it.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include "create_rules.h"
#include "dosattr.h"
#include "fattr.h"
#include "file.h"
#include "share.h"
#include "tree.h"
#include "vfs.h"

bool ksmbd_file_dosattr(struct ksmbd_file *fp, struct ksmbd_dosattr *da)
{
	u8 blob[KSMBD_DOSATTR_MAX];
	ssize_t n;

	if (!fp->tree || !ksmbd_share_has(fp->tree->share,
					  KSMBD_SHARE_FLAG_STORE_DOS_ATTRS))
		return false;
	n = ksmbd_vfs_getxattr(fp, KSMBD_DOSATTR_XATTR, blob, sizeof(blob));
	return n > 0 && !ksmbd_dosattr_decode(blob, (u32)n, da);
}

static u64 filetime(struct timespec64 ts)
{
	return ksmbd_filetime_from_unix(ts.tv_sec, (u32)ts.tv_nsec);
}

/* HIDDEN of a dot file and READONLY from the mode: the file layer's rule */
static u32 attrs_of(struct ksmbd_file *fp, const struct kstat *st,
		    const struct ksmbd_dosattr *da)
{
	u32 attrs = ksmbd_file_dos_attrs(fp, st) &
		    (FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_READONLY);
	bool ro_xattr = fp->tree_flags & KSMBD_FILE_TREE_RO_XATTR;

	attrs |= ksmbd_dos_attrs(S_ISDIR(st->mode),
				 ro_xattr ? ksmbd_attrs_writable(true, 0, da) :
					    !(attrs & FILE_ATTRIBUTE_READONLY),
				 false, da);
	if (attrs & ~FILE_ATTRIBUTE_NORMAL)
		attrs &= ~FILE_ATTRIBUTE_NORMAL;
	return attrs;
}

void ksmbd_fattr_from_kstat(const struct kstat *st, u32 attrs,
			    const struct ksmbd_dosattr *da,
			    struct ksmbd_fattr *a)
{
	struct timespec64 birth = st->ctime;

	/* No birth time: the older of ctime and mtime is the best guess. */
	if (st->result_mask & STATX_BTIME)
		birth = st->btime;
	else if (timespec64_compare(&st->mtime, &birth) < 0)
		birth = st->mtime;
	memset(a, 0, sizeof(*a));
	a->creation_time = filetime(birth);
	if (da && (da->valid & KSMBD_DOSINFO_CREATE_TIME) && da->create_time)
		a->creation_time = da->create_time;
	a->last_access_time = filetime(st->atime);
	a->last_write_time = filetime(st->mtime);
	a->change_time = filetime(st->ctime);
	a->end_of_file = st->size;
	a->allocation_size = (u64)st->blocks << 9;
	a->index_number = st->ino;
	a->nlink = st->nlink;
	a->attributes = attrs;
	a->directory = S_ISDIR(st->mode);
}

void ksmbd_fattr_of_stat(struct ksmbd_file *fp, const struct kstat *st,
			 struct ksmbd_fattr *a)
{
	struct ksmbd_dosattr da;
	bool has_da = ksmbd_file_dosattr(fp, &da);

	ksmbd_fattr_from_kstat(st, attrs_of(fp, st, has_da ? &da : NULL),
			       has_da ? &da : NULL, a);
	ksmbd_file_apply_times(fp, st, a);
}

int ksmbd_fattr_of_file(struct ksmbd_file *fp, struct kstat *st,
			struct ksmbd_fattr *a)
{
	int ret;

	ret = ksmbd_vfs_getattr(fp, st);
	if (ret)
		return ret;
	ksmbd_fattr_of_stat(fp, st, a);
	a->delete_pending = ksmbd_file_delete_pending(fp);
	/* the link a pending delete removes no longer counts (as Windows) */
	if (a->delete_pending && a->nlink)
		a->nlink--;
	return 0;
}

bool ksmbd_fattr_readonly(struct ksmbd_file *fp)
{
	struct ksmbd_dosattr da = { };

	if (!fp->filp || fp->kind == KSMBD_FILE_DIRECTORY)
		return false;
	if (!(fp->tree_flags & KSMBD_FILE_TREE_RO_XATTR))
		return ksmbd_mode_readonly(file_inode(fp->filp)->i_mode);
	return ksmbd_file_dosattr(fp, &da) &&
	       !ksmbd_attrs_writable(true, 0, &da);
}

int ksmbd_fattr_readonly_open(struct ksmbd_file *fp, u32 desired,
			      bool delete_on_close, bool overwrite)
{
	const u32 writes = FILE_WRITE_DATA | FILE_APPEND_DATA;

	if (!(fp->tree_flags & KSMBD_FILE_TREE_RO_XATTR) ||
	    !ksmbd_fattr_readonly(fp))
		return 0;
	if (delete_on_close)
		return -KSMBD_ECANNOT_DELETE;
	if (overwrite || (ksmbd_access_map_generic(desired) & writes))
		return -EACCES;
	fp->daccess &= ~writes;		/* MAXIMUM_ALLOWED's grant */
	return 0;
}

bool ksmbd_fattr_stores_dos(const struct ksmbd_file *fp)
{
	return fp->tree && ksmbd_share_has(fp->tree->share,
					   KSMBD_SHARE_FLAG_STORE_DOS_ATTRS);
}

int ksmbd_fattr_store_dosattr(struct ksmbd_file *fp, const struct kstat *st,
			       u32 attrs, bool set_attrs, u64 btime)
{
	struct ksmbd_dosattr da = { };
	u8 blob[KSMBD_DOSATTR_MAX];
	bool old = ksmbd_file_dosattr(fp, &da);
	bool had = old && (da.valid & KSMBD_DOSINFO_ATTRIB);
	u32 sparse = had ? da.attrib & FILE_ATTRIBUTE_SPARSE_FILE : 0;
	int n;

	if (!set_attrs && had)
		attrs = da.attrib;
	else if (!set_attrs)	/* keep what was reported (fileinfo.h) */
		attrs = S_ISDIR(st->mode) ? 0 : FILE_ATTRIBUTE_ARCHIVE;
	if (!btime && old && (da.valid & KSMBD_DOSINFO_CREATE_TIME))
		btime = da.create_time;
	/* SPARSE_FILE is FSCTL_SET_SPARSE's (ksmbd_fattr_set_sparse()). */
	attrs = (attrs & KSMBD_ATTR_SETTABLE & ~FILE_ATTRIBUTE_NORMAL) | sparse;
	if (S_ISDIR(st->mode))
		attrs = (attrs & ~FILE_ATTRIBUTE_SPARSE_FILE) |
			FILE_ATTRIBUTE_DIRECTORY;
	n = ksmbd_dosattr_encode(attrs, btime, btime != 0, blob, sizeof(blob));
	if (n < 0)
		return n;
	return ksmbd_vfs_setxattr(fp, KSMBD_DOSATTR_XATTR, blob, n, 0);
}

bool ksmbd_fattr_is_sparse(struct ksmbd_file *fp)
{
	struct ksmbd_dosattr da = { };

	return ksmbd_file_dosattr(fp, &da) &&
	       (da.valid & KSMBD_DOSINFO_ATTRIB) &&
	       (da.attrib & FILE_ATTRIBUTE_SPARSE_FILE);
}

int ksmbd_fattr_set_sparse(struct ksmbd_file *fp, bool sparse)
{
	struct ksmbd_dosattr da = { };
	u8 blob[KSMBD_DOSATTR_MAX];
	struct kstat st;
	u32 attrs;
	int n;

	if (!ksmbd_fattr_stores_dos(fp))
		return -EOPNOTSUPP;
	n = ksmbd_vfs_getattr(fp, &st);
	if (n)
		return n;
	if (ksmbd_file_dosattr(fp, &da) && (da.valid & KSMBD_DOSINFO_ATTRIB))
		attrs = da.attrib & KSMBD_ATTR_KEPT & ~FILE_ATTRIBUTE_NORMAL;
	else
		attrs = FILE_ATTRIBUTE_ARCHIVE;	/* what was reported */
	if (sparse)
		attrs |= FILE_ATTRIBUTE_SPARSE_FILE;
	else
		attrs &= ~FILE_ATTRIBUTE_SPARSE_FILE;
	n = ksmbd_dosattr_encode(attrs, da.create_time,
				 da.valid & KSMBD_DOSINFO_CREATE_TIME, blob,
				 sizeof(blob));
	if (n < 0)
		return n;
	return ksmbd_vfs_setxattr(fp, KSMBD_DOSATTR_XATTR, blob, n, 0);
}

bool ksmbd_fattr_readonly_mode(const struct ksmbd_file *fp,
			       const struct kstat *st, u32 attrs, umode_t *mode)
{
	bool ro = attrs & FILE_ATTRIBUTE_READONLY;

	if (S_ISDIR(st->mode) || (fp->tree_flags & KSMBD_FILE_TREE_RO_XATTR))
		return false;
	if (ro && (st->mode & 0222)) {
		*mode = st->mode & ~0222;
		return true;
	}
	if (!ro && !(st->mode & 0222)) {
		*mode = st->mode | 0200;
		return true;
	}
	return false;
}

void ksmbd_create_set_attrs(struct ksmbd_file *fp, u32 attrs)
{
	struct iattr ia = { };
	struct kstat st;

	attrs &= KSMBD_ATTR_SETTABLE & ~FILE_ATTRIBUTE_NORMAL;
	if (!attrs || ksmbd_vfs_getattr(fp, &st))
		return;
	if (!S_ISDIR(st.mode))
		attrs |= FILE_ATTRIBUTE_ARCHIVE;
	/* the xattr first: a read-only mode may forbid writing it after */
	if (ksmbd_fattr_stores_dos(fp))
		ksmbd_fattr_store_dosattr(fp, &st, attrs, true, 0);
	if (ksmbd_fattr_readonly_mode(fp, &st, attrs, &ia.ia_mode)) {
		ia.ia_valid = ATTR_MODE | ATTR_CTIME;
		ksmbd_vfs_setattr(fp, &ia);
	}
}
