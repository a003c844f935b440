// SPDX-License-Identifier: GPL-2.0
/*
 * lsarpc translation (MS-LSAT): the LookupSids and LookupNames families.
 *
 * Every variant decodes into one request shape, translates through
 * idmap.c, and encodes the TranslatedNames / TranslatedSids version its
 * opnum defines:
 *   names v1  LookupSids       Use, Name, DomainIndex
 *   names v2  LookupSids2/3    ... + Flags
 *   sids  v1  LookupNames      Use, RelativeId, DomainIndex
 *   sids  v2  LookupNames2     ... + Flags
 *   sids  v3  LookupNames3/4   Use, Sid, DomainIndex, Flags
 * LookupSids3 and LookupNames4 carry no policy handle; MS-LSAT has
 * clients send them over TCP with a secure channel, which we do not
 * serve, so they are answered on the named pipe like the others.
 */
#include <stdlib.h>
#include <string.h>

#include "dcerpc.h"
#include "idmap.h"
#include "lsa_lookup.h"

/* MS-LSAT 3.1.4.9 - 3.1.4.11: range of the SID array. */
#define LSA_MAX_SIDS		20480
/* LookupOptions (MS-LSAT 3.1.4.5) */
#define LSA_ISOLATED_AS_LOCAL	0x80000000u

/* LSAP_LOOKUP_LEVEL (MS-LSAT 2.2.16) */
enum {
	LOOKUP_WKSTA = 1,
	LOOKUP_PDC = 2,
	LOOKUP_TDL = 3,
	LOOKUP_RODC_REFERRAL = 7,
};

enum lk_kind { LK_SIDS, LK_NAMES };

struct lk_req {
	enum lk_kind kind;
	unsigned int ver;		/* 1, 2 or 3 (see above) */
	bool has_handle;
	bool has_options;		/* LookupOptions, ClientRevision */
	uint8_t handle[NDR_HANDLE_SIZE];
	uint32_t n;
	struct ndr_sid *sids;		/* LK_SIDS */
	char **names;			/* LK_NAMES */
	uint16_t level;
	uint32_t options;
};

struct lk_out {
	struct idmap_ctx map;
	struct idmap_entry *t;
	int32_t *idx;			/* per entry: ReferencedDomains index */
	int ref[IDMAP_DOM_COUNT];	/* per domain: index, or -1 */
	int order[IDMAP_DOM_COUNT];	/* domains in ReferencedDomains order */
	unsigned int n_doms;
	uint32_t mapped;
};

static void free_req(struct lk_req *r)
{
	free(r->sids);
	ndr_free_strings(r->names, r->n);
	r->sids = NULL;
	r->names = NULL;
}

/* [size_is(Count)] PRPC_UNICODE_STRING Names, Count in range(0,1000). */
static char **get_names(struct ndr_dec *d, uint32_t *count)
{
	char **names;
	uint32_t n;

	*count = 0;
	n = ndr_get_u32(d);
	if (n > RPC_MAX_LOOKUP || ndr_get_count(d, 8) != n || d->err) {
		ndr_dec_fail(d);
		return NULL;
	}
	names = ndr_get_ustr_array(d, n);
	if (names)
		*count = n;
	return names;
}

/*
 * The [in, out] translation array and what follows it. Its contents are
 * to be ignored on input (MS-LSAT); clients send it empty, and we refuse
 * a non-empty one rather than decode structures nobody sends.
 */
static void get_tail(struct ndr_dec *d, struct lk_req *r)
{
	ndr_get_u32(d);			/* Entries */
	if (ndr_get_ptr(d))
		ndr_dec_fail(d);
	r->level = ndr_get_u16(d);
	ndr_get_u32(d);			/* MappedCount */
	if (r->has_options) {
		r->options = ndr_get_u32(d);
		ndr_get_u32(d);		/* ClientRevision: nothing depends on it */
	}
}

/* False when the stub is malformed (an NDR fault). */
static bool get_req(struct ndr_dec *d, struct lk_req *r)
{
	if (r->has_handle)
		ndr_get_handle(d, r->handle);
	if (r->kind == LK_SIDS)
		r->sids = ndr_get_sid_array(d, LSA_MAX_SIDS, &r->n);
	else
		r->names = get_names(d, &r->n);
	get_tail(d, r);
	if (d->err || (!r->sids && !r->names)) {
		free_req(r);
		return false;
	}
	return true;
}

