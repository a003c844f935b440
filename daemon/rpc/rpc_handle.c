// SPDX-License-Identifier: GPL-2.0
/*
 * Per-pipe policy handles and small helpers the services share.
 *
 * A handle is 4 bytes of zero attributes followed by 16 random bytes, so a
 * handle from another pipe (or a guessed one) finds no entry here and gets
 * STATUS_INVALID_HANDLE.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "dcerpc.h"
#include "rpc_internal.h"

static void handle_fill(struct rpc_handle_table *t, uint8_t wire[20])
{
	static const uint8_t zero[16];
	size_t got = 0;
	ssize_t n;

	memset(wire, 0, NDR_HANDLE_SIZE);
	while (got < 16) {
		n = getrandom(wire + 4 + got, 16 - got, GRND_NONBLOCK);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	/*
	 * Without entropy, fall back to something unique within this table:
	 * uniqueness, not secrecy, is what keeps pipes apart.
	 */
	if (got < 16 || !memcmp(wire + 4, zero, 16)) {
		uintptr_t self = (uintptr_t)t;
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		memcpy(wire + 4, &self, sizeof(self) < 8 ? sizeof(self) : 8);
		memcpy(wire + 12, &ts.tv_nsec, 4);
		wire[16] = (uint8_t)(got + 1);
	}
}

struct rpc_handle *rpc_handle_new(struct rpc_handle_table *t,
				  enum rpc_handle_kind kind)
{
	struct rpc_handle *h = NULL;
	unsigned int i, tries;

	for (i = 0; i < RPC_MAX_HANDLES; i++) {
		if (t->h[i].kind == RPC_HANDLE_FREE) {
			h = &t->h[i];
			break;
		}
	}
	if (!h)
		return NULL;
	memset(h, 0, sizeof(*h));
	for (tries = 0; tries < 4; tries++) {
		handle_fill(t, h->wire);
		if (!rpc_handle_find(t, h->wire, RPC_HANDLE_FREE))
			break;
	}
	h->kind = kind;
	return h;
}

struct rpc_handle *rpc_handle_find(struct rpc_handle_table *t,
				   const uint8_t wire[NDR_HANDLE_SIZE],
				   enum rpc_handle_kind kind)
{
	unsigned int i;

	for (i = 0; i < RPC_MAX_HANDLES; i++) {
		struct rpc_handle *h = &t->h[i];

		if (h->kind == RPC_HANDLE_FREE)
			continue;
		if (memcmp(h->wire, wire, NDR_HANDLE_SIZE))
			continue;
		/* FREE as @kind means "any kind" (collision check). */
		if (kind != RPC_HANDLE_FREE && h->kind != kind)
			return NULL;
		return h;
	}
	return NULL;
}

void rpc_handle_free(struct rpc_handle *h)
{
	memset(h, 0, sizeof(*h));
}

uint32_t rpc_close_handle(struct rpc_call *c,
			  bool (*ours)(enum rpc_handle_kind kind))
{
	static const uint8_t zero[NDR_HANDLE_SIZE];
	uint8_t wire[NDR_HANDLE_SIZE];
	struct rpc_handle *h;

	ndr_get_handle(&c->in, wire);
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	h = rpc_handle_find(c->handles, wire, RPC_HANDLE_FREE);
	if (!h || !ours(h->kind)) {
		/* The handle goes back unchanged, as it came in. */
		ndr_put_handle(c->out, wire);
		ndr_put_u32(c->out, NT_STATUS_INVALID_HANDLE);
		return 0;
	}
	rpc_handle_free(h);
	ndr_put_handle(c->out, zero);
	ndr_put_u32(c->out, NT_STATUS_OK);
	return 0;
}

uint32_t rpc_put_new_handle(struct rpc_call *c, enum rpc_handle_kind kind,
			    struct rpc_handle **out)
{
	static const uint8_t zero[NDR_HANDLE_SIZE];
	struct rpc_handle *h = rpc_handle_new(c->handles, kind);

	if (out)
		*out = h;
	if (!h) {
		ndr_put_handle(c->out, zero);
		return NT_STATUS_INSUFFICIENT_RESOURCES;
	}
	ndr_put_handle(c->out, h->wire);
	return NT_STATUS_OK;
}

int rpc_backend_server(const struct rpc_backend *be,
		       struct rpc_server_info *si)
{
	memset(si, 0, sizeof(*si));
	if (!be || !be->get_server)
		return -ENOSYS;
	return be->get_server(be->ctx, si);
}

int rpc_server_info(const struct rpc_call *c, struct rpc_server_info *si)
{
	return rpc_backend_server(c->be, si);
}

void rpc_domain_sid(const struct rpc_server_info *si, struct ndr_sid *sid)
{
	memset(sid, 0, sizeof(*sid));
	sid->revision = 1;
	sid->num_auths = 4;
	sid->id_auth[5] = 5;		/* SECURITY_NT_AUTHORITY */
	sid->sub_auths[0] = 21;		/* SECURITY_NT_NON_UNIQUE */
	sid->sub_auths[1] = si->domain_sid[0];
	sid->sub_auths[2] = si->domain_sid[1];
	sid->sub_auths[3] = si->domain_sid[2];
}

void rpc_builtin_sid(struct ndr_sid *sid)
{
	memset(sid, 0, sizeof(*sid));
	sid->revision = 1;
	sid->num_auths = 1;
	sid->id_auth[5] = 5;
	sid->sub_auths[0] = 32;		/* SECURITY_BUILTIN_DOMAIN_RID */
}

bool rpc_name_eq(const char *a, const char *b)
{
	while (*a && *b) {
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		a++;
		b++;
	}
	return *a == *b;
}
