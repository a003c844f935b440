// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request work items and the ksmbd-io workqueue.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/shrinker.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <asm/unaligned.h>
#include "connection.h"
#include "proto/decode.h"
#include "smb2_dispatch.h"
#include "stats.h"
#include "transport_tcp.h"
#include "work.h"

static struct workqueue_struct *io_wq;
static struct kmem_cache *work_cache;
static struct kmem_cache *rsp_cache;
static struct kmem_cache *scratch_cache;

u8 *ksmbd_work_buf_alloc(u32 len)
{
	u8 *buf = kvmalloc(len, GFP_KERNEL);

	if (buf)
		ksmbd_live_inc(KSMBD_LIVE_BUFFERS);
	return buf;
}

void ksmbd_work_buf_free(void *buf)
{
	if (!buf)
		return;
	kvfree(buf);
	ksmbd_live_dec(KSMBD_LIVE_BUFFERS);
}

/*
 * Response buffers of metadata compounds and the path scratch buffers of
 * CREATE come from caches with a constructor, which the kernel does not
 * zero on allocation (init_on_alloc, on in Debian's kernels, zeroed every
 * response buffer, the 4 KiB one of a stat's CREATE + QUERY_INFO + CLOSE
 * too). A reused buffer still holds an earlier
 * response, so nothing may reach the wire unwritten: response bytes are
 * written through ksmbd_wbuf_reserve, which zeroes what it hands out, or
 * by the writers of the header (ksmbd_smb2_put_hdr clears all of it), the
 * padding between compound elements (cleared), the READ data read into
 * place (only what the read filled is kept) and the nested writers of
 * QUERY_INFO and QUERY_DIRECTORY (their own reserves zeroed; the outer
 * buffer commits their output with ksmbd_wbuf_reserve_raw). A scratch
 * buffer is read only up to the string written into it.
 */
static void buf_ctor(void *p)
{
}

/*
 * Does slub_debug poison the cache called name? Its own sysfs attribute
 * says so; nothing else a module may use tells (the flags live in a
 * struct private to mm/, and slub_debug may name single caches). A
 * cache that cannot be asked counts as unpoisoned.
 */
static bool cache_poisoned(const char *name)
{
	char path[64], val[2] = "";
	struct file *f;
	loff_t pos = 0;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/poison", name);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return false;
	kernel_read(f, val, 1, &pos);
	filp_close(f, NULL);
	return val[0] == '1';
}

/*
 * SLUB never poisons the objects of a cache with a constructor, so under
 * slub_debug (the test guest's slub_debug=FZPU) a use after free of a
 * response or scratch buffer would go unseen. Decided here, at load:
 * when slub_debug poisons the cache, it gets no constructor (the kernel
 * then zeroes each buffer, slow, but only where slub_debug already
 * is); otherwise it keeps the constructor, for the speed above.
 */
static struct kmem_cache *buf_cache_create(const char *name,
					   unsigned int size)
{
	struct kmem_cache *c = kmem_cache_create(name, size, 0, 0, NULL);

	if (c && !cache_poisoned(name)) {
		kmem_cache_destroy(c);
		c = kmem_cache_create(name, size, 0, 0, buf_ctor);
	}
	return c;
}

u8 *ksmbd_rsp_buf_alloc(u32 len)
{
	u8 *buf;

	if (len > KSMBD_RSP_CACHED_SIZE)
		return ksmbd_work_buf_alloc(len);
	buf = kmem_cache_alloc(rsp_cache, GFP_KERNEL);
	if (buf)
		ksmbd_live_inc(KSMBD_LIVE_BUFFERS);
	return buf;
}

void ksmbd_rsp_buf_free(void *buf, u32 len)
{
	if (!buf)
		return;
	if (len > KSMBD_RSP_CACHED_SIZE) {
		ksmbd_work_buf_free(buf);
		return;
	}
	kmem_cache_free(rsp_cache, buf);
	ksmbd_live_dec(KSMBD_LIVE_BUFFERS);
}

char *ksmbd_scratch_alloc(void)
{
	return kmem_cache_alloc(scratch_cache, GFP_KERNEL);
}

void ksmbd_scratch_free(char *p)
{
	if (p)
		kmem_cache_free(scratch_cache, p);
}

/*
 * Receive buffers of large frames (WRITE payloads) are kept for reuse. The
 * kernel zeroes every page it hands out (init_on_alloc, on in Debian's
 * kernels), so a fresh 1 MiB buffer for each 1 MiB WRITE was one more
 * full pass over the data before the socket overwrote it. A receive
 * buffer is filled from the socket before anything reads it and nothing
 * reads past the frame, so a previous request's bytes never reach a
 * client. Idle buffers are bounded (RX_POOL_MAX_BYTES) and are given back
 * under memory pressure.
 */
