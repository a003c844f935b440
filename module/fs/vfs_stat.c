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

/* Under the handle's credentials: the caller has overridden them. */
static int child_get(struct ksmbd_file *fp, const char *name, u32 len,
		     struct path *child)
{
	struct path dir = fp->filp->f_path;
	struct dentry *d;

	if (!len || len > NAME_MAX || memchr(name, '/', len) ||
	    (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.'))))
		return -EINVAL;
	d = lookup_one_len_unlocked(name, dir.dentry, len);
	if (IS_ERR(d))
		return PTR_ERR(d);
	if (d_is_negative(d)) {
		dput(d);
		return -ENOENT;
	}
	/* A mountpoint lists as the mounted root, as a lookup finds it. */
	child->mnt = mntget(dir.mnt);
	child->dentry = d;
	ksmbd_vfs_cross_mounts(child);
	return 0;
}

int ksmbd_vfs_child_get(struct ksmbd_file *fp, const char *name, u32 len,
			struct path *child)
{
	const struct cred *old = override_creds(fp->cred);
	int ret = child_get(fp, name, len, child);

	revert_creds(old);
	return ret;
}

int ksmbd_vfs_child_stat(struct ksmbd_file *fp, const char *name, u32 len,
			 struct kstat *st, const char *xname, void *xbuf,
			 size_t *xlen)
{
	const struct cred *old = override_creds(fp->cred);
	struct path child;
	int ret;

	ret = child_get(fp, name, len, &child);
	if (ret)
		goto out_revert;
	/* vfs_getattr() on a symlink's own dentry: lstat, nothing followed */
	ret = stat_path(&child, st);
	if (!ret && xname)
		read_xattr(&child, xname, xbuf, xlen);
	path_put(&child);
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
