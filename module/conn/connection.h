/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One TCP connection from a client.
 *
 * Lifetime: the receive thread owns the first reference; every request
 * work in flight holds another. When the receive loop ends (peer closed,
 * fatal frame, timeout, server stop) the connection is marked exiting, its
 * socket is shut down, and a release work stops the thread and drops the
 * owner's reference. The last reference frees the socket and the object.
 *
 * All connections sit on one global list, which the timeout reaper and
 * server stop walk.
 */
#ifndef KSMBD_CONNECTION_H
#define KSMBD_CONNECTION_H

#include <linux/bitops.h>
#include <linux/bvec.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include "order.h"

struct ksmbd_conn_crypto;
struct sock;

/* Requests read from one connection and not yet answered. */
#define KSMBD_CONN_MAX_OUTSTANDING	128
/*
 * Credits one client may hold at a time (MS-SMB2 3.3.1.2), as many as
 * Samba grants (smb2.credits): nothing is allocated per credit, requests
 * in flight stay bounded by KSMBD_CONN_MAX_OUTSTANDING.
 */
#define KSMBD_CONN_MAX_CREDITS		8192
/* MessageIds tracked past the lowest unused one; twice the credits (2 KiB). */
#define KSMBD_SEQ_WINDOW_BITS		(2 * KSMBD_CONN_MAX_CREDITS)
/* Frames before authentication: a NEGOTIATE or a Kerberos SESSION_SETUP. */
#define KSMBD_PREAUTH_MAX_FRAME		((64 << 10) + 256)
/* Sync-form CANCELs remembered until their request goes async (async.c). */
#define KSMBD_CONN_EARLY_CANCELS	8
/* Headers and a compound's small elements on top of the largest payload. */
/*
 * Bytes of answers a connection may have waiting for its socket before
 * it is served no further (none of its requests read or run) until the
 * client reads; at least twice the largest answer it may ask for.
 */
#define KSMBD_CONN_TX_QUEUE_MIN		(8 << 20)

enum {
	KSMBD_CONN_F_EXITING,		/* receive loop ends, no new work */
	KSMBD_CONN_F_NEGOTIATED,	/* a final (non-wildcard) dialect */
	KSMBD_CONN_F_UPGRADED,		/* answered an SMB1 NEGOTIATE */
	KSMBD_CONN_F_AUTHENTICATED,	/* a session setup succeeded */
};

/* What NEGOTIATE settled (MS-SMB2 3.3.1.7 Connection.*). */
struct ksmbd_conn_neg {
	u16 dialect;
	u16 client_security_mode;
	u16 security_mode;		/* what we answered */
	u32 client_capabilities;
	u32 capabilities;		/* what we answered */
	u8 client_guid[16];
	u16 signing_alg;		/* SMB2_SIGNING_*; 3.1.1 only */
	u16 cipher;			/* 0: no encryption */
	u32 max_read, max_write, max_trans;
	u8 preauth_hash[64];		/* SHA-512 of negotiate req + rsp (3.1.1) */
};

/* The command sequence window (MS-SMB2 3.3.1.1). */
struct ksmbd_conn_credits {
	spinlock_t lock;
	u64 lo;		/* lowest MessageId not consumed yet */
	u64 hi;		/* first MessageId not granted yet */
	u32 consumed;	/* ids in (lo, hi) used out of order */
	DECLARE_BITMAP(used, KSMBD_SEQ_WINDOW_BITS);
};

struct ksmbd_conn {
	refcount_t refs;
	u64 id;				/* for logs and tracepoints */
	struct socket *sock;
	struct sockaddr_storage peer;
	struct list_head node;		/* on the global list, under its lock */
	struct task_struct *recv_task;	/* counted task reference */
	struct work_struct release_work;
	unsigned long flags;		/* KSMBD_CONN_F_* */
	const char *close_reason;	/* first reason wins; static strings */

	struct mutex send_lock;		/* one frame on the wire at a time */
	atomic_t outstanding;		/* requests read, not finished */
	/* Which of its requests may start (order.h, work.c). */
	struct ksmbd_order order;
	wait_queue_head_t req_wait;	/* outstanding or tx_queued went down */

