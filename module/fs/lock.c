// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Byte-range locks and blocking-lock waiters (see lock.h).
 *
 * Where they live: each file's locks are in an interval tree of that
 * file's own state (struct ksmbd_lock_file, on file.c's share-mode entry
 * of the file), keyed by the bytes they cover, so a lock, an unlock or a
 * READ/WRITE check visits only the locks overlapping its range, and each
 * open also lists its own locks, so a close drops them without a search.
 * Files do not share a lock: a READ of one file never waits for a LOCK
 * on another.
 *
 * Locking: the file's rw_semaphore guards its tree, its waiter list, the
 * lock list and count of every open of the file and ksmbd_file.brl_closed.
 * READ/WRITE checks take it shared, everything that changes locks
 * exclusive. It is never held while a response is sent: grants and
 * failures found under it are collected on a local list and completed
 * after it is dropped. POSIX calls are made under it (F_SETLK does not
 * sleep on other lockers).
 *
 * A lock does not count a reference on its open: ksmbd_lock_file_closed()
 * removes every lock of an open before the open can be freed, and no lock
 * is added once brl_closed is set. A waiter does hold one, released with
 * its async request; the open's reference keeps the file's state alive.
 *
 * Bounds: an open holds at most max_locks_per_handle locks, a file at
 * most max_locks_per_file; a request that would pass either is refused
 * whole, before any of its locks is taken.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/interval_tree_generic.h>
#include <linux/slab.h>
#include "async.h"
#include "caller.h"
#include "connection.h"
#include "file.h"
#include "ksmbd_trace.h"
#include "lock.h"
#include "server.h"
#include "session.h"
#include "stats.h"
#include "tree.h"
#include "vfs.h"

struct brl {
	struct rb_node rb;		/* in ksmbd_lock_file.locks */
	u64 subtree_last;		/* the interval tree's */
	struct list_head fp_node;	/* on fp->brl_locks, oldest first */
	struct ksmbd_file *fp;		/* the owner; not counted (see above) */
	u64 off, len;
	bool excl;
};

struct lock_waiter {
	struct list_head node;		/* on lf->waiters, or a done list */
	struct ksmbd_lock_file *lf;
	struct ksmbd_file *fp;		/* counted */
	struct ksmbd_lock_range r;
	struct ksmbd_async *async;	/* not counted: it owns us */
	u32 status;			/* for a done list */
};

/*
 * The tree holds closed intervals; a zero-byte lock at off is [off, off].
 * That finds a superset of what overlap() says touches (it also finds a
 * zero-byte lock at a range's first byte), so every walk filters with it.
 */
static u64 range_last(u64 off, u64 len)
{
	if (!len)
		return off;
	return len - 1 > U64_MAX - off ? U64_MAX : off + (len - 1);
}

#define BRL_START(l)	((l)->off)
#define BRL_LAST(l)	range_last((l)->off, (l)->len)

INTERVAL_TREE_DEFINE(struct brl, rb, u64, subtree_last, BRL_START, BRL_LAST,
		     static, brl_tree)

#define for_each_brl_in(l, lf, s, e)					\
	for (l = brl_tree_iter_first(&(lf)->locks, s, e); l;		\
	     l = brl_tree_iter_next(l, s, e))

void ksmbd_lock_file_init(struct ksmbd_lock_file *lf)
{
	init_rwsem(&lf->sem);
	lf->locks = RB_ROOT_CACHED;
	INIT_LIST_HEAD(&lf->waiters);
	lf->nr_locks = 0;
}

