// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The VFS layer (see vfs.h): every file system call of the server, each
 * under the session user's credentials.
 *
 * Confinement: a name is resolved one component at a time with
 * lookup_one_len*() starting at the share root's dentry. Components never
 * are "." or ".." (vfs_name.c refuses them and lookup_one_common() would
 * too), a symlink on the way ends the walk with -ELOOP, and a symlink as
 * the last component is returned as itself, never followed. So no name
 * can reach outside the share. A file system mounted on a directory of
 * the share is entered, as the kernel's own path walk does (what the
 * user sees there, not the directory hidden beneath the mount); the same
 * rules hold inside it, and renames and links never cross it (-EXDEV).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ctype.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/fsnotify.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/pipe_fs_i.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/statfs.h>
#include <linux/xattr.h>
#include "file.h"
#include "ksmbd_trace.h"
#include "streams.h"
#include "vfs.h"
#include "vfs_int.h"
#include "vfs_name.h"

static struct user_namespace *path_userns(const struct path *p)
{
	return mnt_user_ns(p->mnt);
}

/* ---- Case-insensitive lookup of one component ---- */

struct ci_match {
	struct dir_context ctx;
	const char *want;
	u32 len;
	char *found;		/* NAME_MAX + 1 bytes */
	bool hit;
};

static bool ascii_eq_ci(const char *a, const char *b, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (tolower(a[i]) != tolower(b[i]))
			return false;
	return true;
}

static bool ci_actor(struct dir_context *ctx, const char *name, int namlen,
		     loff_t off, u64 ino, unsigned int type)
{
	struct ci_match *m = container_of(ctx, struct ci_match, ctx);

	if (namlen != m->len || !ascii_eq_ci(name, m->want, m->len))
		return true;
	memcpy(m->found, name, namlen);
	m->found[namlen] = '\0';
	m->hit = true;
	return false;	/* stop */
}

/* Find a directory entry equal to want ignoring ASCII case; 0 or -ENOENT. */
static int ci_find(const struct path *dir, const char *want, u32 len,
		   char *found)
{
	struct ci_match m = {
		.ctx.actor = ci_actor,
		.want = want,
		.len = len,
		.found = found,
	};
	struct file *f;
	int ret;

	f = dentry_open(dir, O_RDONLY | O_DIRECTORY, current_cred());
	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = iterate_dir(f, &m.ctx);
	fput(f);
	if (ret)
		return ret;
	return m.hit ? 0 : -ENOENT;
}

/*
 * One component below dir: exact first, then a case-insensitive match.
 * Returns a counted dentry, negative when neither exists; out gets the
 * spelling on disk (or comp itself when missing).
 */
static struct dentry *lookup_child(const struct path *dir, const char *comp,
				   u32 len, char *out)
{
	struct dentry *d, *ci;
	int ret;

	memcpy(out, comp, len);
	out[len] = '\0';
	d = lookup_one_len_unlocked(out, dir->dentry, len);
	if (IS_ERR(d) || d_is_positive(d))
		return d;

	ret = ci_find(dir, comp, len, out);
	if (ret) {
		memcpy(out, comp, len);
		out[len] = '\0';
		return d;
	}
	ci = lookup_one_len_unlocked(out, dir->dentry, len);
	if (IS_ERR(ci) || d_is_negative(ci)) {
		/* Gone meanwhile: report the name as asked, missing. */
		if (!IS_ERR(ci))
			dput(ci);
		memcpy(out, comp, len);
		out[len] = '\0';
		return d;
	}
	dput(d);
	return ci;
}

/* p names a directory something may be mounted on: enter the mounts. */
void ksmbd_vfs_cross_mounts(struct path *p)
{
	while (d_mountpoint(p->dentry) && follow_down_one(p))
		;
}

/* The last component found: the mounted root when it is a mountpoint. */
static void walk_done(struct path *cur, struct dentry *child,
		      struct ksmbd_vfs_lookup *res)
{
	struct path last = { .mnt = mntget(cur->mnt), .dentry = child };