	/*
	 * Send queue: what the socket did not take at once, in order. No
	 * sender waits for the socket; tx_work sends the rest when the
	 * socket has room again (sk_write_space). Under send_lock.
	 */
	struct list_head tx_queue;
	size_t tx_queued;		/* bytes queued (READ_ONCE elsewhere) */
	unsigned long tx_progress;	/* jiffies: queue made or moved */
	struct work_struct tx_work;
	void (*sk_write_space)(struct sock *sk);	/* the socket's own */
	/* Works held back while the queue is over its bound (work.c). */
	spinlock_t park_lock;
	struct list_head parked;	/* of struct ksmbd_conn_parked */
	/*
	 * What the works running now may still queue (their answers'
	 * estimated sizes, work.c), under park_lock: counted with tx_queued
	 * against the bound, so works that started before the queue filled
	 * cannot pile their answers far past it.
	 */
	size_t tx_reserved;

	unsigned long accepted_at;	/* jiffies */
	unsigned long negotiated_at;
	unsigned long last_rx;

	u16 local_port;			/* the port the client connected to */
	/* Per-connection totals for the close tracepoint and the monitor. */
	atomic64_t nr_requests;
	atomic64_t bytes_in;
	atomic64_t bytes_out;

	/* Handles of the sessions set up on it (file_limit.c). */
	atomic_t nr_files;

	/* Asynchronous requests (async.c): count, and CANCELs seen too early. */
	atomic_t nr_async;
	spinlock_t cancel_lock;
	u64 early_cancel[KSMBD_CONN_EARLY_CANCELS];	/* MessageId + 1, 0 = empty */
	u64 early_cancel_sess[KSMBD_CONN_EARLY_CANCELS];	/* its SessionId */
	u32 early_pos;

	/* Bytes reserved past end of file through its handles (file_alloc.c). */
	atomic64_t alloc_reserved;
	/* Bytes of response buffers its works hold now (smb2_dispatch.c). */
	atomic64_t rsp_bytes;

	struct ksmbd_conn_neg neg;	/* valid once NEGOTIATED is set */
	/* AEAD buffers, made when a session first gets a key (smb2_transform.h). */
	struct ksmbd_conn_crypto *crypto;
	struct ksmbd_conn_credits credits;
};

/*
 * What the layers above the connection do when one goes, registered by
 * main.c before any connection exists: closed() once its receive thread
 * has stopped and its send queue is gone, before it leaves the list
 * (requests pending on it and sessions hold references); freed() with
 * the last reference, before the object goes.
 */
struct ksmbd_conn_ops {
	void (*closed)(struct ksmbd_conn *conn);
	void (*freed)(struct ksmbd_conn *conn);
};
void ksmbd_conn_ops_register(const struct ksmbd_conn_ops *ops);

/* Takes over sock on success; ERR_PTR(-EMFILE) over max connections. */
struct ksmbd_conn *ksmbd_conn_create(struct socket *sock);
/* Undo ksmbd_conn_create() when the receive thread could not start. */
void ksmbd_conn_abort(struct ksmbd_conn *conn);
/* Called by the receive thread when its loop has ended. */
void ksmbd_conn_release(struct ksmbd_conn *conn);

void ksmbd_conn_get(struct ksmbd_conn *conn);
void ksmbd_conn_put(struct ksmbd_conn *conn);

/* Stop serving this connection; reason is a static string. */
void ksmbd_conn_drop(struct ksmbd_conn *conn, const char *reason);
void ksmbd_conn_drop_all(const char *reason);
/* Every listed connection, under the list lock; fn must not sleep long. */
void ksmbd_conn_for_each(void (*fn)(struct ksmbd_conn *conn, void *arg),
			 void *arg);
/* Wait until every connection has been freed. */
void ksmbd_conn_wait_all(void);

/* The timeout reaper runs while the transport does. */
void ksmbd_conn_reaper_start(void);
void ksmbd_conn_reaper_stop(void);

