// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CHANGE_NOTIFY requests (MS-SMB2 3.3.5.19). The watch, its marks and
 * the fsnotify side are in smb2_notify_watch.c.
 *
 * The first CHANGE_NOTIFY on a directory handle sets up its watch; the
 * watch buffers changes between requests until the handle closes. A
 * request that finds none waits (async, see async.h). Changes that do
 * not fit the request's OutputBufferLength, or overflow the buffer,
 * answer STATUS_NOTIFY_ENUM_DIR: the client re-reads the directory.
 *
 * A session holds at most max_notify_watches_per_session watches (a
 * watch lives from the handle's first CHANGE_NOTIFY to its close, with or
 * without a request waiting, and holds a mark or an index entry all that
 * time); past it CHANGE_NOTIFY answers STATUS_INSUFFICIENT_RESOURCES.
 *
 * Lifetime: a watch has its own count: the handle's (fp->notify, dropped
 * when the handle closes), a plain watch's mark's and one per waiting
 * request. Closing the handle marks the watch dead (nothing queues its
 * work after that), completes its waiting requests with
 * STATUS_NOTIFY_CLEANUP, waits for its work and unhooks the watch.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/slab.h>
#include "async.h"
#include "create_rules.h"
#include "connection.h"
#include "file.h"
#include "ksmbd_trace.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "server.h"
#include "session.h"
#include "smb2_dispatch.h"
#include "smb2_notify.h"
#include "smb2_notify_int.h"
#include "stats.h"

struct notify_req {
	struct list_head node;		/* on w->waiting while it waits */
	struct notify_watch *w;		/* counted */
	u32 out_len;
	struct ksmbd_async *async;	/* owns us */
};

/*
 * The response body for what w holds (under w->lock): entries that fit
 * out_len, or an empty body and ENUM_DIR. Consumes the changes.
 */
static u32 take_changes(struct notify_watch *w, u32 out_len, u8 **body,
			u32 *body_len, u32 *actions)
{
	struct notify_change *c;
	struct ksmbd_wbuf out;
	u32 total = 0;
	u8 *b;

	*body = NULL;
	*body_len = 0;
	*actions = 0;
	list_for_each_entry(c, &w->changes, node)
		total += ksmbd_notify_info_size(c->name_len);
	if (w->overflow || total > out_len) {
		w->overflow = false;
		ksmbd_notify_drop_changes(w);
		return STATUS_NOTIFY_ENUM_DIR;
	}
	b = kzalloc(sizeof(struct smb2_change_notify_rsp) + total, GFP_ATOMIC);
	if (!b) {
		ksmbd_notify_drop_changes(w);
		return STATUS_NOTIFY_ENUM_DIR;
	}
	ksmbd_output_rsp_set(b, total);
	out = ksmbd_wbuf_make(b + sizeof(struct smb2_change_notify_rsp), total);
	list_for_each_entry(c, &w->changes, node) {
		ksmbd_notify_info_encode(&out, c->action, c->name, c->name_len,
					 list_is_last(&c->node, &w->changes));
		(*actions)++;
	}
	ksmbd_notify_drop_changes(w);
	*body = b;
	*body_len = sizeof(struct smb2_change_notify_rsp) + total;
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
				  STATUS_CANCELLED, 0, 0, false);
	return STATUS_CANCELLED;
}

static void req_release(struct ksmbd_async *a)
{
	struct notify_req *r = a->priv;

	ksmbd_notify_watch_put(r->w);
	kfree(r);
}

static const struct ksmbd_async_ops req_ops = {
	.cancel = req_cancel,
	.release = req_release,
};

/* One more watch for sess, unless it holds its share already. */
static bool sess_charge(struct ksmbd_session *sess)
{
	u32 max = READ_ONCE(ksmbd_server_conf.max_notify_watches_per_session);

	if (atomic_inc_return(&sess->nr_notify) > max) {
		atomic_dec(&sess->nr_notify);
		ksmbd_total_add(KSMBD_TOTAL_NOTIFY_REFUSED, 1);
		return false;
	}
	ksmbd_session_get(sess);
	ksmbd_live_inc(KSMBD_LIVE_NOTIFY_WATCHES);
	return true;
}

static void sess_uncharge(struct ksmbd_session *sess)
{
	ksmbd_live_dec(KSMBD_LIVE_NOTIFY_WATCHES);
	atomic_dec(&sess->nr_notify);
	ksmbd_session_put(sess);
}

