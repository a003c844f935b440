/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Named streams ("file:name:$DATA", MS-FSCC 2.1.5) kept as one extended
 * attribute per stream on the base file or directory:
 * "user.KsmbdStream." + the stream name as the client wrote it (UTF-8),
 * the attribute's value the stream's data. The unnamed stream is the file
 * itself. Names compare ASCII case-insensitively, as on Windows: an open
 * uses the stored spelling when one matches.
 *
 * A stream handle is a ksmbd_file on its base (an O_PATH open) with
 * fp->stream set to the attribute's name; READ, WRITE, truncation,
 * getattr and delete-on-close of such a handle come here through vfs.c.
 * Share modes and delete-on-close are per stream (file.c keys its entry by
 * inode and stream). Sizes are bounded by what one attribute holds
 * (KSMBD_STREAM_MAX_SIZE, less on file systems without large attributes):
 * a write past it is -ENOSPC (STATUS_DISK_FULL).
 */
#ifndef KSMBD_STREAMS_H
#define KSMBD_STREAMS_H

#include <linux/types.h>
#include <linux/xattr.h>
#include "proto/buf.h"

struct dentry;
struct kstat;
struct ksmbd_file;
struct ksmbd_fattr;
struct ksmbd_vfs_scope;
struct ksmbd_vfs_lookup;

#define KSMBD_STREAM_XATTR_PREFIX	"user.KsmbdStream."
#define KSMBD_STREAM_XATTR_PREFIX_LEN	(sizeof(KSMBD_STREAM_XATTR_PREFIX) - 1)
#define KSMBD_STREAM_MAX_SIZE		XATTR_SIZE_MAX

struct ksmbd_stream_name {
	bool named;			/* false: the unnamed stream (or none) */
	bool default_data;		/* "name::$DATA": the unnamed one, by name */
	char xname[XATTR_NAME_MAX + 1];	/* prefix + name, NUL-terminated */
};

/*
 * Split a CREATE name (UTF-16LE) at its first ':'. base gets the part
 * before it (the whole name without one). "name::$DATA" is the base file
 * (sn->named false). 0, or -EINVAL for a bad stream part (empty name
 * without a type, a type other than $DATA, '\', '/' or ':' in the name)
 * and -ENAMETOOLONG (STATUS_OBJECT_NAME_INVALID both).
 */
int ksmbd_stream_split(const struct ksmbd_buf *name, struct ksmbd_buf *base,
		       struct ksmbd_stream_name *sn);

/*
 * Does base d hold the stream? 1 (and sn->xname now the stored
 * spelling), 0, or -errno (-EOPNOTSUPP: the file system keeps no user
 * extended attributes).
 */
int ksmbd_stream_exists(const struct ksmbd_vfs_scope *s,
			const struct ksmbd_vfs_lookup *res,
			struct ksmbd_stream_name *sn);
/* Make the (empty) stream of a stream handle; -EEXIST if it exists. */
int ksmbd_stream_create(struct ksmbd_file *fp);
/*
 * FileRenameInformation with a name starting with ':' (MS-FSA
 * 2.1.5.14.11): rename fp's stream within its file. -EEXIST when the
 * target exists and replace is not set, -EINVAL when it holds data,
 * -EBUSY when it is open, or when a stream handle is given a file name
 * ("<base>:<stream>": the file is open, by this stream), -EOPNOTSUPP
 * for the unnamed stream as target.
 */
int ksmbd_stream_rename(struct ksmbd_file *fp, const struct ksmbd_buf *name,
			bool replace);
/* Does d's file system keep streams (user extended attributes)? */
bool ksmbd_stream_supported(struct dentry *d);

/* ---- A stream handle's operations (through vfs.c) ---- */
int ksmbd_stream_getattr(struct ksmbd_file *fp, struct kstat *st);
ssize_t ksmbd_stream_read(struct ksmbd_file *fp, void *buf, size_t len,
			  loff_t pos);
ssize_t ksmbd_stream_write(struct ksmbd_file *fp, const void *buf,
			   size_t len, loff_t pos);
int ksmbd_stream_truncate(struct ksmbd_file *fp, loff_t size);
int ksmbd_stream_remove(struct ksmbd_file *fp);

/*
 * FileStreamInformation of any handle's file: "::$DATA" with the base's
 * sizes first (not for a directory), then every named stream. Returns the
 * bytes the whole list needs; w gets as much as fits.
 */
u32 ksmbd_stream_list(struct ksmbd_file *fp, struct ksmbd_wbuf *w);

#endif
