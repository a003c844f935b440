// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpc_client.h"

/* What the last cli_open() bound, to rebuild it for corpus seeds. */
struct seed_bind {
	const char *pipe;
	const char *uuid;
	uint16_t maj, min;
};

static void put_syntax(struct ndr_enc *e, const char *uuid, uint16_t maj,
		       uint16_t min)
{
	uint8_t u[16];

	dcerpc_uuid_parse(uuid, u);
	ndr_put_bytes(e, u, 16);
	ndr_put_u16(e, maj);
	ndr_put_u16(e, min);
}

static void put_hdr(struct ndr_enc *e, uint8_t ptype, uint8_t flags,
		    uint32_t call_id)
{
	ndr_put_u8(e, 5);
	ndr_put_u8(e, 0);
	ndr_put_u8(e, ptype);
	ndr_put_u8(e, flags);
	ndr_put_u32(e, 0x10);
	ndr_put_u16(e, 0);
	ndr_put_u16(e, 0);
	ndr_put_u32(e, call_id);
}

static void fix_len(struct ndr_enc *e, size_t start)
{
	size_t n = e->len - start;

	if (e->err)
		return;
	e->data[start + 8] = n & 0xff;
	e->data[start + 9] = (n >> 8) & 0xff;
}

void cli_put_bind(struct ndr_enc *e, uint8_t ptype, uint32_t call_id,
		  uint16_t max_xmit, uint16_t max_recv,
		  const struct cli_ctx *ctx, unsigned int n)
{
	size_t start = e->len;
	unsigned int i;

	put_hdr(e, ptype, DCERPC_PFC_FIRST_FRAG | DCERPC_PFC_LAST_FRAG,
		call_id);
	ndr_put_u16(e, max_xmit);
	ndr_put_u16(e, max_recv);
	ndr_put_u32(e, 0);
	ndr_put_u8(e, n);
	ndr_put_u8(e, 0);
	ndr_put_u16(e, 0);
	for (i = 0; i < n; i++) {
		ndr_put_u16(e, ctx[i].id);
		ndr_put_u8(e, 1);
		ndr_put_u8(e, 0);
		put_syntax(e, ctx[i].abs_uuid, ctx[i].abs_major,
			   ctx[i].abs_minor);
		put_syntax(e, ctx[i].ts_uuid, ctx[i].ts_major, 0);
	}
	fix_len(e, start);
}

void cli_put_request(struct ndr_enc *e, uint8_t flags, uint32_t call_id,
		     uint16_t ctx_id, uint16_t opnum, const uint8_t *stub,
		     size_t len)
{
	size_t start = e->len;

	put_hdr(e, DCERPC_REQUEST, flags, call_id);
	ndr_put_u32(e, (uint32_t)len);
	ndr_put_u16(e, ctx_id);
	ndr_put_u16(e, opnum);
	ndr_put_bytes(e, stub, len);
	fix_len(e, start);
}

bool cli_next_pdu(const uint8_t *buf, size_t len, size_t *off,
		  struct cli_pdu *p)
{
	if (*off >= len || dcerpc_hdr_parse(buf + *off, len - *off, &p->h))
		return false;
	if (p->h.frag_len < DCERPC_HDR_LEN || p->h.frag_len > len - *off)
		return false;
	p->data = buf + *off;
	*off += p->h.frag_len;
	return true;
}

uint8_t *cli_read_all(struct rpc_pipe *p, size_t chunk, size_t *len)
{
	uint8_t *buf = NULL, *nb;
	size_t total = 0, got;
	bool more = true;

	*len = 0;
	while (more) {
		nb = realloc(buf, total + chunk + 1);
		if (!nb) {
			free(buf);
			return NULL;
		}
		buf = nb;
		if (rpc_pipe_read(p, buf + total, chunk, &got, &more)) {
			free(buf);
			return NULL;
		}
		total += got;
		if (!got)
			break;
	}
	*len = total;
	return buf;
}

