/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The order one connection's requests start in.
 *
 * MS-SMB2 lets a server run a connection's requests side by side, but
 * clients count on what one request does to the namespace, to opens,
 * share modes and leases being done before a request they sent after it
 * on the same connection acts (smb2.lease.rename_wait: a CREATE sent
 * behind a rename must find the rename's lease break already on the
 * wire). So requests start in arrival order, and a "barrier" request
 * (every command but READ, WRITE and CANCEL) runs alone among its
 * connection's requests: it starts once everything before it has ended
 * or gone waiting, and nothing after it starts until it has. READ and
 * WRITE ("data") run beside each other, so a client's pipelined I/O keeps
 * its parallelism, but never beside a barrier. CANCEL stands outside
 * the order: it must reach the request it ends, which may be what holds
 * the order (a CANCEL that comes first is remembered, async.c); but what
 * comes after it waits until it is done, so the cancelled request's
 * answer is out before any later request's (smb2.session.expire2s: a
 * notify cancelled, then one refused, must end in that order).
 *
 * An encrypted frame cannot be told until it is decrypted, which is done
 * by its work, not before: it starts "undecided", beside data as data
 * would, and nothing after it starts until ksmbd_order_decide() says what
 * it is; a barrier then waits for the data before it to end. So sealed
 * pipelined I/O keeps its parallelism too.
 *
 * A request that waits for something a later request of its own
 * connection may bring (a break's acknowledgement) leaves the order
 * before it waits (ksmbd_order_done()), as one that goes async does by
 * ending; otherwise a client that acknowledges on the same connection
 * would never be heard.
 *
 * The order knows nothing of works or workqueues: it says which items
 * may start, and the caller queues them (work.c, connection.c). It has
 * no lock shared between connections.
 */
#ifndef KSMBD_ORDER_H
#define KSMBD_ORDER_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

struct work_struct;

enum ksmbd_order_kind {
	KSMBD_ORDER_BARRIER,
	KSMBD_ORDER_DATA,
	KSMBD_ORDER_FREE,
	KSMBD_ORDER_UNDECIDED,
};

struct ksmbd_order_item {
	struct list_head node;		/* waiting, then on a ready list */
	struct work_struct *work;	/* what the caller queues once ready */
	u8 kind;			/* enum ksmbd_order_kind */
	bool held;			/* started: counted in the order */
};

struct ksmbd_order {
	spinlock_t lock;
	struct list_head waiting;	/* items not started, arrival order */
	u32 data;			/* data items held */
	u32 undecided;			/* undecided items held (0 or 1) */
	u32 cancels;			/* CANCELs running ("free" items) */
	bool barrier;			/* a barrier item held */
	bool flushed;			/* the connection goes: none waits */
	/*
	 * the receive thread waiting to run an item itself, a barrier just
	 * decided waiting for the data before it
	 */
	wait_queue_head_t wait;
};

void ksmbd_order_init(struct ksmbd_order *o);

/*
 * A new item, in arrival order: true when it may start now (the caller
 * starts it), false when it waits; ksmbd_order_done() of what holds it
 * up puts it on a ready list then.
 */
bool ksmbd_order_admit(struct ksmbd_order *o, struct ksmbd_order_item *it);

/*
 * For the receive thread, which runs some items itself: starts it and
 * says true only when it could start now; it is not queued otherwise.
 */
bool ksmbd_order_try(struct ksmbd_order *o, struct ksmbd_order_item *it);

/*
 * The item ended, or waits for others from here on: it no longer holds
 * the order. Items that may start now move to ready (their node), for
 * the caller to start. Once per item is enough; later calls do nothing.
 */
void ksmbd_order_done(struct ksmbd_order *o, struct ksmbd_order_item *it,
		      struct list_head *ready);

/*
 * What an undecided item that started turned out to be (not undecided).
 * Items that may start now move to ready; a barrier returns only once
 * the data items that started before it have ended (or the connection
 * goes). Does nothing for an item that was not started undecided.
 */
void ksmbd_order_decide(struct ksmbd_order *o, struct ksmbd_order_item *it,
			u8 kind, struct list_head *ready);

/*
 * The connection goes: every waiting item moves to ready (they run to
 * find it gone), and from now on every item may start at once.
 */
void ksmbd_order_flush(struct ksmbd_order *o, struct list_head *ready);

#endif