	if (d_is_positive(child))
		ksmbd_vfs_cross_mounts(&last);
	res->parent = *cur;
	res->dentry = last.dentry;
	res->mnt = last.mnt;
}

static int walk(const struct ksmbd_vfs_scope *s, const char *name,
		struct ksmbd_vfs_lookup *res)
{
	struct path cur = *s->root, next;
	const char *p = name;
	struct dentry *child;

	path_get(&cur);
	if (!*name) {
		res->parent = cur;
		res->dentry = dget(cur.dentry);
		res->mnt = mntget(cur.mnt);
		res->name[0] = '\0';
		return 0;
	}
	for (;;) {
		const char *slash = strchr(p, '/');
		u32 len = slash ? slash - p : strlen(p);

		if (!len || len > NAME_MAX)
			goto err_put_cur_inval;
		child = lookup_child(&cur, p, len, res->name);
		if (IS_ERR(child)) {
			path_put(&cur);
			return PTR_ERR(child);
		}
		if (!slash) {
			walk_done(&cur, child, res);
			return 0;
		}
		if (d_is_negative(child) || d_is_symlink(child) ||
		    !d_can_lookup(child)) {
			int err = d_is_negative(child) ? -ENOENT :
				  d_is_symlink(child) ? -ELOOP : -ENOTDIR;

			dput(child);
			path_put(&cur);
			return err;
		}
		next = (struct path){ .mnt = mntget(cur.mnt), .dentry = child };
		ksmbd_vfs_cross_mounts(&next);
		path_put(&cur);
		cur = next;
		/* a file bind-mounted over a directory ends the walk too */
		if (!d_can_lookup(cur.dentry)) {
			path_put(&cur);
			return -ENOTDIR;
		}
		p = slash + 1;
	}

err_put_cur_inval:
	path_put(&cur);
	return -EINVAL;
}

int ksmbd_vfs_lookup(const struct ksmbd_vfs_scope *s, const char *name,
		     struct ksmbd_vfs_lookup *res)
{
	const struct cred *old;
	int ret;

	memset(res, 0, sizeof(*res));
	old = override_creds(s->cred);
	ret = walk(s, name, res);
	revert_creds(old);
	return ret;
}

void ksmbd_vfs_lookup_done(struct ksmbd_vfs_lookup *res)
{
	dput(res->dentry);
	res->dentry = NULL;
	mntput(res->mnt);
	res->mnt = NULL;
	path_put(&res->parent);
	memset(&res->parent, 0, sizeof(res->parent));
}

/* ---- Create, permissions, open ---- */

static int create_locked(const struct path *parent, struct dentry *d,
			 umode_t mode)
{
	struct inode *dir = d_inode(parent->dentry);

	if (d_is_positive(d))
		return -EEXIST;
	if (S_ISDIR(mode))
		return vfs_mkdir(path_userns(parent), dir, d, mode & 07777);
	return vfs_create(path_userns(parent), dir, d, (mode & 07777) | S_IFREG,
			  true);
}

int ksmbd_vfs_create(const struct ksmbd_vfs_scope *s,
		     struct ksmbd_vfs_lookup *res, umode_t mode)
{
	struct dentry *dir = res->parent.dentry, *d;
	const struct cred *old;
	int ret;

	old = override_creds(s->cred);
	ret = mnt_want_write(res->parent.mnt);
	if (ret)
		goto out_revert;
	inode_lock_nested(d_inode(dir), I_MUTEX_PARENT);
	d = lookup_one_len(res->name, dir, strlen(res->name));
	if (IS_ERR(d)) {
		ret = PTR_ERR(d);
		goto out_unlock;
	}
	ret = create_locked(&res->parent, d, mode);
	if (!ret && d_is_negative(d)) {
		/* Some file systems leave the new dentry unhashed: look again. */
		dput(d);
		d = lookup_one_len(res->name, dir, strlen(res->name));
		if (!IS_ERR(d) && d_is_negative(d)) {
			dput(d);
			d = ERR_PTR(-ENOENT);
		}
		ret = PTR_ERR_OR_ZERO(d);
	}
	if (ret) {
		if (!IS_ERR(d))
			dput(d);
		goto out_unlock;
	}
	dput(res->dentry);
	res->dentry = d;
out_unlock:
	inode_unlock(d_inode(dir));
	mnt_drop_write(res->parent.mnt);
out_revert:
	revert_creds(old);
	return ret;
}

