// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IOCTL (MS-SMB2 3.3.5.15): the FSCTLs a file server answers. Each takes
 * its input from the gate's validated slice and writes at most
 * MaxOutputResponse bytes of output after the 48-byte response.
 * FSCTL_QUERY_NETWORK_INTERFACE_INFO is in smb2_ioctl_netif.c.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include <linux/falloc.h>
#include "connection.h"
#include "create_rules.h"
#include "fattr.h"
#include "file.h"
#include "ksmbd_trace.h"
#include "lock.h"
#include "oplock.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "smb2_dispatch.h"
#include "smb2_files.h"
#include "vfs.h"

enum {
	FSCTL_DFS_GET_REFERRALS			= 0x00060194,
	FSCTL_GET_REPARSE_POINT			= 0x000900a8,
	FSCTL_GET_COMPRESSION			= 0x0009003c,
	FSCTL_SET_COMPRESSION			= 0x0009c040,
	FSCTL_SET_SPARSE			= 0x000900c4,
	FSCTL_CREATE_OR_GET_OBJECT_ID		= 0x000900c0,
	FSCTL_SET_ZERO_DATA			= 0x000980c8,
	FSCTL_QUERY_ALLOCATED_RANGES		= 0x000940cf,
	FSCTL_DUPLICATE_EXTENTS_TO_FILE		= 0x00098344,
	FSCTL_PIPE_TRANSCEIVE			= 0x0011c017,
	FSCTL_SRV_REQUEST_RESUME_KEY		= 0x00140078,
	FSCTL_QUERY_NETWORK_INTERFACE_INFO	= 0x001401fc,
	FSCTL_VALIDATE_NEGOTIATE_INFO		= 0x00140204,
	FSCTL_SRV_COPYCHUNK			= 0x001440f2,
	FSCTL_SRV_COPYCHUNK_WRITE		= 0x001480f2,
};

/* MS-SMB2 3.3.5.15.6 server-side copy limits (Windows' values). */
#define COPYCHUNK_MAX_CHUNKS	256
#define COPYCHUNK_MAX_CHUNK	(1024 * 1024)
#define COPYCHUNK_MAX_TOTAL	(16 * 1024 * 1024)

struct ioctl_op {
	struct ksmbd_smb2_ctx *ctx;
	const struct ksmbd_ioctl_req *rq;
	struct ksmbd_file *fp;		/* NULL for the connection-level FSCTLs */
	u32 out_len;			/* bytes appended to ctx->body */
};

static bool out_room(const struct ioctl_op *op, u32 n)
{
	return op->out_len + n <= op->rq->max_output_response;
}

/*
 * Room in the body for n more output bytes. Outputs that grow entry by
 * entry (allocated ranges) double the room, up to what the client
 * allows, so the body holds about the answer, not MaxOutputResponse.
 */
static bool out_reserve(struct ioctl_op *op, u32 n)
{
	struct ksmbd_wbuf *w = &op->ctx->body;
	u32 more = max(n, min(w->cap, op->rq->max_output_response - op->out_len));

	if (w->cap - w->len >= n)
		return true;
	return ksmbd_smb2_body_room(op->ctx, w->len, more) ||
	       ksmbd_smb2_body_room(op->ctx, w->len, n);
}

static void out_le32(struct ioctl_op *op, u32 v)
{
	ksmbd_wbuf_put_le32(&op->ctx->body, v);
	op->out_len += 4;
}

static void out_le64(struct ioctl_op *op, u64 v)
{
	ksmbd_wbuf_put_le64(&op->ctx->body, v);
	op->out_len += 8;
}

/* ---- Connection-level ---- */

