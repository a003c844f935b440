// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CHANGE_NOTIFY (MS-SMB2 3.3.5.19, MS-FSA 2.1.5.10) on fsnotify.
 *
 * The first CHANGE_NOTIFY on a directory handle sets up a watch: an
 * fsnotify inode mark on the directory (its children's events), or for
 * SMB2_WATCH_TREE a mark on the whole file system filtered to what lies
 * beneath the directory. From then on changes matching the completion
 * filter are buffered on the watch until a request takes them; a request
 * that finds none waits (async, see async.h). Changes that do not fit
 * the request's OutputBufferLength, or overflow the buffer, answer
 * STATUS_NOTIFY_ENUM_DIR: the client re-reads the directory.
 *
 * Lifetime: a watch has its own count: the handle's (fp->notify, dropped
 * when the handle closes), the fsnotify mark's (dropped in free_mark, after
 * fsnotify's SRCU grace period, so the event handler never sees it freed)
 * and one per waiting request. Closing the handle marks the watch dead,
 * completes its waiting requests with STATUS_NOTIFY_CLEANUP, waits for its
 * work and detaches the mark.
 *
 * A watched directory that is deleted (a handle of a delete-pending
 * directory closes; for a tree watch also a local rmdir, which its sb
 * mark sees as the FS_DELETE of the directory's inode) marks the watch
 * gone: waiting and later requests answer
 * STATUS_DELETE_PENDING, as Windows does (smb2.notify.rmdir1-4). Live
 * watches sit on a list for that lookup, from creation to handle close.
 *
 * The event handler runs inside other file system operations (possibly
 * with directory locks held): it only records the change under a spinlock
 * (allocating with GFP_NOFS) and queues the watch's work, which answers
 * waiting requests from the ksmbd-io workqueue.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/dcache.h>
#include <linux/fsnotify_backend.h>
#include <linux/slab.h>
#include "async.h"
#include "create_rules.h"
#include "file.h"
#include "ksmbd_trace.h"
#include "proto/utf16.h"
#include "smb2_dispatch.h"
#include "stats.h"
#include "smb2_notify.h"
#include "work.h"

/* Buffered change bytes per watch before it overflows to ENUM_DIR. */
#define NOTIFY_BUF_MAX		(64 << 10)

/* MS-FSCC 2.4.42 / MS-SMB2 2.2.35 */
enum {
	NOTIFY_FILE_NAME	= 0x001,
	NOTIFY_DIR_NAME		= 0x002,
	NOTIFY_ATTRIBUTES	= 0x004,
	NOTIFY_SIZE		= 0x008,
	NOTIFY_LAST_WRITE	= 0x010,
	NOTIFY_LAST_ACCESS	= 0x020,
	NOTIFY_CREATION		= 0x040,
	NOTIFY_EA		= 0x080,
	NOTIFY_SECURITY		= 0x100,
	NOTIFY_ALL		= 0xfff,
};

enum {
	ACTION_ADDED = 1,
	ACTION_REMOVED,
	ACTION_MODIFIED,
	ACTION_RENAMED_OLD_NAME,
	ACTION_RENAMED_NEW_NAME,
};

#define NOTIFY_FS_MASK	(FS_CREATE | FS_DELETE | FS_MOVED_FROM | FS_MOVED_TO | \
			 FS_MODIFY | FS_ATTRIB)

struct notify_change {
	struct list_head node;
	u32 action;
	u32 name_len;			/* bytes of UTF-16LE */
	u8 name[];
};

struct notify_watch {
	refcount_t refs;
	spinlock_t lock;		/* everything below */
	bool dead;			/* the handle closed */
	bool overflow;			/* changes were lost: ENUM_DIR */
	bool tree;
	bool gone;			/* the directory was deleted */
	u32 filter;
	/*
	 * The first request's OutputBufferLength sizes the watch's buffer,
	 * as on Windows: when that was too small, every later request of
	 * the handle gets STATUS_NOTIFY_ENUM_DIR too.
	 */
	u32 cap;
	u64 fid;			/* the handle's volatile id, for traces */
	struct dentry *dir;		/* counted */
	struct list_head changes;	/* struct notify_change */
	u32 bytes;			/* encoded size of changes */
	struct list_head waiting;	/* struct notify_req, FIFO */
	struct work_struct work;
	struct notify_mark *mark;
	struct list_head node;		/* on watches, under watches_lock */
};

