// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Asynchronous requests: AsyncIds, interim/final ordering, CANCEL and
 * teardown (see async.h for the contract owners rely on).
 *
 * Locks: the table's xa_lock guards membership and the per-connection
 * count; a->lock guards armed/final/cancel_asked. Neither is held while
 * an owner callback runs or while sending. Owner callbacks run without
 * any lock of ours held, so owners may take their own mutexes there.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include "async.h"
#include "bufpool.h"
#include "connection.h"
#include "debug.h"
#include "ksmbd_trace.h"
#include "session.h"
#include "smb2_transform.h"
#include "stats.h"

static DEFINE_XARRAY_ALLOC1(asyncs);
static u32 next_index;

struct ksmbd_async *ksmbd_async_alloc(const struct ksmbd_async_origin *o,
				      const struct ksmbd_async_ops *ops,
				      void *priv)
{
	struct ksmbd_async *a;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return NULL;
	refcount_set(&a->refs, 1);
	spin_lock_init(&a->lock);
	atomic_set(&a->claimed, 0);
	ksmbd_conn_get(o->conn);
	a->conn = o->conn;
	a->ops = ops;
	a->priv = priv;
	a->message_id = o->hdr->message_id;
	a->session_id = o->session_id;
	a->hdr_flags = o->hdr->flags;
	a->command = o->hdr->command;
	a->credit_charge = o->hdr->credit_charge;
	a->started_ns = ktime_get_ns();
	if (o->enc_sess) {
		ksmbd_session_get(o->enc_sess);
		a->enc_sess = o->enc_sess;
	}
	return a;
}

void ksmbd_async_get(struct ksmbd_async *a)
{
	refcount_inc(&a->refs);
}

void ksmbd_async_put(struct ksmbd_async *a)
{
	if (!a || !refcount_dec_and_test(&a->refs))
		return;
	if (a->ops && a->ops->release)
		a->ops->release(a);
	ksmbd_work_buf_free(a->final);
	if (a->signer)
		ksmbd_session_put(a->signer);
	if (a->enc_sess)
		ksmbd_session_put(a->enc_sess);
	ksmbd_conn_put(a->conn);
	kfree(a);
}

/*
 * Is a CANCEL for this MessageId, by the request's own session, waiting
 * (it came before the request went async)?
 */
static bool take_early_cancel(struct ksmbd_conn *conn, u64 mid, u64 sess)
{
	bool found = false;
	u32 i;

	spin_lock(&conn->cancel_lock);
	for (i = 0; i < KSMBD_CONN_EARLY_CANCELS; i++) {
		if (conn->early_cancel[i] == mid + 1 &&
		    conn->early_cancel_sess[i] == sess) {
			conn->early_cancel[i] = 0;
			found = true;
			break;
		}
	}
	spin_unlock(&conn->cancel_lock);
	return found;
}

static void note_early_cancel(struct ksmbd_conn *conn, u64 mid, u64 sess)
{
	u32 i;

	spin_lock(&conn->cancel_lock);
	i = conn->early_pos++ % KSMBD_CONN_EARLY_CANCELS;
	/* Stored +1 so that 0 means empty. */
	conn->early_cancel[i] = mid + 1;
	conn->early_cancel_sess[i] = sess;
	spin_unlock(&conn->cancel_lock);
}

int ksmbd_async_publish(struct ksmbd_async *a)
{
	struct ksmbd_conn *conn = a->conn;
	u32 idx;
	int ret;

	xa_lock(&asyncs);
	/*
	 * Checked under the lock ksmbd_async_conn_closed() scans under, and
	 * EXITING is set before that scan: nothing is added behind it.
	 */
	if (ksmbd_conn_exiting(conn)) {
		ret = -ESHUTDOWN;
		goto out_unlock;
	}
	if (atomic_read(&conn->nr_async) >= KSMBD_ASYNC_MAX_PER_CONN) {
		ret = -EAGAIN;
		goto out_unlock;
	}
	ret = __xa_alloc_cyclic(&asyncs, &idx, a, XA_LIMIT(1, U32_MAX),
				&next_index, GFP_ATOMIC);
	if (ret < 0)
		goto out_unlock;
	atomic_inc(&conn->nr_async);
	a->id = idx;
	/* The table's reference. */
	ksmbd_async_get(a);
	ret = 0;
out_unlock:
	xa_unlock(&asyncs);
	if (!ret && take_early_cancel(conn, a->message_id, a->session_id)) {
		/* A CANCEL finding it in the table writes this too. */
		spin_lock(&a->lock);
		a->cancel_asked = true;
		spin_unlock(&a->lock);
	}
	return ret;
}

