// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Byte-range locks and blocking-lock waiters (see lock.h).
 *
 * Locks: one mutex (brl_mutex) guards the per-inode table, every lock list,
 * every waiter list and ksmbd_file.brl_closed. It is never held while a
 * response is sent: grants and failures found under it are collected on a
 * local list and completed after it is dropped. POSIX calls are made
 * under it (F_SETLK does not sleep on other lockers).
 *
 * A lock does not count a reference on its open: ksmbd_lock_file_closed()
 * removes every lock of an open before the open can be freed, and no lock
 * is added once brl_closed is set. A waiter does hold one, released with
 * its async request.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/slab.h>
#include "async.h"
#include "connection.h"
#include "file.h"
#include "ksmbd_trace.h"
#include "lock.h"
#include "session.h"
#include "smb2_dispatch.h"
#include "tree.h"

struct lock_inode {
	struct hlist_node node;
	struct inode *inode;		/* pinned by the owning opens' files */
	struct list_head locks;		/* struct brl.node */
	struct list_head waiters;	/* struct lock_waiter.node, FIFO */
};

struct brl {
	struct list_head node;
	struct ksmbd_file *fp;		/* the owner; not counted (see above) */
	u64 off, len;
	bool excl;
};

struct lock_waiter {
	struct list_head node;		/* on lock_inode.waiters, or a done list */
	struct lock_inode *li;
	struct ksmbd_file *fp;		/* counted */
	struct ksmbd_lock_range r;
	struct ksmbd_async *async;	/* not counted: it owns us */
	u32 status;			/* for a done list */
};

static DEFINE_MUTEX(brl_mutex);
static DEFINE_HASHTABLE(brl_inodes, 7);
/* Inodes with locks or waiters: READ/WRITE skip the mutex when zero. */
static atomic_t nr_brl_inodes = ATOMIC_INIT(0);

static struct inode *fp_inode(struct ksmbd_file *fp)
{
	return fp->filp ? file_inode(fp->filp) : NULL;
}

static struct lock_inode *li_find(struct inode *inode)
{
	struct lock_inode *li;

	hash_for_each_possible(brl_inodes, li, node, (unsigned long)inode)
		if (li->inode == inode)
			return li;
	return NULL;
}

static struct lock_inode *li_get(struct inode *inode)
{
	struct lock_inode *li = li_find(inode);

	if (li)
		return li;
	li = kzalloc(sizeof(*li), GFP_KERNEL);
	if (!li)
		return NULL;
	li->inode = inode;
	INIT_LIST_HEAD(&li->locks);
	INIT_LIST_HEAD(&li->waiters);
	hash_add(brl_inodes, &li->node, (unsigned long)inode);
	atomic_inc(&nr_brl_inodes);
	return li;
}

static void li_put_if_idle(struct lock_inode *li)
{
	if (!li || !list_empty(&li->locks) || !list_empty(&li->waiters))
		return;
	hash_del(&li->node);
	atomic_dec(&nr_brl_inodes);
	kfree(li);
}

/* Do [a, a+al) and [b, b+bl) touch, with zero-byte ranges as in lock.h? */
static bool overlap(u64 a, u64 al, u64 b, u64 bl)
{
	if (!al && !bl)
		return false;
	if (!al)
		return b < a && a <= b + (bl - 1);
	if (!bl)
		return a < b && b <= a + (al - 1);
	return a <= b + (bl - 1) && b <= a + (al - 1);
}

static bool conflicts(const struct brl *l, const struct ksmbd_file *fp,
		      const struct ksmbd_lock_range *r)
{
	if (!l->excl && !r->excl)
		return false;
	/* A shared lock may stack on the same open's exclusive one. */
	if (l->fp == fp && !r->excl)
		return false;
	return overlap(l->off, l->len, r->off, r->len);
}

static bool any_conflict(struct lock_inode *li, const struct ksmbd_file *fp,
			 const struct ksmbd_lock_range *r)
{
	struct brl *l;

	list_for_each_entry(l, &li->locks, node)
		if (conflicts(l, fp, r))
			return true;
	return false;
}