struct notify_mark {
	struct fsnotify_mark fsn;
	struct notify_watch *w;		/* counted */
};

struct notify_req {
	struct list_head node;		/* on w->waiting while it waits */
	struct notify_watch *w;		/* counted */
	u32 out_len;
	struct ksmbd_async *async;	/* owns us */
};

static DEFINE_MUTEX(group_lock);
static struct fsnotify_group *group;
static DEFINE_SPINLOCK(watches_lock);
static LIST_HEAD(watches);

static void watch_put(struct notify_watch *w)
{
	struct notify_change *c, *tmp;

	if (!refcount_dec_and_test(&w->refs))
		return;
	list_for_each_entry_safe(c, tmp, &w->changes, node)
		kfree(c);
	dput(w->dir);
	kfree(w);
}

/* Entry size in the response: FILE_NOTIFY_INFORMATION, 4-aligned. */
static u32 entry_size(u32 name_len)
{
	return ALIGN(12 + name_len, 4);
}

static void drop_changes(struct notify_watch *w)
{
	struct notify_change *c, *tmp;

	list_for_each_entry_safe(c, tmp, &w->changes, node) {
		list_del(&c->node);
		kfree(c);
	}
	w->bytes = 0;
}

/* ---- Event side ---- */

/* "sub/dir/name" beneath w->dir as UTF-16LE with '\'; NULL if outside. */
static struct notify_change *make_change(struct notify_watch *w,
					 struct dentry *parent,
					 const struct qstr *name, u32 action)
{
	char *pbuf, *wbuf, *p, *wp, *full;
	struct notify_change *c = NULL;
	size_t rel_len, wl;
	int n;

	pbuf = kmalloc(PATH_MAX * 3, GFP_NOFS);
	if (!pbuf)
		return ERR_PTR(-ENOMEM);
	wbuf = pbuf + PATH_MAX;
	full = wbuf + PATH_MAX;
	p = dentry_path_raw(parent, pbuf, PATH_MAX);
	wp = dentry_path_raw(w->dir, wbuf, PATH_MAX);
	if (IS_ERR(p) || IS_ERR(wp))
		goto out_free;
	wl = strlen(wp);
	if (!strcmp(wp, "/"))
		wl = 0;
	if (strncmp(p, wp, wl) || (p[wl] && p[wl] != '/'))
		goto out_free;		/* renamed out from under us meanwhile */
	p += wl;
	if (*p == '/')
		p++;
	rel_len = strlen(p);
	if (rel_len + 1 + name->len + 1 > PATH_MAX)
		goto out_free;
	memcpy(full, p, rel_len);
	if (rel_len)
		full[rel_len++] = '/';
	memcpy(full + rel_len, name->name, name->len);
	rel_len += name->len;
	for (n = 0; n < (int)rel_len; n++)
		if (full[n] == '/')
			full[n] = '\\';
	c = kmalloc(sizeof(*c) + 2 * rel_len + 2, GFP_NOFS);
	if (!c) {
		c = ERR_PTR(-ENOMEM);
		goto out_free;
	}
	n = ksmbd_utf8_to_utf16(full, rel_len, c->name, 2 * rel_len + 2);
	if (n < 0) {
		kfree(c);
		c = NULL;
		goto out_free;
	}
	c->name_len = n;
	c->action = action;
out_free:
	kfree(pbuf);
	return c;
}

