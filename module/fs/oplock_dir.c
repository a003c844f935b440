// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Directory leases (MS-SMB2 3.3.5.9.11, 3.3.4.7; MS-FSA 2.1.4.13): an
 * SMB 3.x client that negotiated SMB2_GLOBAL_CAP_DIRECTORY_LEASING may
 * hold a lease v2 on a directory, with read and handle caching at most
 * (it caches the listing and the handle, never writes). The lease is an
 * ordinary owner of the break engine (oplock.c) on the directory's inode;
 * what is particular to directories lives here:
 *
 *  - the grant: v2 lease contexts only, W taken off (v1 contexts and
 *    oplocks on directories get nothing, as before);
 *  - the breaks: a change of one of its entries breaks the directory's
 *    leases to none (an acknowledgement is due when H is lost), without
 *    holding the operation back, except the lease whose key is the
 *    changing open's ParentLeaseKey (2.2.13.2.10): the client that made
 *    the change knows it. SMB changes call in here from the operations
 *    (create, overwrite, delete at close, rename and link, attributes
 *    set, a written handle's close);
 *  - local processes on the server: every leased directory has one
 *    fsnotify inode mark of ours (shared by its leases, counted under
 *    marks_lock), for entries created, deleted and moved and for its
 *    children's attribute and data changes. The handler runs inside the
 *    changing operation (directory locks held): it only queues the
 *    mark's work, at most once until that work runs, so an event costs
 *    a bit test, however busy the directory. Events made by ksmbd's own
 *    requests (work items of this module) are skipped: those break
 *    through the operations above, with their ParentLeaseKey.
 *
 * Locking: marks_lock may be taken under ksmbd_owner_lock (a grant), never
 * the reverse; the handler takes no lock; the work takes owner_lock only.
 * A mark's memory goes in free_mark, after fsnotify's SRCU grace period
 * (no handler sees it any more) and once its work is done.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fsnotify_backend.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "caller.h"
#include "connection.h"
#include "file.h"
#include "oplock.h"
#include "oplock_internal.h"
#include "proto/smb2.h"
#include "work.h"

#define DIRLEASE_EVENTS	(FS_CREATE | FS_DELETE | FS_MOVED_FROM | FS_MOVED_TO | \
			 FS_ATTRIB | FS_MODIFY | FS_EVENT_ON_CHILD)

struct dir_mark {
	struct fsnotify_mark fsn;
	struct hlist_node node;		/* marks, by inode; under marks_lock */
	struct inode *inode;		/* a key only: never dereferenced */
	unsigned int users;		/* directory lease owners; marks_lock */
	struct work_struct work;
	unsigned long queued;		/* bit 0: the work is queued */
};

static DEFINE_MUTEX(marks_lock);
static DEFINE_HASHTABLE(marks, 6);
static struct fsnotify_group *group;
static atomic_t nr_dir_leases;

bool ksmbd_dirlease_any(void)
{
	return atomic_read(&nr_dir_leases) > 0;
}

bool ksmbd_dirlease_request(const struct ksmbd_caller *caller,
			    const struct ksmbd_oplock_req *rq,
			    struct ksmbd_oplock_req *out)
{
	if (!rq->lease || rq->version != 2 ||
	    !(caller->conn->neg.capabilities &
	      SMB2_GLOBAL_CAP_DIRECTORY_LEASING))
		return false;
	*out = *rq;
	out->state &= KSMBD_LEASE_R | KSMBD_LEASE_H;
	return true;
}

/* A local process changed an entry: break the directory's leases. */
static void mark_work(struct work_struct *w)
{
	struct dir_mark *m = container_of(w, struct dir_mark, work);

	clear_bit(0, &m->queued);
	ksmbd_oplock_break_parent(m->inode, NULL, NULL);
}

/* Is the changing task one of ours (a request or teardown work)? */
static bool ours(void)
{
	struct work_struct *w = current_work();

	return w && within_module((unsigned long)w->func, THIS_MODULE);
}

static int handle_event(struct fsnotify_group *g, u32 mask, const void *data,
			int data_type, struct inode *dir,
			const struct qstr *file_name, u32 cookie,
			struct fsnotify_iter_info *iter_info)
{
	struct fsnotify_mark *fsn;
	struct dir_mark *m;

	/*
	 * Entries made, removed or moved come on the directory's own mark;
	 * a child's attributes and data on its parent's (the child's own
	 * mark, if it is a leased directory too, is not about our entry).
	 * The directory's own changes are not its entries'.
	 */
	if (mask & (FS_CREATE | FS_DELETE | FS_MOVED_FROM | FS_MOVED_TO))
		fsn = dir && file_name ? fsnotify_iter_inode_mark(iter_info) :
					 NULL;
	else
		fsn = fsnotify_iter_parent_mark(iter_info);
	if (!fsn || ours())
		return 0;
	m = container_of(fsn, struct dir_mark, fsn);
	if (!test_and_set_bit(0, &m->queued))
		ksmbd_work_queue_plain(&m->work);
	return 0;
}

static void free_mark(struct fsnotify_mark *fsn)
{
	struct dir_mark *m = container_of(fsn, struct dir_mark, fsn);

	/* No handler runs any more: only a queued work can be left. */
	cancel_work_sync(&m->work);
	kfree(m);
}

static const struct fsnotify_ops dir_ops = {
	.handle_event = handle_event,
	.free_mark = free_mark,
};

/* Under marks_lock. */
static struct fsnotify_group *get_group(void)
{
	struct fsnotify_group *g;

	if (!group) {
		g = fsnotify_alloc_group(&dir_ops, 0);
		if (IS_ERR(g))
			return NULL;
		group = g;
	}
	return group;
}

