// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Local processes and SMB caching: while an owner (oplock.h) holds read
 * caching it also holds a kernel lease on the file, so that a local
 * process (or another server on the same files) that opens the file for
 * writing, truncates, renames, unlinks or changes its attributes breaks
 * the owner first, as the SMB client's own conflicting opens do.
 *
 * The lease is a read delegation (FL_DELEG, F_RDLCK) on the struct file
 * of the handle that got the owner, with a counted reference on that
 * file. A delegation, unlike an F_RDLCK lease, may be taken while the
 * file is open for writing (our own handles are), and it is broken by
 * the VFS's delegation breaks (unlink, rename, link, notify_change) as
 * well as by opens for writing and truncation. Write delegations do not
 * exist in 6.1 (and WARN), so local readers do not break write caching.
 *
 * How a break goes:
 *  - The breaker's context (lm_break, under the inode's flc_lock, may not
 *    sleep) only queues a work item with a counted inode. It keeps the
 *    lease, so the breaker waits (interruptibly, at most
 *    /proc/sys/fs/lease-break-time, 45 s) while the client is told.
 *  - The work breaks every owner of the inode to none and waits for the
 *    acknowledgements or the break timeout (35 s, under lease-break-time),
 *    as a conflicting SMB open does. An owner that loses read caching
 *    drops its lease (ksmbd_klease_drop(), from ksmbd_oplock_resolve()),
 *    which lets the breaker go on.
 *  - ksmbd's own operations never break these leases: they run in work
 *    items of this module (lm_breaker_owns_lease says so) and break SMB
 *    caching themselves, synchronously. Nothing here runs under a lock a
 *    breaker holds: VFS delegation breaks are retried without the inode
 *    locks (break_deleg_wait), and lease breaks on open and truncate are
 *    made before any lock is taken.
 *
 * Locking: take and drop run under ksmbd_owner_lock; the lease calls take
 * only the inode's flc_lock (and, to take a delegation, an inode trylock).
 * lm_break takes no lock of ours.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "oplock.h"
#include "oplock_internal.h"
#include "work.h"

struct klease_break {
	struct work_struct work;
	struct inode *inode;		/* counted */
};

static void klease_break_work(struct work_struct *w)
{
	struct klease_break *kb = container_of(w, struct klease_break, work);

	ksmbd_oplock_break_local(kb->inode);
	iput(kb->inode);
	kfree(kb);
}

/* Under the inode's flc_lock: don't sleep, keep the lease. */
static bool klease_lm_break(struct file_lock *fl)
{
	struct klease_break *kb;

	kb = kmalloc(sizeof(*kb), GFP_ATOMIC);
	if (!kb) {
		/* The breaker waits out lease-break-time instead. */
		pr_warn_ratelimited("no memory to break a lease for a local open\n");
		return false;
	}
	INIT_WORK(&kb->work, klease_break_work);
	kb->inode = file_inode(fl->fl_file);
	/* The file is open (it holds the lease), so the inode is live. */
	ihold(kb->inode);
	ksmbd_work_queue_plain(&kb->work);
	return false;
}

/* Is the breaker one of ours (a request or teardown work of this module)? */
static bool klease_breaker_owns(struct file_lock *fl)
{
	struct work_struct *w = current_work();

	return w && within_module((unsigned long)w->func, THIS_MODULE);
}

static int klease_change(struct file_lock *fl, int arg,
			 struct list_head *dispose)
{
	/* Only removals: a delegation is never downgraded in place. */
	if (arg != F_UNLCK)
		return -EAGAIN;
	return lease_modify(fl, arg, dispose);
}

static const struct lock_manager_operations klease_ops = {
	.lm_break = klease_lm_break,
	.lm_change = klease_change,
	.lm_breaker_owns_lease = klease_breaker_owns,
};

static int klease_set(struct file *filp, long arg, struct file_lock **fl,
		      void **priv)
{
	if (filp->f_op->setlease)
		return filp->f_op->setlease(filp, arg, fl, priv);
	return generic_setlease(filp, arg, fl, priv);
}

void ksmbd_klease_take(struct ksmbd_oplock *o, struct file *filp)
{
	struct file_lock *fl;
	void *owner = o;
	int ret;

	lockdep_assert_held(&ksmbd_owner_lock);
	/* Kernel leases only on opened files, not O_PATH ones (attributes only). */
	if (o->klease || !(o->state & KSMBD_LEASE_R) ||
	    (filp->f_mode & FMODE_PATH) ||
	    !S_ISREG(file_inode(filp)->i_mode))
		return;
	fl = locks_alloc_lock();
	if (!fl)
		return;
	fl->fl_flags = FL_DELEG;
	fl->fl_type = F_RDLCK;
	fl->fl_end = OFFSET_MAX;
	fl->fl_owner = (fl_owner_t)o;
	fl->fl_pid = current->tgid;
	fl->fl_file = filp;
	fl->fl_lmops = &klease_ops;
	/*
	 * Not vfs_setlease(): its owner/CAP_LEASE check is for user space.
	 * On success the lease takes fl; otherwise fl is still ours.
	 */
	ret = klease_set(filp, F_RDLCK, &fl, &owner);
	if (fl)
		locks_free_lock(fl);
	if (ret) {
		/* A file system without leases, or a conflict: no local breaks. */
		pr_debug("no kernel lease (%d)\n", ret);
		return;
	}
	o->klease = get_file(filp);
}

void ksmbd_klease_drop(struct ksmbd_oplock *o)
{
	struct file *filp = o->klease;
	void *owner = o;

	lockdep_assert_held(&ksmbd_owner_lock);
	if (!filp)
		return;
	o->klease = NULL;
	/* -EAGAIN when the kernel already removed it (lease-break-time). */
	klease_set(filp, F_UNLCK, NULL, &owner);
	fput(filp);
}
