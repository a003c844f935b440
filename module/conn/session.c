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
#include "proto/smb2.h"
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
/* IN_PROGRESS sessions, oldest first; under table_lock. */
static LIST_HEAD(pending_list);

static u32 sess_index(u64 id)
{
	return lower_32_bits(id);
}

/* Under chan_lock. */
static bool on_conn_locked(struct ksmbd_session *sess, struct ksmbd_conn *conn)
{
	struct ksmbd_channel *ch;

	if (sess->conn == conn)
		return !sess->conn_gone;
	list_for_each_entry(ch, &sess->channels, node)
		if (ch->conn == conn)
			return ch->bound && !ch->gone;
	return false;
}

bool ksmbd_session_on_conn(struct ksmbd_session *sess, struct ksmbd_conn *conn)
{
	bool on;

	spin_lock(&sess->chan_lock);
	on = on_conn_locked(sess, conn);
	spin_unlock(&sess->chan_lock);
	return on;
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
	if (sess && (sess->id != id ||
		     (conn && !ksmbd_session_on_conn(sess, conn))))
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

struct ksmbd_session *ksmbd_session_lookup_global(u64 id)
{
	return lookup(NULL, id, false);
}

/*
 * Under chan_lock: a live path of sess, its own connection first, then
 * its bound channels in the order they were bound; NULL when none.
 */
static struct ksmbd_conn *live_path_locked(struct ksmbd_session *sess)
{
	struct ksmbd_channel *ch;

	if (!sess->conn_gone && !ksmbd_conn_exiting(sess->conn))
		return sess->conn;
	list_for_each_entry(ch, &sess->channels, node)
		if (ch->bound && !ch->gone && !ksmbd_conn_exiting(ch->conn))
			return ch->conn;
	return NULL;
}

struct ksmbd_conn *ksmbd_session_live_conn(struct ksmbd_session *sess)
{
	struct ksmbd_conn *conn;

	spin_lock(&sess->chan_lock);
	conn = live_path_locked(sess);
	if (conn)
		ksmbd_conn_get(conn);
	spin_unlock(&sess->chan_lock);
	return conn;
}

struct ksmbd_session *ksmbd_session_find_client(const u8 *client_guid,
						kuid_t uid, bool sealed,
						struct ksmbd_conn **conn)
{
	static const u8 zero[16];
	struct ksmbd_session *sess, *found = NULL;
	struct ksmbd_conn *c, *found_conn = NULL;
	unsigned long idx;

	*conn = NULL;
	if (!memcmp(client_guid, zero, sizeof(zero)))
		return NULL;
	xa_lock(&sessions);
	xa_for_each(&sessions, idx, sess) {
		if (smp_load_acquire(&sess->state) != KSMBD_SESS_VALID ||
		    !uid_eq(sess->uid, uid) ||
		    memcmp(sess->conn->neg.client_guid, client_guid, 16) ||
		    (sealed && !ksmbd_sess_encrypts(&sess->crypto)))
			continue;
		spin_lock(&sess->chan_lock);
		c = live_path_locked(sess);
		spin_unlock(&sess->chan_lock);
		/* The client's oldest live connection: ids grow with age. */
		if (c && (!found || c->id < found_conn->id)) {
			found = sess;
			found_conn = c;
		}
	}
	if (found && !refcount_inc_not_zero(&found->refs))
		found = NULL;
	/* The session holds its paths: found_conn is still counted. */
	if (found) {
		ksmbd_conn_get(found_conn);
		*conn = found_conn;
	}
	xa_unlock(&sessions);
	return found;
}

void ksmbd_session_get(struct ksmbd_session *sess)
{
	refcount_inc(&sess->refs);
}

/* Set once at load, before any session exists; read-only after. */
static const struct ksmbd_session_hooks *hooks;

void ksmbd_session_hooks_register(const struct ksmbd_session_hooks *h)
{
	hooks = h;
}

static void channels_free(struct ksmbd_session *sess)
{
	struct ksmbd_channel *ch, *tmp;

	list_for_each_entry_safe(ch, tmp, &sess->channels, node) {
		list_del(&ch->node);
		hooks->auth_free(ch->auth);
		ksmbd_signer_free(&ch->signer);
		ksmbd_conn_put(ch->conn);
		memzero_explicit(ch->preauth_hash, sizeof(ch->preauth_hash));
		kfree(ch);
	}
}

static void session_free(struct ksmbd_session *sess)
{
	channels_free(sess);
	WARN_ON_ONCE(!xa_empty(&sess->trees));
	xa_destroy(&sess->trees);
	hooks->auth_free(sess->auth);
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

static void teardown(struct ksmbd_session *sess, const char *why,
		     bool only_pending);

/*
 * The administrator's listing (control.c): fn sees every session in the
 * table, under the table lock, so a state read there is stable and
 * nothing is freed meanwhile. fn must not sleep for long nor take the
 * table lock.
 */
void ksmbd_session_for_each(void (*fn)(struct ksmbd_session *sess, void *arg),
			    void *arg)
{
	struct ksmbd_session *sess;
	unsigned long idx;

	mutex_lock(&table_lock);
	xa_for_each(&sessions, idx, sess)
		fn(sess, arg);
	mutex_unlock(&table_lock);
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

/* A setup unfinished this long is ended when the next one starts. */
static unsigned long setup_max_age(void)
{
	unsigned int s = ksmbd_conn_setup_timeout_s();

	return (s ? s : 30) * HZ;
}

/*
 * Under table_lock: the half-done setup that has to go before conn may
 * start one, or NULL. *why says which bound; NULL and *why set means
 * conn itself is over its bound (refuse, end nobody else's).
 */
static struct ksmbd_session *setup_victim(struct ksmbd_conn *conn,
					  unsigned int pending,
					  const char **why)
{
	struct ksmbd_session *sess, *oldest_peer = NULL;
	unsigned int peer = 0;

	*why = NULL;
	sess = list_first_entry_or_null(&pending_list, struct ksmbd_session,
					pending_node);
	if (sess && time_after(jiffies, sess->created + setup_max_age())) {
		*why = "session setup expired";
		return sess;
	}
	if (pending >= KSMBD_SESSION_MAX_PENDING_CONN) {
		*why = "pending session setups per connection";
		return NULL;
	}
	list_for_each_entry(sess, &pending_list, pending_node) {
		if (!ksmbd_conn_same_peer(sess->conn, conn))
			continue;
		if (!peer++)
			oldest_peer = sess;
	}
	/* A peer crowds out only itself: its oldest setup makes room. */
	if (peer >= KSMBD_SESSION_MAX_PENDING_PEER) {
		*why = "pending session setups per peer";
		return oldest_peer;
	}
	/*
	 * Full: the oldest setup anywhere goes. Those of a flooding peer
	 * are the older ones, so a new peer always gets its turn.
	 */
	if (nr_pending >= KSMBD_SESSION_MAX_PENDING) {
		*why = "pending session setups";
		return list_first_entry(&pending_list, struct ksmbd_session,
					pending_node);
	}
	return NULL;
}

/*
 * Under table_lock: 0 when sess may go in, -EAGAIN when its connection
 * is over a bound, or -EBUSY with *victim (counted) to end first.
 */
static int insert_check(struct ksmbd_session *sess,
			struct ksmbd_session **victim)
{
	unsigned int all, pending;
	const char *why;

	*victim = NULL;
	if (ksmbd_conn_exiting(sess->conn))
		return -ESHUTDOWN;
	conn_counts(sess->conn, &all, &pending);
	if (all >= READ_ONCE(ksmbd_server_conf.max_sessions_per_conn) ||
	    nr_sessions >= KSMBD_SESSION_MAX_GLOBAL) {
		ksmbd_conn_note_limit(sess->conn, "sessions");
		return -EAGAIN;
	}
	*victim = setup_victim(sess->conn, pending, &why);
	if (!why)
		return 0;
	ksmbd_conn_note_limit(sess->conn, why);
	if (!*victim)
		return -EAGAIN;
	ksmbd_session_get(*victim);
	return -EBUSY;
}

static int table_insert(struct ksmbd_session *sess)
{
	struct ksmbd_session *victim;
	u32 idx;
	int ret;

	mutex_lock(&table_lock);
	/* Checked under the lock that ksmbd_session_conn_closed() takes. */
	while ((ret = insert_check(sess, &victim)) == -EBUSY) {
		mutex_unlock(&table_lock);
		ksmbd_debug(AUTH, "session %llx: setup ended to make room\n",
			    victim->id);
		ksmbd_total_add(KSMBD_TOTAL_SETUPS_EVICTED, 1);
		teardown(victim, "setup ended to make room", true);
		ksmbd_session_put(victim);
		mutex_lock(&table_lock);
	}
	if (ret) {
		if (ret == -EAGAIN)
			ksmbd_total_add(KSMBD_TOTAL_SETUPS_REFUSED, 1);
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
	list_add_tail(&sess->pending_node, &pending_list);
	ret = 0;
out_unlock:
	mutex_unlock(&table_lock);
	return ret;
}

unsigned int ksmbd_session_nr_pending(void)
{
	return READ_ONCE(nr_pending);
}

struct ksmbd_session *ksmbd_session_create(struct ksmbd_conn *conn)
{
	struct ksmbd_session *sess;
	int ret;

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
	spin_lock_init(&sess->chan_lock);
	INIT_LIST_HEAD(&sess->channels);
	INIT_LIST_HEAD(&sess->pending_node);
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
		list_del_init(&sess->pending_node);
		nr_pending--;
	} else if (sess->state != KSMBD_SESS_VALID) {
		/* Torn down (logoff, connection closing) while we worked. */
		ret = -ESHUTDOWN;
	}
	mutex_unlock(&table_lock);
	return ret;
}

/* only_pending: leave a session that has become VALID meanwhile alone. */
static void teardown(struct ksmbd_session *sess, const char *why,
		     bool only_pending)
{
	enum ksmbd_session_state was;

	mutex_lock(&table_lock);
	was = sess->state;
	if (was == KSMBD_SESS_EXPIRED ||
	    (only_pending && was != KSMBD_SESS_IN_PROGRESS)) {
		mutex_unlock(&table_lock);
		return;
	}
	WRITE_ONCE(sess->state, KSMBD_SESS_EXPIRED);
	xa_erase(&sessions, sess_index(sess->id));
	nr_sessions--;
	if (was == KSMBD_SESS_IN_PROGRESS) {
		list_del_init(&sess->pending_node);
		nr_pending--;
	}
	mutex_unlock(&table_lock);

	ksmbd_tree_teardown_all(sess);
	hooks->close_files(sess);
	if (was == KSMBD_SESS_VALID)
		ksmbd_ipc_logout(sess->account, sess->user_flags);
	trace_ksmbd_session_end(sess->conn->id, sess->id, sess->account, why,
				&sess->conn->peer);
	/* The table's reference. */
	ksmbd_session_put(sess);
}

void ksmbd_session_teardown(struct ksmbd_session *sess, const char *why)
{
	teardown(sess, why, false);
}

void ksmbd_session_end_previous(struct ksmbd_session *sess, u64 prev_id)
{
	struct ksmbd_session *old;

	if (!prev_id || prev_id == sess->id || !ksmbd_session_valid(sess) ||
	    (sess->session_flags & (SMB2_SESSION_FLAG_IS_GUEST |
				    SMB2_SESSION_FLAG_IS_NULL)))
		return;
	old = lookup(NULL, prev_id, true);
	if (!old)
		return;
	/* Another user's session is left alone (the id is ignored). */
	if (old != sess && uid_eq(old->uid, sess->uid) &&
	    !strcmp(old->account, sess->account) &&
	    !(old->session_flags & (SMB2_SESSION_FLAG_IS_GUEST |
				    SMB2_SESSION_FLAG_IS_NULL))) {
		WRITE_ONCE(old->keep_durable, true);
		ksmbd_session_teardown(old, "replaced by a reconnect");
	}
	ksmbd_session_put(old);
}

/*
 * Under chan_lock: conn leaves the session's paths. True when it was one
 * (bound or binding) and the session had no other live path.
 */
static bool leave_conn(struct ksmbd_session *sess, struct ksmbd_conn *conn,
		       bool *was_path)
{
	struct ksmbd_channel *ch;
	bool live = false;

	*was_path = false;
	if (sess->conn == conn && !sess->conn_gone) {
		sess->conn_gone = true;
		*was_path = true;
		if (!list_empty(&sess->channels))
			trace_ksmbd_session_channel(conn->id, sess->id,
						    sess->account, "unbind",
						    &conn->peer);
	}
	list_for_each_entry(ch, &sess->channels, node) {
		if (ch->conn == conn && !ch->gone) {
			ch->gone = true;
			*was_path = true;
			if (ch->bound)
				trace_ksmbd_session_channel(conn->id, sess->id,
							    sess->account,
							    "unbind",
							    &conn->peer);
		}
		if (ch->bound && !ch->gone)
			live = true;
	}
	return *was_path && !live && sess->conn_gone;
}

/*
 * One session conn was a path of, now left; with a reference when conn
 * was its last path (it must be torn down), else NULL and *more says
 * whether to look again.
 */
static struct ksmbd_session *next_left(struct ksmbd_conn *conn, bool *more,
				       bool *survived)
{
	struct ksmbd_session *sess, *found = NULL;
	unsigned long idx;
	bool was_path, last;

	*more = false;
	mutex_lock(&table_lock);
	xa_for_each(&sessions, idx, sess) {
		spin_lock(&sess->chan_lock);
		last = leave_conn(sess, conn, &was_path);
		spin_unlock(&sess->chan_lock);
		if (was_path && !last)
			*survived = true;
		if (last) {
			found = sess;
			ksmbd_session_get(found);
			*more = true;
			break;
		}
	}
	mutex_unlock(&table_lock);
	return found;
}

bool ksmbd_session_lives_beyond(u64 id, struct ksmbd_conn *conn)
{
	struct ksmbd_session *sess = lookup(NULL, id, true);
	struct ksmbd_channel *ch;
	bool live;

	if (!sess)
		return false;
	spin_lock(&sess->chan_lock);
	live = sess->conn != conn && !sess->conn_gone;
	list_for_each_entry(ch, &sess->channels, node)
		if (ch->conn != conn && ch->bound && !ch->gone)
			live = true;
	spin_unlock(&sess->chan_lock);
	ksmbd_session_put(sess);
	return live;
}

bool ksmbd_session_conn_closed(struct ksmbd_conn *conn)
{
	struct ksmbd_session *sess;
	bool more = true, survived = false;

	/*
	 * EXITING is already set, so table_insert() adds no new session of
	 * this connection, and no binding adds it as a channel, once we
	 * have looked.
	 */
	while (more) {
		sess = next_left(conn, &more, &survived);
		if (!sess)
			break;
		/* Its handles stay for a durable reconnect (3.3.7.1). */
		WRITE_ONCE(sess->keep_durable, true);
		ksmbd_session_teardown(sess, "connection closed");
		ksmbd_session_put(sess);
	}
	return survived;
}

struct ksmbd_channel *ksmbd_channel_pending(struct ksmbd_session *sess,
					    struct ksmbd_conn *conn,
					    bool create, bool *bound)
{
	struct ksmbd_channel *ch, *fresh = NULL;

	*bound = false;
	if (create)
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	mutex_lock(&table_lock);
	spin_lock(&sess->chan_lock);
	list_for_each_entry(ch, &sess->channels, node) {
		if (ch->conn == conn && !ch->gone) {
			*bound = ch->bound;
			goto out;
		}
	}
	ch = NULL;
	/* Checked under the lock ksmbd_session_conn_closed() takes. */
	if (!fresh || ksmbd_conn_exiting(conn) ||
	    sess->nr_channels + 1 >= KSMBD_SESSION_MAX_CHANNELS)
		goto out;
	ch = fresh;
	fresh = NULL;
	ksmbd_conn_get(conn);
	ch->conn = conn;
	list_add_tail(&ch->node, &sess->channels);
	sess->nr_channels++;
out:
	spin_unlock(&sess->chan_lock);
	mutex_unlock(&table_lock);
	kfree(fresh);
	return *bound ? NULL : ch;
}

void ksmbd_channel_bind(struct ksmbd_session *sess, struct ksmbd_channel *ch)
{
	spin_lock(&sess->chan_lock);
	ch->bound = true;
	spin_unlock(&sess->chan_lock);
	trace_ksmbd_session_channel(ch->conn->id, sess->id, sess->account,
				    "bind", &ch->conn->peer);
}

const struct ksmbd_signer *ksmbd_session_signer(struct ksmbd_session *sess,
						const struct ksmbd_conn *conn)
{
	const struct ksmbd_signer *s = &sess->signer;
	struct ksmbd_channel *ch;

	if (conn == sess->conn)
		return s;
	spin_lock(&sess->chan_lock);
	list_for_each_entry(ch, &sess->channels, node) {
		if (ch->conn == conn && ch->bound) {
			s = &ch->signer;
			break;
		}
	}
	spin_unlock(&sess->chan_lock);
	return s;
}

void ksmbd_session_sign_rsp(struct ksmbd_session *sess,
			    const struct ksmbd_conn *conn, u8 *rsp, u32 len)
{
	const struct ksmbd_signer *s = conn ? ksmbd_session_signer(sess, conn) :
					      &sess->signer;

	if (ksmbd_signer_sign(s, rsp, len))
		pr_warn_ratelimited("session %llx: cannot sign a response\n",
				    sess->id);
	ksmbd_session_put(sess);
}

void ksmbd_session_exit(void)
{
	/* Every connection, and with it every session, is gone by now. */
	WARN_ON_ONCE(!xa_empty(&sessions));
	xa_destroy(&sessions);
}
