// SPDX-License-Identifier: GPL-2.0
/*
 * samr (MS-SAMR): the read-only subset clients use to list domains, map
 * names to rids and show a user: connect, enumerate / look up / open
 * domains, query a domain's information, look up names, open and query
 * users, group and alias membership, security object, close. Two domains exist: the account
 * domain (the machine, its SID from the backend) and Builtin (S-1-5-32).
 */
#include <stdlib.h>
#include <string.h>

#include "dcerpc.h"
#include "idmap.h"
#include "rpc_internal.h"

#define USER_INFO_ALL		21
#define ACB_NORMAL		0x00000010u
#define ACB_PWNOEXP		0x00000200u
#define NEVER			0x7fffffffffffffffull
#define SE_GROUP_DEFAULT	0x00000007u	/* mandatory|default|enabled */
#define SAMR_MAX_GROUPS		1024
#define SAMR_MAX_SIDS		1024
#define BUILTIN_USERS_RID	545

/* UserAllInformation fields we fill in (MS-SAMR 2.2.1.8). */
#define USER_ALL_FILLED	(0x00000001u | 0x00000002u | 0x00000004u | \
			 0x00000008u | 0x00002000u | 0x00100000u)

static bool samr_kind(enum rpc_handle_kind k)
{
	return k == RPC_HANDLE_SAMR_SERVER || k == RPC_HANDLE_SAMR_DOMAIN ||
	       k == RPC_HANDLE_SAMR_USER;
}

static struct rpc_handle *get_handle(struct rpc_call *c,
				     enum rpc_handle_kind kind)
{
	uint8_t wire[NDR_HANDLE_SIZE];

	ndr_get_handle(&c->in, wire);
	if (c->in.err)
		return NULL;
	return rpc_handle_find(c->handles, wire, kind);
}

static uint32_t connect_reply(struct rpc_call *c)
{
	uint32_t status = rpc_put_new_handle(c, RPC_HANDLE_SAMR_SERVER, NULL);

	ndr_put_u32(c->out, status);
	return 0;
}

/* SamrConnect, opnum 0: ServerName points to a single wchar_t. */
static uint32_t samr_connect(struct rpc_call *c)
{
	if (ndr_get_ptr(&c->in))
		ndr_get_u16(&c->in);
	ndr_get_u32(&c->in);		/* DesiredAccess */
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	return connect_reply(c);
}

/* SamrConnect2, opnum 57. */
static uint32_t samr_connect2(struct rpc_call *c)
{
	free(ndr_get_string_ptr(&c->in, NULL));
	ndr_get_u32(&c->in);		/* DesiredAccess */
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	return connect_reply(c);
}

/* SamrConnect4, opnum 62. */
static uint32_t samr_connect4(struct rpc_call *c)
{
	free(ndr_get_string_ptr(&c->in, NULL));
	ndr_get_u32(&c->in);		/* ClientRevision */
	ndr_get_u32(&c->in);		/* DesiredAccess */
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	return connect_reply(c);
}

/* SamrConnect5, opnum 64. */
static uint32_t samr_connect5(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	uint32_t in_version, disc, status;

	free(ndr_get_string_ptr(d, NULL));
	ndr_get_u32(d);			/* DesiredAccess */
	in_version = ndr_get_u32(d);
	disc = ndr_get_u32(d);
	ndr_get_u32(d);			/* V1.Revision */
	ndr_get_u32(d);			/* V1.SupportedFeatures */
	/* Version 1 is the only union arm there is. */
	if (d->err || in_version != 1 || disc != 1)
		return NCA_S_FAULT_NDR;
	ndr_put_u32(c->out, 1);		/* OutVersion */
	ndr_put_u32(c->out, 1);
	ndr_put_u32(c->out, 3);		/* Revision */
	ndr_put_u32(c->out, 0);		/* SupportedFeatures */
	status = rpc_put_new_handle(c, RPC_HANDLE_SAMR_SERVER, NULL);
	ndr_put_u32(c->out, status);
	return 0;
}

/* SamrCloseHandle, opnum 1: any samr handle. */
static uint32_t samr_close(struct rpc_call *c)
{
	return rpc_close_handle(c, samr_kind);
}

