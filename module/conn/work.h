/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Request work items: one per received frame, run on the "ksmbd-io"
 * workqueue. A work owns its frame buffer and holds a reference on its
 * connection, so a connection outlives every request that is in flight on
 * it, whatever order teardown happens in. Works start in their
 * connection's order (order.h): queued on ksmbd-io, or run in the receive
 * thread, only once the requests before them allow it.
 */
#ifndef KSMBD_WORK_H
#define KSMBD_WORK_H

#include <linux/types.h>
#include <linux/workqueue.h>
#include "connection.h"

struct ksmbd_conn;
struct file;
struct ksmbd_session;

/*
 * The rest of a streamed frame comes from the transport that received its
 * head (transport_tcp.h says what the calls return).
 */
struct ksmbd_work_rx_ops {
	int (*recv)(struct ksmbd_conn *conn, void *buf, u32 len);
	ssize_t (*recv_to_file)(struct ksmbd_conn *conn, struct file *out,
				loff_t pos, u32 len, u32 *taken, int *rx_err);
	/* why the connection goes after a receive error, for the trace */
	const char *(*reason)(int err);
};

struct ksmbd_work {
	struct work_struct work;
	struct ksmbd_conn_parked park;	/* on conn->parked while held back */
	struct ksmbd_order_item order;	/* its place in conn->order */
	size_t tx_reserved;		/* counted in conn->tx_reserved */
	struct ksmbd_conn *conn;	/* counted reference */
	u8 *frame;			/* the (decrypted) message being served */
	u32 frame_len;
	u8 *buf;			/* received frame, without the RFC1002 header */
	u32 buf_len;			/* what buf was allocated for */
	/* Set when the frame came encrypted: its session (counted), whose
	 * keys encrypt the response. */
	struct ksmbd_session *enc_sess;
	/* ktime_get_ns() when the frame was read, if tracing wants it, or 0 */
	u64 received_ns;
	/*
	 * A streamed WRITE (ksmbd_write_streamable()): only the frame's first
	 * rx_have bytes are in buf, the rest is still in the socket. The
	 * WRITE handler receives it chunk by chunk into buf as it writes the
	 * file; whatever it leaves is received before the next frame is read.
	 * rx_have is buf_len for every other frame.
	 */
	u32 rx_have;
	int rx_error;			/* receiving the rest failed */
	const struct ksmbd_work_rx_ops *rx;
};

/*
 * process serves every frame (the SMB2 dispatcher): the work layer sits
 * below it and knows it only through this registration (main.c). cached
 * says whether a READ's data is in memory (the handle layer's
 * ksmbd_file_read_cached()): such a READ may run in the receive thread.
 */
int ksmbd_work_init(void (*process)(struct ksmbd_work *work),
		    bool (*cached)(u64 session_id, u64 persistent_id,
				   u64 volatile_id, u64 offset, u32 len));
void ksmbd_work_exit(void);

/* Takes ownership of frame (from ksmbd_rx_buf_alloc(frame_len)) and a
 * reference on conn; rx receives what of the frame is still to come. */
struct ksmbd_work *ksmbd_work_alloc(struct ksmbd_conn *conn, u8 *frame,
				    u32 frame_len,
				    const struct ksmbd_work_rx_ops *rx);
void ksmbd_work_queue(struct ksmbd_work *work);
/* Serves a streamed WRITE in the receive thread; 0 or the receive error. */
int ksmbd_work_run_streamed(struct ksmbd_work *work);
/* A streamed frame received up to buf offset upto; false on failure. */
bool ksmbd_work_fill(struct ksmbd_work *work, u32 upto);
/*
 * A streamed frame's bytes up to buf offset upto written from the socket
 * into out at pos instead of into buf: what was written or an error.
 * What the file did not take is left for ksmbd_work_fill().
 */
ssize_t ksmbd_work_fill_file(struct ksmbd_work *work, u32 upto,
			     struct file *out, loff_t pos);
/* The close reason of the receive error a fill met (work->rx_error). */
const char *ksmbd_work_rx_reason(const struct ksmbd_work *work);

/* Part of the frame is still in the socket. */
static inline bool ksmbd_work_streamed(const struct ksmbd_work *work)
{
	return work->rx_have < work->buf_len;
}

/*
 * The work waits, from here on, for what a later request of its
 * connection may bring (a break's acknowledgement): those may start now.
 * Its end does the same; once is enough.
 */
void ksmbd_work_order_release(struct ksmbd_work *work);

/*
 * The work's frame came encrypted and is now the plain message: its place
 * in the order is decided (order.h). Returns once the work may run.
 */
void ksmbd_work_decrypted(struct ksmbd_work *work);

/* On ksmbd-io, behind the request works (ksmbd_conn_queue_work()). */
void ksmbd_work_queue_plain(struct work_struct *w);

#endif