static void record(struct notify_watch *w, struct notify_change *c)
{
	bool wake;

	spin_lock(&w->lock);
	if (w->dead) {
		spin_unlock(&w->lock);
		if (!IS_ERR_OR_NULL(c))
			kfree(c);
		return;
	}
	if (IS_ERR(c) || w->overflow ||
	    w->bytes + entry_size(c->name_len) > w->cap) {
		/* Lost a change: the client must re-read the directory. */
		w->overflow = true;
		drop_changes(w);
		if (!IS_ERR(c))
			kfree(c);
	} else {
		list_add_tail(&c->node, &w->changes);
		w->bytes += entry_size(c->name_len);
	}
	wake = !list_empty(&w->waiting);
	spin_unlock(&w->lock);
	if (wake)
		ksmbd_work_queue_plain(&w->work);
}

/* The watched directory was deleted: requests answer DELETE_PENDING. */
static void watch_gone(struct notify_watch *w)
{
	bool wake = false;

	spin_lock(&w->lock);
	if (!w->dead && !w->gone) {
		w->gone = true;
		drop_changes(w);
		wake = !list_empty(&w->waiting);
	}
	spin_unlock(&w->lock);
	if (wake)
		ksmbd_work_queue_plain(&w->work);
}

static void map_event(u32 mask, u32 *action, u32 *filter)
{
	u32 name_bit = (mask & FS_ISDIR) ? NOTIFY_DIR_NAME : NOTIFY_FILE_NAME;

	*action = 0;
	*filter = 0;
	if (mask & FS_CREATE) {
		*action = ACTION_ADDED;
		*filter = name_bit;
	} else if (mask & FS_DELETE) {
		*action = ACTION_REMOVED;
		*filter = name_bit;
	} else if (mask & FS_MOVED_FROM) {
		*action = ACTION_RENAMED_OLD_NAME;
		*filter = name_bit;
	} else if (mask & FS_MOVED_TO) {
		*action = ACTION_RENAMED_NEW_NAME;
		*filter = name_bit;
	} else if (mask & FS_MODIFY) {
		*action = ACTION_MODIFIED;
		*filter = NOTIFY_LAST_WRITE | NOTIFY_SIZE;
	} else if (mask & FS_ATTRIB) {
		*action = ACTION_MODIFIED;
		*filter = NOTIFY_ATTRIBUTES | NOTIFY_LAST_WRITE |
			  NOTIFY_LAST_ACCESS | NOTIFY_CREATION | NOTIFY_EA |
			  NOTIFY_SECURITY;
	}
}

/* One of our marks saw an event: does it concern its watch, and how? */
static void mark_event(struct notify_mark *m, u32 mask, const void *data,
		       int data_type, struct inode *dir,
		       const struct qstr *file_name)
{
	struct notify_watch *w = m->w;
	struct dentry *parent = NULL, *dentry;
	struct name_snapshot snap;
	const struct qstr *name = file_name;
	bool snapped = false;
	u32 action, filter;

	/* Each call is one watch looked at for one event. */
	ksmbd_total_add(KSMBD_TOTAL_NOTIFY_CHECKS, 1);
	map_event(mask, &action, &filter);
	if (!action || !(filter & READ_ONCE(w->filter)))
		return;
	if (dir && file_name) {
		parent = d_find_any_alias(dir);
	} else {
		dentry = fsnotify_data_dentry(data, data_type);
		if (!dentry || dentry == w->dir)
			return;
		parent = dget_parent(dentry);
		take_dentry_name_snapshot(&snap, dentry);
		snapped = true;
		name = &snap.name;
	}
	if (!parent)
		goto out;
	if (w->tree ? is_subdir(parent, w->dir) : parent == w->dir)
		record(w, make_change(w, parent, name, action));
out:
	if (snapped)
		release_dentry_name_snapshot(&snap);
	dput(parent);
}

/*
 * A tree watch's sb mark sees every dirent deletion: the watched directory
 * itself removed (a local rmdir) ends the watch. A plain watch's inode
 * mark gets no event for that while our handle pins the dentry (the
 * parent's mark would); SMB deletes reach it through the close hook.
 */
static bool dir_removed(struct notify_mark *m, u32 mask, const void *data,
			int data_type)
{
	struct inode *inode = fsnotify_data_inode(data, data_type);

	if (!(mask & FS_DELETE) || !(mask & FS_ISDIR) || !inode ||
	    d_inode(m->w->dir) != inode)
		return false;
	watch_gone(m->w);
	return true;
}

