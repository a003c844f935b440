// SPDX-License-Identifier: GPL-2.0
/*
 * Names <-> SIDs for lsarpc and samr; see idmap.h for the domains.
 *
 * Fixed principals come from one table; accounts come from the backend
 * (the SMB user database, Unix users and groups). Names compare without
 * regard to ASCII case, as Windows account names do; a Unix name that
 * differs only in case from another is found by its exact spelling first.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idmap.h"
#include "rpc_internal.h"

#define NO_RID	0xffffffffu

struct fixed {
	enum idmap_domain domain;
	uint32_t rid;
	uint16_t use;
	const char *name;
};

/* The English names Windows gives these principals. */
static const struct fixed fixed_names[] = {
	{ IDMAP_DOM_WORLD, 0, SID_TYPE_WELL_KNOWN_GROUP, "Everyone" },
	{ IDMAP_DOM_LOCAL, 0, SID_TYPE_WELL_KNOWN_GROUP, "LOCAL" },
	{ IDMAP_DOM_CREATOR, 0, SID_TYPE_WELL_KNOWN_GROUP, "CREATOR OWNER" },
	{ IDMAP_DOM_CREATOR, 1, SID_TYPE_WELL_KNOWN_GROUP, "CREATOR GROUP" },
	{ IDMAP_DOM_CREATOR, 2, SID_TYPE_WELL_KNOWN_GROUP,
	  "CREATOR OWNER SERVER" },
	{ IDMAP_DOM_CREATOR, 3, SID_TYPE_WELL_KNOWN_GROUP,
	  "CREATOR GROUP SERVER" },
	{ IDMAP_DOM_CREATOR, 4, SID_TYPE_WELL_KNOWN_GROUP, "OWNER RIGHTS" },
	{ IDMAP_DOM_NT_AUTHORITY, 1, SID_TYPE_WELL_KNOWN_GROUP, "DIALUP" },
	{ IDMAP_DOM_NT_AUTHORITY, 2, SID_TYPE_WELL_KNOWN_GROUP, "NETWORK" },
	{ IDMAP_DOM_NT_AUTHORITY, 3, SID_TYPE_WELL_KNOWN_GROUP, "BATCH" },
	{ IDMAP_DOM_NT_AUTHORITY, 4, SID_TYPE_WELL_KNOWN_GROUP, "INTERACTIVE" },
	{ IDMAP_DOM_NT_AUTHORITY, 6, SID_TYPE_WELL_KNOWN_GROUP, "SERVICE" },
	{ IDMAP_DOM_NT_AUTHORITY, 7, SID_TYPE_WELL_KNOWN_GROUP,
	  "ANONYMOUS LOGON" },
	{ IDMAP_DOM_NT_AUTHORITY, 10, SID_TYPE_WELL_KNOWN_GROUP, "SELF" },
	{ IDMAP_DOM_NT_AUTHORITY, 11, SID_TYPE_WELL_KNOWN_GROUP,
	  "Authenticated Users" },
	{ IDMAP_DOM_NT_AUTHORITY, 12, SID_TYPE_WELL_KNOWN_GROUP, "RESTRICTED" },
	{ IDMAP_DOM_NT_AUTHORITY, 14, SID_TYPE_WELL_KNOWN_GROUP,
	  "REMOTE INTERACTIVE LOGON" },
	{ IDMAP_DOM_NT_AUTHORITY, 15, SID_TYPE_WELL_KNOWN_GROUP,
	  "This Organization" },
	{ IDMAP_DOM_NT_AUTHORITY, 18, SID_TYPE_WELL_KNOWN_GROUP, "SYSTEM" },
	{ IDMAP_DOM_NT_AUTHORITY, 19, SID_TYPE_WELL_KNOWN_GROUP,
	  "LOCAL SERVICE" },
	{ IDMAP_DOM_NT_AUTHORITY, 20, SID_TYPE_WELL_KNOWN_GROUP,
	  "NETWORK SERVICE" },
	{ IDMAP_DOM_BUILTIN, 544, SID_TYPE_ALIAS, "Administrators" },
	{ IDMAP_DOM_BUILTIN, 545, SID_TYPE_ALIAS, "Users" },
	{ IDMAP_DOM_BUILTIN, 546, SID_TYPE_ALIAS, "Guests" },
	{ IDMAP_DOM_ACCOUNT, IDMAP_RID_GUEST, SID_TYPE_USER, "Guest" },
	{ IDMAP_DOM_ACCOUNT, IDMAP_RID_ADMINS, SID_TYPE_GROUP,
	  "Domain Admins" },
	{ IDMAP_DOM_ACCOUNT, IDMAP_RID_USERS, SID_TYPE_GROUP, "Domain Users" },
};

