// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Connections: creation under the max-connections limit, reference
 * counting, the send path, the sequence window and the reaper that cuts
 * connections which stay too long before NEGOTIATE, before SESSION_SETUP
 * or idle.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <net/sock.h>
#include "bufpool.h"
#include "connection.h"
#include "debug.h"
#include "proto/smb2.h"
#include "server.h"
#include "stats.h"

#include "ksmbd_trace.h"

static unsigned int negotiate_timeout_ms = 10000;
module_param(negotiate_timeout_ms, uint, 0644);
MODULE_PARM_DESC(negotiate_timeout_ms,
		 "Drop a connection that has not negotiated after this many ms (test knob; default 10000)");

static unsigned int session_timeout_s = 30;
module_param(session_timeout_s, uint, 0644);
MODULE_PARM_DESC(session_timeout_s,
		 "Drop a negotiated connection without a successful session setup after this many seconds (default 30)");

#define REAPER_PERIOD		(HZ / 4)
#define DEFAULT_MAX_CONNECTIONS	512

static DEFINE_MUTEX(conn_list_lock);
static LIST_HEAD(conn_list);
/* Counts connections until they are freed, not just until unlisted. */
static atomic_t nr_conns = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(conn_gone_wait);
static atomic64_t next_conn_id = ATOMIC64_INIT(0);

static void conn_release_work(struct work_struct *w);
static void reaper_run(struct work_struct *w);
static void tx_work_fn(struct work_struct *w);
static void tx_detach(struct ksmbd_conn *conn);
static void tx_purge(struct ksmbd_conn *conn);
static DECLARE_DELAYED_WORK(reaper, reaper_run);
static bool reaper_on;
static struct workqueue_struct *io_wq;
static const struct ksmbd_conn_ops *conn_ops;

void ksmbd_conn_ops_register(const struct ksmbd_conn_ops *ops)
{
	conn_ops = ops;
}