static u32 validate_negotiate(struct ioctl_op *op)
{
	const struct ksmbd_conn_neg *neg = &op->ctx->conn->neg;
	struct ksmbd_fsctl_validate_negotiate v;
	bool offered = false;
	u16 i;

	/* MS-SMB2 3.3.5.15.12: a 3.1.1 client never sends it. */
	if (neg->dialect == SMB311_DIALECT)
		return STATUS_CONNECTION_DISCONNECTED;
	if (ksmbd_fsctl_validate_negotiate_decode(&op->rq->input, &v))
		return STATUS_CONNECTION_DISCONNECTED;
	for (i = 0; i < v.dialect_count; i++)
		if (ksmbd_fsctl_vneg_dialect(&v, i) == neg->dialect)
			offered = true;
	if (v.capabilities != neg->client_capabilities || !offered ||
	    v.security_mode != neg->client_security_mode ||
	    memcmp(v.guid, neg->client_guid, 16))
		return STATUS_CONNECTION_DISCONNECTED;
	if (!out_room(op, 24))
		return STATUS_INVALID_PARAMETER;
	out_le32(op, neg->capabilities);
	ksmbd_wbuf_put(&op->ctx->body, ksmbd_smb2_server_guid(), 16);
	op->out_len += 16;
	ksmbd_wbuf_put_le16(&op->ctx->body, neg->security_mode);
	ksmbd_wbuf_put_le16(&op->ctx->body, neg->dialect);
	op->out_len += 4;
	return STATUS_SUCCESS;
}

/* ---- Server-side copy ---- */

static u32 resume_key(struct ioctl_op *op)
{
	if (!out_room(op, KSMBD_RESUME_KEY_SIZE + 8))
		return STATUS_INVALID_PARAMETER;
	/* The key names the handle: its ids, then zeros. */
	out_le64(op, op->fp->persistent_id);
	out_le64(op, op->fp->volatile_id);
	out_le64(op, 0);
	out_le32(op, 0);	/* ContextLength */
	out_le32(op, 0);
	return STATUS_SUCCESS;
}

/* MS-FSCC 2.1.3 FILE_OBJECTID_BUFFER: ObjectId, then 48 bytes. */
#define OBJECT_ID_BUF_SIZE	64

/*
 * FSCTL_CREATE_OR_GET_OBJECT_ID (MS-FSCC 2.3.5): no object ids are stored,
 * so the id is derived from what names the file on the server (inode and
 * device): stable, the same on every handle, distinct between files.
 */
static u32 object_id(struct ioctl_op *op)
{
	struct kstat st;
	int ret;

	if (!out_room(op, OBJECT_ID_BUF_SIZE))
		return STATUS_BUFFER_TOO_SMALL;
	ret = ksmbd_vfs_getattr(op->fp, &st);
	if (ret)
		return ksmbd_ntstatus_from_errno(ret);
	out_le64(op, st.ino);			/* ObjectId */
	out_le64(op, new_encode_dev(st.dev));
	out_le64(op, 0);			/* BirthVolumeId: unknown */
	out_le64(op, 0);
	out_le64(op, st.ino);			/* BirthObjectId */
	out_le64(op, new_encode_dev(st.dev));
	out_le64(op, 0);			/* DomainId: unused */
	out_le64(op, 0);
	return STATUS_SUCCESS;
}

static void copychunk_answer(struct ioctl_op *op, u32 chunks, u32 chunk_bytes,
			     u32 total)
{
	out_le32(op, chunks);
	out_le32(op, chunk_bytes);
	out_le32(op, total);
}

/* Every chunk within the limits; the sum of lengths in *total. */
static bool chunks_ok(const struct ksmbd_fsctl_copychunk *cc, u64 *total)
{
	struct ksmbd_copychunk_entry e;
	u32 i;

	*total = 0;
	for (i = 0; i < cc->count; i++) {
		ksmbd_fsctl_copychunk_entry(cc, i, &e);
		if (!e.length || e.length > COPYCHUNK_MAX_CHUNK ||
		    e.source_offset > LLONG_MAX - e.length ||
		    e.target_offset > LLONG_MAX - e.length)
			return false;
		*total += e.length;
	}
	return *total <= COPYCHUNK_MAX_TOTAL;
}

static int copy_one(struct ksmbd_file *src, struct ksmbd_file *dst,
		    loff_t soff, loff_t doff, u32 len, u32 *done)
{
	ssize_t n;

	*done = 0;
	while (*done < len) {
		n = ksmbd_vfs_copy_range(src, soff + *done, dst, doff + *done,
					 len - *done);
		if (n < 0)
			return n;
		if (!n)
			return -ENODATA;	/* source ended inside the chunk */
		*done += n;
	}
	return 0;
}

/*
 * What WRITE demands of the destination range (and READ of the source):
 * no other open's byte-range lock in the way, and other clients' read
 * caching of the destination broken. Checked for every chunk before the
 * first byte is copied, so a refused copy changes nothing.
 */
