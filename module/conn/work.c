// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request work items and the ksmbd-io workqueue (their buffers: bufpool.c).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <asm/unaligned.h>
#include "bufpool.h"
#include "connection.h"
#include "ksmbd_trace.h"
#include "proto/decode.h"
#include "stats.h"
#include "work.h"

static struct kmem_cache *work_cache;
static void (*process_frame)(struct ksmbd_work *work);
static bool (*read_cached)(u64 session_id, u64 persistent_id,
			   u64 volatile_id, u64 offset, u32 len);

static void work_free(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;

	ksmbd_rx_buf_free(work->buf, work->buf_len);
	kmem_cache_free(work_cache, work);
	ksmbd_live_dec(KSMBD_LIVE_WORKS);
	ksmbd_conn_request_end(conn);
	ksmbd_conn_put(conn);
}

/* Small answers (metadata, errors) are counted as this much. */
#define RSP_ESTIMATE_SMALL	(64 << 10)

/*
 * What the answer to this frame may put on the send queue: a READ's
 * Length (its first element's, for a compound), else a small answer's
 * size. An encrypted frame is not read yet: counted as small.
 */
static size_t rsp_estimate(const struct ksmbd_work *work)
{
	u32 length;

	if (!ksmbd_frame_read_length(work->frame, work->frame_len, &length))
		return RSP_ESTIMATE_SMALL;
	return max_t(size_t, length, RSP_ESTIMATE_SMALL);
}

/*
 * A client that does not read its answers is served no further: its
 * work waits, holding its frame but no worker and no response buffer,
 * until what is queued and what the running works will add is below the
 * bound again. A work that runs reserves its answer's estimated size
 * until it ends.
 */
static bool work_park(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;
	size_t est = rsp_estimate(work);
	bool parked = false;

	/* The lock ksmbd_conn_unpark_all() takes: no wake-up is missed. */
	spin_lock(&conn->park_lock);
	if (ksmbd_conn_exiting(conn)) {
		/* runs to find the connection gone */
	} else if (ksmbd_conn_tx_over_locked(conn)) {
		list_add_tail(&work->park.node, &conn->parked);
		parked = true;
	} else {
		conn->tx_reserved += est;
		work->tx_reserved = est;
	}
	spin_unlock(&conn->park_lock);
	if (parked)
		ksmbd_total_add(KSMBD_TOTAL_WORKS_PARKED, 1);
	return parked;
}

/* The work's answer is queued or sent: its reservation goes. */
static void work_unreserve(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;
	bool wake;

	if (!work->tx_reserved)
		return;
	spin_lock(&conn->park_lock);
	conn->tx_reserved -= work->tx_reserved;
	work->tx_reserved = 0;
	wake = !list_empty(&conn->parked) && !ksmbd_conn_tx_over_locked(conn);
	spin_unlock(&conn->park_lock);
	if (wake)
		ksmbd_conn_unpark_all(conn);
}

/*
 * Only a frame that is one READ or WRITE is data: a compound, whatever it
 * holds, is a barrier. An encrypted frame is undecided until its work has
 * decrypted it (ksmbd_work_decrypted()).
 */
static u8 order_kind(const struct ksmbd_work *work)
{
	enum ksmbd_frame_kind fk;
	u16 cmd;

	if (ksmbd_frame_classify(work->frame, work->frame_len, &fk) ==
	    KSMBD_VALID_OK && fk == KSMBD_FRAME_TRANSFORM)
		return KSMBD_ORDER_UNDECIDED;
	if (!ksmbd_frame_lone_command(work->frame, work->frame_len, &cmd))
		return KSMBD_ORDER_BARRIER;
	switch (cmd) {
	case SMB2_READ:
	case SMB2_WRITE:
		return KSMBD_ORDER_DATA;
	case SMB2_CANCEL:
		return KSMBD_ORDER_FREE;
	default:
		return KSMBD_ORDER_BARRIER;
	}
}

