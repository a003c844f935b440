// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Named pipes on IPC$: CREATE of srvsvc, wkssvc, lsarpc or samr opens an
 * RPC pipe in the daemon; READ, WRITE and FSCTL_PIPE_TRANSCEIVE move
 * DCE/RPC bytes through ksmbd_ipc_rpc_*(). The daemon's answers arrive
 * validated (payload at most what was asked for); the pipe is closed by
 * the handle's last put (file.c).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/slab.h>
#include "file.h"
#include "ipc.h"
#include "proto/ntstatus.h"
#include "proto/utf16.h"
#include "session.h"
#include "smb2_dispatch.h"
#include "smb2_files.h"
#include "vfs_name.h"

static const u32 service_flags[] = {
	[KSMBD_PIPE_SRVSVC] = KSMBD_RPC_SRVSVC_METHOD_INVOKE,
	[KSMBD_PIPE_WKSSVC] = KSMBD_RPC_WKSSVC_METHOD_INVOKE,
	[KSMBD_PIPE_LSARPC] = KSMBD_RPC_LSARPC_METHOD_INVOKE,
	[KSMBD_PIPE_SAMR] = KSMBD_RPC_SAMR_METHOD_INVOKE,
};

static u32 rpc_open(struct ksmbd_smb2_ctx *ctx, u32 id, u32 flags)
{
	struct ksmbd_rpc_command *r;
	u32 status;

	r = ksmbd_ipc_rpc_open(id, flags, ctx->sess->account);
	if (IS_ERR(r))
		return ksmbd_ntstatus_from_errno(PTR_ERR(r));
	status = ksmbd_ntstatus_from_errno(ksmbd_ipc_rpc_errno(r->flags));
	kvfree(r);
	return status;
}

struct ksmbd_file *ksmbd_smb2_pipe_open(struct ksmbd_smb2_ctx *ctx,
					const struct ksmbd_buf *name,
					u32 *status)
{
	struct ksmbd_file *fp;
	char pipe[64];
	u32 flags;
	int svc, id, ret;

	if (ksmbd_utf16_to_utf8(name->p, name->len, pipe, sizeof(pipe)) < 0 ||
	    (svc = ksmbd_name_pipe_service(pipe)) < 0) {
		*status = STATUS_OBJECT_NAME_NOT_FOUND;
		return NULL;
	}
	flags = service_flags[svc];
	if (ctx->sess->session_flags &
	    (SMB2_SESSION_FLAG_IS_GUEST | SMB2_SESSION_FLAG_IS_NULL))
		flags |= KSMBD_RPC_RESTRICTED_CONTEXT;

	/* Counted like a file, before the daemon is asked for anything. */
	fp = ksmbd_file_alloc(ksmbd_smb2_caller(ctx), KSMBD_FILE_PIPE);
	if (IS_ERR(fp)) {
		*status = PTR_ERR(fp) == -EMFILE ? STATUS_TOO_MANY_OPENED_FILES :
						   STATUS_INSUFFICIENT_RESOURCES;
		return NULL;
	}
	*status = STATUS_INSUFFICIENT_RESOURCES;
	fp->name = kstrdup(pipe, GFP_KERNEL);
	id = ksmbd_ipc_pipe_id_alloc();
	if (!fp->name || id < 0)
		goto err_put;
	*status = rpc_open(ctx, id, flags);
	if (*status != STATUS_SUCCESS) {
		ksmbd_ipc_pipe_id_free(id);
		goto err_put;
	}
	/* From here the last put closes the pipe and frees the id. */
	fp->pipe_id = id;
	fp->pipe_flags = flags;
	fp->daccess = ~0U;
	ksmbd_file_get(fp);
	ret = ksmbd_file_publish(fp);
	if (ret) {
		ksmbd_file_put(fp);
		/* Any other failure to enter the table is a full table. */
		if (ret != -KSMBD_ENETNAME_DELETED)
			ret = -EMFILE;
		*status = ksmbd_ntstatus_from_errno(ret);
		goto err_put;
	}
	*status = STATUS_SUCCESS;
	return fp;

err_put:
	ksmbd_file_put(fp);
	return NULL;
}

/* Copy an answer's payload to the response; the status of the exchange. */
static u32 take_answer(struct ksmbd_smb2_ctx *ctx, struct ksmbd_rpc_command *r,
		       u32 max_out, u32 *got)
{
	u32 status;

	*got = 0;
	if (IS_ERR(r))
		return ksmbd_ntstatus_from_errno(PTR_ERR(r));
	status = ksmbd_ntstatus_from_errno(ksmbd_ipc_rpc_errno(r->flags));
	if (status == STATUS_SUCCESS || status == STATUS_BUFFER_OVERFLOW) {
		/* ipc.c bounds payload_sz by max_out; check again, cheaply. */
		*got = min(r->payload_sz, max_out);
		/* Room for the answer now that its size is known. */
		if (ksmbd_smb2_body_room(ctx, ctx->body.len, *got))
			ksmbd_wbuf_put(&ctx->body, r->payload, *got);
		else
			status = STATUS_INSUFFICIENT_RESOURCES;
	}
	kvfree(r);
	return status;
}

u32 ksmbd_smb2_pipe_read(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
			 u32 max_out, u32 *got)
{
	max_out = min_t(u32, max_out, KSMBD_RPC_MAX_PAYLOAD);
	return take_answer(ctx, ksmbd_ipc_rpc_read(fp->pipe_id, fp->pipe_flags,
						   max_out),
			   max_out, got);
}

u32 ksmbd_smb2_pipe_write(struct ksmbd_file *fp, const struct ksmbd_buf *data)
{
	struct ksmbd_rpc_command *r;
	u32 status;

	if (data->len > KSMBD_RPC_MAX_PAYLOAD)
		return STATUS_INVALID_PARAMETER;
	r = ksmbd_ipc_rpc_write(fp->pipe_id, fp->pipe_flags, data->p, data->len);
	if (IS_ERR(r))
		return ksmbd_ntstatus_from_errno(PTR_ERR(r));
	status = ksmbd_ntstatus_from_errno(ksmbd_ipc_rpc_errno(r->flags));
	kvfree(r);
	return status;
}

u32 ksmbd_smb2_pipe_transceive(struct ksmbd_smb2_ctx *ctx,
			       struct ksmbd_file *fp,
			       const struct ksmbd_buf *in, u32 max_out,
			       u32 *got)
{
	if (in->len > KSMBD_RPC_MAX_PAYLOAD)
		return STATUS_INVALID_PARAMETER;
	max_out = min_t(u32, max_out, KSMBD_RPC_MAX_PAYLOAD);
	return take_answer(ctx, ksmbd_ipc_rpc_ioctl(fp->pipe_id, fp->pipe_flags,
						    in->p, in->len, max_out),
			   max_out, got);
}
