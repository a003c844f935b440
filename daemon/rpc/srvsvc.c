// SPDX-License-Identifier: GPL-2.0
/*
 * srvsvc (MS-SRVS): share enumeration, share info and server info, what
 * `smbclient -L`, `rpcclient netshareenumall / netsharegetinfo / srvinfo`
 * and the Windows "network" view ask for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcerpc.h"
#include "rpc_internal.h"

#define PLATFORM_ID_NT		500
/* Enumerations stop here; nobody browses more shares than this. */
#define SRVSVC_MAX_SHARES	4096
#define SRVSVC_MAX_PREFERRED	0xffffffffu

/*
 * Union arms of SHARE_ENUM_UNION as clients marshal them: each a pointer.
 * A level outside this list has an empty arm (Samba's IDL [default]).
 */
static bool enum_arm_exists(uint32_t level)
{
	return level == 0 || level == 1 || level == 2 || level == 501 ||
	       level == 502 || level == 503 || level == 1004 ||
	       level == 1005 || level == 1006 || level == 1007 ||
	       level == 1501;
}

static bool share_level_ok(uint32_t level)
{
	return level == 0 || level == 1 || level == 2 || level == 501 ||
	       level == 502 || level == 1005;
}

/* Windows clients show share paths in drive-letter form. */
static void win_path(const char *unix_path, char *out, size_t size)
{
	size_t i;

	if (!unix_path[0]) {
		out[0] = '\0';
		return;
	}
	snprintf(out, size, "C:%s", unix_path);
	for (i = 0; out[i]; i++)
		if (out[i] == '/')
			out[i] = '\\';
}

static void put_share_fixed(struct ndr_enc *e, uint32_t level,
			    const struct rpc_share_info *s)
{
	if (level == 1005) {
		ndr_put_u32(e, 0);	/* shi1005_flags: manual caching */
		return;
	}
	ndr_put_ptr(e, true);		/* netname */
	if (level == 0)
		return;
	ndr_put_u32(e, s->type);
	ndr_put_ptr(e, true);		/* remark */
	if (level == 1)
		return;
	if (level == 501) {
		ndr_put_u32(e, 0);	/* shi501_flags */
		return;
	}
	ndr_put_u32(e, 0);		/* permissions: share-level, unused */
	ndr_put_u32(e, s->max_uses);
	ndr_put_u32(e, s->current_uses);
	ndr_put_ptr(e, true);		/* path */
	ndr_put_ptr(e, false);		/* passwd */
	if (level == 502) {
		ndr_put_u32(e, 0);	/* security descriptor length */
		ndr_put_ptr(e, false);
	}
}

static void put_share_deferred(struct ndr_enc *e, uint32_t level,
			       const struct rpc_share_info *s)
{
	char path[RPC_PATH_LEN + 3];

	if (level == 1005)
		return;
	ndr_put_string(e, s->name);
	if (level == 0)
		return;
	ndr_put_string(e, s->comment);
	if (level == 2 || level == 502) {
		win_path(s->path, path, sizeof(path));
		ndr_put_string(e, path);
	}
}

/* Browseable shares, in backend order; returns the count or -errno. */
static int collect_shares(const struct rpc_call *c,
			  struct rpc_share_info **out)
{
	struct rpc_share_info *v = NULL, *nv, s;
	size_t n = 0, cap = 0, i;
	int rc;

	*out = NULL;
	if (!c->be->get_share)
		return 0;
	for (i = 0; i < SRVSVC_MAX_SHARES; i++) {
		rc = c->be->get_share(c->be->ctx, i, &s);
		if (rc == -ENOENT)
			break;
		if (rc) {
			free(v);
			return rc;
		}
		if (!s.browseable)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = s;
	}
	*out = v;
	return (int)n;
}

static int find_share(const struct rpc_call *c, const char *name,
		      struct rpc_share_info *out)
{
	size_t i;
	int rc;

	if (!c->be->get_share)
		return -ENOENT;
	for (i = 0; i < SRVSVC_MAX_SHARES; i++) {
		rc = c->be->get_share(c->be->ctx, i, out);
		if (rc)
			return rc;
		if (rpc_name_eq(out->name, name))
			return 0;
	}
	return -ENOENT;
}