static int handle_event(struct fsnotify_group *g, u32 mask, const void *data,
			int data_type, struct inode *dir,
			const struct qstr *file_name, u32 cookie,
			struct fsnotify_iter_info *iter_info)
{
	struct fsnotify_mark *fsn;

	/*
	 * A directory's own mark: dirent events (create, delete, rename)
	 * come on it with the name; its children's other events come as
	 * the parent mark. Events on the marked inode itself have no name
	 * and are not changes inside it. A tree watch's mark is the sb's.
	 */
	fsn = fsnotify_iter_inode_mark(iter_info);
	if (fsn && dir && file_name)
		mark_event(container_of(fsn, struct notify_mark, fsn), mask,
			   data, data_type, dir, file_name);
	fsn = fsnotify_iter_parent_mark(iter_info);
	if (fsn)
		mark_event(container_of(fsn, struct notify_mark, fsn), mask,
			   data, data_type, dir, file_name);
	fsn = fsnotify_iter_sb_mark(iter_info);
	if (fsn && !dir_removed(container_of(fsn, struct notify_mark, fsn),
				mask, data, data_type))
		mark_event(container_of(fsn, struct notify_mark, fsn), mask,
			   data, data_type, dir, file_name);
	return 0;
}

static void free_mark(struct fsnotify_mark *fsn)
{
	struct notify_mark *m = container_of(fsn, struct notify_mark, fsn);

	watch_put(m->w);
	kfree(m);
}

static const struct fsnotify_ops notify_ops = {
	.handle_event = handle_event,
	.free_mark = free_mark,
};

static struct fsnotify_group *get_group(void)
{
	struct fsnotify_group *g;

	mutex_lock(&group_lock);
	if (!group) {
		/*
		 * DUPS: every handle's watch has its own mark, also when two
		 * handles watch the same directory (or two tree watches the
		 * same file system); without it the second add is -EEXIST.
		 */
		g = fsnotify_alloc_group(&notify_ops, FSNOTIFY_GROUP_DUPS);
		if (!IS_ERR(g))
			group = g;
	}
	g = group;
	mutex_unlock(&group_lock);
	return g;
}

/* ---- Request side ---- */

/*
 * The response body for what w holds (under w->lock): entries that fit
 * out_len, or an empty body and ENUM_DIR. Consumes the changes.
 */
static u32 take_changes(struct notify_watch *w, u32 out_len, u8 **body,
			u32 *body_len, u32 *actions)
{
	struct notify_change *c;
	u32 total = 0, at = 8, prev = 0;
	u8 *b;

	*body = NULL;
	*body_len = 0;
	*actions = 0;
	list_for_each_entry(c, &w->changes, node)
		total += entry_size(c->name_len);
	if (w->overflow || total > out_len) {
		w->overflow = false;
		drop_changes(w);
		return STATUS_NOTIFY_ENUM_DIR;
	}
	b = kzalloc(8 + total, GFP_ATOMIC);
	if (!b) {
		drop_changes(w);
		return STATUS_NOTIFY_ENUM_DIR;
	}
	put_unaligned_le16(9, b);
	put_unaligned_le16(SMB2_HEADER_SIZE + 8, b + 2);
	put_unaligned_le32(total, b + 4);
	list_for_each_entry(c, &w->changes, node) {
		if (at != 8)
			put_unaligned_le32(at - prev, b + prev);
		prev = at;
		put_unaligned_le32(c->action, b + at + 4);
		put_unaligned_le32(c->name_len, b + at + 8);
		memcpy(b + at + 12, c->name, c->name_len);
		at += entry_size(c->name_len);
		(*actions)++;
	}
	drop_changes(w);
	*body = b;
	*body_len = 8 + total;
	return STATUS_SUCCESS;
}

static bool has_news(const struct notify_watch *w)
{
	return w->gone || w->overflow || !list_empty(&w->changes);
}

