// SPDX-License-Identifier: GPL-2.0
/*
 * lsarpc (MS-LSAD, MS-LSAT): policy handles and domain information; the
 * SID <-> name translations are in lsa_lookup.c. We are a standalone
 * server: the account domain is the machine (netbios name and machine
 * SID), the primary domain is the workgroup without a SID.
 */
#include <stdlib.h>
#include <string.h>

#include "dcerpc.h"
#include "idmap.h"
#include "lsa_lookup.h"
#include "rpc_internal.h"

enum {
	POLICY_PRIMARY_DOMAIN_INFO = 3,
	POLICY_ACCOUNT_DOMAIN_INFO = 5,
	POLICY_DNS_DOMAIN_INFO = 12,
};

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
			    const struct idmap_ctx *m)
{
	static const uint8_t zero_guid[16];

	ndr_put_ptr(e, true);
	ndr_put_u16(e, level);
	if (level == POLICY_ACCOUNT_DOMAIN_INFO) {
		ndr_put_ustr_hdr(e, m->si.netbios_name);
		ndr_put_ptr(e, true);
		ndr_put_ustr_body(e, m->si.netbios_name);
		ndr_put_sid(e, &m->account);
		return;
	}
	/* A standalone server's primary domain is its workgroup, no SID. */
	ndr_put_ustr_hdr(e, m->si.workgroup);
	if (level == POLICY_DNS_DOMAIN_INFO) {
		ndr_put_ustr_hdr(e, NULL);	/* DnsDomainName */
		ndr_put_ustr_hdr(e, NULL);	/* DnsForestName */
		ndr_put_align(e, 4);
		ndr_put_bytes(e, zero_guid, 16);
	}
	ndr_put_ptr(e, false);
	ndr_put_ustr_body(e, m->si.workgroup);
}

/* LsarQueryInformationPolicy(2), opnums 7 and 46. */
static uint32_t lsa_query_info_policy(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	uint8_t wire[NDR_HANDLE_SIZE];
	struct idmap_ctx m;
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
	if (idmap_init(&m, c->be)) {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, NT_STATUS_INTERNAL_ERROR);
		return 0;
	}
	put_policy_info(c->out, level, &m);
	ndr_put_u32(c->out, NT_STATUS_OK);
	return 0;
}

static const struct rpc_op lsarpc_ops[] = {
	{ 0, lsa_close },
	{ 6, lsa_open_policy },
	{ 7, lsa_query_info_policy },
	{ 14, lsa_lookup_names },
	{ 15, lsa_lookup_sids },
	{ 44, lsa_open_policy2 },
	{ 46, lsa_query_info_policy },
	{ 57, lsa_lookup_sids2 },
	{ 58, lsa_lookup_names2 },
	{ 68, lsa_lookup_names3 },
	{ 76, lsa_lookup_sids3 },
	{ 77, lsa_lookup_names4 },
};

const struct rpc_iface rpc_lsarpc_iface = {
	.name = "lsarpc",
	.uuid = "12345778-1234-abcd-ef00-0123456789ab",
	.ver_major = 0,
	.ver_minor = 0,
	.ops = lsarpc_ops,
	.n_ops = sizeof(lsarpc_ops) / sizeof(lsarpc_ops[0]),
};
