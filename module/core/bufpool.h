/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Request buffers (bufpool.c): below every layer that receives, answers or
 * works on a request.
 */
#ifndef KSMBD_BUFPOOL_H
#define KSMBD_BUFPOOL_H

#include <linux/types.h>

/*
 * What a connection's largest frame may exceed its largest negotiated
 * read/write/transact size by (headers, compound elements).
 */
#define KSMBD_FRAME_HEADROOM		(64 << 10)

int ksmbd_bufpool_init(void);
void ksmbd_bufpool_exit(void);

/* A received frame's buffer; large ones are reused (bufpool.c). */
u8 *ksmbd_rx_buf_alloc(u32 len);
void ksmbd_rx_buf_free(void *buf, u32 len);
size_t ksmbd_rx_pool_bytes(void);	/* idle, kept for reuse */

/* Frame buffers are counted in KSMBD_LIVE_BUFFERS wherever they are made. */
u8 *ksmbd_work_buf_alloc(u32 len);
void ksmbd_work_buf_free(void *buf);

/*
 * A frame's response buffer (smb2_dispatch.c): those up to
 * KSMBD_RSP_CACHED_SIZE are reused unzeroed (bufpool.c says what that asks of
 * the writers); free with the length it was allocated with.
 */
#define KSMBD_RSP_CACHED_SIZE	(16 << 10)
u8 *ksmbd_rsp_buf_alloc(u32 len);
void ksmbd_rsp_buf_free(void *buf, u32 len);

/* A request's path scratch buffer: KSMBD_SCRATCH_SIZE bytes, not zeroed. */
#define KSMBD_SCRATCH_SIZE	(8 << 10)
char *ksmbd_scratch_alloc(void);
void ksmbd_scratch_free(char *p);

#endif