int ksmbd_conn_wq_init(void)
{
	/*
	 * Unbound: requests may sleep in the VFS or wait for the daemon, and
	 * one slow request must not hold up others queued on the same CPU.
	 */
	io_wq = alloc_workqueue("ksmbd-io", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	return io_wq ? 0 : -ENOMEM;
}

void ksmbd_conn_wq_exit(void)
{
	/* Drains: every queued work and connection release runs first. */
	destroy_workqueue(io_wq);
}

void ksmbd_conn_queue_work(struct work_struct *w)
{
	queue_work(io_wq, w);
}

void ksmbd_conn_queue_ready(struct list_head *ready)
{
	struct ksmbd_order_item *it, *tmp;

	list_for_each_entry_safe(it, tmp, ready, node) {
		list_del_init(&it->node);
		queue_work(io_wq, it->work);
	}
}

void ksmbd_conn_unpark_all(struct ksmbd_conn *conn)
{
	struct ksmbd_conn_parked *p, *tmp;
	LIST_HEAD(list);

	spin_lock(&conn->park_lock);
	list_splice_init(&conn->parked, &list);
	spin_unlock(&conn->park_lock);
	list_for_each_entry_safe(p, tmp, &list, node) {
		list_del_init(&p->node);
		queue_work(io_wq, p->work);
	}
}

static void credits_init(struct ksmbd_conn_credits *c)
{
	spin_lock_init(&c->lock);
	/* MS-SMB2 3.3.1.1: the window starts as {0}. */
	c->lo = 0;
	c->hi = 1;
}

static u32 max_connections(void)
{
	u32 m = READ_ONCE(ksmbd_server_conf.max_connections);

	return m ? m : DEFAULT_MAX_CONNECTIONS;
}

static u16 local_port(struct socket *sock)
{
	struct sockaddr_storage ss = { };

	if (kernel_getsockname(sock, (struct sockaddr *)&ss) < 0)
		return 0;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return 0;
}

static u32 max_ip_connections(void)
{
	u32 m = READ_ONCE(ksmbd_server_conf.max_ip_connections);

	return m ? m : KSMBD_DEFAULT_IP_CONNECTIONS;
}

static bool peer_equal(const struct sockaddr_storage *a,
		       const struct sockaddr_storage *b);

/* Under conn_list_lock: connections listed from this address. */
static u32 peer_conns(const struct sockaddr_storage *peer)
{
	struct ksmbd_conn *conn;
	u32 n = 0;

	list_for_each_entry(conn, &conn_list, node)
		if (peer_equal(&conn->peer, peer))
			n++;
	return n;
}

/* Over a bound: the socket is closed before a connection exists. */
static void note_refused(const struct sockaddr_storage *peer,
			 const char *limit, enum ksmbd_total counter)
{
	ksmbd_total_add(counter, 1);
	trace_ksmbd_conn_limit(0, peer, limit);
}

struct ksmbd_conn *ksmbd_conn_create(struct socket *sock)
{
	struct sockaddr_storage peer = { };
	struct ksmbd_conn *conn;

	if (kernel_getpeername(sock, (struct sockaddr *)&peer) < 0)
		peer.ss_family = AF_UNSPEC;
	mutex_lock(&conn_list_lock);
	if (atomic_read(&nr_conns) >= max_connections()) {
		mutex_unlock(&conn_list_lock);
		note_refused(&peer, "too many connections",
			     KSMBD_TOTAL_CONNS_REFUSED);
		return ERR_PTR(-EMFILE);
	}
	/* One address cannot take every slot (max ip connections). */
	if (peer_conns(&peer) >= max_ip_connections()) {
		mutex_unlock(&conn_list_lock);
		note_refused(&peer, "too many connections from this address",
			     KSMBD_TOTAL_CONNS_REFUSED_PEER);
		return ERR_PTR(-EMFILE);
	}
	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn) {
		mutex_unlock(&conn_list_lock);
		return ERR_PTR(-ENOMEM);
	}
	refcount_set(&conn->refs, 1);
	conn->id = atomic64_inc_return(&next_conn_id);
	conn->sock = sock;
	INIT_WORK(&conn->release_work, conn_release_work);
	mutex_init(&conn->send_lock);
	INIT_LIST_HEAD(&conn->tx_queue);
	INIT_WORK(&conn->tx_work, tx_work_fn);
	spin_lock_init(&conn->park_lock);
	INIT_LIST_HEAD(&conn->parked);
	atomic_set(&conn->outstanding, 0);
	init_waitqueue_head(&conn->req_wait);
	ksmbd_order_init(&conn->order);
	conn->accepted_at = jiffies;
	conn->last_rx = conn->accepted_at;
	credits_init(&conn->credits);
	atomic_set(&conn->nr_async, 0);
	spin_lock_init(&conn->cancel_lock);
	conn->peer = peer;
	conn->local_port = local_port(sock);
	atomic_inc(&nr_conns);
	list_add_tail(&conn->node, &conn_list);
	mutex_unlock(&conn_list_lock);

	ksmbd_live_inc(KSMBD_LIVE_CONNECTIONS);
	ksmbd_total_add(KSMBD_TOTAL_ACCEPTED, 1);
	trace_ksmbd_conn_accept(conn, conn->local_port);
	ksmbd_debug(CONN, "conn %llu: accepted from %pISpc\n", conn->id,
		    &conn->peer);
	return conn;
}

void ksmbd_conn_get(struct ksmbd_conn *conn)
{
	refcount_inc(&conn->refs);
}

void ksmbd_conn_put(struct ksmbd_conn *conn)
{
	if (!refcount_dec_and_test(&conn->refs))
		return;
	tx_detach(conn);
	tx_purge(conn);
	sock_release(conn->sock);
	conn_ops->freed(conn);
	kfree(conn);
	ksmbd_live_dec(KSMBD_LIVE_CONNECTIONS);
	if (atomic_dec_and_test(&nr_conns))
		wake_up_all(&conn_gone_wait);
}

