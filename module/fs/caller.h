/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The request an object call acts for: who is asking (connection,
 * session, tree), the header bits the open-file table and the durable
 * handles look at, and how a call that has to wait makes the request
 * async. The dispatcher fills one per element (struct ksmbd_smb2_ctx's
 * caller, ksmbd_smb2_caller()), so that file, oplock, durable and lock
 * code takes this and not the dispatcher's context.
 */
#ifndef KSMBD_CALLER_H
#define KSMBD_CALLER_H

#include <linux/types.h>
#include <linux/wait.h>

struct ksmbd_conn;
struct ksmbd_session;
struct ksmbd_tree;
struct ksmbd_async;
struct ksmbd_async_ops;

/*
 * MS-SMB2 3.3.5.2.7.2: the FileId of the last CREATE in a compound, which
 * related elements name with an all-ones FileId. One per frame.
 */
struct ksmbd_compound_fid {
	bool valid;
	u64 persistent;
	u64 volatile_id;
	u32 error;	/* the status of a failed CREATE, 0 = none */
};

struct ksmbd_caller;

/* The dispatcher's (smb2_dispatch.c, see smb2_dispatch.h), set per element. */
struct ksmbd_caller_ops {
	bool (*go_async)(struct ksmbd_caller *c, wait_queue_head_t *wq);
	bool (*cancelled)(const struct ksmbd_caller *c);
	bool (*resume)(struct ksmbd_caller *c);
	void (*waits)(struct ksmbd_caller *c);
	void (*outlive_conn)(struct ksmbd_caller *c);
	bool (*abandoned)(const struct ksmbd_caller *c);
	struct ksmbd_async *(*async_alloc)(struct ksmbd_caller *c,
					   const struct ksmbd_async_ops *ops,
					   void *priv);
};

struct ksmbd_caller {
	struct ksmbd_conn *conn;
	struct ksmbd_session *sess;
	struct ksmbd_tree *tree;
	u64 session_id;		/* the id the response header carries */
	u32 flags;		/* the request header's, host order */
	u16 channel_sequence;	/* the request header's (3.x) */
	const struct ksmbd_compound_fid *cfid;
	const struct ksmbd_caller_ops *ops;
};

/*
 * A wait (an oplock break) goes async in place when the request may:
 * true when the interim response is out and CANCEL can end the wait.
 */
static inline bool ksmbd_caller_go_async(struct ksmbd_caller *c,
					 wait_queue_head_t *wq)
{
	return c->ops->go_async(c, wq);
}

/* While waiting async: a CANCEL (or teardown) asks to give up. */
static inline bool ksmbd_caller_cancelled(const struct ksmbd_caller *c)
{
	return c->ops->cancelled(c);
}

/*
 * The request is about to wait for what a later request of its own
 * connection may bring (a break's acknowledgement): those may start now
 * (conn/order.h), or the wait could only end at its timeout. Call it once
 * what the request did so far is visible (the break is on the wire).
 */
static inline void ksmbd_caller_waits(struct ksmbd_caller *c)
{
	c->ops->waits(c);
}

/*
 * The request belongs to its session, not to the connection it came on:
 * should that close while the session lives on through another channel,
 * the request runs to its end instead of being abandoned (a DH2Q CREATE,
 * which a replay on the other channel must find in flight). Before any
 * wait.
 */
static inline void ksmbd_caller_outlive_conn(struct ksmbd_caller *c)
{
	c->ops->outlive_conn(c);
}

/* Nobody waits for the answer any more: stop waiting on others' behalf. */
static inline bool ksmbd_caller_abandoned(const struct ksmbd_caller *c)
{
	return c->ops->abandoned(c);
}

/* The wait is over: false when it was cancelled (undo and give up). */
static inline bool ksmbd_caller_resume(struct ksmbd_caller *c)
{
	return c->ops->resume(c);
}

/* An async request answered as the element would be (see async.h). */
static inline struct ksmbd_async *
ksmbd_caller_async_alloc(struct ksmbd_caller *c,
			 const struct ksmbd_async_ops *ops, void *priv)
{
	return c->ops->async_alloc(c, ops, priv);
}

#endif
