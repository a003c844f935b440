// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Oplocks and leases at a handle's edges (see oplock.h): what a CREATE
 * asks for, the handle's last put, and a durable handle's keep, move and
 * reclaim. The break engine and the grant are in oplock.c.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include "caller.h"
#include "connection.h"
#include "create_rules.h"
#include "durable_state.h"
#include "file.h"
#include "fileinfo.h"
#include "ksmbd_trace.h"
#include "oplock.h"
#include "oplock_internal.h"
#include "proto/decode.h"
#include "server.h"
#include "session.h"
#include "share.h"
#include "stats.h"
#include "tree.h"
#include "uapi/ksmbd_netlink.h"

/* ---- What a CREATE asks for ---- */

void ksmbd_oplock_fill_grant(const struct ksmbd_oplock *o,
			     struct ksmbd_oplock_grant *out)
{
	if (!o->lease) {
		out->level = ksmbd_oplock_bits_to_level(o->state);
		return;
	}
	out->level = SMB2_OPLOCK_LEVEL_LEASE;
	out->lease = true;
	out->version = o->version;
	memcpy(out->key, o->key, 16);
	memcpy(out->parent_key, o->parent_key, 16);
	out->state = o->state;
	out->flags = o->lflags;
	/*
	 * MS-SMB2 3.3.5.9.8: the lease's current state, flagged as breaking;
	 * the client learns what it keeps from the break it was sent
	 * (smb2.lease.breaking1, 2, 4, 6).
	 */
	if (o->breaking)
		out->flags |= KSMBD_LEASE_FLAG_BREAK_IN_PROGRESS;
	out->epoch = o->epoch;
}

static bool leases_enabled(const struct ksmbd_caller *caller)
{
	return (READ_ONCE(ksmbd_server_conf.flags) &
		KSMBD_GLOBAL_FLAG_SMB2_LEASES) &&
	       caller->conn->neg.dialect >= SMB21_DIALECT;
}

void ksmbd_oplock_decode(const struct ksmbd_caller *caller, u8 level,
			 const struct ksmbd_buf *lease,
			 struct ksmbd_oplock_req *rq)
{
	struct ksmbd_lease_ctx lc;

	memset(rq, 0, sizeof(*rq));
	rq->level = level;
	if (level != SMB2_OPLOCK_LEVEL_LEASE || !lease ||
	    !leases_enabled(caller))
		return;
	if (ksmbd_ctx_lease_decode(lease,
				   caller->conn->neg.dialect >= SMB30_DIALECT,
				   &lc))
		return;
	rq->version = lc.version;
	if (lc.version == 2) {
		rq->flags = lc.flags & KSMBD_LEASE_FLAG_PARENT_KEY_SET;
		memcpy(rq->parent_key, lc.parent_key, sizeof(rq->parent_key));
		rq->epoch = lc.epoch;
	}
	memcpy(rq->key, lc.key, sizeof(rq->key));
	rq->state = lc.state & KSMBD_LEASE_RWH;
	rq->lease = true;
}

int ksmbd_oplock_lease_check(struct ksmbd_caller *caller,
			     const struct ksmbd_oplock_req *rq,
			     const struct inode *inode)
{
	struct ksmbd_oplock *o;
	int ret = 0;

	if (!rq->lease)
		return 0;
	mutex_lock(&ksmbd_owner_lock);
	o = ksmbd_lease_find(caller->conn->neg.client_guid, rq->key,
			     caller->sess->uid);
	if (o && o->inode != inode)
		ret = -EINVAL;
	mutex_unlock(&ksmbd_owner_lock);
	return ret;
}

/* ---- Release ---- */

static void owner_free(struct ksmbd_oplock *o)
{
	if (o->dir)
		ksmbd_dirlease_unwatch(o->inode);
	ksmbd_conn_put(o->conn);
	ksmbd_live_dec(KSMBD_LIVE_OPLOCKS);
	kfree(o);
}

void ksmbd_oplock_release(struct ksmbd_file *fp)
{
	struct ksmbd_oplock *o, *dead = NULL;

	/*
	 * Only the CREATE that made fp sets fp->oplock, holding a reference;
	 * at the last put nothing can set it any more, so a handle without
	 * an owner (pipes, directories, most opens) skips the lock.
	 */
	if (!READ_ONCE(fp->oplock))
		return;
	mutex_lock(&ksmbd_owner_lock);
	o = fp->oplock;
	fp->oplock = NULL;
	if (o && !--o->nr_handles) {
		hash_del(&o->inode_node);
		if (o->lease)
			hash_del(&o->key_node);
		if (o->breaking)
			ksmbd_oplock_resolve(o, 0);
		ksmbd_klease_drop(o);
		dead = o;
	}
	mutex_unlock(&ksmbd_owner_lock);
	if (dead)
		owner_free(dead);
}