#define N_FIXED (sizeof(fixed_names) / sizeof(fixed_names[0]))

static unsigned int domain_view(enum idmap_domain d)
{
	switch (d) {
	case IDMAP_DOM_ACCOUNT:
		return IDMAP_VIEW_ACCOUNT;
	case IDMAP_DOM_UNIX_USER:
	case IDMAP_DOM_UNIX_GROUP:
		return IDMAP_VIEW_UNIX;
	default:
		return IDMAP_VIEW_WELL_KNOWN;
	}
}

int idmap_init(struct idmap_ctx *m, const struct rpc_backend *be)
{
	int rc;

	memset(m, 0, sizeof(*m));
	m->be = be;
	rc = rpc_backend_server(be, &m->si);
	if (rc)
		return rc < 0 ? rc : -EIO;
	rpc_domain_sid(&m->si, &m->account);
	return 0;
}

const char *idmap_domain_name(const struct idmap_ctx *m, enum idmap_domain d)
{
	switch (d) {
	case IDMAP_DOM_ACCOUNT:
		return m->si.netbios_name;
	case IDMAP_DOM_BUILTIN:
		return "BUILTIN";
	case IDMAP_DOM_NT_AUTHORITY:
		return "NT AUTHORITY";
	case IDMAP_DOM_UNIX_USER:
		return "Unix User";
	case IDMAP_DOM_UNIX_GROUP:
		return "Unix Group";
	default:
		return "";
	}
}

static void sid_set(struct ndr_sid *sid, uint8_t auth, unsigned int n,
		    uint32_t a0)
{
	memset(sid, 0, sizeof(*sid));
	sid->revision = 1;
	sid->num_auths = (uint8_t)n;
	sid->id_auth[5] = auth;
	sid->sub_auths[0] = a0;
}

void idmap_domain_sid(const struct idmap_ctx *m, enum idmap_domain d,
		      struct ndr_sid *sid)
{
	switch (d) {
	case IDMAP_DOM_ACCOUNT:
		*sid = m->account;
		break;
	case IDMAP_DOM_BUILTIN:
		rpc_builtin_sid(sid);
		break;
	case IDMAP_DOM_NT_AUTHORITY:
		sid_set(sid, 5, 0, 0);
		break;
	case IDMAP_DOM_WORLD:
		sid_set(sid, 1, 0, 0);
		break;
	case IDMAP_DOM_LOCAL:
		sid_set(sid, 2, 0, 0);
		break;
	case IDMAP_DOM_CREATOR:
		sid_set(sid, 3, 0, 0);
		break;
	case IDMAP_DOM_UNIX_USER:
		sid_set(sid, 22, 1, 1);
		break;
	case IDMAP_DOM_UNIX_GROUP:
		sid_set(sid, 22, 1, 2);
		break;
	default:
		memset(sid, 0, sizeof(*sid));
		break;
	}
}

void idmap_sid_text(const struct ndr_sid *sid, char *buf, size_t size)
{
	uint64_t auth = 0;
	unsigned int i;
	size_t n;
	int w;

	if (!size)
		return;
	for (i = 0; i < 6; i++)
		auth = auth << 8 | sid->id_auth[i];
	w = snprintf(buf, size, "S-%u-%llu", sid->revision,
		     (unsigned long long)auth);
	n = w < 0 ? 0 : (size_t)w;
	for (i = 0; i < sid->num_auths && i < NDR_SID_MAX_SUBAUTH &&
		    n < size; i++) {
		w = snprintf(buf + n, size - n, "-%u", sid->sub_auths[i]);
		n += w < 0 ? 0 : (size_t)w;
	}
}

