// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-frame request processing (MS-SMB2 3.3.5.2): the validation gate,
 * the sequence window, the handler table and compound responses.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include "async.h"
#include "bufpool.h"
#include "connection.h"
#include "debug.h"
#include "ksmbd_trace.h"
#include "proto/decode.h"
#include "proto/transform.h"
#include "server.h"
#include "session.h"
#include "smb2_chanseq.h"
#include "smb2_dispatch.h"
#include "smb2_info.h"
#include "smb2_transform.h"
#include "stats.h"
#include "uapi/ksmbd_netlink.h"
#include "vfs.h"
#include "work.h"

/* Elements per compound; more is refused by the gate. */
#define KSMBD_MAX_COMPOUND	32
/*
 * Room each element starts with (and a frame's first buffer): small
 * answers and an error response for every element of a full compound.
 * Larger answers get room from their handler once their size is known
 * (ksmbd_smb2_body_room()).
 */
#define KSMBD_RSP_BUF_SIZE	4096
/* Below this room for its body an element gets a larger buffer first. */
#define KSMBD_ELEM_MIN_ROOM	2048
/* An error response, padded for the next element. */
#define KSMBD_ERR_RSP_ROOM	ALIGN(SMB2_HEADER_SIZE + SMB2_ERROR_RSP_SIZE, 8)
/*
 * A lone READ's buffer besides its data: its header and body, or an error
 * response. Small, so a 4 KiB read's buffer is one slab object rather
 * than freshly zeroed pages (init_on_alloc zeroes every allocation).
 */
#define KSMBD_LONE_READ_ROOM	256

static_assert(KSMBD_MAX_COMPOUND * KSMBD_ERR_RSP_ROOM <= KSMBD_RSP_BUF_SIZE,
	      "every element must be able to answer with an error");
static_assert(KSMBD_LONE_READ_ROOM >= KSMBD_ERR_RSP_ROOM &&
	      KSMBD_LONE_READ_ROOM >= SMB2_HEADER_SIZE + SMB2_READ_RSP_SIZE,
	      "a lone READ must be able to answer");

static const ksmbd_smb2_handler_t handlers[SMB2_COMMAND_COUNT] = {
	[SMB2_NEGOTIATE]	= ksmbd_smb2_negotiate,
	[SMB2_SESSION_SETUP]	= ksmbd_smb2_session_setup,
	[SMB2_LOGOFF]		= ksmbd_smb2_logoff,
	[SMB2_TREE_CONNECT]	= ksmbd_smb2_tree_connect,
	[SMB2_TREE_DISCONNECT]	= ksmbd_smb2_tree_disconnect,
	[SMB2_CREATE]		= ksmbd_smb2_create,
	[SMB2_CLOSE]		= ksmbd_smb2_close,
	[SMB2_FLUSH]		= ksmbd_smb2_flush,
	[SMB2_READ]		= ksmbd_smb2_read,
	[SMB2_WRITE]		= ksmbd_smb2_write,
	[SMB2_IOCTL]		= ksmbd_smb2_ioctl,
	[SMB2_ECHO]		= ksmbd_smb2_echo,
	[SMB2_QUERY_DIRECTORY]	= ksmbd_smb2_query_dir,
	[SMB2_QUERY_INFO]	= ksmbd_smb2_query_info,
	[SMB2_SET_INFO]		= ksmbd_smb2_set_info,
	[SMB2_LOCK]		= ksmbd_smb2_lock,
	[SMB2_CHANGE_NOTIFY]	= ksmbd_smb2_change_notify,
	[SMB2_OPLOCK_BREAK]	= ksmbd_smb2_oplock_break,
};

/* The response being assembled for one frame. */
struct frame_rsp {
	u8 *buf;
	u32 size;	/* of buf: see rsp_buf_size(), fr_grow() */
	u32 cap;	/* the most it may grow to */
	struct ksmbd_compound_fid cfid;
	u32 len;
	u32 prev;	/* offset of the previous element's header */
	bool any;	/* at least one element answered */
	/*
	 * Non-zero: related elements answer with it and do not run (an
	 * unrelated one clears it). Set when the first element is related
	 * and when an element's session or tree was not found, so that the
	 * chain after it cannot inherit ids that never were valid.
	 */
	u32 next_status;
	/* What a related element inherits (MS-SMB2 3.3.5.2.7.2). */
	u64 sess_id;
	u32 tree_id;
	/* Signs the previous element once its padding is known (counted). */
	struct ksmbd_session *sign_sess;
	bool sign_main;			/* with sign_sess's own key */
	/* Elements that went async: armed once the frame is out (async.h). */
	struct ksmbd_async *asyncs[KSMBD_MAX_COMPOUND];
	u32 nr_asyncs;
	/* READ data after buf[0..len), see ksmbd_smb2_ctx.pages. */
	struct ksmbd_pagevec pages;
};

