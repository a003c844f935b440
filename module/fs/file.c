// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The open-file table (see file.h); the per-inode share-mode entries are
 * in file_share.c.
 *
 * Locks: the id table's xa_lock guards membership; a handle in the table
 * always has the table's reference, so a lookup under that lock may take
 * another one. share_lock (file_share.c, a mutex) guards the share-mode
 * hash, each entry's list of opens and its delete-pending flag. Nothing
 * sleeps under the xa_lock; nothing takes the xa_lock under share_lock.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/atomic.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <linux/xattr.h>
#include "caller.h"
#include "connection.h"
#include "create_rules.h"
#include "durable_state.h"
#include "file.h"
#include "file_int.h"
#include "fileinfo.h"
#include "ipc.h"
#include "ksmbd_trace.h"
#include "server.h"
#include "session.h"
#include "vfs_cache.h"
#include "share.h"
#include "stats.h"
#include "tree.h"
#include "vfs_name.h"

static DEFINE_XARRAY_ALLOC1(files);
/* Registered at load, before any handle exists; read-only after. */
static LIST_HEAD(hooks);
static const struct ksmbd_file_store *store;
static const struct ksmbd_durable_policy *durable;
static u32 next_volatile;		/* cyclic hint, under the xa_lock */

/*
 * A reconnect that met a durable handle its old owner's teardown, the
 * scavenger or another reconnect still holds waits here for the holder
 * to let go (ksmbd_file_durable_wait()). durable_seq moves on every such
 * release, so a change after the reconnect looked is never missed.
 */
static DECLARE_WAIT_QUEUE_HEAD(durable_wq);
static atomic_t durable_seq = ATOMIC_INIT(0);

/* Files with replay_eligible set: the CreateGuid searches skip the scan. */
static atomic_t nr_replayable = ATOMIC_INIT(0);

static void end_replay(struct ksmbd_file *fp)
{
	if (READ_ONCE(fp->replay_eligible) && xchg(&fp->replay_eligible, false))
		atomic_dec(&nr_replayable);
}

static void durable_changed(void)
{
	atomic_inc(&durable_seq);
	/* Its barrier pairs with the one in wait_event()'s set_current_state. */
	if (wq_has_sleeper(&durable_wq))
		wake_up_all(&durable_wq);
}

bool ksmbd_tree_ro_in_xattr(const struct ksmbd_tree *tree)
{
	return ksmbd_share_has(tree->share, KSMBD_SHARE_FLAG_ACL_XATTR) &&
	       ksmbd_share_has(tree->share, KSMBD_SHARE_FLAG_STORE_DOS_ATTRS);
}

static u32 tree_flags_of(struct ksmbd_tree *tree)
{
	u32 flags = 0;

	if (ksmbd_tree_writable(tree))
		flags |= KSMBD_FILE_TREE_WRITABLE;
	if (ksmbd_share_has(tree->share, KSMBD_SHARE_FLAG_HIDE_DOT_FILES))
		flags |= KSMBD_FILE_TREE_HIDE_DOT;
	if (ksmbd_tree_ro_in_xattr(tree))
		flags |= KSMBD_FILE_TREE_RO_XATTR;
	return flags;
}

struct ksmbd_file *ksmbd_file_alloc(struct ksmbd_caller *caller,
				    enum ksmbd_file_kind kind)
{
	struct ksmbd_file *fp;
	int ret;

	fp = kzalloc(sizeof(*fp), GFP_KERNEL);
	if (!fp)
		return ERR_PTR(-ENOMEM);
	ret = ksmbd_file_charge(fp, caller);
	if (ret) {
		kfree(fp);
		return ERR_PTR(ret);
	}
	refcount_set(&fp->refs, 1);
	fp->kind = kind;
	fp->session_id = caller->sess->id;
	fp->tree_id = caller->tree->id;
	ksmbd_tree_get(caller->tree);
	fp->tree = caller->tree;
	fp->root = caller->tree->root;
	path_get(&fp->root);	/* a disconnected durable handle has no tree */
	fp->cred = get_cred(caller->tree->cred ?: caller->sess->cred);
	mutex_init(&fp->dir_lock);
	mutex_init(&fp->alloc_lock);
	spin_lock_init(&fp->name_lock);
	spin_lock_init(&fp->lock_seq_lock);
	spin_lock_init(&fp->chan_seq_lock);
	/* 3.3.5.9: the open starts with its CREATE's ChannelSequence. */
	fp->chan_seq = caller->channel_sequence;
	INIT_LIST_HEAD(&fp->ino_node);
	INIT_LIST_HEAD(&fp->brl_locks);
	fp->tree_flags = tree_flags_of(caller->tree);
	ksmbd_live_inc(KSMBD_LIVE_FILES);
	return fp;
}

