// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fake_backend.h"

static int fake_server(void *ctx, struct rpc_server_info *si)
{
	struct fake_ctx *f = ctx;

	if (f->fail_server)
		return f->fail_server;
	memset(si, 0, sizeof(*si));
	snprintf(si->netbios_name, sizeof(si->netbios_name), FAKE_NETBIOS);
	snprintf(si->comment, sizeof(si->comment), FAKE_COMMENT);
	snprintf(si->workgroup, sizeof(si->workgroup), FAKE_WORKGROUP);
	si->version_major = 6;
	si->version_minor = 1;
	si->server_type = RPC_SV_TYPE_WORKSTATION | RPC_SV_TYPE_SERVER |
			  RPC_SV_TYPE_SERVER_UNIX | RPC_SV_TYPE_SERVER_NT;
	si->domain_sid[0] = FAKE_SID_A;
	si->domain_sid[1] = FAKE_SID_B;
	si->domain_sid[2] = FAKE_SID_C;
	return 0;
}

static const struct {
	const char *name, *comment, *path;
	uint32_t type;
	bool browseable;
} shares[] = {
	{ "IPC$", "IPC Service (" FAKE_COMMENT ")", "",
	  RPC_STYPE_IPC | RPC_STYPE_SPECIAL, true },
	{ "public", "Public files", "/srv/public", RPC_STYPE_DISKTREE, true },
	{ "hidden", "Not listed", "/srv/hidden", RPC_STYPE_DISKTREE, false },
};

#define N_SHARES (sizeof(shares) / sizeof(shares[0]))

static int fake_share(void *ctx, size_t i, struct rpc_share_info *s)
{
	struct fake_ctx *f = ctx;

	memset(s, 0, sizeof(*s));
	s->max_uses = 0xffffffffu;
	if (i < N_SHARES) {
		snprintf(s->name, sizeof(s->name), "%s", shares[i].name);
		snprintf(s->comment, sizeof(s->comment), "%s",
			 shares[i].comment);
		snprintf(s->path, sizeof(s->path), "%s", shares[i].path);
		s->type = shares[i].type;
		s->browseable = shares[i].browseable;
		s->current_uses = (uint32_t)i;
		return 0;
	}
	i -= N_SHARES;
	if (i >= f->extra_shares)
		return -ENOENT;
	snprintf(s->name, sizeof(s->name), "share%03zu", i);
	snprintf(s->comment, sizeof(s->comment), "generated share %zu", i);
	snprintf(s->path, sizeof(s->path), "/srv/gen/%zu", i);
	s->type = RPC_STYPE_DISKTREE;
	s->browseable = true;
	return 0;
}

static const struct rpc_account accounts[] = {
	{ RPC_ACCOUNT_USER, "alice", "Alice Liddell", 1000, 1000, 1000, 513 },
	{ RPC_ACCOUNT_USER, "bob", "", 1001, 1001, 1001, 513 },
	{ RPC_ACCOUNT_GROUP, "None", "", 100, 0, 513, 0 },
	{ RPC_ACCOUNT_GROUP, "staff", "", 50, 0, 1100, 0 },
};

#define N_ACCOUNTS (sizeof(accounts) / sizeof(accounts[0]))

static int fake_find(void *ctx, const char *name, struct rpc_account *out)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < N_ACCOUNTS; i++) {
		if (!strcasecmp(accounts[i].name, name)) {
			*out = accounts[i];
			return 0;
		}
	}
	return -ENOENT;
}

static int fake_find_rid(void *ctx, uint32_t rid, struct rpc_account *out)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < N_ACCOUNTS; i++) {
		if (accounts[i].rid == rid) {
			*out = accounts[i];
			return 0;
		}
	}
	return -ENOENT;
}

static int fake_groups(void *ctx, uint32_t rid, uint32_t *rids, size_t max,
		       size_t *count)
{
	(void)ctx;
	*count = 0;
	if (rid == 1000 && max >= 2) {
		rids[0] = 513;
		rids[1] = 1100;
		*count = 2;
	} else if (rid == 1001 && max >= 1) {
		rids[0] = 513;
		*count = 1;
	} else if (rid != 1000 && rid != 1001) {
		return -ENOENT;
	}
	return 0;
}

/* The Unix side: carol has no SMB account, group users no domain entry. */
static const struct {
	bool group;
	uint32_t id;
	const char *name;
} unix_ids[] = {
	{ false, 0, "root" },
	{ false, 1000, "alice" },
	{ false, 1001, "bob" },
	{ false, 2000, "carol" },
	{ true, 0, "root" },
	{ true, 50, "staff" },
	{ true, 100, "users" },
};

#define N_UNIX (sizeof(unix_ids) / sizeof(unix_ids[0]))

static int fake_unix_name(void *ctx, bool group, uint32_t id, char *name,
			  size_t size)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < N_UNIX; i++) {
		if (unix_ids[i].group != group || unix_ids[i].id != id)
			continue;
		if (strlen(unix_ids[i].name) >= size)
			return -ENAMETOOLONG;
		strcpy(name, unix_ids[i].name);
		return 0;
	}
	return -ENOENT;
}

static int fake_unix_id(void *ctx, bool group, const char *name, uint32_t *id)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < N_UNIX; i++) {
		if (unix_ids[i].group == group &&
		    !strcmp(unix_ids[i].name, name)) {
			*id = unix_ids[i].id;
			return 0;
		}
	}
	return -ENOENT;
}

static int fake_count(void *ctx, uint32_t *users, uint32_t *groups)
{
	size_t i;

	(void)ctx;
	*users = 0;
	*groups = 0;
	for (i = 0; i < N_ACCOUNTS; i++) {
		if (accounts[i].type == RPC_ACCOUNT_USER)
			(*users)++;
		else
			(*groups)++;
	}
	return 0;
}

void fake_backend_init(struct rpc_backend *be, struct fake_ctx *ctx)
{
	memset(be, 0, sizeof(*be));
	be->ctx = ctx;
	be->get_server = fake_server;
	be->get_share = fake_share;
	be->find_account = fake_find;
	be->find_account_by_rid = fake_find_rid;
	be->get_user_groups = fake_groups;
	be->unix_name = fake_unix_name;
	be->unix_id = fake_unix_id;
	be->count_accounts = fake_count;
}