/* ---- Durable handles (durable.c, file.c) ---- */

/*
 * The rights fp's owner keeps once a break in flight ends. Read without
 * owner_lock (the callers hold the file table's spinlock): the owner
 * lives as long as fp, which the caller holds, and a stale answer only
 * decides one keep-or-close a moment early.
 */
static bool peek_rights(const struct ksmbd_file *fp, u32 *rights, bool *lease,
			const struct ksmbd_oplock **owner)
{
	const struct ksmbd_oplock *o = READ_ONCE(fp->oplock);

	if (!o)
		return false;
	*rights = READ_ONCE(o->breaking) ? READ_ONCE(o->break_to) :
					   READ_ONCE(o->state);
	*lease = o->lease;
	*owner = o;
	return true;
}

bool ksmbd_oplock_durable_ok(const struct ksmbd_file *fp)
{
	const struct ksmbd_oplock *o;
	bool lease;
	u32 r;

	if (!peek_rights(fp, &r, &lease, &o))
		return false;
	/*
	 * A break in flight has an open or an operation waiting for it that
	 * no acknowledgement can end any more: close the handle, as an open
	 * closes a disconnected durable handle it conflicts with (MS-SMB2
	 * 3.3.5.9), rather than keep it with caching half taken away.
	 */
	if (READ_ONCE(o->breaking))
		return false;
	return lease ? r & KSMBD_LEASE_H : r == KSMBD_LEASE_RWH;
}

bool ksmbd_oplock_durable_breaks(const struct ksmbd_file *durable,
				 const struct ksmbd_file *fp, bool overwrite)
{
	const struct ksmbd_oplock *o;
	bool lease;
	u32 r;

	if (!ksmbd_oplock_open_breaks(fp, overwrite) || !peek_rights(durable, &r, &lease, &o))
		return false;
	if (overwrite || (r & KSMBD_LEASE_W))
		return true;
	return (r & KSMBD_LEASE_H) &&
	       ksmbd_share_conflict(o->access, o->share, fp->daccess,
				    fp->share_access);
}

/*
 * Where a detached owner's breaks go: a connection that is always
 * exiting, so the break engine downgrades at once and sends nothing.
 * Never freed: its one base reference is never dropped.
 */
static struct ksmbd_conn nowhere = {
	.refs = REFCOUNT_INIT(1),
	.flags = BIT(KSMBD_CONN_F_EXITING),
};

struct ksmbd_conn *ksmbd_oplock_nowhere(void)
{
	return &nowhere;
}

/* Under owner_lock: o's breaks now go to conn (counted), as session sess_id. */
static struct ksmbd_conn *owner_move(struct ksmbd_oplock *o,
				     struct ksmbd_conn *conn, u64 sess_id)
{
	struct ksmbd_conn *old = o->conn;

	ksmbd_conn_get(conn);
	o->conn = conn;
	o->sess_id = sess_id;
	return old;
}

void ksmbd_oplock_durable_move(struct ksmbd_file *fp, struct ksmbd_conn *conn,
			       u64 sess_id)
{
	struct ksmbd_conn *old = NULL;

	mutex_lock(&ksmbd_owner_lock);
	if (fp->oplock)
		old = owner_move(fp->oplock, conn, sess_id);
	mutex_unlock(&ksmbd_owner_lock);
	if (old)
		ksmbd_conn_put(old);
}

int ksmbd_oplock_durable_reclaim(struct ksmbd_caller *caller,
				 struct ksmbd_file *fp,
				 const struct ksmbd_oplock_req *rq,
				 bool name_ok, struct ksmbd_oplock_grant *out)
{
	const u8 *guid = caller->conn->neg.client_guid;
	struct ksmbd_conn *old = NULL;
	struct ksmbd_oplock *o;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	mutex_lock(&ksmbd_owner_lock);
	o = fp->oplock;
	/*
	 * 3.3.5.9.7/.12: a lease is reclaimed with its key by the client
	 * that holds it, and only under the name it was opened with; an
	 * oplock without a lease.
	 */
	if (!o || o->lease != rq->lease ||
	    (o->lease && (memcmp(o->key, rq->key, 16) ||
			  memcmp(o->guid, guid, 16) ||
			  !uid_eq(o->uid, caller->sess->uid)))) {
		ret = -ENOENT;
		goto out_unlock;
	}
	if (o->lease && !name_ok) {
		ret = -EINVAL;
		goto out_unlock;
	}
	old = owner_move(o, caller->conn, caller->sess->id);
	o->sealed |= ksmbd_sess_encrypts(&caller->sess->crypto);
	ksmbd_oplock_fill_grant(o, out);
out_unlock:
	mutex_unlock(&ksmbd_owner_lock);
	if (old)
		ksmbd_conn_put(old);
	return ret;
}