void ksmbd_smb2_put_hdr(u8 *rsp, const struct ksmbd_req_hdr *rq, u32 status,
			u16 credits)
{
	struct smb2_hdr *h = (struct smb2_hdr *)rsp;
	u32 flags = SMB2_FLAGS_SERVER_TO_REDIR |
		    (rq->flags & SMB2_FLAGS_RELATED_OPERATIONS);

	memset(h, 0, sizeof(*h));
	h->protocol_id = SMB2_PROTO_NUMBER;
	h->structure_size = cpu_to_le16(SMB2_HEADER_STRUCTURE_SIZE);
	h->credit_charge = cpu_to_le16(rq->credit_charge);
	h->status = cpu_to_le32(status);
	h->command = cpu_to_le16(rq->command);
	h->credit_req_rsp = cpu_to_le16(credits);
	/*
	 * A signed request naming a session not found here: the answer
	 * carries the signed flag (no key signs it). Clients skip checking
	 * this status but want the flag when they sign (a channel of a
	 * session bound elsewhere, smbtorture smb2.session.bind2).
	 */
	if (status == STATUS_USER_SESSION_DELETED &&
	    (rq->flags & SMB2_FLAGS_SIGNED))
		flags |= SMB2_FLAGS_SIGNED;
	h->flags = cpu_to_le32(flags);
	h->message_id = cpu_to_le64(rq->message_id);
	h->id.sync.process_id = cpu_to_le32(rq->process_id);
	h->id.sync.tree_id = cpu_to_le32(rq->tree_id);
	h->session_id = cpu_to_le64(rq->session_id);
}

/* MS-SMB2 2.2.2: no error data, so one zero byte of ErrorData. */
static void put_error_body(struct ksmbd_wbuf *w)
{
	w->len = 0;
	w->overflow = false;
	ksmbd_wbuf_put_le16(w, SMB2_ERROR_RSP_SIZE);
	ksmbd_wbuf_put_u8(w, 0);	/* ErrorContextCount */
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le32(w, 0);	/* ByteCount */
	ksmbd_wbuf_put_u8(w, 0);
}

/* Frame-level refusals have no command; 0xffff prints as "?". */
#define NO_COMMAND	0xffff

static void reject(struct ksmbd_conn *conn, const char *reason)
{
	ksmbd_conn_note_rejected(conn, NO_COMMAND, 0, reason);
	ksmbd_conn_drop(conn, reason);
}

static void req_limits(const struct ksmbd_conn *conn,
		       struct ksmbd_req_limits *lim)
{
	if (ksmbd_conn_negotiated(conn)) {
		lim->max_read = conn->neg.max_read;
		lim->max_write = conn->neg.max_write;
		lim->max_trans = conn->neg.max_trans;
		lim->multi_credit = conn->neg.capabilities &
				    SMB2_GLOBAL_CAP_LARGE_MTU;
		return;
	}
	/* Only NEGOTIATE gets this far, and it carries no payload limit. */
	lim->max_read = 0;
	lim->max_write = 0;
	lim->max_trans = 0;
	lim->multi_credit = false;
}

/*
 * Ordering rules that are not about the bytes of one element:
 * MS-SMB2 3.3.5.2 (nothing but NEGOTIATE before a dialect is settled),
 * 3.3.5.3 (NEGOTIATE only once, and never inside a compound).
 */
static const char *order_violation(const struct ksmbd_conn *conn,
				   const struct ksmbd_req_hdr *hdr, u32 nelems)
{
	bool negotiated = ksmbd_conn_negotiated(conn);

	if (hdr->command == SMB2_NEGOTIATE) {
		if (negotiated)
			return "negotiate on a negotiated connection";
		if (nelems > 1)
			return "negotiate inside a compound";
		return NULL;
	}
	if (!negotiated)
		return "request before negotiate";
	return NULL;
}

/* Run the gate and the handler; fills ctx->status and ctx->body. */
static enum ksmbd_smb2_verdict run_element(struct ksmbd_smb2_ctx *ctx,
					   const u8 *elem, u32 elen,
					   struct ksmbd_req *req)
{
	struct ksmbd_req_limits lim;
	struct ksmbd_chan_ticket ticket;
	enum ksmbd_smb2_verdict verdict;
	ksmbd_smb2_handler_t handler;
	enum ksmbd_valid v;

