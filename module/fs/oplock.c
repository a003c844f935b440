// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Oplock and lease owners, grants and breaks (see oplock.h for the model,
 * the locking and the lifetime rules).
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

DEFINE_MUTEX(ksmbd_owner_lock);
static DEFINE_HASHTABLE(by_inode, 8);
static DEFINE_HASHTABLE(by_key, 8);
static DECLARE_WAIT_QUEUE_HEAD(break_wq);
static unsigned long break_seq;		/* under owner_lock; bumped on every resolution */
static atomic_t nr_waiters;

/* What an operation through one handle demands of the other owners. */
enum break_kind {
	BREAK_OPEN,		/* another open: no write caching */
	BREAK_SHARING,		/* an open blocked by share modes: no handle caching */
	BREAK_OVERWRITE,	/* open that truncates: no caching at all */
	BREAK_WRITE,		/* data changed: no read (or write) caching */
	BREAK_NAMESPACE,	/* rename, delete: no handle caching */
	BREAK_LOCAL,		/* a local process broke the kernel lease: none */
	BREAK_PARENT,		/* an entry of a leased directory changed: none */
};

/* Who is breaking, and which owner (if any) is its own. */
struct breaker {
	enum break_kind kind;
	struct inode *inode;
	/* opens and writes meet the owners of their own stream only */
	bool per_stream;
	u32 stream;
	struct ksmbd_oplock *self;	/* the handle's owner; may be NULL */
	const u8 *guid;			/* with key: the requester's lease */
	const u8 *key;
	kuid_t uid;			/* with key: the requester's user */
	u32 access, share;		/* the opening handle's modes (BREAK_OPEN) */
	bool check_share;
	bool deletes;			/* the open asks for delete on close */
	struct ksmbd_caller *caller;	/* the waiting request: may go async */
	struct ksmbd_caller *waiter;	/* the opener's request, if known */
	/*
	 * An open: leave the owners of dropped connections alone and say
	 * so (gone), for the opener to close their disconnected durable
	 * handles instead (MS-SMB2 3.3.4.6), then break again.
	 */
	bool spare_gone;
	bool gone;
};

/* A break notification to send once owner_lock is dropped. */
struct break_note {
	struct list_head node;
	struct ksmbd_conn *conn;	/* counted */
	bool lease;
	bool ack_required;
	u8 key[16];
	u8 guid[16];			/* leases: the client's ClientGuid */
	kuid_t uid;			/* leases: the lease's user */
	u64 pid, vid, sess_id;
	bool sealed;			/* the owner's: see struct ksmbd_oplock */
	u32 from, to;
	u16 epoch;
};

static unsigned long key_hash(const u8 *guid, const u8 *key)
{
	return get_unaligned_le64(key) ^ get_unaligned_le64(key + 8) ^
	       get_unaligned_le64(guid);
}

static unsigned int break_timeout(void)
{
	u32 s = READ_ONCE(ksmbd_server_conf.oplock_break_timeout_s);

	return (s ? s : KSMBD_OPLOCK_BREAK_TIMEOUT_S) * HZ;
}

struct ksmbd_oplock *ksmbd_lease_find(const u8 *guid, const u8 *key,
				      kuid_t uid)
{
	struct ksmbd_oplock *o;

	lockdep_assert_held(&ksmbd_owner_lock);
	hash_for_each_possible(by_key, o, key_node, key_hash(guid, key))
		if (!memcmp(o->key, key, 16) && !memcmp(o->guid, guid, 16) &&
		    uid_eq(o->uid, uid))
			return o;
	return NULL;
}

/* Trace id of an owner: the persistent FileId, or the lease key's first half. */
u64 ksmbd_oplock_trace_id(const struct ksmbd_oplock *o)
{
	return o->lease ? get_unaligned_le64(o->key) : o->pid;
}

/* An owner's break is over (ack, timeout, dead client): wake the waiters. */
void ksmbd_oplock_resolve(struct ksmbd_oplock *o, u32 state)
{
	lockdep_assert_held(&ksmbd_owner_lock);
	o->state = state;
	o->breaking = false;
	if (!(state & KSMBD_LEASE_R))
		ksmbd_klease_drop(o);
	break_seq++;
	wake_up_all(&break_wq);
}

/*
 * An unacknowledged break ends: at the acknowledgement timer (MS-SMB2
 * 3.3.2.1, 3.3.2.5) the client is taken to have kept nothing, so the
 * oplock or lease goes to none (smb2.lease.timeout). A break cut short
 * for the waiters' sake, or whose client is gone, keeps what it broke to.
 */
