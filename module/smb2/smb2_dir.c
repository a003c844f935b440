// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUERY_DIRECTORY (MS-SMB2 3.3.5.18).
 *
 * A directory handle carries an enumeration cursor (struct dir_state in
 * ksmbd_file.dir_state, under dir_lock): the compiled search pattern, "."
 * and ".." still to come, and a bounded buffer of names read from
 * iterate_dir() but not yet returned. iterate_dir() stops where the
 * buffer is full and resumes there on the next refill, so a directory of
 * any size goes out over as many requests as it takes, each filled with
 * whole 8-byte aligned entries up to OutputBufferLength.
 *
 * Every refill either adds names or reaches the end, and every entry
 * taken from the buffer is either returned or skipped for good: a
 * pattern that matches nothing ends in STATUS_NO_SUCH_FILE after one
 * pass, never in a loop (bug class 56).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "dosattr.h"
#include "fattr.h"
#include "file.h"
#include "fileinfo.h"
#include "ksmbd_trace.h"
#include "ntacl_store.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "proto/pattern.h"
#include "proto/utf16.h"
#include "share.h"
#include "shortname.h"
#include "smb2_dispatch.h"
#include "smb2_info.h"
#include "tree.h"
#include "vfs.h"
#include "vfs_name.h"

/* Names read ahead per refill; a few hundred entries. */
#define DIR_BUF_SIZE	(16 << 10)

/* One name in the read-ahead buffer, followed by name and NUL. */
struct dir_name {
	u64 ino;
	u16 len;
	u8 type;		/* DT_* */
} __packed;

struct dir_state {
	struct ksmbd_pattern *pat;
	bool dot_pending, dotdot_pending;
	bool eof;		/* iterate_dir() reached the end */
	bool matched;		/* something matched since the scan began */
	bool first;		/* no request answered since the scan began */
	u32 len, pos;		/* names in buf, next to return */
	u8 buf[DIR_BUF_SIZE];
	u8 name16[2 * (NAME_MAX + 1)];
	u8 xattr[KSMBD_DOSATTR_MAX];
};

/* What one request produces. */
struct qdir_out {
	struct ksmbd_wbuf w;	/* a window over the body, from base on */
	struct ksmbd_smb2_ctx *ctx;
	u32 base;		/* where w starts in the body */
	u32 limit;		/* the client's OutputBufferLength */
	u32 last;		/* offset of the previous entry */
	u32 count;
	bool full;		/* the next entry did not fit */
	/* the caller, where the share hides what it may not read */
	struct ksmbd_token *tok;
};

static void dir_state_free(void *p)
{
	struct dir_state *ds = p;

	ksmbd_pattern_free(ds->pat);
	kvfree(ds);
}

static int compile_pattern(const struct ksmbd_buf *p16,
			   struct ksmbd_pattern **out)
{
	u32 cap = p16->len / 2 * 3 + 1;
	char *utf8;
	int n;

	if (!p16->len)
		return ksmbd_pattern_compile("*", 1, out);
	utf8 = kmalloc(cap, GFP_KERNEL);
	if (!utf8)
		return -ENOMEM;
	n = ksmbd_utf16_to_utf8(p16->p, p16->len, utf8, cap);
	if (n >= 0 && (memchr(utf8, '/', n) || memchr(utf8, '\\', n)))
		n = -EILSEQ;	/* a pattern is one component */
	if (n >= 0)
		n = ksmbd_pattern_compile(utf8, n, out);
	kfree(utf8);
	return n < 0 ? n : 0;
}

/* Start (or restart) a scan with a new pattern. */
static int scan_begin(struct ksmbd_file *fp, struct dir_state *ds,
		      const struct ksmbd_buf *p16)
{
	struct ksmbd_pattern *pat;
	int ret;

	ret = compile_pattern(p16, &pat);
	if (ret)
		return ret;
	ret = ksmbd_vfs_rewind(fp);
	if (ret) {
		ksmbd_pattern_free(pat);
		return ret;
	}
	ksmbd_pattern_free(ds->pat);
	ds->pat = pat;
	ds->dot_pending = true;
	ds->dotdot_pending = true;
	ds->eof = false;
	ds->matched = false;
	ds->first = true;
	ds->len = 0;
	ds->pos = 0;
	return 0;
}