	req_limits(ctx->conn, &lim);
	v = ksmbd_request_validate(elem, elen, &lim, req);
	if (v != KSMBD_VALID_OK) {
		ksmbd_conn_note_rejected(ctx->conn, req->hdr.command,
					 req->hdr.message_id,
					 ksmbd_valid_name(v));
		if (ksmbd_valid_is_fatal(v)) {
			ctx->drop_reason = ksmbd_valid_name(v);
			return KSMBD_SMB2_DROP;
		}
		ctx->status = ksmbd_valid_status(v);
		return KSMBD_SMB2_REPLY;
	}
	ctx->req = req;
	ctx->status = ksmbd_smb2_attach(ctx);
	if (ctx->drop_reason)
		return KSMBD_SMB2_DROP;
	if (ctx->status != STATUS_SUCCESS) {
		ctx->unattached = true;
		return KSMBD_SMB2_REPLY;
	}
	handler = handlers[req->hdr.command];
	if (!handler) {
		ctx->status = STATUS_NOT_IMPLEMENTED;
		return KSMBD_SMB2_REPLY;
	}
	ctx->status = ksmbd_smb2_chan_seq_enter(ctx, &ticket);
	if (ctx->status != STATUS_SUCCESS)
		return KSMBD_SMB2_REPLY;
	verdict = handler(ctx);
	ksmbd_smb2_chan_seq_leave(&ticket);
	if (verdict == KSMBD_SMB2_REPLY && ctx->body.overflow) {
		/* The reply did not fit what was left of the buffer. */
		ctx->status = STATUS_INSUFFICIENT_RESOURCES;
		ctx->finish = NULL;
	}
	return verdict;
}

/*
 * MS-SMB2 3.3.4.2: the interim response is the request's header in async
 * form with STATUS_PENDING; it grants credits and is not signed.
 */
static void put_interim(struct frame_rsp *fr, u8 *rsp, struct ksmbd_async *a)
{
	struct smb2_hdr *h = (struct smb2_hdr *)rsp;

	h->flags |= cpu_to_le32(SMB2_FLAGS_ASYNC_COMMAND);
	h->id.async_id = cpu_to_le64(a->id);
	fr->asyncs[fr->nr_asyncs++] = a;
}

/* The frame went out (or never will): async elements may complete now. */
static void arm_asyncs(struct frame_rsp *fr)
{
	u32 i;

	for (i = 0; i < fr->nr_asyncs; i++) {
		ksmbd_async_armed(fr->asyncs[i]);
		ksmbd_async_put(fr->asyncs[i]);
	}
	fr->nr_asyncs = 0;
}

/* The handler still holds its worker: wake it, it unwinds and answers. */
static u32 held_cancel(struct ksmbd_async *a)
{
	wake_up_all((wait_queue_head_t *)a->priv);
	return 0;
}

static const struct ksmbd_async_ops held_ops = {
	.cancel = held_cancel,
};

/* The interim response of a held request, sent from its worker. */
static void send_held_interim(struct ksmbd_smb2_ctx *ctx, struct ksmbd_async *a)
{
	struct ksmbd_req_hdr hdr = ctx->req->hdr;
	u32 len = SMB2_HEADER_SIZE + SMB2_ERROR_RSP_SIZE;
	struct ksmbd_wbuf body;
	struct smb2_hdr *h;
	struct kvec iov;
	u8 *buf;

	/* Granted now: the final response grants none (async.c). */
	u16 credits = ksmbd_conn_credits_grant(ctx->conn, hdr.credit_request);

	buf = ksmbd_work_buf_alloc(len);
	if (!buf)
		return;	/* the client sees the final response only */
	hdr.session_id = ctx->session_id;
	hdr.tree_id = ctx->tree_id;
	ksmbd_smb2_put_hdr(buf, &hdr, STATUS_PENDING, credits);
	h = (struct smb2_hdr *)buf;
	h->flags |= cpu_to_le32(SMB2_FLAGS_ASYNC_COMMAND);
	h->id.async_id = cpu_to_le64(a->id);
	body = ksmbd_wbuf_make(buf + SMB2_HEADER_SIZE, SMB2_ERROR_RSP_SIZE);
	put_error_body(&body);
	if (ctx->work->enc_sess) {
		ksmbd_smb2_send_encrypted(ctx->conn, ctx->work->enc_sess, buf,
					  len);
	} else {
		iov.iov_base = buf;
		iov.iov_len = len;
		ksmbd_conn_send(ctx->conn, &iov, 1);
	}
	ksmbd_work_buf_free(buf);
}

struct ksmbd_async *ksmbd_smb2_async_alloc(struct ksmbd_smb2_ctx *ctx,
					   const struct ksmbd_async_ops *ops,
					   void *priv)
{
	const struct ksmbd_async_origin o = {
		.conn = ctx->conn,
		.hdr = &ctx->req->hdr,
		.session_id = ctx->session_id,
		.enc_sess = ctx->work->enc_sess,
	};
	u32 saved = ctx->status;
	struct ksmbd_async *a;

	a = ksmbd_async_alloc(&o, ops, priv);
	/*
	 * MS-SMB2 3.3.4.1.4: the answer to an encrypted request is encrypted
	 * with the same session, the final one of an async request too.
	 * Otherwise it is signed or not as a sync one would be.
	 */
	if (!a || o.enc_sess)
		return a;
	ctx->status = STATUS_SUCCESS;
	a->signer = ksmbd_smb2_rsp_signer(ctx);
	ctx->status = saved;
	return a;
}