/* Do [a, a+al) and [b, b+bl) touch, with zero-byte ranges as in lock.h? */
static bool overlap(u64 a, u64 al, u64 b, u64 bl)
{
	if (!al && !bl)
		return false;
	if (!al)
		return b < a && a <= range_last(b, bl);
	if (!bl)
		return a < b && b <= range_last(a, al);
	return a <= range_last(b, bl) && b <= range_last(a, al);
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

static bool any_conflict(struct ksmbd_lock_file *lf,
			 const struct ksmbd_file *fp,
			 const struct ksmbd_lock_range *r)
{
	struct brl *l;

	for_each_brl_in(l, lf, r->off, range_last(r->off, r->len))
		if (conflicts(l, fp, r))
			return true;
	return false;
}

/* Room for n more locks of fp? -KSMBD_ENORESOURCES, counted, if not. */
static int brl_room(struct ksmbd_lock_file *lf, struct ksmbd_file *fp, u32 n)
{
	if ((u64)fp->nr_brl + n >
	    READ_ONCE(ksmbd_server_conf.max_locks_per_handle)) {
		ksmbd_total_add(KSMBD_TOTAL_LOCKS_REFUSED_HANDLE, 1);
		return -KSMBD_ENORESOURCES;
	}
	if ((u64)lf->nr_locks + n >
	    READ_ONCE(ksmbd_server_conf.max_locks_per_file)) {
		ksmbd_total_add(KSMBD_TOTAL_LOCKS_REFUSED_FILE, 1);
		return -KSMBD_ENORESOURCES;
	}
	return 0;
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

static void posix_rebuild(struct ksmbd_lock_file *lf, struct ksmbd_file *fp,
			  u64 s, u64 e)
{
	struct brl *l;
	u64 ls, le;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for_each_brl_in(l, lf, s, e) {
			if (l->fp != fp || l->excl != (pass == 1) ||
			    !posix_span(fp, l->off, l->len, &ls, &le))
				continue;
			/* Held before the change: a local locker cannot have it. */
			ksmbd_vfs_posix_lock(fp, fp, max(ls, s), min(le, e),
					     l->excl ? F_WRLCK : F_RDLCK);
		}
	}
}

static void brl_free(struct ksmbd_lock_file *lf, struct brl *l, bool sync)
{
	struct ksmbd_file *fp = l->fp;
	u64 s, e;
	bool mapped = posix_span(fp, l->off, l->len, &s, &e);

	brl_tree_remove(l, &lf->locks);
	list_del(&l->fp_node);
	fp->nr_brl--;
	WRITE_ONCE(lf->nr_locks, lf->nr_locks - 1);
	ksmbd_live_dec(KSMBD_LIVE_LOCKS);
	kfree(l);
	if (!sync || !mapped)
		return;
	ksmbd_vfs_posix_lock(fp, fp, s, e, F_UNLCK);
	posix_rebuild(lf, fp, s, e);
}

/*
 * Add one lock known not to conflict with SMB locks and to fit the bounds;
 * -KSMBD_ELOCK_NOT_GRANTED when a POSIX lock holds the range.
 */
static struct brl *brl_add(struct ksmbd_lock_file *lf, struct ksmbd_file *fp,
			   const struct ksmbd_lock_range *r)
{
	struct brl *l;
	u64 s, e;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-KSMBD_ENORESOURCES);
	l->fp = fp;
	l->off = r->off;
	l->len = r->len;
	l->excl = r->excl;
	if (posix_span(fp, r->off, r->len, &s, &e)) {
		ret = ksmbd_vfs_posix_lock(fp, fp, s, e,
					   r->excl ? F_WRLCK : F_RDLCK);
		if (ret) {
			kfree(l);
			if (ret == -EACCES || ret == -EAGAIN)
				ret = -KSMBD_ELOCK_NOT_GRANTED;
			else if (ret == -ENOMEM || ret == -ENOLCK)
				ret = -KSMBD_ENORESOURCES;
			return ERR_PTR(ret);
		}
		/* A shared lock must not downgrade the open's exclusive ones. */
		if (!r->excl)
			posix_rebuild(lf, fp, s, e);
	}
	brl_tree_insert(l, &lf->locks);
	list_add_tail(&l->fp_node, &fp->brl_locks);
	fp->nr_brl++;
	WRITE_ONCE(lf->nr_locks, lf->nr_locks + 1);
	ksmbd_live_inc(KSMBD_LIVE_LOCKS);
	return l;
}

