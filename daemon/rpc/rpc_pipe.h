/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Named-pipe RPC endpoints ("\PIPE\srvsvc" and friends) as the netlink
 * layer sees them: open a pipe, write the bytes the client wrote, read back
 * what the server answers. One struct rpc_pipe per open pipe handle; it is
 * not thread-safe, so one worker at a time may use a given pipe.
 */
#ifndef KSMBD_RPC_PIPE_H
#define KSMBD_RPC_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rpc_backend.h"

struct rpc_pipe;

/*
 * @pipe_name: "srvsvc", "wkssvc", "lsarpc" or "samr", case-insensitive,
 * with or without a leading "\PIPE\" (or "\\PIPE\\" ... any backslashes).
 * @be must outlive the pipe; @user is copied. Returns NULL and sets errno
 * (ENOENT unknown pipe, EINVAL bad argument, ENOMEM).
 */
struct rpc_pipe *rpc_pipe_open(const char *pipe_name,
			       const struct rpc_backend *be, const char *user);

/*
 * The client wrote @len bytes: a PDU, part of one, or several. Complete
 * PDUs are processed at once and their responses queued. Returns 0, or
 * -EINVAL (bad arguments), -ENOMEM, -ENOSPC (the client let too many
 * response bytes pile up unread). Malformed PDUs are answered with faults.
 */
int rpc_pipe_write(struct rpc_pipe *p, const uint8_t *buf, size_t len);

/*
 * Copy up to @max queued response bytes to @buf. *@more is true when bytes
 * remain after this read (STATUS_BUFFER_OVERFLOW on the wire). Reading an
 * empty queue gives *@out_len 0 and returns 0.
 */
int rpc_pipe_read(struct rpc_pipe *p, uint8_t *buf, size_t max,
		  size_t *out_len, bool *more);

/* FSCTL_PIPE_TRANSCEIVE: a write followed by a read. */
int rpc_pipe_transact(struct rpc_pipe *p, const uint8_t *in, size_t in_len,
		      uint8_t *out, size_t max, size_t *out_len, bool *more);

/* Queued response bytes not read yet. */
size_t rpc_pipe_pending(const struct rpc_pipe *p);

void rpc_pipe_close(struct rpc_pipe *p);

#endif
