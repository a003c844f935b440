// SPDX-License-Identifier: GPL-2.0
/*
 * wkssvc (MS-WKST): NetrWkstaGetInfo level 100, which Windows and
 * `net`-style tools use to learn the server's name and workgroup.
 */
#include <stdlib.h>

#include "dcerpc.h"
#include "rpc_internal.h"

#define PLATFORM_ID_NT	500

/* NetrWkstaGetInfo, opnum 0. */
static uint32_t wkssvc_get_info(struct rpc_call *c)
{
	struct ndr_dec *d = &c->in;
	struct rpc_server_info si;
	uint32_t level;

	free(ndr_get_string_ptr(d, NULL));
	level = ndr_get_u32(d);
	if (d->err)
		return NCA_S_FAULT_NDR;
	ndr_put_u32(c->out, level);
	if (level != 100) {
		/* LPWKSTA_INFO arms are pointers; other levels have none. */
		if (level == 101 || level == 102 || level == 502 ||
		    (level >= 1010 && level <= 1062))
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
	ndr_put_ptr(c->out, true);	/* computer name */
	ndr_put_ptr(c->out, true);	/* lan group */
	ndr_put_u32(c->out, si.version_major);
	ndr_put_u32(c->out, si.version_minor);
	ndr_put_string(c->out, si.netbios_name);
	ndr_put_string(c->out, si.workgroup);
	ndr_put_u32(c->out, WERR_OK);
	return 0;
}

static const struct rpc_op wkssvc_ops[] = {
	{ 0, wkssvc_get_info },
};

const struct rpc_iface rpc_wkssvc_iface = {
	.name = "wkssvc",
	.uuid = "6bffd098-a112-3610-9833-46c3f87e345a",
	.ver_major = 1,
	.ver_minor = 0,
	.ops = wkssvc_ops,
	.n_ops = sizeof(wkssvc_ops) / sizeof(wkssvc_ops[0]),
};
