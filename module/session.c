// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session table. See session.h for the lifetime rules; the invariant
 * everything here rests on is "an entry in the table holds a reference",
 * so a lookup that finds an entry under the xarray lock may always take
 * one more.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "connection.h"
#include "debug.h"
#include "ipc.h"
#include "ksmbd_trace.h"
#include "server.h"
#include "session.h"
#include "stats.h"
#include "tree.h"

/* Table index: the low 32 bits of a SessionId. */
static DEFINE_XARRAY_ALLOC1(sessions);
static u32 next_index;
/*
 * Serializes creation (the caps must be checked and the entry added
 * atomically) and state changes to and from IN_PROGRESS and EXPIRED.
 * Lookups only take the xarray's own spinlock.
 */
static DEFINE_MUTEX(table_lock);
static unsigned int nr_sessions;	/* under table_lock */
static unsigned int nr_pending;		/* IN_PROGRESS, under table_lock */

static u32 sess_index(u64 id)
{
	return lower_32_bits(id);
}

static struct ksmbd_session *lookup(struct ksmbd_conn *conn, u64 id,
				    bool valid_only)
{
	struct ksmbd_session *sess;
	u32 idx = sess_index(id);

	if (!idx || idx == U32_MAX)
		return NULL;
	xa_lock(&sessions);
	sess = xa_load(&sessions, idx);
	/* Another connection's session is as good as unknown here. */
	if (sess && (sess->id != id || sess->conn != conn))
		sess = NULL;
	if (sess) {
		/* Pairs with the release in ksmbd_session_activate(). */
		enum ksmbd_session_state st = smp_load_acquire(&sess->state);

		if (st == KSMBD_SESS_EXPIRED ||
		    (valid_only && st != KSMBD_SESS_VALID) ||
		    !refcount_inc_not_zero(&sess->refs))
			sess = NULL;
	}
	xa_unlock(&sessions);
	return sess;
}

struct ksmbd_session *ksmbd_session_lookup(struct ksmbd_conn *conn, u64 id)
{
	return lookup(conn, id, true);
}

struct ksmbd_session *ksmbd_session_lookup_any(struct ksmbd_conn *conn, u64 id)
{
	return lookup(conn, id, false);
}

void ksmbd_session_get(struct ksmbd_session *sess)
{
	refcount_inc(&sess->refs);
}

static void session_free(struct ksmbd_session *sess)
{
	WARN_ON_ONCE(!xa_empty(&sess->trees));
	xa_destroy(&sess->trees);
	ksmbd_auth_state_free(sess->auth);
	ksmbd_signer_free(&sess->signer);
	ksmbd_sess_crypto_free(&sess->crypto);
	if (sess->cred)
		put_cred(sess->cred);
	ksmbd_conn_put(sess->conn);
	memzero_explicit(sess->preauth_hash, sizeof(sess->preauth_hash));
	kfree(sess);
	ksmbd_live_dec(KSMBD_LIVE_SESSIONS);
}

void ksmbd_session_put(struct ksmbd_session *sess)
{
	if (refcount_dec_and_test(&sess->refs))
		session_free(sess);
}

/* Counts of this connection's sessions; under table_lock. */
static void conn_counts(struct ksmbd_conn *conn, unsigned int *all,
			unsigned int *pending)
{
	struct ksmbd_session *sess;
	unsigned long idx;

	*all = 0;
	*pending = 0;
	xa_for_each(&sessions, idx, sess) {
		if (sess->conn != conn)
			continue;
		(*all)++;
		if (sess->state == KSMBD_SESS_IN_PROGRESS)
			(*pending)++;
	}
}

/* The oldest setup of conn that has run out of time, with a reference. */
static struct ksmbd_session *stale_setup(struct ksmbd_conn *conn)
{
	unsigned long limit = KSMBD_SESSION_SETUP_TIMEOUT_S * HZ;
	struct ksmbd_session *sess, *found = NULL;
	unsigned long idx;

	mutex_lock(&table_lock);
	xa_for_each(&sessions, idx, sess) {
		if (sess->conn == conn &&
		    sess->state == KSMBD_SESS_IN_PROGRESS &&
		    time_after(jiffies, sess->created + limit)) {
			found = sess;
			ksmbd_session_get(found);
			break;
		}
	}
	mutex_unlock(&table_lock);
	return found;
}

static void expire_stale_setups(struct ksmbd_conn *conn)
{
	struct ksmbd_session *sess;

	while ((sess = stale_setup(conn))) {
		ksmbd_debug(AUTH, "session %llx: setup expired\n", sess->id);
		ksmbd_session_teardown(sess, "setup expired");
		ksmbd_session_put(sess);
	}
}

static int table_insert(struct ksmbd_session *sess)
{
	unsigned int all, pending;
	u32 idx;
	int ret;

	mutex_lock(&table_lock);
	/* Checked under the lock that ksmbd_session_conn_closed() takes. */
	if (ksmbd_conn_exiting(sess->conn)) {
		ret = -ESHUTDOWN;
		goto out_unlock;
	}
	conn_counts(sess->conn, &all, &pending);
	if (all >= READ_ONCE(ksmbd_server_conf.max_sessions_per_conn) ||
	    pending >= KSMBD_SESSION_MAX_PENDING_CONN ||
	    nr_sessions >= KSMBD_SESSION_MAX_GLOBAL ||
	    nr_pending >= KSMBD_SESSION_MAX_PENDING) {
		ret = -EAGAIN;
		goto out_unlock;
	}
	ret = xa_alloc_cyclic(&sessions, &idx, sess,
			      XA_LIMIT(1, U32_MAX - 1), &next_index,
			      GFP_KERNEL);
	if (ret < 0)
		goto out_unlock;
	/*
	 * Random high half: ids are not guessable from one another, and a
	 * stale id of a reused slot does not match the new session. Set
	 * under the lock lookups compare it under.
	 */
	xa_lock(&sessions);
	sess->id = ((u64)(get_random_u32() | 1) << 32) | idx;
	xa_unlock(&sessions);
	nr_sessions++;
	nr_pending++;
	ret = 0;
out_unlock:
	mutex_unlock(&table_lock);
	return ret;
}

