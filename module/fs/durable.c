// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Durable handles: grant, reconnect, replay, the scavenger (see durable.h
 * for the states and the locking; the table's side is in file.c).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include "caller.h"
#include "connection.h"
#include "durable.h"
#include "file.h"
#include "ksmbd_trace.h"
#include "oplock.h"
#include "session.h"
#include "share.h"
#include "tree.h"

/*
 * How long a disconnected handle is kept, in seconds: v1 handles and v2
 * ones that asked for 0 (durable_timeout_s), and the most a v2 request
 * gets (durable_max_timeout_s). Module parameters, writable at run time.
 */
static unsigned int durable_timeout_s = KSMBD_DURABLE_TIMEOUT_S;
module_param(durable_timeout_s, uint, 0644);
MODULE_PARM_DESC(durable_timeout_s,
		 "Seconds a disconnected v1 (or v2 without a timeout) durable handle is kept");
static unsigned int durable_max_timeout_s = KSMBD_DURABLE_MAX_TIMEOUT_S;
module_param(durable_max_timeout_s, uint, 0644);
MODULE_PARM_DESC(durable_max_timeout_s,
		 "The longest timeout a v2 durable handle gets, in seconds");

/* Set while the server stops: handles are closed, not kept. */
static bool stopping;

static void scavenge(struct work_struct *w);
static DECLARE_DELAYED_WORK(scavenger, scavenge);

static u32 default_timeout_ms(void)
{
	unsigned int s = READ_ONCE(durable_timeout_s);

	return (s ? s : 1) * 1000;
}

static u32 max_timeout_ms(void)
{
	unsigned int s = READ_ONCE(durable_max_timeout_s);

	return (s ? s : 1) * 1000;
}

static unsigned long ksmbd_durable_timeout(const struct ksmbd_file *fp)
{
	const struct ksmbd_durable *d = fp->durable;

	return msecs_to_jiffies(d->v2 ? d->timeout_ms : default_timeout_ms());
}

static bool ksmbd_durable_keep(const struct ksmbd_file *fp)
{
	return !READ_ONCE(stopping) && ksmbd_oplock_durable_ok(fp);
}

/* Under the file table's lock (file.c): fp has just been disconnected. */
static void ksmbd_durable_disconnected(struct ksmbd_file *fp)
{
	trace_ksmbd_durable_disconnect(fp, fp->durable->old_session_id,
				       jiffies_to_msecs(ksmbd_durable_timeout(fp)),
				       NULL);
	/* A first pass soon: it detaches the orphan from its connection. */
	mod_delayed_work(system_wq, &scavenger, HZ / 4);
}

struct scan_state {
	bool all;	/* close every disconnected handle (the server stops) */
	bool expired;	/* of the handle pick_scan() last looked at */
};

/* Under the file table's lock: what the scavenger does with fp. */
static enum ksmbd_durable_pick pick_scan(const struct ksmbd_file *fp,
					 void *arg)
{
	struct scan_state *s = arg;

	s->expired = s->all || time_after_eq(jiffies, fp->durable->expires);
	if (s->expired)
		return KSMBD_DH_CLAIM_BUSY;
	/* Detach an orphan once nobody uses it. */
	return fp->durable->state == KSMBD_DH_S_ORPHAN ? KSMBD_DH_CLAIM :
							 KSMBD_DH_SKIP;
}

/*
 * One pass: detach orphans nobody uses any more from their old tree and
 * connection, close those whose timeout has passed (all of them with
 * all set). Returns how many disconnected handles remain.
 */
static u32 scan(bool all)
{
	struct scan_state s = { .all = all };
	struct ksmbd_file *fp;
	unsigned long index = 0;
	u32 left = 0;

	while ((fp = ksmbd_file_durable_next(&index, pick_scan, &s, &left))) {
		if (s.expired) {
			trace_ksmbd_durable_scavenge(fp, 0, 0, all ? "stop" :
						     "timeout");
			ksmbd_file_durable_close(fp, index);
		} else {
			/* Its breaks go nowhere until a reconnect. */
			ksmbd_oplock_durable_move(fp, ksmbd_oplock_nowhere(), 0);
			ksmbd_file_durable_detach(fp);
			left++;
		}
		index++;
	}
	return left;
}

/*
 * While the server stops, a handle a teardown kept just before the stop
 * began is closed here, or the connection it holds would never go.
 */
static void scavenge(struct work_struct *w)
{
	if (scan(READ_ONCE(stopping)))
		schedule_delayed_work(&scavenger, HZ / 4);
}

void ksmbd_durable_start(void)
{
	WRITE_ONCE(stopping, false);
}