#define RX_POOL_MIN		(64 << 10)
#define RX_POOL_CLASSES		8	/* 128 KiB .. 16 MiB */
#define RX_POOL_DEPTH		4
#define RX_POOL_MAX_BYTES	(32 << 20)

static struct {
	spinlock_t lock;
	void *bufs[RX_POOL_CLASSES][RX_POOL_DEPTH];
	int n[RX_POOL_CLASSES];
	size_t bytes;
} rx_pool = { .lock = __SPIN_LOCK_UNLOCKED(rx_pool.lock) };

/*
 * The headroom lets the largest frame a connection allows (MaxWrite plus
 * KSMBD_FRAME_HEADROOM) fit its own class rather than one twice its size.
 */
static size_t rx_class_size(int c)
{
	return ((size_t)(128 << 10) << c) + KSMBD_FRAME_HEADROOM;
}

static int rx_class_of(u32 len)
{
	int c;

	if (len < RX_POOL_MIN)
		return -1;
	for (c = 0; c < RX_POOL_CLASSES; c++)
		if (len <= rx_class_size(c))
			return c;
	return -1;
}

u8 *ksmbd_rx_buf_alloc(u32 len)
{
	int c = rx_class_of(len);
	void *buf = NULL;

	if (c < 0)
		return ksmbd_work_buf_alloc(len);
	spin_lock(&rx_pool.lock);
	if (rx_pool.n[c]) {
		buf = rx_pool.bufs[c][--rx_pool.n[c]];
		rx_pool.bytes -= rx_class_size(c);
	}
	spin_unlock(&rx_pool.lock);
	if (!buf)
		buf = kvmalloc(rx_class_size(c), GFP_KERNEL);
	if (buf)
		ksmbd_live_inc(KSMBD_LIVE_BUFFERS);
	return buf;
}

void ksmbd_rx_buf_free(void *buf, u32 len)
{
	int c = rx_class_of(len);
	bool kept = false;

	if (c < 0 || !buf) {
		ksmbd_work_buf_free(buf);
		return;
	}
	ksmbd_live_dec(KSMBD_LIVE_BUFFERS);
	spin_lock(&rx_pool.lock);
	if (rx_pool.n[c] < RX_POOL_DEPTH &&
	    rx_pool.bytes + rx_class_size(c) <= RX_POOL_MAX_BYTES) {
		rx_pool.bufs[c][rx_pool.n[c]++] = buf;
		rx_pool.bytes += rx_class_size(c);
		kept = true;
	}
	spin_unlock(&rx_pool.lock);
	if (!kept)
		kvfree(buf);
}

size_t ksmbd_rx_pool_bytes(void)
{
	return READ_ONCE(rx_pool.bytes);
}

/* Frees every idle buffer; returns the pages given back. */
static unsigned long rx_pool_drain(void)
{
	void *bufs[RX_POOL_CLASSES * RX_POOL_DEPTH];
	unsigned long pages;
	int c, i, n = 0;

	spin_lock(&rx_pool.lock);
	for (c = 0; c < RX_POOL_CLASSES; c++) {
		while (rx_pool.n[c])
			bufs[n++] = rx_pool.bufs[c][--rx_pool.n[c]];
	}
	pages = rx_pool.bytes >> PAGE_SHIFT;
	rx_pool.bytes = 0;
	spin_unlock(&rx_pool.lock);
	for (i = 0; i < n; i++)
		kvfree(bufs[i]);
	return pages;
}

static unsigned long rx_pool_count(struct shrinker *s,
				   struct shrink_control *sc)
{
	return READ_ONCE(rx_pool.bytes) >> PAGE_SHIFT;
}

static unsigned long rx_pool_scan(struct shrinker *s,
				  struct shrink_control *sc)
{
	return rx_pool_drain() ?: SHRINK_STOP;
}

static struct shrinker rx_pool_shrinker = {
	.count_objects = rx_pool_count,
	.scan_objects = rx_pool_scan,
	.seeks = DEFAULT_SEEKS,
};

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

	/* The lock ksmbd_work_unpark_all() takes: no wake-up is missed. */
	spin_lock(&conn->park_lock);
	if (ksmbd_conn_exiting(conn)) {
		/* runs to find the connection gone */
	} else if (ksmbd_conn_tx_over_locked(conn)) {
		list_add_tail(&work->park_node, &conn->parked);
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
		ksmbd_work_unpark_all(conn);
}

void ksmbd_work_unpark_all(struct ksmbd_conn *conn)
{
	struct ksmbd_work *work, *tmp;
	LIST_HEAD(list);

	spin_lock(&conn->park_lock);
	list_splice_init(&conn->parked, &list);
	spin_unlock(&conn->park_lock);
	list_for_each_entry_safe(work, tmp, &list, park_node) {
		list_del_init(&work->park_node);
		queue_work(io_wq, &work->work);
	}
}