int ksmbd_vfs_permission(const struct ksmbd_vfs_scope *s,
			 struct dentry *dentry, int mask)
{
	const struct cred *old;
	int ret;

	old = override_creds(s->cred);
	ret = inode_permission(mnt_user_ns(s->root->mnt), d_inode(dentry),
			       mask);
	revert_creds(old);
	return ret;
}

bool ksmbd_vfs_is_owner(const struct ksmbd_vfs_scope *s,
			struct dentry *dentry)
{
	const struct cred *old;
	bool ret;

	old = override_creds(s->cred);
	ret = inode_owner_or_capable(mnt_user_ns(s->root->mnt),
				     d_inode(dentry));
	revert_creds(old);
	return ret;
}

/* The sticky-directory rule of may_delete(), which is not exported. */
static bool sticky_denies(struct inode *dir, struct inode *inode)
{
	kuid_t fsuid = current_fsuid();

	if (!(dir->i_mode & S_ISVTX))
		return false;
	if (uid_eq(inode->i_uid, fsuid) || uid_eq(dir->i_uid, fsuid))
		return false;
	return !capable(CAP_FOWNER);
}

int ksmbd_vfs_may_delete(const struct ksmbd_vfs_scope *s,
			 struct ksmbd_vfs_lookup *res)
{
	struct inode *dir = d_inode(res->parent.dentry);
	const struct cred *old;
	int ret;

	/* The share root, and a mounted file system's, are not the client's to delete. */
	if (res->dentry == s->root->dentry || d_is_negative(res->dentry) ||
	    res->mnt != res->parent.mnt)
		return -EACCES;
	if (IS_APPEND(dir) || IS_APPEND(d_inode(res->dentry)) ||
	    IS_IMMUTABLE(d_inode(res->dentry)))
		return -EPERM;
	old = override_creds(s->cred);
	ret = inode_permission(path_userns(&res->parent), dir,
			       MAY_WRITE | MAY_EXEC);
	if (!ret && sticky_denies(dir, d_inode(res->dentry)))
		ret = -EPERM;
	revert_creds(old);
	return ret;
}

/*
 * What open(2)'s may_open() checks and dentry_open() does not: the
 * user's permission for the access mode, immutable files (no writer),
 * append-only ones (writers append only, nobody truncates). Without it
 * a handle granted write access could overwrite an append-only log.
 */
static int may_open_like(const struct path *p, int flags, bool created)
{
	struct inode *inode = d_inode(p->dentry);
	int acc = flags & O_ACCMODE, mask = MAY_OPEN;

	if (flags & O_PATH)
		return 0;
	if (acc != O_WRONLY)
		mask |= MAY_READ;
	if (acc != O_RDONLY)
		mask |= MAY_WRITE;
	if ((mask & MAY_WRITE) && S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (IS_APPEND(inode) &&
	    (((mask & MAY_WRITE) && !(flags & O_APPEND)) || (flags & O_TRUNC)))
		return -EPERM;
	/* open(2) does not check the mode of the file it has just made */
	if (created)
		mask = MAY_OPEN;
	return inode_permission(path_userns(p), inode, mask);
}

struct file *ksmbd_vfs_open(const struct ksmbd_vfs_scope *s,
			    const struct ksmbd_vfs_lookup *res, int flags,
			    bool created)
{
	struct path p = { .mnt = res->mnt, .dentry = res->dentry };
	const struct cred *old;
	struct file *f;
	int ret;

	/* An append-only file is written at its end only (may_open()). */
	if ((flags & O_ACCMODE) != O_RDONLY && !(flags & O_PATH) &&
	    IS_APPEND(d_inode(res->dentry)))
		flags |= O_APPEND;
	old = override_creds(s->cred);
	ret = may_open_like(&p, flags, created);
	f = ret ? ERR_PTR(ret) : dentry_open(&p, flags | O_LARGEFILE, s->cred);
	revert_creds(old);
	return f;
}

/* ---- Operations on an open handle ---- */

#define AS_USER(fp, expr) ({					\
	const struct cred *old_ = override_creds((fp)->cred);	\
	typeof(expr) ret_ = (expr);				\
	revert_creds(old_);					\
	ret_;							\
})