static size_t put_sd_sid(uint8_t *p, const struct ndr_sid *sid)
{
	unsigned int i;

	p[0] = sid->revision;
	p[1] = sid->num_auths;
	memcpy(p + 2, sid->id_auth, 6);
	for (i = 0; i < sid->num_auths; i++) {
		uint32_t v = sid->sub_auths[i];

		p[8 + 4 * i] = v & 0xff;
		p[9 + 4 * i] = (v >> 8) & 0xff;
		p[10 + 4 * i] = (v >> 16) & 0xff;
		p[11 + 4 * i] = v >> 24;
	}
	return 8 + 4 * (size_t)sid->num_auths;
}

static size_t put_ace(uint8_t *p, uint32_t mask, const struct ndr_sid *sid)
{
	size_t n = 8 + put_sd_sid(p + 8, sid);

	p[0] = 0;			/* ACCESS_ALLOWED_ACE_TYPE */
	p[1] = 0;
	p[2] = n & 0xff;
	p[3] = n >> 8;
	p[4] = mask & 0xff;
	p[5] = (mask >> 8) & 0xff;
	p[6] = (mask >> 16) & 0xff;
	p[7] = mask >> 24;
	return n;
}

/*
 * A self-relative SD (MS-DTYP 2.4.6) granting Everyone read/execute and
 * Builtin\Administrators full control: what a read-only SAM really allows.
 */
static size_t build_sd(uint8_t *sd)
{
	struct ndr_sid everyone = { .revision = 1, .num_auths = 1,
				    .id_auth = { 0, 0, 0, 0, 0, 1 } };
	struct ndr_sid admins;
	size_t acl = 20, n = acl + 8;

	ndr_sid_compose(&admins, &(struct ndr_sid){ .revision = 1,
		.num_auths = 1, .id_auth = { 0, 0, 0, 0, 0, 5 },
		.sub_auths = { 32 } }, 544);
	memset(sd, 0, n);
	sd[0] = 1;
	sd[2] = 0x04;			/* SE_DACL_PRESENT */
	sd[3] = 0x80;			/* SE_SELF_RELATIVE */
	sd[16] = acl;			/* OffsetDacl */
	n += put_ace(sd + n, 0x0002035bu, &everyone);
	n += put_ace(sd + n, 0x000f07ffu, &admins);
	sd[acl] = 2;			/* ACL_REVISION */
	sd[acl + 2] = (n - acl) & 0xff;
	sd[acl + 3] = (n - acl) >> 8;
	sd[acl + 4] = 2;		/* AceCount */
	return n;
}

/* SamrQuerySecurityObject, opnum 3. */
static uint32_t samr_query_security(struct rpc_call *c)
{
	uint8_t wire[NDR_HANDLE_SIZE], sd[128];
	struct rpc_handle *h;
	size_t n;

	ndr_get_handle(&c->in, wire);
	ndr_get_u32(&c->in);		/* SecurityInformation */
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	h = rpc_handle_find(c->handles, wire, RPC_HANDLE_FREE);
	if (!h || !samr_kind(h->kind)) {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, NT_STATUS_INVALID_HANDLE);
		return 0;
	}
	n = build_sd(sd);
	ndr_put_ptr(c->out, true);
	ndr_put_u32(c->out, n);
	ndr_put_ptr(c->out, true);
	ndr_put_u32(c->out, n);
	ndr_put_bytes(c->out, sd, n);
	ndr_put_u32(c->out, NT_STATUS_OK);
	return 0;
}

/* SamrLookupDomainInSamServer, opnum 5. */
static uint32_t samr_lookup_domain(struct rpc_call *c)
{
	struct rpc_server_info si;
	struct rpc_handle *h;
	struct ndr_sid sid;
	struct ndr_ustr u;
	char *name;

	h = get_handle(c, RPC_HANDLE_SAMR_SERVER);
	ndr_get_ustr_hdr(&c->in, &u);
	name = ndr_get_ustr_body(&c->in, &u);
	if (c->in.err) {
		free(name);
		return NCA_S_FAULT_NDR;
	}
	if (!h || rpc_server_info(c, &si)) {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, h ? NT_STATUS_INTERNAL_ERROR :
					NT_STATUS_INVALID_HANDLE);
		free(name);
		return 0;
	}
	if (rpc_name_eq(name, "Builtin")) {
		rpc_builtin_sid(&sid);
	} else if (rpc_name_eq(name, si.netbios_name)) {
		rpc_domain_sid(&si, &sid);
	} else {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, NT_STATUS_NO_SUCH_DOMAIN);
		free(name);
		return 0;
	}
	ndr_put_ptr(c->out, true);
	ndr_put_sid(c->out, &sid);
	ndr_put_u32(c->out, NT_STATUS_OK);
	free(name);
	return 0;
}

