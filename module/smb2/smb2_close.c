// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CLOSE (MS-SMB2 3.3.5.10): unpublish the handle, answer its attributes
 * when asked (SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB); the last reference
 * closes the file (file.h).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/fs.h>
#include "fattr.h"
#include "file.h"
#include "proto/decode.h"
#include "proto/encode.h"
#include "smb2_dispatch.h"
#include "smb2_files.h"
#include "vfs.h"

static void encode_close(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
			 bool postquery)
{
	struct ksmbd_fattr a;
	struct kstat st;

	if (postquery && fp->filp && ksmbd_vfs_getattr(fp, &st))
		postquery = false;
	if (!postquery || !fp->filp) {
		ksmbd_close_rsp_encode(&ctx->body, NULL);
		return;
	}
	ksmbd_fattr_of_stat(fp, &st, &a);
	if (S_ISDIR(st.mode))
		a.allocation_size = a.end_of_file = 0;
	ksmbd_close_rsp_encode(&ctx->body, &a);
}

enum ksmbd_smb2_verdict ksmbd_smb2_close(struct ksmbd_smb2_ctx *ctx)
{
	struct ksmbd_close_req rq;
	struct ksmbd_file *fp;

	if (ksmbd_close_decode(ctx->req, &rq)) {
		ctx->status = STATUS_INVALID_PARAMETER;
		return KSMBD_SMB2_REPLY;
	}
	fp = ksmbd_file_unpublish(ksmbd_smb2_caller(ctx), rq.pid, rq.vid);
	if (!fp) {
		ctx->status = STATUS_FILE_CLOSED;
		return KSMBD_SMB2_REPLY;
	}
	encode_close(ctx, fp, rq.flags & SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB);
	/* The table's reference: the handle closes here unless still in use. */
	ksmbd_file_put(fp);
	ctx->status = STATUS_SUCCESS;
	return KSMBD_SMB2_REPLY;
}