/* The scopes a LookupLevel searches on a server that is not a DC. */
static bool level_views(const struct lk_req *r, unsigned int *views)
{
	if (r->level < LOOKUP_WKSTA || r->level > LOOKUP_RODC_REFERRAL)
		return false;
	if (r->kind == LK_NAMES && r->options & ~LSA_ISOLATED_AS_LOCAL)
		return false;
	if (r->kind == LK_NAMES && (r->options & LSA_ISOLATED_AS_LOCAL) &&
	    r->level != LOOKUP_WKSTA)
		return false;
	if (r->level == LOOKUP_WKSTA)
		*views = IDMAP_VIEW_ALL;
	else if (r->level == LOOKUP_PDC || r->level == LOOKUP_TDL)
		*views = IDMAP_VIEW_ACCOUNT;
	else
		*views = 0;	/* trust and forest scopes: we have none */
	return true;
}

static int32_t ref_domain(struct lk_out *o, int d)
{
	if (d < 0 || d >= IDMAP_DOM_COUNT)
		return -1;
	if (o->ref[d] < 0) {
		o->ref[d] = (int)o->n_doms;
		o->order[o->n_doms++] = d;
	}
	return o->ref[d];
}

static uint32_t translate(struct rpc_call *c, const struct lk_req *r,
			  struct lk_out *o)
{
	unsigned int views = 0;
	uint32_t i;
	bool ok;
	int d;

	for (d = 0; d < IDMAP_DOM_COUNT; d++)
		o->ref[d] = -1;
	if (r->has_handle &&
	    !rpc_handle_find(c->handles, r->handle, RPC_HANDLE_LSA_POLICY))
		return NT_STATUS_INVALID_HANDLE;
	if (!level_views(r, &views))
		return NT_STATUS_INVALID_PARAMETER;
	if (idmap_init(&o->map, c->be))
		return NT_STATUS_INTERNAL_ERROR;
	o->t = calloc((size_t)r->n + 1, sizeof(*o->t));
	o->idx = calloc((size_t)r->n + 1, sizeof(*o->idx));
	if (!o->t || !o->idx)
		return NT_STATUS_INSUFFICIENT_RESOURCES;
	for (i = 0; i < r->n; i++) {
		if (r->kind == LK_SIDS)
			ok = idmap_sid_to_name(&o->map, views, &r->sids[i],
					       &o->t[i]);
		else
			ok = idmap_name_to_sid(&o->map, views, r->names[i],
					       &o->t[i]);
		o->idx[i] = ref_domain(o, o->t[i].domain);
		o->mapped += ok;
	}
	if (o->mapped == r->n)
		return NT_STATUS_OK;
	return o->mapped ? NT_STATUS_SOME_NOT_MAPPED : NT_STATUS_NONE_MAPPED;
}

/* [out] PLSAPR_REFERENCED_DOMAIN_LIST* (MS-LSAT 2.2.12) */
static void put_refdoms(struct ndr_enc *e, const struct lk_out *o)
{
	struct ndr_sid sid;
	unsigned int i;

	ndr_put_ptr(e, true);
	ndr_put_u32(e, o->n_doms);
	ndr_put_ptr(e, o->n_doms > 0);
	ndr_put_u32(e, o->n_doms);	/* MaxEntries: clients ignore it */
	if (!o->n_doms)
		return;
	ndr_put_u32(e, o->n_doms);
	for (i = 0; i < o->n_doms; i++) {
		ndr_put_ustr_hdr(e, idmap_domain_name(&o->map, o->order[i]));
		ndr_put_ptr(e, true);
	}
	for (i = 0; i < o->n_doms; i++) {
		ndr_put_ustr_body(e, idmap_domain_name(&o->map, o->order[i]));
		idmap_domain_sid(&o->map, o->order[i], &sid);
		ndr_put_sid(e, &sid);
	}
}