/* SamrEnumerateDomainsInSamServer, opnum 6. */
static uint32_t samr_enum_domains(struct rpc_call *c)
{
	struct rpc_server_info si;
	const char *names[2];
	struct rpc_handle *h;
	uint32_t ctx, i, first, n;

	h = get_handle(c, RPC_HANDLE_SAMR_SERVER);
	ctx = ndr_get_u32(&c->in);
	ndr_get_u32(&c->in);		/* PreferedMaximumLength */
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	if (!h || rpc_server_info(c, &si)) {
		ndr_put_u32(c->out, ctx);
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, 0);
		ndr_put_u32(c->out, h ? NT_STATUS_INTERNAL_ERROR :
					NT_STATUS_INVALID_HANDLE);
		return 0;
	}
	names[0] = si.netbios_name;
	names[1] = "Builtin";
	first = ctx < 2 ? ctx : 2;
	n = 2 - first;
	ndr_put_u32(c->out, first + n);		/* EnumerationContext */
	ndr_put_ptr(c->out, true);
	ndr_put_u32(c->out, n);
	ndr_put_ptr(c->out, n > 0);
	if (n) {
		ndr_put_u32(c->out, n);
		for (i = 0; i < n; i++) {
			ndr_put_u32(c->out, 0);		/* RelativeId */
			ndr_put_ustr_hdr(c->out, names[first + i]);
		}
		for (i = 0; i < n; i++)
			ndr_put_ustr_body(c->out, names[first + i]);
	}
	ndr_put_u32(c->out, n);			/* CountReturned */
	ndr_put_u32(c->out, NT_STATUS_OK);
	return 0;
}

/* SamrOpenDomain, opnum 7. */
static uint32_t samr_open_domain(struct rpc_call *c)
{
	static const uint8_t zero[NDR_HANDLE_SIZE];
	struct ndr_sid sid, dom, builtin;
	struct rpc_server_info si;
	struct rpc_handle *h, *nh;
	uint32_t status;

	h = get_handle(c, RPC_HANDLE_SAMR_SERVER);
	ndr_get_u32(&c->in);		/* DesiredAccess */
	ndr_get_sid(&c->in, &sid);
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	if (!h || rpc_server_info(c, &si)) {
		ndr_put_handle(c->out, zero);
		ndr_put_u32(c->out, h ? NT_STATUS_INTERNAL_ERROR :
					NT_STATUS_INVALID_HANDLE);
		return 0;
	}
	rpc_domain_sid(&si, &dom);
	rpc_builtin_sid(&builtin);
	if (!ndr_sid_equal(&sid, &dom) && !ndr_sid_equal(&sid, &builtin)) {
		ndr_put_handle(c->out, zero);
		ndr_put_u32(c->out, NT_STATUS_NO_SUCH_DOMAIN);
		return 0;
	}
	status = rpc_put_new_handle(c, RPC_HANDLE_SAMR_DOMAIN, &nh);
	if (nh)
		nh->builtin = ndr_sid_equal(&sid, &builtin);
	ndr_put_u32(c->out, status);
	return 0;
}

/* DOMAIN_INFORMATION_CLASS values we answer (MS-SAMR 2.2.3.17). */
enum {
	DOMAIN_PASSWORD_INFO = 1,
	DOMAIN_GENERAL_INFO = 2,
	DOMAIN_LOGOFF_INFO = 3,
	DOMAIN_OEM_INFO = 4,
	DOMAIN_NAME_INFO = 5,
	DOMAIN_REPLICATION_INFO = 6,
	DOMAIN_SERVER_ROLE_INFO = 7,
	DOMAIN_STATE_INFO = 9,
};

#define DOMAIN_SERVER_ENABLED	1u
/* A relative time (OLD_LARGE_INTEGER) meaning "never" (MS-SAMR 2.2.3.1). */
#define TIME_NEVER		0x8000000000000000ull
#define DOMAIN_ROLE_PRIMARY	3u	/* a machine's own SAM is primary */
#define BUILTIN_ALIASES		3u