bool idmap_user_rid(uint32_t uid, uint32_t *rid)
{
	if (uid > (UINT32_MAX - IDMAP_RID_BASE - 1) / 2)
		return false;
	*rid = IDMAP_RID_BASE + 2 * uid;
	return true;
}

bool idmap_group_rid(uint32_t gid, uint32_t *rid)
{
	if (gid > (UINT32_MAX - IDMAP_RID_BASE - 1) / 2)
		return false;
	*rid = IDMAP_RID_BASE + 1 + 2 * gid;
	return true;
}

bool idmap_rid_to_unix(uint32_t rid, bool *group, uint32_t *id)
{
	if (rid < IDMAP_RID_BASE)
		return false;
	*group = (rid - IDMAP_RID_BASE) & 1;
	*id = (rid - IDMAP_RID_BASE) / 2;
	return true;
}

static void set_entry(const struct idmap_ctx *m, struct idmap_entry *out,
		      enum idmap_domain d, uint32_t rid, uint16_t use,
		      const char *name)
{
	out->use = use;
	out->domain = d;
	out->rid = rid;
	snprintf(out->name, sizeof(out->name), "%s", name);
	idmap_domain_sid(m, d, &out->sid);
	if (rid != NO_RID)
		ndr_sid_compose(&out->sid, &out->sid, rid);
}

static void set_unknown(struct idmap_entry *out)
{
	memset(out, 0, sizeof(*out));
	out->use = SID_TYPE_UNKNOWN;
	out->domain = IDMAP_DOM_NONE;
	out->rid = NO_RID;
}

static const struct fixed *fixed_by_rid(enum idmap_domain d, uint32_t rid)
{
	size_t i;

	for (i = 0; i < N_FIXED; i++)
		if (fixed_names[i].domain == d && fixed_names[i].rid == rid)
			return &fixed_names[i];
	return NULL;
}

static const struct fixed *fixed_by_name(enum idmap_domain d,
					 const char *name)
{
	size_t i;

	for (i = 0; i < N_FIXED; i++)
		if (fixed_names[i].domain == d &&
		    rpc_name_eq(fixed_names[i].name, name))
			return &fixed_names[i];
	return NULL;
}

static bool unix_name(const struct idmap_ctx *m, bool group, uint32_t id,
		      char *name, size_t size)
{
	return m->be->unix_name &&
	       !m->be->unix_name(m->be->ctx, group, id, name, size);
}

/*
 * One name's Unix ids, each asked of the backend at most once while the
 * name is translated: an isolated name goes through the account domain
 * and then the Unix domains, which consult the same passwd/group entry.
 */
struct unix_ids {
	signed char known[2];	/* [group]: 0 not asked, 1 found, -1 not */
	uint32_t id[2];
};

static bool unix_id(const struct idmap_ctx *m, struct unix_ids *u,
		    bool group, const char *name, uint32_t *id)
{
	if (!u->known[group])
		u->known[group] = name[0] && m->be->unix_id &&
				  !m->be->unix_id(m->be->ctx, group, name,
						  &u->id[group]) ? 1 : -1;
	*id = u->id[group];
	return u->known[group] > 0;
}

/* A RID of the account domain: fixed, a backend account, or the rule. */
static bool account_by_rid(const struct idmap_ctx *m, uint32_t rid,
			   struct idmap_entry *out)
{
	char name[RPC_NAME_LEN];
	struct rpc_account a;
	bool group;
	uint32_t id;
	int rc = -ENOSYS;

	if (m->be->find_account_by_rid)
		rc = m->be->find_account_by_rid(m->be->ctx, rid, &a);
	/* The backend looked the Unix id up already: found or not there. */
	if (!rc || rc == RPC_UNIX_ONLY) {
		set_entry(m, out, IDMAP_DOM_ACCOUNT, rid,
			  a.type == RPC_ACCOUNT_GROUP ? SID_TYPE_GROUP :
							SID_TYPE_USER, a.name);
		return true;
	}
	if (rc == -ENOENT || !idmap_rid_to_unix(rid, &group, &id) ||
	    !unix_name(m, group, id, name, sizeof(name)))
		return false;
	set_entry(m, out, IDMAP_DOM_ACCOUNT, rid,
		  group ? SID_TYPE_GROUP : SID_TYPE_USER, name);
	return true;
}