void ksmbd_durable_stop(void)
{
	int tries;

	WRITE_ONCE(stopping, true);
	cancel_delayed_work_sync(&scavenger);
	/*
	 * Orphans still used by a request of their dead connection are
	 * closed once the request lets go; it does soon.
	 */
	for (tries = 0; scan(true); tries++) {
		if (tries == 100) {
			pr_warn("durable handles still in use at stop\n");
			break;
		}
		msleep(100);
	}
}

static bool ksmbd_durable_purges(const struct ksmbd_file *other,
				 const struct ksmbd_file *fp, bool overwrite)
{
	return READ_ONCE(other->durable) &&
	       ksmbd_oplock_durable_breaks(other, fp, overwrite);
}

const struct ksmbd_durable_policy ksmbd_durable_policy = {
	.keep		= ksmbd_durable_keep,
	.purges		= ksmbd_durable_purges,
	.disconnected	= ksmbd_durable_disconnected,
	.timeout	= ksmbd_durable_timeout,
};

/* ---- Grant ---- */

void ksmbd_durable_grant(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			 const struct ksmbd_durable_req *rq,
			 const struct ksmbd_oplock_grant *og,
			 struct ksmbd_durable_grant *out)
{
	bool v2 = rq->kind == KSMBD_DH_V2_REQ;
	struct ksmbd_durable *d;
	bool cached;

	memset(out, 0, sizeof(*out));
	if (rq->kind != KSMBD_DH_V1_REQ && !v2)
		return;
	if (v2 && caller->conn->neg.dialect < SMB30_DIALECT)
		return;
	/* 3.3.5.9.6, .10: a batch oplock or a lease with handle caching. */
	cached = og->lease ? og->state & KSMBD_LEASE_H :
			     og->level == SMB2_OPLOCK_LEVEL_BATCH;
	if (!cached || fp->kind != KSMBD_FILE_REGULAR)
		return;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return;
	d->v2 = v2;
	if (v2) {
		memcpy(d->create_guid, rq->create_guid, 16);
		d->timeout_ms = rq->timeout_ms ? rq->timeout_ms :
						 default_timeout_ms();
		if (d->timeout_ms > max_timeout_ms())
			d->timeout_ms = max_timeout_ms();
	}
	memcpy(d->client_guid, caller->conn->neg.client_guid, 16);
	d->uid = caller->sess->uid;
	strscpy(d->account, caller->sess->account, sizeof(d->account));
	strscpy(d->share, caller->tree->share->name, sizeof(d->share));
	if (!ksmbd_file_durable_set(fp, d)) {
		kfree(d);
		return;
	}
	out->kind = rq->kind;
	out->timeout_ms = d->timeout_ms;
}

/* ---- Reconnect ---- */

/* 3.3.5.9.7 / .12: the checks a claimed handle must pass; a status. */
static u32 reconnect_check(struct ksmbd_caller *caller,
			   const struct ksmbd_durable_req *rq,
			   const struct ksmbd_file *fp)
{
	const struct ksmbd_durable *d = fp->durable;
	bool v2 = rq->kind == KSMBD_DH_V2_RECONNECT;

	/*
	 * DH2C must name the CreateGuid (a v1 handle's is zero, as Samba
	 * and smbtorture have it). DHnC takes either kind (3.3.5.9.7 looks
	 * the open up by its FileId alone; smb2.durable-v2-open.reopen2b
	 * reconnects a v2 handle with it), but it carries no CreateGuid: a
	 * v2 handle, which its CreateGuid ties to the client that made it
	 * (3.3.5.9.10), then goes back only to that client's ClientGuid.
	 */
	if (v2 && memcmp(d->create_guid, rq->create_guid, 16))
		return STATUS_OBJECT_NAME_NOT_FOUND;
	if (!v2 && d->v2 &&
	    memcmp(d->client_guid, caller->conn->neg.client_guid, 16))
		return STATUS_OBJECT_NAME_NOT_FOUND;
	if (strcmp(d->share, caller->tree->share->name))
		return STATUS_OBJECT_NAME_NOT_FOUND;
	/* Never another user's handle (the in-tree ksmbd's CVE-2026-31717). */
	if (!uid_eq(d->uid, caller->sess->uid) ||
	    strcmp(d->account, caller->sess->account))
		return STATUS_ACCESS_DENIED;
	return STATUS_SUCCESS;
}

/* The request's name (NULL when it was invalid) is fp's, case aside. */
static bool same_name(struct ksmbd_file *fp, const char *name)
{
	char *own;
	bool same;

	if (!name)
		return false;
	own = ksmbd_file_name_dup(fp, GFP_KERNEL);
	same = own && !strcasecmp(own, name);
	kfree(own);
	return same;
}