void ksmbd_file_hooks_register(struct ksmbd_file_hooks *h)
{
	list_add_tail(&h->node, &hooks);
}

void ksmbd_file_store_register(const struct ksmbd_file_store *s)
{
	store = s;
}

void ksmbd_file_durable_policy(const struct ksmbd_durable_policy *p)
{
	durable = p;
}

void ksmbd_file_get(struct ksmbd_file *fp)
{
	refcount_inc(&fp->refs);
}

/* The last reference: nothing can find or use the handle any more. */
static void file_release(struct ksmbd_file *fp)
{
	struct ksmbd_file_hooks *h;
	bool pending;
	int remove, err = 0;

	/*
	 * A handle never published still holds its slots (a published one
	 * gave them back when it left the table): give them back before
	 * the tree, which holds the charged session, is put.
	 */
	ksmbd_file_uncharge(fp);
	if (fp->kind == KSMBD_FILE_PIPE && fp->pipe_id) {
		struct ksmbd_rpc_command *r;

		r = ksmbd_ipc_rpc_close(fp->pipe_id, fp->pipe_flags);
		if (!IS_ERR(r))
			kvfree(r);
		ksmbd_ipc_pipe_id_free(fp->pipe_id);
	}
	/*
	 * Share modes go before the caching owner: an open waiting for this
	 * owner's break to end checks the share modes again when it ends.
	 */
	remove = ksmbd_file_share_leave(fp, &pending);
	list_for_each_entry(h, &hooks, node)
		if (h->released)
			h->released(fp, pending);
	ksmbd_file_unreserve(fp);
	/* The file takes its streams with it. */
	if (remove & KSMBD_LEAVE_REMOVE_FILE)
		err = store->remove_file(fp);
	else if (remove & KSMBD_LEAVE_REMOVE_STREAM)
		err = store->remove(fp);
	if (err)
		pr_debug("delete on close of %s: %d\n", fp->name, err);
	list_for_each_entry(h, &hooks, node)
		if (h->closed)
			h->closed(fp, !err && (remove & KSMBD_LEAVE_REMOVE_FILE));
	if (fp->dir_state && fp->dir_state_free)
		fp->dir_state_free(fp->dir_state);
	if (fp->filp)
		fput(fp->filp);
	kfree(fp->name);
	kfree(fp->stream);
	put_cred(fp->cred);
	path_put(&fp->root);
	if (fp->tree)
		ksmbd_tree_put(fp->tree);
	kfree(fp->durable);
	end_replay(fp);
	ksmbd_live_dec(KSMBD_LIVE_FILES);
	kfree(fp);
}

void ksmbd_file_put(struct ksmbd_file *fp)
{
	bool durable;

	if (!fp)
		return;
	/* Read before the put: fp may be gone right after it. */
	durable = READ_ONCE(fp->durable);
	if (refcount_dec_and_test(&fp->refs))
		file_release(fp);
	else if (durable)
		durable_changed();	/* an orphan's last user may be done */
}

/*
 * The sweep of a teardown may have run between the CREATE's tree lookup
 * and our insert. Teardown marks the tree (test_and_set_bit: a full
 * barrier) before it sweeps the table under the xa_lock; we insert, then
 * look at the mark after a full barrier. So either the sweep finds the
 * handle or we see the mark, and then whoever erases the entry owns the
 * table's reference.
 */
static bool owner_alive(const struct ksmbd_file *fp)
{
	return ksmbd_tree_connected(fp->tree) &&
	       ksmbd_session_valid(fp->tree->sess);
}

/*
 * Out of the table (by whoever erased it): its slots go back, and what
 * waits on the handle (blocking locks, a CHANGE_NOTIFY) ends.
 */
