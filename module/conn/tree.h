/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tree connects (MS-SMB2 3.3.1.9): a session's connection to one share.
 *
 * Lifetime: the session's tree table owns one reference; lookups
 * (ksmbd_tree_lookup) take the session lock and return a counted
 * reference. ksmbd_tree_teardown() (TREE_DISCONNECT, session teardown)
 * runs once per tree: it marks it disconnected (lookups fail from then
 * on), closes its files through ksmbd_file_close_tree(), tells the
 * daemon, and drops the table's reference. Open files may hold tree
 * references of their own: share and root path stay valid until the last
 * put.
 */
#ifndef KSMBD_TREE_H
#define KSMBD_TREE_H

#include <linux/bitops.h>
#include <linux/path.h>
#include <linux/refcount.h>
#include <linux/types.h>

struct ksmbd_session;
struct ksmbd_share;

enum {
	KSMBD_TREE_F_WRITABLE	= 0x1,	/* writes allowed (share and user) */
	KSMBD_TREE_F_IPC	= 0x2,	/* the IPC$ pipe share: no root path */
	KSMBD_TREE_F_GUEST	= 0x4,
	KSMBD_TREE_F_ADMIN	= 0x8,
};

struct ksmbd_tree {
	refcount_t refs;
	u32 id;				/* TreeId on the wire */
	struct ksmbd_session *sess;	/* counted reference */
	struct ksmbd_share *share;	/* counted reference; see share.h */
	/*
	 * The share's root directory, held open for the tree's life (empty
	 * for IPC$). Resolve client paths beneath it only.
	 */
	struct path root;
	/*
	 * Who the tree's file operations run as (counted; set at publish,
	 * NULL for IPC$): the session user's credentials, or with the
	 * share's "force user" / "force group" those identities (force
	 * user: its uid and primary group, no supplementary groups; force
	 * group: the user with that primary group).
	 */
	const struct cred *cred;
	u32 flags;			/* KSMBD_TREE_F_* */
	u32 maximal_access;		/* what TREE_CONNECT answered */
	unsigned long state;		/* KSMBD_TREE_S_* bits */
};

enum {
	KSMBD_TREE_S_PUBLISHED,		/* visible to lookups */
	KSMBD_TREE_S_DISCONNECTED,	/* torn down: lookups fail */
};

/*
 * False once teardown has begun. Teardown marks the tree before it calls
 * ksmbd_file_close_tree(), so a file table that adds a file and then
 * finds this false must close that file itself (the sweep may have run
 * before the file was added). Same for ksmbd_session_valid().
 */
static inline bool ksmbd_tree_connected(const struct ksmbd_tree *t)
{
	return !test_bit(KSMBD_TREE_S_DISCONNECTED, &t->state);
}

static inline bool ksmbd_tree_writable(const struct ksmbd_tree *t)
{
	return t->flags & KSMBD_TREE_F_WRITABLE;
}

static inline bool ksmbd_tree_is_ipc(const struct ksmbd_tree *t)
{
	return t->flags & KSMBD_TREE_F_IPC;
}

/* A connected tree of this session, or NULL. */
struct ksmbd_tree *ksmbd_tree_lookup(struct ksmbd_session *sess, u32 id);
void ksmbd_tree_get(struct ksmbd_tree *tree);
void ksmbd_tree_put(struct ksmbd_tree *tree);

/*
 * A new tree of sess on share (the caller's share reference is taken
 * over in every case), in the table under a fresh id but not visible to
 * lookups until ksmbd_tree_publish(): the daemon is asked about that id
 * in between. ERR_PTR(-EMFILE) over KSMBD_SESSION_MAX_TREES, -ESHUTDOWN
 * when the session is being torn down.
 */
struct ksmbd_tree *ksmbd_tree_create(struct ksmbd_session *sess,
				     struct ksmbd_share *share);
/*
 * Open the share root and make the tree visible, with the daemon's
 * verdict flags (KSMBD_TREE_CONN_FLAG_*). On failure (-ENOENT, -ENOTDIR,
 * ... from the path lookup) the caller tears the tree down.
 */
int ksmbd_tree_publish(struct ksmbd_tree *tree, u16 conn_flags);

/*
 * Disconnect once. Returns true for the call that did it; a racing
 * second TREE_DISCONNECT gets false and answers NETWORK_NAME_DELETED.
 */
bool ksmbd_tree_teardown(struct ksmbd_tree *tree);
/* Disconnect every tree of a session (session teardown). */
void ksmbd_tree_teardown_all(struct ksmbd_session *sess);

/*
 * What the file table does for a tree, registered at load (main.c's
 * objects_init(), before any tree exists), so that trees name no file
 * code.
 */
struct ksmbd_tree_hooks {
	/*
	 * Close every file opened through the tree. Called once per tree,
	 * from ksmbd_tree_teardown(), in process context without locks held.
	 */
	void (*close_files)(struct ksmbd_tree *tree);
};

void ksmbd_tree_hooks_register(const struct ksmbd_tree_hooks *h);

#endif