static void conn_unlist(struct ksmbd_conn *conn)
{
	mutex_lock(&conn_list_lock);
	list_del_init(&conn->node);
	mutex_unlock(&conn_list_lock);
	trace_ksmbd_conn_close(conn, conn->close_reason ?: "closed",
			       jiffies_to_msecs(jiffies - conn->accepted_at),
			       atomic64_read(&conn->nr_requests),
			       atomic64_read(&conn->bytes_in),
			       atomic64_read(&conn->bytes_out));
	ksmbd_debug(CONN, "conn %llu: closed (%s)\n", conn->id,
		    conn->close_reason ?: "closed");
}

void ksmbd_conn_abort(struct ksmbd_conn *conn)
{
	ksmbd_conn_drop(conn, "no receive thread");
	conn_unlist(conn);
	ksmbd_conn_put(conn);
}

/*
 * Runs on the workqueue, not in the receive thread: kthread_stop() waits
 * until the thread has left module code, and the workqueue is drained
 * before the module goes away.
 */
static void conn_release_work(struct work_struct *w)
{
	struct ksmbd_conn *conn = container_of(w, struct ksmbd_conn,
					       release_work);

	kthread_stop(conn->recv_task);
	put_task_struct(conn->recv_task);
	conn->recv_task = NULL;
	/* Nothing more is sent; what waits for the socket goes now. */
	tx_purge(conn);
	/* Pending requests hold connection references; so do sessions. */
	conn_ops->closed(conn);
	conn_unlist(conn);
	ksmbd_conn_put(conn);
}

void ksmbd_conn_release(struct ksmbd_conn *conn)
{
	ksmbd_conn_queue_work(&conn->release_work);
}

void ksmbd_conn_drop(struct ksmbd_conn *conn, const char *reason)
{
	LIST_HEAD(ready);

	if (test_and_set_bit(KSMBD_CONN_F_EXITING, &conn->flags))
		return;
	WRITE_ONCE(conn->close_reason, reason);
	/* Wakes the receive thread and any sender blocked on this socket. */
	kernel_sock_shutdown(conn->sock, SHUT_RDWR);
	wake_up_all(&conn->req_wait);
	/* Held-back works run now, to find the connection gone. */
	ksmbd_conn_unpark_all(conn);
	/* So do those waiting for their turn: no answer is owed any more. */
	ksmbd_order_flush(&conn->order, &ready);
	ksmbd_conn_queue_ready(&ready);
}

void ksmbd_conn_drop_all(const char *reason)
{
	struct ksmbd_conn *conn;

	mutex_lock(&conn_list_lock);
	list_for_each_entry(conn, &conn_list, node)
		ksmbd_conn_drop(conn, reason);
	mutex_unlock(&conn_list_lock);
}

/* Every listed connection, under the list lock (the clients listing). */
void ksmbd_conn_for_each(void (*fn)(struct ksmbd_conn *conn, void *arg),
			 void *arg)
{
	struct ksmbd_conn *conn;

	mutex_lock(&conn_list_lock);
	list_for_each_entry(conn, &conn_list, node)
		fn(conn, arg);
	mutex_unlock(&conn_list_lock);
}

void ksmbd_conn_wait_all(void)
{
	while (!wait_event_timeout(conn_gone_wait, !atomic_read(&nr_conns),
				   10 * HZ))
		pr_warn("still waiting for %d connections to close\n",
			atomic_read(&nr_conns));
}

static const void *peer_addr(const struct sockaddr_storage *ss, size_t *len)
{
	if (ss->ss_family == AF_INET6) {
		*len = sizeof(struct in6_addr);
		return &((const struct sockaddr_in6 *)ss)->sin6_addr;
	}
	if (ss->ss_family == AF_INET) {
		*len = sizeof(struct in_addr);
		return &((const struct sockaddr_in *)ss)->sin_addr;
	}
	*len = 0;
	return NULL;
}

static bool peer_equal(const struct sockaddr_storage *a,
		       const struct sockaddr_storage *b)
{
	const void *pa, *pb;
	size_t la, lb;

	pa = peer_addr(a, &la);
	pb = peer_addr(b, &lb);
	/* Peers of unknown address are one peer: they share one bound. */
	if (!pa || !pb)
		return !pa && !pb;
	return a->ss_family == b->ss_family && !memcmp(pa, pb, la);
}