bool ksmbd_smb2_go_async(struct ksmbd_smb2_ctx *ctx, wait_queue_head_t *wq)
{
	struct ksmbd_async *a;

	if (ctx->held)
		return true;
	if (!ctx->lone || ctx->async)
		return false;
	a = ksmbd_smb2_async_alloc(ctx, &held_ops, wq);
	if (!a)
		return false;
	a->outlives_conn = ctx->outlives_conn;
	if (ksmbd_async_publish(a)) {
		ksmbd_async_put(a);
		return false;
	}
	send_held_interim(ctx, a);
	ctx->held = a;
	/* An early CANCEL is acted on here: held_cancel() wakes nobody yet. */
	ksmbd_async_armed(a);
	return true;
}

bool ksmbd_smb2_async_cancelled(const struct ksmbd_smb2_ctx *ctx)
{
	return ctx->held && !ctx->held_owned &&
	       atomic_read(&ctx->held->claimed);
}

bool ksmbd_smb2_async_resume(struct ksmbd_smb2_ctx *ctx)
{
	if (!ctx->held || ctx->held_owned)
		return true;
	ctx->held_owned = ksmbd_async_claim(ctx->held);
	return ctx->held_owned;
}

/* The objects' view of the element (caller.h): the functions above. */
static struct ksmbd_smb2_ctx *ctx_of(struct ksmbd_caller *c)
{
	return container_of(c, struct ksmbd_smb2_ctx, caller);
}

static bool caller_go_async(struct ksmbd_caller *c, wait_queue_head_t *wq)
{
	return ksmbd_smb2_go_async(ctx_of(c), wq);
}

static bool caller_cancelled(const struct ksmbd_caller *c)
{
	return ksmbd_smb2_async_cancelled(container_of(c, struct ksmbd_smb2_ctx,
						       caller));
}

static bool caller_resume(struct ksmbd_caller *c)
{
	return ksmbd_smb2_async_resume(ctx_of(c));
}

static void caller_waits(struct ksmbd_caller *c)
{
	ksmbd_work_order_release(ctx_of(c)->work);
}

static void caller_outlive_conn(struct ksmbd_caller *c)
{
	ctx_of(c)->outlives_conn = true;
}

static bool caller_abandoned(const struct ksmbd_caller *c)
{
	const struct ksmbd_smb2_ctx *ctx =
		container_of(c, struct ksmbd_smb2_ctx, caller);

	if (!ksmbd_conn_exiting(c->conn))
		return false;
	return !ctx->outlives_conn ||
	       !ksmbd_session_lives_beyond(c->session_id, c->conn);
}

static struct ksmbd_async *caller_async_alloc(struct ksmbd_caller *c,
					      const struct ksmbd_async_ops *ops,
					      void *priv)
{
	return ksmbd_smb2_async_alloc(ctx_of(c), ops, priv);
}

static const struct ksmbd_caller_ops caller_ops = {
	.go_async = caller_go_async,
	.cancelled = caller_cancelled,
	.resume = caller_resume,
	.waits = caller_waits,
	.outlive_conn = caller_outlive_conn,
	.abandoned = caller_abandoned,
	.async_alloc = caller_async_alloc,
};

/*
 * The held request's answer goes out as its final async response (signed
 * or encrypted as the request, no credits), not in the frame.
 */
static void finish_held(struct ksmbd_smb2_ctx *ctx,
			enum ksmbd_smb2_verdict verdict)
{
	struct ksmbd_async *a = ctx->held;

	/* A handler that went async without resuming: cancellation won. */
	if (!ksmbd_smb2_async_resume(ctx))
		ctx->status = STATUS_CANCELLED;
	if (verdict != KSMBD_SMB2_REPLY && !ksmbd_ntstatus_is_error(ctx->status))
		ctx->status = STATUS_INTERNAL_ERROR;
	if (ctx->status != STATUS_SUCCESS && (!ctx->body.len ||
					      ctx->body.overflow ||
					      verdict != KSMBD_SMB2_REPLY))
		put_error_body(&ctx->body);
	ksmbd_async_complete(a, ctx->status, ctx->body.p, ctx->body.len);
	ctx->held = NULL;
	ksmbd_async_put(a);
}

/*
 * MS-SMB2 3.3.5.2.7.2: when the CREATE whose FileId the related elements
 * inherit failed, they fail with its status, not with FILE_CLOSED.
 */
