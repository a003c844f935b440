// SPDX-License-Identifier: GPL-2.0
/*
 * Named-pipe endpoints: byte stream in, DCE/RPC PDUs out.
 *
 * Writes may split or merge PDUs arbitrarily (SMB WRITE and IOCTL sizes are
 * the client's choice), so input is buffered until a whole fragment, as
 * announced by its frag_length, is present.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "dcerpc.h"
#include "rpc_internal.h"
#include "rpc_pipe.h"

/* Unread responses a client may leave queued before we refuse input. */
#define RPC_PIPE_MAX_QUEUED	(4u << 20)

struct rpc_pipe {
	const struct rpc_backend *be;
	char user[RPC_NAME_LEN];
	struct dcerpc_assoc assoc;
	struct rpc_handle_table handles;
	struct ndr_enc in;	/* partial fragment */
	struct ndr_enc out;	/* queued response PDUs */
	size_t out_off;		/* bytes of @out already read */
};

struct pipe_kind {
	const char *name;
	const char *endpoint;
	const struct rpc_iface *const *ifaces;
};

static const struct rpc_iface *const srvsvc_ifaces[] = {
	&rpc_srvsvc_iface, NULL
};
static const struct rpc_iface *const wkssvc_ifaces[] = {
	&rpc_wkssvc_iface, NULL
};
/* lsarpc and samr share one process (lsass) on Windows, and one pipe. */
static const struct rpc_iface *const lsass_ifaces[] = {
	&rpc_lsarpc_iface, &rpc_samr_iface, NULL
};

static const struct pipe_kind pipe_kinds[] = {
	{ "srvsvc", "\\PIPE\\srvsvc", srvsvc_ifaces },
	{ "wkssvc", "\\PIPE\\wkssvc", wkssvc_ifaces },
	{ "lsarpc", "\\PIPE\\lsass", lsass_ifaces },
	{ "samr", "\\PIPE\\lsass", lsass_ifaces },
};

static const char *strip_pipe_prefix(const char *name)
{
	while (*name == '\\' || *name == '/')
		name++;
	if (!strncasecmp(name, "pipe", 4) &&
	    (name[4] == '\\' || name[4] == '/')) {
		name += 4;
		while (*name == '\\' || *name == '/')
			name++;
	}
	return name;
}

static uint32_t pipe_dispatch(void *arg, const struct rpc_iface *iface,
			      uint16_t opnum, const uint8_t *stub, size_t len,
			      struct ndr_enc *out)
{
	struct rpc_pipe *p = arg;
	struct rpc_call c;
	unsigned int i;
	uint32_t status;

	for (i = 0; i < iface->n_ops; i++)
		if (iface->ops[i].opnum == opnum)
			break;
	if (i == iface->n_ops)
		return NCA_S_OP_RNG_ERROR;
	memset(&c, 0, sizeof(c));
	c.handles = &p->handles;
	c.be = p->be;
	c.user = p->user;
	c.out = out;
	ndr_dec_init(&c.in, stub, len);
	status = iface->ops[i].fn(&c);
	/* A handler that forgot to check its decoder still must not answer. */
	if (!status && c.in.err)
		status = NCA_S_FAULT_NDR;
	return status;
}

struct rpc_pipe *rpc_pipe_open(const char *pipe_name,
			       const struct rpc_backend *be, const char *user)
{
	const struct pipe_kind *kind = NULL;
	struct rpc_pipe *p;
	uint32_t group = 0;
	const char *name;
	unsigned int i;

	if (!pipe_name || !be) {
		errno = EINVAL;
		return NULL;
	}
	name = strip_pipe_prefix(pipe_name);
	for (i = 0; i < sizeof(pipe_kinds) / sizeof(pipe_kinds[0]); i++)
		if (!strcasecmp(name, pipe_kinds[i].name))
			kind = &pipe_kinds[i];
	if (!kind) {
		errno = ENOENT;
		return NULL;
	}
	if (user && strlen(user) >= RPC_NAME_LEN) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->be = be;
	if (user)
		strcpy(p->user, user);
	if (getrandom(&group, sizeof(group), GRND_NONBLOCK) != sizeof(group))
		group = (uint32_t)(uintptr_t)p;
	group = (group & 0xffff) | 0x10000;
	dcerpc_assoc_init(&p->assoc, kind->ifaces, kind->endpoint, group,
			  pipe_dispatch, p);
	ndr_enc_init(&p->in);
	ndr_enc_init(&p->out);
	return p;
}