bool ksmbd_conn_same_peer(const struct ksmbd_conn *a,
			  const struct ksmbd_conn *b)
{
	return a == b || peer_equal(&a->peer, &b->peer);
}

unsigned int ksmbd_conn_setup_timeout_s(void)
{
	return READ_ONCE(session_timeout_s);
}

void ksmbd_conn_set_negotiated(struct ksmbd_conn *conn)
{
	conn->negotiated_at = jiffies;
	/* neg must be visible before the bit that says it is valid. */
	smp_mb__before_atomic();
	set_bit(KSMBD_CONN_F_NEGOTIATED, &conn->flags);
}

void ksmbd_conn_set_authenticated(struct ksmbd_conn *conn)
{
	set_bit(KSMBD_CONN_F_AUTHENTICATED, &conn->flags);
}

u32 ksmbd_conn_max_frame(const struct ksmbd_conn *conn)
{
	const struct ksmbd_conn_neg *neg = &conn->neg;
	u32 m;

	if (!test_bit(KSMBD_CONN_F_AUTHENTICATED, &conn->flags))
		return KSMBD_PREAUTH_MAX_FRAME;
	m = max3(neg->max_read, neg->max_write, neg->max_trans);
	return min_t(u32, m + KSMBD_FRAME_HEADROOM, KSMBD_RFC1002_MAX_LEN);
}

void ksmbd_conn_request_begin(struct ksmbd_conn *conn)
{
	atomic_inc(&conn->outstanding);
}

void ksmbd_conn_request_end(struct ksmbd_conn *conn)
{
	if (atomic_dec_return(&conn->outstanding) < KSMBD_CONN_MAX_OUTSTANDING)
		wake_up_all(&conn->req_wait);
}

/* ---- Sending ---- */

/*
 * Where one frame's sending stands: its linear bytes (the RFC1002 header
 * and the caller's kvecs), then pages handed to the socket as they are.
 */
#define TX_MAX_VEC	5
struct tx_cur {
	struct kvec vec[TX_MAX_VEC];
	unsigned int nvec, vi;
	size_t voff;
	const struct bio_vec *bv;
	unsigned int nbv, bi;
	size_t boff;
	size_t left;
};

/* A frame's rest, owned by the queue: a copy of its bytes, its pages. */
struct ksmbd_tx {
	struct list_head node;
	struct tx_cur cur;
	void *lin;
	struct bio_vec *bv;		/* a page reference each */
	unsigned int nbv;
	size_t cost;			/* counted in conn->tx_queued */
};

/* Charged per queued frame on top of its bytes: many tiny ones cost too. */
#define TX_ENTRY_COST	256

static unsigned int send_stall_s = 30;
module_param(send_stall_s, uint, 0644);
MODULE_PARM_DESC(send_stall_s,
		 "Drop a connection whose answers wait this many seconds without the client reading a byte (0: never; default 30)");

static atomic64_t tx_queued_all = ATOMIC64_INIT(0);

s64 ksmbd_conn_tx_queued_all(void)
{
	return atomic64_read(&tx_queued_all);
}

static size_t tx_bound(const struct ksmbd_conn *conn)
{
	const struct ksmbd_conn_neg *neg = &conn->neg;
	size_t m = max3(neg->max_read, neg->max_write, neg->max_trans);

	return max_t(size_t, KSMBD_CONN_TX_QUEUE_MIN, 2 * m);
}

bool ksmbd_conn_tx_full(const struct ksmbd_conn *conn)
{
	return READ_ONCE(conn->tx_queued) >= tx_bound(conn);
}

bool ksmbd_conn_tx_over_locked(const struct ksmbd_conn *conn)
{
	lockdep_assert_held(&conn->park_lock);
	return READ_ONCE(conn->tx_queued) + conn->tx_reserved >= tx_bound(conn);
}

static void tx_advance_vec(struct tx_cur *c, size_t n)
{
	while (n && c->vi < c->nvec) {
		size_t rest = c->vec[c->vi].iov_len - c->voff;

		if (n < rest) {
			c->voff += n;
			return;
		}
		n -= rest;
		c->vi++;
		c->voff = 0;
	}
}

