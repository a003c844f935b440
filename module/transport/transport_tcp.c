// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP listener and per-connection receive loop. Every RFC1002 length is
 * bounded by the connection's state before anything is allocated for it.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/net.h>
#include <linux/sched/task.h>
#include <net/sock.h>
#include <net/tcp.h>
#include "bufpool.h"
#include "connection.h"
#include "debug.h"
#include "listener.h"
#include "proto/validate.h"
#include "server.h"
#include "stats.h"
#include "transport_tcp.h"
#include "work.h"


static bool autostart;
module_param(autostart, bool, 0444);
MODULE_PARM_DESC(autostart,
		 "Start serving with default settings at load, without a daemon (testing and diagnostics only)");

static unsigned int frame_stall_s = 30;
module_param(frame_stall_s, uint, 0644);
MODULE_PARM_DESC(frame_stall_s,
		 "Drop a connection whose client sends no byte of a started frame for this many seconds (0: never; default 30)");

/* Serializes start and stop; listen_port is non-zero while serving. */
static DEFINE_MUTEX(listener_lock);
static u16 listen_port;

long ksmbd_tcp_stall_timeo(void)
{
	unsigned int s = READ_ONCE(frame_stall_s);

	return s ? s * HZ : MAX_SCHEDULE_TIMEOUT;
}

/*
 * 0, or -ECONNRESET when the peer closed, -ETIMEDOUT when it sent nothing
 * for the socket's receive timeout (mid-frame: frame_stall_s), or another
 * negative errno.
 */
int ksmbd_tcp_recv(struct ksmbd_conn *conn, void *buf, u32 len)
{
	u32 got = 0;
	int ret;

	while (got < len) {
		struct kvec iov = { .iov_base = buf + got, .iov_len = len - got };
		struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };

		ret = kernel_recvmsg(conn->sock, &msg, &iov, 1, len - got,
				     MSG_WAITALL);
		if (ret == 0)
			return -ECONNRESET;
		if (ret == -EAGAIN)
			return -ETIMEDOUT;
		if (ret == -EINTR || ret == -ERESTARTSYS) {
			if (ksmbd_conn_exiting(conn) || kthread_should_stop())
				return -ESHUTDOWN;
			continue;
		}
		if (ret < 0)
			return ret;
		got += ret;
	}
	return 0;
}

/* Below the request limit, and the client reads what it is sent. */
static bool may_read_more(struct ksmbd_conn *conn, int limit)
{
	return (atomic_read(&conn->outstanding) < limit &&
		!ksmbd_conn_tx_full(conn)) ||
	       ksmbd_conn_exiting(conn);
}

/*
 * The frame, or only its head when it is a large WRITE whose payload the
 * handler may receive straight into the file (*have says how much is in).
 * Streaming waits for the dialect: before it, frames go one at a time.
 */
static int recv_head(struct ksmbd_conn *conn, u8 *buf, u32 len, u32 *have)
{
	int ret;

	*have = len;
	if (!ksmbd_conn_negotiated(conn) ||
	    len < KSMBD_WRITE_STREAM_HEAD + KSMBD_WRITE_STREAM_MIN)
		return ksmbd_tcp_recv(conn, buf, len);
	ret = ksmbd_tcp_recv(conn, buf, KSMBD_WRITE_STREAM_HEAD);
	if (ret)
		return ret;
	if (ksmbd_write_streamable(buf, len)) {
		*have = KSMBD_WRITE_STREAM_HEAD;
		return 0;
	}
	return ksmbd_tcp_recv(conn, buf + KSMBD_WRITE_STREAM_HEAD,
			      len - KSMBD_WRITE_STREAM_HEAD);
}

const char *ksmbd_tcp_rx_reason(int err)
{
	switch (err) {
	case -ECONNRESET:
		return "closed by peer mid-frame";
	case -ETIMEDOUT:
		return "frame stalled";
	default:
		return "receive error";
	}
}

/* A streamed WRITE's payload: the work receives it through these. */
static const struct ksmbd_work_rx_ops tcp_rx_ops = {
	.recv		= ksmbd_tcp_recv,
	.recv_to_file	= ksmbd_tcp_recv_to_file,
	.reason		= ksmbd_tcp_rx_reason,
};

