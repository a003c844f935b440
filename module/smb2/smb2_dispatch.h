/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB2 request dispatch: classify the frame, walk the compound, put each
 * element through the validation gate, run its handler from the command
 * table and chain the responses into one bounded response buffer.
 */
#ifndef KSMBD_SMB2_DISPATCH_H
#define KSMBD_SMB2_DISPATCH_H

#include <linux/wait.h>
#include "proto/buf.h"
#include "proto/validate.h"
#include "caller.h"
#include "smb2_handler.h"

struct ksmbd_conn;
struct ksmbd_work;
struct ksmbd_session;
struct ksmbd_tree;
struct ksmbd_async;
struct frame_rsp;
struct ksmbd_pagevec;


/* From this length on, READ data allowed as pages goes as pages. */
#define KSMBD_READ_PAGES_MIN	(16 * 1024)

struct ksmbd_smb2_ctx {
	struct ksmbd_conn *conn;
	struct ksmbd_work *work;
	const struct ksmbd_req *req;	/* validated by the gate */
	/*
	 * The body goes here; cap already leaves room for the rest of the
	 * compound. Overflow turns into an error response, never a write
	 * past the buffer.
	 */
	struct ksmbd_wbuf body;
	u32 status;			/* NT status for the header */
	const char *drop_reason;	/* with KSMBD_SMB2_DROP */
	/* Called once the element's response (header + body) is final. */
	void (*finish)(struct ksmbd_smb2_ctx *ctx, const u8 *rsp, u32 len);
	u16 dialect;			/* for finish: what NEGOTIATE chose */
	/*
	 * Counted references the dispatcher takes before the handler runs
	 * and drops after: the element's session (every command but
	 * NEGOTIATE, SESSION_SETUP, ECHO, CANCEL) and tree (every command
	 * but those and LOGOFF, TREE_CONNECT). Never NULL where required.
	 * SESSION_SETUP may set sess itself (a reference the dispatcher
	 * drops) so that its response gets signed with the new key.
	 */
	struct ksmbd_session *sess;
	struct ksmbd_tree *tree;
	/*
	 * Ids the response header carries and related elements after this
	 * one inherit (MS-SMB2 3.3.5.2.7.2); SESSION_SETUP and
	 * TREE_CONNECT set the ids they created.
	 */
	u64 session_id;
	u32 tree_id;
	bool sign_rsp;			/* sign the response with sess */
	/* ... with the session's own key even on a bound channel */
	bool sign_session_key;
	struct ksmbd_compound_fid *cfid;	/* the frame's; see file.h */
	/*
	 * More elements follow in the compound: CHANGE_NOTIFY answers
	 * STATUS_INTERNAL_ERROR instead of going async, as Windows does
	 * (MS-SMB2 3.3.5.2.7, product behavior note; smb2.compound.interim2).
	 * A blocking LOCK still goes async there: the chain goes on, and a
	 * later element of it may be the unlock that wakes it.
	 */
	bool mid_compound;
	/* Dispatcher: the session or tree lookup failed. */
	bool unattached;
	/*
	 * Set by a handler that went async (status STATUS_PENDING): the
	 * dispatcher answers with the interim response and takes over the
	 * handler's reference (see async.h).
	 */
	struct ksmbd_async *async;
	/*
	 * Set when the frame is this one element and goes out unencrypted:
	 * READ may answer with page references here (data following the
	 * body) instead of copying the data into the body. The dispatcher
	 * sends them without a copy, or copies them in when it signs.
	 */
	struct ksmbd_pagevec *pages;
	/* The frame is this one element: it may go async in place. */
	bool lone;
	/*
	 * Set by ksmbd_smb2_go_async(): the interim is out, the handler
	 * still runs, and the dispatcher sends its answer as the final
	 * async response. held_owned: the handler claimed it back from
	 * cancellation (ksmbd_smb2_async_resume()).
	 */
	struct ksmbd_async *held;
	bool held_owned;
	bool outlives_conn;	/* ksmbd_caller_outlive_conn() */
	/*
	 * Dispatcher: the frame's response buffer this body lives in, where
	 * the element starts in it and the error room kept for the elements
	 * after it (ksmbd_smb2_body_room()). fr is NULL outside a frame.
	 */
	struct frame_rsp *fr;
	u32 rsp_start;
	u32 rsp_tail;
	/* What object calls take: see ksmbd_smb2_caller(). */
	struct ksmbd_caller caller;
};

/*
 * The element as the objects (files, oplocks, durable handles, locks)
 * see it. Filled from the fields above each time a handler passes it on:
 * the dispatcher and SESSION_SETUP change those, and they stay the one
 * place that holds them. ops were set by the dispatcher.
 */
static inline struct ksmbd_caller *ksmbd_smb2_caller(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_caller *c = &ctx->caller;

	c->conn = ctx->conn;
	c->sess = ctx->sess;
	c->tree = ctx->tree;
	c->session_id = ctx->session_id;
	c->flags = ctx->req->hdr.flags;
	c->channel_sequence = ctx->req->hdr.channel_sequence;
	c->cfid = ctx->cfid;
	return c;
}