void cli_result_free(struct cli_result *r)
{
	free(r->stub);
	memset(r, 0, sizeof(*r));
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int cli_parse_response(const uint8_t *buf, size_t len, struct cli_result *r)
{
	struct cli_pdu pdu;
	size_t off = 0, n;
	uint8_t *ns;
	uint32_t call_id = 0;

	memset(r, 0, sizeof(*r));
	r->framing_ok = true;
	while (cli_next_pdu(buf, len, &off, &pdu)) {
		r->ptype = pdu.h.ptype;
		if (pdu.h.ptype == DCERPC_FAULT) {
			if (pdu.h.frag_len < DCERPC_FAULT_LEN)
				return -EBADMSG;
			r->fault = le32(pdu.data + 24);
			r->fault_flags = pdu.h.flags;
			r->frags++;
			continue;
		}
		if (pdu.h.ptype != DCERPC_RESPONSE ||
		    pdu.h.frag_len < DCERPC_REQ_HDR_LEN)
			return -EBADMSG;
		if ((r->frags == 0) != !!(pdu.h.flags & DCERPC_PFC_FIRST_FRAG))
			r->framing_ok = false;
		if (r->frags && pdu.h.call_id != call_id)
			r->framing_ok = false;
		call_id = pdu.h.call_id;
		n = pdu.h.frag_len - DCERPC_REQ_HDR_LEN;
		ns = realloc(r->stub, r->len + n + 1);
		if (!ns)
			return -ENOMEM;
		r->stub = ns;
		memcpy(r->stub + r->len, pdu.data + DCERPC_REQ_HDR_LEN, n);
		r->len += n;
		r->frags++;
		if ((pdu.h.flags & DCERPC_PFC_LAST_FRAG) != 0 && off != len)
			r->framing_ok = false;
		if (!(pdu.h.flags & DCERPC_PFC_LAST_FRAG) && off == len)
			r->framing_ok = false;
	}
	return off == len ? 0 : -EBADMSG;
}

static struct seed_bind last_bind;

struct rpc_pipe *cli_open(const char *pipe, const struct rpc_backend *be,
			  const char *uuid, uint16_t maj, uint16_t min)
{
	struct cli_ctx ctx = { 0, uuid, maj, min, UUID_NDR32, 2 };
	struct rpc_pipe *p = rpc_pipe_open(pipe, be, "alice");
	struct ndr_enc e;
	struct cli_pdu pdu;
	uint8_t *out;
	size_t len, off = 0;
	bool ok;

	if (!p)
		return NULL;
	ndr_enc_init(&e);
	cli_put_bind(&e, DCERPC_BIND, 1, 4280, 4280, &ctx, 1);
	ok = !e.err && !rpc_pipe_write(p, e.data, e.len);
	ndr_enc_free(&e);
	out = ok ? cli_read_all(p, 4096, &len) : NULL;
	ok = out && cli_next_pdu(out, len, &off, &pdu) &&
	     pdu.h.ptype == DCERPC_BIND_ACK && off == len;
	if (ok) {
		/* The single result sits at the end: result u16 == 0. */
		size_t res = pdu.h.frag_len - 24;

		ok = pdu.data[res] == 0 && pdu.data[res + 1] == 0;
	}
	free(out);
	if (!ok) {
		rpc_pipe_close(p);
		return NULL;
	}
	last_bind.pipe = pipe;
	last_bind.uuid = uuid;
	last_bind.maj = maj;
	last_bind.min = min;
	return p;
}

static uint8_t pipe_selector(const char *pipe)
{
	if (!strcmp(pipe, "wkssvc"))
		return 1;
	if (!strcmp(pipe, "lsarpc"))
		return 2;
	if (!strcmp(pipe, "samr"))
		return 3;
	return 0;
}

/* Seed format of tests/fuzz/fuzz_rpc.c: selector, PDUs split by marker. */
static void write_seed(const char *seed, const struct ndr_enc *req)
{
	static const uint8_t marker[4] = { 0xf0, 0x9f, 0x94, 0xaa };
	const char *dir = getenv("RPC_WRITE_CORPUS");
	struct cli_ctx ctx = { 0, last_bind.uuid, last_bind.maj,
			       last_bind.min, UUID_NDR32, 2 };
	struct ndr_enc e;
	char path[512];
	FILE *f;
	uint8_t sel;

	if (!dir || !seed || !last_bind.pipe)
		return;
	sel = pipe_selector(last_bind.pipe);
	ndr_enc_init(&e);
	cli_put_bind(&e, DCERPC_BIND, 1, 4280, 4280, &ctx, 1);
	snprintf(path, sizeof(path), "%s/%s", dir, seed);
	f = fopen(path, "wb");
	if (f) {
		fwrite(&sel, 1, 1, f);
		fwrite(e.data, 1, e.len, f);
		fwrite(marker, 1, sizeof(marker), f);
		fwrite(req->data, 1, req->len, f);
		fclose(f);
	}
	ndr_enc_free(&e);
}

#define CLI_FRAG_STUB	4096

int cli_call(struct rpc_pipe *p, uint16_t opnum, const struct ndr_enc *stub,
	     struct cli_result *r, const char *seed)
{
	static uint32_t call_id = 2;
	struct ndr_enc e;
	uint8_t *out;
	size_t len;
	int rc;

	size_t off = 0, n;
	uint8_t flags;

	memset(r, 0, sizeof(*r));
	if (stub->err)
		return stub->err;
	/* Fragments of CLI_FRAG_STUB bytes, as clients split large calls. */
	do {
		n = stub->len - off < CLI_FRAG_STUB ? stub->len - off :
						      CLI_FRAG_STUB;
		flags = (off ? 0 : DCERPC_PFC_FIRST_FRAG) |
			(off + n == stub->len ? DCERPC_PFC_LAST_FRAG : 0);
		ndr_enc_init(&e);
		cli_put_request(&e, flags, call_id, 0, opnum,
				stub->data + off, n);
		if (flags == (DCERPC_PFC_FIRST_FRAG | DCERPC_PFC_LAST_FRAG))
			write_seed(seed, &e);
		rc = e.err ? e.err : rpc_pipe_write(p, e.data, e.len);
		ndr_enc_free(&e);
		if (rc)
			return rc;
		off += n;
	} while (off < stub->len);
	call_id++;
	out = cli_read_all(p, 1024, &len);
	if (!out)
		return -ENOMEM;
	rc = cli_parse_response(out, len, r);
	free(out);
	return rc;
}