static void timeout_owner(struct ksmbd_oplock *o, const char *why, bool none)
{
	trace_ksmbd_oplock_break_timeout(o->conn->id, ksmbd_oplock_trace_id(o),
					 o->lease, o->state, o->break_to, 0, 0,
					 why);
	ksmbd_oplock_resolve(o, none ? 0 : o->break_to);
}

/* What kind permits another owner o to keep. */
static u32 allowed(const struct ksmbd_oplock *o, const struct breaker *b)
{
	u32 keep;

	switch (b->kind) {
	case BREAK_OPEN:
		/* A lease is not broken by an open for reading security. */
		if (o->lease && !(b->access & ~(FILE_STAT_OPEN_RIGHTS |
						FILE_READ_CONTROL)))
			return KSMBD_LEASE_RWH;
		keep = KSMBD_LEASE_R | KSMBD_LEASE_H;
		/*
		 * Handles cached open keep a file to be deleted on close
		 * from going away (smb2.lease.unlink): they go too.
		 */
		if (b->deletes ||
		    (b->check_share &&
		     ksmbd_share_conflict(o->access, o->share, b->access,
					  b->share)))
			keep &= ~KSMBD_LEASE_H;
		break;
	case BREAK_SHARING:
		/*
		 * The opener fails unless the holder closes handles it only
		 * keeps cached; it opens nothing, so W may stay (MS-FSA
		 * 2.1.5.1.2.1; smb2.lease.break_twice breaks RWH to RW).
		 */
		keep = KSMBD_LEASE_R | KSMBD_LEASE_W;
		break;
	case BREAK_LOCAL:
	case BREAK_PARENT:
	case BREAK_OVERWRITE:
		/*
		 * The data is replaced under the holder: nothing cached stays
		 * valid, and handles it keeps open (cifs' deferred closes)
		 * would keep a stale size; break to none.
		 */
		keep = 0;
		break;
	case BREAK_WRITE:
		keep = KSMBD_LEASE_H;
		break;
	default:
		keep = KSMBD_LEASE_R | KSMBD_LEASE_W;
		break;
	}
	/* An oplock without handle caching cannot keep write caching alone. */
	if (!o->lease && !(keep & KSMBD_LEASE_H))
		keep &= ~KSMBD_LEASE_W;
	/*
	 * Every valid state has R: what loses read caching (a write, a
	 * lock) goes to none, not to H alone (smb2.lease.lock1, complex1).
	 */
	if (!(keep & KSMBD_LEASE_R))
		keep = 0;
	return keep;
}

/* Not b's concern: another file, or another stream of b's file. */
static bool elsewhere(const struct ksmbd_oplock *o, const struct breaker *b)
{
	return o->inode != b->inode || (b->per_stream && o->stream != b->stream);
}

static bool is_self(const struct ksmbd_oplock *o, const struct breaker *b)
{
	if (o == b->self)
		return true;
	/* A directory's change: the open's ParentLeaseKey is the key. */
	return b->key && o->lease &&
	       (b->kind == BREAK_PARENT || uid_eq(o->uid, b->uid)) &&
	       !memcmp(o->key, b->key, 16) && !memcmp(o->guid, b->guid, 16);
}

/*
 * A write through a handle with a level II oplock breaks that oplock too
 * (to none, no ack), as it breaks everyone else's (smb2.oplock.batch6).
 */
static bool self_level2(const struct ksmbd_oplock *o, const struct breaker *b)
{
	return b->kind == BREAK_WRITE && !o->lease && o->state == KSMBD_LEASE_R;
}

static struct break_note *note_make(struct ksmbd_oplock *o, u32 to, bool ack)
{
	struct break_note *n = kzalloc(sizeof(*n), GFP_KERNEL);

	if (!n)
		return NULL;
	ksmbd_conn_get(o->conn);
	n->conn = o->conn;
	n->lease = o->lease;
	n->ack_required = ack;
	memcpy(n->key, o->key, 16);
	memcpy(n->guid, o->guid, 16);
	n->uid = o->uid;
	n->pid = o->pid;
	n->vid = o->vid;
	n->sess_id = o->sess_id;
	n->sealed = o->sealed;
	n->from = o->state;
	n->to = to;
	n->epoch = o->epoch;
	return n;
}

/*
 * o's connection is going away and its teardown has not yet closed or
 * kept (as durable) o's handles; the placeholder of disconnected durable
 * handles and a connection already off the list are past that.
 */