static void unpublish(struct ksmbd_async *a)
{
	xa_lock(&asyncs);
	__xa_erase(&asyncs, a->id);
	atomic_dec(&a->conn->nr_async);
	xa_unlock(&asyncs);
	ksmbd_async_put(a);
}

bool ksmbd_async_claim(struct ksmbd_async *a)
{
	return atomic_cmpxchg(&a->claimed, 0, 1) == 0;
}

/* MS-SMB2 3.3.4.3/3.3.4.4: the request's header, async form, no credits. */
static u8 *build_final(struct ksmbd_async *a, u32 status, const void *body,
		       u32 body_len, u32 *len)
{
	static const u8 error_body[SMB2_ERROR_RSP_SIZE + 1] = {
		SMB2_ERROR_RSP_SIZE, 0,
	};
	struct smb2_hdr *h;
	u8 *buf;

	if (!body_len) {
		body = error_body;
		body_len = sizeof(error_body);
	}
	*len = SMB2_HEADER_SIZE + body_len;
	buf = ksmbd_work_buf_alloc(*len);
	if (!buf)
		return NULL;
	h = (struct smb2_hdr *)buf;
	memset(h, 0, sizeof(*h));
	h->protocol_id = SMB2_PROTO_NUMBER;
	h->structure_size = cpu_to_le16(SMB2_HEADER_STRUCTURE_SIZE);
	h->credit_charge = cpu_to_le16(a->credit_charge);
	h->status = cpu_to_le32(status);
	h->command = cpu_to_le16(a->command);
	h->credit_req_rsp = 0;
	h->flags = cpu_to_le32(SMB2_FLAGS_SERVER_TO_REDIR |
			       SMB2_FLAGS_ASYNC_COMMAND);
	h->message_id = cpu_to_le64(a->message_id);
	h->id.async_id = cpu_to_le64(a->id);
	h->session_id = cpu_to_le64(a->session_id);
	memcpy(buf + SMB2_HEADER_SIZE, body, body_len);
	return buf;
}

static int send_frame(struct ksmbd_async *a, u8 *buf, u32 len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };

	if (a->enc_sess)
		return ksmbd_smb2_send_encrypted(a->conn, a->enc_sess, buf, len);
	return ksmbd_conn_send(a->conn, &iov, 1);
}

/* Sign or encrypt, send (unless the connection is going), leave the table. */
static void send_final(struct ksmbd_async *a, u8 *buf, u32 len)
{
	struct ksmbd_session *signer = a->signer;
	bool sent = false;

	if (buf) {
		if (signer) {
			a->signer = NULL;
			ksmbd_session_sign_rsp(signer, a->conn, buf, len);
		}
		if (!ksmbd_conn_exiting(a->conn))
			sent = !send_frame(a, buf, len);
		ksmbd_work_buf_free(buf);
	}
	trace_ksmbd_async_done(a->conn->id, a->id, a->message_id, a->command,
			       NULL, a->final_status, sent,
			       ktime_get_ns() - a->started_ns);
	ksmbd_debug(SMB, "conn %llu: async %llu (mid %llu) done in %llu us\n",
		    a->conn->id, a->id, a->message_id,
		    (ktime_get_ns() - a->started_ns) / 1000);
	unpublish(a);
}

void ksmbd_async_complete(struct ksmbd_async *a, u32 status, const void *body,
			  u32 body_len)
{
	u32 len = 0;
	u8 *buf = build_final(a, status, body, body_len, &len);
	bool now;

	spin_lock(&a->lock);
	a->final_status = status;
	now = a->armed;
	if (!now) {
		/* The interim is not out yet: the dispatcher sends this after it. */
		a->final = buf;
		a->final_len = len;
		/* Even without memory for it, the request must leave the table. */
		if (!buf)
			a->final_len = U32_MAX;
	}
	spin_unlock(&a->lock);
	if (now)
		send_final(a, buf, len);
}

