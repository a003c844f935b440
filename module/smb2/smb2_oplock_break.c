// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * OPLOCK_BREAK on the wire: the server's break notifications (MS-SMB2
 * 2.2.23.1, 2.2.23.2, 3.3.4.6, 3.3.4.7) and the client's
 * acknowledgements (2.2.24, 3.3.5.22.1, 3.3.5.22.2) with their responses
 * (2.2.25).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/uio.h>
#include "connection.h"
#include "file.h"
#include "ksmbd_trace.h"
#include "oplock.h"
#include "oplock_internal.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "session.h"
#include "smb2_dispatch.h"
#include "smb2_transform.h"

/* Unsolicited messages carry this MessageId (3.3.4.6, 3.3.4.7). */
#define KSMBD_NOTIFY_MESSAGE_ID		0xffffffffffffffffULL

static void put_notify_hdr(struct smb2_hdr *h, u64 sess_id)
{
	memset(h, 0, sizeof(*h));
	h->protocol_id = SMB2_PROTO_NUMBER;
	h->structure_size = cpu_to_le16(SMB2_HEADER_STRUCTURE_SIZE);
	h->command = cpu_to_le16(SMB2_OPLOCK_BREAK);
	h->flags = cpu_to_le32(SMB2_FLAGS_SERVER_TO_REDIR);
	h->message_id = cpu_to_le64(KSMBD_NOTIFY_MESSAGE_ID);
	h->session_id = cpu_to_le64(sess_id);
}

/*
 * MS-SMB2 3.3.4.6, 3.3.4.7 with 3.3.4.1.4: a break for a session that
 * encrypts (Session.EncryptData, a tree the client was told to encrypt
 * on, or a client that encrypts unasked, as mount -o seal does) goes out
 * in a transform header with that session's key. The session is the
 * open's, or the one a lease's break was routed to (note_route()).
 * NULL: send it plain, unless the owner is sealed.
 */
static struct ksmbd_session *break_enc_session(struct ksmbd_conn *conn,
					       u64 sess_id)
{
	struct ksmbd_session *sess;

	if (!sess_id || !READ_ONCE(conn->crypto))
		return NULL;
	sess = ksmbd_session_lookup(conn, sess_id);
	if (!sess)
		return NULL;
	if (ksmbd_sess_crypto_ready(&sess->crypto) &&
	    ksmbd_sess_encrypts(&sess->crypto))
		return sess;
	ksmbd_session_put(sess);
	return NULL;
}

static bool send_break(struct ksmbd_conn *conn, bool lease,
		       bool ack_required, const u8 *key, u64 pid,
		       u64 vid, u64 sess_id, bool sealed, u32 from, u32 to,
		       u16 epoch)
{
	struct {
		struct smb2_hdr hdr;
		union {
			struct smb2_oplock_break op;
			struct smb2_lease_break_notify ls;
		};
	} __packed msg;
	struct kvec iov = { .iov_base = &msg };
	struct ksmbd_session *enc;

	if (lease) {
		put_notify_hdr(&msg.hdr, 0);
		memset(&msg.ls, 0, sizeof(msg.ls));
		msg.ls.structure_size = cpu_to_le16(SMB2_LEASE_BREAK_NOTIFY_SIZE);
		msg.ls.new_epoch = cpu_to_le16(epoch);
		if (ack_required)
			msg.ls.flags = cpu_to_le32(KSMBD_LEASE_BREAK_ACK_REQUIRED);
		memcpy(msg.ls.lease_key, key, 16);
		msg.ls.current_lease_state = cpu_to_le32(from);
		msg.ls.new_lease_state = cpu_to_le32(to);
		iov.iov_len = sizeof(msg.hdr) + sizeof(msg.ls);
	} else {
		put_notify_hdr(&msg.hdr, sess_id);
		memset(&msg.op, 0, sizeof(msg.op));
		msg.op.structure_size = cpu_to_le16(SMB2_OPLOCK_BREAK_SIZE);
		msg.op.oplock_level = ksmbd_oplock_bits_to_level(to);
		msg.op.persistent_file_id = cpu_to_le64(pid);
		msg.op.volatile_file_id = cpu_to_le64(vid);
		iov.iov_len = sizeof(msg.hdr) + sizeof(msg.op);
	}
	/* A failed send drops the connection; its break then resolves at once. */
	enc = break_enc_session(conn, sess_id);
	if (enc) {
		ksmbd_smb2_send_encrypted(conn, enc, (u8 *)&msg, iov.iov_len);
		ksmbd_session_put(enc);
		return true;
	}
	/*
	 * An encrypting session's break is never sent in plain text (it
	 * names the file or lease, and a client that seals expects nothing
	 * else). Its session is gone and no other encrypting session of
	 * the client's is live, so its handles are being closed: that ends
	 * the break, as would the break timeout.
	 */
	if (sealed)
		return false;
	ksmbd_conn_send(conn, &iov, 1);
	return true;
}

const struct ksmbd_oplock_wire ksmbd_smb2_oplock_wire = {
	.send_break = send_break,
};

/* ---- Oplock acknowledgement (3.3.5.22.1) ---- */

struct ack_result {
	u32 status;
	u8 level;
};