struct domain_view {
	const char *name;
	const char *oem;
	uint16_t min_password_length, password_history_length;
	uint32_t users, groups, aliases;	/* DOMAIN_GENERAL_INFO only */
};

/* Enumerates every account: only the level that reports counts calls it. */
static void domain_counts(struct rpc_call *c, bool builtin,
			  struct domain_view *v)
{
	v->aliases = builtin ? BUILTIN_ALIASES : 0;
	if (builtin || !c->be->count_accounts ||
	    c->be->count_accounts(c->be->ctx, &v->users, &v->groups)) {
		v->users = 0;
		v->groups = 0;
	}
}

/* SAMPR_DOMAIN_GENERAL_INFORMATION (MS-SAMR 2.2.3.2) */
static void put_domain_general(struct ndr_enc *e, const struct domain_view *v)
{
	ndr_put_u64(e, TIME_NEVER);	/* ForceLogoff */
	ndr_put_ustr_hdr(e, v->oem);
	ndr_put_ustr_hdr(e, v->name);
	ndr_put_ustr_hdr(e, "");	/* ReplicaSourceNodeName */
	ndr_put_u64(e, 1);		/* DomainModifiedCount */
	ndr_put_u32(e, DOMAIN_SERVER_ENABLED);
	ndr_put_u32(e, DOMAIN_ROLE_PRIMARY);
	ndr_put_u32(e, 0);		/* UidOnlyAccepted, padded */
	ndr_put_u32(e, v->users);
	ndr_put_u32(e, v->groups);
	ndr_put_u32(e, v->aliases);
	ndr_put_ustr_body(e, v->oem);
	ndr_put_ustr_body(e, v->name);
	ndr_put_ustr_body(e, "");
}

/*
 * One arm of SAMPR_DOMAIN_INFO_BUFFER, after its 2-byte discriminant. The
 * levels served here (MS-SAMR 2.2.4.5 - 2.2.4.12) are structures of ULONGs,
 * OLD_LARGE_INTEGERs (two ULONGs) and RPC_UNICODE_STRINGs, so every arm is
 * 4-byte aligned: the arm starts at the next multiple of 4 whatever its
 * first member is (a USHORT for level 1). The lockout and modified-count
 * levels (8, 12, 13) hold 8-byte integers and are refused as unsupported.
 */
static void put_domain_info(struct ndr_enc *e, uint16_t level,
			    const struct domain_view *v)
{
	ndr_put_align(e, 4);
	switch (level) {
	case DOMAIN_PASSWORD_INFO:
		ndr_put_u16(e, v->min_password_length);
		ndr_put_u16(e, v->password_history_length);
		ndr_put_u32(e, 0);	/* PasswordProperties */
		ndr_put_u64(e, TIME_NEVER);	/* MaxPasswordAge: never */
		ndr_put_u64(e, 0);	/* MinPasswordAge */
		return;
	case DOMAIN_GENERAL_INFO:
		put_domain_general(e, v);
		return;
	case DOMAIN_LOGOFF_INFO:
		ndr_put_u64(e, TIME_NEVER);	/* ForceLogoff: never */
		return;
	case DOMAIN_OEM_INFO:
	case DOMAIN_NAME_INFO:
	case DOMAIN_REPLICATION_INFO: {
		const char *s = level == DOMAIN_OEM_INFO ? v->oem :
				level == DOMAIN_NAME_INFO ? v->name : "";

		ndr_put_ustr_hdr(e, s);
		ndr_put_ustr_body(e, s);
		return;
	}
	case DOMAIN_SERVER_ROLE_INFO:
		ndr_put_u32(e, DOMAIN_ROLE_PRIMARY);
		return;
	case DOMAIN_STATE_INFO:
		ndr_put_u32(e, DOMAIN_SERVER_ENABLED);
		return;
	default:
		break;
	}
}

static bool domain_level_known(uint16_t level)
{
	return (level >= DOMAIN_PASSWORD_INFO &&
		level <= DOMAIN_SERVER_ROLE_INFO) || level == DOMAIN_STATE_INFO;
}