/*
 * The handle's owner is going away but has not let go of it yet: its
 * session is no longer valid (a logoff or a PreviousSessionId teardown
 * still closing its handles) or its connection is closing. A client
 * reconnects as soon as it dropped its old connection, often before the
 * server has seen the drop or finished the teardown.
 */
static bool owner_leaving(u64 owner)
{
	struct ksmbd_session *sess;
	bool leaving;

	if (!owner)
		return true;
	sess = ksmbd_session_lookup_global(owner);
	if (!sess)
		return true;
	leaving = READ_ONCE(sess->conn_gone) || ksmbd_conn_exiting(sess->conn);
	ksmbd_session_put(sess);
	return leaving;
}

/*
 * Claims the handle, waiting (at most KSMBD_DURABLE_SETTLE_MS) while only
 * its old owner's teardown, the scavenger or another reconnect holds it:
 * a reconnect that raced them would otherwise get OBJECT_NAME_NOT_FOUND
 * for a handle the server keeps for it (smb2.durable-open.read-only under
 * load met the scavenger detaching the orphan). Every holder letting go
 * wakes us (ksmbd_file_durable_wait()); the bound is for a teardown that
 * never comes.
 */
#define KSMBD_DURABLE_SETTLE_MS	5000

static struct ksmbd_file *claim_settled(const struct ksmbd_durable_req *rq)
{
	unsigned long end = jiffies + msecs_to_jiffies(KSMBD_DURABLE_SETTLE_MS);
	struct ksmbd_file *fp;
	unsigned int seen;
	long left;
	u64 owner;

	for (;;) {
		seen = ksmbd_file_durable_seq();
		fp = ksmbd_file_durable_claim(rq->persistent_id,
					      rq->volatile_id, &owner);
		if (!IS_ERR(fp))
			return fp;
		if (PTR_ERR(fp) == -ENOENT ||
		    (PTR_ERR(fp) == -EISCONN && !owner_leaving(owner)))
			return NULL;
		left = (long)(end - jiffies);
		if (left <= 0 || !ksmbd_file_durable_wait(seen, left))
			return NULL;
	}
}

u32 ksmbd_durable_reconnect(struct ksmbd_caller *caller,
			    const struct ksmbd_durable_req *rq,
			    const struct ksmbd_oplock_req *op,
			    const char *name, struct ksmbd_file **out,
			    struct ksmbd_oplock_grant *og)
{
	struct ksmbd_file *fp;
	u32 status;
	int ret;

	*out = NULL;
	fp = claim_settled(rq);
	if (!fp) {
		trace_ksmbd_durable_reconnect(caller->conn, caller->session_id,
					      rq->persistent_id,
					      STATUS_OBJECT_NAME_NOT_FOUND);
		return STATUS_OBJECT_NAME_NOT_FOUND;
	}
	status = reconnect_check(caller, rq, fp);
	/*
	 * A disconnected handle belongs to no session: it joins this one
	 * only within this session's and connection's open-file bounds,
	 * and stays reclaimable when it does not fit.
	 */
	if (status == STATUS_SUCCESS && ksmbd_file_charge_session(fp, caller))
		status = STATUS_TOO_MANY_OPENED_FILES;
	if (status == STATUS_SUCCESS) {
		ret = ksmbd_oplock_durable_reclaim(caller, fp, op,
						   same_name(fp, name), og);
		if (ret)
			status = ret == -EINVAL ? STATUS_INVALID_PARAMETER :
						  STATUS_OBJECT_NAME_NOT_FOUND;
	}
	trace_ksmbd_durable_reconnect(caller->conn, caller->session_id,
				      rq->persistent_id, status);
	if (status != STATUS_SUCCESS) {
		ksmbd_file_uncharge_session(fp);
		ksmbd_file_durable_unclaim(fp);
		return status;
	}
	ksmbd_file_durable_attach(fp, caller);
	*out = fp;	/* the claim's reference */
	return STATUS_SUCCESS;
}

/* ---- Replay ---- */

struct ksmbd_file *ksmbd_durable_replay(struct ksmbd_caller *caller,
					const struct ksmbd_durable_req *rq)
{
	struct ksmbd_file *fp;

	if (rq->kind != KSMBD_DH_V2_REQ ||
	    !(caller->flags & SMB2_FLAGS_REPLAY_OPERATION))
		return NULL;
	fp = ksmbd_file_durable_find_guid(rq->create_guid,
					  caller->conn->neg.client_guid);
	if (!fp)
		return NULL;
	/* Only the session that made it gets it back. */
	if (fp->session_id != caller->sess->id ||
	    fp->tree_id != caller->tree->id) {
		ksmbd_file_put(fp);
		return NULL;
	}
	return fp;
}