static bool tearing_down(const struct ksmbd_oplock *o)
{
	return o->conn != ksmbd_oplock_nowhere() &&
	       ksmbd_conn_exiting(o->conn) && !list_empty(&o->conn->node);
}

/*
 * Start o's break to "to". With an acknowledgement due (the owner caches
 * writes or handles and its client is reachable, or its connection's
 * teardown is about to end the break) the owner is marked breaking until
 * the ack, the teardown or the timeout; otherwise it is downgraded now.
 * Returns true when an acknowledgement is awaited.
 */
static bool start_break(struct ksmbd_oplock *o, u32 to, bool bump,
			struct list_head *notes)
{
	bool ack = (o->state & (KSMBD_LEASE_W | KSMBD_LEASE_H)) &&
		   (!ksmbd_conn_exiting(o->conn) || tearing_down(o));
	struct break_note *n;

	if (bump && o->lease && o->version == 2)
		o->epoch++;
	o->noack_break = !o->lease && !ack;
	if (!ksmbd_conn_exiting(o->conn)) {
		n = note_make(o, to, ack);
		if (n)
			list_add_tail(&n->node, notes);
		else
			ack = false;	/* no way to tell the client: downgrade */
	}
	if (!ack) {
		ksmbd_oplock_resolve(o, to);
		return false;
	}
	o->breaking = true;
	o->break_to = to;
	o->need = to;
	o->break_ns = ktime_get_ns();
	o->deadline = jiffies + break_timeout();
	return true;
}

/*
 * o's client went away in the middle of its break. Its connection's
 * teardown is about to close its handles (a handle with a break in
 * flight is not kept as a durable one: see ksmbd_oplock_durable_ok()),
 * which ends the break as the client's answer would have. Wait for that
 * teardown, however long the scheduler makes it take, rather than
 * downgrade first: the downgraded handle would be kept as durable, and
 * the open that broke it would get less than if the drop had been seen
 * first (smb2.durable-open lease, open2-lease: under load a fixed grace
 * of 2 s ran out before the teardown ran). The break's own deadline
 * still bounds the wait. True while it lasts.
 */
static bool awaiting_teardown(const struct ksmbd_oplock *o)
{
	return tearing_down(o) && time_before(jiffies, o->deadline);
}

/*
 * o's connection is gone and its teardown is over: what o still caches
 * belongs to disconnected durable handles (or to closed ones a request
 * still holds). A break cannot reach them; MS-SMB2 3.3.4.6 closes them.
 */
static bool owner_gone(const struct ksmbd_oplock *o)
{
	return ksmbd_conn_exiting(o->conn) && !tearing_down(o);
}

/*
 * Does b wait for o's break? An open that truncates breaks everything, but
 * waits only for write caching (dirty data must reach the file first) and
 * for handle caching its share modes conflict with (the holder may be
 * keeping a closed handle open); the rest of the break goes out without
 * holding the open back (smb2.lease.breaking4). Other kinds wait for all.
 */
static bool waits_for(const struct ksmbd_oplock *o, const struct breaker *b)
{
	u32 lost = o->state & ~o->break_to;

	if (b->kind != BREAK_OVERWRITE || (lost & KSMBD_LEASE_W))
		return true;
	return (lost & KSMBD_LEASE_H) &&
	       ksmbd_share_conflict(o->access, o->share, b->access, b->share);
}

/*
 * One pass over the inode's other owners: resolve expired breaks, start
 * the breaks b calls for. True while an acknowledgement b waits for is
 * awaited. A waiting b that finds a break under way leaves what it needs
 * beyond it in the owner, for the acknowledgement to break further.
 */
static bool scan_owners(struct breaker *b, struct list_head *notes,
			bool force, bool wait)
{
	struct ksmbd_oplock *o;
	bool pending = false;
	u32 to;

	lockdep_assert_held(&ksmbd_owner_lock);
	hash_for_each_possible(by_inode, o, inode_node, (unsigned long)b->inode) {
		if (elsewhere(o, b) || (is_self(o, b) && !self_level2(o, b)))
			continue;
		if (o->breaking) {
			if (ksmbd_conn_exiting(o->conn) &&
			    !awaiting_teardown(o)) {
				timeout_owner(o, "disconnected", false);
			} else if (force || time_after_eq(jiffies, o->deadline)) {
				timeout_owner(o, force ? "waiters" : "timeout",
					      !force);
			} else if (waits_for(o, b) ||
				   (o->break_to & ~allowed(o, b))) {
				/*
				 * A break that leaves o more than b allows is
				 * followed by another (follow_up()): b waits
				 * for both (smb2.lease.breaking3).
				 */
				if (wait)
					o->need &= allowed(o, b);
				pending = true;
				continue;
			} else {
				continue;
			}
		}
		to = o->state & allowed(o, b);
		if (to == o->state)
			continue;
		if (b->spare_gone && owner_gone(o)) {
			b->gone = true;
			continue;
		}
		if (start_break(o, to, true, notes))
			pending |= waits_for(o, b);
	}
	return pending;
}

