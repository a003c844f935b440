/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * VFS calls QUERY_DIRECTORY needs beyond vfs.h: the attributes of one
 * entry of an open directory. Same rules as vfs.c: the handle's user's
 * credentials, one component below the handle's dentry (never "." or
 * "..": those are the handle itself and its parent inside the share),
 * no symlink followed.
 */
#ifndef KSMBD_VFS_META_H
#define KSMBD_VFS_META_H

#include <linux/stat.h>
#include <linux/types.h>

struct ksmbd_file;

/*
 * Stat the entry name (exact spelling, as readdir returned it) of the
 * directory handle fp. When xname is given, also read that xattr of the
 * entry into xbuf (*xlen in: size, out: length, 0 when absent).
 * -ENOENT when it disappeared since readdir.
 */
int ksmbd_vfs_child_stat(struct ksmbd_file *fp, const char *name, u32 len,
			 struct kstat *st, const char *xname, void *xbuf,
			 size_t *xlen);

/* Stat the handle's parent directory; the handle itself at the share root. */
int ksmbd_vfs_parent_stat(struct ksmbd_file *fp, struct kstat *st);

#endif