static struct notify_watch *watch_new(struct ksmbd_session *sess,
				      struct ksmbd_file *fp, bool tree,
				      u32 filter, u32 out_len)
{
	struct dentry *dir = fp->filp->f_path.dentry;
	struct notify_watch *w;
	int ret;

	/* Out of memory or of the session's watches: one answer, no resources. */
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return ERR_PTR(-KSMBD_ENORESOURCES);
	if (!sess_charge(sess)) {
		kfree(w);
		return ERR_PTR(-KSMBD_ENORESOURCES);
	}
	refcount_set(&w->refs, 1);	/* the handle's */
	spin_lock_init(&w->lock);
	INIT_LIST_HEAD(&w->changes);
	INIT_LIST_HEAD(&w->waiting);
	INIT_WORK(&w->work, watch_work);
	w->tree = tree;
	w->filter = filter;
	w->cap = min_t(u32, out_len, NOTIFY_BUF_MAX);
	w->fid = fp->volatile_id;
	w->dir = dget(dir);
	w->inode = d_inode(dir);
	w->sess = sess;
	ret = ksmbd_notify_hook(w);
	if (ret) {
		sess_uncharge(sess);
		ksmbd_notify_watch_put(w);
		if (ret == -ENOMEM || ret == -EMFILE)
			ret = -KSMBD_ENORESOURCES;
		return ERR_PTR(ret);
	}
	/*
	 * A handle that closed delete-pending before the watch was in the
	 * index did not find it (smb2.notify.rmdir4 sends the CHANGE_NOTIFY
	 * and the rmdir at once); one closing from now on will.
	 */
	if (ksmbd_file_delete_pending(fp))
		ksmbd_notify_watch_gone(w);
	return w;
}

/*
 * The handle's watch, made on first use (under fp->dir_lock). Like its
 * buffer size, the first request's completion filter and WATCH_TREE stay
 * with the handle until it closes, as on Windows (smb2.notify.mask-change,
 * smb2.notify.rec): later requests' are ignored. The first request's
 * filter must not be empty (raw, before unknown bits are dropped).
 */
static struct notify_watch *watch_of(struct ksmbd_session *sess,
				     struct ksmbd_file *fp, bool tree,
				     u32 raw_filter, u32 out_len)
{
	struct notify_watch *w = fp->notify;

	if (w)
		return w;
	if (fp->notify_closed)
		return ERR_PTR(-KSMBD_EFILE_CLOSED);
	if (!raw_filter)
		return ERR_PTR(-EINVAL);
	w = watch_new(sess, fp, tree, raw_filter & NOTIFY_ALL, out_len);
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

/* Go async: the request waits on w for the next change. */
static void trace_cleanup(struct ksmbd_async *a, struct notify_watch *w)
{
	trace_ksmbd_notify_cancel(a->conn->id, a->message_id, w->fid,
				  STATUS_NOTIFY_CLEANUP, 0, 0, false);
}

static u32 wait_for_change(struct ksmbd_smb2_ctx *ctx, struct notify_watch *w,
			   u32 out_len)
{
	struct notify_req *r;
	struct ksmbd_async *a;

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
	a = ksmbd_smb2_async_alloc(ctx, &req_ops, r);
	if (!a) {
		ksmbd_notify_watch_put(w);
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
		if (has_news(w))
			ksmbd_notify_wake_locked(w);
		spin_unlock(&w->lock);
		trace_ksmbd_notify_arm(ctx->conn->id, a->message_id, w->fid,
				       READ_ONCE(w->filter), w->tree, out_len);
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
	w = watch_of(ctx->sess, fp, in->flags & SMB2_WATCH_TREE,
		     in->raw_filter, in->out_len);
	if (IS_ERR(w)) {
		mutex_unlock(&fp->dir_lock);
		return ksmbd_ntstatus_from_errno(PTR_ERR(w));
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
	struct notify_req_in in = { };
	struct ksmbd_notify_req rq;
	struct ksmbd_file *fp;
	u8 *body = NULL;
	u32 len = 0;

	if (ksmbd_notify_decode(ctx->req, &rq)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	in.flags = rq.flags;
	in.out_len = rq.output_len;
	in.pid = rq.pid;
	in.vid = rq.vid;
	/*
	 * Bits past NOTIFY_ALL mean nothing and are ignored, as Windows
	 * does (smb2.notify.mask tries all 32): a watch left with none
	 * waits until it is cancelled or closed.
	 */
	in.raw_filter = rq.completion_filter;
	fp = ksmbd_file_lookup(ksmbd_smb2_caller(ctx), in.pid, in.vid);
	if (!fp) {
		ctx->status = STATUS_FILE_CLOSED;
		return KSMBD_SMB2_REPLY;
	}
	ctx->status = do_notify(ctx, fp, &in, &body, &len);
	ksmbd_file_put(fp);
	if (ctx->status == STATUS_SUCCESS && body) {
		if (ksmbd_smb2_body_room(ctx, ctx->body.len, len))
			ksmbd_wbuf_put(&ctx->body, body, len);
		else
			ctx->status = STATUS_INSUFFICIENT_RESOURCES;
	}
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
	ksmbd_notify_unhook(w);
	sess_uncharge(w->sess);
	ksmbd_notify_watch_put(w);
}

/* A delete-pending directory's last handle went: its watches end. */
static void notify_released(struct ksmbd_file *fp, bool deleted)
{
	if (deleted && fp->kind == KSMBD_FILE_DIRECTORY && !fp->stream &&
	    fp->filp)
		ksmbd_notify_dir_deleted(file_inode(fp->filp));
}

struct ksmbd_file_hooks ksmbd_notify_file_hooks = {
	.unlisted = ksmbd_notify_file_closed,
	.released = notify_released,
};