static void compound_carry_error(struct ksmbd_smb2_ctx *ctx,
				 const struct ksmbd_req_hdr *hdr, u32 i)
{
	struct ksmbd_compound_fid *cfid = ctx->cfid;

	if (hdr->command == SMB2_CREATE) {
		if (ksmbd_ntstatus_is_error(ctx->status)) {
			cfid->valid = false;
			cfid->error = ctx->status;
		} else {
			cfid->error = 0;
		}
		return;
	}
	if (i && (hdr->flags & SMB2_FLAGS_RELATED_OPERATIONS) &&
	    !cfid->valid && cfid->error && ctx->status == STATUS_FILE_CLOSED)
		ctx->status = cfid->error;
}

/* Handle element i; false when the connection must be dropped. */
static bool process_element(struct ksmbd_work *work, struct frame_rsp *fr,
			    const struct ksmbd_elem *el, u32 i, u32 n)
{
	struct ksmbd_conn *conn = work->conn;
	const u8 *elem = work->frame + el->off;
	struct ksmbd_smb2_ctx ctx = {
		.conn = conn,
		.work = work,
		.caller.ops = &caller_ops,
	};
	enum ksmbd_smb2_verdict verdict;
	struct ksmbd_req_hdr hdr;
	struct ksmbd_req req;
	const char *bad;
	u32 start, room;
	bool related;
	u16 credits;
	u8 *rsp;

	ksmbd_req_hdr_decode(elem, &hdr);
	ksmbd_total_add(KSMBD_TOTAL_REQUESTS, 1);
	atomic64_inc(&conn->nr_requests);
	bad = order_violation(conn, &hdr, n);
	if (bad) {
		reject(conn, bad);
		return false;
	}
	/* MS-SMB2 3.3.5.2.3: CANCEL takes no sequence number and gets no reply. */
	if (hdr.command == SMB2_CANCEL) {
		ksmbd_async_cancel_request(conn, hdr.flags, hdr.message_id,
					   hdr.async_id, hdr.session_id);
		return true;
	}
	if (!ksmbd_conn_seq_consume(conn, hdr.message_id, hdr.credit_charge)) {
		reject(conn, "message id outside the sequence window");
		return false;
	}
	/* Every element that gets here gets its request_done. */
	trace_ksmbd_request_start(conn, &hdr, i, 0, 0, 0, 0, 0);

	start = fr->any ? ALIGN(fr->len, 8) : 0;
	/* Keep an error response's room for every element after this one. */
	room = fr->size - start - SMB2_HEADER_SIZE -
	       (n - i - 1) * KSMBD_ERR_RSP_ROOM;
	rsp = fr->buf + start;
	ctx.body = ksmbd_wbuf_make(rsp + SMB2_HEADER_SIZE, room);
	ctx.fr = fr;
	ctx.rsp_start = start;
	ctx.rsp_tail = (n - i - 1) * KSMBD_ERR_RSP_ROOM;
	ctx.cfid = &fr->cfid;
	ctx.status = STATUS_SUCCESS;
	if (n == 1 && !work->enc_sess)
		ctx.pages = &fr->pages;
	ctx.lone = n == 1;
	ctx.session_id = hdr.session_id;
	ctx.tree_id = hdr.tree_id;
	/* Only the last element may wait (see ksmbd_smb2_ctx). */
	ctx.mid_compound = i + 1 < n;
	related = hdr.flags & SMB2_FLAGS_RELATED_OPERATIONS;
	if (i && related) {
		ctx.session_id = fr->sess_id;
		ctx.tree_id = fr->tree_id;
	} else if (i) {
		/*
		 * An unrelated element starts a new chain: a related one
		 * after it inherits nothing from before it (3.3.5.2.7.2).
		 */
		fr->cfid.valid = false;
		fr->cfid.error = 0;
		fr->next_status = 0;
	}

	if (related && fr->next_status) {
		ctx.status = fr->next_status;
		verdict = KSMBD_SMB2_REPLY;
	} else {
		verdict = run_element(&ctx, elem, el->len, &req);
		if (verdict == KSMBD_SMB2_REPLY)
			compound_carry_error(&ctx, &hdr, i);
		if (ctx.unattached)
			fr->next_status = STATUS_INVALID_PARAMETER;
		/* The handler may have moved the buffer (body_room()). */
		rsp = fr->buf + start;
	}
	if (ctx.held) {
		finish_held(&ctx, verdict);
		ksmbd_smb2_detach(&ctx);
		trace_ksmbd_request_done(conn, &hdr, i, ctx.status, 0, el->len,
					 SMB2_HEADER_SIZE + ctx.body.len,
					 ksmbd_tp_since(work->received_ns));
		if (verdict == KSMBD_SMB2_DROP) {
			reject(conn, ctx.drop_reason ?: "protocol violation");
			return false;
		}
		return !ksmbd_conn_exiting(conn);
	}
	if (verdict != KSMBD_SMB2_REPLY) {
		ksmbd_smb2_detach(&ctx);
		/* No response: nothing granted, nothing out. */
		trace_ksmbd_request_done(conn, &hdr, i, ctx.status, 0, el->len,
					 0, ksmbd_tp_since(work->received_ns));
	}
	if (verdict == KSMBD_SMB2_DROP) {
		reject(conn, ctx.drop_reason ?: "protocol violation");
		return false;
	}
	if (verdict == KSMBD_SMB2_NO_REPLY)
		return true;
	/*
	 * Warnings without a body (STATUS_NO_MORE_FILES) answer with the
	 * error response too (MS-SMB2 3.3.4.4).
	 */
	if (ctx.status != STATUS_SUCCESS && (!ctx.body.len ||
					     ctx.body.overflow))
		put_error_body(&ctx.body);
	/* Data pages belong to a successful READ answer only. */
	if (ksmbd_ntstatus_is_error(ctx.status))
		ksmbd_pagevec_release(&fr->pages);

	if (fr->any) {
		memset(fr->buf + fr->len, 0, start - fr->len);
		put_unaligned_le32(start - fr->prev, fr->buf + fr->prev +
				   offsetof(struct smb2_hdr, next_command));
		if (fr->sign_sess)
			ksmbd_session_sign_rsp(fr->sign_sess,
					    fr->sign_main ? NULL : conn,
					    fr->buf + fr->prev,
					    start - fr->prev);
		fr->sign_sess = NULL;
	}
	credits = ksmbd_conn_credits_grant(conn, hdr.credit_request);
	hdr.session_id = ctx.session_id;
	hdr.tree_id = ctx.tree_id;
	fr->sess_id = ctx.session_id;
	fr->tree_id = ctx.tree_id;
	ksmbd_smb2_put_hdr(rsp, &hdr, ctx.status, credits);
	if (ctx.async)
		put_interim(fr, rsp, ctx.async);
	fr->prev = start;
	fr->len = start + SMB2_HEADER_SIZE + ctx.body.len;
	fr->any = true;
	if (ctx.finish)
		ctx.finish(&ctx, rsp, SMB2_HEADER_SIZE + ctx.body.len);
	/* A response that goes out encrypted is not signed (3.3.4.1.1). */
	fr->sign_sess = work->enc_sess ? NULL : ksmbd_smb2_rsp_signer(&ctx);
	fr->sign_main = ctx.sign_session_key;
	ksmbd_smb2_detach(&ctx);
	trace_ksmbd_request_done(conn, &hdr, i, ctx.status, credits, el->len,
				 SMB2_HEADER_SIZE + ctx.body.len + fr->pages.len,
				 ksmbd_tp_since(work->received_ns));
	return !ksmbd_conn_exiting(conn);
}

