/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB2 request dispatch: classify the frame, walk the compound, put each
 * element through the validation gate, run its handler from the command
 * table and chain the responses into one bounded response buffer.
 */
#ifndef KSMBD_SMB2_DISPATCH_H
#define KSMBD_SMB2_DISPATCH_H

#include "proto/buf.h"
#include "proto/validate.h"

struct ksmbd_conn;
struct ksmbd_work;

/* What a handler wants done with its element. */
enum ksmbd_smb2_verdict {
	KSMBD_SMB2_REPLY,	/* status + body in the context */
	KSMBD_SMB2_NO_REPLY,	/* e.g. CANCEL */
	KSMBD_SMB2_DROP,	/* protocol violation: close the connection */
};

struct ksmbd_smb2_ctx {
	struct ksmbd_conn *conn;
	struct ksmbd_work *work;
	const struct ksmbd_req *req;	/* validated by the gate */
	/*
	 * The body goes here; cap already leaves room for the rest of the
	 * compound. Overflow turns into an error response, never a write
	 * past the buffer.
	 */
	struct ksmbd_wbuf body;
	u32 status;			/* NT status for the header */
	const char *drop_reason;	/* with KSMBD_SMB2_DROP */
	/* Called once the element's response (header + body) is final. */
	void (*finish)(struct ksmbd_smb2_ctx *ctx, const u8 *rsp, u32 len);
	u16 dialect;			/* for finish: what NEGOTIATE chose */
};

typedef enum ksmbd_smb2_verdict (*ksmbd_smb2_handler_t)(struct ksmbd_smb2_ctx *ctx);

/* Runs in the work item: everything for one received frame. */
void ksmbd_smb2_process(struct ksmbd_work *work);

/* An SMB2 response header answering rq. */
void ksmbd_smb2_put_hdr(u8 *rsp, const struct ksmbd_req_hdr *rq, u32 status,
			u16 credits);

/* smb2_negotiate.c */
int ksmbd_smb2_negotiate_init(void);
enum ksmbd_smb2_verdict ksmbd_smb2_negotiate(struct ksmbd_smb2_ctx *ctx);
enum ksmbd_smb2_verdict ksmbd_smb2_echo(struct ksmbd_smb2_ctx *ctx);
/* An SMB1 NEGOTIATE frame: answer with the SMB2 wildcard, or drop. */
void ksmbd_smb1_negotiate(struct ksmbd_work *work);

#endif