/* Under w->lock: the answer for what w holds (see take_changes). */
static u32 watch_answer(struct notify_watch *w, u32 out_len, u8 **body,
			u32 *body_len, u32 *actions)
{
	if (w->gone) {
		*body = NULL;
		*body_len = 0;
		*actions = 0;
		return STATUS_DELETE_PENDING;
	}
	return take_changes(w, out_len, body, body_len, actions);
}

/* Answer waiting requests while there are changes for them. */
static void watch_work(struct work_struct *work)
{
	struct notify_watch *w = container_of(work, struct notify_watch, work);
	struct notify_req *r;
	u32 status, len, n;
	u8 *body;

	for (;;) {
		spin_lock(&w->lock);
		r = NULL;
		if (!w->dead && has_news(w))
			r = list_first_entry_or_null(&w->waiting,
						     struct notify_req, node);
		/* Claimed under w->lock: a failed claim is a cancel in flight. */
		while (r && !ksmbd_async_claim(r->async)) {
			list_del_init(&r->node);
			r = list_first_entry_or_null(&w->waiting,
						     struct notify_req, node);
		}
		if (!r) {
			spin_unlock(&w->lock);
			return;
		}
		list_del_init(&r->node);
		status = watch_answer(w, r->out_len, &body, &len, &n);
		spin_unlock(&w->lock);
		trace_ksmbd_notify_fire(r->async->conn->id,
					r->async->message_id, w->fid, status,
					n, len, true);
		ksmbd_async_complete(r->async, status, body, len);
		kfree(body);
	}
}

static u32 req_cancel(struct ksmbd_async *a)
{
	struct notify_req *r = a->priv;

	spin_lock(&r->w->lock);
	list_del_init(&r->node);
	spin_unlock(&r->w->lock);
	trace_ksmbd_notify_cancel(a->conn->id, a->message_id, r->w->fid,
				  STATUS_CANCELLED);
	return STATUS_CANCELLED;
}

static void req_release(struct ksmbd_async *a)
{
	struct notify_req *r = a->priv;

	watch_put(r->w);
	kfree(r);
}

static const struct ksmbd_async_ops req_ops = {
	.cancel = req_cancel,
	.release = req_release,
};

static struct notify_watch *watch_new(struct ksmbd_file *fp, bool tree,
				      u32 filter, u32 out_len)
{
	struct fsnotify_group *g = get_group();
	struct dentry *dir = fp->filp->f_path.dentry;
	struct notify_watch *w;
	struct notify_mark *m;
	int ret;

	if (IS_ERR_OR_NULL(g))
		return ERR_PTR(-ENOMEM);
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!w || !m) {
		kfree(w);
		kfree(m);
		return ERR_PTR(-ENOMEM);
	}
	refcount_set(&w->refs, 2);	/* the handle's and the mark's */
	spin_lock_init(&w->lock);
	INIT_LIST_HEAD(&w->changes);
	INIT_LIST_HEAD(&w->waiting);
	INIT_WORK(&w->work, watch_work);
	w->tree = tree;
	w->filter = filter;
	w->cap = min_t(u32, out_len, NOTIFY_BUF_MAX);
	w->fid = fp->volatile_id;
	w->dir = dget(dir);
	w->mark = m;
	m->w = w;
	fsnotify_init_mark(&m->fsn, g);
	m->fsn.mask = NOTIFY_FS_MASK | (tree ? 0 : FS_EVENT_ON_CHILD);
	if (tree)
		ret = fsnotify_add_mark(&m->fsn, &dir->d_sb->s_fsnotify_marks,
					FSNOTIFY_OBJ_TYPE_SB, 0, NULL);
	else
		ret = fsnotify_add_inode_mark(&m->fsn, d_inode(dir), 0);
	if (ret) {
		/* free_mark drops the mark's count; ours goes here. */
		fsnotify_put_mark(&m->fsn);
		watch_put(w);
		return ERR_PTR(ret);
	}
	spin_lock(&watches_lock);
	list_add(&w->node, &watches);
	spin_unlock(&watches_lock);
	return w;
}

