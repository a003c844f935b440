// SPDX-License-Identifier: GPL-2.0
/*
 * Connection-oriented DCE/RPC: bind / alter_context negotiation, request
 * reassembly, response fragmentation and faults.
 *
 * Every PDU we build is encoded on its own ndr_enc so that the alignment of
 * the bind_ack body is counted from the start of that PDU, then appended to
 * the caller's output stream.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dcerpc.h"
#include "rpc_internal.h"

static const char NDR32_UUID[] = "8a885d04-1ceb-11c9-9fe8-08002b104860";
#define NDR32_VERSION	2
/* Bind-time feature negotiation: the uuid's first 8 bytes are the marker. */
static const char BTFN_UUID[] = "6cb71c2c-9812-4540-0000-000000000000";
#define BTFN_PREFIX_LEN	8

/* Features we support out of MS-RPCE 2.2.2.14: none. */
#define BTFN_SUPPORTED	0x00

struct syntax {
	uint8_t uuid[16];
	uint16_t major;
	uint16_t minor;
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int dcerpc_uuid_parse(const char *s, uint8_t out[16])
{
	/* Byte order of the 16 wire bytes relative to the text form. */
	static const uint8_t order[16] = {
		3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15
	};
	uint8_t text[16];
	unsigned int i = 0, n = 0;
	int hi, lo;

	while (s[i] && n < 16) {
		if (s[i] == '-') {
			i++;
			continue;
		}
		hi = hexval(s[i]);
		lo = s[i + 1] ? hexval(s[i + 1]) : -1;
		if (hi < 0 || lo < 0)
			return -EINVAL;
		text[n++] = (uint8_t)(hi << 4 | lo);
		i += 2;
	}
	if (n != 16 || s[i])
		return -EINVAL;
	for (i = 0; i < 16; i++)
		out[i] = text[order[i]];
	return 0;
}

int dcerpc_hdr_parse(const uint8_t *b, size_t len, struct dcerpc_hdr *h)
{
	bool le;

	if (len < DCERPC_HDR_LEN)
		return -EINVAL;
	h->vers = b[0];
	h->vers_minor = b[1];
	h->ptype = b[2];
	h->flags = b[3];
	memcpy(h->drep, b + 4, 4);
	/* Lengths are read in the sender's byte order, so framing survives. */
	le = (h->drep[0] & 0xf0) == 0x10;
	if (le) {
		h->frag_len = b[8] | b[9] << 8;
		h->auth_len = b[10] | b[11] << 8;
		h->call_id = (uint32_t)b[12] | (uint32_t)b[13] << 8 |
			     (uint32_t)b[14] << 16 | (uint32_t)b[15] << 24;
	} else {
		h->frag_len = b[8] << 8 | b[9];
		h->auth_len = b[10] << 8 | b[11];
		h->call_id = (uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 |
			     (uint32_t)b[14] << 8 | (uint32_t)b[15];
	}
	return 0;
}

void dcerpc_assoc_init(struct dcerpc_assoc *a,
		       const struct rpc_iface *const *ifaces,
		       const char *endpoint, uint32_t assoc_group,
		       dcerpc_dispatch_fn dispatch, void *arg)
{
	memset(a, 0, sizeof(*a));
	a->ifaces = ifaces;
	a->endpoint = endpoint;
	a->assoc_group = assoc_group;
	a->dispatch = dispatch;
	a->dispatch_arg = arg;
	a->max_xmit = DCERPC_MAX_FRAG;
	a->max_recv = DCERPC_MAX_FRAG;
	ndr_enc_init(&a->stub);
}

void dcerpc_assoc_release(struct dcerpc_assoc *a)
{
	ndr_enc_free(&a->stub);
}

static void pdu_begin(struct ndr_enc *e, uint8_t ptype, uint8_t flags,
		      uint32_t call_id)
{
	static const uint8_t drep[4] = { 0x10, 0, 0, 0 };

	ndr_put_u8(e, 5);
	ndr_put_u8(e, 0);
	ndr_put_u8(e, ptype);
	ndr_put_u8(e, flags);
	ndr_put_bytes(e, drep, 4);
	ndr_put_u16(e, 0);	/* frag_length, patched in pdu_end() */
	ndr_put_u16(e, 0);	/* auth_length */
	ndr_put_u32(e, call_id);
}

/* Fix up frag_length and move the PDU onto the output stream. */
static int pdu_end(struct ndr_enc *pdu, struct ndr_enc *out)
{
	int err = pdu->err;

	if (!err && pdu->len > 0xffff)
		err = -E2BIG;
	if (!err) {
		pdu->data[8] = pdu->len & 0xff;
		pdu->data[9] = pdu->len >> 8;
		ndr_put_bytes(out, pdu->data, pdu->len);
		err = out->err;
	}
	ndr_enc_free(pdu);
	return err;
}

void dcerpc_put_fault(struct ndr_enc *out, uint32_t call_id, uint16_t ctx_id,
		      uint32_t status)
{
	struct ndr_enc pdu;

	ndr_enc_init(&pdu);
	pdu_begin(&pdu, DCERPC_FAULT, DCERPC_PFC_FIRST_FRAG |
		  DCERPC_PFC_LAST_FRAG | DCERPC_PFC_DID_NOT_EXECUTE, call_id);
	ndr_put_u32(&pdu, 0);		/* alloc_hint */
	ndr_put_u16(&pdu, ctx_id);
	ndr_put_u8(&pdu, 0);		/* cancel_count */
	ndr_put_u8(&pdu, 0);
	ndr_put_u32(&pdu, status);
	ndr_put_u32(&pdu, 0);
	pdu_end(&pdu, out);
}

static int put_bind_nak(struct ndr_enc *out, uint32_t call_id, uint16_t reason)
{
	struct ndr_enc pdu;

	ndr_enc_init(&pdu);
	pdu_begin(&pdu, DCERPC_BIND_NAK, DCERPC_PFC_FIRST_FRAG |
		  DCERPC_PFC_LAST_FRAG, call_id);
	ndr_put_u16(&pdu, reason);
	/* The one protocol version we speak: 5.0. */
	ndr_put_u8(&pdu, 1);
	ndr_put_u8(&pdu, 5);
	ndr_put_u8(&pdu, 0);
	return pdu_end(&pdu, out);
}

static void get_syntax(struct ndr_dec *d, struct syntax *s)
{
	ndr_get_bytes(d, s->uuid, 16);
	s->major = ndr_get_u16(d);
	s->minor = ndr_get_u16(d);
}

static const struct rpc_iface *find_iface(const struct dcerpc_assoc *a,
					  const struct syntax *abs)
{
	const struct rpc_iface *const *it;
	uint8_t uuid[16];

	for (it = a->ifaces; *it; it++) {
		if (dcerpc_uuid_parse((*it)->uuid, uuid))
			continue;
		if (!memcmp(uuid, abs->uuid, 16) &&
		    abs->major == (*it)->ver_major &&
		    abs->minor == (*it)->ver_minor)
			return *it;
	}
	return NULL;
}

static int add_context(struct dcerpc_assoc *a, uint16_t id,
		       const struct rpc_iface *iface)
{
	unsigned int i;

	for (i = 0; i < a->n_ctx; i++) {
		if (a->ctx[i].id == id) {
			a->ctx[i].iface = iface;
			return 0;
		}
	}
	if (a->n_ctx == DCERPC_MAX_CONTEXTS)
		return -ENOSPC;
	a->ctx[a->n_ctx].id = id;
	a->ctx[a->n_ctx].iface = iface;
	a->n_ctx++;
	return 0;
}

struct ctx_result {
	uint16_t result;
	uint16_t reason;
	struct syntax ts;
};

/*
 * Decide one presentation context element. Everything it reads is bounded
 * by the decoder; a short element fails the whole bind.
 */
static void judge_context(struct dcerpc_assoc *a, struct ndr_dec *d,
			  struct ctx_result *r)
{
	struct syntax abs, ts, ndr32, btfn;
	const struct rpc_iface *iface;
	uint16_t id = ndr_get_u16(d);
	uint8_t n_ts = ndr_get_u8(d);
	bool ndr32_offered = false, btfn_offered = false;
	unsigned int i;

	ndr_get_u8(d);
	get_syntax(d, &abs);
	memset(r, 0, sizeof(*r));
	dcerpc_uuid_parse(NDR32_UUID, ndr32.uuid);
	dcerpc_uuid_parse(BTFN_UUID, btfn.uuid);
	for (i = 0; i < n_ts; i++) {
		get_syntax(d, &ts);
		if (!memcmp(ts.uuid, ndr32.uuid, 16) &&
		    ts.major == NDR32_VERSION && ts.minor == 0)
			ndr32_offered = true;
		else if (!memcmp(ts.uuid, btfn.uuid, BTFN_PREFIX_LEN) &&
			 ts.major == 1 && ts.minor == 0)
			btfn_offered = true;
	}
	if (d->err)
		return;
	if (btfn_offered && n_ts == 1) {
		/* MS-RPCE 3.3.1.5.3: reason carries the features we accept. */
		r->result = DCERPC_NEGOTIATE_ACK;
		r->reason = BTFN_SUPPORTED;
		return;
	}
	iface = find_iface(a, &abs);
	r->result = DCERPC_PROVIDER_REJECTION;
	if (!iface) {
		r->reason = DCERPC_ABSTRACT_SYNTAX_NOT_SUPPORTED;
		return;
	}
	if (!ndr32_offered) {
		r->reason = DCERPC_TRANSFER_SYNTAXES_NOT_SUPPORTED;
		return;
	}
	if (add_context(a, id, iface)) {
		r->reason = DCERPC_LOCAL_LIMIT_EXCEEDED;
		return;
	}
	r->result = DCERPC_ACCEPTANCE;
	r->reason = 0;
	r->ts = ndr32;
	r->ts.major = NDR32_VERSION;
}

static int put_bind_ack(struct dcerpc_assoc *a, const struct dcerpc_hdr *h,
			bool alter, const struct ctx_result *res,
			unsigned int n, struct ndr_enc *out)
{
	struct ndr_enc pdu;
	unsigned int i;
	size_t addr_len;

	ndr_enc_init(&pdu);
	pdu_begin(&pdu, alter ? DCERPC_ALTER_CONTEXT_RESP : DCERPC_BIND_ACK,
		  DCERPC_PFC_FIRST_FRAG | DCERPC_PFC_LAST_FRAG, h->call_id);
	ndr_put_u16(&pdu, a->max_xmit);
	ndr_put_u16(&pdu, a->max_recv);
	ndr_put_u32(&pdu, a->assoc_group);
	addr_len = alter || !a->endpoint ? 0 : strlen(a->endpoint) + 1;
	ndr_put_u16(&pdu, addr_len);
	ndr_put_bytes(&pdu, a->endpoint ? a->endpoint : "", addr_len);
	ndr_put_align(&pdu, 4);
	ndr_put_u8(&pdu, n);
	ndr_put_u8(&pdu, 0);
	ndr_put_u16(&pdu, 0);
	for (i = 0; i < n; i++) {
		ndr_put_u16(&pdu, res[i].result);
		ndr_put_u16(&pdu, res[i].reason);
		ndr_put_bytes(&pdu, res[i].ts.uuid, 16);
		ndr_put_u16(&pdu, res[i].ts.major);
		ndr_put_u16(&pdu, res[i].ts.minor);
	}
	return pdu_end(&pdu, out);
}

static int handle_bind(struct dcerpc_assoc *a, const struct dcerpc_hdr *h,
		       const uint8_t *pdu, size_t len, struct ndr_enc *out)
{
	struct ctx_result res[255];
	bool alter = h->ptype == DCERPC_ALTER_CONTEXT;
	uint16_t max_xmit, max_recv;
	struct ndr_dec d;
	unsigned int i, n;

	/* Alignment inside the body counts from the start of the PDU. */
	ndr_dec_init(&d, pdu, len);
	d.off = DCERPC_HDR_LEN;
	max_xmit = ndr_get_u16(&d);
	max_recv = ndr_get_u16(&d);
	ndr_get_u32(&d);	/* assoc_group_id: we have a single group */
	n = ndr_get_u8(&d);
	ndr_get_u8(&d);
	ndr_get_u16(&d);
	if (d.err || n == 0)
		goto bad;
	if (!alter) {
		if (max_xmit < DCERPC_MIN_FRAG || max_recv < DCERPC_MIN_FRAG)
			return put_bind_nak(out, h->call_id,
					    DCERPC_NAK_LOCAL_LIMIT_EXCEEDED);
		a->max_xmit = max_recv < DCERPC_MAX_FRAG ? max_recv :
							   DCERPC_MAX_FRAG;
		a->max_recv = max_xmit < DCERPC_MAX_FRAG ? max_xmit :
							   DCERPC_MAX_FRAG;
	}
	for (i = 0; i < n; i++) {
		ndr_get_align(&d, 4);
		judge_context(a, &d, &res[i]);
	}
	if (d.err)
		goto bad;
	a->bound = true;
	return put_bind_ack(a, h, alter, res, n, out);
bad:
	if (alter) {
		dcerpc_put_fault(out, h->call_id, 0, NCA_S_PROTO_ERROR);
		return out->err;
	}
	return put_bind_nak(out, h->call_id, DCERPC_NAK_NOT_SPECIFIED);
}

static const struct rpc_iface *ctx_iface(const struct dcerpc_assoc *a,
					 uint16_t id)
{
	unsigned int i;

	for (i = 0; i < a->n_ctx; i++)
		if (a->ctx[i].id == id)
			return a->ctx[i].iface;
	return NULL;
}

static int put_response(struct dcerpc_assoc *a, const uint8_t *stub,
			size_t len, struct ndr_enc *out)
{
	/* Keep each fragment's stub a multiple of 8 (MS-RPCE 3.3.1.5.6). */
	size_t chunk = ((size_t)a->max_xmit - DCERPC_REQ_HDR_LEN) & ~(size_t)7;
	size_t off = 0, n;
	struct ndr_enc pdu;
	uint8_t flags;
	int err;

	do {
		n = len - off < chunk ? len - off : chunk;
		flags = 0;
		if (off == 0)
			flags |= DCERPC_PFC_FIRST_FRAG;
		if (off + n == len)
			flags |= DCERPC_PFC_LAST_FRAG;
		ndr_enc_init(&pdu);
		pdu_begin(&pdu, DCERPC_RESPONSE, flags, a->call_id);
		ndr_put_u32(&pdu, (uint32_t)(len - off));	/* alloc_hint */
		ndr_put_u16(&pdu, a->call_ctx);
		ndr_put_u8(&pdu, 0);
		ndr_put_u8(&pdu, 0);
		ndr_put_bytes(&pdu, stub + off, n);
		err = pdu_end(&pdu, out);
		if (err)
			return err;
		off += n;
	} while (off < len);
	return 0;
}

static int call_fault(struct dcerpc_assoc *a, uint32_t call_id,
		      uint16_t ctx_id, uint32_t status, struct ndr_enc *out)
{
	a->in_call = false;
	ndr_enc_free(&a->stub);
	ndr_enc_init(&a->stub);
	dcerpc_put_fault(out, call_id, ctx_id, status);
	return out->err;
}

/* Fault a multi-fragment call once and ignore its remaining fragments. */
static int drop_call(struct dcerpc_assoc *a, const struct dcerpc_hdr *h,
		     uint16_t ctx_id, struct ndr_enc *out)
{
	if (!(h->flags & DCERPC_PFC_LAST_FRAG)) {
		a->dropping = true;
		a->drop_call_id = h->call_id;
	}
	return call_fault(a, h->call_id, ctx_id, NCA_S_PROTO_ERROR, out);
}

static int run_call(struct dcerpc_assoc *a, struct ndr_enc *out)
{
	const struct rpc_iface *iface = ctx_iface(a, a->call_ctx);
	struct ndr_enc rsp;
	uint32_t status;
	int err;

	if (!iface)
		return call_fault(a, a->call_id, a->call_ctx, NCA_S_UNKNOWN_IF,
				  out);
	ndr_enc_init(&rsp);
	status = a->dispatch(a->dispatch_arg, iface, a->call_opnum,
			     a->stub.data ? a->stub.data : (const uint8_t *)"",
			     a->stub.len, &rsp);
	if (!status && rsp.err)
		status = NCA_S_FAULT_REMOTE_NO_MEMORY;
	if (status) {
		ndr_enc_free(&rsp);
		return call_fault(a, a->call_id, a->call_ctx, status, out);
	}
	err = put_response(a, rsp.data, rsp.len, out);
	ndr_enc_free(&rsp);
	a->in_call = false;
	ndr_enc_free(&a->stub);
	ndr_enc_init(&a->stub);
	return err;
}

static int handle_request(struct dcerpc_assoc *a, const struct dcerpc_hdr *h,
			  const uint8_t *pdu, size_t len, struct ndr_enc *out)
{
	size_t hdr = DCERPC_REQ_HDR_LEN;
	uint16_t ctx_id, opnum;

	if (len < hdr)
		return call_fault(a, h->call_id, 0, NCA_S_PROTO_ERROR, out);
	ctx_id = pdu[20] | pdu[21] << 8;
	opnum = pdu[22] | pdu[23] << 8;
	if (h->flags & DCERPC_PFC_OBJECT_UUID)
		hdr += 16;
	if (len < hdr)
		return call_fault(a, h->call_id, ctx_id, NCA_S_PROTO_ERROR, out);
	if (!a->bound)
		return call_fault(a, h->call_id, ctx_id, NCA_S_PROTO_ERROR, out);

	if (!(h->flags & DCERPC_PFC_FIRST_FRAG) && a->dropping &&
	    a->drop_call_id == h->call_id) {
		/* The rest of a call we already faulted: swallow it quietly. */
		if (h->flags & DCERPC_PFC_LAST_FRAG)
			a->dropping = false;
		return 0;
	}
	a->dropping = false;
	if (h->flags & DCERPC_PFC_FIRST_FRAG) {
		/* A new call abandons any half-received one. */
		ndr_enc_free(&a->stub);
		ndr_enc_init(&a->stub);
		a->in_call = true;
		a->call_id = h->call_id;
		a->call_ctx = ctx_id;
		a->call_opnum = opnum;
	} else if (!a->in_call || a->call_id != h->call_id ||
		   a->call_ctx != ctx_id || a->call_opnum != opnum) {
		return drop_call(a, h, ctx_id, out);
	}
	if (len - hdr > DCERPC_MAX_STUB - a->stub.len)
		return drop_call(a, h, ctx_id, out);
	ndr_put_bytes(&a->stub, pdu + hdr, len - hdr);
	if (a->stub.err)
		return call_fault(a, h->call_id, ctx_id,
				  NCA_S_FAULT_REMOTE_NO_MEMORY, out);
	if (!(h->flags & DCERPC_PFC_LAST_FRAG))
		return 0;
	return run_call(a, out);
}

static bool drep_supported(const uint8_t drep[4])
{
	/* Little-endian integers, ASCII characters, IEEE floats. */
	return (drep[0] & 0xf0) == 0x10 && (drep[0] & 0x0f) == 0 &&
	       drep[1] == 0;
}

int dcerpc_assoc_process(struct dcerpc_assoc *a, const uint8_t *pdu,
			 size_t len, struct ndr_enc *out)
{
	struct dcerpc_hdr h;

	if (dcerpc_hdr_parse(pdu, len, &h)) {
		dcerpc_put_fault(out, 0, 0, NCA_S_PROTO_ERROR);
		return out->err;
	}
	if (h.vers != 5 || h.vers_minor > 1) {
		if (h.ptype == DCERPC_BIND)
			return put_bind_nak(out, h.call_id,
					    DCERPC_NAK_PROTOCOL_VERSION);
		return call_fault(a, h.call_id, 0, NCA_S_PROTO_ERROR, out);
	}
	if (!drep_supported(h.drep))
		return call_fault(a, h.call_id, 0, NCA_S_UNSUPPORTED_TYPE, out);
	if (h.auth_len) {
		if (h.ptype == DCERPC_BIND)
			return put_bind_nak(out, h.call_id,
					    DCERPC_NAK_AUTH_TYPE_UNKNOWN);
		return call_fault(a, h.call_id, 0, NCA_S_PROTO_ERROR, out);
	}
	switch (h.ptype) {
	case DCERPC_BIND:
		if (a->bound)
			return put_bind_nak(out, h.call_id,
					    DCERPC_NAK_NOT_SPECIFIED);
		return handle_bind(a, &h, pdu, len, out);
	case DCERPC_ALTER_CONTEXT:
		if (!a->bound)
			return call_fault(a, h.call_id, 0, NCA_S_PROTO_ERROR,
					  out);
		return handle_bind(a, &h, pdu, len, out);
	case DCERPC_REQUEST:
		return handle_request(a, &h, pdu, len, out);
	case DCERPC_CO_CANCEL:
		/* Calls run to completion before the next PDU is read. */
		return 0;
	case DCERPC_ORPHANED:
		if (a->in_call && a->call_id == h.call_id) {
			a->in_call = false;
			ndr_enc_free(&a->stub);
			ndr_enc_init(&a->stub);
		}
		return 0;
	default:
		return call_fault(a, h.call_id, 0, NCA_S_PROTO_ERROR, out);
	}
}