/*
 * POSIX mirror. The owner of every POSIX lock is the open (fp), as a
 * POSIX owner can hold only one lock type per byte while SMB locks of one
 * open stack: after any change on [s, e] the open's POSIX locks there are
 * rebuilt from its SMB locks, shared ones first, exclusive ones over them.
 */
static bool posix_span(const struct ksmbd_file *fp, u64 off, u64 len,
		       u64 *s, u64 *e)
{
	struct file *f = fp->filp;

	if (!len || !f || (f->f_mode & FMODE_PATH) || off > OFFSET_MAX)
		return false;
	*s = off;
	*e = len - 1 > OFFSET_MAX - off ? OFFSET_MAX : off + len - 1;
	return true;
}

static void posix_rebuild(struct lock_inode *li, struct ksmbd_file *fp,
			  u64 s, u64 e)
{
	struct brl *l;
	u64 ls, le;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		list_for_each_entry(l, &li->locks, node) {
			if (l->fp != fp || l->excl != (pass == 1) ||
			    !posix_span(fp, l->off, l->len, &ls, &le) ||
			    le < s || ls > e)
				continue;
			/* Held before the change: a local locker cannot have it. */
			ksmbd_vfs_posix_lock(fp, fp, max(ls, s), min(le, e),
					     l->excl ? F_WRLCK : F_RDLCK);
		}
	}
}

static void brl_free(struct lock_inode *li, struct brl *l, bool sync)
{
	struct ksmbd_file *fp = l->fp;
	u64 s, e;
	bool mapped = posix_span(fp, l->off, l->len, &s, &e);

	list_del(&l->node);
	kfree(l);
	if (!sync || !mapped)
		return;
	ksmbd_vfs_posix_lock(fp, fp, s, e, F_UNLCK);
	posix_rebuild(li, fp, s, e);
}

/* Add one lock known not to conflict with SMB locks; -EAGAIN from POSIX. */
static int brl_add(struct lock_inode *li, struct ksmbd_file *fp,
		   const struct ksmbd_lock_range *r)
{
	struct brl *l;
	u64 s, e;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->fp = fp;
	l->off = r->off;
	l->len = r->len;
	l->excl = r->excl;
	if (posix_span(fp, r->off, r->len, &s, &e)) {
		ret = ksmbd_vfs_posix_lock(fp, fp, s, e,
					   r->excl ? F_WRLCK : F_RDLCK);
		if (ret) {
			kfree(l);
			return ret == -EAGAIN || ret == -EACCES ? -EAGAIN : ret;
		}
		/* A shared lock must not downgrade the open's exclusive ones. */
		if (!r->excl)
			posix_rebuild(li, fp, s, e);
	}
	list_add_tail(&l->node, &li->locks);
	return 0;
}

/* Under brl_mutex: the n locks, all or none. */
static int acquire_locked(struct lock_inode *li, struct ksmbd_file *fp,
			  const struct ksmbd_lock_range *r, u32 n)
{
	struct brl *l, *tmp;
	u32 i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		if (any_conflict(li, fp, &r[i])) {
			ret = -EAGAIN;
			break;
		}
		ret = brl_add(li, fp, &r[i]);
		if (ret)
			break;
	}
	if (!ret)
		return 0;
	/* MS-SMB2 3.3.5.14.2: undo what this request took, newest first. */
	while (i--) {
		list_for_each_entry_safe_reverse(l, tmp, &li->locks, node) {
			if (l->fp == fp && l->off == r[i].off &&
			    l->len == r[i].len && l->excl == r[i].excl) {
				brl_free(li, l, true);
				break;
			}
		}
	}
	return ret;
}

/* vfs_lock: what was asked, on which handle, and the errno it got. */
static void trace_lock(struct ksmbd_file *fp, const char *what, int err)
{
	char *name;

	if (!trace_ksmbd_vfs_lock_enabled())
		return;
	name = ksmbd_file_name_dup(fp, GFP_KERNEL);
	/* A disconnected durable handle has no tree: no connection. */
	trace_ksmbd_vfs_lock(fp->tree ? fp->tree->sess->conn : NULL, fp,
			     name ? name : what, err);
	kfree(name);
}