static DEFINE_SPINLOCK(inflight_lock);
static LIST_HEAD(inflight);

/* Checked once in flight: an open made under the guid is listed by now. */
static bool guid_in_use(const struct ksmbd_durable_inflight *in)
{
	struct ksmbd_file *fp;

	fp = ksmbd_file_durable_find_guid(in->create_guid, in->client_guid);
	if (!fp)
		return false;
	ksmbd_file_put(fp);
	return true;
}

int ksmbd_durable_inflight_begin(struct ksmbd_caller *caller,
				 const struct ksmbd_durable_req *rq,
				 struct ksmbd_durable_inflight *in)
{
	struct ksmbd_durable_inflight *o;
	int ret = 0;

	INIT_LIST_HEAD(&in->node);
	if (rq->kind != KSMBD_DH_V2_REQ)
		return 0;
	memcpy(in->client_guid, caller->conn->neg.client_guid, 16);
	memcpy(in->create_guid, rq->create_guid, 16);
	spin_lock(&inflight_lock);
	list_for_each_entry(o, &inflight, node) {
		if (!memcmp(o->create_guid, in->create_guid, 16) &&
		    !memcmp(o->client_guid, in->client_guid, 16)) {
			ret = -EBUSY;
			break;
		}
	}
	if (!ret)
		list_add(&in->node, &inflight);
	spin_unlock(&inflight_lock);
	if (!ret && !(caller->flags & SMB2_FLAGS_REPLAY_OPERATION) &&
	    guid_in_use(in)) {
		ksmbd_durable_inflight_end(in);
		ret = -EBUSY;
	}
	return ret;
}

void ksmbd_durable_inflight_end(struct ksmbd_durable_inflight *in)
{
	if (list_empty(&in->node))
		return;
	spin_lock(&inflight_lock);
	list_del_init(&in->node);
	spin_unlock(&inflight_lock);
}

u32 ksmbd_durable_replay_grant(struct ksmbd_caller *caller,
			       struct ksmbd_file *fp,
			       const struct ksmbd_oplock_req *op,
			       struct ksmbd_oplock_grant *og,
			       struct ksmbd_durable_grant *dh)
{
	int ret = ksmbd_oplock_durable_reclaim(caller, fp, op, true, og);

	memset(dh, 0, sizeof(*dh));
	if (op->lease && ret)
		return STATUS_ACCESS_DENIED;
	if (!op->lease) {
		memset(og, 0, sizeof(*og));
		og->level = op->level;
		if (op->level != SMB2_OPLOCK_LEVEL_BATCH)
			return STATUS_SUCCESS;
	}
	if (!fp->durable)
		return STATUS_SUCCESS;
	dh->kind = KSMBD_DH_V2_REQ;
	dh->timeout_ms = fp->durable->timeout_ms;
	return STATUS_SUCCESS;
}

/* ---- Lock sequence (3.3.5.14) ---- */

/*
 * The slot of a LockSequence, or NULL when it has none (index 0, > 64) or
 * the handle keeps none: 3.3.5.14 checks it on durable handles and, when
 * the connection negotiated multichannel, on all of them.
 */
static u8 *seq_slot(struct ksmbd_caller *caller, struct ksmbd_file *fp,
		    u32 lock_sequence)
{
	const struct ksmbd_conn *conn = caller->conn;
	u32 index = lock_sequence >> 4;

	if (conn->neg.dialect < SMB30_DIALECT || !index ||
	    index > KSMBD_FILE_LOCK_SEQS)
		return NULL;
	if (!READ_ONCE(fp->durable) &&
	    !(conn->neg.capabilities & SMB2_GLOBAL_CAP_MULTI_CHANNEL))
		return NULL;
	return &fp->lock_seq[index - 1];
}

bool ksmbd_durable_lock_replayed(struct ksmbd_caller *caller,
				 struct ksmbd_file *fp, u32 lock_sequence)
{
	u8 *slot = seq_slot(caller, fp, lock_sequence);
	u8 number = (lock_sequence & 0xf) + 1;
	bool replayed;

	if (!slot)
		return false;
	spin_lock(&fp->lock_seq_lock);
	replayed = *slot == number;
	if (!replayed)
		*slot = 0;
	spin_unlock(&fp->lock_seq_lock);
	return replayed;
}

void ksmbd_durable_lock_done(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			     u32 lock_sequence)
{
	u8 *slot = seq_slot(caller, fp, lock_sequence);

	if (!slot)
		return;
	spin_lock(&fp->lock_seq_lock);
	*slot = (lock_sequence & 0xf) + 1;
	spin_unlock(&fp->lock_seq_lock);
}