/* Under lf->sem: the n locks, all or none. */
static int acquire_locked(struct ksmbd_lock_file *lf, struct ksmbd_file *fp,
			  const struct ksmbd_lock_range *r, u32 n)
{
	struct brl *l;
	u32 i;
	int ret;

	ret = brl_room(lf, fp, n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (any_conflict(lf, fp, &r[i])) {
			ret = -KSMBD_ELOCK_NOT_GRANTED;
			break;
		}
		l = brl_add(lf, fp, &r[i]);
		if (IS_ERR(l)) {
			ret = PTR_ERR(l);
			break;
		}
	}
	if (!ret)
		return 0;
	/*
	 * MS-SMB2 3.3.5.14.2: undo what this request took, newest first;
	 * they are the last i of the open's list.
	 */
	while (i--)
		brl_free(lf, list_last_entry(&fp->brl_locks, struct brl,
					     fp_node), true);
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
			     name ? name : what, err, NULL, false);
	kfree(name);
}

int ksmbd_lock_acquire(struct ksmbd_file *fp, const struct ksmbd_lock_range *r,
		       u32 n)
{
	struct ksmbd_lock_file *lf = ksmbd_file_lock_state(fp);
	int ret = -KSMBD_EFILE_CLOSED;

	if (!lf)
		return -KSMBD_EFILE_CLOSED;
	down_write(&lf->sem);
	if (!fp->brl_closed)
		ret = acquire_locked(lf, fp, r, n);
	up_write(&lf->sem);
	trace_lock(fp, "lock", ret);
	return ret;
}

/*
 * Under lf->sem: grant every waiter that can go now, onto done; fail
 * those whose grant a bound forbids (their open or file filled up while
 * they waited).
 */