/*
 * While the client has more frames waiting in the socket, the answers to
 * the frames before them are corked: several go out as one segment, which
 * on loopback is one pass of the client's receive path and one wake-up of
 * its reader instead of one each. They are pushed before the receive thread
 * may wait for anything (the client's next bytes, a slot, a streamed
 * write's turn) and after at most RX_CORK_MAX frames, so no answer waits
 * on the client or on a long run of frames. (A slot that a worker's send
 * fills just after the check leaves the last answers to TCP's own probe
 * timer, 200 ms, while the client is not reading anyway.)
 */
#define RX_CORK_MAX	16

struct rx_batch {
	unsigned int corked;	/* frames received since the cork; 0: none */
};

static bool rx_has(struct ksmbd_conn *conn, u32 bytes)
{
	return tcp_inq(conn->sock->sk) >= bytes;
}

static void rx_push(struct ksmbd_conn *conn, struct rx_batch *b)
{
	if (!b->corked)
		return;
	b->corked = 0;
	tcp_sock_set_cork(conn->sock->sk, false);
}

/* Before a frame runs: cork its answer when another frame is waiting. */
static void rx_cork(struct ksmbd_conn *conn, struct rx_batch *b)
{
	if (!ksmbd_conn_negotiated(conn) ||
	    !rx_has(conn, KSMBD_RFC1002_HDR_SIZE)) {
		rx_push(conn, b);
		return;
	}
	if (b->corked >= RX_CORK_MAX)
		rx_push(conn, b);
	if (!b->corked++) {
		tcp_sock_set_cork(conn->sock->sk, true);
		ksmbd_total_add(KSMBD_TOTAL_TX_CORKS, 1);
	}
}

/*
 * One frame: header, bound, body, hand-off. Returns a close reason or NULL.
 * Between frames a client may stay silent as long as it likes (deadtime
 * is the daemon's business); once a frame has begun, its buffer, and for
 * a streamed WRITE its open file, are held until the rest comes, so a
 * client that stops sending mid-frame is dropped after frame_stall_s.
 */
static const char *recv_frame(struct ksmbd_conn *conn, struct rx_batch *b)
{
	u8 hdr[KSMBD_RFC1002_HDR_SIZE];
	struct ksmbd_work *work;
	enum ksmbd_valid v;
	u32 len, have;
	u8 *buf;
	int ret;

	if (!rx_has(conn, sizeof(hdr)))
		rx_push(conn, b);
	WRITE_ONCE(conn->sock->sk->sk_rcvtimeo, MAX_SCHEDULE_TIMEOUT);
	ret = ksmbd_tcp_recv(conn, hdr, sizeof(hdr));
	if (ret)
		return ret == -ECONNRESET ? "closed by peer" : "receive error";
	v = ksmbd_frame_check_length(hdr, ksmbd_conn_max_frame(conn), &len);
	if (v != KSMBD_VALID_OK) {
		if (v == KSMBD_VALID_FRAME_TOO_LONG)
			ksmbd_conn_note_limit(conn, "frame too large");
		ksmbd_conn_note_rejected(conn, 0xffff, 0, ksmbd_valid_name(v));
		return ksmbd_valid_name(v);
	}
	/* Credits bound the client; this bounds memory if it ignores them. */
	if (!may_read_more(conn, KSMBD_CONN_MAX_OUTSTANDING) ||
	    !rx_has(conn, len))
		rx_push(conn, b);
	wait_event(conn->req_wait,
		   may_read_more(conn, KSMBD_CONN_MAX_OUTSTANDING));
	if (ksmbd_conn_exiting(conn))
		return NULL;

	buf = ksmbd_rx_buf_alloc(len);
	if (!buf)
		return "out of memory";
	WRITE_ONCE(conn->sock->sk->sk_rcvtimeo, ksmbd_tcp_stall_timeo());
	ret = recv_head(conn, buf, len, &have);
	if (ret) {
		ksmbd_rx_buf_free(buf, len);
		return ksmbd_tcp_rx_reason(ret);
	}
	ksmbd_total_add(KSMBD_TOTAL_BYTES_IN, len + sizeof(hdr));
	atomic64_add(len + sizeof(hdr), &conn->bytes_in);
	WRITE_ONCE(conn->last_rx, jiffies);

	work = ksmbd_work_alloc(conn, buf, len, &tcp_rx_ops);
	if (!work) {
		ksmbd_rx_buf_free(buf, len);
		return "out of memory";
	}
	if (have < len) {
		rx_push(conn, b);
		work->rx_have = have;
		ret = ksmbd_work_run_streamed(work);
		return ret ? ksmbd_tcp_rx_reason(ret) : NULL;
	}
	rx_cork(conn, b);
	ksmbd_work_queue(work);
	/*
	 * Until a dialect is settled every frame depends on the one before
	 * (NEGOTIATE, then what it allowed); take them one at a time.
	 */
	if (!ksmbd_conn_negotiated(conn)) {
		rx_push(conn, b);
		wait_event(conn->req_wait, may_read_more(conn, 1));
	}
	return NULL;
}

