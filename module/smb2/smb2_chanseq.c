// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ChannelSequence checks (smb2_chanseq.h). Only 3.x requests carry one;
 * requests that name no open, or an open that does not exist, go on to
 * their handler, which answers them. The count covers the handler's run:
 * a request that goes async is counted out when its handler returns, not
 * when its final answer leaves.
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include "connection.h"
#include "file.h"
#include "proto/decode.h"
#include "smb2_chanseq.h"
#include "smb2_dispatch.h"

/*
 * The open a request names, for the requests that follow ChannelSequence:
 * the ones that modify it and READ; false for any other request.
 */
static bool names_open(const struct ksmbd_req *req, u64 *pid, u64 *vid,
		       bool *modify)
{
	struct ksmbd_write_req w;
	struct ksmbd_read_req r;
	struct ksmbd_set_info_req si;
	struct ksmbd_ioctl_req io;

	*modify = true;
	switch (req->hdr.command) {
	case SMB2_READ:
		if (ksmbd_read_decode(req, &r))
			return false;
		*pid = r.pid;
		*vid = r.vid;
		*modify = false;
		return true;
	case SMB2_WRITE:
		if (ksmbd_write_decode(req, &w))
			return false;
		*pid = w.pid;
		*vid = w.vid;
		return true;
	case SMB2_SET_INFO:
		if (ksmbd_set_info_decode(req, &si))
			return false;
		*pid = si.pid;
		*vid = si.vid;
		return true;
	case SMB2_IOCTL:
		if (ksmbd_ioctl_decode(req, &io) ||
		    io.flags != SMB2_IOCTL_FLAG_IS_FSCTL)
			return false;
		*pid = io.pid;
		*vid = io.vid;
		return true;
	default:
		return false;
	}
}

u32 ksmbd_smb2_chan_seq_enter(struct ksmbd_smb2_ctx *ctx,
			      struct ksmbd_chan_ticket *t)
{
	const struct ksmbd_req *req = ctx->req;
	struct ksmbd_file *fp;
	bool modify;
	u64 pid, vid;
	int ret;

	t->fp = NULL;
	if (ctx->conn->neg.dialect < SMB30_DIALECT || !ctx->tree ||
	    !names_open(req, &pid, &vid, &modify))
		return STATUS_SUCCESS;
	fp = ksmbd_file_lookup(ksmbd_smb2_caller(ctx), pid, vid);
	if (!fp)
		return STATUS_SUCCESS;
	ret = ksmbd_file_chan_seq_in(fp, req->hdr.channel_sequence,
				     req->hdr.flags & SMB2_FLAGS_REPLAY_OPERATION,
				     modify, &t->epoch);
	if (ret) {
		ksmbd_file_put(fp);
		return ret < 0 ? STATUS_FILE_NOT_AVAILABLE : STATUS_SUCCESS;
	}
	t->fp = fp;
	return STATUS_SUCCESS;
}

void ksmbd_smb2_chan_seq_leave(struct ksmbd_chan_ticket *t)
{
	if (!t->fp)
		return;
	ksmbd_file_chan_seq_out(t->fp, t->epoch);
	ksmbd_file_put(t->fp);
	t->fp = NULL;
}
