// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Named streams on extended attributes (see streams.h).
 *
 * Part of the VFS layer: the handle operations go through vfs.c's xattr
 * helpers (as the handle's user); the lookup before an open calls the
 * VFS itself under the session user's credentials. A write or truncation
 * rewrites the whole attribute: stream_lock serialises those
 * read-modify-write cycles (streams are small, and rarely busy).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xattr.h>
#include "file.h"
#include "fileinfo.h"
#include "proto/utf16.h"
#include "streams.h"
#include "vfs.h"

static DEFINE_MUTEX(stream_lock);

static const char data_type[] = "$DATA";

/* ---- Names ---- */

static int find_colon16(const struct ksmbd_buf *name)
{
	u32 i;

	for (i = 0; i + 1 < name->len; i += 2)
		if (get_unaligned_le16(name->p + i) == ':')
			return (int)i;
	return -1;
}

/* MS-FSCC 2.1.5.3: a stream name holds no '\', '/', ':' or NUL. */
static int check_stream_name(const char *s)
{
	for (; *s; s++)
		if (*s == '\\' || *s == '/' || *s == ':')
			return -EINVAL;
	return 0;
}

int ksmbd_stream_split(const struct ksmbd_buf *name, struct ksmbd_buf *base,
		       struct ksmbd_stream_name *sn)
{
	char tmp[XATTR_NAME_MAX + 16];
	int colon = find_colon16(name), n;
	char *type;

	memset(sn, 0, sizeof(*sn));
	*base = *name;
	if (colon < 0)
		return 0;
	base->len = (u32)colon;
	n = ksmbd_utf16_to_utf8(name->p + colon + 2, name->len - colon - 2,
				tmp, sizeof(tmp));
	if (n < 0)
		return n == -ENAMETOOLONG ? n : -EINVAL;
	/* An embedded NUL would cut the name short: another name. */
	if ((size_t)n != strlen(tmp))
		return -EINVAL;
	type = strchr(tmp, ':');
	if (type) {
		*type++ = '\0';
		if (strcasecmp(type, data_type))
			return -EINVAL;	/* also a third ':' */
	}
	if (!tmp[0]) {
		sn->default_data = true;
		return type ? 0 : -EINVAL;	/* "::$DATA": the file itself */
	}
	if (check_stream_name(tmp))
		return -EINVAL;
	if (KSMBD_STREAM_XATTR_PREFIX_LEN + strlen(tmp) > XATTR_NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(sn->xname, KSMBD_STREAM_XATTR_PREFIX,
	       KSMBD_STREAM_XATTR_PREFIX_LEN);
	strscpy(sn->xname + KSMBD_STREAM_XATTR_PREFIX_LEN, tmp,
		sizeof(sn->xname) - KSMBD_STREAM_XATTR_PREFIX_LEN);
	sn->named = true;
	return 0;
}

static bool is_stream_xattr(const char *x)
{
	return !strncmp(x, KSMBD_STREAM_XATTR_PREFIX,
			KSMBD_STREAM_XATTR_PREFIX_LEN) &&
	       x[KSMBD_STREAM_XATTR_PREFIX_LEN];
}

/* All attribute names of d (kvfree it), as cred; *len set. */
static char *list_names(struct dentry *d, const struct cred *cred,
			ssize_t *len)
{
	const struct cred *old = override_creds(cred);
	char *list = NULL;
	ssize_t n;
	int tries;

	for (tries = 0; tries < 3; tries++) {
		n = vfs_listxattr(d, NULL, 0);
		if (n <= 0)
			break;
		list = kvmalloc(n, GFP_KERNEL);
		if (!list) {
			n = -ENOMEM;
			break;
		}
		n = vfs_listxattr(d, list, n);
		if (n != -ERANGE)
			break;
		kvfree(list);
		list = NULL;
	}
	revert_creds(old);
	if (n < 0) {
		kvfree(list);
		return ERR_PTR(n);
	}
	*len = n;
	return list;
}

int ksmbd_stream_exists(const struct ksmbd_vfs_scope *s,
			const struct ksmbd_vfs_lookup *res,
			struct ksmbd_stream_name *sn)
{
	ssize_t len, pos;
	char *list;
	int found = 0;

	if (!ksmbd_stream_supported(res->dentry))
		return -EOPNOTSUPP;
	list = list_names(res->dentry, s->cred, &len);
	if (IS_ERR(list))
		return PTR_ERR(list);
	for (pos = 0; list && pos < len; pos += strnlen(list + pos, len - pos) + 1) {
		const char *x = list + pos;

		if (strnlen(x, len - pos) == (size_t)(len - pos))
			break;	/* unterminated: never read past the list */
		if (is_stream_xattr(x) && !strcasecmp(x, sn->xname)) {
			strscpy(sn->xname, x, sizeof(sn->xname));
			found = 1;
			break;
		}
	}
	kvfree(list);
	return found;
}

/*
 * A name no stream has (a stream name cannot hold ':'): the file system
 * answers -ENODATA when it keeps user.* attributes, -EOPNOTSUPP when not
 * (tmpfs before Linux 6.6 has no user.* handler).
 */
#define PROBE_XATTR	KSMBD_STREAM_XATTR_PREFIX ":"

bool ksmbd_stream_supported(struct dentry *d)
{
	if (!(d_inode(d)->i_opflags & IOP_XATTR))
		return false;
	return __vfs_getxattr(d, d_inode(d), PROBE_XATTR, NULL, 0) !=
	       -EOPNOTSUPP;
}

/* ---- Data ---- */

/* The stream's value (kvfree it) and its length; ERR_PTR on failure. */
static void *value_get(struct ksmbd_file *fp, size_t *len)
{
	ssize_t n;
	void *buf;
	int tries;

	for (tries = 0; tries < 3; tries++) {
		n = ksmbd_vfs_getxattr(fp, fp->stream, NULL, 0);
		if (n < 0)
			return ERR_PTR(n == -ENODATA ? -ENOENT : n);
		buf = kvmalloc(max_t(ssize_t, n, 1), GFP_KERNEL);
		if (!buf)
			return ERR_PTR(-ENOMEM);
		n = ksmbd_vfs_getxattr(fp, fp->stream, buf, n);
		if (n >= 0) {
			*len = n;
			return buf;
		}
		kvfree(buf);
		if (n != -ERANGE)
			return ERR_PTR(n == -ENODATA ? -ENOENT : n);
	}
	return ERR_PTR(-EIO);
}

static int value_set(struct ksmbd_file *fp, const void *v, size_t len,
		     int flags)
{
	int ret = ksmbd_vfs_setxattr(fp, fp->stream, v, len, flags);

	/* The attribute cannot hold that much: the stream is full. */
	if (ret == -E2BIG || ret == -ERANGE)
		ret = -ENOSPC;
	return ret;
}

int ksmbd_stream_create(struct ksmbd_file *fp)
{
	return value_set(fp, "", 0, XATTR_CREATE);
}

static ssize_t stream_size(struct ksmbd_file *fp)
{
	ssize_t n = ksmbd_vfs_getxattr(fp, fp->stream, NULL, 0);

	return n == -ENODATA ? -ENOENT : n;
}

int ksmbd_stream_getattr(struct ksmbd_file *fp, struct kstat *st)
{
	const struct cred *old = override_creds(fp->cred);
	ssize_t size;
	int ret;

	ret = vfs_getattr(&fp->filp->f_path, st,
			  STATX_BASIC_STATS | STATX_BTIME,
			  AT_STATX_SYNC_AS_STAT);
	revert_creds(old);
	if (ret)
		return ret;
	size = stream_size(fp);
	if (size < 0)
		return size;
	st->size = size;
	st->blocks = DIV_ROUND_UP(size, 4096) * 8;
	return 0;
}

ssize_t ksmbd_stream_read(struct ksmbd_file *fp, void *buf, size_t len,
			  loff_t pos)
{
	size_t vlen;
	void *v;

	if (pos < 0)
		return -EINVAL;
	v = value_get(fp, &vlen);
	if (IS_ERR(v))
		return PTR_ERR(v);
	if ((u64)pos >= vlen)
		len = 0;
	else
		len = min_t(size_t, len, vlen - pos);
	if (len)
		memcpy(buf, v + pos, len);
	kvfree(v);
	return len;
}

/* Rewrite the stream as the old data resized to size, then data at pos. */
static int rewrite(struct ksmbd_file *fp, size_t size, const void *data,
		   size_t len, loff_t pos)
{
	size_t vlen;
	void *v, *nv;
	int ret;

	v = value_get(fp, &vlen);
	if (IS_ERR(v))
		return PTR_ERR(v);
	nv = kvzalloc(max_t(size_t, size, 1), GFP_KERNEL);
	if (!nv) {
		kvfree(v);
		return -ENOMEM;
	}
	memcpy(nv, v, min(vlen, size));
	if (len)
		memcpy(nv + pos, data, len);
	ret = value_set(fp, nv, size, XATTR_REPLACE);
	kvfree(nv);
	kvfree(v);
	return ret;
}

ssize_t ksmbd_stream_write(struct ksmbd_file *fp, const void *buf,
			   size_t len, loff_t pos)
{
	ssize_t size;
	int ret;

	if (pos < 0)
		return -EINVAL;
	if (!len)
		return 0;
	if (pos > KSMBD_STREAM_MAX_SIZE || len > KSMBD_STREAM_MAX_SIZE - pos)
		return -ENOSPC;
	mutex_lock(&stream_lock);
	size = stream_size(fp);
	ret = size < 0 ? size :
	      rewrite(fp, max_t(size_t, size, pos + len), buf, len, pos);
	mutex_unlock(&stream_lock);
	return ret ? ret : (ssize_t)len;
}

int ksmbd_stream_truncate(struct ksmbd_file *fp, loff_t size)
{
	int ret;

	if (size < 0)
		return -EINVAL;
	if (size > KSMBD_STREAM_MAX_SIZE)
		return -ENOSPC;
	mutex_lock(&stream_lock);
	ret = rewrite(fp, size, NULL, 0, 0);
	mutex_unlock(&stream_lock);
	return ret;
}

int ksmbd_stream_remove(struct ksmbd_file *fp)
{
	int ret = ksmbd_vfs_removexattr(fp, fp->stream);

	return ret == -ENODATA ? -ENOENT : ret;
}

/* ---- Rename ---- */

static int rename_locked(struct ksmbd_file *fp, const char *xname,
			 bool replace)
{
	ssize_t target;
	size_t vlen;
	void *v;
	int ret;

	target = ksmbd_vfs_getxattr(fp, xname, NULL, 0);
	if (target >= 0 && !replace)
		return -EEXIST;
	/* NTFS replaces only an empty stream, and never an open one. */
	if (target > 0)
		return -EINVAL;
	if (target >= 0 && ksmbd_file_stream_busy(fp, xname))
		return -EBUSY;
	if (target < 0 && target != -ENODATA)
		return target;
	v = value_get(fp, &vlen);
	if (IS_ERR(v))
		return PTR_ERR(v);
	ret = ksmbd_vfs_setxattr(fp, xname, v, vlen, 0);
	kvfree(v);
	if (ret)
		return ret == -E2BIG || ret == -ERANGE ? -ENOSPC : ret;
	ret = ksmbd_vfs_removexattr(fp, fp->stream);
	if (ret) {
		ksmbd_vfs_removexattr(fp, xname);
		return ret;
	}
	ksmbd_file_stream_renamed(fp, xname);
	return 0;
}

int ksmbd_stream_rename(struct ksmbd_file *fp, const struct ksmbd_buf *name,
			bool replace)
{
	struct ksmbd_stream_name *sn;
	struct ksmbd_buf base;
	int ret;

	if (!fp->stream)
		return -EINVAL;	/* the unnamed stream keeps its name */
	sn = kmalloc(sizeof(*sn), GFP_KERNEL);
	if (!sn)
		return -ENOMEM;
	ret = ksmbd_stream_split(name, &base, sn);
	if (ret)
		ret = -EILSEQ;	/* STATUS_OBJECT_NAME_INVALID */
	else if (base.len)
		ret = -EBUSY;	/* a file name: the file is open, by this stream */
	else if (!sn->named)
		ret = -EOPNOTSUPP;
	else if (!strcasecmp(sn->xname, fp->stream))
		ret = 0;	/* itself: nothing changes */
	else {
		mutex_lock(&stream_lock);
		ret = rename_locked(fp, sn->xname, replace);
		mutex_unlock(&stream_lock);
	}
	kfree(sn);
	return ret;
}

/* ---- FileStreamInformation ---- */

struct stream_list {
	struct ksmbd_wbuf *w;
	u32 need;
	u32 prev_at;		/* the previous entry's offset in w */
	bool any;		/* an entry was counted */
	bool full;		/* one did not fit: no more are written */
	u8 *name16;		/* scratch */
};

#define NAME16_CAP	(2 * (XATTR_NAME_MAX + 8))

/*
 * Count every entry; write those that fit, the first that does not with
 * its name cut (as the other variable classes are), none after it. The
 * writer never overflows: the caller answers STATUS_BUFFER_OVERFLOW when
 * need exceeds what was written.
 */
static void put_entry(struct stream_list *l, const char *name, u64 size,
		      u64 alloc)
{
	static const u8 zero[8];
	struct ksmbd_wbuf *w = l->w;
	u32 pad = 0, at, room;
	int n16;

	n16 = ksmbd_utf8_to_utf16(name, strlen(name), l->name16, NAME16_CAP);
	if (n16 <= 0)
		return;
	if (l->any)
		pad = ALIGN(l->need, 8) - l->need;
	l->need += pad + FILE_STREAM_INFO_FIXED + n16;
	room = w->cap - w->len;
	if (l->full || w->overflow || room < pad + FILE_STREAM_INFO_FIXED) {
		l->full = true;
		l->any = true;
		return;
	}
	ksmbd_wbuf_put(w, zero, pad);
	at = w->len;
	ksmbd_wbuf_put_le32(w, 0);		/* NextEntryOffset */
	ksmbd_wbuf_put_le32(w, n16);
	ksmbd_wbuf_put_le64(w, size);
	ksmbd_wbuf_put_le64(w, alloc);
	room = w->cap - w->len;
	if ((u32)n16 > room) {
		n16 = room & ~1u;
		l->full = true;
	}
	ksmbd_wbuf_put(w, l->name16, n16);
	if (l->any)
		put_unaligned_le32(at - l->prev_at, w->p + l->prev_at);
	l->prev_at = at;
	l->any = true;
}

static void list_named(struct stream_list *l, struct ksmbd_file *fp)
{
	char *entry = l->name16 + NAME16_CAP;	/* second half of scratch */
	ssize_t len, pos, size;
	char *list;

	list = list_names(fp->filp->f_path.dentry, fp->cred, &len);
	if (IS_ERR_OR_NULL(list))
		return;
	for (pos = 0; pos < len; pos += strnlen(list + pos, len - pos) + 1) {
		const char *x = list + pos;

		if (strnlen(x, len - pos) == (size_t)(len - pos))
			break;
		if (!is_stream_xattr(x))
			continue;
		size = ksmbd_vfs_getxattr(fp, x, NULL, 0);
		if (size < 0)
			continue;
		snprintf(entry, XATTR_NAME_MAX + 16, ":%s:$DATA",
			 x + KSMBD_STREAM_XATTR_PREFIX_LEN);
		put_entry(l, entry, size, DIV_ROUND_UP(size, 4096) * 4096);
	}
	kvfree(list);
}

u32 ksmbd_stream_list(struct ksmbd_file *fp, struct ksmbd_wbuf *w)
{
	struct stream_list l = { .w = w };
	const struct cred *old;
	struct kstat st;
	int ret;

	old = override_creds(fp->cred);
	ret = vfs_getattr(&fp->filp->f_path, &st, STATX_BASIC_STATS,
			  AT_STATX_SYNC_AS_STAT);
	revert_creds(old);
	if (ret)
		return 0;
	l.name16 = kmalloc(NAME16_CAP + XATTR_NAME_MAX + 16, GFP_KERNEL);
	if (!l.name16)
		return 0;
	/* A directory has no unnamed data stream. */
	if (!S_ISDIR(st.mode))
		put_entry(&l, "::$DATA", st.size, (u64)st.blocks << 9);
	if (ksmbd_stream_supported(fp->filp->f_path.dentry))
		list_named(&l, fp);
	kfree(l.name16);
	return l.need;
}