int ksmbd_oplock_break_for_setinfo(struct ksmbd_caller *caller,
				   struct ksmbd_file *fp, u8 info_class)
{
	switch (info_class) {
	case FILE_END_OF_FILE_INFORMATION:
	case FILE_ALLOCATION_INFORMATION:
		ksmbd_oplock_break_for_write(fp);
		return 0;
	case FILE_RENAME_INFORMATION:
	case FILE_DISPOSITION_INFORMATION:
	case FILE_DISPOSITION_INFORMATION_EX:
		return ksmbd_oplock_break_for_namespace(caller, fp);
	}
	return 0;
}

/*
 * A lease request that gets no caching is still answered as a lease, in
 * state None (as Windows does): OplockLevel LEASE and the key echoed.
 */
void ksmbd_oplock_no_lease_grant(const struct ksmbd_oplock_req *rq,
				 struct ksmbd_oplock_grant *out)
{
	out->level = SMB2_OPLOCK_LEVEL_LEASE;
	out->lease = true;
	out->version = rq->version;
	memcpy(out->key, rq->key, 16);
	memcpy(out->parent_key, rq->parent_key, 16);
	out->flags = rq->flags;
	out->epoch = rq->version == 2 ? rq->epoch + 1 : 0;
	out->state = 0;
}

static void oplock_released(struct ksmbd_file *fp, bool deleted)
{
	ksmbd_oplock_release(fp);
}

struct ksmbd_file_hooks ksmbd_oplock_file_hooks = {
	.released = oplock_released,
};

/* ---- Oplock levels as R/H/W bits (SMB2 2.2.14) ---- */

u32 ksmbd_oplock_level_to_bits(u8 level)
{
	switch (level) {
	case SMB2_OPLOCK_LEVEL_II:
		return KSMBD_LEASE_R;
	case SMB2_OPLOCK_LEVEL_EXCLUSIVE:
		return KSMBD_LEASE_R | KSMBD_LEASE_W;
	case SMB2_OPLOCK_LEVEL_BATCH:
		return KSMBD_LEASE_RWH;
	default:
		return 0;
	}
}

u8 ksmbd_oplock_bits_to_level(u32 bits)
{
	if (!(bits & KSMBD_LEASE_R))
		return SMB2_OPLOCK_LEVEL_NONE;
	if ((bits & KSMBD_LEASE_RWH) == KSMBD_LEASE_RWH)
		return SMB2_OPLOCK_LEVEL_BATCH;
	if (bits & KSMBD_LEASE_W)
		return SMB2_OPLOCK_LEVEL_EXCLUSIVE;
	return SMB2_OPLOCK_LEVEL_II;
}

/* ---- A connection of a multichannel session closing ---- */

struct rehome {
	struct ksmbd_conn *conn;
	struct list_head *notes;
};

/*
 * Under the lock: o came on the connection that closed while o's session
 * lives on through another channel; from now on its breaks go there
 * (MS-SMB2 3.3.4.6, 3.3.4.7: any channel of the session). A break
 * awaiting its acknowledgement could not go out on the closing
 * connection (it waited for the teardown): it is sent again there.
 */
static void owner_rehome(struct ksmbd_oplock *o, void *arg)
{
	struct rehome *r = arg;
	struct ksmbd_session *sess;
	struct ksmbd_conn *to = NULL;

	if (o->conn != r->conn)
		return;
	sess = ksmbd_session_lookup_global(o->sess_id);
	if (sess) {
		if (ksmbd_session_valid(sess))
			to = ksmbd_session_live_conn(sess);
		ksmbd_session_put(sess);
	}
	if (!to)
		return;
	/* The closing connection's teardown holds it: not the last put. */
	ksmbd_conn_put(o->conn);
	o->conn = to;
	trace_ksmbd_oplock_moved(to->id, ksmbd_oplock_trace_id(o), o->lease,
				 o->state, o->breaking ? o->break_to : 0, 0,
				 0, NULL);
	if (o->breaking)
		ksmbd_oplock_resend(o, r->notes);
}

void ksmbd_oplock_conn_closed(struct ksmbd_conn *conn)
{
	LIST_HEAD(notes);
	struct rehome r = { .conn = conn, .notes = &notes };

	mutex_lock(&ksmbd_owner_lock);
	ksmbd_oplock_for_each(owner_rehome, &r);
	mutex_unlock(&ksmbd_owner_lock);
	ksmbd_oplock_send_notes(&notes);
}