/* LSAPR_TRANSLATED_NAMES(_EX) */
static void put_names(struct ndr_enc *e, const struct lk_req *r,
		      const struct lk_out *o)
{
	uint32_t i;

	ndr_put_u32(e, r->n);
	ndr_put_ptr(e, r->n > 0);
	if (!r->n)
		return;
	ndr_put_u32(e, r->n);
	for (i = 0; i < r->n; i++) {
		ndr_put_u16(e, o->t[i].use);
		ndr_put_ustr_hdr(e, o->t[i].name);
		ndr_put_u32(e, (uint32_t)o->idx[i]);
		if (r->ver >= 2)
			ndr_put_u32(e, 0);		/* Flags */
	}
	for (i = 0; i < r->n; i++)
		ndr_put_ustr_body(e, o->t[i].name);
}

/* LSAPR_TRANSLATED_SIDS, _EX and _EX2 */
static void put_sids(struct ndr_enc *e, const struct lk_req *r,
		     const struct lk_out *o)
{
	uint32_t i;

	ndr_put_u32(e, r->n);
	ndr_put_ptr(e, r->n > 0);
	if (!r->n)
		return;
	ndr_put_u32(e, r->n);
	for (i = 0; i < r->n; i++) {
		const struct idmap_entry *t = &o->t[i];
		bool known = t->use != SID_TYPE_UNKNOWN;

		ndr_put_u16(e, t->use);
		if (r->ver == 3)
			ndr_put_ptr(e, known);
		else
			ndr_put_u32(e, known ? t->rid : 0);
		ndr_put_u32(e, (uint32_t)o->idx[i]);
		if (r->ver >= 2)
			ndr_put_u32(e, 0);		/* Flags */
	}
	if (r->ver != 3)
		return;
	for (i = 0; i < r->n; i++)
		if (o->t[i].use != SID_TYPE_UNKNOWN)
			ndr_put_sid(e, &o->t[i].sid);
}

/* A failed call still carries its [out] parameters, all empty. */
static void put_failure(struct ndr_enc *e, uint32_t status)
{
	ndr_put_ptr(e, false);		/* ReferencedDomains */
	ndr_put_u32(e, 0);
	ndr_put_ptr(e, false);
	ndr_put_u32(e, 0);		/* MappedCount */
	ndr_put_u32(e, status);
}

static uint32_t lookup(struct rpc_call *c, struct lk_req *r)
{
	struct lk_out o;
	uint32_t status;

	memset(&o, 0, sizeof(o));
	if (!get_req(&c->in, r))
		return NCA_S_FAULT_NDR;
	status = translate(c, r, &o);
	if (status == NT_STATUS_OK || status == NT_STATUS_SOME_NOT_MAPPED ||
	    status == NT_STATUS_NONE_MAPPED) {
		put_refdoms(c->out, &o);
		if (r->kind == LK_SIDS)
			put_names(c->out, r, &o);
		else
			put_sids(c->out, r, &o);
		ndr_put_u32(c->out, o.mapped);
		ndr_put_u32(c->out, status);
	} else {
		put_failure(c->out, status);
	}
	free(o.t);
	free(o.idx);
	free_req(r);
	return 0;
}

static uint32_t run(struct rpc_call *c, enum lk_kind kind, unsigned int ver,
		    bool has_handle, bool has_options)
{
	struct lk_req r = {
		.kind = kind,
		.ver = ver,
		.has_handle = has_handle,
		.has_options = has_options,
	};

	return lookup(c, &r);
}

uint32_t lsa_lookup_names(struct rpc_call *c)
{
	return run(c, LK_NAMES, 1, true, false);
}

uint32_t lsa_lookup_sids(struct rpc_call *c)
{
	return run(c, LK_SIDS, 1, true, false);
}

uint32_t lsa_lookup_sids2(struct rpc_call *c)
{
	return run(c, LK_SIDS, 2, true, true);
}

uint32_t lsa_lookup_names2(struct rpc_call *c)
{
	return run(c, LK_NAMES, 2, true, true);
}

uint32_t lsa_lookup_names3(struct rpc_call *c)
{
	return run(c, LK_NAMES, 3, true, true);
}

uint32_t lsa_lookup_sids3(struct rpc_call *c)
{
	return run(c, LK_SIDS, 2, false, true);
}

uint32_t lsa_lookup_names4(struct rpc_call *c)
{
	return run(c, LK_NAMES, 3, false, true);
}