/* Sends what the socket takes now: 0 when all went, -EAGAIN, or an error. */
static int tx_push(struct socket *sock, struct tx_cur *c, size_t *sent)
{
	int ret, flags;

	while (c->vi < c->nvec) {
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
		struct kvec v[TX_MAX_VEC];
		unsigned int n = 0, i;
		size_t len = 0;

		for (i = c->vi; i < c->nvec; i++, n++) {
			v[n] = c->vec[i];
			len += v[n].iov_len;
		}
		v[0].iov_base += c->voff;
		v[0].iov_len -= c->voff;
		len -= c->voff;
		if (c->bi < c->nbv)
			msg.msg_flags |= MSG_MORE;
		ret = kernel_sendmsg(sock, &msg, v, n, len);
		if (ret <= 0)
			return ret ? ret : -EIO;
		*sent += ret;
		c->left -= ret;
		tx_advance_vec(c, ret);
	}
	while (c->bi < c->nbv) {
		const struct bio_vec *b = &c->bv[c->bi];

		flags = MSG_DONTWAIT | MSG_NOSIGNAL |
			(c->bi + 1 < c->nbv ? MSG_MORE : 0);
		/* The socket takes its own page references. */
		ret = kernel_sendpage(sock, b->bv_page, b->bv_offset + c->boff,
				      b->bv_len - c->boff, flags);
		if (ret <= 0)
			return ret ? ret : -EIO;
		*sent += ret;
		c->left -= ret;
		c->boff += ret;
		if (c->boff == b->bv_len) {
			c->bi++;
			c->boff = 0;
		}
	}
	return 0;
}

static void tx_free(struct ksmbd_tx *tx)
{
	unsigned int i;

	for (i = 0; i < tx->nbv; i++)
		put_page(tx->bv[i].bv_page);
	kfree(tx->bv);
	kvfree(tx->lin);
	kfree(tx);
	ksmbd_live_dec(KSMBD_LIVE_BUFFERS);
}

/* The rest of c, copied (its bytes) or referenced (its pages). */
static struct ksmbd_tx *tx_own(const struct tx_cur *c)
{
	size_t lin = 0, at = 0;
	struct ksmbd_tx *tx;
	unsigned int i;

	tx = kzalloc(sizeof(*tx), GFP_KERNEL);
	if (!tx)
		return NULL;
	ksmbd_live_inc(KSMBD_LIVE_BUFFERS);
	for (i = c->vi; i < c->nvec; i++)
		lin += c->vec[i].iov_len;
	lin -= c->nvec > c->vi ? c->voff : 0;
	if (lin) {
		tx->lin = kvmalloc(lin, GFP_KERNEL);
		if (!tx->lin)
			goto err_free;
		for (i = c->vi; i < c->nvec; i++) {
			size_t off = i == c->vi ? c->voff : 0;

			memcpy(tx->lin + at, c->vec[i].iov_base + off,
			       c->vec[i].iov_len - off);
			at += c->vec[i].iov_len - off;
		}
		tx->cur.vec[0].iov_base = tx->lin;
		tx->cur.vec[0].iov_len = lin;
		tx->cur.nvec = 1;
	}
	if (c->bi < c->nbv) {
		tx->bv = kmemdup(c->bv + c->bi,
				 (c->nbv - c->bi) * sizeof(*c->bv), GFP_KERNEL);
		if (!tx->bv)
			goto err_free;
		tx->nbv = c->nbv - c->bi;
		tx->bv[0].bv_offset += c->boff;
		tx->bv[0].bv_len -= c->boff;
		for (i = 0; i < tx->nbv; i++)
			get_page(tx->bv[i].bv_page);
		tx->cur.bv = tx->bv;
		tx->cur.nbv = tx->nbv;
	}
	tx->cur.left = c->left;
	tx->cost = c->left + TX_ENTRY_COST;
	return tx;

err_free:
	tx_free(tx);
	return NULL;
}