static bool account_by_name(const struct idmap_ctx *m, struct unix_ids *u,
			    const char *name, struct idmap_entry *out)
{
	struct rpc_account a;
	uint32_t id, rid;

	if (name[0] && m->be->find_account &&
	    !m->be->find_account(m->be->ctx, name, &a)) {
		set_entry(m, out, IDMAP_DOM_ACCOUNT, a.rid,
			  a.type == RPC_ACCOUNT_GROUP ? SID_TYPE_GROUP :
							SID_TYPE_USER, a.name);
		return true;
	}
	if (unix_id(m, u, false, name, &id) && idmap_user_rid(id, &rid)) {
		set_entry(m, out, IDMAP_DOM_ACCOUNT, rid, SID_TYPE_USER, name);
		return true;
	}
	if (unix_id(m, u, true, name, &id) && idmap_group_rid(id, &rid)) {
		set_entry(m, out, IDMAP_DOM_ACCOUNT, rid, SID_TYPE_GROUP, name);
		return true;
	}
	return false;
}

static bool rid_in_domain(const struct idmap_ctx *m, enum idmap_domain d,
			  uint32_t rid, struct idmap_entry *out)
{
	const struct fixed *f = fixed_by_rid(d, rid);
	char name[RPC_NAME_LEN];
	bool group = d == IDMAP_DOM_UNIX_GROUP;

	if (f) {
		set_entry(m, out, d, rid, f->use, f->name);
		return true;
	}
	if (d == IDMAP_DOM_ACCOUNT)
		return account_by_rid(m, rid, out);
	if (d != IDMAP_DOM_UNIX_USER && d != IDMAP_DOM_UNIX_GROUP)
		return false;
	if (!unix_name(m, group, rid, name, sizeof(name)))
		return false;
	set_entry(m, out, d, rid, group ? SID_TYPE_GROUP : SID_TYPE_USER,
		  name);
	return true;
}

static bool name_in_domain(const struct idmap_ctx *m, struct unix_ids *u,
			   enum idmap_domain d, const char *name,
			   struct idmap_entry *out)
{
	const struct fixed *f = fixed_by_name(d, name);
	bool group = d == IDMAP_DOM_UNIX_GROUP;
	uint32_t id;

	if (f) {
		set_entry(m, out, d, f->rid, f->use, f->name);
		return true;
	}
	if (d == IDMAP_DOM_ACCOUNT)
		return account_by_name(m, u, name, out);
	if (d != IDMAP_DOM_UNIX_USER && d != IDMAP_DOM_UNIX_GROUP)
		return false;
	if (!unix_id(m, u, group, name, &id))
		return false;
	set_entry(m, out, d, id, group ? SID_TYPE_GROUP : SID_TYPE_USER,
		  name);
	return true;
}

/* A domain that can be named: World, LOCAL and CREATOR have no name. */
static bool domain_named(const struct idmap_ctx *m, enum idmap_domain d)
{
	return idmap_domain_name(m, d)[0] != '\0';
}

bool idmap_sid_to_name(const struct idmap_ctx *m, unsigned int views,
		       const struct ndr_sid *sid, struct idmap_entry *out)
{
	struct ndr_sid dsid;
	uint32_t rid = 0;
	int d;

	set_unknown(out);
	out->sid = *sid;
	for (d = 0; d < IDMAP_DOM_COUNT; d++) {
		if (!(views & domain_view(d)))
			continue;
		idmap_domain_sid(m, d, &dsid);
		if (ndr_sid_equal(sid, &dsid) && domain_named(m, d)) {
			set_entry(m, out, d, NO_RID, SID_TYPE_DOMAIN,
				  idmap_domain_name(m, d));
			return true;
		}
		if (ndr_sid_in_domain(sid, &dsid, &rid))
			break;
	}
	if (d < IDMAP_DOM_COUNT && rid_in_domain(m, d, rid, out))
		return true;
	set_unknown(out);
	out->sid = *sid;
	idmap_sid_text(sid, out->name, sizeof(out->name));
	return false;
}