/*
 * The handle's watch, made on first use (under fp->dir_lock). Like its
 * buffer size, the first request's completion filter and WATCH_TREE stay
 * with the handle until it closes, as on Windows (smb2.notify.mask-change,
 * smb2.notify.rec): later requests' are ignored. The first request's
 * filter must not be empty (raw, before unknown bits are dropped).
 */
static struct notify_watch *watch_of(struct ksmbd_file *fp, bool tree,
				     u32 raw_filter, u32 out_len)
{
	struct notify_watch *w = fp->notify;

	if (w)
		return w;
	if (fp->notify_closed)
		return ERR_PTR(-EBADF);
	if (!raw_filter)
		return ERR_PTR(-EINVAL);
	w = watch_new(fp, tree, raw_filter & NOTIFY_ALL, out_len);
	if (!IS_ERR(w))
		fp->notify = w;
	return w;
}

struct notify_req_in {
	u16 flags;
	u32 out_len;
	u64 pid, vid;
	u32 raw_filter;
};

static u32 notify_status(int err)
{
	if (err == -EBADF)
		return STATUS_FILE_CLOSED;
	if (err == -ENOMEM)
		return STATUS_INSUFFICIENT_RESOURCES;
	return ksmbd_ntstatus_from_errno(err);
}

/* Go async: the request waits on w for the next change. */
static void trace_cleanup(struct ksmbd_async *a, struct notify_watch *w)
{
	trace_ksmbd_notify_cancel(a->conn->id, a->message_id, w->fid,
				  STATUS_NOTIFY_CLEANUP);
}