/* Under send_lock: bytes left the queue (sent or thrown away). */
static void tx_account(struct ksmbd_conn *conn, size_t cost)
{
	bool was_full = ksmbd_conn_tx_full(conn);

	WRITE_ONCE(conn->tx_queued, conn->tx_queued - cost);
	atomic64_sub(cost, &tx_queued_all);
	if (was_full && !ksmbd_conn_tx_full(conn)) {
		wake_up_all(&conn->req_wait);
		ksmbd_conn_unpark_all(conn);
	}
}

static void tx_purge(struct ksmbd_conn *conn)
{
	struct ksmbd_tx *tx, *tmp;

	mutex_lock(&conn->send_lock);
	list_for_each_entry_safe(tx, tmp, &conn->tx_queue, node) {
		list_del(&tx->node);
		tx_account(conn, tx->cost);
		tx_free(tx);
	}
	mutex_unlock(&conn->send_lock);
}

static void sent_bytes(struct ksmbd_conn *conn, size_t n)
{
	if (!n)
		return;
	ksmbd_total_add(KSMBD_TOTAL_BYTES_OUT, n);
	atomic64_add(n, &conn->bytes_out);
}

/*
 * After the socket refused bytes: if it has room again already, its
 * write-space callback may have run before the queue showed anything
 * to send; send from the work now. Pairs with the barrier in
 * tx_write_space().
 */
static void tx_kick(struct ksmbd_conn *conn)
{
	smp_mb();
	if (sk_stream_is_writeable(conn->sock->sk))
		ksmbd_conn_queue_work(&conn->tx_work);
}

/* Sends the queue's frames, in order, as far as the socket takes them. */
static void tx_work_fn(struct work_struct *w)
{
	struct ksmbd_conn *conn = container_of(w, struct ksmbd_conn, tx_work);
	struct ksmbd_tx *tx;
	size_t sent = 0;
	int ret = 0;

	mutex_lock(&conn->send_lock);
	while (!ksmbd_conn_exiting(conn) &&
	       (tx = list_first_entry_or_null(&conn->tx_queue,
					      struct ksmbd_tx, node))) {
		size_t before = sent;

		ret = tx_push(conn->sock, &tx->cur, &sent);
		if (sent != before)
			conn->tx_progress = jiffies;
		if (ret)
			break;
		list_del(&tx->node);
		tx_account(conn, tx->cost);
		tx_free(tx);
	}
	mutex_unlock(&conn->send_lock);
	sent_bytes(conn, sent);
	if (ret == -EAGAIN)
		tx_kick(conn);
	else if (ret)
		ksmbd_conn_drop(conn, "send failed");
}

/*
 * TCP's own callback (not exported), for a call that finds the socket
 * already given back by tx_detach(); every TCP socket has the same one.
 */
static void (*tcp_write_space)(struct sock *sk);

/* Softirq or process context, under no lock of ours. */
static void tx_write_space(struct sock *sk)
{
	void (*orig)(struct sock *sk) = READ_ONCE(tcp_write_space);
	struct ksmbd_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn) {
		orig = conn->sk_write_space;
		/* Pairs with the barrier in tx_kick(). */
		smp_mb();
		if (READ_ONCE(conn->tx_queued) && sk_stream_is_writeable(sk))
			ksmbd_conn_queue_work(&conn->tx_work);
	}
	read_unlock_bh(&sk->sk_callback_lock);
	if (orig)
		orig(sk);
}

void ksmbd_conn_tx_attach(struct ksmbd_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	conn->sk_write_space = sk->sk_write_space;
	WRITE_ONCE(tcp_write_space, sk->sk_write_space);
	sk->sk_user_data = conn;
	sk->sk_write_space = tx_write_space;
	write_unlock_bh(&sk->sk_callback_lock);
}

/* No callback may find conn, and no tx work may run, once this returns. */
static void tx_detach(struct ksmbd_conn *conn)
{
	struct sock *sk = conn->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_user_data == conn) {
		sk->sk_user_data = NULL;
		sk->sk_write_space = conn->sk_write_space;
	}
	write_unlock_bh(&sk->sk_callback_lock);
	cancel_work_sync(&conn->tx_work);
}

