/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a command handler looks like to the dispatch table. Handler headers
 * (smb2_info.h) include this and not smb2_dispatch.h, so that declaring a
 * handler does not pull in the dispatcher's includes.
 */
#ifndef KSMBD_SMB2_HANDLER_H
#define KSMBD_SMB2_HANDLER_H

struct ksmbd_smb2_ctx;

/* What a handler wants done with its element. */
enum ksmbd_smb2_verdict {
	KSMBD_SMB2_REPLY,	/* status + body in the context */
	KSMBD_SMB2_NO_REPLY,	/* e.g. CANCEL */
	KSMBD_SMB2_DROP,	/* protocol violation: close the connection */
};

typedef enum ksmbd_smb2_verdict (*ksmbd_smb2_handler_t)(struct ksmbd_smb2_ctx *ctx);

#endif