/* SamrQueryInformationDomain(2), opnums 8 and 46. */
static uint32_t samr_query_domain(struct rpc_call *c)
{
	struct rpc_server_info si;
	struct domain_view v;
	struct rpc_handle *h;
	uint32_t status = NT_STATUS_OK;
	uint16_t level;

	h = get_handle(c, RPC_HANDLE_SAMR_DOMAIN);
	level = ndr_get_u16(&c->in);
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	if (!h)
		status = NT_STATUS_INVALID_HANDLE;
	else if (!domain_level_known(level))
		status = NT_STATUS_INVALID_INFO_CLASS;
	else if (rpc_server_info(c, &si))
		status = NT_STATUS_INTERNAL_ERROR;
	ndr_put_ptr(c->out, status == NT_STATUS_OK);
	if (status == NT_STATUS_OK) {
		memset(&v, 0, sizeof(v));
		v.name = h->builtin ? "Builtin" : si.netbios_name;
		v.oem = h->builtin ? "" : si.comment;
		v.min_password_length = si.min_password_length;
		v.password_history_length = si.password_history_length;
		if (level == DOMAIN_GENERAL_INFO)
			domain_counts(c, h->builtin, &v);
		ndr_put_u16(c->out, level);
		put_domain_info(c->out, level, &v);
	}
	ndr_put_u32(c->out, status);
	return 0;
}

static bool is_domain_user(struct rpc_call *c, const struct ndr_sid *sid,
			   const struct ndr_sid *dom)
{
	struct rpc_account a;
	uint32_t rid;

	return ndr_sid_in_domain(sid, dom, &rid) && c->be->find_account_by_rid &&
	       !c->be->find_account_by_rid(c->be->ctx, rid, &a) &&
	       a.type == RPC_ACCOUNT_USER;
}

/*
 * SamrGetAliasMembership, opnum 16. Aliases live in Builtin only; every
 * user of ours counts as a member of Builtin\Users, as on Windows.
 */
static uint32_t samr_get_alias_membership(struct rpc_call *c)
{
	struct rpc_server_info si;
	struct ndr_sid *sids, dom;
	struct rpc_handle *h;
	bool member = false;
	uint32_t n, i;

	h = get_handle(c, RPC_HANDLE_SAMR_DOMAIN);
	sids = ndr_get_sid_array(&c->in, SAMR_MAX_SIDS, &n);
	if (c->in.err || !sids) {
		free(sids);
		return NCA_S_FAULT_NDR;
	}
	if (!h) {
		ndr_put_u32(c->out, 0);
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, NT_STATUS_INVALID_HANDLE);
		free(sids);
		return 0;
	}
	if (h->builtin && !rpc_server_info(c, &si)) {
		rpc_domain_sid(&si, &dom);
		for (i = 0; i < n && !member; i++)
			member = is_domain_user(c, &sids[i], &dom);
	}
	free(sids);
	ndr_put_u32(c->out, member ? 1 : 0);
	ndr_put_ptr(c->out, member);
	if (member) {
		ndr_put_u32(c->out, 1);
		ndr_put_u32(c->out, BUILTIN_USERS_RID);
	}
	ndr_put_u32(c->out, NT_STATUS_OK);
	return 0;
}

static void lookup_in_domain(struct rpc_call *c, bool builtin,
			     const char *name, uint32_t *rid, uint32_t *use)
{
	struct rpc_account a;

	*rid = 0;
	*use = SID_TYPE_UNKNOWN;
	if (builtin) {
		if (rpc_builtin_alias_rid(name, rid))
			*use = SID_TYPE_ALIAS;
		return;
	}
	if (name[0] && c->be->find_account &&
	    !c->be->find_account(c->be->ctx, name, &a)) {
		*rid = a.rid;
		*use = a.type == RPC_ACCOUNT_GROUP ? SID_TYPE_GROUP :
						     SID_TYPE_USER;
	}
}

static void put_ulong_array(struct ndr_enc *e, const uint32_t *v, uint32_t n)
{
	uint32_t i;

	ndr_put_u32(e, n);
	ndr_put_ptr(e, n > 0);
	if (!n)
		return;
	ndr_put_u32(e, n);
	for (i = 0; i < n; i++)
		ndr_put_u32(e, v[i]);
}

/* [size_is(1000), length_is(Count)] RPC_UNICODE_STRING Names[*] */
static char **get_names(struct ndr_dec *d, uint32_t count)
{
	uint32_t n, max;

	n = ndr_get_varying(d, 8, &max);
	if (d->err || n != count || n > RPC_MAX_LOOKUP) {
		ndr_dec_fail(d);
		return NULL;
	}
	return ndr_get_ustr_array(d, n);
}

