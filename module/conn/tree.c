// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tree connects. A session's tree table is an xarray whose entries own a
 * reference; entries appear at ksmbd_tree_create() (hidden until
 * published, so the id can be told to the daemon first) and leave in
 * ksmbd_tree_teardown(). Lookups run under the session lock.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/cred.h>
#include <linux/err.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include "debug.h"
#include "connection.h"
#include "ipc.h"
#include "ksmbd_trace.h"
#include "session.h"
#include "share.h"
#include "stats.h"
#include "tree.h"

/* MS-SMB2 2.2.13.1 access masks for MaximalAccess. */
#define ACCESS_READ_EXECUTE	0x001200a9	/* read, execute, sync, read ctl */
#define ACCESS_FULL		0x001f01ff

/* Set once at load, before any tree exists; read-only after. */
static const struct ksmbd_tree_hooks *hooks;

void ksmbd_tree_hooks_register(const struct ksmbd_tree_hooks *h)
{
	hooks = h;
}

struct ksmbd_tree *ksmbd_tree_lookup(struct ksmbd_session *sess, u32 id)
{
	struct ksmbd_tree *tree;

	if (!id || id == U32_MAX)
		return NULL;
	mutex_lock(&sess->lock);
	tree = xa_load(&sess->trees, id);
	if (tree && (!test_bit(KSMBD_TREE_S_PUBLISHED, &tree->state) ||
		     test_bit(KSMBD_TREE_S_DISCONNECTED, &tree->state)))
		tree = NULL;
	if (tree)
		ksmbd_tree_get(tree);
	mutex_unlock(&sess->lock);
	return tree;
}

void ksmbd_tree_get(struct ksmbd_tree *tree)
{
	refcount_inc(&tree->refs);
}

void ksmbd_tree_put(struct ksmbd_tree *tree)
{
	if (!refcount_dec_and_test(&tree->refs))
		return;
	if (tree->root.mnt)
		path_put(&tree->root);
	if (tree->cred)
		put_cred(tree->cred);
	ksmbd_share_put(tree->share);
	ksmbd_session_put(tree->sess);
	kfree(tree);
	ksmbd_live_dec(KSMBD_LIVE_TREES);
}

struct ksmbd_tree *ksmbd_tree_create(struct ksmbd_session *sess,
				     struct ksmbd_share *share)
{
	struct ksmbd_tree *tree;
	int ret;

	tree = kzalloc(sizeof(*tree), GFP_KERNEL);
	if (!tree) {
		ksmbd_share_put(share);
		return ERR_PTR(-ENOMEM);
	}
	ksmbd_live_inc(KSMBD_LIVE_TREES);
	refcount_set(&tree->refs, 2);	/* the table's and the caller's */
	ksmbd_session_get(sess);
	tree->sess = sess;
	tree->share = share;

	mutex_lock(&sess->lock);
	if (!ksmbd_session_valid(sess)) {
		ret = -ESHUTDOWN;
	} else if (sess->nr_trees >= KSMBD_SESSION_MAX_TREES) {
		ret = -EMFILE;
	} else {
		ret = xa_alloc_cyclic(&sess->trees, &tree->id, tree,
				      XA_LIMIT(1, U32_MAX - 1),
				      &sess->next_tree_id, GFP_KERNEL);
		if (ret > 0)
			ret = 0;
	}
	if (!ret)
		sess->nr_trees++;
	mutex_unlock(&sess->lock);
	if (ret) {
		refcount_set(&tree->refs, 1);
		ksmbd_tree_put(tree);
		return ERR_PTR(ret);
	}
	return tree;
}

/* Writable only when both the share and the daemon's verdict say so. */
static void set_access(struct ksmbd_tree *tree, u16 conn_flags)
{
	struct ksmbd_share *share = tree->share;

	if (ksmbd_share_is_pipe(share) || (conn_flags & KSMBD_TREE_CONN_FLAG_IPC))
		tree->flags |= KSMBD_TREE_F_IPC;
	if ((conn_flags & KSMBD_TREE_CONN_FLAG_WRITABLE) &&
	    !(conn_flags & KSMBD_TREE_CONN_FLAG_READ_ONLY) &&
	    ksmbd_share_has(share, KSMBD_SHARE_FLAG_WRITEABLE) &&
	    !ksmbd_share_has(share, KSMBD_SHARE_FLAG_READONLY))
		tree->flags |= KSMBD_TREE_F_WRITABLE;
	if (conn_flags & KSMBD_TREE_CONN_FLAG_GUEST_ACCOUNT)
		tree->flags |= KSMBD_TREE_F_GUEST;
	if (conn_flags & KSMBD_TREE_CONN_FLAG_ADMIN_ACCOUNT)
		tree->flags |= KSMBD_TREE_F_ADMIN;
	tree->maximal_access = ksmbd_tree_writable(tree) ? ACCESS_FULL :
							   ACCESS_READ_EXECUTE;
}

