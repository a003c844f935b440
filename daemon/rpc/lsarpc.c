// SPDX-License-Identifier: GPL-2.0
/*
 * lsarpc (MS-LSAD, MS-LSAT): policy handles, domain information and
 * SID <-> name translation for the machine's own accounts. We are a
 * standalone server: the account domain is the machine (netbios name and
 * machine SID), the primary domain is the workgroup without a SID.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcerpc.h"
#include "rpc_internal.h"

enum {
	POLICY_PRIMARY_DOMAIN_INFO = 3,
	POLICY_ACCOUNT_DOMAIN_INFO = 5,
	POLICY_DNS_DOMAIN_INFO = 12,
};

/* MS-LSAT 3.1.4.7 / 3.1.4.8: range of the SID and name arrays. */
#define LSA_MAX_SIDS	20480

struct lsa_refdom {
	bool builtin;
	const char *name;
	struct ndr_sid sid;
};

struct lsa_ctx {
	struct rpc_server_info si;
	struct ndr_sid dom;
	struct ndr_sid builtin;
	struct lsa_refdom doms[2];
	unsigned int n_doms;
};

struct lsa_xlat {
	uint16_t use;
	char name[RPC_NAME_LEN];
	int32_t dom_idx;
	struct ndr_sid sid;
};

static int lsa_ctx_init(struct rpc_call *c, struct lsa_ctx *x)
{
	memset(x, 0, sizeof(*x));
	if (rpc_server_info(c, &x->si))
		return -1;
	rpc_domain_sid(&x->si, &x->dom);
	rpc_builtin_sid(&x->builtin);
	return 0;
}

static int32_t refdom_index(struct lsa_ctx *x, bool builtin)
{
	const char *name = builtin ? "BUILTIN" : x->si.netbios_name;
	unsigned int i;

	for (i = 0; i < x->n_doms; i++)
		if (x->doms[i].builtin == builtin)
			return (int32_t)i;
	x->doms[x->n_doms].builtin = builtin;
	x->doms[x->n_doms].name = name;
	x->doms[x->n_doms].sid = builtin ? x->builtin : x->dom;
	return (int32_t)x->n_doms++;
}

static void put_refdoms(struct ndr_enc *e, const struct lsa_ctx *x)
{
	unsigned int i;

	ndr_put_ptr(e, true);
	ndr_put_u32(e, x->n_doms);
	ndr_put_ptr(e, x->n_doms > 0);
	ndr_put_u32(e, x->n_doms);	/* MaxEntries, ignored by clients */
	if (!x->n_doms)
		return;
	ndr_put_u32(e, x->n_doms);
	for (i = 0; i < x->n_doms; i++) {
		ndr_put_ustr_hdr(e, x->doms[i].name);
		ndr_put_ptr(e, true);
	}
	for (i = 0; i < x->n_doms; i++) {
		ndr_put_ustr_body(e, x->doms[i].name);
		ndr_put_sid(e, &x->doms[i].sid);
	}
}

static void sid_to_text(const struct ndr_sid *sid, char *buf, size_t size)
{
	uint64_t auth = 0;
	unsigned int i;
	size_t n;

	for (i = 0; i < 6; i++)
		auth = auth << 8 | sid->id_auth[i];
	n = (size_t)snprintf(buf, size, "S-%u-%llu", sid->revision,
			     (unsigned long long)auth);
	for (i = 0; i < sid->num_auths && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "-%u",
				      sid->sub_auths[i]);
}

static void xlat_account(struct lsa_ctx *x, const struct rpc_account *a,
			 struct lsa_xlat *t)
{
	t->use = a->type == RPC_ACCOUNT_GROUP ? SID_TYPE_GROUP : SID_TYPE_USER;
	snprintf(t->name, sizeof(t->name), "%s", a->name);
	t->dom_idx = refdom_index(x, false);
	ndr_sid_compose(&t->sid, &x->dom, a->rid);
}

/* @name NULL: translate by @rid; otherwise by name. */
static bool xlat_builtin_rid(struct lsa_ctx *x, uint32_t rid,
			     const char *name, struct lsa_xlat *t)
{
	const char *found;

	if (name && !rpc_builtin_alias_rid(name, &rid))
		return false;
	found = rpc_builtin_alias_name(rid);
	if (!found)
		return false;
	t->use = SID_TYPE_ALIAS;
	snprintf(t->name, sizeof(t->name), "%s", found);
	t->dom_idx = refdom_index(x, true);
	ndr_sid_compose(&t->sid, &x->builtin, rid);
	return true;
}