void ksmbd_work_decrypted(struct ksmbd_work *work)
{
	u8 kind = order_kind(work);
	LIST_HEAD(ready);

	/* A transform in a transform is refused; alone until then. */
	if (kind == KSMBD_ORDER_UNDECIDED)
		kind = KSMBD_ORDER_BARRIER;
	ksmbd_order_decide(&work->conn->order, &work->order, kind, &ready);
	ksmbd_conn_queue_ready(&ready);
}

void ksmbd_work_order_release(struct ksmbd_work *work)
{
	LIST_HEAD(ready);

	ksmbd_order_done(&work->conn->order, &work->order, &ready);
	ksmbd_conn_queue_ready(&ready);
}

/* A parked work keeps its place in the order: it has started. */
static void work_run(struct work_struct *w)
{
	struct ksmbd_work *work = container_of(w, struct ksmbd_work, work);

	if (work_park(work))
		return;
	if (!ksmbd_conn_exiting(work->conn))
		process_frame(work);
	ksmbd_work_order_release(work);
	work_unreserve(work);
	work_free(work);
}

/*
 * The receive time serves only the latencies request_done and
 * session_setup trace: the clock is read when one of them is on (under
 * TCG a read of the guest's HPET costs about 1.7 us, a few percent of a
 * small request). A request received before tracing began reports 0.
 */
static u64 receive_stamp(void)
{
	if (trace_ksmbd_request_done_enabled() ||
	    trace_ksmbd_session_setup_enabled())
		return ktime_get_ns();
	return 0;
}

struct ksmbd_work *ksmbd_work_alloc(struct ksmbd_conn *conn, u8 *frame,
				    u32 frame_len,
				    const struct ksmbd_work_rx_ops *rx)
{
	struct ksmbd_work *work;

	work = kmem_cache_zalloc(work_cache, GFP_KERNEL);
	if (!work)
		return NULL;
	ksmbd_live_inc(KSMBD_LIVE_WORKS);
	INIT_WORK(&work->work, work_run);
	work->park.work = &work->work;
	ksmbd_conn_get(conn);
	ksmbd_conn_request_begin(conn);
	work->conn = conn;
	work->frame = frame;
	work->buf = frame;
	work->buf_len = frame_len;
	work->frame_len = frame_len;
	work->received_ns = receive_stamp();
	work->rx_have = frame_len;
	work->rx = rx;
	work->order.work = &work->work;
	work->order.kind = order_kind(work);
	return work;
}

bool ksmbd_work_fill(struct ksmbd_work *work, u32 upto)
{
	int ret;

	if (work->rx_error)
		return false;
	if (upto <= work->rx_have)
		return true;
	ret = work->rx->recv(work->conn, work->buf + work->rx_have,
			     upto - work->rx_have);
	if (ret) {
		work->rx_error = ret;
		return false;
	}
	work->rx_have = upto;
	return true;
}

const char *ksmbd_work_rx_reason(const struct ksmbd_work *work)
{
	return work->rx->reason(work->rx_error);
}

ssize_t ksmbd_work_fill_file(struct ksmbd_work *work, u32 upto,
			     struct file *out, loff_t pos)
{
	ssize_t n;
	u32 taken;
	int rx_err;

	if (work->rx_error)
		return -ECONNABORTED;
	if (upto <= work->rx_have || upto > work->buf_len)
		return -EINVAL;
	ksmbd_total_add(KSMBD_TOTAL_WRITES_DIRECT, 1);
	n = work->rx->recv_to_file(work->conn, out, pos,
				   upto - work->rx_have, &taken, &rx_err);
	work->rx_have += taken;
	/* the rest of the frame is not coming: nothing may wait for it again */
	if (rx_err)
		work->rx_error = rx_err;
	return n;
}

/*
 * In the receive thread, which owns the socket: nothing else may read
 * from it until the payload is in, and running here saves handing the
 * socket over and back.
 */
