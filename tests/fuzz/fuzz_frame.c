// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: the input is one received frame (after the 4-byte transport
 * header).  It goes through the whole gate the way the engine uses it, and
 * every slice the gate hands out is checked to lie inside its element.
 */
#include "proto/validate.h"
#include "proto/negctx.h"

#include <stdlib.h>

#define MAX_ELEMS 32

static void inside(const struct ksmbd_buf *outer, const struct ksmbd_buf *in)
{
	if (in->len && (in->p < outer->p ||
			in->p + in->len > outer->p + outer->len))
		abort();
}

static void decode(const struct ksmbd_req *req)
{
	struct ksmbd_negotiate_req neg;
	struct ksmbd_sess_setup_req ss;
	struct ksmbd_tree_connect_req tc;
	struct ksmbd_negctx_offer offer;
	struct ksmbd_create_ctx cc;
	u32 pos = 0;
	u16 i;

	switch (req->hdr.command) {
	case SMB2_NEGOTIATE:
		if (ksmbd_negotiate_decode(req, &neg))
			abort();
		for (i = 0; i < neg.dialect_count; i++)
			(void)ksmbd_negotiate_dialect(&neg, i);
		if (neg.context_count)
			(void)ksmbd_negctx_parse(&neg.contexts, neg.context_count, &offer);
		break;
	case SMB2_SESSION_SETUP:
		if (ksmbd_sess_setup_decode(req, &ss))
			abort();
		inside(&req->elem, &ss.security_blob);
		break;
	case SMB2_TREE_CONNECT:
		if (ksmbd_tree_connect_decode(req, &tc))
			abort();
		inside(&req->elem, &tc.path);
		break;
	case SMB2_CREATE:
		while (ksmbd_create_ctx_next(&req->buf[KSMBD_CREATE_CONTEXTS], &pos, &cc) > 0) {
			inside(&req->buf[KSMBD_CREATE_CONTEXTS], &cc.name);
			inside(&req->buf[KSMBD_CREATE_CONTEXTS], &cc.data);
		}
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ksmbd_req_limits lim = {
		.max_read = 1 << 20, .max_write = 1 << 20, .max_trans = 1 << 16,
		.multi_credit = true,
	};
	struct ksmbd_elem elems[MAX_ELEMS];
	enum ksmbd_frame_kind kind;
	struct ksmbd_req req;
	u32 count = 0, i, len;

	if (size > 1 << 20)
		return 0;
	if (size >= 4)
		(void)ksmbd_frame_check_length(data, 1 << 16, &len);
	if (ksmbd_frame_classify(data, (u32)size, &kind) != KSMBD_VALID_OK ||
	    kind != KSMBD_FRAME_SMB2)
		return 0;
	(void)ksmbd_compound_walk(data, (u32)size, elems, MAX_ELEMS, &count);
	for (i = 0; i < count; i++) {
		if (elems[i].off + elems[i].len > size || elems[i].len < 64)
			abort();
		if (ksmbd_request_validate(data + elems[i].off, elems[i].len,
					   &lim, &req) != KSMBD_VALID_OK)
			continue;
		inside(&req.elem, &req.buf[0]);
		inside(&req.elem, &req.buf[1]);
		decode(&req);
	}
	return 0;
}