/* NetrShareEnum, opnum 15 (rpcclient's "NetShareEnumAll"). */
static uint32_t srvsvc_share_enum(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	struct rpc_share_info *shares = NULL;
	uint32_t level, disc, ctr_ptr, resume_ptr, resume = 0, status;
	uint32_t first, count = 0, i;
	int n;

	free(ndr_get_string_ptr(d, NULL));
	level = ndr_get_u32(d);
	disc = ndr_get_u32(d);
	ctr_ptr = enum_arm_exists(level) ? ndr_get_ptr(d) : 0;
	if (ctr_ptr) {
		ndr_get_u32(d);			/* EntriesRead */
		if (ndr_get_ptr(d))		/* a client never sends entries */
			return NCA_S_FAULT_NDR;
	}
	ndr_get_u32(d);				/* PreferedMaximumLength */
	resume_ptr = ndr_get_ptr(d);
	if (resume_ptr)
		resume = ndr_get_u32(d);
	if (d->err || disc != level)
		return NCA_S_FAULT_NDR;

	status = WERR_OK;
	n = 0;
	if (!share_level_ok(level) || level == 1005) {
		status = WERR_INVALID_LEVEL;
	} else {
		n = collect_shares(c, &shares);
		if (n < 0) {
			status = WERR_NOT_ENOUGH_MEMORY;
			n = 0;
		}
	}
	first = resume < (uint32_t)n ? resume : (uint32_t)n;
	count = (uint32_t)n - first;

	ndr_put_u32(c->out, level);
	ndr_put_u32(c->out, level);
	if (status != WERR_OK) {
		if (enum_arm_exists(level))
			ndr_put_ptr(c->out, false);
	} else {
		ndr_put_ptr(c->out, true);
		ndr_put_u32(c->out, count);
		ndr_put_ptr(c->out, count > 0);
		if (count) {
			ndr_put_u32(c->out, count);
			for (i = 0; i < count; i++)
				put_share_fixed(c->out, level, &shares[first + i]);
			for (i = 0; i < count; i++)
				put_share_deferred(c->out, level,
						   &shares[first + i]);
		}
	}
	ndr_put_u32(c->out, (uint32_t)n);	/* TotalEntries */
	ndr_put_ptr(c->out, resume_ptr != 0);
	if (resume_ptr)
		ndr_put_u32(c->out, status == WERR_OK ? (uint32_t)n : resume);
	ndr_put_u32(c->out, status);
	free(shares);
	return 0;
}

/* NetrShareGetInfo, opnum 16. */
static uint32_t srvsvc_share_get_info(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	struct rpc_share_info s;
	uint32_t level, status;
	char *name;

	free(ndr_get_string_ptr(d, NULL));
	name = ndr_get_string(d);
	level = ndr_get_u32(d);
	if (d->err) {
		free(name);
		return NCA_S_FAULT_NDR;
	}
	ndr_put_u32(c->out, level);
	if (!share_level_ok(level)) {
		if (enum_arm_exists(level))
			ndr_put_ptr(c->out, false);
		status = WERR_INVALID_LEVEL;
	} else if (find_share(c, name, &s)) {
		ndr_put_ptr(c->out, false);
		status = WERR_NET_NAME_NOT_FOUND;
	} else {
		ndr_put_ptr(c->out, true);
		put_share_fixed(c->out, level, &s);
		put_share_deferred(c->out, level, &s);
		status = WERR_OK;
	}
	ndr_put_u32(c->out, status);
	free(name);
	return 0;
}

/* NetrServerGetInfo, opnum 21. */
static uint32_t srvsvc_server_get_info(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	struct rpc_server_info si;
	uint32_t level;

	free(ndr_get_string_ptr(d, NULL));
	level = ndr_get_u32(d);
	if (d->err)
		return NCA_S_FAULT_NDR;
	ndr_put_u32(c->out, level);
	if (level != 100 && level != 101) {
		/* LPSERVER_INFO arms are pointers; other levels have none. */
		if ((level >= 100 && level <= 103) || level == 402 ||
		    level == 403 || level == 502 || level == 503 ||
		    level == 599 || (level >= 1005 && level <= 1556))
			ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, WERR_INVALID_LEVEL);
		return 0;
	}
	if (rpc_server_info(c, &si)) {
		ndr_put_ptr(c->out, false);
		ndr_put_u32(c->out, WERR_NOT_ENOUGH_MEMORY);
		return 0;
	}
	ndr_put_ptr(c->out, true);
	ndr_put_u32(c->out, PLATFORM_ID_NT);
	ndr_put_ptr(c->out, true);
	if (level == 101) {
		ndr_put_u32(c->out, si.version_major);
		ndr_put_u32(c->out, si.version_minor);
		ndr_put_u32(c->out, si.server_type);
		ndr_put_ptr(c->out, true);
	}
	ndr_put_string(c->out, si.netbios_name);
	if (level == 101)
		ndr_put_string(c->out, si.comment);
	ndr_put_u32(c->out, WERR_OK);
	return 0;
}

static const struct rpc_op srvsvc_ops[] = {
	{ 15, srvsvc_share_enum },
	{ 16, srvsvc_share_get_info },
	{ 21, srvsvc_server_get_info },
};

const struct rpc_iface rpc_srvsvc_iface = {
	.name = "srvsvc",
	.uuid = "4b324fc8-1670-01d3-1278-5a47bf6ee188",
	.ver_major = 3,
	.ver_minor = 0,
	.ops = srvsvc_ops,
	.n_ops = sizeof(srvsvc_ops) / sizeof(srvsvc_ops[0]),
};