/*
 * A lease belongs to the client (its ClientGuid), not to one connection:
 * its breaks go out on the client's oldest live connection, whichever
 * connection its opens came on (Windows does so; smb2.lease.v2_complex1
 * expects every break on the first connection, also for a lease opened
 * only on the second). The ClientGuid is only the client's word, so the
 * connection must also carry a session of the lease's user, and the
 * break goes out as that session (encrypted when it encrypts): another
 * user naming the same ClientGuid is never sent our breaks. A lease that
 * an encrypting session holds a handle of is broken only through an
 * encrypting session. The owner's own connection is the fallback.
 */
static void note_route(struct break_note *n)
{
	struct ksmbd_session *sess;
	struct ksmbd_conn *conn;

	if (!n->lease)
		return;
	sess = ksmbd_session_find_client(n->guid, n->uid, n->sealed, &conn);
	if (!sess)
		return;
	ksmbd_conn_put(n->conn);
	n->conn = conn;
	n->sess_id = sess->id;
	ksmbd_session_put(sess);
}

/* Set once at load, before any owner exists; read-only after. */
static const struct ksmbd_oplock_wire *wire;

void ksmbd_oplock_wire_register(const struct ksmbd_oplock_wire *w)
{
	wire = w;
}

static void send_notes(struct list_head *notes)
{
	struct break_note *n, *tmp;

	list_for_each_entry_safe(n, tmp, notes, node) {
		list_del(&n->node);
		note_route(n);
		/* Unsent (sealed, no session left): teardown or timeout ends it. */
		if (wire->send_break(n->conn, n->lease, n->ack_required,
				     n->key, n->pid, n->vid, n->sess_id,
				     n->sealed, n->from, n->to, n->epoch))
			trace_ksmbd_oplock_break_sent(n->conn->id,
						      n->lease ?
						      get_unaligned_le64(n->key) :
						      n->pid,
						      n->lease, n->from, n->to,
						      0, 0, NULL);
		ksmbd_conn_put(n->conn);
		kfree(n);
	}
}

void ksmbd_oplock_resend(struct ksmbd_oplock *o, struct list_head *notes)
{
	struct break_note *n = note_make(o, o->break_to, true);

	if (n)
		list_add_tail(&n->node, notes);
}

void ksmbd_oplock_for_each(void (*fn)(struct ksmbd_oplock *o, void *arg),
			   void *arg)
{
	struct ksmbd_oplock *o;
	int bkt;

	lockdep_assert_held(&ksmbd_owner_lock);
	hash_for_each(by_inode, bkt, o, inode_node)
		fn(o, arg);
}

/*
 * An acknowledged break, with waiters that need more than it broke to
 * (they came while it was under way): break again at once, before they
 * wake, so that every one of them waits for it. A step that takes
 * handle caching keeps read caching, which goes in a step of its own
 * (Windows: RWH->RH, then RH->R, then R->none, smb2.lease.breaking3);
 * these further breaks carry the epoch of the first.
 */
static void follow_up(struct ksmbd_oplock *o, struct list_head *notes)
{
	u32 need = o->need, to = o->state & need;

	if (to == o->state)
		return;
	if ((o->state & KSMBD_LEASE_H) && !(to & KSMBD_LEASE_R))
		to = o->state & KSMBD_LEASE_R;
	start_break(o, to, false, notes);
	o->need = need;
}

void ksmbd_oplock_acked(struct ksmbd_oplock *o, u32 state,
			struct list_head *notes)
{
	lockdep_assert_held(&ksmbd_owner_lock);
	ksmbd_oplock_resolve(o, state);
	follow_up(o, notes);
}

void ksmbd_oplock_send_notes(struct list_head *notes)
{
	send_notes(notes);
}

/*
 * Break what b calls for and, with wait, block until no other owner of
 * the inode is breaking any more. Every slice re-scans, so closes, dead
 * connections and timeouts end the wait as surely as acknowledgements.
 *
 * A request (b->caller) that has to wait goes async first, so that its
 * interim response is on the wire before the break it waits for (the
 * client may be the one to acknowledge it and expects the interim
 * first); a CANCEL then ends the wait with -ECANCELED.
 */
