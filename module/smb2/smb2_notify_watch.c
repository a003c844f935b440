// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CHANGE_NOTIFY watches on fsnotify (MS-SMB2 3.3.5.19, MS-FSA 2.1.5.10):
 * their marks, the tree index and the event handler. smb2_notify.c has
 * the requests, the per-session bound and handle close.
 *
 * The first CHANGE_NOTIFY on a directory handle sets up a watch. A plain
 * watch has its own fsnotify inode mark on the directory (its children's
 * events). A SMB2_WATCH_TREE watch has no mark of its own: each watched
 * superblock has one mark of ours, shared by its tree watches (counted
 * under index_lock, removed with the last), and the tree watches sit in
 * tree_index, a hash table keyed by their directory's inode. An event on
 * that superblock walks up from the directory it happened in to the
 * superblock's root (under RCU, as d_ancestor does) and looks each
 * directory up: the cost of an event is its depth, however many watches
 * there are elsewhere, and that holds for the host's own writes too.
 * Changes matching the completion filter are buffered on the watch until
 * a request takes them; a request that finds none waits (async, see
 * async.h). Changes that do not fit the request's OutputBufferLength, or
 * overflow the buffer, answer STATUS_NOTIFY_ENUM_DIR: the client re-reads
 * the directory.
 *
 * Lifetime: a tree watch is found under RCU without a count: it leaves
 * tree_index when its handle closes (after being marked dead under
 * w->lock, which also covers queueing its work) and is freed an RCU
 * grace period after its last put. A plain watch's mark counts the watch
 * (dropped in free_mark, after fsnotify's SRCU grace period, so the
 * event handler never sees it freed).
 *
 * A watched directory that is deleted (a handle of a delete-pending
 * directory closes; for a tree watch also a local rmdir, which the sb
 * mark sees as the FS_DELETE of the directory's inode) marks the watch
 * gone: waiting and later requests answer STATUS_DELETE_PENDING, as
 * Windows does (smb2.notify.rmdir1-4). Plain watches are indexed by
 * inode too (dir_index), for that lookup.
 *
 * The event handler runs inside other file system operations (possibly
 * with directory locks held): it only records the change under a spinlock
 * and queues the watch's work, which answers waiting requests from the
 * ksmbd-io workqueue. A tree watch's change is made inside the RCU walk
 * (GFP_ATOMIC; a failed allocation overflows the watch to ENUM_DIR).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/dcache.h>
#include <linux/fsnotify_backend.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include "proto/encode.h"
#include "proto/utf16.h"
#include "smb2_notify.h"
#include "smb2_notify_int.h"
#include "stats.h"
#include "work.h"

static DEFINE_MUTEX(group_lock);
static struct fsnotify_group *group;

static const struct rhashtable_params index_params = {
	.key_len = sizeof(struct inode *),
	.key_offset = offsetof(struct notify_watch, inode),
	.head_offset = offsetof(struct notify_watch, index_node),
	.automatic_shrinking = true,
};

/* Inserts, removals and the superblock marks; lookups are RCU. */
static DEFINE_MUTEX(index_lock);
static struct rhltable tree_index;
static struct rhltable dir_index;
static LIST_HEAD(sb_marks);

void ksmbd_notify_watch_put(struct notify_watch *w)
{
	struct notify_change *c, *tmp;

	if (!refcount_dec_and_test(&w->refs))
		return;
	list_for_each_entry_safe(c, tmp, &w->changes, node)
		kfree(c);
	dput(w->dir);
	/* RCU walks may still look at a tree watch that left the index. */
	kfree_rcu(w, rcu);
}

void ksmbd_notify_drop_changes(struct notify_watch *w)
{
	struct notify_change *c, *tmp;

	list_for_each_entry_safe(c, tmp, &w->changes, node) {
		list_del(&c->node);
		kfree(c);
	}
	w->bytes = 0;
}

/*
 * "rel\name" as UTF-16LE, rel '/'-separated UTF-8 beneath the watched
 * directory ("" for a direct child). NULL when it cannot be named.
 */
static struct notify_change *make_change(const char *rel, size_t rel_len,
					 const struct qstr *name, u32 action,
					 gfp_t gfp)
{
	struct notify_change *c;
	u32 cap, i;
	int n, m;
	__le16 *u;

	if (rel_len + 1 + name->len + 1 > PATH_MAX)
		return NULL;
	cap = 2 * (rel_len + 1 + name->len);
	c = kmalloc(sizeof(*c) + cap, gfp);
	if (!c)
		return ERR_PTR(-ENOMEM);
	n = ksmbd_utf8_to_utf16(rel, rel_len, c->name, cap);
	if (n < 0)
		goto bad;
	/* '/' cannot be in a name: each one in rel is a separator. */
	for (i = 0, u = (__le16 *)c->name; i < n / 2; i++)
		if (get_unaligned_le16(&u[i]) == '/')
			put_unaligned_le16('\\', &u[i]);
	if (n) {
		put_unaligned_le16('\\', c->name + n);
		n += 2;
	}
	m = ksmbd_utf8_to_utf16(name->name, name->len, c->name + n, cap - n);
	if (m < 0)
		goto bad;
	c->name_len = n + m;
	c->action = action;
	return c;
bad:
	kfree(c);
	return NULL;
}

/* Under w->lock; nothing queues the work once the handle closed. */
void ksmbd_notify_wake_locked(struct notify_watch *w)
{
	if (!w->dead && !list_empty(&w->waiting))
		ksmbd_work_queue_plain(&w->work);
}

/* c: a change, ERR_PTR (lost: ENUM_DIR) or NULL (nothing to say). */
static void record(struct notify_watch *w, struct notify_change *c)
{
	if (!c)
		return;
	spin_lock(&w->lock);
	if (w->dead) {
		spin_unlock(&w->lock);
		if (!IS_ERR(c))
			kfree(c);
		return;
	}
	if (IS_ERR(c) || w->overflow ||
	    w->bytes + ksmbd_notify_info_size(c->name_len) > w->cap) {
		/* Lost a change: the client must re-read the directory. */
		w->overflow = true;
		ksmbd_notify_drop_changes(w);
		if (!IS_ERR(c))
			kfree(c);
	} else {
		list_add_tail(&c->node, &w->changes);
		w->bytes += ksmbd_notify_info_size(c->name_len);
	}
	ksmbd_notify_wake_locked(w);
	spin_unlock(&w->lock);
}

/* The watched directory was deleted: requests answer DELETE_PENDING. */
void ksmbd_notify_watch_gone(struct notify_watch *w)
{
	spin_lock(&w->lock);
	if (!w->dead && !w->gone) {
		w->gone = true;
		ksmbd_notify_drop_changes(w);
		ksmbd_notify_wake_locked(w);
	}
	spin_unlock(&w->lock);
}

/*
 * A rename into another directory is, as Windows reports it, the entry
 * REMOVED from one and ADDED to the other (smbtorture smb2.notify.rec);
 * RENAMED_OLD_NAME and RENAMED_NEW_NAME are for a rename in place.
 */
static void map_event(u32 mask, bool cross, u32 *action, u32 *filter)
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
		*action = cross ? ACTION_REMOVED : ACTION_RENAMED_OLD_NAME;
		*filter = name_bit;
	} else if (mask & FS_MOVED_TO) {
		*action = cross ? ACTION_ADDED : ACTION_RENAMED_NEW_NAME;
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

/* The directory an event happened in (counted) and the entry's name. */
struct notify_event {
	u32 action, filter;
	struct dentry *parent;
	const struct qstr *name;
	struct name_snapshot snap;
	bool snapped;
};

static bool event_get(struct notify_event *ev, u32 mask, bool cross,
		      const void *data, int data_type, struct inode *dir,
		      const struct qstr *file_name)
{
	struct dentry *dentry;

	map_event(mask, cross, &ev->action, &ev->filter);
	ev->parent = NULL;
	ev->snapped = false;
	ev->name = file_name;
	if (!ev->action)
		return false;
	if (dir && file_name) {
		ev->parent = d_find_any_alias(dir);
	} else {
		dentry = fsnotify_data_dentry(data, data_type);
		if (!dentry)
			return false;
		ev->parent = dget_parent(dentry);
		/* Events on the watched directory itself have no name. */
		if (ev->parent == dentry)
			return false;
		take_dentry_name_snapshot(&ev->snap, dentry);
		ev->snapped = true;
		ev->name = &ev->snap.name;
	}
	return ev->parent;
}

static void event_put(struct notify_event *ev)
{
	if (ev->snapped)
		release_dentry_name_snapshot(&ev->snap);
	dput(ev->parent);
}

/* A plain watch's mark saw an event: a change in its directory? */
static void mark_event(struct notify_mark *m, u32 mask, bool cross,
		       const void *data,
		       int data_type, struct inode *dir,
		       const struct qstr *file_name)
{
	struct notify_watch *w = m->w;
	struct notify_event ev;

	ksmbd_total_add(KSMBD_TOTAL_NOTIFY_CHECKS, 1);
	if (event_get(&ev, mask, cross, data, data_type, dir, file_name) &&
	    (ev.filter & READ_ONCE(w->filter)) && ev.parent == w->dir)
		record(w, make_change("", 0, ev.name, ev.action, GFP_NOFS));
	event_put(&ev);
}

/* Under RCU: the tree watches on d's directory. */
static struct rhlist_head *tree_watches(struct dentry *d)
{
	struct inode *inode = d_inode_rcu(d);

	if (!inode)
		return NULL;
	return rhltable_lookup(&tree_index, &inode, index_params);
}

/* Under RCU: the next directory up, or NULL past the root. */
static struct dentry *walk_up(struct dentry *d)
{
	return IS_ROOT(d) ? NULL : READ_ONCE(d->d_parent);
}

/* Does a tree watch on parent or above want this kind of change? */
static bool tree_wanted(struct dentry *parent, u32 filter)
{
	struct notify_watch *w;
	struct rhlist_head *pos, *list;
	struct dentry *d = parent;
	unsigned int depth;
	bool found = false;

	rcu_read_lock();
	for (depth = 0; d && depth < NOTIFY_MAX_DEPTH && !found; depth++) {
		list = tree_watches(d);
		rhl_for_each_entry_rcu(w, pos, list, index_node)
			if (READ_ONCE(w->filter) & filter)
				found = true;
		d = walk_up(d);
	}
	rcu_read_unlock();
	ksmbd_total_add(KSMBD_TOTAL_NOTIFY_CHECKS, depth);
	return found;
}

/*
 * Under RCU: record the change for d's tree watches; rel is the path
 * from d down to the event's directory, NULL when a rename meanwhile
 * made it unknown (the watches overflow to ENUM_DIR).
 */
static void tree_deliver(struct dentry *d, const struct notify_event *ev,
			 const char *rel, size_t rel_len)
{
	struct notify_watch *w;
	struct rhlist_head *pos, *list;
	struct notify_change *c;

	list = tree_watches(d);
	rhl_for_each_entry_rcu(w, pos, list, index_node) {
		if (!(READ_ONCE(w->filter) & ev->filter))
			continue;
		c = rel ? make_change(rel, rel_len, ev->name, ev->action,
				      GFP_ATOMIC | __GFP_NOWARN) :
			  ERR_PTR(-EAGAIN);
		record(w, c);
	}
}

/*
 * Walk up from the event's directory again, now with its path: at depth
 * k the watched directory's relative path is the path's last k
 * components. The path and the walk agree while rename_lock's sequence
 * stands still.
 */
static void tree_record(const struct notify_event *ev)
{
	struct dentry *d = ev->parent;
	unsigned int depth, seq;
	size_t len, cut;
	char *buf, *p;
	bool same;

	buf = kmalloc(PATH_MAX, GFP_NOFS);
	seq = read_seqbegin(&rename_lock);
	p = buf ? dentry_path_raw(ev->parent, buf, PATH_MAX) : ERR_PTR(-ENOMEM);
	len = IS_ERR(p) || !strcmp(p, "/") ? 0 : strlen(p);
	cut = len;		/* p[cut] is the '/' before the relative path */
	rcu_read_lock();
	for (depth = 0; d && depth < NOTIFY_MAX_DEPTH; depth++) {
		same = !IS_ERR(p) && !read_seqretry(&rename_lock, seq);
		if (same)
			tree_deliver(d, ev, p + cut + (cut < len),
				     len - cut - (cut < len));
		else
			tree_deliver(d, ev, NULL, 0);
		d = walk_up(d);
		if (!same || !d)
			continue;
		if (!cut) {
			p = ERR_PTR(-ESTALE);	/* the path ended first */
			continue;
		}
		while (cut && p[--cut] != '/')
			;
	}
	rcu_read_unlock();
	ksmbd_total_add(KSMBD_TOTAL_NOTIFY_CHECKS, depth);
	kfree(buf);
}

/*
 * A tree watch's directory itself removed (a local rmdir: the sb mark
 * sees the FS_DELETE of its inode) ends the watch. A plain watch's inode
 * mark gets no event for that while our handle pins the dentry (the
 * parent's mark would); SMB deletes reach it through the close hook.
 */
static void tree_dir_removed(u32 mask, const void *data, int data_type)
{
	struct inode *inode = fsnotify_data_inode(data, data_type);
	struct notify_watch *w;
	struct rhlist_head *pos, *list;

	if (!(mask & FS_DELETE) || !(mask & FS_ISDIR) || !inode)
		return;
	rcu_read_lock();
	list = rhltable_lookup(&tree_index, &inode, index_params);
	rhl_for_each_entry_rcu(w, pos, list, index_node)
		ksmbd_notify_watch_gone(w);
	rcu_read_unlock();
}

/* The superblock's mark saw an event: the tree watches above it. */
static void sb_event(u32 mask, bool cross, const void *data, int data_type,
		     struct inode *dir, const struct qstr *file_name)
{
	struct notify_event ev;

	tree_dir_removed(mask, data, data_type);
	if (event_get(&ev, mask, cross, data, data_type, dir, file_name) &&
	    tree_wanted(ev.parent, ev.filter))
		tree_record(&ev);
	event_put(&ev);
}

/*
 * The last renames seen leaving a directory: cookie and directory (never
 * dereferenced). fsnotify_move() reports the leaving before the arriving
 * under one cookie; an arrival whose leaving was not seen came from a
 * directory nobody watches. Renames in other directories may interleave,
 * hence a few of them.
 */
#define KSMBD_NOTIFY_MOVES	32
static struct {
	u32 cookie;
	const struct inode *dir;
} moves[KSMBD_NOTIFY_MOVES];
static unsigned int moves_next;
static DEFINE_SPINLOCK(moves_lock);

static bool arrived_from_elsewhere(u32 cookie, const struct inode *dir)
{
	bool cross = true;
	unsigned int i;

	spin_lock(&moves_lock);
	for (i = 0; i < KSMBD_NOTIFY_MOVES; i++) {
		if (moves[i].cookie == cookie) {
			cross = moves[i].dir != dir;
			break;
		}
	}
	spin_unlock(&moves_lock);
	return cross;
}

static bool left_for_elsewhere(const void *data, int data_type,
			       struct inode *dir, u32 cookie)
{
	struct inode *inode = fsnotify_data_inode(data, data_type);
	struct dentry *d;
	bool cross = false;

	spin_lock(&moves_lock);
	moves[moves_next].cookie = cookie;
	moves[moves_next].dir = dir;
	moves_next = (moves_next + 1) % KSMBD_NOTIFY_MOVES;
	spin_unlock(&moves_lock);
	/* By now the entry is in its new directory. */
	d = inode ? d_find_any_alias(inode) : NULL;
	if (d) {
		cross = d_inode(d->d_parent) != dir;
		dput(d);
	}
	return cross;
}

/* Is this half of a rename (MOVED_FROM/TO) one between directories? */
static bool rename_crosses(u32 mask, const void *data, int data_type,
			   struct inode *dir, u32 cookie)
{
	if (!cookie || !dir)
		return false;
	if (mask & FS_MOVED_FROM)
		return left_for_elsewhere(data, data_type, dir, cookie);
	if (mask & FS_MOVED_TO)
		return arrived_from_elsewhere(cookie, dir);
	return false;
}

static int handle_event(struct fsnotify_group *g, u32 mask, const void *data,
			int data_type, struct inode *dir,
			const struct qstr *file_name, u32 cookie,
			struct fsnotify_iter_info *iter_info)
{
	bool cross = rename_crosses(mask, data, data_type, dir, cookie);
	struct fsnotify_mark *fsn;

	/*
	 * A directory's own mark: dirent events (create, delete, rename)
	 * come on it with the name; its children's other events come as
	 * the parent mark. Events on the marked inode itself have no name
	 * and are not changes inside it.
	 */
	fsn = fsnotify_iter_inode_mark(iter_info);
	if (fsn && dir && file_name)
		mark_event(container_of(fsn, struct notify_mark, fsn), mask,
			   cross, data, data_type, dir, file_name);
	fsn = fsnotify_iter_parent_mark(iter_info);
	if (fsn)
		mark_event(container_of(fsn, struct notify_mark, fsn), mask,
			   cross, data, data_type, dir, file_name);
	if (fsnotify_iter_sb_mark(iter_info))
		sb_event(mask, cross, data, data_type, dir, file_name);
	return 0;
}

static void free_mark(struct fsnotify_mark *fsn)
{
	struct notify_mark *m = container_of(fsn, struct notify_mark, fsn);

	if (m->w)
		ksmbd_notify_watch_put(m->w);
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
		 * DUPS: every plain watch has its own mark, also when two
		 * handles watch the same directory; without it the second
		 * add is -EEXIST.
		 */
		g = fsnotify_alloc_group(&notify_ops, FSNOTIFY_GROUP_DUPS);
		if (!IS_ERR(g))
			group = g;
	}
	g = group;
	mutex_unlock(&group_lock);
	return g;
}