static void cancel_for(struct ksmbd_async *a, const char *why)
{
	u32 status;

	if (!ksmbd_async_claim(a))
		return;
	trace_ksmbd_async_cancel(a->conn->id, a->id, a->message_id, a->command,
				 why, 0, false, 0);
	status = a->ops->cancel(a);
	/* 0: the owner unwinds its work first and completes it itself. */
	if (status)
		ksmbd_async_complete(a, status, NULL, 0);
}

void ksmbd_async_cancel(struct ksmbd_async *a)
{
	cancel_for(a, "cancel");
}

void ksmbd_async_armed(struct ksmbd_async *a)
{
	bool pending, asked;
	u8 *buf;
	u32 len;

	spin_lock(&a->lock);
	a->armed = true;
	buf = a->final;
	len = a->final_len;
	pending = buf || len == U32_MAX;
	a->final = NULL;
	asked = a->cancel_asked;
	spin_unlock(&a->lock);
	trace_ksmbd_async_interim(a->conn->id, a->id, a->message_id,
				  a->command, NULL, 0, false, 0);
	if (pending)
		send_final(a, buf, len);
	else if (asked)
		cancel_for(a, "early");
}

/* A published request of conn, with a reference, or NULL. */
/*
 * The request a CANCEL names: on the CANCEL's connection and of its
 * session. A CANCEL is neither signed-checked nor answered, so the
 * session named is all that keeps another user sharing the connection
 * (a terminal server's clients) from ending one's blocking lock,
 * change notify or waiting open.
 */
static struct ksmbd_async *find(struct ksmbd_conn *conn, u32 flags, u64 mid,
				u64 aid, u64 sess)
{
	struct ksmbd_async *a = NULL, *it;
	unsigned long idx;

	xa_lock(&asyncs);
	if (flags & SMB2_FLAGS_ASYNC_COMMAND) {
		if (aid && aid <= U32_MAX) {
			a = xa_load(&asyncs, (unsigned long)aid);
			if (a && (a->conn != conn || a->session_id != sess))
				a = NULL;
		}
	} else {
		xa_for_each(&asyncs, idx, it) {
			if (it->conn == conn && it->message_id == mid &&
			    it->session_id == sess) {
				a = it;
				break;
			}
		}
	}
	if (a)
		ksmbd_async_get(a);
	xa_unlock(&asyncs);
	return a;
}

void ksmbd_async_cancel_request(struct ksmbd_conn *conn, u32 flags,
				u64 message_id, u64 async_id, u64 session_id)
{
	struct ksmbd_async *a = find(conn, flags, message_id, async_id,
				     session_id);
	bool armed;

	if (!a) {
		/*
		 * MS-SMB2 3.3.5.16: a sync-form CANCEL may overtake its
		 * request, which is still being processed; remember it so
		 * the request is cancelled as soon as it goes async.
		 */
		if (!(flags & SMB2_FLAGS_ASYNC_COMMAND))
			note_early_cancel(conn, message_id, session_id);
		return;
	}
	spin_lock(&a->lock);
	armed = a->armed;
	if (!armed)
		a->cancel_asked = true;
	spin_unlock(&a->lock);
	if (armed)
		ksmbd_async_cancel(a);
	ksmbd_async_put(a);
}

void ksmbd_async_conn_closed(struct ksmbd_conn *conn)
{
	struct ksmbd_async *a;
	unsigned long idx = 0;

	for (;;) {
		xa_lock(&asyncs);
		a = xa_find(&asyncs, &idx, ULONG_MAX, XA_PRESENT);
		while (a && a->conn != conn) {
			idx++;
			a = xa_find(&asyncs, &idx, ULONG_MAX, XA_PRESENT);
		}
		if (a)
			ksmbd_async_get(a);
		xa_unlock(&asyncs);
		if (!a)
			return;
		if (a->outlives_conn &&
		    ksmbd_session_lives_beyond(a->session_id, conn)) {
			ksmbd_async_put(a);
			idx++;
			continue;
		}
		/*
		 * A request whose interim is not out yet is completed here
		 * too; the dispatcher still holding it arms it afterwards
		 * and so takes it out of the table.
		 */
		cancel_for(a, "teardown");
		ksmbd_async_put(a);
		idx++;
	}
}