static int break_and_wait(struct breaker *b, bool wait)
{
	bool force = false, counted = false, held = false;
	unsigned long seen;
	LIST_HEAD(notes);
	bool pending;
	int ret = 0;

	for (;;) {
		mutex_lock(&ksmbd_owner_lock);
		pending = scan_owners(b, &notes, force, wait);
		seen = break_seq;
		mutex_unlock(&ksmbd_owner_lock);
		if (pending && wait && b->caller && !held)
			held = ksmbd_caller_go_async(b->caller, &break_wq);
		send_notes(&notes);
		if (!pending || !wait)
			break;
		if (held && ksmbd_caller_cancelled(b->caller))
			break;
		/* The opener's own client is gone: nobody waits for the answer. */
		if (b->waiter && ksmbd_caller_abandoned(b->waiter))
			break;
		if (!counted) {
			counted = true;
			if (atomic_inc_return(&nr_waiters) > KSMBD_OPLOCK_MAX_WAITERS) {
				force = true;	/* don't hold a worker: downgrade now */
				continue;
			}
		}
		/* The client may acknowledge on this request's connection. */
		if (b->caller)
			ksmbd_caller_waits(b->caller);
		wait_event_timeout(break_wq, READ_ONCE(break_seq) != seen ||
				   (held && ksmbd_caller_cancelled(b->caller)),
				   HZ / 5);
	}
	if (counted)
		atomic_dec(&nr_waiters);
	/* From here on a CANCEL finds the request but no longer stops it. */
	if (held && !ksmbd_caller_resume(b->caller))
		ret = -ECANCELED;
	if (!ret && b->gone)
		ret = -EAGAIN;
	return ret;
}

static bool breakable(const struct ksmbd_file *fp)
{
	return fp && fp->filp && (fp->kind == KSMBD_FILE_REGULAR ||
				  fp->kind == KSMBD_FILE_DIRECTORY);
}

/*
 * Stat opens (attributes and SYNCHRONIZE only) leave caching alone, as
 * MS-FSA's oplock rules do; any other right, EAs and security included,
 * breaks (smb2.oplock.statopen1, smb2.lease.statopen4).
 */
bool ksmbd_oplock_open_breaks(const struct ksmbd_file *fp, bool overwrite)
{
	return overwrite || (fp->daccess & ~FILE_STAT_OPEN_RIGHTS);
}

/* What the open of fp (breakable) demands of the other owners. */
static void open_breaker(struct breaker *b, struct ksmbd_caller *caller,
			 struct ksmbd_file *fp,
			 const struct ksmbd_oplock_req *rq,
			 enum break_kind kind)
{
	*b = (struct breaker){
		.kind = kind,
		.inode = file_inode(fp->filp),
		.access = fp->daccess,
		.share = fp->share_access,
		.check_share = true,
		.deletes = fp->create_options & FILE_DELETE_ON_CLOSE,
		.caller = caller,
		.waiter = caller,
		.per_stream = true,
		.stream = ksmbd_oplock_stream(fp->stream),
	};
	if (rq->lease) {
		b->guid = caller->conn->neg.client_guid;
		b->key = rq->key;
		b->uid = caller->sess->uid;
	}
}

int ksmbd_oplock_break_for_open(struct ksmbd_caller *caller,
				struct ksmbd_file *fp,
				const struct ksmbd_oplock_req *rq,
				bool overwrite, bool spare_gone)
{
	struct breaker b;

	if (!breakable(fp) || !ksmbd_oplock_open_breaks(fp, overwrite))
		return 0;
	open_breaker(&b, caller, fp, rq,
		     overwrite ? BREAK_OVERWRITE : BREAK_OPEN);
	b.spare_gone = spare_gone;
	return break_and_wait(&b, true);
}

int ksmbd_oplock_break_for_share(struct ksmbd_caller *caller,
				  struct ksmbd_file *fp,
				  const struct ksmbd_oplock_req *rq,
				  bool spare_gone)
{
	struct ksmbd_oplock *o;
	struct breaker b;
	struct inode *inode;
	bool handles = false;
	u32 st;

	if (!breakable(fp))
		return 0;
	inode = file_inode(fp->filp);
	open_breaker(&b, caller, fp, rq, BREAK_SHARING);
	mutex_lock(&ksmbd_owner_lock);
	hash_for_each_possible(by_inode, o, inode_node, (unsigned long)inode) {
		st = o->breaking ? o->break_to : o->state;
		if (!elsewhere(o, &b) && (st & KSMBD_LEASE_H))
			handles = true;
	}
	mutex_unlock(&ksmbd_owner_lock);
	if (!handles)
		return 0;
	b.spare_gone = spare_gone;
	return break_and_wait(&b, true) ?: 1;
}