static void lookup_sid(struct rpc_call *c, struct lsa_ctx *x,
		       const struct ndr_sid *sid, struct lsa_xlat *t)
{
	struct rpc_account a;
	uint32_t rid;

	memset(t, 0, sizeof(*t));
	t->sid = *sid;
	t->dom_idx = -1;
	t->use = SID_TYPE_UNKNOWN;
	if (ndr_sid_equal(sid, &x->dom) || ndr_sid_equal(sid, &x->builtin)) {
		bool builtin = ndr_sid_equal(sid, &x->builtin);

		t->use = SID_TYPE_DOMAIN;
		snprintf(t->name, sizeof(t->name), "%s",
			 builtin ? "BUILTIN" : x->si.netbios_name);
		t->dom_idx = refdom_index(x, builtin);
		return;
	}
	if (ndr_sid_in_domain(sid, &x->dom, &rid) &&
	    c->be->find_account_by_rid &&
	    !c->be->find_account_by_rid(c->be->ctx, rid, &a)) {
		xlat_account(x, &a, t);
		return;
	}
	if (ndr_sid_in_domain(sid, &x->builtin, &rid) &&
	    xlat_builtin_rid(x, rid, NULL, t))
		return;
	/* Unmapped SIDs come back under their own text form. */
	sid_to_text(sid, t->name, sizeof(t->name));
}

static void lookup_name(struct rpc_call *c, struct lsa_ctx *x,
			const char *full, struct lsa_xlat *t)
{
	const char *sep = strchr(full, '\\');
	char dom[RPC_NAME_LEN] = "";
	const char *name = full;
	struct rpc_account a;

	memset(t, 0, sizeof(*t));
	t->dom_idx = -1;
	t->use = SID_TYPE_UNKNOWN;
	if (sep) {
		if ((size_t)(sep - full) >= sizeof(dom))
			return;
		memcpy(dom, full, (size_t)(sep - full));
		dom[sep - full] = '\0';
		name = sep + 1;
	}
	if (rpc_name_eq(dom, "BUILTIN")) {
		xlat_builtin_rid(x, 0, name, t);
		return;
	}
	if (dom[0] && !rpc_name_eq(dom, x->si.netbios_name) &&
	    !rpc_name_eq(dom, x->si.workgroup))
		return;
	if (!dom[0] && rpc_name_eq(name, x->si.netbios_name)) {
		t->use = SID_TYPE_DOMAIN;
		t->sid = x->dom;
		t->dom_idx = refdom_index(x, false);
		return;
	}
	if (name[0] && c->be->find_account &&
	    !c->be->find_account(c->be->ctx, name, &a)) {
		xlat_account(x, &a, t);
		return;
	}
	if (!dom[0])
		xlat_builtin_rid(x, 0, name, t);
}

static uint32_t mapped_status(uint32_t mapped, uint32_t count)
{
	if (mapped == count)
		return NT_STATUS_OK;
	return mapped ? NT_STATUS_SOME_NOT_MAPPED : NT_STATUS_NONE_MAPPED;
}

/* LsarClose, opnum 0. */
static bool lsa_kind(enum rpc_handle_kind k)
{
	return k == RPC_HANDLE_LSA_POLICY;
}

static uint32_t lsa_close(struct rpc_call *c)
{
	return rpc_close_handle(c, lsa_kind);
}

/*
 * LSAPR_OBJECT_ATTRIBUTES: the server ignores it (MS-LSAD 3.1.4.4.1), but
 * RootDirectory must be NULL, and we refuse the other optional parts rather
 * than decode structures nobody sends. Returns false when refused.
 */
static bool get_object_attributes(struct ndr_dec *d)
{
	uint32_t root, name, sd, qos;

	ndr_get_u32(d);			/* Length */
	root = ndr_get_ptr(d);
	name = ndr_get_ptr(d);
	ndr_get_u32(d);			/* Attributes */
	sd = ndr_get_ptr(d);
	qos = ndr_get_ptr(d);
	if (root || name || sd)
		return false;
	if (qos) {
		ndr_get_u32(d);		/* Length */
		ndr_get_u16(d);		/* ImpersonationLevel */
		ndr_get_u8(d);		/* ContextTrackingMode */
		ndr_get_u8(d);		/* EffectiveOnly */
	}
	return true;
}

static uint32_t open_policy(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	static const uint8_t zero[NDR_HANDLE_SIZE];
	uint32_t status;

	if (!get_object_attributes(d)) {
		if (d->err)
			return NCA_S_FAULT_NDR;
		ndr_put_handle(c->out, zero);
		ndr_put_u32(c->out, NT_STATUS_INVALID_PARAMETER);
		return 0;
	}
	ndr_get_u32(d);			/* DesiredAccess */
	if (d->err)
		return NCA_S_FAULT_NDR;
	status = rpc_put_new_handle(c, RPC_HANDLE_LSA_POLICY, NULL);
	ndr_put_u32(c->out, status);
	return 0;
}