/* ---- Read-ahead ---- */

struct fill_ctx {
	struct dir_context ctx;
	struct dir_state *ds;
	bool stopped;
};

static bool fill_actor(struct dir_context *c, const char *name, int namlen,
		       loff_t off, u64 ino, unsigned int type)
{
	struct fill_ctx *f = container_of(c, struct fill_ctx, ctx);
	struct dir_state *ds = f->ds;
	struct dir_name n = { .ino = ino, .len = (u16)namlen, .type = (u8)type };
	u32 need = sizeof(n) + namlen + 1;

	/* "." and ".." come first from us, with their own attributes */
	if (namlen <= 0 || namlen > NAME_MAX ||
	    (name[0] == '.' && (namlen == 1 || (namlen == 2 && name[1] == '.'))))
		return true;
	if (need > sizeof(ds->buf) - ds->len) {
		/* iterate_dir() resumes at this entry next time */
		f->stopped = true;
		return false;
	}
	memcpy(ds->buf + ds->len, &n, sizeof(n));
	memcpy(ds->buf + ds->len + sizeof(n), name, namlen);
	ds->buf[ds->len + sizeof(n) + namlen] = '\0';
	ds->len += need;
	return true;
}

static int refill(struct ksmbd_file *fp, struct dir_state *ds)
{
	struct fill_ctx f = { .ctx.actor = fill_actor, .ds = ds };
	int ret;

	ds->len = 0;
	ds->pos = 0;
	ret = ksmbd_vfs_readdir(fp, &f.ctx);
	if (ret)
		return ret;
	if (!f.stopped)
		ds->eof = true;
	return 0;
}

/* ---- One entry ---- */

static bool vetoed(const struct ksmbd_file *fp, const char *name)
{
	const struct ksmbd_share *sh = fp->tree->share;

	return sh->veto_list_sz && ksmbd_name_vetoed(sh->veto_list,
						     sh->veto_list_sz, name);
}

/* Attributes of entry name; -ENOENT when it is gone or not shown. */
static int entry_attrs(struct ksmbd_file *fp, struct dir_state *ds,
		       const char *name, u32 len, struct ksmbd_fattr *a)
{
	bool dos = ksmbd_share_has(fp->tree->share,
				   KSMBD_SHARE_FLAG_STORE_DOS_ATTRS);
	bool hide = (fp->tree_flags & KSMBD_FILE_TREE_HIDE_DOT) &&
		    name[0] == '.';
	size_t xlen = sizeof(ds->xattr);
	struct ksmbd_dosattr da;
	bool has_da = false, writable;
	struct kstat st;
	int ret;

	ret = ksmbd_vfs_child_stat(fp, name, len, &st,
				   dos ? KSMBD_DOSATTR_XATTR : NULL,
				   ds->xattr, &xlen);
	if (ret)
		return ret;
	/* Neither symlinks (never followed) nor devices are files to a client. */
	if (!S_ISREG(st.mode) && !S_ISDIR(st.mode))
		return -ENOENT;
	if (dos && xlen)
		has_da = !ksmbd_dosattr_decode(ds->xattr, xlen, &da);
	writable = ksmbd_attrs_writable(fp->tree_flags & KSMBD_FILE_TREE_RO_XATTR,
					st.mode, has_da ? &da : NULL);
	ksmbd_fattr_from_kstat(&st, ksmbd_dos_attrs(S_ISDIR(st.mode), writable,
						    hide, has_da ? &da : NULL),
			       has_da ? &da : NULL, a);
	ksmbd_inode_apply_times(&st, a);
	return 0;
}

static int dot_attrs(struct ksmbd_file *fp, bool dotdot, struct ksmbd_fattr *a)
{
	struct kstat st;
	int ret;

	ret = dotdot ? ksmbd_vfs_parent_stat(fp, &st) :
		       ksmbd_vfs_getattr(fp, &st);
	if (ret)
		return ret;
	ksmbd_fattr_from_kstat(&st, ksmbd_dos_attrs(true, true, false, NULL),
			       NULL, a);
	return 0;
}

/*
 * Room for end bytes of entries (at most the client's limit): the window
 * starts small and doubles, so a short listing never holds the client's
 * whole OutputBufferLength, and a long one copies what it has O(log n)
 * times. False when the limit or the frame does not allow it.
 */