static int break_through(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			 enum break_kind kind, bool wait)
{
	struct breaker b = { .kind = kind, .caller = caller };

	if (!breakable(fp))
		return 0;
	b.inode = file_inode(fp->filp);
	b.per_stream = kind == BREAK_WRITE;
	b.stream = ksmbd_oplock_stream(fp->stream);
	/* The handle's own owner: read under the lock that guards the link. */
	mutex_lock(&ksmbd_owner_lock);
	b.self = fp->oplock;
	if (b.self && b.self->lease) {
		b.guid = b.self->guid;
		b.key = b.self->key;
		b.uid = b.self->uid;
	}
	mutex_unlock(&ksmbd_owner_lock);
	/*
	 * b.self is only compared, never dereferenced, after the unlock: it
	 * may be freed meanwhile only if fp was released, and fp is held.
	 */
	return break_and_wait(&b, wait);
}

void ksmbd_oplock_break_local(struct inode *inode)
{
	struct breaker b = { .kind = BREAK_LOCAL, .inode = inode };

	break_and_wait(&b, true);
}

/*
 * An entry of dir changed: its directory leases break to none, without
 * waiting (MS-FSA 2.1.4.13: the parent's break does not hold the
 * operation), but for a lease whose key is the changing open's
 * ParentLeaseKey (key, of the client guid; NULL for none).
 */
void ksmbd_oplock_break_parent(struct inode *dir, const u8 *guid,
			       const u8 *key)
{
	struct breaker b = {
		.kind = BREAK_PARENT, .inode = dir, .guid = guid, .key = key,
	};

	break_and_wait(&b, false);
}

int ksmbd_oplock_break_handles(struct ksmbd_caller *caller,
			       struct inode *inode)
{
	struct breaker b = { .kind = BREAK_SHARING, .inode = inode,
			     .caller = caller, .waiter = caller };

	return break_and_wait(&b, true);
}

void ksmbd_oplock_break_for_write(struct ksmbd_file *fp)
{
	break_through(NULL, fp, BREAK_WRITE, false);
}

int ksmbd_oplock_break_for_namespace(struct ksmbd_caller *caller,
				     struct ksmbd_file *fp)
{
	return break_through(caller, fp, BREAK_NAMESPACE, true);
}

/* ---- Grant ---- */

/* The caching the request asks for, as lease bits; 0 for none. */
static u32 wanted_bits(const struct ksmbd_oplock_req *rq)
{
	if (rq->lease)
		/* Valid combinations all include R (MS-FSA 2.1.5.18). */
		return rq->state & KSMBD_LEASE_R ? rq->state : 0;
	return ksmbd_oplock_level_to_bits(rq->level);
}

/* Another owner whose rights this new handle cannot coexist with. */
/*
 * An owner holding more than b allows, or (when the open asks for caching,
 * whose grant depends on how it ends) one whose break is under way. An
 * open asking for none does not wait for other opens' breaks here
 * (smb2.lease.breaking4).
 */
static bool conflicting_owner(const struct breaker *b, bool wants)
{
	struct ksmbd_oplock *o;

	hash_for_each_possible(by_inode, o, inode_node, (unsigned long)b->inode)
		if (!elsewhere(o, b) && !is_self(o, b) &&
		    ((wants && o->breaking) || (o->state & ~allowed(o, b))))
			return true;
	return false;
}

/*
 * Fold a handle's access and share modes into its owner's. Opens for
 * attributes only take no part in share modes (MS-FSA 2.1.5.1.2.1), so
 * they neither add access nor narrow the sharing (smb2.lease.statopen).
 */
static void owner_add_modes(struct ksmbd_oplock *o, const struct ksmbd_file *fp)
{
	if (!ksmbd_access_shares(fp->daccess))
		return;
	o->access |= fp->daccess;
	o->share &= fp->share_access;
}

/*
 * What the inode's other owners (not same) hold that limits a grant:
 * any caching (no W beside it, even when all its handles are stat opens:
 * smb2.lease.statopen), oplocks (a lease beside one gets no handle
 * caching) and leases with handle caching, held or being broken to (an
 * oplock beside one gets none: smb2.lease.oplock).
 */
