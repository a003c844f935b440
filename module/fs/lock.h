/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Byte-range locks (MS-SMB2 3.3.5.14, MS-FSA 2.1.5.7): per inode, shared
 * by every open of the file, owned by one open each.
 *
 * Semantics, as Windows does them and smbtorture checks them:
 *  - a lock is [off, off + len); len 0 is a zero-byte lock at off, which
 *    conflicts only with a lock strictly containing off (s < off < e) and
 *    never with another zero-byte lock;
 *  - shared locks stack with shared locks; an open may stack a shared lock
 *    on its own exclusive one, never an exclusive on anything overlapping;
 *  - unlock needs the exact off/len of a lock of the same open; it takes
 *    an exclusive lock before a shared one;
 *  - READ conflicts with other opens' exclusive locks, WRITE with those
 *    and with every shared lock, the writer's own included.
 *
 * Granted locks also become POSIX record locks on the backing file, owned
 * by the open (rebuilt from its SMB locks after every change, since POSIX
 * merges one owner's ranges), so local processes and NFS see them, and SMB
 * locks fail against local ones. Not mapped: zero-byte locks (l_len 0
 * means "to EOF" in POSIX), bytes past OFFSET_MAX, and handles opened
 * without data access (O_PATH files carry no locks).
 *
 * Every lock and every waiter goes when its open closes
 * (ksmbd_lock_file_closed(), called from the file table on CLOSE, tree
 * disconnect, logoff, connection loss and the expiry of a disconnected
 * durable handle); waiters on other opens are retried whenever a lock
 * goes away.
 *
 * Bounds (ksmbd.conf): an open holds at most max_locks_per_handle locks,
 * all opens of a file together max_locks_per_file. A request that would
 * pass either takes none of its locks (-KSMBD_ENORESOURCES, answered
 * STATUS_INSUFFICIENT_RESOURCES); so is a waiting lock whose open or file
 * filled up meanwhile, once nothing conflicts with it any more. Counted
 * in locks_refused_per_handle and _file; the locks held in
 * byte_range_locks.
 */
#ifndef KSMBD_LOCK_H
#define KSMBD_LOCK_H

#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/rwsem.h>
#include <linux/types.h>

struct ksmbd_async;
struct ksmbd_file;
struct ksmbd_caller;

/*
 * One file's locks (lock.c), kept on file.c's share-mode entry of the
 * file (a stream's opens use their file's: locks are per inode) and
 * reached with ksmbd_file_lock_state(); guarded by its own sem.
 */
struct ksmbd_lock_file {
	/* READ/WRITE checks take it shared, changes exclusive */
	struct rw_semaphore sem;
	struct rb_root_cached locks;	/* interval tree of lock.c's brl */
	struct list_head waiters;	/* blocking locks, FIFO */
	/* written under sem; READ/WRITE skip sem while it is 0 */
	u32 nr_locks;
};

void ksmbd_lock_file_init(struct ksmbd_lock_file *lf);

struct ksmbd_lock_range {
	u64 off;
	u64 len;
	bool excl;
};

/* MS-SMB2 3.3.5.14.2: the last byte must fit in 64 bits. */
static inline bool ksmbd_lock_range_valid(u64 off, u64 len)
{
	return !len || off + (len - 1) >= off;
}

/*
 * Take all n locks or none: 0, -KSMBD_ELOCK_NOT_GRANTED on a conflict
 * (with an SMB lock or a local POSIX lock), -KSMBD_ENORESOURCES past a
 * bound or out of memory, -KSMBD_EFILE_CLOSED when fp was closed
 * meanwhile (proto/ksmbd_errno.h).
 */
int ksmbd_lock_acquire(struct ksmbd_file *fp, const struct ksmbd_lock_range *r,
		       u32 n);
/*
 * One lock that may wait: 0 when granted now; -EINPROGRESS when it waits,
 * with *async published (the caller answers STATUS_PENDING with it and owns
 * the reference); other errors as ksmbd_lock_acquire().
 */
int ksmbd_lock_acquire_wait(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			    const struct ksmbd_lock_range *r,
			    struct ksmbd_async **async);
/*
 * Remove one lock of fp with exactly this range: 0 or
 * -KSMBD_ERANGE_NOT_LOCKED.
 */
int ksmbd_lock_release(struct ksmbd_file *fp, u64 off, u64 len);
/* May fp read (or write) [off, off + len)? 0 or -EAGAIN. */
int ksmbd_lock_check_io(struct ksmbd_file *fp, u64 off, u64 len, bool write);
/*
 * fp left the file table: fail its waiters with STATUS_RANGE_NOT_LOCKED,
 * drop its locks, wake waiters of other opens. Idempotent.
 */
void ksmbd_lock_file_closed(struct ksmbd_file *fp);
/* For the file table (main.c registers it): the above, when a handle goes. */
extern struct ksmbd_file_hooks ksmbd_lock_file_hooks;

/* vfs_lock.c: a POSIX record lock (F_RDLCK/F_WRLCK/F_UNLCK) for owner. */
int ksmbd_vfs_posix_lock(struct ksmbd_file *fp, void *owner, u64 start,
			 u64 end, int type);

#endif