static void unlisted(struct ksmbd_file *fp)
{
	struct ksmbd_file_hooks *h;

	ksmbd_file_uncharge(fp);
	list_for_each_entry(h, &hooks, node)
		if (h->unlisted)
			h->unlisted(fp);
	if (fp->durable)
		durable_changed();	/* a reconnect waiting for it gives up */
}

/* The entry is ours again unless a sweep took it first (true: it was). */
static bool take_back(struct ksmbd_file *fp, u32 id)
{
	bool ours;

	xa_lock(&files);
	ours = xa_load(&files, id) == fp;
	if (ours)
		__xa_erase(&files, id);
	xa_unlock(&files);
	if (!ours)
		return false;
	ksmbd_file_uncharge(fp);
	return true;
}

/*
 * The persistent half of a FileId: random, so that knowing the volatile
 * half (a small counter) and the ids of one's own handles reveals nothing
 * that would let one name another client's disconnected durable handle
 * (a DHnC carries only the FileId). 0 and all ones (the compound's "the
 * previous CREATE's") are never handed out.
 */
static u64 new_persistent_id(void)
{
	u64 id;

	do {
		id = get_random_u64();
	} while (!id || id == KSMBD_FILE_ID_COMPOUND);
	return id;
}

int ksmbd_file_publish(struct ksmbd_file *fp)
{
	u32 id;
	int ret;

	/* Set before the handle becomes visible: lookups compare it. */
	fp->persistent_id = new_persistent_id();
	ret = xa_alloc_cyclic(&files, &id, fp, XA_LIMIT(1, U32_MAX - 1),
			      &next_volatile, GFP_KERNEL);
	if (ret < 0)
		return ret == -EBUSY ? -EMFILE : ret;
	WRITE_ONCE(fp->volatile_id, id);
	smp_mb();	/* the insert before the look at the mark */
	if (owner_alive(fp))
		return 0;
	/*
	 * Torn down meanwhile. A sweep that took the entry drops the
	 * table's reference itself: give the caller one back, as on every
	 * other failure (the caller's own keeps fp alive here).
	 */
	if (!take_back(fp, id))
		ksmbd_file_get(fp);
	return -KSMBD_ENETNAME_DELETED;
}

/* The ids this element names: its own, or the compound's last CREATE's. */
static bool resolve_ids(struct ksmbd_caller *caller, u64 *pid, u64 *vid)
{
	if (*pid != KSMBD_FILE_ID_COMPOUND || *vid != KSMBD_FILE_ID_COMPOUND)
		return true;
	if (!(caller->flags & SMB2_FLAGS_RELATED_OPERATIONS) ||
	    !caller->cfid || !caller->cfid->valid)
		return false;
	*pid = caller->cfid->persistent;
	*vid = caller->cfid->volatile_id;
	return true;
}

static bool owned_by(const struct ksmbd_file *fp, struct ksmbd_caller *caller,
		     u64 pid)
{
	return fp->persistent_id == pid && fp->session_id == caller->sess->id &&
	       fp->tree_id == caller->tree->id;
}

/* Counted; any_tree: the caller's session's, whichever tree it is in. */
static struct ksmbd_file *lookup_ids(struct ksmbd_caller *caller, u64 pid,
				     u64 vid, bool any_tree)
{
	struct ksmbd_file *fp;

	if (!vid || vid >= U32_MAX)
		return NULL;
	xa_lock(&files);
	fp = xa_load(&files, (unsigned long)vid);
	if (fp && (any_tree ? fp->persistent_id == pid &&
			      fp->session_id == caller->sess->id :
			      owned_by(fp, caller, pid)))
		ksmbd_file_get(fp);
	else
		fp = NULL;
	xa_unlock(&files);
	return fp;
}

struct ksmbd_file *ksmbd_file_lookup(struct ksmbd_caller *caller,
				     u64 persistent_id, u64 volatile_id)
{
	struct ksmbd_file *fp;

	if (!resolve_ids(caller, &persistent_id, &volatile_id))
		return NULL;
	fp = lookup_ids(caller, persistent_id, volatile_id, false);
	/* Used since its CREATE: a replay of that makes a new open. */
	if (fp)
		end_replay(fp);
	return fp;
}