static bool ack_level_valid(u8 level)
{
	return level == SMB2_OPLOCK_LEVEL_NONE || level == SMB2_OPLOCK_LEVEL_II;
}

/* Under the lock: judge the acknowledgement of o's break with level. */
static struct ack_result oplock_ack_locked(struct ksmbd_conn *conn,
					   struct ksmbd_oplock *o, u8 level,
					   struct list_head *notes)
{
	struct ack_result r = { .status = STATUS_SUCCESS, .level = level };
	u32 bits = ksmbd_oplock_level_to_bits(level);
	u64 lat;

	if (!o || o->lease || !o->breaking) {
		/*
		 * An ack of a break that asked for none (level II to none,
		 * 2.2.24.1: the client sends nothing) is a protocol error, as
		 * Windows answers it (smb2.oplock.levelii500); any other ack
		 * with no break in flight is 3.3.5.22.1's invalid state.
		 */
		r.status = o && !o->lease && o->noack_break ?
			   STATUS_INVALID_OPLOCK_PROTOCOL :
			   STATUS_INVALID_DEVICE_STATE;
		return r;
	}
	lat = ktime_get_ns() - o->break_ns;
	if (level == SMB2_OPLOCK_LEVEL_LEASE) {
		r.status = STATUS_INVALID_PARAMETER;
		r.level = SMB2_OPLOCK_LEVEL_NONE;
		ksmbd_oplock_resolve(o, 0);
	} else if (!ack_level_valid(level) || (bits & ~o->break_to)) {
		/* More than the notification allowed: nothing is kept. */
		r.status = STATUS_INVALID_OPLOCK_PROTOCOL;
		r.level = SMB2_OPLOCK_LEVEL_NONE;
		ksmbd_oplock_resolve(o, 0);
	} else {
		ksmbd_oplock_acked(o, bits, notes);
	}
	trace_ksmbd_oplock_break_ack(conn->id, ksmbd_oplock_trace_id(o), false,
				     0, ksmbd_oplock_level_to_bits(level),
				     r.status, lat, NULL);
	return r;
}

static void oplock_ack(struct ksmbd_smb2_ctx *ctx,
		       const struct ksmbd_oplock_break_req *rq)
{
	struct ksmbd_wbuf *w = &ctx->body;
	struct ack_result r;
	struct ksmbd_file *fp;
	LIST_HEAD(notes);

	fp = ksmbd_file_lookup(ksmbd_smb2_caller(ctx), rq->pid, rq->vid);
	if (!fp) {
		ctx->status = STATUS_FILE_CLOSED;
		return;
	}
	mutex_lock(&ksmbd_owner_lock);
	r = oplock_ack_locked(ctx->conn, fp->oplock, rq->oplock_level, &notes);
	mutex_unlock(&ksmbd_owner_lock);
	ksmbd_oplock_send_notes(&notes);
	ctx->status = r.status;
	if (r.status == STATUS_SUCCESS)
		ksmbd_oplock_break_rsp_encode(w, r.level, fp->persistent_id,
					      fp->volatile_id);
	ksmbd_file_put(fp);
}

/* ---- Lease acknowledgement (3.3.5.22.2) ---- */

static u32 lease_ack_locked(struct ksmbd_smb2_ctx *ctx, const u8 *key,
			    u32 state, struct list_head *notes)
{
	struct ksmbd_conn *conn = ctx->conn;
	struct ksmbd_oplock *o = ksmbd_lease_find(conn->neg.client_guid, key,
						  ctx->sess->uid);
	u32 status = STATUS_SUCCESS;
	u64 lat;

	if (!o)
		return STATUS_OBJECT_NAME_NOT_FOUND;
	if (!o->breaking)
		return STATUS_UNSUCCESSFUL;
	/* Before a further break (ksmbd_oplock_acked()) restarts the clock. */
	lat = ktime_get_ns() - o->break_ns;
	if (state & ~o->break_to)
		status = STATUS_REQUEST_NOT_ACCEPTED;	/* still breaking */
	else
		ksmbd_oplock_acked(o, state, notes);
	trace_ksmbd_oplock_break_ack(conn->id, ksmbd_oplock_trace_id(o), true,
				     0, state, status, lat, NULL);
	return status;
}

static void lease_ack(struct ksmbd_smb2_ctx *ctx,
		      const struct ksmbd_oplock_break_req *rq)
{
	struct ksmbd_wbuf *w = &ctx->body;
	LIST_HEAD(notes);

	mutex_lock(&ksmbd_owner_lock);
	ctx->status = lease_ack_locked(ctx, rq->lease_key, rq->lease_state,
				       &notes);
	mutex_unlock(&ksmbd_owner_lock);
	ksmbd_oplock_send_notes(&notes);
	if (ctx->status != STATUS_SUCCESS)
		return;
	ksmbd_lease_ack_rsp_encode(w, rq->lease_key, rq->lease_state);
}

enum ksmbd_smb2_verdict ksmbd_smb2_oplock_break(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_oplock_break_req rq;

	if (ksmbd_oplock_break_decode(ctx->req, &rq))
		ctx->status = STATUS_INVALID_PARAMETER;
	else if (rq.lease)
		lease_ack(ctx, &rq);
	else
		oplock_ack(ctx, &rq);
	return KSMBD_SMB2_REPLY;
}
