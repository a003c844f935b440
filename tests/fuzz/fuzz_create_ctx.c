// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: a CREATE request's create-context list (MS-SMB2 2.2.13.2),
 * the bytes CreateContextsOffset/Length point at. The chain is walked the
 * way the gate and smb2_create.c do: every slice must lie inside the list,
 * the walk must agree with validate, and a context found by tag must be
 * the first one the walk meets with that name. The durable-handle parser
 * must agree with the walk too: it fails on a malformed chain, and a kind
 * it reports is backed by a context of that tag and exact size.
 */
#include "proto/validate.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const tags[] = {
	"MxAc", "QFid", "AlSi", "ExtA", "SecD", "TWrp", "RqLs", "DHnQ",
	"DHnC", "DH2Q", "DH2C",
};

static void inside(const struct ksmbd_buf *list, const struct ksmbd_buf *b)
{
	if (b->len && (b->p < list->p || b->p + b->len > list->p + list->len))
		abort();
}

static bool same_name(const struct ksmbd_buf *n, const char *tag)
{
	return n->len == 4 && !memcmp(n->p, tag, 4);
}

/* The first context of the walk named tag, or false. */
static bool walk_find(const struct ksmbd_buf *list, const char *tag,
		      struct ksmbd_create_ctx *out)
{
	u32 pos = 0;

	while (ksmbd_create_ctx_next(list, &pos, out) > 0)
		if (same_name(&out->name, tag))
			return true;
	return false;
}

static void check_durable(const struct ksmbd_buf *list, bool malformed)
{
	static const struct {
		enum ksmbd_durable_kind kind;
		const char *tag;
		u32 size;
	} kinds[] = {
		{ KSMBD_DH_V1_REQ, "DHnQ", 16 }, { KSMBD_DH_V2_REQ, "DH2Q", 32 },
		{ KSMBD_DH_V1_RECONNECT, "DHnC", 16 },
		{ KSMBD_DH_V2_RECONNECT, "DH2C", 36 },
	};
	struct ksmbd_durable_req dh;
	struct ksmbd_create_ctx c;
	size_t i;
	int rc = ksmbd_durable_ctx_parse(list, &dh);

	if (malformed && rc >= 0)
		abort();
	if (rc < 0) {
		if (dh.kind != KSMBD_DH_NONE && !malformed)
			abort();
		return;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (dh.kind != kinds[i].kind)
			continue;
		if (!walk_find(list, kinds[i].tag, &c) ||
		    c.data.len != kinds[i].size)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksmbd_buf list;
	struct ksmbd_create_ctx c, w;
	u32 pos = 0, last = 0;
	int rc, n = 0;
	size_t i;

	if (size > 65536)
		return 0;
	list = ksmbd_buf_make(data, (u32)size);
	while ((rc = ksmbd_create_ctx_next(&list, &pos, &c)) > 0) {
		inside(&list, &c.name);
		inside(&list, &c.data);
		if (c.name.len < 4 || pos <= last || pos > list.len)
			abort();
		last = pos;
		if (++n > 65536 / 16)
			abort();	/* a context is at least 16 bytes */
	}
	if ((rc < 0) != (ksmbd_create_ctx_validate(&list) != KSMBD_VALID_OK))
		abort();
	check_durable(&list, rc < 0);
	if (rc < 0)
		return 0;
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		bool found = !ksmbd_create_ctx_find(&list, tags[i], 4, &c);

		if (found != walk_find(&list, tags[i], &w))
			abort();
		if (found && (c.name.p != w.name.p || c.data.p != w.data.p ||
			      c.data.len != w.data.len))
			abort();
	}
	return 0;
}