static bool room_for(struct qdir_out *o, u32 end)
{
	struct ksmbd_wbuf *body = &o->ctx->body;
	u32 want;

	if (end <= o->w.cap)
		return true;
	if (end > o->limit)
		return false;
	want = min(o->limit, max(end, 2 * o->w.cap));
	if (!ksmbd_smb2_body_room(o->ctx, o->base + o->w.len,
				  want - o->w.len))
		return false;
	o->w.p = body->p + o->base;
	o->w.cap = min(o->limit, body->cap - o->base);
	return end <= o->w.cap;
}

/* Append one entry, 8-aligned after the previous; false when it does not fit. */
static bool put_entry(struct qdir_out *o, u8 cls, const struct ksmbd_fattr *a,
		      const u8 *name16, u32 len16)
{
	u32 at = o->count ? ALIGN(o->w.len, 8) : 0;

	if (!room_for(o, at + ksmbd_dirent_size(cls, len16))) {
		o->full = true;
		return false;
	}
	ksmbd_wbuf_pad(&o->w, 8);
	if (ksmbd_dirent_put(&o->w, cls, a, name16, len16)) {
		o->full = true;
		return false;
	}
	if (o->count)
		put_unaligned_le32(at - o->last, o->w.p + o->last);
	o->last = at;
	o->count++;
	return true;
}

/*
 * Offer name: 1 when returned, 0 when skipped, -ENOSPC when it did not fit
 * (the caller keeps it for the next request).
 */
static int offer(struct ksmbd_file *fp, struct dir_state *ds,
		 struct qdir_out *o, u8 cls, const char *name, u32 len,
		 int dot)
{
	struct ksmbd_fattr a;
	int n16, ret;

	if (!ksmbd_pattern_match(ds->pat, name, len))
		return 0;
	if (dot < 0 && vetoed(fp, name))
		return 0;
	if (dot < 0 && o->tok && !ksmbd_sd_child_listed(fp, name, len, o->tok))
		return 0;
	n16 = ksmbd_utf8_to_utf16(name, len, ds->name16, sizeof(ds->name16));
	if (n16 <= 0)
		return 0;	/* not UTF-8: no name a client could use */
	ret = dot >= 0 ? dot_attrs(fp, dot, &a) :
			 entry_attrs(fp, ds, name, len, &a);
	if (ret)
		return 0;
	/* FileBoth*: the 8.3 name of a long name; none for an 8.3 one */
	if (dot < 0 && !ksmbd_name_is_8dot3(name, len))
		ksmbd_short_name(name, len, a.short_name);
	ds->matched = true;
	return put_entry(o, cls, &a, ds->name16, n16) ? 1 : -ENOSPC;
}

/* Fill o from the cursor; stops when full, at the end, or after one entry. */
static int enumerate(struct ksmbd_file *fp, struct dir_state *ds,
		     struct qdir_out *o, const struct ksmbd_query_dir_req *q)
{
	bool single = q->flags & SMB2_RETURN_SINGLE_ENTRY;
	int ret;

	if (ds->dot_pending) {
		ret = offer(fp, ds, o, q->info_class, ".", 1, 0);
		if (ret == -ENOSPC)
			return 0;
		ds->dot_pending = false;
		if (ret && single)
			return 0;
	}
	if (ds->dotdot_pending) {
		ret = offer(fp, ds, o, q->info_class, "..", 2, 1);
		if (ret == -ENOSPC)
			return 0;
		ds->dotdot_pending = false;
		if (ret && single)
			return 0;
	}
	for (;;) {
		const struct dir_name *n;

		if (ds->pos >= ds->len) {
			if (ds->eof)
				return 0;
			ret = refill(fp, ds);
			if (ret)
				return ret;
			continue;
		}
		n = (const void *)(ds->buf + ds->pos);
		ret = offer(fp, ds, o, q->info_class, (const char *)(n + 1),
			    n->len, -1);
		if (ret == -ENOSPC)
			return 0;
		ds->pos += sizeof(*n) + n->len + 1;
		if (ret && single)
			return 0;
	}
}

/* ---- The handler ---- */