static void work_run(struct work_struct *w)
{
	struct ksmbd_work *work = container_of(w, struct ksmbd_work, work);

	if (work_park(work))
		return;
	if (!ksmbd_conn_exiting(work->conn))
		ksmbd_smb2_process(work);
	work_unreserve(work);
	work_free(work);
}

struct ksmbd_work *ksmbd_work_alloc(struct ksmbd_conn *conn, u8 *frame,
				    u32 frame_len)
{
	struct ksmbd_work *work;

	work = kmem_cache_zalloc(work_cache, GFP_KERNEL);
	if (!work)
		return NULL;
	ksmbd_live_inc(KSMBD_LIVE_WORKS);
	INIT_WORK(&work->work, work_run);
	ksmbd_conn_get(conn);
	ksmbd_conn_request_begin(conn);
	work->conn = conn;
	work->frame = frame;
	work->buf = frame;
	work->buf_len = frame_len;
	work->frame_len = frame_len;
	work->received_ns = ktime_get_ns();
	work->rx_have = frame_len;
	return work;
}

bool ksmbd_work_fill(struct ksmbd_work *work, u32 upto)
{
	int ret;

	if (work->rx_error)
		return false;
	if (upto <= work->rx_have)
		return true;
	ret = ksmbd_tcp_recv(work->conn, work->buf + work->rx_have,
			     upto - work->rx_have);
	if (ret) {
		work->rx_error = ret;
		return false;
	}
	work->rx_have = upto;
	return true;
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
	n = ksmbd_tcp_recv_to_file(work->conn, out, pos,
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
	int ret;

	ksmbd_total_add(KSMBD_TOTAL_WRITES_STREAMED, 1);
	if (!ksmbd_conn_exiting(work->conn))
		ksmbd_smb2_process(work);
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
 * is read: its watch must exist before a change the client sends right
 * behind it (without waiting for the interim) is made, as clients and
 * smbtorture expect. It does not block: it answers at once or goes async.
 */
static bool run_inline(const struct ksmbd_work *work)
{
	u16 cmd;

	return ksmbd_frame_lone_command(work->frame, work->frame_len, &cmd) &&
	       cmd == SMB2_CHANGE_NOTIFY;
}

/*
 * A lone READ with nothing else of the connection in flight and nothing
 * more received: no other request could run beside it, so it runs in the
 * receive thread, saving a worker wake-up and a switch on each round trip
 * of a client that waits for every answer (4 KiB random reads). READ
 * waits for nothing but the file system. (WRITE is left on the workqueue:
 * one noisy run showed sequential writes slower with it inline.)
 */
static bool run_alone(const struct ksmbd_work *work)
{
	u16 cmd;

	if (!ksmbd_frame_lone_command(work->frame, work->frame_len, &cmd) ||
	    cmd != SMB2_READ)
		return false;
	return atomic_read(&work->conn->outstanding) == 1 &&
	       !skb_queue_len_lockless(&work->conn->sock->sk->sk_receive_queue);
}

void ksmbd_work_queue(struct ksmbd_work *work)
{
	if (run_inline(work) || run_alone(work)) {
		work_run(&work->work);
		return;
	}
	queue_work(io_wq, &work->work);
}

void ksmbd_work_queue_plain(struct work_struct *w)
{
	queue_work(io_wq, w);
}

int ksmbd_work_init(void)
{
	work_cache = KMEM_CACHE(ksmbd_work, 0);
	if (!work_cache)
		return -ENOMEM;
	rsp_cache = buf_cache_create("ksmbd_rsp", KSMBD_RSP_CACHED_SIZE);
	if (!rsp_cache)
		goto err_destroy_cache;
	scratch_cache = buf_cache_create("ksmbd_scratch", KSMBD_SCRATCH_SIZE);
	if (!scratch_cache)
		goto err_destroy_cache;
	/*
	 * Unbound: requests may sleep in the VFS or wait for the daemon, and
	 * one slow request must not hold up others queued on the same CPU.
	 */
	io_wq = alloc_workqueue("ksmbd-io", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!io_wq)
		goto err_destroy_cache;
	if (register_shrinker(&rx_pool_shrinker, "ksmbd-rx"))
		goto err_destroy_wq;
	return 0;

err_destroy_wq:
	destroy_workqueue(io_wq);
err_destroy_cache:
	kmem_cache_destroy(scratch_cache);
	kmem_cache_destroy(rsp_cache);
	kmem_cache_destroy(work_cache);
	return -ENOMEM;
}

void ksmbd_work_exit(void)
{
	/* Drains: every queued work and connection release runs first. */
	destroy_workqueue(io_wq);
	unregister_shrinker(&rx_pool_shrinker);
	rx_pool_drain();
	kmem_cache_destroy(scratch_cache);
	kmem_cache_destroy(rsp_cache);
	kmem_cache_destroy(work_cache);
}