static bool domain_matches(const struct idmap_ctx *m, enum idmap_domain d,
			   const char *dom)
{
	if (rpc_name_eq(dom, idmap_domain_name(m, d)))
		return true;
	/* Clients qualify local accounts with the workgroup, too. */
	return d == IDMAP_DOM_ACCOUNT && dom[0] &&
	       rpc_name_eq(dom, m->si.workgroup);
}

static bool qualified(const struct idmap_ctx *m, unsigned int views,
		      const char *dom, const char *name,
		      struct idmap_entry *out)
{
	struct unix_ids u = { { 0 }, { 0 } };
	int d;

	for (d = 0; d < IDMAP_DOM_COUNT; d++) {
		if (!(views & domain_view(d)) || !domain_matches(m, d, dom))
			continue;
		if (!name[0] && domain_named(m, d)) {
			set_entry(m, out, d, NO_RID, SID_TYPE_DOMAIN,
				  idmap_domain_name(m, d));
			return true;
		}
		if (name[0] && name_in_domain(m, &u, d, name, out))
			return true;
	}
	return false;
}

/*
 * An isolated name: a domain's own name, then the well-known and BUILTIN
 * names, then the account domain, then the Unix domains (the order of
 * MS-LSAT 3.1.4.5 for names without a domain).
 */
static bool isolated(const struct idmap_ctx *m, unsigned int views,
		     const char *name, struct idmap_entry *out)
{
	struct unix_ids u = { { 0 }, { 0 } };
	int d;

	if (!name[0])
		return false;
	for (d = 0; d < IDMAP_DOM_COUNT; d++) {
		if ((views & domain_view(d)) && domain_named(m, d) &&
		    rpc_name_eq(name, idmap_domain_name(m, d))) {
			set_entry(m, out, d, NO_RID, SID_TYPE_DOMAIN,
				  idmap_domain_name(m, d));
			return true;
		}
	}
	for (d = 0; d < IDMAP_DOM_COUNT; d++) {
		if (d == IDMAP_DOM_ACCOUNT || !(views & domain_view(d)))
			continue;
		if (d != IDMAP_DOM_UNIX_USER && d != IDMAP_DOM_UNIX_GROUP &&
		    name_in_domain(m, &u, d, name, out))
			return true;
	}
	if ((views & IDMAP_VIEW_ACCOUNT) &&
	    name_in_domain(m, &u, IDMAP_DOM_ACCOUNT, name, out))
		return true;
	/* @u remembers what the account domain asked: no second lookup. */
	if (views & IDMAP_VIEW_UNIX)
		return name_in_domain(m, &u, IDMAP_DOM_UNIX_USER, name, out) ||
		       name_in_domain(m, &u, IDMAP_DOM_UNIX_GROUP, name, out);
	return false;
}

bool idmap_name_to_sid(const struct idmap_ctx *m, unsigned int views,
		       const char *name, struct idmap_entry *out)
{
	const char *sep = strchr(name, '\\');
	char dom[RPC_NAME_LEN];
	size_t n;
	bool ok;

	set_unknown(out);
	if (!sep) {
		ok = isolated(m, views, name, out);
	} else {
		n = (size_t)(sep - name);
		if (n >= sizeof(dom))
			return false;
		memcpy(dom, name, n);
		dom[n] = '\0';
		ok = qualified(m, views, dom, sep + 1, out);
	}
	if (!ok)
		set_unknown(out);
	return ok;
}

/* samr's Builtin domain answers from the same table. */
const char *rpc_builtin_alias_name(uint32_t rid)
{
	const struct fixed *f = fixed_by_rid(IDMAP_DOM_BUILTIN, rid);

	return f ? f->name : NULL;
}

bool rpc_builtin_alias_rid(const char *name, uint32_t *rid)
{
	const struct fixed *f = fixed_by_name(IDMAP_DOM_BUILTIN, name);

	if (f)
		*rid = f->rid;
	return f != NULL;
}