/* Under brl_mutex: the lock state of fp's inode, unless fp is closing. */
static int li_of_open_file(struct ksmbd_file *fp, struct inode *inode,
			   struct lock_inode **li)
{
	lockdep_assert_held(&brl_mutex);
	if (fp->brl_closed)
		return -EBADF;
	*li = li_get(inode);
	return *li ? 0 : -ENOMEM;
}

int ksmbd_lock_acquire(struct ksmbd_file *fp, const struct ksmbd_lock_range *r,
		       u32 n)
{
	struct inode *inode = fp_inode(fp);
	struct lock_inode *li;
	int ret;

	if (!inode)
		return -EBADF;
	mutex_lock(&brl_mutex);
	ret = li_of_open_file(fp, inode, &li);
	if (!ret) {
		ret = acquire_locked(li, fp, r, n);
		li_put_if_idle(li);
	}
	mutex_unlock(&brl_mutex);
	trace_lock(fp, "lock", ret);
	return ret;
}

/* Under brl_mutex: grant every waiter that can go now, onto done. */
static void retry_waiters(struct lock_inode *li, struct list_head *done)
{
	struct lock_waiter *w, *tmp;
	struct brl *l;

	list_for_each_entry_safe(w, tmp, &li->waiters, node) {
		if (any_conflict(li, w->fp, &w->r))
			continue;
		if (brl_add(li, w->fp, &w->r))
			continue;	/* a local lock, or no memory: keep waiting */
		if (!ksmbd_async_claim(w->async)) {
			/* Being cancelled: its cancel callback unhooks it. */
			l = list_last_entry(&li->locks, struct brl, node);
			brl_free(li, l, true);
			list_del_init(&w->node);
			continue;
		}
		w->status = STATUS_SUCCESS;
		list_move_tail(&w->node, done);
	}
}

static void complete_done(struct list_head *done)
{
	static const u8 lock_rsp[SMB2_SIMPLE_SIZE] = { SMB2_SIMPLE_SIZE, 0 };
	struct lock_waiter *w, *tmp;
	struct ksmbd_async *a;

	list_for_each_entry_safe(w, tmp, done, node) {
		list_del_init(&w->node);
		a = w->async;
		trace_lock(w->fp, "lock wait", w->status == STATUS_SUCCESS ?
			   0 : -ENOLCK);
		/* a may free w: nothing of w after this. */
		if (w->status == STATUS_SUCCESS)
			ksmbd_async_complete(a, w->status, lock_rsp,
					     sizeof(lock_rsp));
		else
			ksmbd_async_complete(a, w->status, NULL, 0);
	}
}

static u32 waiter_cancel(struct ksmbd_async *a)
{
	struct lock_waiter *w = a->priv;

	mutex_lock(&brl_mutex);
	if (!list_empty(&w->node)) {
		list_del_init(&w->node);
		li_put_if_idle(w->li);
	}
	mutex_unlock(&brl_mutex);
	return STATUS_CANCELLED;
}

static void waiter_release(struct ksmbd_async *a)
{
	struct lock_waiter *w = a->priv;

	if (!w)
		return;
	ksmbd_file_put(w->fp);
	kfree(w);
}

static const struct ksmbd_async_ops waiter_ops = {
	.cancel = waiter_cancel,
	.release = waiter_release,
};

int ksmbd_lock_acquire_wait(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
			    const struct ksmbd_lock_range *r,
			    struct ksmbd_async **async)
{
	struct inode *inode = fp_inode(fp);
	struct lock_waiter *w;
	struct lock_inode *li;
	struct ksmbd_async *a;
	int ret;

	if (!inode)
		return -EBADF;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	INIT_LIST_HEAD(&w->node);
	ksmbd_file_get(fp);
	w->fp = fp;
	w->r = *r;
	a = ksmbd_async_alloc(ctx, &waiter_ops, w);
	if (!a) {
		ksmbd_file_put(fp);
		kfree(w);
		return -ENOMEM;
	}
	w->async = a;

