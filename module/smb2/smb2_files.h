/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the file command handlers (smb2_create.c, smb2_rw.c,
 * smb2_pipe.c, smb2_ioctl.c); the handlers themselves are declared in
 * smb2_dispatch.h.
 */
#ifndef KSMBD_SMB2_FILES_H
#define KSMBD_SMB2_FILES_H

#include <linux/stat.h>
#include "proto/buf.h"

struct ksmbd_smb2_ctx;
struct ksmbd_file;

/* smb2_pipe.c: named pipes on IPC$. Each returns the NT status. */
/* A published pipe handle (counted) for name, or NULL with *status set. */
struct ksmbd_file *ksmbd_smb2_pipe_open(struct ksmbd_smb2_ctx *ctx,
					const struct ksmbd_buf *name,
					u32 *status);
/* Appends up to max_out bytes of the pipe's answer to ctx->body. */
u32 ksmbd_smb2_pipe_read(struct ksmbd_smb2_ctx *ctx, struct ksmbd_file *fp,
			 u32 max_out, u32 *got);
u32 ksmbd_smb2_pipe_write(struct ksmbd_file *fp, const struct ksmbd_buf *data);
u32 ksmbd_smb2_pipe_transceive(struct ksmbd_smb2_ctx *ctx,
			       struct ksmbd_file *fp,
			       const struct ksmbd_buf *in, u32 max_out,
			       u32 *got);

/*
 * smb2_ioctl_netif.c: FSCTL_QUERY_NETWORK_INTERFACE_INFO, its entries
 * appended to ctx->body (*out_len bytes). Returns the NT status.
 */
struct ksmbd_ioctl_req;
u32 ksmbd_smb2_netif_query(struct ksmbd_smb2_ctx *ctx,
			   const struct ksmbd_ioctl_req *rq, u32 *out_len);

#endif
