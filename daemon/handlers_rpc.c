// SPDX-License-Identifier: GPL-2.0
/*
 * Named pipes: the kernel's pipe ids mapped to open RPC pipes
 * (daemon/rpc/rpc_pipe.h). The table is bounded so that a client opening
 * pipes without closing them runs out of pipes, not the daemon of memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "handlers_int.h"
#include "rpc/rpc_pipe.h"
#include "../module/uapi/ksmbd_netlink.h"

/* Operation bits without the shared RETURN bit, so each test is exact. */
#define OP_IOCTL	(KSMBD_RPC_IOCTL_METHOD & ~KSMBD_RPC_METHOD_RETURN)
#define OP_READ		(KSMBD_RPC_READ_METHOD & ~KSMBD_RPC_METHOD_RETURN)
#define OP_RAP		(KSMBD_RPC_RAP_METHOD & ~KSMBD_RPC_METHOD_RETURN)

static const char *service_name(uint32_t flags)
{
	if (flags & KSMBD_RPC_SAMR_METHOD_INVOKE)
		return "samr";
	if (flags & KSMBD_RPC_LSARPC_METHOD_INVOKE)
		return "lsarpc";
	if (flags & KSMBD_RPC_SRVSVC_METHOD_INVOKE)
		return "srvsvc";
	if (flags & KSMBD_RPC_WKSSVC_METHOD_INVOKE)
		return "wkssvc";
	return NULL;
}

static struct mountd_pipe *pipe_find(struct mountd_state *st, uint32_t id)
{
	size_t i;

	for (i = 0; i < st->npipes; i++)
		if (st->pipes[i].id == id)
			return &st->pipes[i];
	return NULL;
}

static void pipe_remove(struct mountd_state *st, struct mountd_pipe *p)
{
	rpc_pipe_close(p->pipe);
	*p = st->pipes[--st->npipes];
}

void mountd_pipes_close_all(struct mountd_state *st)
{
	while (st->npipes)
		pipe_remove(st, &st->pipes[st->npipes - 1]);
}

static uint32_t errno_status(int err)
{
	switch (err) {
	case 0:
		return KSMBD_RPC_OK;
	case -ENOMEM:
		return KSMBD_RPC_ENOMEM;
	case -ENOENT:
		return KSMBD_RPC_EBAD_FUNC;
	case -ENOSPC:
		return KSMBD_RPC_EBAD_DATA;
	default:
		return KSMBD_RPC_EINVALID_PARAMETER;
	}
}

static uint32_t rpc_open(struct mountd_state *st,
			 const struct ksmbd_rpc_command *req, const uint8_t *in)
{
	const char *service = service_name(req->flags);
	const char *user = "";
	struct rpc_pipe *p;

	if (!service)
		return KSMBD_RPC_EBAD_FUNC;
	/* The account name, if any, must be one string filling the payload. */
	if (req->payload_sz) {
		if (req->payload_sz > KSMBD_REQ_MAX_ACCOUNT_NAME_SZ ||
		    memchr(in, '\0', req->payload_sz) !=
		    (const void *)(in + req->payload_sz - 1))
			return KSMBD_RPC_EINVALID_PARAMETER;
		user = (const char *)in;
	}
	if (pipe_find(st, req->pipe_id))
		return KSMBD_RPC_EBAD_FID;
	if (st->npipes == MOUNTD_MAX_PIPES) {
		mountd_log(LOG_WARNING, "pipe %u refused: %d pipes open",
			   req->pipe_id, MOUNTD_MAX_PIPES);
		return KSMBD_RPC_ENOMEM;
	}
	p = rpc_pipe_open(service, &st->rpc, user);
	if (!p)
		return errno_status(-errno);
	st->pipes[st->npipes].id = req->pipe_id;
	st->pipes[st->npipes].pipe = p;
	st->npipes++;
	mountd_log(LOG_DEBUG, "pipe %u: %s opened for '%s'", req->pipe_id,
		   service, user);
	return KSMBD_RPC_OK;
}

/* Runs one operation; *@out_len bytes of @out (max req->max_out) answer it. */
static uint32_t rpc_run(struct mountd_state *st,
			const struct ksmbd_rpc_command *req, const uint8_t *in,
			uint8_t *out, size_t *out_len)
{
	struct mountd_pipe *mp;
	bool more = false;
	int ret;

	*out_len = 0;
	if (req->flags & KSMBD_RPC_OPEN_METHOD)
		return rpc_open(st, req, in);
	mp = pipe_find(st, req->pipe_id);
	if (!mp)
		return KSMBD_RPC_EBAD_FID;
	if (req->flags & KSMBD_RPC_CLOSE_METHOD) {
		pipe_remove(st, mp);
		return KSMBD_RPC_OK;
	}
	if (req->flags & OP_RAP)
		return KSMBD_RPC_ENOTIMPLEMENTED;
	if (req->flags & OP_READ)
		ret = rpc_pipe_read(mp->pipe, out, req->max_out, out_len, &more);
	else if (req->flags & KSMBD_RPC_WRITE_METHOD)
		ret = rpc_pipe_write(mp->pipe, in, req->payload_sz);
	else if (req->flags & OP_IOCTL)
		ret = rpc_pipe_transact(mp->pipe, in, req->payload_sz, out,
					req->max_out, out_len, &more);
	else
		return KSMBD_RPC_EBAD_FUNC;
	if (ret) {
		*out_len = 0;
		return errno_status(ret);
	}
	return more ? KSMBD_RPC_EMORE_DATA : KSMBD_RPC_OK;
}

int mountd_handle_rpc(struct mountd_state *st, const void *data, size_t len,
		      struct mountd_reply *reply)
{
	struct ksmbd_rpc_command req, *r;
	size_t out_len;

	if (len < sizeof(req))
		return mountd_drop(KSMBD_EVENT_RPC_REQUEST, len, "size");
	memcpy(&req, data, sizeof(req));
	if (req.payload_sz > KSMBD_RPC_MAX_PAYLOAD ||
	    req.max_out > KSMBD_RPC_MAX_PAYLOAD ||
	    len != sizeof(req) + req.payload_sz)
		return mountd_drop(KSMBD_EVENT_RPC_REQUEST, len, "payload size");
	r = mountd_reply_alloc(reply, KSMBD_EVENT_RPC_RESPONSE,
			       sizeof(*r) + req.max_out);
	if (!r)
		return -ENOMEM;
	r->handle = req.handle;
	r->pipe_id = req.pipe_id;
	r->flags = rpc_run(st, &req, (const uint8_t *)data + sizeof(req),
			   r->payload, &out_len);
	/* Never more than the kernel allowed, whatever the pipe said. */
	if (out_len > req.max_out)
		out_len = req.max_out;
	r->payload_sz = out_len;
	reply->len = sizeof(*r) + out_len;
	return 0;
}
