// SPDX-License-Identifier: GPL-2.0
/*
 * The RPC services' view of the server (rpc/rpc_backend.h) over the
 * daemon's configuration and user database.
 *
 * Relative ids follow Samba's algorithmic mapping (rpc/idmap.h), so a
 * Unix id and its SID convert both ways without a table: user rid =
 * 1000 + 2 * uid, group rid = 1001 + 2 * gid. Every user's primary group
 * is Domain Users (513), as on a stand-alone Windows server.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "rpc/idmap.h"

#define PW_BUF			4096
#define MAX_GROUP_COUNT		65536u

/* Copies @src or fails: the backend contract forbids truncation. */
static int put(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (n >= cap)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

static int get_server(void *ctx, struct rpc_server_info *out)
{
	const struct mountd_state *st = ctx;
	const struct ksmbd_global *g = ksmbd_config_global(st->cfg);

	memset(out, 0, sizeof(*out));
	if (put(out->netbios_name, sizeof(out->netbios_name), g->netbios_name) ||
	    put(out->comment, sizeof(out->comment), g->server_string) ||
	    put(out->workgroup, sizeof(out->workgroup), g->workgroup))
		return -ENAMETOOLONG;
	out->version_major = 6;
	out->version_minor = 1;
	out->server_type = RPC_SV_TYPE_WORKSTATION | RPC_SV_TYPE_SERVER |
			   RPC_SV_TYPE_SERVER_UNIX | RPC_SV_TYPE_SERVER_NT;
	mountd_server_sid(g, out->domain_sid);
	return 0;
}

static int get_share(void *ctx, size_t index, struct rpc_share_info *out)
{
	const struct mountd_state *st = ctx;
	const struct ksmbd_share *s;
	size_t n;

	if (index >= ksmbd_config_share_count(st->cfg))
		return -ENOENT;
	s = ksmbd_config_share_at(st->cfg, index);
	memset(out, 0, sizeof(*out));
	if (put(out->name, sizeof(out->name), s->name) ||
	    put(out->comment, sizeof(out->comment), s->comment) ||
	    put(out->path, sizeof(out->path), s->path ? s->path : ""))
		return -ENAMETOOLONG;
	n = strlen(s->name);
	if (s->is_pipe)
		out->type = RPC_STYPE_IPC | RPC_STYPE_SPECIAL;
	else
		out->type = RPC_STYPE_DISKTREE |
			    (n && s->name[n - 1] == '$' ? RPC_STYPE_SPECIAL : 0);
	out->current_uses = mountd_share_trees(st, s->name);
	out->max_uses = s->max_connections ? s->max_connections : 0xffffffffu;
	out->browseable = s->browseable;
	return 0;
}

static int user_account(const struct ksmbd_user *u, struct rpc_account *out)
{
	uid_t uid;
	gid_t gid;

	if (ksmbd_user_unix_ids(u->name, &uid, &gid))
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->type = RPC_ACCOUNT_USER;
	if (put(out->name, sizeof(out->name), u->name))
		return -ENAMETOOLONG;
	out->uid = uid;
	out->gid = gid;
	if (!idmap_user_rid(uid, &out->rid))
		return -ERANGE;
	out->primary_group_rid = IDMAP_RID_USERS;
	return 0;
}

static int group_account(const struct group *gr, struct rpc_account *out)
{
	memset(out, 0, sizeof(*out));
	out->type = RPC_ACCOUNT_GROUP;
	if (put(out->name, sizeof(out->name), gr->gr_name))
		return -ENAMETOOLONG;
	out->uid = gr->gr_gid;
	out->gid = gr->gr_gid;
	if (!idmap_group_rid(gr->gr_gid, &out->rid))
		return -ERANGE;
	return 0;
}

static int find_account(void *ctx, const char *name, struct rpc_account *out)
{
	const struct mountd_state *st = ctx;
	const struct ksmbd_user *u = ksmbd_userdb_find(st->db, name);
	struct group gr, *res = NULL;
	char buf[PW_BUF];

	if (u)
		return user_account(u, out);
	if (getgrnam_r(name, &gr, buf, sizeof(buf), &res) || !res)
		return -ENOENT;
	return group_account(res, out);
}

static int find_account_by_rid(void *ctx, uint32_t rid,
			       struct rpc_account *out)
{
	const struct mountd_state *st = ctx;
	struct passwd pw, *pres = NULL;
	struct group gr, *gres = NULL;
	const struct ksmbd_user *u;
	char buf[PW_BUF];
	bool group;
	uint32_t id;

	if (!idmap_rid_to_unix(rid, &group, &id))
		return -ENOENT;
	if (group) {
		if (getgrgid_r(id, &gr, buf, sizeof(buf), &gres) || !gres)
			return -ENOENT;
		return group_account(gres, out);
	}
	if (getpwuid_r(id, &pw, buf, sizeof(buf), &pres) || !pres)
		return -ENOENT;
	/* Only users of the SMB database are users of this server. */
	u = ksmbd_userdb_find(st->db, pres->pw_name);
	if (u && !user_account(u, out))
		return 0;
	/* Named all the same, so idmap need not ask getpwuid again. */
	memset(out, 0, sizeof(*out));
	out->type = RPC_ACCOUNT_USER;
	if (put(out->name, sizeof(out->name), pres->pw_name))
		return -ENAMETOOLONG;
	out->uid = pres->pw_uid;
	out->gid = pres->pw_gid;
	out->rid = rid;
	return RPC_UNIX_ONLY;
}

static int get_user_groups(void *ctx, uint32_t user_rid, uint32_t *rids,
			   size_t max, size_t *count)
{
	struct rpc_account a;
	gid_t groups[64];
	int ngroups = 64, i;

	*count = 0;
	if (find_account_by_rid(ctx, user_rid, &a) || a.type != RPC_ACCOUNT_USER)
		return -ENOENT;
	if (max)
		rids[(*count)++] = IDMAP_RID_USERS;
	/* A user in more than 64 groups is shown with the first 64. */
	if (getgrouplist(a.name, a.gid, groups, &ngroups) < 0)
		ngroups = 64;
	for (i = 0; i < ngroups && *count < max; i++)
		if (idmap_group_rid(groups[i], &rids[*count]))
			(*count)++;
	return 0;
}

static int unix_name(void *ctx, bool group, uint32_t id, char *name,
		     size_t size)
{
	struct passwd pw, *pres = NULL;
	struct group gr, *gres = NULL;
	char buf[PW_BUF];

	(void)ctx;
	if (group) {
		if (getgrgid_r(id, &gr, buf, sizeof(buf), &gres) || !gres)
			return -ENOENT;
		return put(name, size, gres->gr_name);
	}
	if (getpwuid_r(id, &pw, buf, sizeof(buf), &pres) || !pres)
		return -ENOENT;
	return put(name, size, pres->pw_name);
}

static int unix_id(void *ctx, bool group, const char *name, uint32_t *id)
{
	struct passwd pw, *pres = NULL;
	struct group gr, *gres = NULL;
	char buf[PW_BUF];

	(void)ctx;
	if (group) {
		if (getgrnam_r(name, &gr, buf, sizeof(buf), &gres) || !gres)
			return -ENOENT;
		*id = gres->gr_gid;
		return 0;
	}
	if (getpwnam_r(name, &pw, buf, sizeof(buf), &pres) || !pres)
		return -ENOENT;
	*id = pres->pw_uid;
	return 0;
}

/*
 * Users of the SMB database; every Unix group is a domain group. The
 * daemon is one thread and a directory service behind NSS may enumerate
 * slowly, so the count stops at MAX_GROUP_COUNT.
 */
static int count_accounts(void *ctx, uint32_t *users, uint32_t *groups)
{
	const struct mountd_state *st = ctx;
	struct group gr, *res = NULL;
	char buf[PW_BUF];
	uint32_t n = 0;

	*users = (uint32_t)ksmbd_userdb_count(st->db);
	setgrent();
	while (n < MAX_GROUP_COUNT &&
	       !getgrent_r(&gr, buf, sizeof(buf), &res) && res)
		n++;
	endgrent();
	*groups = n;
	return 0;
}

void mountd_rpc_backend_init(struct mountd_state *st)
{
	st->rpc.ctx = st;
	st->rpc.get_server = get_server;
	st->rpc.get_share = get_share;
	st->rpc.find_account = find_account;
	st->rpc.find_account_by_rid = find_account_by_rid;
	st->rpc.get_user_groups = get_user_groups;
	st->rpc.unix_name = unix_name;
	st->rpc.unix_id = unix_id;
	st->rpc.count_accounts = count_accounts;
}