static int conn_send_cur(struct ksmbd_conn *conn, struct tx_cur *c)
{
	struct ksmbd_tx *tx = NULL;
	size_t sent = 0;
	int ret = 0;

	mutex_lock(&conn->send_lock);
	if (ksmbd_conn_exiting(conn)) {
		ret = -ESHUTDOWN;
		goto out_unlock;
	}
	/* Behind queued frames, never beside them. */
	if (list_empty(&conn->tx_queue)) {
		ret = tx_push(conn->sock, c, &sent);
		if (ret != -EAGAIN)
			goto out_unlock;
	}
	tx = tx_own(c);
	if (!tx) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	if (list_empty(&conn->tx_queue))
		conn->tx_progress = jiffies;
	list_add_tail(&tx->node, &conn->tx_queue);
	WRITE_ONCE(conn->tx_queued, conn->tx_queued + tx->cost);
	atomic64_add(tx->cost, &tx_queued_all);
	ret = 0;
out_unlock:
	mutex_unlock(&conn->send_lock);
	sent_bytes(conn, sent);
	if (tx) {
		ksmbd_total_add(KSMBD_TOTAL_SENDS_QUEUED, 1);
		tx_kick(conn);
	}
	if (ret && ret != -ESHUTDOWN) {
		/* A partial frame would leave the stream out of step. */
		ksmbd_conn_drop(conn, "send failed");
	}
	return ret;
}

int ksmbd_conn_send(struct ksmbd_conn *conn, struct kvec *iov,
		    unsigned int nr)
{
	struct tx_cur c = { };
	__be32 hdr;
	size_t len = 0;
	unsigned int i;

	if (nr >= TX_MAX_VEC)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		len += iov[i].iov_len;
		if (iov[i].iov_len)
			c.vec[++c.nvec] = iov[i];
	}
	if (len > KSMBD_RFC1002_MAX_LEN)
		return -EMSGSIZE;
	/* Type 0x00 (session message) in the top byte, then 24 bits. */
	hdr = cpu_to_be32((u32)len);
	c.vec[0].iov_base = &hdr;
	c.vec[0].iov_len = sizeof(hdr);
	c.nvec++;
	c.left = len + sizeof(hdr);
	return conn_send_cur(conn, &c);
}

int ksmbd_conn_send_pages(struct ksmbd_conn *conn, const void *head,
			  size_t head_len, const struct bio_vec *bv,
			  unsigned int nr, size_t data_len)
{
	size_t len = head_len + data_len;
	struct tx_cur c = { };
	__be32 hdr;

	if (len > KSMBD_RFC1002_MAX_LEN)
		return -EMSGSIZE;
	hdr = cpu_to_be32((u32)len);
	c.vec[0].iov_base = &hdr;
	c.vec[0].iov_len = sizeof(hdr);
	c.vec[1].iov_base = (void *)head;
	c.vec[1].iov_len = head_len;
	c.nvec = 2;
	c.bv = bv;
	c.nbv = nr;
	c.left = len + sizeof(hdr);
	return conn_send_cur(conn, &c);
}

/* ---- Sequence window and credits ---- */

bool ksmbd_conn_seq_consume(struct ksmbd_conn *conn, u64 mid, u16 charge)
{
	struct ksmbd_conn_credits *c = &conn->credits;
	bool ok = false;
	u64 lo, hi;
	u32 i;

	if (!charge)
		charge = 1;
	spin_lock(&c->lock);
	if (mid < c->lo || mid >= c->hi || charge > c->hi - mid)
		goto out_unlock;
	for (i = 0; i < charge; i++)
		if (test_bit((mid + i) % KSMBD_SEQ_WINDOW_BITS, c->used))
			goto out_unlock;
	for (i = 0; i < charge; i++)
		__set_bit((mid + i) % KSMBD_SEQ_WINDOW_BITS, c->used);
	c->consumed += charge;
	/* Slide the low edge over every id that is now used. */
	while (c->lo < c->hi &&
	       test_bit(c->lo % KSMBD_SEQ_WINDOW_BITS, c->used)) {
		__clear_bit(c->lo % KSMBD_SEQ_WINDOW_BITS, c->used);
		c->lo++;
		c->consumed--;
	}
	ok = true;
out_unlock:
	lo = c->lo;
	hi = c->hi;
	spin_unlock(&c->lock);
	if (!ok)
		trace_ksmbd_credit_window(conn, mid, charge, lo, hi);
	return ok;
}