bool ksmbd_file_read_cached(u64 session_id, u64 persistent_id,
			    u64 volatile_id, u64 offset, u32 len)
{
	struct ksmbd_file *fp;
	bool cached = false;

	if (!volatile_id || volatile_id >= U32_MAX || offset > LLONG_MAX)
		return false;
	/* No reference: nothing here sleeps, and the table holds the handle. */
	xa_lock(&files);
	fp = xa_load(&files, (unsigned long)volatile_id);
	if (fp && fp->persistent_id == persistent_id &&
	    fp->session_id == session_id && fp->kind == KSMBD_FILE_REGULAR)
		cached = !fp->stream && fp->filp &&
			 ksmbd_vfs_range_cached(fp->filp, offset, len);
	xa_unlock(&files);
	return cached;
}

struct ksmbd_file *ksmbd_file_lookup_session(struct ksmbd_caller *caller,
					     u64 persistent_id,
					     u64 volatile_id)
{
	return lookup_ids(caller, persistent_id, volatile_id, true);
}

struct ksmbd_file *ksmbd_file_unpublish(struct ksmbd_caller *caller,
					u64 persistent_id, u64 volatile_id)
{
	struct ksmbd_file *fp;

	if (!resolve_ids(caller, &persistent_id, &volatile_id) ||
	    !volatile_id || volatile_id >= U32_MAX)
		return NULL;
	xa_lock(&files);
	fp = xa_load(&files, (unsigned long)volatile_id);
	if (fp && owned_by(fp, caller, persistent_id))
		__xa_erase(&files, (unsigned long)volatile_id);
	else
		fp = NULL;
	xa_unlock(&files);
	if (fp)
		unlisted(fp);
	return fp;
}

/*
 * Which handles a teardown hook closes. Compared under the xa_lock, where
 * every handle in the table is alive (it holds the table's reference).
 */
struct close_key {
	u64 session_id;
	u32 tree_id;
	bool whole_session;
	bool keep_durable;	/* the connection dropped: keep durable handles */
};

static bool key_match(const struct ksmbd_file *fp, const void *arg)
{
	const struct close_key *k = arg;

	return fp->session_id == k->session_id &&
	       (k->whole_session || fp->tree_id == k->tree_id);
}

/*
 * Under the xa_lock: leave fp in the table, disconnected, if it is a
 * durable handle that may outlive its connection (MS-SMB2 3.3.7.1).
 */
static bool keep_durable(struct ksmbd_file *fp)
{
	struct ksmbd_durable *d = fp->durable;

	if (!d || d->state != KSMBD_DH_S_ATTACHED || !durable->keep(fp))
		return false;
	d->old_session_id = fp->session_id;
	d->state = KSMBD_DH_S_ORPHAN;
	d->expires = jiffies + durable->timeout(fp);
	/* No lookup matches a handle without session and tree. */
	fp->session_id = 0;
	fp->tree_id = 0;
	/*
	 * It belongs to no session now: only the server's max open files
	 * holds it until a reconnect charges the session it joins.
	 */
	ksmbd_file_uncharge_session(fp);
	return true;
}

static void close_by_key(const struct close_key *k)
{
	struct ksmbd_file *fp;
	unsigned long index = 0;

	for (;;) {
		xa_lock(&files);
		fp = xa_find(&files, &index, ULONG_MAX, XA_PRESENT);
		while (fp && !key_match(fp, k)) {
			index++;
			fp = xa_find(&files, &index, ULONG_MAX, XA_PRESENT);
		}
		if (fp && k->keep_durable && keep_durable(fp)) {
			durable->disconnected(fp);
			xa_unlock(&files);
			durable_changed();
			index++;
			continue;
		}
		if (fp)
			__xa_erase(&files, index);
		xa_unlock(&files);
		if (!fp)
			return;
		unlisted(fp);
		ksmbd_file_put(fp);
		index++;
	}
}

void ksmbd_file_close_tree(struct ksmbd_tree *tree)
{
	struct close_key k = {
		.session_id = tree->sess->id,
		.tree_id = tree->id,
		.keep_durable = ksmbd_conn_exiting(tree->sess->conn) ||
				READ_ONCE(tree->sess->keep_durable),
	};

	close_by_key(&k);
}

