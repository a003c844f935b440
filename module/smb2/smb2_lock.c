// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LOCK (MS-SMB2 3.3.5.14): decode the elements the gate bounded, apply
 * them through lock.c, answer; a single blocking lock may go async.
 *
 * Rules (3.3.5.14.1, .2, and what smbtorture's smb2.lock expects):
 *  - the first element decides: UNLOCK means every element must be a plain
 *    UNLOCK, processed in order, stopping at the first failure without
 *    rolling back (STATUS_RANGE_NOT_LOCKED);
 *  - otherwise each element is SHARED or EXCLUSIVE, optionally with
 *    FAIL_IMMEDIATELY, which every element of a multi-element request must
 *    carry; the locks are taken all or none (STATUS_LOCK_NOT_GRANTED);
 *  - any other flag combination is STATUS_INVALID_PARAMETER, a range whose
 *    last byte passes 2^64 - 1 STATUS_INVALID_LOCK_RANGE;
 *  - a handle granted neither FILE_READ_DATA nor FILE_WRITE_DATA locks
 *    and unlocks nothing: STATUS_ACCESS_DENIED, as Windows' NtLockFile
 *    and NtUnlockFile answer before the file system sees the request.
 *    Anyone who can see a file may open it for its attributes, and share
 *    modes ignore such opens: without this, one could lock everyone
 *    else out of the whole file, and keep it locked through a durable
 *    reconnect.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/slab.h>
#include "async.h"
#include "create_rules.h"
#include "durable.h"
#include "file.h"
#include "lock.h"
#include "oplock.h"
#include "proto/decode.h"
#include "smb2_dispatch.h"

/* Elements one request may carry; Windows' own limit is far lower. */
#define KSMBD_LOCK_MAX_ELEMENTS	1024

#define LOCK_KIND_MASK	(SMB2_LOCKFLAG_SHARED_LOCK | \
			 SMB2_LOCKFLAG_EXCLUSIVE_LOCK | SMB2_LOCKFLAG_UNLOCK)

static u32 do_unlocks(struct ksmbd_file *fp, const struct ksmbd_lock_req *lk)
{
	struct ksmbd_lock_elem e;
	u32 i;
	int ret;

	for (i = 0; i < lk->count; i++) {
		ksmbd_lock_elem(lk, i, &e);
		if (e.flags != SMB2_LOCKFLAG_UNLOCK)
			return STATUS_INVALID_PARAMETER;
		ret = ksmbd_lock_release(fp, e.offset, e.length);
		if (ret)
			return ksmbd_ntstatus_from_errno(ret);
	}
	return STATUS_SUCCESS;
}

/* Decode and check every lock element; STATUS_SUCCESS with r[] filled. */
static u32 decode_locks(const struct ksmbd_lock_req *lk,
			struct ksmbd_lock_range *r, bool *wait)
{
	u32 i, kind, count = lk->count;
	struct ksmbd_lock_elem e;

	*wait = false;
	for (i = 0; i < count; i++) {
		ksmbd_lock_elem(lk, i, &e);
		if (e.flags & ~(LOCK_KIND_MASK | SMB2_LOCKFLAG_FAIL_IMMEDIATELY))
			return STATUS_INVALID_PARAMETER;
		kind = e.flags & LOCK_KIND_MASK;
		if (kind != SMB2_LOCKFLAG_SHARED_LOCK &&
		    kind != SMB2_LOCKFLAG_EXCLUSIVE_LOCK)
			return STATUS_INVALID_PARAMETER;
		if (!(e.flags & SMB2_LOCKFLAG_FAIL_IMMEDIATELY)) {
			if (count > 1)
				return STATUS_INVALID_PARAMETER;
			*wait = true;
		}
	}
	for (i = 0; i < count; i++) {
		ksmbd_lock_elem(lk, i, &e);
		if (!ksmbd_lock_range_valid(e.offset, e.length))
			return STATUS_INVALID_LOCK_RANGE;
		r[i].off = e.offset;
		r[i].len = e.length;
		r[i].excl = e.flags & SMB2_LOCKFLAG_EXCLUSIVE_LOCK;
	}
	return STATUS_SUCCESS;
}

static u32 do_locks(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
		    const struct ksmbd_lock_req *lk)
{
	u32 count = lk->count;
	struct ksmbd_lock_range *r;
	struct ksmbd_async *a = NULL;
	bool wait;
	u32 st;
	int ret;

	r = kmalloc_array(count, sizeof(*r), GFP_KERNEL);
	if (!r)
		return STATUS_INSUFFICIENT_RESOURCES;
	st = decode_locks(lk, r, &wait);
	if (st != STATUS_SUCCESS)
		goto out_free;
	/* Other handles' read caching cannot survive a byte-range lock. */
	ksmbd_oplock_break_for_write(fp);
	if (!wait) {
		ret = ksmbd_lock_acquire(fp, r, count);
		st = ksmbd_ntstatus_from_errno(ret);
		goto out_free;
	}
	ret = ksmbd_lock_acquire_wait(ksmbd_smb2_caller(ctx), fp, r, &a);
	if (ret == -EINPROGRESS) {
		ctx->async = a;
		st = STATUS_PENDING;
	} else {
		st = ksmbd_ntstatus_from_errno(ret);
	}
out_free:
	kfree(r);
	return st;
}

enum ksmbd_smb2_verdict ksmbd_smb2_lock(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_lock_elem first;
	struct ksmbd_lock_req lk;
	struct ksmbd_file *fp;

	if (ksmbd_lock_decode(ctx->req, &lk) ||
	    lk.count > KSMBD_LOCK_MAX_ELEMENTS) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	fp = ksmbd_file_lookup(ksmbd_smb2_caller(ctx), lk.pid, lk.vid);
	if (!fp) {
		ctx->status = STATUS_FILE_CLOSED;
		return KSMBD_SMB2_REPLY;
	}
	ksmbd_lock_elem(&lk, 0, &first);
	if (fp->kind == KSMBD_FILE_PIPE)
		ctx->status = STATUS_INVALID_DEVICE_REQUEST;
	else if (!(fp->daccess & (FILE_READ_DATA | FILE_WRITE_DATA)))
		ctx->status = STATUS_ACCESS_DENIED;
	else if (ksmbd_durable_lock_replayed(ksmbd_smb2_caller(ctx), fp,
					     lk.sequence))
		ctx->status = STATUS_SUCCESS;	/* done before: not again */
	else if (fp->kind == KSMBD_FILE_DIRECTORY)
		ctx->status = STATUS_INVALID_PARAMETER;
	else if (first.flags & SMB2_LOCKFLAG_UNLOCK)
		ctx->status = do_unlocks(fp, &lk);
	else
		ctx->status = do_locks(ctx, fp, &lk);
	if (ctx->status == STATUS_SUCCESS)
		ksmbd_durable_lock_done(ksmbd_smb2_caller(ctx), fp,
					lk.sequence);
	ksmbd_file_put(fp);
	if (ctx->status != STATUS_SUCCESS)
		return KSMBD_SMB2_REPLY;
	ksmbd_wbuf_put_le16(&ctx->body, SMB2_SIMPLE_SIZE);
	ksmbd_wbuf_put_le16(&ctx->body, 0);
	return KSMBD_SMB2_REPLY;
}
