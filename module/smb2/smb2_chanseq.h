/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ChannelSequence (MS-SMB2 3.3.5.2.10) around the handler of a request
 * that names an open: WRITE, SET_INFO and a file's IOCTL, the requests
 * that modify it, and READ. A client that lost a channel resends them on
 * another with a higher ChannelSequence; one still arriving on the old
 * channel with the older number must not overwrite what the resent one
 * did. A READ with a newer number moves the open on as well (a WRITE
 * after it with the old one is refused); one with an older number reads.
 */
#ifndef KSMBD_SMB2_CHANSEQ_H
#define KSMBD_SMB2_CHANSEQ_H

#include <linux/types.h>

struct ksmbd_file;
struct ksmbd_smb2_ctx;

struct ksmbd_chan_ticket {
	struct ksmbd_file *fp;	/* counted in (a reference); NULL: nothing */
	u32 epoch;
};

/*
 * Before the handler: STATUS_SUCCESS (the request counted in on its open
 * when it has one), or STATUS_FILE_NOT_AVAILABLE to answer instead.
 */
u32 ksmbd_smb2_chan_seq_enter(struct ksmbd_smb2_ctx *ctx,
			      struct ksmbd_chan_ticket *t);
/* After it: counted out. */
void ksmbd_smb2_chan_seq_leave(struct ksmbd_chan_ticket *t);

#endif