/* The session's credentials with the share's forced identities. */
static const struct cred *tree_cred(const struct ksmbd_session *sess,
				    const struct ksmbd_share *share)
{
	kuid_t uid = make_kuid(&init_user_ns, share->force_uid);
	kgid_t gid = make_kgid(&init_user_ns, share->force_gid);
	bool fu = share->force_uid != KSMBD_SHARE_INVALID_ID;
	bool fg = share->force_gid != KSMBD_SHARE_INVALID_ID;
	struct group_info *none;
	struct cred *cred;

	if (!sess->cred)
		return NULL;
	if (!fu && !fg)
		return get_cred(sess->cred);
	if ((fu && !uid_valid(uid)) || (fg && !gid_valid(gid)))
		return ERR_PTR(-EINVAL);
	cred = prepare_kernel_cred(NULL);
	if (!cred)
		return ERR_PTR(-ENOMEM);
	cred->uid = cred->euid = cred->suid = cred->fsuid =
		fu ? uid : sess->cred->fsuid;
	cred->gid = cred->egid = cred->sgid = cred->fsgid =
		fg ? gid : sess->cred->fsgid;
	if (fu) {
		none = groups_alloc(0);
		if (!none) {
			put_cred(cred);
			return ERR_PTR(-ENOMEM);
		}
		set_groups(cred, none);
		put_group_info(none);
	} else {
		set_groups(cred, sess->cred->group_info);
	}
	/* Never more than the user had: no capabilities, even forced to root. */
	cap_clear(cred->cap_inheritable);
	cap_clear(cred->cap_permitted);
	cap_clear(cred->cap_effective);
	cap_clear(cred->cap_ambient);
	return cred;
}

int ksmbd_tree_publish(struct ksmbd_tree *tree, u16 conn_flags)
{
	struct ksmbd_session *sess = tree->sess;
	const struct cred *cred;
	int ret = 0;

	set_access(tree, conn_flags);
	if (!ksmbd_tree_is_ipc(tree)) {
		cred = tree_cred(sess, tree->share);
		if (IS_ERR(cred))
			return PTR_ERR(cred);
		tree->cred = cred;
		/* Root of the share itself may be a symlink; nothing below. */
		ret = kern_path(tree->share->path, LOOKUP_DIRECTORY,
				&tree->root);
		if (ret)
			return ret;
	}
	mutex_lock(&sess->lock);
	if (test_bit(KSMBD_TREE_S_DISCONNECTED, &tree->state))
		ret = -ESHUTDOWN;
	else
		set_bit(KSMBD_TREE_S_PUBLISHED, &tree->state);
	mutex_unlock(&sess->lock);
	return ret;
}

bool ksmbd_tree_teardown(struct ksmbd_tree *tree)
{
	struct ksmbd_session *sess = tree->sess;
	bool published;

	mutex_lock(&sess->lock);
	if (test_and_set_bit(KSMBD_TREE_S_DISCONNECTED, &tree->state)) {
		mutex_unlock(&sess->lock);
		return false;
	}
	published = test_bit(KSMBD_TREE_S_PUBLISHED, &tree->state);
	xa_erase(&sess->trees, tree->id);
	sess->nr_trees--;
	mutex_unlock(&sess->lock);

	if (published) {
		hooks->close_files(tree);
		ksmbd_ipc_tree_disconnect(sess->id, tree->id);
	}
	if (published)
		trace_ksmbd_tree_disconnect(sess->conn->id, sess->id, tree->id,
					    tree->share->name, tree->flags,
					    STATUS_SUCCESS);
	ksmbd_tree_put(tree);	/* the table's */
	return true;
}

void ksmbd_tree_teardown_all(struct ksmbd_session *sess)
{
	struct ksmbd_tree *tree;
	unsigned long id;

	for (;;) {
		mutex_lock(&sess->lock);
		id = 0;
		tree = xa_find(&sess->trees, &id, ULONG_MAX, XA_PRESENT);
		if (tree)
			ksmbd_tree_get(tree);
		mutex_unlock(&sess->lock);
		if (!tree)
			break;
		ksmbd_tree_teardown(tree);
		ksmbd_tree_put(tree);
	}
}