/* SamrLookupNamesInDomain, opnum 17. */
static uint32_t samr_lookup_names(struct rpc_call *c)
{
	uint32_t count, i, mapped = 0, status, *rids, *uses;
	struct rpc_handle *h;
	char **names;

	h = get_handle(c, RPC_HANDLE_SAMR_DOMAIN);
	count = ndr_get_u32(&c->in);
	names = get_names(&c->in, count);
	if (c->in.err || !names)
		return NCA_S_FAULT_NDR;
	if (!h) {
		put_ulong_array(c->out, NULL, 0);
		put_ulong_array(c->out, NULL, 0);
		ndr_put_u32(c->out, NT_STATUS_INVALID_HANDLE);
		ndr_free_strings(names, count);
		return 0;
	}
	rids = calloc((size_t)count + 1, sizeof(*rids));
	uses = calloc((size_t)count + 1, sizeof(*uses));
	if (!rids || !uses) {
		free(rids);
		free(uses);
		ndr_free_strings(names, count);
		return NCA_S_FAULT_REMOTE_NO_MEMORY;
	}
	for (i = 0; i < count; i++) {
		lookup_in_domain(c, h->builtin, names[i], &rids[i], &uses[i]);
		mapped += uses[i] != SID_TYPE_UNKNOWN;
	}
	put_ulong_array(c->out, rids, count);
	put_ulong_array(c->out, uses, count);
	if (mapped == count)
		status = NT_STATUS_OK;
	else
		status = mapped ? NT_STATUS_SOME_NOT_MAPPED :
				  NT_STATUS_NONE_MAPPED;
	ndr_put_u32(c->out, status);
	free(rids);
	free(uses);
	ndr_free_strings(names, count);
	return 0;
}

/* SamrOpenUser, opnum 34. */
static uint32_t samr_open_user(struct rpc_call *c)
{
	static const uint8_t zero[NDR_HANDLE_SIZE];
	struct rpc_handle *h, *nh;
	struct rpc_account a;
	uint32_t rid, status;

	h = get_handle(c, RPC_HANDLE_SAMR_DOMAIN);
	ndr_get_u32(&c->in);		/* DesiredAccess */
	rid = ndr_get_u32(&c->in);
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	if (!h) {
		status = NT_STATUS_INVALID_HANDLE;
	} else if (h->builtin || !c->be->find_account_by_rid ||
		   c->be->find_account_by_rid(c->be->ctx, rid, &a) ||
		   a.type != RPC_ACCOUNT_USER) {
		status = NT_STATUS_NO_SUCH_USER;
	} else {
		status = rpc_put_new_handle(c, RPC_HANDLE_SAMR_USER, &nh);
		if (nh)
			nh->rid = rid;
		ndr_put_u32(c->out, status);
		return 0;
	}
	ndr_put_handle(c->out, zero);
	ndr_put_u32(c->out, status);
	return 0;
}

/* SAMPR_USER_ALL_INFORMATION (MS-SAMR 2.2.6.6), read-only view. */
static void put_user_all(struct ndr_enc *e, const struct rpc_account *a)
{
	static const uint8_t all_hours[21] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff
	};
	const char *full = a->full_name[0] ? a->full_name : NULL;
	int i;

	ndr_put_u64(e, 0);		/* LastLogon */
	ndr_put_u64(e, 0);		/* LastLogoff */
	ndr_put_u64(e, 0);		/* PasswordLastSet */
	ndr_put_u64(e, NEVER);		/* AccountExpires */
	ndr_put_u64(e, 0);		/* PasswordCanChange */
	ndr_put_u64(e, NEVER);		/* PasswordMustChange */
	ndr_put_ustr_hdr(e, a->name);
	ndr_put_ustr_hdr(e, full);
	/* HomeDirectory .. Parameters, LM/NT OWF (never sent), PrivateData */
	for (i = 0; i < 11; i++)
		ndr_put_ustr_hdr(e, NULL);
	ndr_put_u32(e, 0);		/* SecurityDescriptor.Length */
	ndr_put_ptr(e, false);
	ndr_put_u32(e, a->rid);
	ndr_put_u32(e, a->primary_group_rid);
	ndr_put_u32(e, ACB_NORMAL | ACB_PWNOEXP);
	ndr_put_u32(e, USER_ALL_FILLED);
	ndr_put_u16(e, 168);		/* LogonHours.UnitsPerWeek */
	ndr_put_ptr(e, true);
	ndr_put_u16(e, 0);		/* BadPasswordCount */
	ndr_put_u16(e, 0);		/* LogonCount */
	ndr_put_u16(e, 0);		/* CountryCode */
	ndr_put_u16(e, 0);		/* CodePage */
	ndr_put_zeros(e, 4);		/* Lm/NtPasswordPresent, Expired, .. */
	ndr_put_ustr_body(e, a->name);
	ndr_put_ustr_body(e, full);
	ndr_put_u32(e, 1260);
	ndr_put_u32(e, 0);
	ndr_put_u32(e, sizeof(all_hours));
	ndr_put_bytes(e, all_hours, sizeof(all_hours));
}