/* Runs in the work item: everything for one received frame. */
void ksmbd_smb2_process(struct ksmbd_work *work);

/* An SMB2 response header answering rq. */
void ksmbd_smb2_put_hdr(u8 *rsp, const struct ksmbd_req_hdr *rq, u32 status,
			u16 credits);

/*
 * A handler that has to block its worker for long (a CREATE waiting for a
 * break acknowledgement) goes async in place (MS-SMB2 3.3.4.2): the interim
 * response goes out now, a CANCEL or the connection's end wakes wq, and the
 * handler's answer becomes the final async response. Only a lone request
 * does this; one inside a compound keeps waiting synchronously (3.3.5.2.7
 * lets a server refuse async processing there, and the elements after it
 * could not be answered before it). False: carry on synchronously.
 */
bool ksmbd_smb2_go_async(struct ksmbd_smb2_ctx *ctx, wait_queue_head_t *wq);

/*
 * An element's body starts with room for small answers (a few KiB); a
 * handler whose answer is larger makes room for it once it knows its
 * size, so that a buffer is sized from the answer and not from the
 * client's OutputBufferLength. Keeps the first used bytes of the body
 * (what was written, also through a window the handler made over it)
 * and makes body.cap at least used + more. Moves the body: pointers into
 * it taken before are stale, offsets stay valid. False when that is more
 * than the frame may hold (the body is unchanged).
 */
bool ksmbd_smb2_body_room(struct ksmbd_smb2_ctx *ctx, u32 used, u32 more);
/*
 * An async request (async.h) for the element: its final response is
 * encrypted or signed as the element's own answer would be.
 */
struct ksmbd_async_ops;
struct ksmbd_async *ksmbd_smb2_async_alloc(struct ksmbd_smb2_ctx *ctx,
					   const struct ksmbd_async_ops *ops,
					   void *priv);
/* While waiting: a CANCEL (or teardown) asks the handler to give up. */
bool ksmbd_smb2_async_cancelled(const struct ksmbd_smb2_ctx *ctx);
/*
 * The wait is over: false when cancelled (undo, answer STATUS_CANCELLED);
 * true when not async or no longer cancellable from now on.
 */
bool ksmbd_smb2_async_resume(struct ksmbd_smb2_ctx *ctx);

/* smb2_negotiate.c */
int ksmbd_smb2_negotiate_init(void);
/* The ServerGuid NEGOTIATE answers with (16 bytes). */
const u8 *ksmbd_smb2_server_guid(void);
enum ksmbd_smb2_verdict ksmbd_smb2_negotiate(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_echo(struct ksmbd_smb2_ctx *ctx);
/* An SMB1 NEGOTIATE frame: answer with the SMB2 wildcard, or drop. */
void ksmbd_smb1_negotiate(struct ksmbd_work *work);

/* smb2_oplock_break.c: break notifications (see oplock.h) */
struct ksmbd_oplock_wire;
extern const struct ksmbd_oplock_wire ksmbd_smb2_oplock_wire;

/* smb2_session.c */
struct ksmbd_auth_state;
/* The NTLMSSP exchange state, wiped and freed (NULL ok). */
void ksmbd_auth_state_free(struct ksmbd_auth_state *auth);
enum ksmbd_smb2_verdict ksmbd_smb2_session_setup(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_logoff(struct ksmbd_smb2_ctx *ctx);

/* smb2_attach.c */
/*
 * Before the handler: find ctx->session_id's session and ctx->tree_id's
 * tree as the command needs them and check the request's signature;
 * a non-zero NT status answers the element instead of the handler, and
 * with ctx->drop_reason set the connection goes instead.
 * detach() drops what attach() (or SESSION_SETUP) took; call it always.
 */
u32 ksmbd_smb2_attach(struct ksmbd_smb2_ctx *ctx);
void ksmbd_smb2_detach(struct ksmbd_smb2_ctx *ctx);
/*
 * After the handler: the session to sign the response with (a counted
 * reference), or NULL; ksmbd_session_sign_rsp() signs with it.
 */
struct ksmbd_session *ksmbd_smb2_rsp_signer(const struct ksmbd_smb2_ctx *ctx);

/* smb2_tree.c */
enum ksmbd_smb2_verdict ksmbd_smb2_tree_connect(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_tree_disconnect(struct ksmbd_smb2_ctx *ctx);

/* smb2_lock.c, smb2_notify.c */
enum ksmbd_smb2_verdict ksmbd_smb2_lock(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_change_notify(struct ksmbd_smb2_ctx *ctx);

/* smb2_oplock_break.c: an oplock or lease break acknowledgement. */
enum ksmbd_smb2_verdict ksmbd_smb2_oplock_break(struct ksmbd_smb2_ctx *ctx);

/* smb2_create.c, smb2_rw.c, smb2_ioctl.c */
enum ksmbd_smb2_verdict ksmbd_smb2_create(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_close(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_read(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_write(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_flush(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_ioctl(struct ksmbd_smb2_ctx *ctx);

/* Bytes of frame response buffers held now, all connections (stats). */
s64 ksmbd_smb2_rsp_bytes(void);

#endif