int ksmbd_vfs_getattr(struct ksmbd_file *fp, struct kstat *st)
{
	if (fp->stream)
		return ksmbd_stream_getattr(fp, st);
	return AS_USER(fp, vfs_getattr(&fp->filp->f_path, st,
				       STATX_BASIC_STATS | STATX_BTIME,
				       AT_STATX_SYNC_AS_STAT));
}

ssize_t ksmbd_vfs_read(struct ksmbd_file *fp, void *buf, size_t len,
		       loff_t pos)
{
	if (fp->stream)
		return ksmbd_stream_read(fp, buf, len, pos);
	return AS_USER(fp, kernel_read(fp->filp, buf, len, &pos));
}

/*
 * The splice pipe holds at most a pipe's worth of buffers at a time; each
 * round, take a reference on every buffer's page instead of copying it, so
 * the socket can send the page cache pages themselves.
 */
static int take_page(struct pipe_inode_info *pipe, struct pipe_buffer *buf,
		     struct splice_desc *sd)
{
	struct ksmbd_pagevec *pv = sd->u.data;
	struct bio_vec *bv;

	if (pv->nr == pv->max) {
		/* A page split between two rounds takes two entries. */
		bv = krealloc_array(pv->bv, pv->max * 2, sizeof(*bv),
				    GFP_KERNEL);
		if (!bv)
			return -ENOMEM;
		pv->bv = bv;
		pv->max *= 2;
	}
	bv = &pv->bv[pv->nr++];
	get_page(buf->page);
	bv->bv_page = buf->page;
	bv->bv_offset = buf->offset;
	bv->bv_len = sd->len;
	pv->len += sd->len;
	return sd->len;
}

static int take_pipe(struct pipe_inode_info *pipe, struct splice_desc *sd)
{
	return __splice_from_pipe(pipe, sd, take_page);
}

void ksmbd_pagevec_release(struct ksmbd_pagevec *pv)
{
	unsigned int i;

	for (i = 0; i < pv->nr; i++)
		put_page(pv->bv[i].bv_page);
	kfree(pv->bv);
	memset(pv, 0, sizeof(*pv));
}

/* A file system without splice: read into pages of our own. */
static ssize_t read_into_pages(struct ksmbd_file *fp, size_t len, loff_t pos,
			       struct ksmbd_pagevec *pv)
{
	struct page *page;
	size_t chunk;
	ssize_t n;

	while (pv->len < len && pv->nr < pv->max) {
		page = alloc_page(GFP_KERNEL);
		if (!page)
			return -ENOMEM;
		chunk = min_t(size_t, len - pv->len, PAGE_SIZE);
		n = ksmbd_vfs_read(fp, page_address(page), chunk, pos);
		if (n > 0)
			pos += n;
		if (n <= 0) {
			put_page(page);
			return n;
		}
		pv->bv[pv->nr].bv_page = page;
		pv->bv[pv->nr].bv_offset = 0;
		pv->bv[pv->nr++].bv_len = n;
		pv->len += n;
		if (n < chunk)
			break;
	}
	return 0;
}

ssize_t ksmbd_vfs_read_pages(struct ksmbd_file *fp, size_t len, loff_t pos,
			     struct ksmbd_pagevec *pv)
{
	struct splice_desc sd = {
		.total_len = len,
		.pos = pos,
		.u.data = pv,
	};
	ssize_t n;

