// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * READ (MS-SMB2 3.3.5.12), WRITE (3.3.5.13) and FLUSH (3.3.5.11).
 *
 * The gate has bounded READ's Length by the negotiated MaxReadSize and
 * WRITE's data by MaxWriteSize and by its own compound element; the
 * dispatcher sized the response buffer for the READ, so file data is read
 * straight into the response, or (a lone unencrypted READ of 16 KiB or
 * more) sent from the page cache without a copy; it is written straight
 * from the request.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include "create_rules.h"
#include "file.h"
#include "lock.h"
#include "oplock.h"
#include "ksmbd_trace.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "smb2_dispatch.h"
#include "smb2_files.h"
#include "vfs.h"
#include "work.h"

struct rw_req {
	u8 flags;
	u32 length;
	u64 offset;
	u64 pid, vid;
	u32 min_count;
	u32 channel;
	u32 write_flags;
	struct ksmbd_buf data;		/* WRITE */
};

static int decode_read(const struct ksmbd_req *req, struct rw_req *rq)
{
	struct ksmbd_read_req r;

	memset(rq, 0, sizeof(*rq));
	if (ksmbd_read_decode(req, &r))
		return -EINVAL;
	rq->flags = r.flags;
	rq->length = r.length;
	rq->offset = r.offset;
	rq->pid = r.pid;
	rq->vid = r.vid;
	rq->min_count = r.minimum_count;
	rq->channel = r.channel;
	return 0;
}

static int decode_write(const struct ksmbd_req *req, struct rw_req *rq)
{
	struct ksmbd_write_req r;

	memset(rq, 0, sizeof(*rq));
	if (ksmbd_write_decode(req, &r))
		return -EINVAL;
	rq->offset = r.offset;
	rq->pid = r.pid;
	rq->vid = r.vid;
	rq->channel = r.channel;
	rq->write_flags = r.flags;
	rq->length = r.length;
	rq->data = r.data;
	return 0;
}

/* A handle or the status to answer with. */
static struct ksmbd_file *lookup(struct ksmbd_smb2_ctx *ctx, u64 pid, u64 vid)
{
	struct ksmbd_file *fp = ksmbd_file_lookup(ksmbd_smb2_caller(ctx), pid,
						  vid);

	if (!fp)
		ctx->status = STATUS_FILE_CLOSED;
	return fp;
}

/*
 * What a read into the body can return: the bytes from the offset to the
 * end of the file as it is now, never more than asked. Room for that, not
 * for the client's Length, is what the body gets (a file that grows
 * meanwhile answers with what it had when the read began).
 */
static u32 read_room(struct ksmbd_file *fp, const struct rw_req *rq)
{
	loff_t size = ksmbd_vfs_size_hint(fp);

	if (size < 0)
		return rq->length;
	if ((u64)size <= rq->offset)
		return 0;
	return min_t(u64, rq->length, size - rq->offset);
}

/*
 * The data: as page references when the dispatcher allows it (nothing
 * copied; the socket sends the page cache pages), else read into the body.
 * With pages allowed the dispatcher sized the body for small reads only.
 */
static ssize_t read_data(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
			 const struct rw_req *rq)
{
	struct ksmbd_wbuf *w = &ctx->body;
	ssize_t n;
	u32 len;
	u8 *dst;

	if (ctx->pages && (rq->length >= KSMBD_READ_PAGES_MIN ||
			   !ksmbd_range_ok(w->cap, w->len, rq->length)))
		return ksmbd_vfs_read_pages(fp, rq->length, rq->offset,
					    ctx->pages);
	len = read_room(fp, rq);
	if (!ksmbd_smb2_body_room(ctx, w->len, len))
		return -ENOSPC;
	/* Raw: what the read does not fill is taken back right after. */
	dst = ksmbd_wbuf_reserve_raw(w, len);
	if (!dst)
		return -ENOSPC;
	n = ksmbd_vfs_read(fp, dst, len, rq->offset);
	w->len -= len - (n > 0 ? n : 0);
	return n;
}