void ksmbd_file_close_session(struct ksmbd_session *sess)
{
	struct close_key k = {
		.session_id = sess->id,
		.whole_session = true,
		.keep_durable = ksmbd_conn_exiting(sess->conn) ||
				READ_ONCE(sess->keep_durable),
	};

	close_by_key(&k);
}

char *ksmbd_file_name_dup(struct ksmbd_file *fp, gfp_t gfp)
{
	size_t len;
	char *copy;

	/* Names are at most PATH_MAX: copy under the lock without allocating. */
	spin_lock(&fp->name_lock);
	len = fp->name ? strlen(fp->name) : 0;
	spin_unlock(&fp->name_lock);
	for (;;) {
		copy = kmalloc(len + 1, gfp);
		if (!copy)
			return NULL;
		spin_lock(&fp->name_lock);
		if (!fp->name || strlen(fp->name) <= len) {
			strscpy(copy, fp->name ? fp->name : "", len + 1);
			spin_unlock(&fp->name_lock);
			return copy;
		}
		len = strlen(fp->name);
		spin_unlock(&fp->name_lock);
		kfree(copy);
	}
}

/*
 * The share-relative path as the file system spells it now: the open's
 * path less its share root's. A case-insensitive open may have spelled
 * it otherwise, and a local rename may have moved it since.
 */
static char *stored_path(struct ksmbd_file *fp, char *buf)
{
	char *root, *path;
	size_t rlen;

	if (!fp->filp || d_unlinked(fp->filp->f_path.dentry))
		return NULL;
	root = d_path(&fp->root, buf, PATH_MAX);
	path = d_path(&fp->filp->f_path, buf + PATH_MAX, PATH_MAX);
	if (IS_ERR(root) || IS_ERR(path))
		return NULL;
	rlen = strcmp(root, "/") ? strlen(root) : 0;
	if (strncmp(path, root, rlen) || (path[rlen] && path[rlen] != '/'))
		return NULL;
	return kstrdup(path[rlen] ? path + rlen + 1 : "", GFP_KERNEL);
}

char *ksmbd_file_stored_name(struct ksmbd_file *fp)
{
	char *buf = kmalloc(2 * PATH_MAX, GFP_KERNEL);
	char *name = NULL;

	if (buf)
		name = stored_path(fp, buf);
	kfree(buf);
	return name ?: ksmbd_file_name_dup(fp, GFP_KERNEL);
}

int ksmbd_file_name_set(struct ksmbd_file *fp, const char *name)
{
	char *fresh = kstrdup(name, GFP_KERNEL), *old;

	if (!fresh)
		return -ENOMEM;
	spin_lock(&fp->name_lock);
	old = fp->name;
	fp->name = fresh;
	spin_unlock(&fp->name_lock);
	kfree(old);
	return 0;
}

u32 ksmbd_file_dos_attrs(struct ksmbd_file *fp, const struct kstat *st)
{
	u32 attrs = 0;

	if (S_ISDIR(st->mode))
		attrs |= FILE_ATTRIBUTE_DIRECTORY;
	else if (!(st->mode & 0222) &&
		 !(fp->tree_flags & KSMBD_FILE_TREE_RO_XATTR))
		attrs |= FILE_ATTRIBUTE_READONLY;
	if (fp->tree_flags & KSMBD_FILE_TREE_HIDE_DOT) {
		spin_lock(&fp->name_lock);
		if (fp->name && ksmbd_name_last(fp->name)[0] == '.')
			attrs |= FILE_ATTRIBUTE_HIDDEN;
		spin_unlock(&fp->name_lock);
	}
	return attrs ? attrs : FILE_ATTRIBUTE_NORMAL;
}

/* Seconds from 1601-01-01 to 1970-01-01, in 100 ns units. */
#define KSMBD_FILETIME_UNIX_EPOCH	116444736000000000ULL

u64 ksmbd_time_to_filetime(struct timespec64 ts)
{
	return (u64)ts.tv_sec * 10000000 + ts.tv_nsec / 100 +
	       KSMBD_FILETIME_UNIX_EPOCH;
}

/* ---- Durable handles: the table's side (see durable.h) ---- */