/*
 * A lone READ's buffer: room for its data when that is short (the usual
 * 4 KiB read gets one buffer, no second allocation). Longer data goes as
 * pages (ctx.pages) or, encrypted or from a pipe, gets its room once the
 * handler knows how much there is (ksmbd_smb2_body_room()).
 */
static u32 lone_read_size(const struct ksmbd_work *work, u32 want)
{
	u32 room = min(want, work->conn->neg.max_read);

	if (room >= KSMBD_READ_PAGES_MIN)
		room = 0;
	return KSMBD_LONE_READ_ROOM + room;
}


/*
 * The last answer of a compound ends on 8 bytes too, as Windows and Samba
 * send it (smb2.compound.compound-padding: a 3-byte READ's body is 24).
 * Data in pages is only ever a lone READ's; no room, no padding.
 */
static void pad_last(struct frame_rsp *fr)
{
	u32 pad = ALIGN(fr->len, 8) - fr->len;

	if (!fr->any || fr->pages.nr || !pad || fr->len + pad > fr->size)
		return;
	memset(fr->buf + fr->len, 0, pad);
	fr->len += pad;
}

/* A frame of one READ: its Length in *length. */
static bool is_lone_read(const struct ksmbd_work *work,
			 const struct ksmbd_elem *elems, u32 n, u32 *length)
{
	return n == 1 && ksmbd_frame_read_length(work->frame + elems[0].off,
						 elems[0].len, length);
}

/*
 * The buffer a frame's answer starts in: 4 KiB for headers and error
 * responses; fr_grow() makes room for each element's output just before
 * it runs. Sizing it for every element up front pinned each one's
 * asked-for output (up to the negotiated maximum, megabytes) for the
 * whole frame, also while an earlier element waited (a CREATE for an
 * oplock break), for answers of a few hundred bytes.
 */