static void other_owners(struct inode *inode, u32 stream,
			 const struct ksmbd_oplock *same,
			 bool *any, bool *oplocks, bool *h_leases)
{
	struct ksmbd_oplock *o;
	u32 st;

	*any = false;
	*oplocks = false;
	*h_leases = false;
	hash_for_each_possible(by_inode, o, inode_node, (unsigned long)inode) {
		if (o->inode != inode || o->stream != stream || o == same)
			continue;
		st = o->breaking ? o->break_to : o->state;
		if (st)
			*any = true;
		if (!o->lease && st)
			*oplocks = true;
		if (o->lease && (st & KSMBD_LEASE_H))
			*h_leases = true;
	}
}

static void owner_init(struct ksmbd_oplock *o, struct ksmbd_caller *caller,
		       struct ksmbd_file *fp, const struct ksmbd_oplock_req *rq)
{
	o->inode = file_inode(fp->filp);
	o->stream = ksmbd_oplock_stream(fp->stream);
	ksmbd_conn_get(caller->conn);
	o->conn = caller->conn;
	o->lease = rq->lease;
	o->pid = fp->persistent_id;
	o->vid = fp->volatile_id;
	o->sess_id = fp->session_id;
	o->sealed = ksmbd_sess_encrypts(&caller->sess->crypto);
	o->access = 0;
	o->share = FILE_SHARE_ALL;
	owner_add_modes(o, fp);
	o->nr_handles = 1;
	o->uid = caller->sess->uid;
	if (rq->lease) {
		o->version = rq->version;
		memcpy(o->key, rq->key, 16);
		memcpy(o->guid, caller->conn->neg.client_guid, 16);
		memcpy(o->parent_key, rq->parent_key, 16);
		o->lflags = rq->flags;
		o->epoch = rq->epoch;
		hash_add(by_key, &o->key_node, key_hash(o->guid, o->key));
		if (fp->kind == KSMBD_FILE_DIRECTORY)
			o->dir = !ksmbd_dirlease_watch(o->inode);
	}
	hash_add(by_inode, &o->inode_node, (unsigned long)o->inode);
	ksmbd_live_inc(KSMBD_LIVE_OPLOCKS);
}

/*
 * An open with a held lease's key asks for an upgrade. It changes the
 * lease only to a valid state (with R) that strictly contains the one
 * held and that the other opens allow (no W beside them, no H beside an
 * oplock); then the lease takes exactly the requested state. Anything
 * else, and any request while a break is in flight, keeps the lease as
 * it is (MS-SMB2 3.3.5.9.8; smb2.lease.upgrade, upgrade2, upgrade3).
 */
static bool lease_upgrade_ok(const struct ksmbd_oplock *o, u32 want,
			     u32 others, bool oplocks)
{
	if (o->breaking || !want || want == o->state ||
	    (want & o->state) != o->state)
		return false;
	if (others && (want & KSMBD_LEASE_W))
		return false;
	return !(oplocks && (want & KSMBD_LEASE_H));
}

/* A handle joins its client's existing lease with the same key. */
static void lease_join(struct ksmbd_oplock *o, struct ksmbd_caller *caller,
		       struct ksmbd_file *fp, u32 want, u32 others,
		       bool oplocks, struct ksmbd_conn **old_conn)
{
	o->nr_handles++;
	owner_add_modes(o, fp);
	o->sealed |= ksmbd_sess_encrypts(&caller->sess->crypto);
	if (lease_upgrade_ok(o, want, others, oplocks)) {
		o->state = want;
		if (o->version == 2)
			o->epoch++;
	}
	if (ksmbd_conn_exiting(o->conn) && o->conn != caller->conn) {
		*old_conn = o->conn;
		ksmbd_conn_get(caller->conn);
		o->conn = caller->conn;
	}
}

static bool may_cache(const struct ksmbd_file *fp)
{
	return breakable(fp) && fp->tree &&
	       ksmbd_share_has(fp->tree->share, KSMBD_SHARE_FLAG_OPLOCKS);
}

/* Under owner_lock: join or create the owner; false when none is due. */
static bool grant_locked(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			 const struct ksmbd_oplock_req *rq,
			 struct ksmbd_oplock **fresh,
			 struct ksmbd_conn **old_conn)
{
	struct inode *inode = file_inode(fp->filp);
	u32 stream = ksmbd_oplock_stream(fp->stream);
	struct ksmbd_oplock *same = NULL;
	u32 want = wanted_bits(rq), opens, others;
	bool any, oplocks, h_leases;