/* ---- Hooking watches up ---- */

/* Under index_lock: a mark on sb shared by its tree watches. */
static struct notify_mark *sb_mark_get(struct fsnotify_group *g,
				       struct super_block *sb)
{
	struct notify_mark *m;
	int ret;

	list_for_each_entry(m, &sb_marks, node) {
		if (m->sb == sb) {
			m->users++;
			return m;
		}
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return ERR_PTR(-ENOMEM);
	m->sb = sb;
	m->users = 1;
	fsnotify_init_mark(&m->fsn, g);
	m->fsn.mask = NOTIFY_FS_MASK;
	ret = fsnotify_add_mark(&m->fsn, &sb->s_fsnotify_marks,
				FSNOTIFY_OBJ_TYPE_SB, 0, NULL);
	if (ret) {
		fsnotify_put_mark(&m->fsn);	/* free_mark frees it */
		return ERR_PTR(ret);
	}
	list_add(&m->node, &sb_marks);
	return m;
}

/*
 * Under index_lock. Detached with the last tree watch; destroyed under
 * the lock so that a new tree watch on sb never runs beside it.
 */
static void sb_mark_put(struct notify_mark *m)
{
	if (--m->users)
		return;
	list_del(&m->node);
	fsnotify_destroy_mark(&m->fsn, m->fsn.group);
	fsnotify_put_mark(&m->fsn);
}

/* A tree watch: the sb's mark and an entry in tree_index. */
static int tree_hook(struct fsnotify_group *g, struct notify_watch *w)
{
	struct notify_mark *m;
	int ret;

	mutex_lock(&index_lock);
	m = sb_mark_get(g, w->dir->d_sb);
	ret = PTR_ERR_OR_ZERO(m);
	if (!ret) {
		ret = rhltable_insert(&tree_index, &w->index_node,
				      index_params);
		if (ret)
			sb_mark_put(m);
		else
			w->mark = m;
	}
	mutex_unlock(&index_lock);
	return ret;
}

/* A plain watch: a mark of its own and an entry in dir_index. */
static int plain_hook(struct fsnotify_group *g, struct notify_watch *w)
{
	struct notify_mark *m;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	mutex_lock(&index_lock);
	ret = rhltable_insert(&dir_index, &w->index_node, index_params);
	mutex_unlock(&index_lock);
	if (ret) {
		kfree(m);
		return ret;
	}
	refcount_inc(&w->refs);		/* the mark's */
	m->w = w;
	fsnotify_init_mark(&m->fsn, g);
	m->fsn.mask = NOTIFY_FS_MASK | FS_EVENT_ON_CHILD;
	ret = fsnotify_add_inode_mark(&m->fsn, w->inode, 0);
	if (ret) {
		/* free_mark drops the mark's count. */
		fsnotify_put_mark(&m->fsn);
		mutex_lock(&index_lock);
		rhltable_remove(&dir_index, &w->index_node, index_params);
		mutex_unlock(&index_lock);
		return ret;
	}
	w->mark = m;
	return 0;
}

void ksmbd_notify_unhook(struct notify_watch *w)
{
	mutex_lock(&index_lock);
	if (w->tree) {
		rhltable_remove(&tree_index, &w->index_node, index_params);
		sb_mark_put(w->mark);
		mutex_unlock(&index_lock);
		return;
	}
	rhltable_remove(&dir_index, &w->index_node, index_params);
	mutex_unlock(&index_lock);
	fsnotify_destroy_mark(&w->mark->fsn, w->mark->fsn.group);
	/* The mark's own count goes with free_mark; this is the hook's. */
	fsnotify_put_mark(&w->mark->fsn);
}

int ksmbd_notify_hook(struct notify_watch *w)
{
	struct fsnotify_group *g = get_group();

	if (IS_ERR_OR_NULL(g))
		return -ENOMEM;
	return w->tree ? tree_hook(g, w) : plain_hook(g, w);
}

/*
 * A handle of a delete-pending directory closed: the directory goes once
 * its handles do, so, as on Windows, pending and later requests of every
 * watch on it answer STATUS_DELETE_PENDING.
 */
void ksmbd_notify_dir_deleted(struct inode *inode)
{
	struct rhltable *tables[] = { &tree_index, &dir_index };
	struct notify_watch *w;
	struct rhlist_head *pos, *list;
	int i;

	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		list = rhltable_lookup(tables[i], &inode, index_params);
		rhl_for_each_entry_rcu(w, pos, list, index_node)
			ksmbd_notify_watch_gone(w);
	}
	rcu_read_unlock();
}

int ksmbd_notify_init(void)
{
	int ret;

	ret = rhltable_init(&tree_index, &index_params);
	if (ret)
		return ret;
	ret = rhltable_init(&dir_index, &index_params);
	if (ret)
		rhltable_destroy(&tree_index);
	return ret;
}

void ksmbd_notify_exit(void)
{
	if (group) {
		/* Every handle is closed by now; let free_mark calls run. */
		fsnotify_wait_marks_destroyed();
		fsnotify_put_group(group);
		group = NULL;
	}
	rhltable_destroy(&tree_index);
	rhltable_destroy(&dir_index);
}