static void retry_waiters(struct ksmbd_lock_file *lf, struct list_head *done)
{
	struct lock_waiter *w, *tmp;
	struct brl *l;

	list_for_each_entry_safe(w, tmp, &lf->waiters, node) {
		if (any_conflict(lf, w->fp, &w->r))
			continue;
		if (brl_room(lf, w->fp, 1)) {
			list_del_init(&w->node);
			/* Else being cancelled: its cancel callback answers. */
			if (ksmbd_async_claim(w->async)) {
				w->status = STATUS_INSUFFICIENT_RESOURCES;
				list_add_tail(&w->node, done);
			}
			continue;
		}
		l = brl_add(lf, w->fp, &w->r);
		if (IS_ERR(l))
			continue;	/* a local lock, or no memory: keep waiting */
		if (!ksmbd_async_claim(w->async)) {
			/* Being cancelled: its cancel callback unhooks it. */
			brl_free(lf, l, true);
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

	down_write(&w->lf->sem);
	list_del_init(&w->node);
	up_write(&w->lf->sem);
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

static struct lock_waiter *waiter_alloc(struct ksmbd_caller *caller,
					struct ksmbd_lock_file *lf,
					struct ksmbd_file *fp,
					const struct ksmbd_lock_range *r)
{
	struct lock_waiter *w;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return NULL;
	INIT_LIST_HEAD(&w->node);
	ksmbd_file_get(fp);
	w->lf = lf;
	w->fp = fp;
	w->r = *r;
	w->async = ksmbd_caller_async_alloc(caller, &waiter_ops, w);
	if (!w->async) {
		ksmbd_file_put(fp);
		kfree(w);
		return NULL;
	}
	return w;
}

int ksmbd_lock_acquire_wait(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			    const struct ksmbd_lock_range *r,
			    struct ksmbd_async **async)
{
	struct ksmbd_lock_file *lf = ksmbd_file_lock_state(fp);
	struct lock_waiter *w;
	struct ksmbd_async *a;
	int ret = -KSMBD_EFILE_CLOSED;

	if (!lf)
		return -KSMBD_EFILE_CLOSED;
	w = waiter_alloc(caller, lf, fp, r);
	if (!w)
		return -KSMBD_ENORESOURCES;
	a = w->async;	/* w is a's from here on: gone with it */

	down_write(&lf->sem);
	if (!fp->brl_closed)
		ret = acquire_locked(lf, fp, r, 1);
	if (ret == -KSMBD_ELOCK_NOT_GRANTED) {
		ret = ksmbd_async_publish(a);
		if (!ret) {
			list_add_tail(&w->node, &lf->waiters);
			ret = -EINPROGRESS;
		} else if (ret == -EAGAIN || ret == -ENOMEM) {
			/* Too many pending, or no memory for one more. */
			ret = -KSMBD_ENORESOURCES;
		}
	}
	up_write(&lf->sem);
	trace_lock(fp, ret == -EINPROGRESS ? "lock pending" : "lock", ret);
	if (ret == -EINPROGRESS)
		*async = a;
	else
		ksmbd_async_put(a);
	return ret;
}

int ksmbd_lock_release(struct ksmbd_file *fp, u64 off, u64 len)
{
	struct ksmbd_lock_file *lf = ksmbd_file_lock_state(fp);
	struct brl *l, *found = NULL;
	LIST_HEAD(done);

	if (!lf)
		return -KSMBD_ERANGE_NOT_LOCKED;
	down_write(&lf->sem);
	/* An exclusive lock goes before a shared one on the same range. */
	for_each_brl_in(l, lf, off, range_last(off, len)) {
		if (l->fp != fp || l->off != off || l->len != len)
			continue;
		if (!found || (l->excl && !found->excl))
			found = l;
	}
	if (found) {
		brl_free(lf, found, true);
		retry_waiters(lf, &done);
	}
	up_write(&lf->sem);
	complete_done(&done);
	trace_lock(fp, "unlock", found ? 0 : -KSMBD_ERANGE_NOT_LOCKED);
	return found ? 0 : -KSMBD_ERANGE_NOT_LOCKED;
}

int ksmbd_lock_check_io(struct ksmbd_file *fp, u64 off, u64 len, bool write)
{
	struct ksmbd_lock_file *lf;
	struct brl *l;
	u64 last;
	int ret = 0;

	if (!len)
		return 0;
	lf = ksmbd_file_lock_state(fp);
	/* Unlocked files, the common case, pass without the semaphore. */
	if (!lf || !READ_ONCE(lf->nr_locks))
		return 0;
	last = range_last(off, len);
	down_read(&lf->sem);
	for_each_brl_in(l, lf, off, last) {
		/* Zero-byte locks stop no I/O. */
		if (!l->len)
			continue;
		if ((l->excl && l->fp != fp) || (write && !l->excl)) {
			ret = -EAGAIN;
			break;
		}
	}
	up_read(&lf->sem);
	return ret;
}

void ksmbd_lock_file_closed(struct ksmbd_file *fp)
{
	struct ksmbd_lock_file *lf = ksmbd_file_lock_state(fp);
	struct lock_waiter *w, *wtmp;
	struct brl *l, *ltmp;
	bool had_locks;
	LIST_HEAD(done);

	if (!lf)
		return;
	down_write(&lf->sem);
	fp->brl_closed = true;
	/* MS-SMB2 3.3.5.10 via smbtorture: a pending lock on a closed handle. */
	list_for_each_entry_safe(w, wtmp, &lf->waiters, node) {
		if (w->fp != fp || !ksmbd_async_claim(w->async))
			continue;
		w->status = STATUS_RANGE_NOT_LOCKED;
		list_move_tail(&w->node, &done);
	}
	had_locks = fp->nr_brl;
	list_for_each_entry_safe(l, ltmp, &fp->brl_locks, fp_node)
		brl_free(lf, l, false);
	/* Every POSIX lock of this open (all mirrors of its locks), at once. */
	if (had_locks && fp->filp && !(fp->filp->f_mode & FMODE_PATH))
		ksmbd_vfs_posix_lock(fp, fp, 0, OFFSET_MAX, F_UNLCK);
	if (had_locks)
		retry_waiters(lf, &done);
	up_write(&lf->sem);
	complete_done(&done);
}

struct ksmbd_file_hooks ksmbd_lock_file_hooks = {
	.unlisted = ksmbd_lock_file_closed,
};