static u32 wait_for_change(struct ksmbd_smb2_ctx *ctx, struct notify_watch *w,
			   u32 out_len)
{
	struct notify_req *r;
	struct ksmbd_async *a;
	bool news;

	/*
	 * Waiting mid-compound would hold the rest of the chain's answers
	 * back for as long as the directory stays quiet.
	 */
	if (ctx->mid_compound)
		return STATUS_INTERNAL_ERROR;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return STATUS_INSUFFICIENT_RESOURCES;
	INIT_LIST_HEAD(&r->node);
	refcount_inc(&w->refs);
	r->w = w;
	r->out_len = out_len;
	a = ksmbd_async_alloc(ctx, &req_ops, r);
	if (!a) {
		watch_put(w);
		kfree(r);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	r->async = a;
	if (ksmbd_async_publish(a)) {
		ksmbd_async_put(a);
		return STATUS_INSUFFICIENT_RESOURCES;
	}
	spin_lock(&w->lock);
	if (w->dead) {
		spin_unlock(&w->lock);
		/* Closed meanwhile: published, so it must complete. */
		if (ksmbd_async_claim(a)) {
			trace_cleanup(a, w);
			ksmbd_async_complete(a, STATUS_NOTIFY_CLEANUP, NULL, 0);
		}
	} else {
		list_add_tail(&r->node, &w->waiting);
		news = has_news(w);
		spin_unlock(&w->lock);
		trace_ksmbd_notify_arm(ctx->conn->id, a->message_id, w->fid,
				       READ_ONCE(w->filter), w->tree, out_len);
		if (news)
			ksmbd_work_queue_plain(&w->work);
	}
	ctx->async = a;
	return STATUS_PENDING;
}

static u32 do_notify(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
		     const struct notify_req_in *in, u8 **body, u32 *len)
{
	struct notify_watch *w;
	u32 st, n;

	if (fp->kind != KSMBD_FILE_DIRECTORY || !fp->filp)
		return STATUS_INVALID_PARAMETER;
	if (!(fp->daccess & FILE_READ_DATA))	/* FILE_LIST_DIRECTORY */
		return STATUS_ACCESS_DENIED;
	mutex_lock(&fp->dir_lock);
	w = watch_of(fp, in->flags & SMB2_WATCH_TREE, in->raw_filter,
		     in->out_len);
	if (IS_ERR(w)) {
		mutex_unlock(&fp->dir_lock);
		return notify_status(PTR_ERR(w));
	}
	spin_lock(&w->lock);
	if (has_news(w)) {
		st = watch_answer(w, in->out_len, body, len, &n);
		spin_unlock(&w->lock);
		trace_ksmbd_notify_fire(ctx->conn->id, ctx->req->hdr.message_id,
					w->fid, st, n, *len, false);
	} else {
		spin_unlock(&w->lock);
		st = wait_for_change(ctx, w, in->out_len);
	}
	mutex_unlock(&fp->dir_lock);
	return st;
}

enum ksmbd_smb2_verdict ksmbd_smb2_change_notify(struct ksmbd_smb2_ctx *ctx)
{
	const struct ksmbd_buf *b = &ctx->req->body;
	struct notify_req_in in = { };
	struct ksmbd_file *fp;
	u8 *body = NULL;
	u32 len = 0;

	ksmbd_buf_get_le16(b, 2, &in.flags);
	ksmbd_buf_get_le32(b, 4, &in.out_len);
	ksmbd_buf_get_le64(b, 8, &in.pid);
	ksmbd_buf_get_le64(b, 16, &in.vid);
	/*
	 * Bits past NOTIFY_ALL mean nothing and are ignored, as Windows
	 * does (smb2.notify.mask tries all 32): a watch left with none
	 * waits until it is cancelled or closed.
	 */
	ksmbd_buf_get_le32(b, 24, &in.raw_filter);
	fp = ksmbd_file_lookup(ctx, in.pid, in.vid);
	if (!fp) {
		ctx->status = STATUS_FILE_CLOSED;
		return KSMBD_SMB2_REPLY;
	}
	ctx->status = do_notify(ctx, fp, &in, &body, &len);
	ksmbd_file_put(fp);
	if (ctx->status == STATUS_SUCCESS && body)
		ksmbd_wbuf_put(&ctx->body, body, len);
	kfree(body);
	return KSMBD_SMB2_REPLY;
}

void ksmbd_notify_file_closed(struct ksmbd_file *fp)
{
	struct notify_watch *w;
	struct notify_req *r;

	if (fp->kind != KSMBD_FILE_DIRECTORY)
		return;
	mutex_lock(&fp->dir_lock);
	fp->notify_closed = true;
	w = fp->notify;
	fp->notify = NULL;
	mutex_unlock(&fp->dir_lock);
	if (!w)
		return;
	spin_lock(&watches_lock);
	list_del(&w->node);
	spin_unlock(&watches_lock);
	spin_lock(&w->lock);
	w->dead = true;
	spin_unlock(&w->lock);
	cancel_work_sync(&w->work);
	/* MS-SMB2 3.3.5.10: pending notifies end with NOTIFY_CLEANUP. */
	for (;;) {
		spin_lock(&w->lock);
		r = list_first_entry_or_null(&w->waiting, struct notify_req,
					     node);
		if (r)
			list_del_init(&r->node);
		spin_unlock(&w->lock);
		if (!r)
			break;
		if (ksmbd_async_claim(r->async)) {
			trace_cleanup(r->async, w);
			ksmbd_async_complete(r->async, STATUS_NOTIFY_CLEANUP,
					     NULL, 0);
		}
	}
	fsnotify_destroy_mark(&w->mark->fsn, w->mark->fsn.group);
	/* The mark's own count goes with free_mark; this is the handle's. */
	fsnotify_put_mark(&w->mark->fsn);
	watch_put(w);
}

/*
 * A handle of a delete-pending directory closed: the directory goes once
 * its handles do, so, as on Windows, pending and later requests of every
 * watch on it answer STATUS_DELETE_PENDING.
 */
void ksmbd_notify_dir_deleted(struct inode *inode)
{
	struct notify_watch *w;

	spin_lock(&watches_lock);
	list_for_each_entry(w, &watches, node)
		if (d_inode(w->dir) == inode)
			watch_gone(w);
	spin_unlock(&watches_lock);
}

void ksmbd_notify_exit(void)
{
	if (!group)
		return;
	/* Every handle is closed by now; let pending free_mark calls run. */
	fsnotify_wait_marks_destroyed();
	fsnotify_put_group(group);
	group = NULL;
}