bool ksmbd_file_durable_set(struct ksmbd_file *fp, struct ksmbd_durable *d)
{
	bool done = false;

	xa_lock(&files);
	if (!fp->durable) {
		d->state = KSMBD_DH_S_ATTACHED;
		fp->durable = d;
		done = true;
	}
	xa_unlock(&files);
	return done;
}

static bool disconnected(const struct ksmbd_file *fp)
{
	return fp->durable && (fp->durable->state == KSMBD_DH_S_ORPHAN ||
			       fp->durable->state == KSMBD_DH_S_DETACHED);
}

/*
 * Under the xa_lock: claim a disconnected handle, with a reference. An
 * orphan still used by a request of its dead connection can only be
 * claimed to be closed (busy_ok), not to be detached or reconnected.
 */
static bool claim_locked(struct ksmbd_file *fp, bool busy_ok)
{
	struct ksmbd_durable *d = fp->durable;

	if (!disconnected(fp))
		return false;
	if (!busy_ok && d->state == KSMBD_DH_S_ORPHAN &&
	    refcount_read(&fp->refs) != 1)
		return false;
	d->claimed_from = d->state;
	d->state = KSMBD_DH_S_BUSY;
	ksmbd_file_get(fp);
	return true;
}

struct ksmbd_file *ksmbd_file_durable_claim(u64 persistent_id,
					    u64 volatile_id, u64 *owner)
{
	struct ksmbd_file *fp;

	*owner = 0;
	if (!volatile_id || volatile_id >= U32_MAX)
		return ERR_PTR(-ENOENT);
	xa_lock(&files);
	fp = xa_load(&files, (unsigned long)volatile_id);
	if (!fp || fp->persistent_id != persistent_id || !fp->durable) {
		fp = ERR_PTR(-ENOENT);
	} else if (!claim_locked(fp, false)) {
		if (fp->durable->state == KSMBD_DH_S_ATTACHED) {
			*owner = fp->session_id;
			fp = ERR_PTR(-EISCONN);
		} else {
			/*
			 * An orphan a request of its dead connection still
			 * uses, or a handle claimed (BUSY) by the scavenger
			 * detaching it or by another reconnect: both let go
			 * soon, and the handle is still there to reclaim.
			 */
			fp = ERR_PTR(-EBUSY);
		}
	}
	xa_unlock(&files);
	return fp;
}

unsigned int ksmbd_file_durable_seq(void)
{
	return atomic_read(&durable_seq);
}

long ksmbd_file_durable_wait(unsigned int seen, long timeout)
{
	return wait_event_timeout(durable_wq,
				  atomic_read(&durable_seq) != seen, timeout);
}

void ksmbd_file_durable_unclaim(struct ksmbd_file *fp)
{
	xa_lock(&files);
	fp->durable->state = fp->durable->claimed_from;
	xa_unlock(&files);
	durable_changed();
	ksmbd_file_put(fp);
}

/*
 * A restored handle acts for the session and tree that reclaimed it: the
 * user's credentials as that session has them now (groups may have
 * changed, and it is the reconnecting logon that was authenticated) and
 * the tree's flags (the share may be read-only now). Claimed: nothing
 * else reads these of a disconnected handle.
 */
static void take_over(struct ksmbd_file *fp, struct ksmbd_caller *caller)
{
	const struct cred *old_cred = fp->cred;

	fp->cred = get_cred(caller->tree->cred ?: caller->sess->cred);
	put_cred(old_cred);
	fp->tree_flags = tree_flags_of(caller->tree);
}

void ksmbd_file_durable_attach(struct ksmbd_file *fp,
			       struct ksmbd_caller *caller)
{
	struct ksmbd_tree *old = fp->tree;

	/* An orphan reclaimed before it was detached: as detach does. */
	ksmbd_file_unreserve(fp);
	/* Claimed: nothing else reads fp->tree of a disconnected handle. */
	ksmbd_tree_get(caller->tree);
	fp->tree = caller->tree;
	take_over(fp, caller);
	xa_lock(&files);
	fp->session_id = caller->sess->id;
	fp->tree_id = caller->tree->id;
	fp->durable->state = KSMBD_DH_S_ATTACHED;
	xa_unlock(&files);
	durable_changed();
	if (old)
		ksmbd_tree_put(old);
	/* Torn down while we worked: its sweep may have missed fp. */
	if (!owner_alive(fp))
		ksmbd_file_close_tree(caller->tree);
}