	/* Pipe buffers hold at most a page: about one entry per page. */
	pv->max = DIV_ROUND_UP(len, PAGE_SIZE) + 2;
	pv->bv = kmalloc_array(pv->max, sizeof(*pv->bv), GFP_KERNEL);
	if (!pv->bv)
		return -ENOMEM;
	if (!fp->stream && fp->filp->f_op->splice_read) {
		/*
		 * The thread's splice pipe lives as long as the thread: make
		 * it (a zero-length splice) as the server, so it is not
		 * charged to the first user who reads.
		 */
		if (!current->splice_pipe) {
			struct splice_desc none = { };

			splice_direct_to_actor(fp->filp, &none, take_pipe);
		}
		n = AS_USER(fp, splice_direct_to_actor(fp->filp, &sd,
						       take_pipe));
	} else {
		n = read_into_pages(fp, len, pos, pv) ?: pv->len;
	}
	if (n < 0 || n != pv->len) {
		ksmbd_pagevec_release(pv);
		return n < 0 ? n : -EIO;
	}
	return n;
}

ssize_t ksmbd_vfs_write(struct ksmbd_file *fp, const void *buf, size_t len,
			loff_t pos)
{
	if (fp->stream)
		return ksmbd_stream_write(fp, buf, len, pos);
	return AS_USER(fp, kernel_write(fp->filp, buf, len, &pos));
}

ssize_t ksmbd_vfs_write_from(struct ksmbd_file *fp, loff_t pos,
			     ksmbd_vfs_source_t src, void *arg)
{
	struct file *filp = fp->filp;

	if (fp->stream || !filp->f_op->write_iter ||
	    (filp->f_flags & O_APPEND))
		return -EOPNOTSUPP;
	return AS_USER(fp, src(arg, filp, pos));
}

int ksmbd_vfs_fsync(struct ksmbd_file *fp, loff_t start, loff_t end)
{
	if (fp->stream)
		return 0;	/* an attribute is written through */
	return AS_USER(fp, vfs_fsync_range(fp->filp, start, end, 0));
}

int ksmbd_vfs_truncate(struct ksmbd_file *fp, loff_t size)
{
	if (fp->stream)
		return ksmbd_stream_truncate(fp, size);
	if (!(fp->filp->f_mode & FMODE_WRITE))
		return -EACCES;
	return AS_USER(fp, vfs_truncate(&fp->filp->f_path, size));
}

/*
 * CREATE's overwrite or supersede: MS-FSA 2.1.5.1.2 truncates whatever
 * access was asked (an open for attributes only too), so the handle's
 * mode is not what decides; vfs_truncate() checks the user's write
 * permission on the inode instead.
 */
int ksmbd_vfs_overwrite(struct ksmbd_file *fp)
{
	if (fp->stream)
		return ksmbd_stream_truncate(fp, 0);
	return AS_USER(fp, vfs_truncate(&fp->filp->f_path, 0));
}

int ksmbd_vfs_fallocate(struct ksmbd_file *fp, int mode, loff_t off,
			loff_t len)
{
	if (fp->stream)
		return 0;	/* nothing to reserve for a stream */
	return AS_USER(fp, vfs_fallocate(fp->filp, mode, off, len));
}

loff_t ksmbd_vfs_size_hint(struct ksmbd_file *fp)
{
	struct kstat st;

	if (fp->stream)
		return ksmbd_stream_getattr(fp, &st) ? -1 : st.size;
	return i_size_read(file_inode(fp->filp));
}

loff_t ksmbd_vfs_seek(struct ksmbd_file *fp, loff_t off, int whence)
{
	return AS_USER(fp, vfs_llseek(fp->filp, off, whence));
}

ssize_t ksmbd_vfs_copy_range(struct ksmbd_file *src, loff_t src_off,
			     struct ksmbd_file *dst, loff_t dst_off,
			     size_t len)
{
	return AS_USER(dst, vfs_copy_file_range(src->filp, src_off, dst->filp,
						dst_off, len, 0));
}

int ksmbd_vfs_clone_range(struct ksmbd_file *src, loff_t src_off,
			  struct ksmbd_file *dst, loff_t dst_off, loff_t len)
{
	loff_t ret;