static u32 copy_checked(struct ksmbd_file *src, u64 soff,
			struct ksmbd_file *dst, u64 doff, u64 len)
{
	if (ksmbd_lock_check_io(src, soff, len, false) ||
	    ksmbd_lock_check_io(dst, doff, len, true))
		return STATUS_FILE_LOCK_CONFLICT;
	return STATUS_SUCCESS;
}

static u32 chunks_checked(struct ioctl_op *op, struct ksmbd_file *src,
			  const struct ksmbd_fsctl_copychunk *cc)
{
	struct ksmbd_copychunk_entry e;
	u32 i, st;

	for (i = 0; i < cc->count; i++) {
		ksmbd_fsctl_copychunk_entry(cc, i, &e);
		st = copy_checked(src, e.source_offset, op->fp, e.target_offset,
				  e.length);
		if (st != STATUS_SUCCESS)
			return st;
	}
	ksmbd_oplock_break_for_write(op->fp);
	return STATUS_SUCCESS;
}

static u32 copy_chunks(struct ioctl_op *op, struct ksmbd_file *src,
		       const struct ksmbd_fsctl_copychunk *cc)
{
	struct ksmbd_copychunk_entry e;
	u32 i, done = 0, total = 0;
	int ret = 0;
	u64 t0 = KSMBD_TP_CLOCK(ksmbd_vfs_copychunk);
	u32 st = chunks_checked(op, src, cc);

	if (st != STATUS_SUCCESS) {
		trace_ksmbd_vfs_copychunk(op->ctx->conn, src, op->fp, 0, 0,
					  -EAGAIN, ksmbd_tp_since(t0));
		copychunk_answer(op, 0, 0, 0);	/* nothing was copied */
		return st;
	}
	for (i = 0; i < cc->count; i++) {
		ksmbd_fsctl_copychunk_entry(cc, i, &e);
		ret = copy_one(src, op->fp, e.source_offset, e.target_offset,
			       e.length, &done);
		total += done;
		if (ret)
			break;
	}
	trace_ksmbd_vfs_copychunk(op->ctx->conn, src, op->fp, i, total, ret,
				  ksmbd_tp_since(t0));
	copychunk_answer(op, i, ret ? done : 0, total);
	/* MS-SMB2 3.3.5.15.6: a source range past the end of the file */
	if (ret == -ENODATA)
		return STATUS_INVALID_VIEW_SIZE;
	return ret ? ksmbd_ntstatus_from_errno(ret) : STATUS_SUCCESS;
}