/* LsarOpenPolicy, opnum 6: SystemName is a pointer to one wchar_t. */
static uint32_t lsa_open_policy(struct rpc_call *c)
{
	if (ndr_get_ptr(&c->in))
		ndr_get_u16(&c->in);
	return open_policy(c);
}

/* LsarOpenPolicy2, opnum 44: SystemName is a string. */
static uint32_t lsa_open_policy2(struct rpc_call *c)
{
	free(ndr_get_string_ptr(&c->in, NULL));
	return open_policy(c);
}

static void put_policy_info(struct ndr_enc *e, uint16_t level,
			    const struct lsa_ctx *x)
{
	static const uint8_t zero_guid[16];

	ndr_put_ptr(e, true);
	ndr_put_u16(e, level);
	if (level == POLICY_ACCOUNT_DOMAIN_INFO) {
		ndr_put_ustr_hdr(e, x->si.netbios_name);
		ndr_put_ptr(e, true);
		ndr_put_ustr_body(e, x->si.netbios_name);
		ndr_put_sid(e, &x->dom);
		return;
	}
	/* A standalone server's primary domain is its workgroup, no SID. */
	ndr_put_ustr_hdr(e, x->si.workgroup);
	if (level == POLICY_DNS_DOMAIN_INFO) {
		ndr_put_ustr_hdr(e, NULL);	/* DnsDomainName */
		ndr_put_ustr_hdr(e, NULL);	/* DnsForestName */
		ndr_put_align(e, 4);
		ndr_put_bytes(e, zero_guid, 16);
	}
	ndr_put_ptr(e, false);
	ndr_put_ustr_body(e, x->si.workgroup);
}

/* LsarQueryInformationPolicy(2), opnums 7 and 46. */
static uint32_t lsa_query_info_policy(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	uint8_t wire[NDR_HANDLE_SIZE];
	struct lsa_ctx x;
	uint16_t level;

	ndr_get_handle(d, wire);
	level = ndr_get_u16(d);
	if (d->err)
		return NCA_S_FAULT_NDR;
	if (!rpc_handle_find(c->handles, wire, RPC_HANDLE_LSA_POLICY)) {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, NT_STATUS_INVALID_HANDLE);
		return 0;
	}
	if (level != POLICY_PRIMARY_DOMAIN_INFO &&
	    level != POLICY_ACCOUNT_DOMAIN_INFO &&
	    level != POLICY_DNS_DOMAIN_INFO) {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, NT_STATUS_INVALID_PARAMETER);
		return 0;
	}
	if (lsa_ctx_init(c, &x)) {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, NT_STATUS_INTERNAL_ERROR);
		return 0;
	}
	put_policy_info(c->out, level, &x);
	ndr_put_u32(c->out, NT_STATUS_OK);
	return 0;
}

/* The trailing in-parameters of LookupSids2 and LookupNames3. */
static void get_lookup_tail(struct ndr_dec *d)
{
	ndr_get_u32(d);			/* translated: Entries */
	if (ndr_get_ptr(d))		/* clients send no translations in */
		ndr_dec_fail(d);
	ndr_get_u16(d);			/* LookupLevel */
	ndr_get_u32(d);			/* MappedCount */
	ndr_get_u32(d);			/* LookupOptions */
	ndr_get_u32(d);			/* ClientRevision */
}

static void put_lookup_failure(struct ndr_enc *e, uint32_t status)
{
	ndr_put_ptr(e, false);		/* ReferencedDomains */
	ndr_put_u32(e, 0);
	ndr_put_ptr(e, false);
	ndr_put_u32(e, 0);		/* MappedCount */
	ndr_put_u32(e, status);
}

static uint32_t lookup_prepare(struct rpc_call *c, const uint8_t *wire,
			       uint32_t n, struct lsa_ctx *x,
			       struct lsa_xlat **t)
{
	*t = NULL;
	if (!rpc_handle_find(c->handles, wire, RPC_HANDLE_LSA_POLICY))
		return NT_STATUS_INVALID_HANDLE;
	if (lsa_ctx_init(c, x))
		return NT_STATUS_INTERNAL_ERROR;
	*t = calloc(n + 1, sizeof(**t));
	return *t ? NT_STATUS_OK : NT_STATUS_INSUFFICIENT_RESOURCES;
}