static u32 read_file(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
		     const struct rw_req *rq, u32 *got)
{
	ssize_t n;
	u64 t0;

	if (fp->kind == KSMBD_FILE_DIRECTORY)
		return STATUS_INVALID_DEVICE_REQUEST;
	if (!(fp->daccess & FILE_READ_RIGHTS))
		return STATUS_ACCESS_DENIED;
	if (rq->offset > LLONG_MAX || rq->length > LLONG_MAX - rq->offset)
		return STATUS_INVALID_PARAMETER;
	if (ksmbd_lock_check_io(fp, rq->offset, rq->length, false))
		return STATUS_FILE_LOCK_CONFLICT;
	t0 = KSMBD_TP_CLOCK(ksmbd_vfs_read);
	n = read_data(ctx, fp, rq);
	trace_ksmbd_vfs_read(ctx->conn, fp, rq->offset, rq->length,
			     n > 0 ? n : 0, ksmbd_tp_since(t0));
	if (n == -ENOSPC)
		return STATUS_INSUFFICIENT_RESOURCES;
	if (n < 0)
		return ksmbd_ntstatus_from_errno(n);
	*got = n;
	WRITE_ONCE(fp->position, rq->offset + n);
	/* MS-SMB2 3.3.5.12: nothing at all, or less than MinimumCount. */
	if ((!n && rq->length) || n < rq->min_count)
		return STATUS_END_OF_FILE;
	return STATUS_SUCCESS;
}

enum ksmbd_smb2_verdict ksmbd_smb2_read(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_wbuf *w = &ctx->body;
	struct ksmbd_file *fp;
	struct rw_req rq;
	u32 got = 0;

	if (decode_read(ctx->req, &rq) || rq.channel != SMB2_CHANNEL_NONE) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	fp = lookup(ctx, rq.pid, rq.vid);
	if (!fp)
		return KSMBD_SMB2_REPLY;
	ksmbd_read_rsp_encode(w);
	if (fp->kind == KSMBD_FILE_PIPE)
		ctx->status = ksmbd_smb2_pipe_read(ctx, fp, rq.length, &got);
	else
		ctx->status = read_file(ctx, fp, &rq, &got);
	ksmbd_file_put(fp);
	if (ksmbd_ntstatus_is_error(ctx->status) || w->overflow) {
		w->len = 0;	/* the dispatcher answers with an error body */
		if (ctx->pages)
			ksmbd_pagevec_release(ctx->pages);
		return KSMBD_SMB2_REPLY;
	}
	ksmbd_read_rsp_set_length(w, got);
	return KSMBD_SMB2_REPLY;
}

/*
 * A streamed WRITE's data (transport_tcp.c) goes from the socket into the
 * file as it arrives, so the file takes the first pages while the client
 * is still sending the rest: from the socket's own memory when the file
 * allows it (tcp_recv_file.c, one copy), else received into the buffer and
 * written a chunk at a time. After a failed or short write the rest is
 * received but not written: the answer is what went in, or the error.
 */
#define STREAM_CHUNK	(128 * 1024)

struct socket_source {
	struct ksmbd_work *work;
	u32 upto;
};

static ssize_t from_socket(void *arg, struct file *filp, loff_t pos)
{
	struct socket_source *src = arg;

	return ksmbd_work_fill_file(src->work, src->upto, filp, pos);
}

static ssize_t write_streamed(struct ksmbd_work *work, struct ksmbd_file *fp,
			      const struct ksmbd_buf *data, loff_t pos)
{
	u32 at = data->p - work->buf, off = 0, n;
	ssize_t done = 0, w = 0, err = 0;
	bool direct = true;

	/* The shape check made the data the frame's tail; never read past. */
	if (at > work->buf_len || data->len > work->buf_len - at)
		return -EINVAL;
	while (off < data->len) {
		n = min_t(u32, data->len - off, STREAM_CHUNK);
		if (!err && direct) {
			struct socket_source src = {
				.work = work, .upto = at + data->len,
			};

			n = data->len - off;
			w = ksmbd_vfs_write_from(fp, pos + off, from_socket,
						 &src);
			direct = w != -EOPNOTSUPP;
			if (!direct)
				continue;
		}
		/* What the file did not take, or the whole chunk. */
		if (!ksmbd_work_fill(work, at + off + n))
			return -ECONNABORTED;
		if (!err && !direct)
			w = ksmbd_vfs_write(fp, data->p + off, n, pos + off);
		if (!err) {
			if (w < 0)
				err = w;
			else
				done += w;
			if (w >= 0 && w < n)
				err = -ENOSPC;
		}
		off += n;
	}
	return done ?: err;
}