static u32 rsp_buf_size(const struct ksmbd_work *work,
			const struct ksmbd_elem *elems, u32 n, u32 *cap)
{
	const struct ksmbd_conn *conn = work->conn;
	u32 length;

	*cap = KSMBD_RSP_BUF_SIZE;
	if (!ksmbd_conn_negotiated(conn))
		return KSMBD_RSP_BUF_SIZE;
	*cap += KSMBD_FRAME_HEADROOM + max(conn->neg.max_read,
					   conn->neg.max_trans);
	if (is_lone_read(work, elems, n, &length))
		return lone_read_size(work, length);
	return KSMBD_RSP_BUF_SIZE;
}

static atomic64_t rsp_bytes_all;

s64 ksmbd_smb2_rsp_bytes(void)
{
	return atomic64_read(&rsp_bytes_all);
}

/* A frame's response buffer, counted on its connection and in stats. */
static u8 *fr_buf_alloc(struct ksmbd_conn *conn, u32 size)
{
	u8 *buf = ksmbd_rsp_buf_alloc(size);

	if (buf) {
		atomic64_add(size, &conn->rsp_bytes);
		atomic64_add(size, &rsp_bytes_all);
	}
	return buf;
}

static void fr_buf_free(struct ksmbd_conn *conn, u8 *buf, u32 size)
{
	if (!buf)
		return;
	ksmbd_rsp_buf_free(buf, size);
	atomic64_sub(size, &conn->rsp_bytes);
	atomic64_sub(size, &rsp_bytes_all);
}

/* At least size bytes (at most fr->cap), the first keep bytes kept. */
static bool fr_grow_keep(struct ksmbd_conn *conn, struct frame_rsp *fr,
			 u64 size, u32 keep)
{
	u8 *buf;

	size = min_t(u64, size, fr->cap);
	if (size <= fr->size)
		return true;
	buf = fr_buf_alloc(conn, size);
	if (!buf)
		return false;
	memcpy(buf, fr->buf, keep);
	fr_buf_free(conn, fr->buf, fr->size);
	fr->buf = buf;
	fr->size = size;
	return true;
}

static bool fr_grow(struct ksmbd_conn *conn, struct frame_rsp *fr, u64 size)
{
	return fr_grow_keep(conn, fr, size, fr->len);
}

bool ksmbd_smb2_body_room(struct ksmbd_smb2_ctx *ctx, u32 used, u32 more)
{
	struct frame_rsp *fr = ctx->fr;
	u64 need = (u64)used + more;
	u64 size;

	if (need <= ctx->body.cap)
		return true;
	if (!fr || used < ctx->body.len || used > ctx->body.cap)
		return false;
	size = (u64)ctx->rsp_start + SMB2_HEADER_SIZE + need + ctx->rsp_tail;
	if (size > fr->cap ||
	    !fr_grow_keep(ctx->conn, fr, size,
			  ctx->rsp_start + SMB2_HEADER_SIZE + used))
		return false;
	ctx->body.p = fr->buf + ctx->rsp_start + SMB2_HEADER_SIZE;
	ctx->body.cap = fr->size - ctx->rsp_start - SMB2_HEADER_SIZE -
			ctx->rsp_tail;
	return true;
}

/*
 * Room for the next element's small answer (its handler makes room for a
 * larger one) and an error response for each of the `after` elements
 * behind it. Most compounds (a stat's CREATE + QUERY_INFO + CLOSE) fit
 * in the first buffer: growing it for every element copied it each time.
 */
static bool elem_room(struct ksmbd_conn *conn, struct frame_rsp *fr,
		      u32 after)
{
	u64 start = fr->any ? ALIGN(fr->len, 8) : 0;
	u64 tail = (u64)after * KSMBD_ERR_RSP_ROOM;

	if (start + SMB2_HEADER_SIZE + KSMBD_ELEM_MIN_ROOM + tail <= fr->size)
		return true;
	return fr_grow(conn, fr, start + KSMBD_RSP_BUF_SIZE + tail);
}

/*
 * A signed answer covers the data: copy the READ's pages in after the body,
 * into a larger buffer when they do not fit. False: no memory.
 */
static bool pages_inline(struct ksmbd_conn *conn, struct frame_rsp *fr)
{
	struct ksmbd_pagevec *pv = &fr->pages;
	unsigned int i;

	fr->cap = max(fr->cap, fr->len + pv->len);
	if (!fr_grow(conn, fr, fr->len + pv->len))
		return false;
	for (i = 0; i < pv->nr; i++) {
		memcpy_from_page(fr->buf + fr->len, pv->bv[i].bv_page,
				 pv->bv[i].bv_offset, pv->bv[i].bv_len);
		fr->len += pv->bv[i].bv_len;
	}
	ksmbd_pagevec_release(pv);
	return true;
}

