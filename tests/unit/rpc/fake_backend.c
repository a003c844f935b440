// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fake_backend.h"
#include "idmap.h"

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
	si->min_password_length = FAKE_MIN_PASSWORD;
	si->password_history_length = FAKE_PASSWORD_HISTORY;
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

/*
 * Accounts by Unix id; their RIDs come from idmap's rule, as the daemon's
 * do (users 1000 + 2 * uid, groups 1001 + 2 * gid), and none is 513
 * (Domain Users, every user's primary group).
 */
static const struct rpc_account accounts[] = {
	{ RPC_ACCOUNT_USER, "alice", "Alice Liddell", 1000, 100, 0, 0 },
	{ RPC_ACCOUNT_USER, "bob", "", 1001, 100, 0, 0 },
	{ RPC_ACCOUNT_GROUP, "staff", "", 50, 50, 0, 0 },
};

#define N_ACCOUNTS (sizeof(accounts) / sizeof(accounts[0]))

static void account_at(size_t i, struct rpc_account *out)
{
	*out = accounts[i];
	if (out->type == RPC_ACCOUNT_USER) {
		idmap_user_rid(out->uid, &out->rid);
		out->primary_group_rid = IDMAP_RID_USERS;
	} else {
		idmap_group_rid(out->uid, &out->rid);
	}
}

static int fake_find(void *ctx, const char *name, struct rpc_account *out)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < N_ACCOUNTS; i++) {
		if (!strcasecmp(accounts[i].name, name)) {
			account_at(i, out);
			return 0;
		}
	}
	return -ENOENT;
}

/* The Unix side: carol has no SMB account, groups root, users no entry. */
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

static int fake_find_rid(void *ctx, uint32_t rid, struct rpc_account *out)
{
	bool group;
	uint32_t id;
	size_t i;

	(void)ctx;
	for (i = 0; i < N_ACCOUNTS; i++) {
		account_at(i, out);
		if (out->rid == rid)
			return 0;
	}
	/* As the daemon's backend: a Unix id by the rule, named. */
	if (!idmap_rid_to_unix(rid, &group, &id))
		return -ENOENT;
	for (i = 0; i < N_UNIX; i++) {
		if (unix_ids[i].group != group || unix_ids[i].id != id)
			continue;
		memset(out, 0, sizeof(*out));
		out->type = group ? RPC_ACCOUNT_GROUP : RPC_ACCOUNT_USER;
		snprintf(out->name, sizeof(out->name), "%s", unix_ids[i].name);
		out->uid = id;
		out->rid = rid;
		return RPC_UNIX_ONLY;
	}
	return -ENOENT;
}

static int fake_groups(void *ctx, uint32_t rid, uint32_t *rids, size_t max,
		       size_t *count)
{
	struct rpc_account a;

	*count = 0;
	if (fake_find_rid(ctx, rid, &a) || a.type != RPC_ACCOUNT_USER)
		return -ENOENT;
	if (max)
		rids[(*count)++] = IDMAP_RID_USERS;
	/* alice is in staff too. */
	if (!strcmp(a.name, "alice") && *count < max &&
	    !fake_find(ctx, "staff", &a))
		rids[(*count)++] = a.rid;
	return 0;
}

static int fake_unix_name(void *ctx, bool group, uint32_t id, char *name,
			  size_t size)
{
	struct fake_ctx *f = ctx;
	size_t i;

	f->unix_calls++;
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
	struct fake_ctx *f = ctx;
	size_t i;

	f->unix_calls++;
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
	struct fake_ctx *f = ctx;
	size_t i;

	f->count_calls++;
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