static int recv_thread(void *arg)
{
	struct ksmbd_conn *conn = arg;
	struct rx_batch batch = { };
	const char *why = NULL;

	while (!why && !kthread_should_stop() && !ksmbd_conn_exiting(conn))
		why = recv_frame(conn, &batch);
	ksmbd_conn_drop(conn, why ?: "stopped");
	ksmbd_conn_release(conn);

	/* The release work stops us; leave only when it says so. */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void new_connection(struct socket *sock)
{
	struct task_struct *task;
	struct ksmbd_conn *conn;

	conn = ksmbd_conn_create(sock);
	if (IS_ERR(conn)) {
		if (PTR_ERR(conn) == -EMFILE)
			ksmbd_debug(CONN, "over max connections: closing\n");
		sock_release(sock);
		return;
	}
	/* Accepted sockets inherit the listener's accept poll timeout. */
	sock->sk->sk_rcvtimeo = MAX_SCHEDULE_TIMEOUT;
	tcp_sock_set_nodelay(sock->sk);
	/* Sends never wait for the socket; its room wakes the send queue. */
	ksmbd_conn_tx_attach(conn);
	task = kthread_create(recv_thread, conn, "ksmbd:%llu", conn->id);
	if (IS_ERR(task)) {
		ksmbd_conn_abort(conn);
		return;
	}
	get_task_struct(task);
	conn->recv_task = task;
	wake_up_process(task);
}

int ksmbd_tcp_start(u16 port)
{
	const struct ksmbd_server_config *c = &ksmbd_server_conf;
	int ret;

	mutex_lock(&listener_lock);
	if (listen_port) {
		ret = -EBUSY;
		goto out_unlock;
	}
	ret = ksmbd_listen_start(port, c->interfaces, c->interfaces_len,
				 new_connection);
	if (ret) {
		pr_err("cannot listen on port %u: %d\n", port, ret);
		ksmbd_listen_stop();
		goto out_unlock;
	}
	WRITE_ONCE(listen_port, port);
	ksmbd_conn_reaper_start();
	if (c->interfaces_len)
		pr_info("listening on port %u, on the configured interfaces only (%u addresses now)\n",
			port, ksmbd_listen_count());
	else
		pr_info("listening on port %u\n", port);
out_unlock:
	mutex_unlock(&listener_lock);
	return ret;
}

bool ksmbd_tcp_stop_listening(void)
{
	mutex_lock(&listener_lock);
	if (!listen_port) {
		mutex_unlock(&listener_lock);
		return false;
	}
	WRITE_ONCE(listen_port, 0);
	ksmbd_listen_stop();
	ksmbd_conn_reaper_stop();
	mutex_unlock(&listener_lock);
	return true;
}

void ksmbd_tcp_drop_all(void)
{
	ksmbd_conn_drop_all("server stopping");
	ksmbd_conn_wait_all();
	pr_info("stopped listening\n");
}

u16 ksmbd_tcp_listen_port(void)
{
	return READ_ONCE(listen_port);
}

int ksmbd_tcp_init(void)
{
	struct ksmbd_server_config *conf;
	int ret;

	if (!autostart)
		return 0;
	/* A copy: ksmbd_server_start() overwrites the global with it. */
	conf = kmemdup(&ksmbd_server_conf, sizeof(*conf), GFP_KERNEL);
	if (!conf)
		return -ENOMEM;
	ret = ksmbd_server_start(conf);
	kfree(conf);
	return ret;
}