void ksmbd_file_durable_close(struct ksmbd_file *fp, unsigned long index)
{
	bool ours;

	xa_lock(&files);
	ours = xa_load(&files, index) == fp;
	if (ours)
		__xa_erase(&files, index);
	xa_unlock(&files);
	if (ours) {
		unlisted(fp);
		ksmbd_file_put(fp);	/* the table's */
	}
	ksmbd_file_put(fp);		/* the claim's */
}

void ksmbd_file_durable_detach(struct ksmbd_file *fp)
{
	struct ksmbd_tree *old = fp->tree;

	/* Its reservation was its connection's: given back with it. */
	ksmbd_file_unreserve(fp);
	fp->tree = NULL;
	if (old)
		ksmbd_tree_put(old);
	xa_lock(&files);
	fp->durable->state = KSMBD_DH_S_DETACHED;
	xa_unlock(&files);
	durable_changed();
	ksmbd_file_put(fp);
}

struct ksmbd_file *
ksmbd_file_durable_next(unsigned long *index,
			enum ksmbd_durable_pick (*pick)(const struct ksmbd_file *fp,
							void *arg),
			void *arg, u32 *left)
{
	enum ksmbd_durable_pick p;
	struct ksmbd_file *fp;

	xa_lock(&files);
	for (fp = xa_find(&files, index, ULONG_MAX, XA_PRESENT); fp;
	     fp = xa_find_after(&files, index, ULONG_MAX, XA_PRESENT)) {
		if (!disconnected(fp)) {
			/* A failed reconnect gives it back: keep going. */
			if (fp->durable && fp->durable->state == KSMBD_DH_S_BUSY)
				(*left)++;
			continue;
		}
		p = pick(fp, arg);
		if (p != KSMBD_DH_SKIP &&
		    claim_locked(fp, p == KSMBD_DH_CLAIM_BUSY))
			break;
		(*left)++;
	}
	xa_unlock(&files);
	return fp;
}

#define PURGE_BATCH	8

struct purge_arg {
	struct ksmbd_file *fp;
	bool overwrite;
};

/* Read without the xa_lock: re-checked under it. */
static bool purge_wants(struct ksmbd_file *other, void *arg)
{
	const struct purge_arg *pa = arg;

	return durable->purges(other, pa->fp, pa->overwrite);
}

u32 ksmbd_file_durable_purge(struct ksmbd_file *fp, bool overwrite)
{
	struct ksmbd_file *found[PURGE_BATCH], *other;
	struct purge_arg pa = { .fp = fp, .overwrite = overwrite };
	u32 n, i, closed = 0;
	unsigned long index;

	if (!fp->filp)
		return 0;
	n = ksmbd_file_share_collect(fp, purge_wants, &pa, found, PURGE_BATCH);
	for (i = 0; i < n; i++) {
		other = found[i];
		index = other->volatile_id;
		xa_lock(&files);
		if (xa_load(&files, index) != other || !claim_locked(other, true)) {
			xa_unlock(&files);
			ksmbd_file_put(other);
			continue;
		}
		xa_unlock(&files);
		ksmbd_file_put(other);	/* the claim holds it now */
		trace_ksmbd_durable_scavenge(other, 0, 0, "conflicting open");
		ksmbd_file_durable_close(other, index);
		closed++;
	}
	return closed;
}

struct app_key {
	const u8 *id;
	const u8 *client_guid;
	kuid_t uid;
	const struct path *root;
	const char *name;
};

/* Under the xa_lock. */
static bool app_match(struct ksmbd_file *fp, const struct app_key *k)
{
	bool same;

	if (!fp->has_app_instance ||
	    memcmp(fp->app_instance_id, k->id, 16) ||
	    !memcmp(fp->app_client_guid, k->client_guid, 16) ||
	    !path_equal(&fp->root, k->root))
		return false;
	/* A reconnect changes a busy handle's credentials: check after. */
	if (fp->durable && fp->durable->state == KSMBD_DH_S_BUSY)
		return false;
	if (!uid_eq(fp->cred->fsuid, k->uid))
		return false;
	spin_lock(&fp->name_lock);
	same = fp->name && !strcmp(fp->name, k->name);
	spin_unlock(&fp->name_lock);
	return same;
}