u16 ksmbd_conn_credits_grant(struct ksmbd_conn *conn, u16 requested)
{
	struct ksmbd_conn_credits *c = &conn->credits;
	u64 span, holding, room;
	u16 grant;

	spin_lock(&c->lock);
	span = c->hi - c->lo;
	holding = span - c->consumed;
	room = holding < KSMBD_CONN_MAX_CREDITS ?
	       KSMBD_CONN_MAX_CREDITS - holding : 0;
	/* The bitmap must cover every id between lo and hi. */
	room = min_t(u64, room, KSMBD_SEQ_WINDOW_BITS - span);
	grant = min_t(u64, max_t(u16, requested, 1), room);
	c->hi += grant;
	spin_unlock(&c->lock);
	return grant;
}

/* ---- Deadlines ---- */

static const char *conn_expired(const struct ksmbd_conn *conn,
				unsigned long now)
{
	u32 deadtime = READ_ONCE(ksmbd_server_conf.deadtime_s);
	unsigned int stall_s = READ_ONCE(send_stall_s);
	unsigned int neg_ms = READ_ONCE(negotiate_timeout_ms);
	unsigned int sess_s = READ_ONCE(session_timeout_s);

	if (!ksmbd_conn_negotiated(conn)) {
		if (neg_ms && time_after(now, conn->accepted_at +
					 msecs_to_jiffies(neg_ms)))
			return "negotiate timeout";
		return NULL;
	}
	if (!test_bit(KSMBD_CONN_F_AUTHENTICATED, &conn->flags)) {
		if (sess_s && time_after(now, conn->negotiated_at +
					 sess_s * HZ))
			return "session setup timeout";
	}
	/* The client stopped reading: its answers wait in our memory. */
	if (stall_s && READ_ONCE(conn->tx_queued) &&
	    time_after(now, READ_ONCE(conn->tx_progress) + stall_s * HZ)) {
		ksmbd_total_add(KSMBD_TOTAL_SEND_STALLS, 1);
		return "send stalled";
	}
	if (deadtime && !atomic_read(&conn->outstanding) &&
	    time_after(now, READ_ONCE(conn->last_rx) + deadtime * HZ))
		return "idle (deadtime)";
	return NULL;
}

static void reaper_run(struct work_struct *w)
{
	unsigned long now = jiffies;
	struct ksmbd_conn *conn;
	const char *why;

	mutex_lock(&conn_list_lock);
	list_for_each_entry(conn, &conn_list, node) {
		if (ksmbd_conn_exiting(conn))
			continue;
		why = conn_expired(conn, now);
		if (why) {
			ksmbd_conn_note_limit(conn, why);
			ksmbd_conn_drop(conn, why);
		}
	}
	mutex_unlock(&conn_list_lock);
	if (READ_ONCE(reaper_on))
		schedule_delayed_work(&reaper, REAPER_PERIOD);
}

void ksmbd_conn_reaper_start(void)
{
	WRITE_ONCE(reaper_on, true);
	schedule_delayed_work(&reaper, REAPER_PERIOD);
}

void ksmbd_conn_reaper_stop(void)
{
	WRITE_ONCE(reaper_on, false);
	cancel_delayed_work_sync(&reaper);
}

void ksmbd_conn_note_limit(struct ksmbd_conn *conn, const char *limit)
{
	trace_ksmbd_conn_limit(conn->id, &conn->peer, limit);
}

void ksmbd_conn_note_rejected(struct ksmbd_conn *conn, u16 command,
			      u64 message_id, const char *reason)
{
	trace_ksmbd_request_rejected(conn, command, message_id, reason);
	ksmbd_debug(SMB, "conn %llu: rejected: %s\n", conn->id, reason);
}