	ret = AS_USER(dst, vfs_clone_file_range(src->filp, src_off, dst->filp,
						dst_off, len, 0));
	if (ret < 0)
		return ret;
	return ret == len ? 0 : -EOPNOTSUPP;
}

int ksmbd_vfs_setattr(struct ksmbd_file *fp, struct iattr *attrs)
{
	return ksmbd_vfs_setattr_as(fp, fp->cred, attrs);
}

int ksmbd_vfs_setattr_as(struct ksmbd_file *fp, const struct cred *cred,
			 struct iattr *attrs)
{
	struct dentry *dentry = fp->filp->f_path.dentry;
	struct inode *inode = d_inode(dentry);
	const struct cred *old;
	int ret;

	old = override_creds(cred);
	ret = mnt_want_write(fp->filp->f_path.mnt);
	if (ret)
		goto out_revert;
	inode_lock(inode);
	/* notify_change() leaves permission checks to ->setattr: do them here. */
	ret = setattr_prepare(file_mnt_user_ns(fp->filp), dentry, attrs);
	if (!ret)
		ret = notify_change(file_mnt_user_ns(fp->filp), dentry, attrs,
				    NULL);
	inode_unlock(inode);
	mnt_drop_write(fp->filp->f_path.mnt);
out_revert:
	revert_creds(old);
	return ret;
}

int ksmbd_vfs_statfs(struct ksmbd_file *fp, struct kstatfs *st)
{
	return AS_USER(fp, vfs_statfs(&fp->filp->f_path, st));
}

int ksmbd_vfs_readdir(struct ksmbd_file *fp, struct dir_context *ctx)
{
	return AS_USER(fp, iterate_dir(fp->filp, ctx));
}

int ksmbd_vfs_rewind(struct ksmbd_file *fp)
{
	loff_t ret = AS_USER(fp, vfs_llseek(fp->filp, 0, SEEK_SET));

	return ret < 0 ? (int)ret : 0;
}

struct empty_check {
	struct dir_context ctx;
	bool other;
};

