// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request work items and the ksmbd-io workqueue.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <asm/unaligned.h>
#include "connection.h"
#include "proto/smb2.h"
#include "smb2_dispatch.h"
#include "stats.h"
#include "work.h"

static struct workqueue_struct *io_wq;
static struct kmem_cache *work_cache;

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

static void work_free(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;

	ksmbd_work_buf_free(work->buf);
	kmem_cache_free(work_cache, work);
	ksmbd_live_dec(KSMBD_LIVE_WORKS);
	ksmbd_conn_request_end(conn);
	ksmbd_conn_put(conn);
}

static void work_run(struct work_struct *w)
{
	struct ksmbd_work *work = container_of(w, struct ksmbd_work, work);

	if (!ksmbd_conn_exiting(work->conn))
		ksmbd_smb2_process(work);
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
	work->frame_len = frame_len;
	work->received_ns = ktime_get_ns();
	return work;
}

/*
 * A lone CHANGE_NOTIFY runs in the receive thread, before the next frame
 * is read: its watch must exist before a change the client sends right
 * behind it (without waiting for the interim) is made, as clients and
 * smbtorture expect. It does not block: it answers at once or goes async.
 */
static bool run_inline(const struct ksmbd_work *work)
{
	const u8 *f = work->frame;

	return work->frame_len >= SMB2_HEADER_SIZE &&
	       get_unaligned_le32(f) == le32_to_cpu(SMB2_PROTO_NUMBER) &&
	       get_unaligned_le16(f + offsetof(struct smb2_hdr, command)) ==
	       SMB2_CHANGE_NOTIFY &&
	       !get_unaligned_le32(f + offsetof(struct smb2_hdr, next_command));
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
	const u8 *f = work->frame;
	u16 cmd;

	if (work->frame_len < SMB2_HEADER_SIZE ||
	    get_unaligned_le32(f) != le32_to_cpu(SMB2_PROTO_NUMBER) ||
	    get_unaligned_le32(f + offsetof(struct smb2_hdr, next_command)))
		return false;
	cmd = get_unaligned_le16(f + offsetof(struct smb2_hdr, command));
	if (cmd != SMB2_READ)
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
	/*
	 * Unbound: requests may sleep in the VFS or wait for the daemon, and
	 * one slow request must not hold up others queued on the same CPU.
	 */
	io_wq = alloc_workqueue("ksmbd-io", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!io_wq)
		goto err_destroy_cache;
	return 0;

err_destroy_cache:
	kmem_cache_destroy(work_cache);
	return -ENOMEM;
}

void ksmbd_work_exit(void)
{
	/* Drains: every queued work and connection release runs first. */
	destroy_workqueue(io_wq);
	kmem_cache_destroy(work_cache);
}