int ksmbd_dirlease_watch(struct inode *dir)
{
	struct fsnotify_group *g;
	struct dir_mark *m;
	int ret = 0;

	mutex_lock(&marks_lock);
	hash_for_each_possible(marks, m, node, (unsigned long)dir) {
		if (m->inode == dir) {
			m->users++;
			goto out_count;
		}
	}
	g = get_group();
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!g || !m) {
		kfree(m);
		ret = -ENOMEM;
		goto out_unlock;
	}
	m->inode = dir;
	m->users = 1;
	INIT_WORK(&m->work, mark_work);
	fsnotify_init_mark(&m->fsn, g);
	m->fsn.mask = DIRLEASE_EVENTS;
	ret = fsnotify_add_inode_mark(&m->fsn, dir, 0);
	if (ret) {
		/* free_mark frees it. */
		fsnotify_put_mark(&m->fsn);
		pr_debug("no local change watch on a leased directory (%d)\n",
			 ret);
		goto out_unlock;
	}
	hash_add(marks, &m->node, (unsigned long)dir);
out_count:
	atomic_inc(&nr_dir_leases);
out_unlock:
	mutex_unlock(&marks_lock);
	return ret;
}

void ksmbd_dirlease_unwatch(struct inode *dir)
{
	struct dir_mark *m, *gone = NULL;

	mutex_lock(&marks_lock);
	hash_for_each_possible(marks, m, node, (unsigned long)dir) {
		if (m->inode != dir)
			continue;
		atomic_dec(&nr_dir_leases);
		if (!--m->users) {
			hash_del(&m->node);
			gone = m;
		}
		break;
	}
	mutex_unlock(&marks_lock);
	if (!gone)
		return;
	fsnotify_destroy_mark(&gone->fsn, gone->fsn.group);
	fsnotify_put_mark(&gone->fsn);
}

/* The open's ParentLeaseKey, or NULL. */
static const u8 *parent_key(const struct ksmbd_file *fp)
{
	return fp->has_parent_key ? fp->parent_key : NULL;
}

void ksmbd_dirlease_changed(struct inode *dir, const struct ksmbd_file *fp)
{
	if (dir && ksmbd_dirlease_any())
		ksmbd_oplock_break_parent(dir, fp->parent_guid, parent_key(fp));
}

void ksmbd_dirlease_entry_changed(const struct ksmbd_file *fp)
{
	struct dentry *parent;

	if (!fp->filp || !ksmbd_dirlease_any())
		return;
	parent = dget_parent(fp->filp->f_path.dentry);
	ksmbd_dirlease_changed(d_inode(parent), fp);
	dput(parent);
}

void ksmbd_dirlease_opened(const struct ksmbd_caller *caller,
			   struct ksmbd_file *fp,
			   const struct ksmbd_oplock_req *rq, bool new_data)
{
	if (rq->lease && rq->version == 2 &&
	    (rq->flags & KSMBD_LEASE_FLAG_PARENT_KEY_SET)) {
		fp->has_parent_key = true;
		memcpy(fp->parent_key, rq->parent_key, 16);
		memcpy(fp->parent_guid, caller->conn->neg.client_guid, 16);
	}
	/* A created or overwritten entry; a new stream is not one. */
	if (new_data && !fp->stream)
		ksmbd_dirlease_entry_changed(fp);
}

/*
 * The last put: an entry deleted on close, or one whose data or size
 * changed through the handle (its times change with it: Windows breaks
 * the parent's lease at this close, not at each WRITE; smbtorture's
 * smb2.lease.v2_request).
 */
static void dirlease_closed(struct ksmbd_file *fp, bool removed)
{
	if (fp->kind != KSMBD_FILE_PIPE && (removed || fp->entry_changed))
		ksmbd_dirlease_entry_changed(fp);
}

#define BELOW_MAX	16

struct below {
	struct dentry *dir;
	struct inode *found[BELOW_MAX];	/* counted */
	int n;
};

/* Under owner_lock: o caches handles of a directory below b->dir. */
static void collect_below(struct ksmbd_oplock *o, void *arg)
{
	struct below *b = arg;
	struct dentry *alias;
	bool below;
	int i;

	if (!o->dir || !(o->state & KSMBD_LEASE_H) || b->n == BELOW_MAX)
		return;
	for (i = 0; i < b->n; i++)
		if (b->found[i] == o->inode)
			return;
	/* The owner's handles pin the inode and a dentry of it. */
	alias = d_find_any_alias(o->inode);
	if (!alias)
		return;
	below = alias != b->dir && is_subdir(alias, b->dir);
	dput(alias);
	if (below) {
		ihold(o->inode);
		b->found[b->n++] = o->inode;
	}
}

int ksmbd_dirlease_break_below(struct ksmbd_caller *caller,
			       struct dentry *dir)
{
	struct below b = { .dir = dir };
	int i, ret = 0;

	if (!ksmbd_dirlease_any())
		return 0;
	mutex_lock(&ksmbd_owner_lock);
	ksmbd_oplock_for_each(collect_below, &b);
	mutex_unlock(&ksmbd_owner_lock);
	for (i = 0; i < b.n; i++) {
		if (!ret)
			ret = ksmbd_oplock_break_handles(caller, b.found[i]);
		iput(b.found[i]);
	}
	return ret ?: b.n;
}

struct ksmbd_file_hooks ksmbd_dirlease_file_hooks = {
	.closed = dirlease_closed,
};

void ksmbd_dirlease_exit(void)
{
	if (!group)
		return;
	/* Every lease is gone by now; let the free_mark calls run. */
	fsnotify_wait_marks_destroyed();
	fsnotify_put_group(group);
	group = NULL;
}