static u32 copychunk(struct ioctl_op *op)
{
	struct ksmbd_fsctl_copychunk cc;
	struct ksmbd_file *src;
	u64 pid, vid, total;
	u32 status;

	if (op->rq->max_output_response < 12)
		return STATUS_INVALID_PARAMETER;
	if (ksmbd_fsctl_copychunk_decode(&op->rq->input, &cc))
		return STATUS_INVALID_PARAMETER;
	if (cc.count > COPYCHUNK_MAX_CHUNKS || !chunks_ok(&cc, &total)) {
		/* MS-SMB2 3.3.5.15.6: tell the client the limits. */
		copychunk_answer(op, COPYCHUNK_MAX_CHUNKS, COPYCHUNK_MAX_CHUNK,
				 COPYCHUNK_MAX_TOTAL);
		return STATUS_INVALID_PARAMETER;
	}
	if (!(op->fp->daccess & FILE_WRITE_DATA) ||
	    (op->rq->ctl_code == FSCTL_SRV_COPYCHUNK &&
	     !(op->fp->daccess & FILE_READ_DATA)) ||
	    !(op->fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
		return STATUS_ACCESS_DENIED;
	ksmbd_resume_key_ids(cc.source_key, &pid, &vid);
	src = ksmbd_file_lookup_session(ksmbd_smb2_caller(op->ctx), pid, vid);
	if (!src)
		return STATUS_OBJECT_NAME_NOT_FOUND;
	if (src->kind != KSMBD_FILE_REGULAR || !(src->daccess & FILE_READ_DATA))
		status = STATUS_ACCESS_DENIED;
	else
		status = copy_chunks(op, src, &cc);
	ksmbd_file_put(src);
	return status;
}

static u32 duplicate_extents(struct ioctl_op *op)
{
	struct ksmbd_fsctl_duplicate_extents d;
	u64 soff, doff, len;
	struct ksmbd_file *src;
	int ret;

	if (ksmbd_fsctl_duplicate_extents_decode(&op->rq->input, &d))
		return STATUS_INVALID_PARAMETER;
	soff = d.source_offset;
	doff = d.target_offset;
	len = d.byte_count;
	if (soff > LLONG_MAX || doff > LLONG_MAX || len > LLONG_MAX - soff ||
	    len > LLONG_MAX - doff)
		return STATUS_INVALID_PARAMETER;
	if (!(op->fp->daccess & FILE_WRITE_DATA) ||
	    !(op->fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
		return STATUS_ACCESS_DENIED;
	src = ksmbd_file_lookup(ksmbd_smb2_caller(op->ctx), d.source_pid,
				d.source_vid);
	if (!src)
		return STATUS_INVALID_HANDLE;
	if (src->kind != KSMBD_FILE_REGULAR || !(src->daccess & FILE_READ_DATA)) {
		ret = -EACCES;
	} else if (copy_checked(src, soff, op->fp, doff, len)) {
		ksmbd_file_put(src);
		return STATUS_FILE_LOCK_CONFLICT;
	} else {
		ksmbd_oplock_break_for_write(op->fp);
		ret = ksmbd_vfs_clone_range(src, soff, op->fp, doff, len);
	}
	ksmbd_file_put(src);
	if (ret == -EOPNOTSUPP || ret == -EXDEV || ret == -EINVAL)
		return STATUS_NOT_SUPPORTED;
	return ksmbd_ntstatus_from_errno(ret);
}

/* ---- Sparse files ---- */

/*
 * FILE_SET_SPARSE_BUFFER (MS-FSCC 2.3.64): SetSparse, or no buffer at all
 * for TRUE. Every Linux file may have holes; the attribute is recorded
 * for what clients are told (allocated ranges, FileAttributes).
 */
static u32 set_sparse(struct ioctl_op *op)
{
	const struct ksmbd_buf *in = &op->rq->input;
	bool sparse = !in->len || in->p[0];
	int ret;

	/* Changing the attribute needs write access (CVE-2026-52944). */
	if (!(op->fp->daccess & (FILE_WRITE_DATA | FILE_WRITE_ATTRIBUTES)) ||
	    !(op->fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
		return STATUS_ACCESS_DENIED;
	ret = ksmbd_fattr_set_sparse(op->fp, sparse);
	/*
	 * A share without DOS attributes (or xattrs) cannot record it and
	 * does not advertise FILE_SUPPORTS_SPARSE_FILES: its files take
	 * holes all the same and are reported as not sparse.
	 */
	if (ret == -EOPNOTSUPP)
		return STATUS_SUCCESS;
	return ksmbd_ntstatus_from_errno(ret);
}

/*
 * No file is ever compressed (MS-FSCC 2.3.12/2.3.67): GET answers
 * COMPRESSION_FORMAT_NONE, SET accepts only NONE, as Windows on a file
 * system without compression does.
 */
static u32 get_compression(struct ioctl_op *op)
{
	if (!out_room(op, 2))
		return STATUS_INVALID_PARAMETER;
	ksmbd_wbuf_put_le16(&op->ctx->body, 0);
	op->out_len += 2;
	return STATUS_SUCCESS;
}

static u32 set_compression(struct ioctl_op *op)
{
	u16 format;

	if (ksmbd_fsctl_set_compression_decode(&op->rq->input, &format))
		return STATUS_INVALID_PARAMETER;
	if (!(op->fp->daccess & (FILE_WRITE_DATA | FILE_WRITE_ATTRIBUTES)) ||
	    !(op->fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
		return STATUS_ACCESS_DENIED;
	return format ? STATUS_NOT_SUPPORTED : STATUS_SUCCESS;
}

static u32 set_zero_data(struct ioctl_op *op)
{
	struct ksmbd_fsctl_zero_data z;
	u64 off, end;
	int ret;

	if (ksmbd_fsctl_zero_data_decode(&op->rq->input, &z))
		return STATUS_INVALID_PARAMETER;
	off = z.offset;
	end = z.beyond_final_zero;
	if (off > end || end > LLONG_MAX)
		return STATUS_INVALID_PARAMETER;
	if (!(op->fp->daccess & FILE_WRITE_DATA) ||
	    !(op->fp->tree_flags & KSMBD_FILE_TREE_WRITABLE))
		return STATUS_ACCESS_DENIED;
	if (off == end)
		return STATUS_SUCCESS;
	/* Zeroing writes: WRITE's lock check and break. */
	if (ksmbd_lock_check_io(op->fp, off, end - off, true))
		return STATUS_FILE_LOCK_CONFLICT;
	ksmbd_oplock_break_for_write(op->fp);
	ret = ksmbd_vfs_fallocate(op->fp, FALLOC_FL_PUNCH_HOLE |
				  FALLOC_FL_KEEP_SIZE, off, end - off);
	return ksmbd_ntstatus_from_errno(ret);
}

static u32 out_range(struct ioctl_op *op, u64 off, u64 len)
{
	if (!out_room(op, 16))
		return STATUS_BUFFER_OVERFLOW;
	if (!out_reserve(op, 16))
		return STATUS_INSUFFICIENT_RESOURCES;
	out_le64(op, off);
	out_le64(op, len);
	return STATUS_SUCCESS;
}

/* The data ranges of [off, end) as SEEK_DATA/SEEK_HOLE find them. */
static u32 seek_ranges(struct ioctl_op *op, loff_t off, loff_t end)
{
	loff_t data, hole;
	u32 st;

	while (off < end) {
		data = ksmbd_vfs_seek(op->fp, off, SEEK_DATA);
		if (data == -ENXIO || (data >= 0 && data >= end))
			break;
		if (data < 0)
			return ksmbd_ntstatus_from_errno(data);
		hole = ksmbd_vfs_seek(op->fp, data, SEEK_HOLE);
		if (hole < 0)
			return ksmbd_ntstatus_from_errno(hole);
		hole = min(hole, end);
		st = out_range(op, data, hole - data);
		if (st != STATUS_SUCCESS)
			return st;
		off = hole;
	}
	return STATUS_SUCCESS;
}

/*
 * FSCTL_QUERY_ALLOCATED_RANGES (MS-FSCC 2.3.45), up to the end of file:
 * the holes of a file marked sparse, the whole range of any other (as
 * Windows and Samba answer: only a sparse file is said to have holes).
 */
static u32 allocated_ranges(struct ioctl_op *op)
{
	struct ksmbd_fsctl_range range;
	struct kstat st;
	u64 off, len, end;
	int ret;

	if (ksmbd_fsctl_allocated_ranges_decode(&op->rq->input, &range))
		return STATUS_INVALID_PARAMETER;
	off = range.offset;
	len = range.length;
	if (off > LLONG_MAX || len > LLONG_MAX - off)
		return STATUS_INVALID_PARAMETER;
	if (!(op->fp->daccess & FILE_READ_DATA))
		return STATUS_ACCESS_DENIED;
	ret = ksmbd_vfs_getattr(op->fp, &st);
	if (ret)
		return ksmbd_ntstatus_from_errno(ret);
	end = min_t(u64, off + len, st.size);
	if (off >= end)
		return STATUS_SUCCESS;	/* nothing before the end of file */
	if (op->rq->max_output_response < 16)
		return STATUS_BUFFER_TOO_SMALL;
	if (op->fp->stream || !ksmbd_fattr_is_sparse(op->fp))
		return out_range(op, off, end - off);
	return seek_ranges(op, off, end);
}

/* ---- Dispatch ---- */

static u32 file_fsctl(struct ioctl_op *op)
{
	bool regular = op->fp->kind == KSMBD_FILE_REGULAR;
	u32 max = op->rq->max_output_response;

	switch (op->rq->ctl_code) {
	case FSCTL_PIPE_TRANSCEIVE:
		if (op->fp->kind != KSMBD_FILE_PIPE)
			return STATUS_INVALID_DEVICE_REQUEST;
		return ksmbd_smb2_pipe_transceive(op->ctx, op->fp, &op->rq->input,
						  max, &op->out_len);
	case FSCTL_GET_REPARSE_POINT:
		return STATUS_NOT_A_REPARSE_POINT;
	case FSCTL_CREATE_OR_GET_OBJECT_ID:
		return op->fp->kind == KSMBD_FILE_PIPE ?
		       STATUS_INVALID_DEVICE_REQUEST : object_id(op);
	case FSCTL_SRV_REQUEST_RESUME_KEY:
		return regular ? resume_key(op) : STATUS_INVALID_DEVICE_REQUEST;
	case FSCTL_SRV_COPYCHUNK:
	case FSCTL_SRV_COPYCHUNK_WRITE:
		return regular ? copychunk(op) : STATUS_INVALID_DEVICE_REQUEST;
	case FSCTL_DUPLICATE_EXTENTS_TO_FILE:
		return regular ? duplicate_extents(op) :
				 STATUS_INVALID_DEVICE_REQUEST;
	case FSCTL_GET_COMPRESSION:
		return get_compression(op);
	case FSCTL_SET_COMPRESSION:
		return set_compression(op);
	case FSCTL_SET_SPARSE:
		return regular ? set_sparse(op) : STATUS_INVALID_PARAMETER;
	case FSCTL_SET_ZERO_DATA:
		return regular ? set_zero_data(op) : STATUS_INVALID_PARAMETER;
	case FSCTL_QUERY_ALLOCATED_RANGES:
		return regular ? allocated_ranges(op) : STATUS_INVALID_PARAMETER;
	default:
		return STATUS_NOT_SUPPORTED;
	}
}

static u32 run_fsctl(struct ioctl_op *op)
{
	u32 status;

	switch (op->rq->ctl_code) {
	case FSCTL_VALIDATE_NEGOTIATE_INFO:
		return validate_negotiate(op);
	case FSCTL_QUERY_NETWORK_INTERFACE_INFO:
		return ksmbd_smb2_netif_query(op->ctx, op->rq, &op->out_len);
	case FSCTL_DFS_GET_REFERRALS:
		return STATUS_NOT_SUPPORTED;
	}
	op->fp = ksmbd_file_lookup(ksmbd_smb2_caller(op->ctx), op->rq->pid,
				   op->rq->vid);
	if (!op->fp)
		return STATUS_FILE_CLOSED;
	status = file_fsctl(op);
	ksmbd_file_put(op->fp);
	return status;
}

/* Statuses that still carry an output buffer (MS-SMB2 3.3.4.4). */
/*
 * A copychunk answers its counts whatever the status once it has them
 * (3.3.5.15.6: the limits with INVALID_PARAMETER; the chunks written
 * before a failure otherwise, a lock conflict included, as Windows Server
 * 2012 and later do and clients parse).
 */
static bool keeps_output(const struct ioctl_op *op, u32 status)
{
	u32 code = op->rq->ctl_code;

	if (!ksmbd_ntstatus_is_error(status))
		return true;
	return (code == FSCTL_SRV_COPYCHUNK ||
		code == FSCTL_SRV_COPYCHUNK_WRITE) && op->out_len;
}

enum ksmbd_smb2_verdict ksmbd_smb2_ioctl(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_wbuf *w = &ctx->body;
	struct ksmbd_ioctl_req rq;
	struct ioctl_op op = { .ctx = ctx, .rq = &rq };

	if (ksmbd_ioctl_decode(ctx->req, &rq)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	if (rq.flags != SMB2_IOCTL_FLAG_IS_FSCTL) {
		ctx->status = STATUS_NOT_SUPPORTED;
		return KSMBD_SMB2_REPLY;
	}
	ksmbd_ioctl_rsp_encode(w, rq.ctl_code, rq.pid, rq.vid);
	ctx->status = run_fsctl(&op);
	if (ctx->status == STATUS_CONNECTION_DISCONNECTED &&
	    rq.ctl_code == FSCTL_VALIDATE_NEGOTIATE_INFO) {
		/* A downgrade attempt or a broken client: end the connection. */
		ctx->drop_reason = "validate negotiate mismatch";
		return KSMBD_SMB2_DROP;
	}
	if (w->overflow || !keeps_output(&op, ctx->status)) {
		w->len = 0;
		if (w->overflow)
			ctx->status = STATUS_INSUFFICIENT_RESOURCES;
		return KSMBD_SMB2_REPLY;
	}
	ksmbd_ioctl_rsp_set_output(w, op.out_len);
	return KSMBD_SMB2_REPLY;
}