struct ksmbd_session *ksmbd_session_create(struct ksmbd_conn *conn)
{
	struct ksmbd_session *sess;
	int ret;

	expire_stale_setups(conn);
	sess = kzalloc(sizeof(*sess), GFP_KERNEL);
	if (!sess)
		return ERR_PTR(-ENOMEM);
	ksmbd_live_inc(KSMBD_LIVE_SESSIONS);
	refcount_set(&sess->refs, 1);	/* the table's */
	ksmbd_conn_get(conn);
	sess->conn = conn;
	sess->dialect = conn->neg.dialect;
	mutex_init(&sess->lock);
	mutex_init(&sess->auth_lock);
	sess->state = KSMBD_SESS_IN_PROGRESS;
	sess->created = jiffies;
	xa_init_flags(&sess->trees, XA_FLAGS_ALLOC1);
	memcpy(sess->preauth_hash, conn->neg.preauth_hash,
	       sizeof(sess->preauth_hash));

	ret = table_insert(sess);
	if (ret) {
		session_free(sess);
		return ERR_PTR(ret);
	}
	/* The caller's reference; the table keeps the first one. */
	ksmbd_session_get(sess);
	return sess;
}

int ksmbd_session_activate(struct ksmbd_session *sess)
{
	int ret = 0;

	mutex_lock(&table_lock);
	if (sess->state == KSMBD_SESS_IN_PROGRESS) {
		/* Key, cred and user fields are visible before the state. */
		smp_store_release(&sess->state, KSMBD_SESS_VALID);
		nr_pending--;
	} else if (sess->state != KSMBD_SESS_VALID) {
		/* Torn down (logoff, connection closing) while we worked. */
		ret = -ESHUTDOWN;
	}
	mutex_unlock(&table_lock);
	return ret;
}

void ksmbd_session_teardown(struct ksmbd_session *sess, const char *why)
{
	enum ksmbd_session_state was;

	mutex_lock(&table_lock);
	was = sess->state;
	if (was == KSMBD_SESS_EXPIRED) {
		mutex_unlock(&table_lock);
		return;
	}
	WRITE_ONCE(sess->state, KSMBD_SESS_EXPIRED);
	xa_erase(&sessions, sess_index(sess->id));
	nr_sessions--;
	if (was == KSMBD_SESS_IN_PROGRESS)
		nr_pending--;
	mutex_unlock(&table_lock);

	ksmbd_tree_teardown_all(sess);
	ksmbd_file_close_session(sess);
	if (was == KSMBD_SESS_VALID)
		ksmbd_ipc_logout(sess->account, sess->user_flags);
	trace_ksmbd_session_end(sess->conn->id, sess->id, sess->account, why);
	/* The table's reference. */
	ksmbd_session_put(sess);
}

static bool same_user(const struct ksmbd_session *a,
		      const struct ksmbd_session *b)
{
	const u16 anon = SMB2_SESSION_FLAG_IS_GUEST | SMB2_SESSION_FLAG_IS_NULL;

	return !(a->session_flags & anon) && !(b->session_flags & anon) &&
	       uid_eq(a->uid, b->uid) && !strcmp(a->account, b->account);
}

void ksmbd_session_replace_previous(struct ksmbd_session *sess, u64 prev_id)
{
	struct ksmbd_session *old;
	u32 idx = sess_index(prev_id);

	if (!prev_id || prev_id == sess->id || !idx || idx == U32_MAX)
		return;
	mutex_lock(&table_lock);
	old = xa_load(&sessions, idx);
	/* VALID: its user fields are set and fixed (session.h). */
	if (!old || old == sess || old->id != prev_id ||
	    old->state != KSMBD_SESS_VALID || !same_user(old, sess) ||
	    !refcount_inc_not_zero(&old->refs)) {
		mutex_unlock(&table_lock);
		return;
	}
	WRITE_ONCE(old->replaced, true);
	mutex_unlock(&table_lock);
	ksmbd_session_teardown(old, "replaced by a new session");
	ksmbd_session_put(old);
}

/* One session of conn still in the table, with a reference. */
static struct ksmbd_session *first_of_conn(struct ksmbd_conn *conn)
{
	struct ksmbd_session *sess, *found = NULL;
	unsigned long idx;

	mutex_lock(&table_lock);
	xa_for_each(&sessions, idx, sess) {
		if (sess->conn == conn) {
			found = sess;
			ksmbd_session_get(found);
			break;
		}
	}
	mutex_unlock(&table_lock);
	return found;
}

void ksmbd_session_conn_closed(struct ksmbd_conn *conn)
{
	struct ksmbd_session *sess;

	/*
	 * EXITING is already set, so table_insert() adds no new session of
	 * this connection once we have looked.
	 */
	while ((sess = first_of_conn(conn))) {
		ksmbd_session_teardown(sess, "connection closed");
		ksmbd_session_put(sess);
	}
}

void ksmbd_session_exit(void)
{
	/* Every connection, and with it every session, is gone by now. */
	WARN_ON_ONCE(!xa_empty(&sessions));
	xa_destroy(&sessions);
}