/* LsarLookupSids2, opnum 57. */
static uint32_t lsa_lookup_sids2(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	uint8_t wire[NDR_HANDLE_SIZE];
	struct lsa_xlat *t = NULL;
	struct ndr_sid *sids;
	uint32_t n, i, mapped = 0, status;
	struct lsa_ctx x;

	ndr_get_handle(d, wire);
	sids = ndr_get_sid_array(d, LSA_MAX_SIDS, &n);
	get_lookup_tail(d);
	if (d->err || !sids) {
		free(sids);
		return NCA_S_FAULT_NDR;
	}
	status = lookup_prepare(c, wire, n, &x, &t);
	if (status) {
		put_lookup_failure(c->out, status);
		free(sids);
		return 0;
	}
	for (i = 0; i < n; i++) {
		lookup_sid(c, &x, &sids[i], &t[i]);
		mapped += t[i].use != SID_TYPE_UNKNOWN;
	}
	put_refdoms(c->out, &x);
	ndr_put_u32(c->out, n);
	ndr_put_ptr(c->out, n > 0);
	if (n) {
		ndr_put_u32(c->out, n);
		for (i = 0; i < n; i++) {
			ndr_put_u16(c->out, t[i].use);
			ndr_put_ustr_hdr(c->out, t[i].name);
			ndr_put_u32(c->out, (uint32_t)t[i].dom_idx);
			ndr_put_u32(c->out, 0);		/* Flags */
		}
		for (i = 0; i < n; i++)
			ndr_put_ustr_body(c->out, t[i].name);
	}
	ndr_put_u32(c->out, mapped);
	ndr_put_u32(c->out, mapped_status(mapped, n));
	free(t);
	free(sids);
	return 0;
}

/* [size_is(Count)] PRPC_UNICODE_STRING Names */
static char **get_name_array(struct ndr_dec *d, uint32_t *count)
{
	char **names;
	uint32_t n;

	n = ndr_get_u32(d);
	*count = 0;
	if (n > RPC_MAX_LOOKUP || ndr_get_count(d, 8) != n || d->err) {
		ndr_dec_fail(d);
		return NULL;
	}
	names = ndr_get_ustr_array(d, n);
	if (names)
		*count = n;
	return names;
}

/* LsarLookupNames3, opnum 68. */
static uint32_t lsa_lookup_names3(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	uint8_t wire[NDR_HANDLE_SIZE];
	struct lsa_xlat *t = NULL;
	uint32_t n, i, mapped = 0, status;
	struct lsa_ctx x;
	char **names;

	ndr_get_handle(d, wire);
	names = get_name_array(d, &n);
	get_lookup_tail(d);
	if (d->err || !names) {
		ndr_free_strings(names, n);
		return NCA_S_FAULT_NDR;
	}
	status = lookup_prepare(c, wire, n, &x, &t);
	if (status) {
		put_lookup_failure(c->out, status);
		ndr_free_strings(names, n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		lookup_name(c, &x, names[i], &t[i]);
		mapped += t[i].use != SID_TYPE_UNKNOWN;
	}
	put_refdoms(c->out, &x);
	ndr_put_u32(c->out, n);
	ndr_put_ptr(c->out, n > 0);
	if (n) {
		ndr_put_u32(c->out, n);
		for (i = 0; i < n; i++) {
			bool has_sid = t[i].use != SID_TYPE_UNKNOWN;

			ndr_put_u16(c->out, t[i].use);
			ndr_put_ptr(c->out, has_sid);
			ndr_put_u32(c->out, (uint32_t)t[i].dom_idx);
			ndr_put_u32(c->out, 0);		/* Flags */
		}
		for (i = 0; i < n; i++)
			if (t[i].use != SID_TYPE_UNKNOWN)
				ndr_put_sid(c->out, &t[i].sid);
	}
	ndr_put_u32(c->out, mapped);
	ndr_put_u32(c->out, mapped_status(mapped, n));
	free(t);
	ndr_free_strings(names, n);
	return 0;
}

static const struct rpc_op lsarpc_ops[] = {
	{ 0, lsa_close },
	{ 6, lsa_open_policy },
	{ 7, lsa_query_info_policy },
	{ 44, lsa_open_policy2 },
	{ 46, lsa_query_info_policy },
	{ 57, lsa_lookup_sids2 },
	{ 68, lsa_lookup_names3 },
};

const struct rpc_iface rpc_lsarpc_iface = {
	.name = "lsarpc",
	.uuid = "12345778-1234-abcd-ef00-0123456789ab",
	.ver_major = 0,
	.ver_minor = 0,
	.ops = lsarpc_ops,
	.n_ops = sizeof(lsarpc_ops) / sizeof(lsarpc_ops[0]),
};