static inline bool ksmbd_conn_exiting(const struct ksmbd_conn *conn)
{
	return test_bit(KSMBD_CONN_F_EXITING, &conn->flags);
}

static inline bool ksmbd_conn_negotiated(const struct ksmbd_conn *conn)
{
	return test_bit(KSMBD_CONN_F_NEGOTIATED, &conn->flags);
}

void ksmbd_conn_set_negotiated(struct ksmbd_conn *conn);
/*
 * The session layer calls this when a SESSION_SETUP succeeds: it stops the
 * session-setup deadline and lifts the frame bound to the negotiated sizes.
 */
void ksmbd_conn_set_authenticated(struct ksmbd_conn *conn);

/* Both connections come from the same address (ports aside). */
bool ksmbd_conn_same_peer(const struct ksmbd_conn *a,
			  const struct ksmbd_conn *b);
/* Seconds a connection has to finish a session setup (0: no limit). */
unsigned int ksmbd_conn_setup_timeout_s(void);

/* Largest RFC1002 length accepted in the connection's current state. */
u32 ksmbd_conn_max_frame(const struct ksmbd_conn *conn);

void ksmbd_conn_request_begin(struct ksmbd_conn *conn);
void ksmbd_conn_request_end(struct ksmbd_conn *conn);

/*
 * Sends the RFC1002 header and the iovs as one frame, never waiting for
 * the socket: what it does not take is copied to the connection's send
 * queue. The caller keeps its buffers. Drops the connection on failure.
 */
int ksmbd_conn_send(struct ksmbd_conn *conn, struct kvec *iov,
		    unsigned int nr);

/*
 * One frame of head (header and fixed body) followed by the data in bv
 * (data_len bytes), the pages handed to the socket without a copy; drops
 * on failure like ksmbd_conn_send().
 */
int ksmbd_conn_send_pages(struct ksmbd_conn *conn, const void *head,
			  size_t head_len, const struct bio_vec *bv,
			  unsigned int nr, size_t data_len);

/* The send queue holds the connection's bound or more: serve no more. */
bool ksmbd_conn_tx_full(const struct ksmbd_conn *conn);
/* Under park_lock: the queue and the running works' answers reach the bound. */
bool ksmbd_conn_tx_over_locked(const struct ksmbd_conn *conn);

/*
 * A work held back while the send queue is over its bound (work.c parks
 * it under park_lock). ksmbd_conn_unpark_all() queues every one on
 * ksmbd-io again, as it was, when the queue went below the bound or the
 * connection is going.
 */
struct ksmbd_conn_parked {
	struct list_head node;		/* on conn->parked */
	struct work_struct *work;
};
void ksmbd_conn_unpark_all(struct ksmbd_conn *conn);
/* Queues on ksmbd-io the works of the order items on ready (order.h). */
void ksmbd_conn_queue_ready(struct list_head *ready);

/*
 * The ksmbd-io workqueue: request works and what a connection defers
 * behind them (its release, its send queue). The work layer makes and
 * destroys it with its own cache (work.c).
 */
int ksmbd_conn_wq_init(void);
void ksmbd_conn_wq_exit(void);
void ksmbd_conn_queue_work(struct work_struct *w);
/* Bytes waiting in every connection's send queue (stats). */
s64 ksmbd_conn_tx_queued_all(void);
/* Take over the socket's write-space callback (the receive thread's start). */
void ksmbd_conn_tx_attach(struct ksmbd_conn *conn);

/* Consume [mid, mid + charge) from the window; false: outside or reused. */
bool ksmbd_conn_seq_consume(struct ksmbd_conn *conn, u64 mid, u16 charge);
/* Credits to grant in one response (at least 1 when the client has none). */
u16 ksmbd_conn_credits_grant(struct ksmbd_conn *conn, u16 requested);

/* Trace seams (see ksmbd_trace.h). */
void ksmbd_conn_note_rejected(struct ksmbd_conn *conn, u16 command,
			      u64 message_id, const char *reason);
/* A frame or deadline limit hit on this connection. */
void ksmbd_conn_note_limit(struct ksmbd_conn *conn, const char *limit);

#endif