static u32 write_file(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
		      const struct rw_req *rq, const struct ksmbd_buf *data,
		      u32 *written)
{
	bool append = rq->offset == U64_MAX;
	loff_t pos = rq->offset;
	struct kstat st;
	ssize_t n;
	u64 t0;
	int ret;

	if (fp->kind == KSMBD_FILE_DIRECTORY)
		return STATUS_INVALID_DEVICE_REQUEST;
	if (!(fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
		return STATUS_ACCESS_DENIED;
	/*
	 * An append's position is the end of the file when it is written:
	 * take its data whole first, so no other writer's data lands between
	 * that position and the last chunk.
	 */
	if (append && !ksmbd_work_fill(ctx->work, ctx->work->buf_len))
		return STATUS_CONNECTION_DISCONNECTED;
	if (append) {
		if (!(fp->daccess & FILE_APPEND_DATA))
			return STATUS_ACCESS_DENIED;
		ret = ksmbd_vfs_getattr(fp, &st);
		if (ret)
			return ksmbd_ntstatus_from_errno(ret);
		pos = st.size;
	} else if (!(fp->daccess & FILE_WRITE_DATA)) {
		return STATUS_ACCESS_DENIED;
	}
	if (pos < 0 || data->len > LLONG_MAX - pos)
		return STATUS_INVALID_PARAMETER;
	if (ksmbd_lock_check_io(fp, pos, data->len, true))
		return STATUS_FILE_LOCK_CONFLICT;
	ksmbd_oplock_break_for_write(fp);
	t0 = KSMBD_TP_CLOCK(ksmbd_vfs_write);
	if (ksmbd_work_streamed(ctx->work))
		n = write_streamed(ctx->work, fp, data, pos);
	else
		n = ksmbd_vfs_write(fp, data->p, data->len, pos);
	trace_ksmbd_vfs_write(ctx->conn, fp, pos, data->len, n > 0 ? n : 0,
			      ksmbd_tp_since(t0));
	if (n < 0)
		return ksmbd_ntstatus_from_errno(n);
	*written = n;
	WRITE_ONCE(fp->position, pos + n);
	/* Its directory's leases break at the close (oplock_dir.c). */
	if (n && !READ_ONCE(fp->entry_changed))
		WRITE_ONCE(fp->entry_changed, true);
	if (n && ((rq->write_flags & SMB2_WRITEFLAG_WRITE_THROUGH) ||
		  (fp->create_options & FILE_WRITE_THROUGH))) {
		ret = ksmbd_vfs_fsync(fp, pos, pos + n - 1);
		if (ret)
			return ksmbd_ntstatus_from_errno(ret);
	}
	return STATUS_SUCCESS;
}

enum ksmbd_smb2_verdict ksmbd_smb2_write(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_wbuf *w = &ctx->body;
	const struct ksmbd_buf *data;
	struct ksmbd_file *fp;
	struct rw_req rq;
	u32 written = 0;

	if (decode_write(ctx->req, &rq) || rq.channel != SMB2_CHANNEL_NONE) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	data = &rq.data;
	fp = lookup(ctx, rq.pid, rq.vid);
	if (!fp)
		return KSMBD_SMB2_REPLY;
	if (fp->kind == KSMBD_FILE_PIPE) {
		/* A streamed payload is received whole first. */
		if (!ksmbd_work_fill(ctx->work, ctx->work->buf_len)) {
			ksmbd_file_put(fp);
			ctx->drop_reason =
				ksmbd_work_rx_reason(ctx->work);
			return KSMBD_SMB2_DROP;
		}
		ctx->status = ksmbd_smb2_pipe_write(fp, data);
		written = data->len;
	} else {
		ctx->status = write_file(ctx, fp, &rq, data, &written);
	}
	ksmbd_file_put(fp);
	if (ctx->work->rx_error) {
		/* the payload stopped short: no answer, the connection goes */
		ctx->drop_reason = ksmbd_work_rx_reason(ctx->work);
		return KSMBD_SMB2_DROP;
	}
	if (ksmbd_ntstatus_is_error(ctx->status))
		return KSMBD_SMB2_REPLY;
	ksmbd_write_rsp_encode(w, written);
	return KSMBD_SMB2_REPLY;
}

enum ksmbd_smb2_verdict ksmbd_smb2_flush(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_flush_req rq;
	struct ksmbd_file *fp;
	int ret = 0;

	if (ksmbd_flush_decode(ctx->req, &rq)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	fp = lookup(ctx, rq.pid, rq.vid);
	if (!fp)
		return KSMBD_SMB2_REPLY;
	if (fp->kind == KSMBD_FILE_REGULAR &&
	    !(fp->daccess & FILE_WRITE_RIGHTS))
		ctx->status = STATUS_ACCESS_DENIED;
	else if (fp->filp && !(fp->filp->f_mode & FMODE_PATH))
		ret = ksmbd_vfs_fsync(fp, 0, LLONG_MAX);
	ksmbd_file_put(fp);
	if (ret)
		ctx->status = ksmbd_ntstatus_from_errno(ret);
	if (ksmbd_ntstatus_is_error(ctx->status))
		return KSMBD_SMB2_REPLY;
	ksmbd_wbuf_put_le16(&ctx->body, SMB2_SIMPLE_SIZE);
	ksmbd_wbuf_put_le16(&ctx->body, 0);
	return KSMBD_SMB2_REPLY;
}
