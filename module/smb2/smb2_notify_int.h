/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CHANGE_NOTIFY's watch, shared by smb2_notify.c (requests, the
 * per-session bound, handle close) and smb2_notify_watch.c (marks, the
 * tree index and the fsnotify event handler). See smb2_notify_watch.c
 * for the design.
 */
#ifndef KSMBD_SMB2_NOTIFY_INT_H
#define KSMBD_SMB2_NOTIFY_INT_H

#include <linux/fsnotify_backend.h>
#include <linux/rhashtable-types.h>
#include <linux/workqueue.h>

struct ksmbd_session;

/* Buffered change bytes per watch before it overflows to ENUM_DIR. */
#define NOTIFY_BUF_MAX		(64 << 10)
/* No path we could name has more levels than this ("a/" each). */
#define NOTIFY_MAX_DEPTH	(PATH_MAX / 2)

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
	spinlock_t lock;		/* everything below up to waiting */
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
	/* A plain watch's own mark, or its superblock's shared one. */
	struct notify_mark *mark;
	struct ksmbd_session *sess;	/* counted; its nr_notify counts us */
	struct inode *inode;		/* d_inode(dir): the index key */
	struct rhlist_head index_node;	/* tree_index or dir_index */
	struct rcu_head rcu;
};

/*
 * A plain watch's inode mark (w set, counted), or a superblock's mark
 * for its tree watches (w NULL; users and node under index_lock).
 */
struct notify_mark {
	struct fsnotify_mark fsn;
	struct notify_watch *w;
	struct super_block *sb;
	unsigned int users;
	struct list_head node;		/* on sb_marks */
};

/* Entry size in the response: FILE_NOTIFY_INFORMATION, 4-aligned. */
void ksmbd_notify_watch_put(struct notify_watch *w);
/* Under w->lock. */
void ksmbd_notify_drop_changes(struct notify_watch *w);
/* Under w->lock: queue the watch's work if a request waits. */
void ksmbd_notify_wake_locked(struct notify_watch *w);
/* The watched directory was deleted: requests answer DELETE_PENDING. */
void ksmbd_notify_watch_gone(struct notify_watch *w);
/* The watch's mark and index entry (w->tree, w->dir, w->inode set). */
int ksmbd_notify_hook(struct notify_watch *w);
/* The handle closed (w->dead set): undo ksmbd_notify_hook. */
void ksmbd_notify_unhook(struct notify_watch *w);

#endif
