/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Asynchronous requests (MS-SMB2 3.3.4.2, 3.3.5.16): a request that must
 * wait (a blocking byte-range lock, CHANGE_NOTIFY, later an oplock or
 * lease break) answers with an interim STATUS_PENDING response carrying an
 * AsyncId, frees its worker, and is completed later by whoever satisfies
 * it, or cancelled (CANCEL, close of its handle, logoff, tree disconnect,
 * connection loss).
 *
 * How an owner uses it (see module/README.md):
 *
 *   a = ksmbd_smb2_async_alloc(ctx, &ops, priv); in the handler
 *   ... under the owner's lock, when the request really has to wait:
 *   ksmbd_async_publish(a);                     gets its AsyncId, CANCEL finds it
 *   ... put a (and priv) where the wake-up will find it; set
 *   ctx->status = STATUS_PENDING, ctx->async = a; return KSMBD_SMB2_REPLY.
 *   If it does not have to wait after all: ksmbd_async_put(a) instead.
 *
 *   To complete (process context, no owner lock held):
 *   if (ksmbd_async_claim(a)) ksmbd_async_complete(a, status, body, len);
 *   Exactly one claim succeeds; a failed claim means a cancel owns it.
 *
 *   ops->cancel(a) runs once when a cancel wins the claim: take the request
 *   off what it waits on (under the owner's lock), and return the status
 *   to answer with (STATUS_CANCELLED, STATUS_NOTIFY_CLEANUP, ...). The core
 *   sends it. An owner that still holds its worker (a CREATE waiting for
 *   a break, ksmbd_smb2_go_async()) returns 0 instead: it wakes, undoes
 *   what it did and then completes the request itself, so that the client
 *   sees STATUS_CANCELLED only once the open is gone.
 *   ops->release(a) frees priv at the last reference.
 *
 * Lifetime: the table of published requests holds one reference until the
 * final response is sent; the handler's reference from alloc() is the
 * owner's. The request holds counted references on its connection and (for
 * signing or encryption) its session, never on a tree: a final response after the tree,
 * the session or the connection went away touches only those counted
 * objects, and nothing is sent on a connection that is exiting.
 *
 * Ordering: the dispatcher sends the interim response with the rest of the
 * frame and then arms the request (ksmbd_async_armed()). A completion or
 * cancel that comes first is kept and sent right after the interim, so a
 * client never sees the final response before the interim one.
 */
#ifndef KSMBD_ASYNC_H
#define KSMBD_ASYNC_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct ksmbd_conn;
struct ksmbd_session;
struct ksmbd_req_hdr;
struct ksmbd_async;

/* Pending requests one connection may have; more fail with INSUFFICIENT_RESOURCES. */
#define KSMBD_ASYNC_MAX_PER_CONN	256

struct ksmbd_async_ops {
	/*
	 * A cancel won the claim: unhook, return the NT status to answer
	 * (0: the owner completes it itself).
	 */
	u32 (*cancel)(struct ksmbd_async *a);
	/* The last reference is going: free a->priv. */
	void (*release)(struct ksmbd_async *a);
};

struct ksmbd_async {
	refcount_t refs;
	u64 id;				/* AsyncId; 0 until published */
	struct ksmbd_conn *conn;	/* counted */
	struct ksmbd_session *signer;	/* counted, or NULL: sign the final response */
	struct ksmbd_session *enc_sess;	/* counted, or NULL: encrypt it (3.3.4.1.4) */
	const struct ksmbd_async_ops *ops;
	void *priv;

	/* From the request, for the final response's header. */
	u64 message_id;
	u64 session_id;
	u32 hdr_flags;
	u16 command;
	u16 credit_charge;

	/*
	 * The request is its session's, not its connection's: when the
	 * connection closes while the session lives on through another
	 * channel, it is not cancelled but runs to its end (its answer is
	 * lost with the connection). A DH2Q CREATE: a replay on another
	 * channel meanwhile must find it in flight (MS-SMB2 3.3.5.9.10).
	 */
	bool outlives_conn;
	atomic_t claimed;		/* 1 once completion or cancel owns it */
	spinlock_t lock;		/* armed, final */
	bool armed;			/* interim sent (or never to be sent) */
	bool cancel_asked;		/* a CANCEL came before it was armed */
	u8 *final;			/* built response waiting for the interim */
	u32 final_len;
	u32 final_status;		/* for the trace */
	u64 started_ns;
};

/* The request that goes async, as its final response needs it. */
struct ksmbd_async_origin {
	struct ksmbd_conn *conn;
	const struct ksmbd_req_hdr *hdr;
	u64 session_id;
	/* MS-SMB2 3.3.4.1.4: encrypted with this session, or NULL */
	struct ksmbd_session *enc_sess;
};

/*
 * NULL without memory. The caller owns the returned reference and sets
 * a->signer (a counted session, or NULL) when the final response is to be
 * signed. The dispatcher's ksmbd_smb2_async_alloc() does both for an
 * element.
 */
struct ksmbd_async *ksmbd_async_alloc(const struct ksmbd_async_origin *o,
				      const struct ksmbd_async_ops *ops,
				      void *priv);
/*
 * Give it an AsyncId and make it findable by CANCEL and teardown. May be
 * called under the owner's lock (it does not call back). -EAGAIN over
 * KSMBD_ASYNC_MAX_PER_CONN.
 */
int ksmbd_async_publish(struct ksmbd_async *a);
void ksmbd_async_get(struct ksmbd_async *a);
void ksmbd_async_put(struct ksmbd_async *a);

/* True exactly once per request: the caller must then complete it. */
bool ksmbd_async_claim(struct ksmbd_async *a);
/* Send the final response (status, body); after a successful claim. */
void ksmbd_async_complete(struct ksmbd_async *a, u32 status, const void *body,
			  u32 body_len);
/* Claim and cancel it with ops->cancel's status (no-op when claimed). */
void ksmbd_async_cancel(struct ksmbd_async *a);

/* Dispatcher: the frame holding the interim response went out. */
void ksmbd_async_armed(struct ksmbd_async *a);
/*
 * Dispatcher: an SMB2 CANCEL (MS-SMB2 3.3.5.16). It ends only a request
 * of its own connection and of the session its header names.
 */
void ksmbd_async_cancel_request(struct ksmbd_conn *conn, u32 flags,
				u64 message_id, u64 async_id, u64 session_id);
/* Connection teardown: cancel every request of conn. */
void ksmbd_async_conn_closed(struct ksmbd_conn *conn);

#endif