static void process_smb2(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;
	struct ksmbd_elem elems[KSMBD_MAX_COMPOUND];
	struct frame_rsp fr = { };
	enum ksmbd_valid v;
	struct kvec iov;
	bool lone_read;
	u32 read_len;
	u32 n, i;

	v = ksmbd_compound_walk(work->frame, work->frame_len, elems,
				KSMBD_MAX_COMPOUND, &n);
	if (v == KSMBD_VALID_FIRST_RELATED) {
		/*
		 * The first element and the related ones after it fail;
		 * unrelated ones run (Windows, smbtorture compound.invalid1).
		 * Every element is answered: a client waits for each.
		 */
		ksmbd_conn_note_rejected(conn, NO_COMMAND, 0,
					 ksmbd_valid_name(v));
		fr.next_status = ksmbd_valid_status(v);
	} else if (v != KSMBD_VALID_OK) {
		reject(conn, ksmbd_valid_name(v));
		return;
	}

	fr.size = rsp_buf_size(work, elems, n, &fr.cap);
	fr.buf = fr_buf_alloc(conn, fr.size);
	if (!fr.buf) {
		ksmbd_conn_drop(conn, "out of memory");
		return;
	}
	lone_read = is_lone_read(work, elems, n, &read_len);
	for (i = 0; i < n; i++) {
		/* A lone READ's buffer is already sized: lone_read_size(). */
		if (!lone_read && !elem_room(conn, &fr, n - i - 1)) {
			ksmbd_conn_drop(conn, "out of memory");
			goto out_free;
		}
		if (!process_element(work, &fr, &elems[i], i, n))
			goto out_free;
	}
	if (fr.pages.nr && fr.sign_sess && !pages_inline(conn, &fr)) {
		ksmbd_conn_drop(conn, "out of memory");
		goto out_free;
	}
	if (n > 1)
		pad_last(&fr);
	if (fr.sign_sess) {
		ksmbd_session_sign_rsp(fr.sign_sess, fr.sign_main ? NULL : conn,
				    fr.buf + fr.prev,
				    fr.len - fr.prev);
		fr.sign_sess = NULL;
	}
	if (fr.any && work->enc_sess) {
		/* MS-SMB2 3.3.4.1.4: encrypted requests get encrypted answers. */
		ksmbd_smb2_send_encrypted(conn, work->enc_sess, fr.buf, fr.len);
	} else if (fr.any && fr.pages.nr) {
		ksmbd_conn_send_pages(conn, fr.buf, fr.len, fr.pages.bv,
				      fr.pages.nr, fr.pages.len);
	} else if (fr.any) {
		iov.iov_base = fr.buf;
		iov.iov_len = fr.len;
		ksmbd_conn_send(conn, &iov, 1);
	}
out_free:
	ksmbd_pagevec_release(&fr.pages);
	arm_asyncs(&fr);
	if (fr.sign_sess)
		ksmbd_session_put(fr.sign_sess);
	fr_buf_free(conn, fr.buf, fr.size);
}

/*
 * A transform frame, decrypted in place: work->frame becomes the plain
 * message and work->enc_sess its session (counted), whose keys encrypt
 * the response. On failure the connection has been dropped.
 */
static int decrypt(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;
	struct ksmbd_session *sess;
	struct ksmbd_transform t;
	int ret;

	ret = ksmbd_smb2_transform_check(conn, work->frame, work->frame_len,
					 &t);
	if (ret)
		return ret;
	sess = ksmbd_session_lookup(conn, t.session_id);
	ret = ksmbd_smb2_decrypt(conn, sess, work->frame, &t);
	if (ret) {
		if (sess)
			ksmbd_session_put(sess);
		return ret;
	}
	work->frame += t.msg_off;
	work->frame_len = t.msg_len;
	work->enc_sess = sess;
	return 0;
}

void ksmbd_smb2_process(struct ksmbd_work *work)
{
	struct ksmbd_conn *conn = work->conn;
	enum ksmbd_frame_kind kind;
	enum ksmbd_valid v;

	v = ksmbd_frame_classify(work->frame, work->frame_len, &kind);
	if (v != KSMBD_VALID_OK) {
		reject(conn, ksmbd_valid_name(v));
		return;
	}
	switch (kind) {
	case KSMBD_FRAME_SMB2:
		process_smb2(work);
		break;
	case KSMBD_FRAME_SMB1_NEGOTIATE:
		ksmbd_smb1_negotiate(work);
		break;
	case KSMBD_FRAME_TRANSFORM:
		/* Validated, decrypted in place, or the connection dropped. */
		if (decrypt(work))
			break;
		ksmbd_work_decrypted(work);
		process_smb2(work);
		ksmbd_session_put(work->enc_sess);
		work->enc_sess = NULL;
		break;
	case KSMBD_FRAME_COMPRESSED:
	default:
		/* Compression is never negotiated yet. */
		reject(conn, "compression not negotiated");
		break;
	}
}