/* SamrQueryInformationUser(2), opnums 36 and 47. */
static uint32_t samr_query_user(struct rpc_call *c)
{
	struct rpc_handle *h;
	struct rpc_account a;
	uint32_t status;
	uint16_t level;

	h = get_handle(c, RPC_HANDLE_SAMR_USER);
	level = ndr_get_u16(&c->in);
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	if (!h)
		status = NT_STATUS_INVALID_HANDLE;
	else if (level != USER_INFO_ALL)
		status = NT_STATUS_INVALID_INFO_CLASS;
	else if (!c->be->find_account_by_rid ||
		 c->be->find_account_by_rid(c->be->ctx, h->rid, &a))
		status = NT_STATUS_NO_SUCH_USER;
	else
		status = NT_STATUS_OK;
	ndr_put_ptr(c->out, status == NT_STATUS_OK);
	if (status == NT_STATUS_OK) {
		ndr_put_u16(c->out, level);
		ndr_put_align(c->out, 4);
		put_user_all(c->out, &a);
	}
	ndr_put_u32(c->out, status);
	return 0;
}

/* SamrGetGroupsForUser, opnum 39. */
static uint32_t samr_get_groups(struct rpc_call *c)
{
	uint32_t rids[SAMR_MAX_GROUPS];
	struct rpc_handle *h;
	size_t n = 0, i;

	h = get_handle(c, RPC_HANDLE_SAMR_USER);
	if (c->in.err)
		return NCA_S_FAULT_NDR;
	if (!h) {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, NT_STATUS_INVALID_HANDLE);
		return 0;
	}
	if (c->be->get_user_groups &&
	    c->be->get_user_groups(c->be->ctx, h->rid, rids, SAMR_MAX_GROUPS,
				   &n))
		n = 0;
	if (n > SAMR_MAX_GROUPS)
		n = SAMR_MAX_GROUPS;
	ndr_put_ptr(c->out, true);
	ndr_put_u32(c->out, n);
	ndr_put_ptr(c->out, n > 0);
	if (n) {
		ndr_put_u32(c->out, n);
		for (i = 0; i < n; i++) {
			ndr_put_u32(c->out, rids[i]);
			ndr_put_u32(c->out, SE_GROUP_DEFAULT);
		}
	}
	ndr_put_u32(c->out, NT_STATUS_OK);
	return 0;
}

static const struct rpc_op samr_ops[] = {
	{ 0, samr_connect },
	{ 1, samr_close },
	{ 3, samr_query_security },
	{ 5, samr_lookup_domain },
	{ 6, samr_enum_domains },
	{ 7, samr_open_domain },
	{ 8, samr_query_domain },
	{ 16, samr_get_alias_membership },
	{ 17, samr_lookup_names },
	{ 34, samr_open_user },
	{ 36, samr_query_user },
	{ 39, samr_get_groups },
	{ 46, samr_query_domain },
	{ 47, samr_query_user },
	{ 57, samr_connect2 },
	{ 62, samr_connect4 },
	{ 64, samr_connect5 },
};

const struct rpc_iface rpc_samr_iface = {
	.name = "samr",
	.uuid = "12345778-1234-abcd-ef00-0123456789ac",
	.ver_major = 1,
	.ver_minor = 0,
	.ops = samr_ops,
	.n_ops = sizeof(samr_ops) / sizeof(samr_ops[0]),
};