	if (rq->lease) {
		same = ksmbd_lease_find(caller->conn->neg.client_guid, rq->key,
					caller->sess->uid);
		/* A lease key names one file (3.3.5.9.8): no lease elsewhere. */
		if (same && (same->inode != inode || same->stream != stream))
			return false;
	}
	/* A lease request for None still makes a lease (state None). */
	if (!want && !same && !rq->lease)
		return false;
	/*
	 * file.c's share lock nests inside owner_lock. Stat opens don't
	 * count as other opens (smb2.lease.statopen3).
	 */
	opens = ksmbd_file_inode_opens_with(fp, ~FILE_STAT_OPEN_RIGHTS);
	if (!(fp->daccess & ~FILE_STAT_OPEN_RIGHTS))
		opens++;	/* fp itself, counted below as "1" */
	others = opens - 1 - (same ? same->nr_handles : 0);
	if (opens <= (same ? same->nr_handles : 0))
		others = 0;
	other_owners(inode, stream, same, &any, &oplocks, &h_leases);
	if (any)
		others = others ? others : 1;
	if (same) {
		lease_join(same, caller, fp, want, others, oplocks, old_conn);
		fp->oplock = same;
		return true;
	}
	if (others) {
		want &= ~KSMBD_LEASE_W;
		if (!rq->lease)
			want &= KSMBD_LEASE_R;	/* level II at most */
	}
	if (rq->lease && oplocks)
		want &= KSMBD_LEASE_R;
	if (!rq->lease && h_leases)
		want = 0;
	if (!want && !rq->lease)
		return false;
	owner_init(*fresh, caller, fp, rq);
	(*fresh)->state = want;
	if (rq->lease && rq->version == 2)
		(*fresh)->epoch = rq->epoch + 1;
	fp->oplock = *fresh;
	*fresh = NULL;
	return true;
}

void ksmbd_oplock_grant(struct ksmbd_caller *caller, struct ksmbd_file *fp,
			const struct ksmbd_oplock_req *rq, bool new_data,
			struct ksmbd_oplock_grant *out)
{
	struct breaker b = { .kind = BREAK_OPEN, .waiter = caller };
	struct ksmbd_conn *old_conn = NULL;
	struct ksmbd_oplock_req drq;
	struct ksmbd_oplock *fresh;
	int tries;

	memset(out, 0, sizeof(*out));
	ksmbd_dirlease_opened(caller, fp, rq, new_data);
	if (!breakable(fp))
		return;
	if (fp->kind == KSMBD_FILE_DIRECTORY) {
		if (!ksmbd_dirlease_request(caller, rq, &drq))
			return;
		rq = &drq;
	}
	b.inode = file_inode(fp->filp);
	b.per_stream = true;
	b.stream = ksmbd_oplock_stream(fp->stream);
	if (rq->lease) {
		b.guid = caller->conn->neg.client_guid;
		b.key = rq->key;
		b.uid = caller->sess->uid;
	}
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	/*
	 * Owners granted between our first break and our joining the share
	 * modes did not see us: break them now, then grant.
	 */
	for (tries = 0; ; tries++) {
		mutex_lock(&ksmbd_owner_lock);
		if (!ksmbd_oplock_open_breaks(fp, new_data) ||
		    !conflicting_owner(&b, rq->lease ||
				       rq->level != SMB2_OPLOCK_LEVEL_NONE) ||
		    tries == 3)
			break;
		mutex_unlock(&ksmbd_owner_lock);
		break_and_wait(&b, true);
	}
	/*
	 * An oplock asked with a stat open (attributes only) is not granted,
	 * unless that open created or overwrote the file (smb2.oplock.batch9,
	 * batch13).
	 */
	if (fresh && may_cache(fp) && (rq->lease || ksmbd_oplock_open_breaks(fp, new_data)) &&
	    grant_locked(caller, fp, rq, &fresh, &old_conn)) {
		ksmbd_oplock_fill_grant(fp->oplock, out);
		ksmbd_klease_take(fp->oplock, fp->filp);
		trace_ksmbd_oplock_grant(caller->conn->id,
					 ksmbd_oplock_trace_id(fp->oplock),
					 fp->oplock->lease, 0,
					 fp->oplock->state, 0, 0, NULL);
	}
	mutex_unlock(&ksmbd_owner_lock);
	if (old_conn)
		ksmbd_conn_put(old_conn);
	kfree(fresh);
	if (rq->lease && !out->lease && may_cache(fp))
		ksmbd_oplock_no_lease_grant(rq, out);
}