static bool empty_actor(struct dir_context *ctx, const char *name, int namlen,
			loff_t off, u64 ino, unsigned int type)
{
	struct empty_check *e = container_of(ctx, struct empty_check, ctx);

	if ((namlen == 1 && name[0] == '.') ||
	    (namlen == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	e->other = true;
	return false;
}

int ksmbd_vfs_dir_empty(struct ksmbd_file *fp)
{
	struct empty_check e = { .ctx.actor = empty_actor };
	const struct cred *old;
	struct file *dir;
	int ret;

	old = override_creds(fp->cred);
	/* A handle of its own, so the client's enumeration keeps its place. */
	dir = dentry_open(&fp->filp->f_path, O_RDONLY | O_DIRECTORY, fp->cred);
	if (IS_ERR(dir)) {
		ret = PTR_ERR(dir);
		goto out_revert;
	}
	ret = iterate_dir(dir, &e.ctx);
	fput(dir);
	if (!ret && e.other)
		ret = -ENOTEMPTY;
out_revert:
	revert_creds(old);
	return ret;
}

/* ---- Remove, rename, link ---- */

int ksmbd_vfs_remove(struct ksmbd_file *fp)
{
	if (fp->stream)
		return ksmbd_stream_remove(fp);
	return ksmbd_vfs_remove_file(fp);
}

int ksmbd_vfs_remove_file(struct ksmbd_file *fp)
{
	struct dentry *dentry = fp->filp->f_path.dentry, *parent;
	struct user_namespace *userns = file_mnt_user_ns(fp->filp);
	const struct cred *old;
	int ret;

	if (dentry == fp->root.dentry)
		return -EACCES;
	old = override_creds(fp->cred);
	ret = mnt_want_write(fp->filp->f_path.mnt);
	if (ret)
		goto out_revert;
	/*
	 * Our own reference besides the handle's: with the file's the only
	 * one, d_delete() would turn the dentry negative under the still
	 * open file, and its __fput() then finds no inode.
	 */
	dget(dentry);
	parent = dget_parent(dentry);
	inode_lock_nested(d_inode(parent), I_MUTEX_PARENT);
	/* Renamed or removed since: nothing of ours to delete at this place. */
	if (dentry->d_parent != parent || d_unhashed(dentry))
		ret = -ENOENT;
	else if (d_is_dir(dentry))
		ret = vfs_rmdir(userns, d_inode(parent), dentry);
	else
		ret = vfs_unlink(userns, d_inode(parent), dentry, NULL);
	inode_unlock(d_inode(parent));
	dput(parent);
	dput(dentry);
	mnt_drop_write(fp->filp->f_path.mnt);
out_revert:
	revert_creds(old);
	/* The last reference: no rename can change fp->name any more. */
	trace_ksmbd_vfs_unlink(NULL, fp, fp->name, ret, NULL, false);
	return ret;
}

/* The target's parent, beneath the handle's share root. */
static int target_lookup(struct ksmbd_file *fp, const char *new_name,
			 struct ksmbd_vfs_lookup *res)
{
	struct ksmbd_vfs_scope s = { .root = &fp->root, .cred = fp->cred };
	int ret;

	if (!*new_name)
		return -EINVAL;
	ret = ksmbd_vfs_lookup(&s, new_name, res);
	if (ret)
		return ret;
	if (res->parent.mnt != fp->filp->f_path.mnt) {
		ksmbd_vfs_lookup_done(res);
		return -EXDEV;
	}
	/*
	 * A case-only rename finds the file itself case-insensitively: use
	 * the spelling asked for.
	 */
	if (res->dentry == fp->filp->f_path.dentry)
		strscpy(res->name, ksmbd_name_last(new_name), sizeof(res->name));
	return 0;
}

int ksmbd_vfs_target_parent(struct ksmbd_file *fp, const char *new_name,
			    struct path *parent)
{
	struct ksmbd_vfs_lookup res;
	int ret = target_lookup(fp, new_name, &res);

	if (ret)
		return ret;
	*parent = res.parent;
	path_get(parent);
	ksmbd_vfs_lookup_done(&res);
	return 0;
}

static int rename_locked(struct ksmbd_file *fp, struct ksmbd_vfs_lookup *res,
			 struct dentry *old_parent, struct dentry *trap,
			 bool replace)
{
	struct dentry *old = fp->filp->f_path.dentry, *target;
	struct user_namespace *userns = file_mnt_user_ns(fp->filp);
	struct renamedata rd = { };
	int ret;

	if (old->d_parent != old_parent || d_unhashed(old))
		return -ENOENT;
	if (old == trap)
		return -EINVAL;
	target = lookup_one_len(res->name, res->parent.dentry,
				strlen(res->name));
	if (IS_ERR(target))
		return PTR_ERR(target);
	ret = -EINVAL;
	if (target == trap)
		goto out_dput;
	ret = -EEXIST;
	if (d_is_positive(target) && target != old && !replace)
		goto out_dput;
	rd.old_mnt_userns = userns;
	rd.old_dir = d_inode(old_parent);
	rd.old_dentry = old;
	rd.new_mnt_userns = userns;
	rd.new_dir = d_inode(res->parent.dentry);
	rd.new_dentry = target;
	ret = vfs_rename(&rd);
out_dput:
	dput(target);
	return ret;
}

int ksmbd_vfs_rename(struct ksmbd_file *fp, const char *new_name,
		     bool replace)
{
	struct ksmbd_vfs_lookup res;
	struct dentry *old_parent, *trap;
	const struct cred *old;
	int ret;

	if (fp->filp->f_path.dentry == fp->root.dentry)
		return -EACCES;
	ret = target_lookup(fp, new_name, &res);
	if (ret)
		return ret;
	old = override_creds(fp->cred);
	ret = mnt_want_write(res.parent.mnt);
	if (ret)
		goto out_revert;
	old_parent = dget_parent(fp->filp->f_path.dentry);
	trap = lock_rename(res.parent.dentry, old_parent);
	ret = rename_locked(fp, &res, old_parent, trap, replace);
	unlock_rename(res.parent.dentry, old_parent);
	dput(old_parent);
	mnt_drop_write(res.parent.mnt);
out_revert:
	revert_creds(old);
	ksmbd_vfs_lookup_done(&res);
	if (!ret)
		ret = ksmbd_file_name_set(fp, new_name);
	return ret;
}

static int link_locked(struct ksmbd_file *fp, struct ksmbd_vfs_lookup *res,
		       bool replace)
{
	struct user_namespace *userns = file_mnt_user_ns(fp->filp);
	struct inode *dir = d_inode(res->parent.dentry);
	struct dentry *target;
	int ret;

	target = lookup_one_len(res->name, res->parent.dentry,
				strlen(res->name));
	if (IS_ERR(target))
		return PTR_ERR(target);
	if (d_is_positive(target)) {
		ret = -EEXIST;
		if (!replace || d_is_dir(target))
			goto out_dput;
		ret = vfs_unlink(userns, dir, target, NULL);
		if (ret)
			goto out_dput;
		dput(target);
		target = lookup_one_len(res->name, res->parent.dentry,
					strlen(res->name));
		if (IS_ERR(target))
			return PTR_ERR(target);
	}
	ret = vfs_link(fp->filp->f_path.dentry, userns, dir, target, NULL);
out_dput:
	dput(target);
	return ret;
}

int ksmbd_vfs_link(struct ksmbd_file *fp, const char *new_name, bool replace)
{
	struct ksmbd_vfs_lookup res;
	const struct cred *old;
	int ret;

	if (d_is_dir(fp->filp->f_path.dentry))
		return -EPERM;
	ret = target_lookup(fp, new_name, &res);
	if (ret)
		return ret;
	old = override_creds(fp->cred);
	ret = mnt_want_write(res.parent.mnt);
	if (ret)
		goto out_revert;
	inode_lock_nested(d_inode(res.parent.dentry), I_MUTEX_PARENT);
	ret = link_locked(fp, &res, replace);
	inode_unlock(d_inode(res.parent.dentry));
	mnt_drop_write(res.parent.mnt);
out_revert:
	revert_creds(old);
	ksmbd_vfs_lookup_done(&res);
	return ret;
}

/* ---- Extended attributes ---- */

ssize_t ksmbd_vfs_getxattr(struct ksmbd_file *fp, const char *name,
			   void *buf, size_t size)
{
	return AS_USER(fp, vfs_getxattr(file_mnt_user_ns(fp->filp),
					fp->filp->f_path.dentry, name, buf,
					size));
}

int ksmbd_vfs_setxattr(struct ksmbd_file *fp, const char *name,
		       const void *value, size_t size, int flags)
{
	const struct cred *old;
	int ret;

	old = override_creds(fp->cred);
	ret = mnt_want_write(fp->filp->f_path.mnt);
	if (!ret) {
		ret = vfs_setxattr(file_mnt_user_ns(fp->filp),
				   fp->filp->f_path.dentry, name, value, size,
				   flags);
		mnt_drop_write(fp->filp->f_path.mnt);
	}
	revert_creds(old);
	return ret;
}

void ksmbd_vfs_notify_attrib(struct ksmbd_file *fp)
{
	fsnotify_xattr(fp->filp->f_path.dentry);
}

int ksmbd_vfs_removexattr(struct ksmbd_file *fp, const char *name)
{
	const struct cred *old;
	int ret;

	old = override_creds(fp->cred);
	ret = mnt_want_write(fp->filp->f_path.mnt);
	if (!ret) {
		ret = vfs_removexattr(file_mnt_user_ns(fp->filp),
				      fp->filp->f_path.dentry, name);
		mnt_drop_write(fp->filp->f_path.mnt);
	}
	revert_creds(old);
	return ret;
}

ssize_t ksmbd_vfs_listxattr(struct ksmbd_file *fp, char *buf, size_t size)
{
	return AS_USER(fp, vfs_listxattr(fp->filp->f_path.dentry, buf, size));
}