static u32 query_dir(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
		     const struct ksmbd_query_dir_req *q, struct qdir_out *o)
{
	struct dir_state *ds = fp->dir_state;
	int ret;

	if (!ds) {
		ds = kvzalloc(sizeof(*ds), GFP_KERNEL);
		if (!ds)
			return STATUS_NO_MEMORY;
		fp->dir_state = ds;
		fp->dir_state_free = dir_state_free;
	}
	if (!ds->pat || (q->flags & (SMB2_RESTART_SCANS | SMB2_REOPEN))) {
		ret = scan_begin(fp, ds, &q->pattern);
		if (ret == -EILSEQ || ret == -ENAMETOOLONG || ret == -EINVAL)
			return STATUS_OBJECT_NAME_INVALID;
		if (ret)
			return ksmbd_ntstatus_from_errno(ret);
	}
	ret = enumerate(fp, ds, o, q);
	if (ret)
		return ksmbd_ntstatus_from_errno(ret);
	if (o->count) {
		ds->first = false;
		return STATUS_SUCCESS;
	}
	if (o->full)
		return STATUS_INFO_LENGTH_MISMATCH;
	/* MS-SMB2 3.3.5.18: nothing at all on the first request of a scan */
	if (ds->first && !ds->matched) {
		ds->first = false;
		return STATUS_NO_SUCH_FILE;
	}
	return STATUS_NO_MORE_FILES;
}

static u32 check_handle(const struct ksmbd_file *fp,
			const struct ksmbd_query_dir_req *q)
{
	if (fp->kind != KSMBD_FILE_DIRECTORY || !fp->filp || !fp->tree)
		return STATUS_INVALID_PARAMETER;
	if (!(fp->daccess & FILE_READ_DATA))	/* FILE_LIST_DIRECTORY */
		return STATUS_ACCESS_DENIED;
	if (!ksmbd_dirent_class_ok(q->info_class))
		return STATUS_INVALID_INFO_CLASS;
	if (!q->output_len)
		return STATUS_INVALID_PARAMETER;
	return STATUS_SUCCESS;
}

enum ksmbd_smb2_verdict ksmbd_smb2_query_dir(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_wbuf *body = &ctx->body;
	struct ksmbd_file *fp;
	struct qdir_out o = { .ctx = ctx };
	struct ksmbd_query_dir_req q;
	struct ksmbd_token tok;
	u32 hdr_at;

	if (ksmbd_query_dir_decode(ctx->req, &q)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	fp = ksmbd_file_lookup(ksmbd_smb2_caller(ctx), q.pid, q.vid);
	if (!fp) {
		ctx->status = STATUS_FILE_CLOSED;
		return KSMBD_SMB2_REPLY;
	}
	ctx->status = check_handle(fp, &q);
	if (ctx->status != STATUS_SUCCESS)
		goto out_put;
	hdr_at = body->len;
	if (!ksmbd_wbuf_reserve(body, SMB2_OUTPUT_BUFFER_RSP_SIZE - 1)) {
		ctx->status = STATUS_INSUFFICIENT_RESOURCES;
		goto out_put;
	}
	o.base = body->len;
	o.limit = q.output_len;
	o.w = ksmbd_wbuf_make(body->p + o.base, min(o.limit, body->cap - o.base));
	if (ksmbd_share_has(fp->tree->share, KSMBD_SHARE_FLAG_HIDE_UNREADABLE)) {
		if (ksmbd_token_build(fp->cred, fp->tree, &tok)) {
			ctx->status = STATUS_NO_MEMORY;
			goto out_put;
		}
		o.tok = &tok;
	}
	mutex_lock(&fp->dir_lock);
	ctx->status = query_dir(ctx, fp, &q, &o);
	mutex_unlock(&fp->dir_lock);
	if (o.tok)
		ksmbd_token_free(o.tok);
	trace_ksmbd_vfs_readdir(ctx->conn, fp, o.count, o.w.len, ctx->status);
	if (ctx->status != STATUS_SUCCESS) {
		body->len = 0;
		goto out_put;
	}
	/* Raw: o.w wrote these bytes in place (its reserves zeroed them). */
	ksmbd_wbuf_reserve_raw(body, o.w.len);
	ksmbd_output_rsp_set(body->p + hdr_at, o.w.len);
out_put:
	ksmbd_file_put(fp);
	return KSMBD_SMB2_REPLY;
}
