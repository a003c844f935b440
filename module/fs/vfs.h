/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The VFS layer: the only code that calls vfs_*, lookups and dentry
 * operations. Every call runs under the session user's credentials
 * (override_creds), so the kernel decides permissions; paths resolve
 * component by component beneath the share root, never following a
 * symlink and never leaving the root (".." cannot even be asked for).
 *
 * Names are share-relative UTF-8 with '/' separators as produced by
 * vfs_name.h; "" is the share root. Each component is looked up exactly
 * first, then case-insensitively (ASCII folding) within its directory.
 *
 * Errors are negative errno; the handler translates them once.
 */
#ifndef KSMBD_VFS_H
#define KSMBD_VFS_H

#include <linux/bvec.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/path.h>
#include <linux/stat.h>
#include <linux/types.h>

struct ksmbd_file;

/* Where and as whom: built per request from the tree and the session. */
struct ksmbd_vfs_scope {
	const struct path *root;	/* the share root */
	const struct cred *cred;	/* the session user */
};

/* What a lookup found: the parent directory and the last component. */
struct ksmbd_vfs_lookup {
	struct path parent;		/* counted */
	struct dentry *dentry;		/* counted; negative when missing */
	/*
	 * dentry's mount (counted): parent.mnt, or the file system mounted
	 * on the last component, whose root dentry is then.
	 */
	struct vfsmount *mnt;
	/* The last component as it is spelled on disk (or as asked when missing). */
	char name[NAME_MAX + 1];
};

/*
 * Resolve name beneath the root. 0 with res filled when every directory
 * exists (the last component may be negative: the caller creates it);
 * -ENOENT when an intermediate directory is missing (the path, not the
 * name); -ENOTDIR when one is not a directory; -ELOOP on a symlink on the
 * way. For "" res->dentry is the root and res->parent the root too.
 * Release with ksmbd_vfs_lookup_done().
 */
int ksmbd_vfs_lookup(const struct ksmbd_vfs_scope *s, const char *name,
		     struct ksmbd_vfs_lookup *res);
void ksmbd_vfs_lookup_done(struct ksmbd_vfs_lookup *res);

/*
 * Create the missing last component found by a lookup: a regular file
 * (mode & S_IFMT == S_IFREG) or a directory. -EEXIST when someone created
 * it meanwhile. On success res->dentry is the new, positive dentry.
 */
int ksmbd_vfs_create(const struct ksmbd_vfs_scope *s,
		     struct ksmbd_vfs_lookup *res, umode_t mode);

/*
 * May the user do mask (MAY_READ | MAY_WRITE | MAY_EXEC) on the dentry?
 * And may they delete it (write + exec on the parent, sticky rules)?
 */
int ksmbd_vfs_permission(const struct ksmbd_vfs_scope *s,
			 struct dentry *dentry, int mask);
int ksmbd_vfs_may_delete(const struct ksmbd_vfs_scope *s,
			 struct ksmbd_vfs_lookup *res);
/* Is the user the dentry's owner (or capable of acting as one)? */
bool ksmbd_vfs_is_owner(const struct ksmbd_vfs_scope *s,
			struct dentry *dentry);

/*
 * Open what the lookup found as the user; flags O_RDONLY / O_WRONLY /
 * O_RDWR / O_PATH. open(2)'s rules hold: the permission for the mode,
 * no writer of an immutable file, an append-only one opened for writing
 * appends (O_APPEND is added) and is never truncated (-EPERM). A file
 * the caller has just created opens whatever its mode, as with open(2)'s
 * O_CREAT: its creator was granted the access it asked for.
 */
struct file *ksmbd_vfs_open(const struct ksmbd_vfs_scope *s,
			    const struct ksmbd_vfs_lookup *res, int flags,
			    bool created);

/* ---- Operations on an open handle, as the handle's user ---- */

int ksmbd_vfs_getattr(struct ksmbd_file *fp, struct kstat *st);
ssize_t ksmbd_vfs_read(struct ksmbd_file *fp, void *buf, size_t len,
		       loff_t pos);
ssize_t ksmbd_vfs_write(struct ksmbd_file *fp, const void *buf, size_t len,
			loff_t pos);
/*
 * Data written into the file by whoever has it (a streamed WRITE's data
 * from the socket, smb2_rw.c): src(arg, filp, pos) runs with the handle's
 * credentials and returns what it wrote or an error. -EOPNOTSUPP, having
 * called nothing, when the file cannot take it so.
 */
typedef ssize_t (*ksmbd_vfs_source_t)(void *arg, struct file *filp,
				      loff_t pos);
ssize_t ksmbd_vfs_write_from(struct ksmbd_file *fp, loff_t pos,
			     ksmbd_vfs_source_t src, void *arg);

/*
 * File data as counted page references (page cache pages, or the zero
 * page for holes), for a READ answer sent without copying the data.
 */
struct ksmbd_pagevec {
	struct bio_vec *bv;	/* kmalloc'd, max entries */
	unsigned int nr, max;
	size_t len;		/* bytes in bv[0..nr) */
};

/*
 * Up to len bytes at pos into pv (empty on entry) by splicing the file
 * (read into new pages on a file system that cannot splice); bytes
 * referenced, or negative errno (pv then holds nothing).
 */
