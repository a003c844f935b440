// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The VFS layer's directory-entry attributes (QUERY_DIRECTORY): a child's
 * or the parent's stat, and one extended attribute of a child, under the
 * handle's credentials and with vfs.c's confinement rules.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/xattr.h>
#include "file.h"
#include "vfs.h"
#include "vfs_int.h"

static int stat_path(const struct path *p, struct kstat *st)
{
	return vfs_getattr(p, st, STATX_BASIC_STATS | STATX_BTIME,
			   AT_STATX_SYNC_AS_STAT);
}

static void read_xattr(const struct path *p, const char *xname, void *xbuf,
		       size_t *xlen)
{
	ssize_t n;

	n = vfs_getxattr(mnt_user_ns(p->mnt), p->dentry, xname, xbuf, *xlen);
	/* Absent, unsupported or too large: as if there were none. */
	*xlen = n > 0 ? (size_t)n : 0;
}

int ksmbd_vfs_child_stat(struct ksmbd_file *fp, const char *name, u32 len,
			 struct kstat *st, const char *xname, void *xbuf,
			 size_t *xlen)
{
	struct path dir = fp->filp->f_path;
	const struct cred *old;
	struct path child;
	struct dentry *d;
	int ret;

	if (!len || len > NAME_MAX || memchr(name, '/', len) ||
	    (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.'))))
		return -EINVAL;
	old = override_creds(fp->cred);
	d = lookup_one_len_unlocked(name, dir.dentry, len);
	if (IS_ERR(d)) {
		ret = PTR_ERR(d);
		goto out_revert;
	}
	if (d_is_negative(d)) {
		ret = -ENOENT;
		goto out_dput;
	}
	/* A mountpoint lists as the mounted root, as a lookup finds it. */
	child.mnt = mntget(dir.mnt);
	child.dentry = d;
	ksmbd_vfs_cross_mounts(&child);
	/* vfs_getattr() on a symlink's own dentry: lstat, nothing followed */
	ret = stat_path(&child, st);
	if (!ret && xname)
		read_xattr(&child, xname, xbuf, xlen);
	path_put(&child);
	goto out_revert;
out_dput:
	dput(d);
out_revert:
	revert_creds(old);
	return ret;
}

int ksmbd_vfs_parent_stat(struct ksmbd_file *fp, struct kstat *st)
{
	struct path here = fp->filp->f_path, up;
	const struct cred *old;
	int ret;

	old = override_creds(fp->cred);
	/* The share root's ".." is the root itself: never look above it. */
	if (here.dentry == fp->root.dentry && here.mnt == fp->root.mnt) {
		ret = stat_path(&here, st);
		goto out_revert;
	}
	up.mnt = here.mnt;
	up.dentry = dget_parent(here.dentry);
	ret = stat_path(&up, st);
	dput(up.dentry);
out_revert:
	revert_creds(old);
	return ret;
}