void ksmbd_file_close_app_instance(const u8 *app_id, const u8 *client_guid,
				   kuid_t uid, const struct path *root,
				   const char *name)
{
	const struct app_key k = {
		.id = app_id, .client_guid = client_guid, .uid = uid,
		.root = root, .name = name,
	};
	struct ksmbd_file *fp;
	unsigned long index = 0;

	for (;; index++) {
		xa_lock(&files);
		fp = xa_find(&files, &index, ULONG_MAX, XA_PRESENT);
		while (fp && !app_match(fp, &k)) {
			index++;
			fp = xa_find(&files, &index, ULONG_MAX, XA_PRESENT);
		}
		if (!fp) {
			xa_unlock(&files);
			return;
		}
		if (disconnected(fp)) {
			/* A disconnected durable handle: claimed, then closed. */
			if (claim_locked(fp, true)) {
				xa_unlock(&files);
				ksmbd_file_durable_close(fp, index);
			} else {
				xa_unlock(&files);
			}
			continue;
		}
		__xa_erase(&files, index);
		xa_unlock(&files);
		unlisted(fp);
		ksmbd_file_put(fp);	/* the table's */
	}
}

void ksmbd_file_set_replay_guid(struct ksmbd_file *fp, const u8 *create_guid,
				const u8 *client_guid)
{
	memcpy(fp->replay_create_guid, create_guid, 16);
	memcpy(fp->replay_client_guid, client_guid, 16);
	/* A full barrier: the guids are seen before the flag. */
	if (!xchg(&fp->replay_eligible, true))
		atomic_inc(&nr_replayable);
}

/* A durable handle waiting for its client is found by reconnect only. */
static bool replay_match(struct ksmbd_file *fp, const u8 *create_guid,
			 const u8 *client_guid)
{
	struct ksmbd_durable *d = fp->durable;

	if (d && d->state != KSMBD_DH_S_ATTACHED)
		return false;
	return smp_load_acquire(&fp->replay_eligible) &&
	       !memcmp(fp->replay_create_guid, create_guid, 16) &&
	       !memcmp(fp->replay_client_guid, client_guid, 16);
}

struct ksmbd_file *ksmbd_file_durable_find_guid(const u8 *create_guid,
						const u8 *client_guid)
{
	struct ksmbd_file *fp;
	unsigned long index;

	/* Every DH2Q CREATE asks (DUPLICATE_OBJECTID): most find none. */
	if (!atomic_read(&nr_replayable))
		return NULL;
	xa_lock(&files);
	xa_for_each(&files, index, fp) {
		if (replay_match(fp, create_guid, client_guid)) {
			ksmbd_file_get(fp);
			break;
		}
	}
	xa_unlock(&files);
	return fp;
}

int ksmbd_file_chan_seq_in(struct ksmbd_file *fp, u16 seq, bool replay,
			   bool modify, u32 *epoch)
{
	s16 diff;
	int ret = 0;

	spin_lock(&fp->chan_seq_lock);
	/* Newer by at most 0x7FFF, in 16-bit arithmetic, is positive. */
	diff = (s16)(seq - fp->chan_seq);
	if (diff < 0 || (replay && fp->pre_req_count)) {
		/* A reader on an old channel goes on, counted nowhere. */
		ret = modify ? -EAGAIN : 1;
	} else if (diff > 0) {
		fp->pre_req_count += fp->req_count;
		fp->req_count = 1;
		fp->chan_seq = seq;
		fp->chan_epoch++;
	} else {
		fp->req_count++;
	}
	*epoch = fp->chan_epoch;
	spin_unlock(&fp->chan_seq_lock);
	return ret;
}

void ksmbd_file_chan_seq_out(struct ksmbd_file *fp, u32 epoch)
{
	spin_lock(&fp->chan_seq_lock);
	if (epoch == fp->chan_epoch && fp->req_count)
		fp->req_count--;
	else if (fp->pre_req_count)
		fp->pre_req_count--;
	spin_unlock(&fp->chan_seq_lock);
}