ssize_t ksmbd_vfs_read_pages(struct ksmbd_file *fp, size_t len, loff_t pos,
			     struct ksmbd_pagevec *pv);
/* Drop the references and the array; pv is empty afterwards. */
void ksmbd_pagevec_release(struct ksmbd_pagevec *pv);
int ksmbd_vfs_fsync(struct ksmbd_file *fp, loff_t start, loff_t end);
int ksmbd_vfs_truncate(struct ksmbd_file *fp, loff_t size);
/* CREATE's truncation to 0, whatever the handle's access (vfs.c). */
int ksmbd_vfs_overwrite(struct ksmbd_file *fp);
/* FALLOC_FL_* mode, e.g. PUNCH_HOLE | KEEP_SIZE for FSCTL_SET_ZERO_DATA. */
int ksmbd_vfs_fallocate(struct ksmbd_file *fp, int mode, loff_t off,
			loff_t len);
/* SEEK_DATA / SEEK_HOLE; -ENXIO past the end as lseek(2). */
/* The file's (or stream's) size now, for sizing buffers; -1 unknown. */
loff_t ksmbd_vfs_size_hint(struct ksmbd_file *fp);
loff_t ksmbd_vfs_seek(struct ksmbd_file *fp, loff_t off, int whence);
ssize_t ksmbd_vfs_copy_range(struct ksmbd_file *src, loff_t src_off,
			     struct ksmbd_file *dst, loff_t dst_off,
			     size_t len);
/* -EOPNOTSUPP / -EXDEV when the file system cannot share extents. */
int ksmbd_vfs_clone_range(struct ksmbd_file *src, loff_t src_off,
			  struct ksmbd_file *dst, loff_t dst_off, loff_t len);
/* notify_change() with setattr_prepare's ownership/permission rules. */
int ksmbd_vfs_setattr(struct ksmbd_file *fp, struct iattr *attrs);
/* The same with other credentials (the server's, for a stored descriptor). */
int ksmbd_vfs_setattr_as(struct ksmbd_file *fp, const struct cred *cred,
			 struct iattr *attrs);
int ksmbd_vfs_statfs(struct ksmbd_file *fp, struct kstatfs *st);
/* iterate_dir() on the handle (opened with read access); ctx->actor as usual. */
int ksmbd_vfs_readdir(struct ksmbd_file *fp, struct dir_context *ctx);
/* Rewind a directory handle for SMB2_RESTART_SCANS / SMB2_REOPEN. */
int ksmbd_vfs_rewind(struct ksmbd_file *fp);

/*
 * Rename/move the handle's file to new_name (share-relative, like a
 * CREATE name; the new parent must exist). -EEXIST when the target exists
 * and !replace. Updates fp->name on success.
 */
int ksmbd_vfs_rename(struct ksmbd_file *fp, const char *new_name,
		     bool replace);
/*
 * The directory a rename or link to new_name would go into (counted:
 * path_put() it), looked up as the rename does, under the handle's root.
 */
int ksmbd_vfs_target_parent(struct ksmbd_file *fp, const char *new_name,
			    struct path *parent);
/* Hard link to new_name beneath the handle's share root. */
int ksmbd_vfs_link(struct ksmbd_file *fp, const char *new_name, bool replace);

/* Extended attributes, as the handle's user ("user.*" names). */
ssize_t ksmbd_vfs_getxattr(struct ksmbd_file *fp, const char *name,
			   void *buf, size_t size);
int ksmbd_vfs_setxattr(struct ksmbd_file *fp, const char *name,
		       const void *value, size_t size, int flags);
int ksmbd_vfs_removexattr(struct ksmbd_file *fp, const char *name);
/*
 * Tell change-notify watchers the file's attributes changed when nothing
 * on the inode did (attributes a file system could not keep).
 */
void ksmbd_vfs_notify_attrib(struct ksmbd_file *fp);
ssize_t ksmbd_vfs_listxattr(struct ksmbd_file *fp, char *buf, size_t size);

/* Unlink or rmdir the handle's dentry (delete-on-close at the last close). */
int ksmbd_vfs_remove(struct ksmbd_file *fp);
/* The file itself, also through a stream's handle (its base). */
int ksmbd_vfs_remove_file(struct ksmbd_file *fp);
/* 0 for an empty directory, -ENOTEMPTY otherwise. */
int ksmbd_vfs_dir_empty(struct ksmbd_file *fp);

/*
 * For QUERY_DIRECTORY: stat the entry name (exact spelling, as readdir
 * returned it) of the directory handle fp, one component below it (never
 * "." or ".."), nothing followed. When xname is given, also read that
 * xattr of the entry into xbuf (*xlen in: size, out: length, 0 when
 * absent). -ENOENT when it disappeared since readdir.
 */
int ksmbd_vfs_child_stat(struct ksmbd_file *fp, const char *name, u32 len,
			 struct kstat *st, const char *xname, void *xbuf,
			 size_t *xlen);
/* The same entry as a referenced path (path_put() it), mounts crossed. */
int ksmbd_vfs_child_get(struct ksmbd_file *fp, const char *name, u32 len,
			struct path *child);
/* Stat the handle's parent directory; the handle itself at the share root. */
int ksmbd_vfs_parent_stat(struct ksmbd_file *fp, struct kstat *st);

#endif