void rpc_pipe_close(struct rpc_pipe *p)
{
	if (!p)
		return;
	dcerpc_assoc_release(&p->assoc);
	ndr_enc_free(&p->in);
	ndr_enc_free(&p->out);
	free(p);
}

size_t rpc_pipe_pending(const struct rpc_pipe *p)
{
	return p->out.len - p->out_off;
}

/* Drop bytes consumed from the front of @e. */
static void enc_consume(struct ndr_enc *e, size_t n)
{
	memmove(e->data, e->data + n, e->len - n);
	e->len -= n;
}

static int process_input(struct rpc_pipe *p)
{
	struct dcerpc_hdr h;
	size_t off = 0;
	int err = 0;

	while (p->in.len - off >= DCERPC_HDR_LEN) {
		dcerpc_hdr_parse(p->in.data + off, p->in.len - off, &h);
		if (h.frag_len < DCERPC_HDR_LEN) {
			/* Framing is lost: answer once and discard it all. */
			dcerpc_put_fault(&p->out, h.call_id, 0,
					 NCA_S_PROTO_ERROR);
			off = p->in.len;
			err = p->out.err;
			break;
		}
		if (p->in.len - off < h.frag_len)
			break;
		err = dcerpc_assoc_process(&p->assoc, p->in.data + off,
					   h.frag_len, &p->out);
		off += h.frag_len;
		if (err)
			break;
	}
	if (off)
		enc_consume(&p->in, off);
	return err;
}

int rpc_pipe_write(struct rpc_pipe *p, const uint8_t *buf, size_t len)
{
	int err;

	if (!p || (!buf && len))
		return -EINVAL;
	if (rpc_pipe_pending(p) > RPC_PIPE_MAX_QUEUED)
		return -ENOSPC;
	/* A fragment is at most 64 KiB; more than that is whole PDUs. */
	ndr_put_bytes(&p->in, buf, len);
	if (p->in.err) {
		err = p->in.err;
		ndr_enc_free(&p->in);
		ndr_enc_init(&p->in);
		return err == -E2BIG ? -ENOSPC : err;
	}
	err = process_input(p);
	if (err) {
		/* The output stream is in an unknown state: start over. */
		ndr_enc_free(&p->out);
		ndr_enc_init(&p->out);
		p->out_off = 0;
	}
	return err;
}

int rpc_pipe_read(struct rpc_pipe *p, uint8_t *buf, size_t max,
		  size_t *out_len, bool *more)
{
	size_t n;

	if (!p || !out_len || (!buf && max))
		return -EINVAL;
	n = rpc_pipe_pending(p);
	if (n > max)
		n = max;
	if (n)
		memcpy(buf, p->out.data + p->out_off, n);
	p->out_off += n;
	*out_len = n;
	if (more)
		*more = rpc_pipe_pending(p) > 0;
	if (p->out_off == p->out.len) {
		p->out.len = 0;
		p->out_off = 0;
	}
	return 0;
}

int rpc_pipe_transact(struct rpc_pipe *p, const uint8_t *in, size_t in_len,
		      uint8_t *out, size_t max, size_t *out_len, bool *more)
{
	int err = rpc_pipe_write(p, in, in_len);

	if (err)
		return err;
	return rpc_pipe_read(p, out, max, out_len, more);
}