	mutex_lock(&brl_mutex);
	ret = li_of_open_file(fp, inode, &li);
	if (ret)
		goto out_unlock;
	ret = acquire_locked(li, fp, r, 1);
	if (ret == -EAGAIN) {
		ret = ksmbd_async_publish(a);
		if (!ret) {
			w->li = li;
			list_add_tail(&w->node, &li->waiters);
			ret = -EINPROGRESS;
		} else if (ret == -EAGAIN) {
			ret = -ENOMEM;	/* too many pending: no resources */
		}
	}
	li_put_if_idle(li);
out_unlock:
	mutex_unlock(&brl_mutex);
	trace_lock(fp, ret == -EINPROGRESS ? "lock pending" : "lock", ret);
	if (ret == -EINPROGRESS)
		*async = a;
	else
		ksmbd_async_put(a);
	return ret;
}

int ksmbd_lock_release(struct ksmbd_file *fp, u64 off, u64 len)
{
	struct inode *inode = fp_inode(fp);
	struct brl *l, *found = NULL;
	struct lock_inode *li;
	LIST_HEAD(done);

	if (!inode)
		return -ENOENT;
	mutex_lock(&brl_mutex);
	li = li_find(inode);
	if (li) {
		/* An exclusive lock goes before a shared one on the same range. */
		list_for_each_entry(l, &li->locks, node) {
			if (l->fp != fp || l->off != off || l->len != len)
				continue;
			if (!found || (l->excl && !found->excl))
				found = l;
		}
	}
	if (found) {
		brl_free(li, found, true);
		retry_waiters(li, &done);
		li_put_if_idle(li);
	}
	mutex_unlock(&brl_mutex);
	complete_done(&done);
	trace_lock(fp, "unlock", found ? 0 : -ENOENT);
	return found ? 0 : -ENOENT;
}

int ksmbd_lock_check_io(struct ksmbd_file *fp, u64 off, u64 len, bool write)
{
	struct inode *inode = fp_inode(fp);
	struct lock_inode *li;
	struct brl *l;
	int ret = 0;

	if (!len || !inode || !atomic_read(&nr_brl_inodes))
		return 0;
	mutex_lock(&brl_mutex);
	li = li_find(inode);
	if (li) {
		list_for_each_entry(l, &li->locks, node) {
			if (!l->len || !overlap(l->off, l->len, off, len))
				continue;
			if ((l->excl && l->fp != fp) || (write && !l->excl)) {
				ret = -EAGAIN;
				break;
			}
		}
	}
	mutex_unlock(&brl_mutex);
	return ret;
}

void ksmbd_lock_file_closed(struct ksmbd_file *fp)
{
	struct inode *inode = fp_inode(fp);
	struct lock_waiter *w, *wtmp;
	struct brl *l, *ltmp;
	struct lock_inode *li;
	LIST_HEAD(done);

	if (!inode)
		return;
	mutex_lock(&brl_mutex);
	fp->brl_closed = true;
	li = li_find(inode);
	if (!li)
		goto out_unlock;
	/* MS-SMB2 3.3.5.10 via smbtorture: a pending lock on a closed handle. */
	list_for_each_entry_safe(w, wtmp, &li->waiters, node) {
		if (w->fp != fp || !ksmbd_async_claim(w->async))
			continue;
		w->status = STATUS_RANGE_NOT_LOCKED;
		list_move_tail(&w->node, &done);
	}
	list_for_each_entry_safe(l, ltmp, &li->locks, node)
		if (l->fp == fp)
			brl_free(li, l, false);
	/* Every POSIX lock of this open, in one go. */
	if (fp->filp && !(fp->filp->f_mode & FMODE_PATH))
		ksmbd_vfs_posix_lock(fp, fp, 0, OFFSET_MAX, F_UNLCK);
	retry_waiters(li, &done);
	li_put_if_idle(li);
out_unlock:
	mutex_unlock(&brl_mutex);
	complete_done(&done);
}