int ksmbd_work_run_streamed(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;
	int ret;

	ksmbd_total_add(KSMBD_TOTAL_WRITES_STREAMED, 1);
	/*
	 * Its turn first: a barrier before it (a truncate, a lock) must have
	 * acted. Nothing it waits for needs this thread: a request waiting
	 * for a later one leaves the order first (ksmbd_work_order_release()).
	 */
	wait_event_idle(conn->order.wait,
			ksmbd_order_try(&conn->order, &work->order) ||
			ksmbd_conn_exiting(conn));
	if (!ksmbd_conn_exiting(work->conn))
		process_frame(work);
	ksmbd_work_order_release(work);
	if (!ksmbd_conn_exiting(work->conn))
		ksmbd_work_fill(work, work->buf_len);
	else if (ksmbd_work_streamed(work) && !work->rx_error)
		work->rx_error = -ESHUTDOWN;
	ret = work->rx_error;
	work_free(work);
	return ret;
}

/*
 * A lone CHANGE_NOTIFY runs in the receive thread, before the next frame
 * is read, when nothing before it holds the order: its watch must exist
 * before a change the client sends right behind it (without waiting for
 * the interim) is made, as clients and smbtorture expect. It does not
 * block: it answers at once or goes async. Otherwise it waits its turn on
 * the workqueue, and being a barrier, the change behind it waits for it.
 */
static bool run_inline(const struct ksmbd_work *work)
{
	u16 cmd;

	return ksmbd_frame_lone_command(work->frame, work->frame_len, &cmd) &&
	       cmd == SMB2_CHANGE_NOTIFY;
}

/*
 * The largest READ the receive thread serves itself when other requests
 * of the connection are in flight: for a small read, handing it to a
 * worker (a wake-up, a switch, the answer sent from another CPU) is a
 * good part of its cost (8 random 4 KiB readers on one connection: our
 * server's time per READ fell by 10-20 % against Samba's, served here).
 * Above this, copying the data is the cost, and workers read in parallel.
 */
#define INLINE_READ_MAX		(64 << 10)

/*
 * A lone READ runs in the receive thread, saving a worker wake-up and a
 * switch, when it cannot hold the next frame up for long: nothing else
 * of the connection is in flight and nothing more has arrived (a client
 * that waits for every answer), or it is small and its data is in the
 * page cache (read_cached(), registered by the layer that owns handles),
 * so it waits for neither the disk nor another request. A READ of data
 * not in memory goes to a worker, where reads wait for the disk in
 * parallel. (WRITE is left on the workqueue: one noisy run showed
 * sequential writes slower with it inline.)
 */
static bool run_alone(const struct ksmbd_work *work)
{
	struct ksmbd_frame_read rd;

	if (!ksmbd_frame_lone_read(work->frame, work->frame_len, &rd))
		return false;
	if (atomic_read(&work->conn->outstanding) == 1 &&
	    !skb_queue_len_lockless(&work->conn->sock->sk->sk_receive_queue))
		return true;
	return rd.length <= INLINE_READ_MAX && read_cached &&
	       read_cached(rd.session_id, rd.persistent_id, rd.volatile_id,
			   rd.offset, rd.length);
}

void ksmbd_work_queue(struct ksmbd_work *work)
{
	struct ksmbd_order *o = &work->conn->order;

	if (run_inline(work) && ksmbd_order_try(o, &work->order)) {
		work_run(&work->work);
		return;
	}
	if (run_alone(work) && ksmbd_order_try(o, &work->order)) {
		ksmbd_total_add(KSMBD_TOTAL_READS_INLINE, 1);
		work_run(&work->work);
		return;
	}
	if (ksmbd_order_admit(o, &work->order))
		ksmbd_conn_queue_work(&work->work);
}

void ksmbd_work_queue_plain(struct work_struct *w)
{
	ksmbd_conn_queue_work(w);
}

int ksmbd_work_init(void (*process)(struct ksmbd_work *work),
		    bool (*cached)(u64 session_id, u64 persistent_id,
				   u64 volatile_id, u64 offset, u32 len))
{
	process_frame = process;
	read_cached = cached;
	work_cache = KMEM_CACHE(ksmbd_work, 0);
	if (!work_cache)
		return -ENOMEM;
	if (ksmbd_conn_wq_init()) {
		kmem_cache_destroy(work_cache);
		return -ENOMEM;
	}
	return 0;
}

void ksmbd_work_exit(void)
{
	ksmbd_conn_wq_exit();
	kmem_cache_destroy(work_cache);
}
