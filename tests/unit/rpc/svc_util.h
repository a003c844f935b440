/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the service tests: call helpers and the truncation sweep. */
#ifndef KSMBD_TEST_SVC_UTIL_H
#define KSMBD_TEST_SVC_UTIL_H

#include <stdlib.h>

#include "fake_backend.h"
#include "idmap.h"
#include "rpc_client.h"

/*
 * Send @s as @opnum and start decoding the response stub into @d. The
 * result owns the stub; free it with cli_result_free(). Returns false if
 * the reply was not a RESPONSE.
 */
static inline bool svc_call(struct rpc_pipe *p, uint16_t opnum,
			    struct ndr_enc *s, struct cli_result *r,
			    struct ndr_dec *d, const char *seed)
{
	int rc = cli_call(p, opnum, s, r, seed);

	ndr_enc_free(s);
	ndr_enc_init(s);
	if (rc || r->ptype != DCERPC_RESPONSE || !r->framing_ok)
		return false;
	ndr_dec_init(d, r->stub, r->len);
	return true;
}

/*
 * Every proper prefix of a good request stub must be answered with an
 * nca_s_fault_ndr fault, on the same pipe, which must keep working.
 * Returns the number of prefixes that got anything else.
 */
static inline int svc_truncations(struct rpc_pipe *p, uint16_t opnum,
				  const struct ndr_enc *good)
{
	struct ndr_enc s;
	struct cli_result r;
	size_t n;
	int bad = 0;

	for (n = 0; n < good->len; n++) {
		ndr_enc_init(&s);
		ndr_put_bytes(&s, good->data, n);
		if (cli_call(p, opnum, &s, &r, NULL) ||
		    r.ptype != DCERPC_FAULT || r.fault != NCA_S_FAULT_NDR) {
			if (!bad)
				printf("# opnum %u: prefix %zu of %zu: "
				       "ptype %u fault %#x\n", opnum, n,
				       good->len, r.ptype, r.fault);
			bad++;
		}
		cli_result_free(&r);
		ndr_enc_free(&s);
	}
	return bad;
}

/* Copy of an encoded stub (the call helpers consume theirs). */
static inline void svc_copy(struct ndr_enc *dst, const struct ndr_enc *src)
{
	ndr_enc_init(dst);
	ndr_put_bytes(dst, src->data, src->len);
}

static inline void svc_domain_sid(struct ndr_sid *sid)
{
	*sid = (struct ndr_sid){ .revision = 1, .num_auths = 4,
		.id_auth = { 0, 0, 0, 0, 0, 5 },
		.sub_auths = { 21, FAKE_SID_A, FAKE_SID_B, FAKE_SID_C } };
}

/* Move within a reply; a failed call's empty one cannot be overrun. */
static inline void svc_seek(struct ndr_dec *d, size_t off)
{
	if (off > d->len)
		ndr_dec_fail(d);
	else
		d->off = off;
}

/* "S-1-5-21-1-2-3-1000" to a SID (48-bit authority); no error checks. */
static inline struct ndr_sid svc_sid_of(const char *text)
{
	struct ndr_sid sid = { .revision = 1 };
	unsigned long long auth;
	char *end;
	int i;

	auth = strtoull(text + 4, &end, 10);	/* past "S-1-" */
	for (i = 5; i >= 0; i--, auth >>= 8)
		sid.id_auth[i] = auth & 0xff;
	while (*end == '-' && sid.num_auths < NDR_SID_MAX_SUBAUTH)
		sid.sub_auths[sid.num_auths++] =
			(uint32_t)strtoul(end + 1, &end, 10);
	return sid;
}

/* The SID's text in one of four rotating buffers (for several per line). */
static inline const char *svc_sid_text(const struct ndr_sid *sid)
{
	static char buf[4][256];
	static unsigned int k;
	char *b = buf[k++ & 3];

	idmap_sid_text(sid, b, sizeof(buf[0]));
	return b;
}

/* A [string] pointer from the response; "" marks NULL. */
static inline char *svc_deferred_string(struct ndr_dec *d, uint32_t ptr)
{
	return ptr ? ndr_get_string(d) : strdup("");
}

#endif
