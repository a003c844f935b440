// SPDX-License-Identifier: GPL-2.0
/* idmap: the name table, its domains, the RID rule and the Unix domains. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "idmap.h"
#include "rpc_internal.h"
#include "svc_util.h"

static struct fake_ctx fctx;
static struct rpc_backend be;
static struct idmap_ctx map;

/* "DOMAIN\name" or "name" when the domain has no name, as smbcacls shows. */
static const char *full_name(const struct idmap_entry *e)
{
	static char buf[2 * RPC_NAME_LEN + 2];
	const char *dom = e->domain >= 0 ?
			  idmap_domain_name(&map, e->domain) : "";

	if (e->use == SID_TYPE_DOMAIN || !dom[0])
		snprintf(buf, sizeof(buf), "%s", e->name);
	else
		snprintf(buf, sizeof(buf), "%s\\%s", dom, e->name);
	return buf;
}

static const struct {
	const char *sid;
	const char *name;	/* as full_name() prints it */
	uint16_t use;
} known[] = {
	{ "S-1-1-0", "Everyone", SID_TYPE_WELL_KNOWN_GROUP },
	{ "S-1-3-0", "CREATOR OWNER", SID_TYPE_WELL_KNOWN_GROUP },
	{ "S-1-3-1", "CREATOR GROUP", SID_TYPE_WELL_KNOWN_GROUP },
	{ "S-1-3-4", "OWNER RIGHTS", SID_TYPE_WELL_KNOWN_GROUP },
	{ "S-1-5-2", "NT AUTHORITY\\NETWORK", SID_TYPE_WELL_KNOWN_GROUP },
	{ "S-1-5-7", "NT AUTHORITY\\ANONYMOUS LOGON",
	  SID_TYPE_WELL_KNOWN_GROUP },
	{ "S-1-5-11", "NT AUTHORITY\\Authenticated Users",
	  SID_TYPE_WELL_KNOWN_GROUP },
	{ "S-1-5-18", "NT AUTHORITY\\SYSTEM", SID_TYPE_WELL_KNOWN_GROUP },
	{ "S-1-5-32-544", "BUILTIN\\Administrators", SID_TYPE_ALIAS },
	{ "S-1-5-32-545", "BUILTIN\\Users", SID_TYPE_ALIAS },
	{ "S-1-5-32-546", "BUILTIN\\Guests", SID_TYPE_ALIAS },
	{ "S-1-5-32", "BUILTIN", SID_TYPE_DOMAIN },
	{ "S-1-5", "NT AUTHORITY", SID_TYPE_DOMAIN },
	{ "S-1-5-21-1-2-3", FAKE_NETBIOS, SID_TYPE_DOMAIN },
	{ "S-1-5-21-1-2-3-501", FAKE_NETBIOS "\\Guest", SID_TYPE_USER },
	{ "S-1-5-21-1-2-3-512", FAKE_NETBIOS "\\Domain Admins",
	  SID_TYPE_GROUP },
	{ "S-1-5-21-1-2-3-513", FAKE_NETBIOS "\\Domain Users",
	  SID_TYPE_GROUP },
	/* backend accounts */
	{ "S-1-5-21-1-2-3-3000", FAKE_NETBIOS "\\alice", SID_TYPE_USER },
	{ "S-1-5-21-1-2-3-1101", FAKE_NETBIOS "\\staff", SID_TYPE_GROUP },
	/* Unix ids by the RID rule: root 0, carol 2000, group users 100 */
	{ "S-1-5-21-1-2-3-1000", FAKE_NETBIOS "\\root", SID_TYPE_USER },
	{ "S-1-5-21-1-2-3-5000", FAKE_NETBIOS "\\carol", SID_TYPE_USER },
	{ "S-1-5-21-1-2-3-1201", FAKE_NETBIOS "\\users", SID_TYPE_GROUP },
	{ "S-1-22-1-0", "Unix User\\root", SID_TYPE_USER },
	{ "S-1-22-1-2000", "Unix User\\carol", SID_TYPE_USER },
	{ "S-1-22-2-50", "Unix Group\\staff", SID_TYPE_GROUP },
	{ "S-1-22-2-100", "Unix Group\\users", SID_TYPE_GROUP },
	{ "S-1-22-1", "Unix User", SID_TYPE_DOMAIN },
};

#define N_KNOWN (sizeof(known) / sizeof(known[0]))

TEST(sid_to_name_table)
{
	struct idmap_entry e;
	struct ndr_sid sid, dsid;
	size_t i;

	for (i = 0; i < N_KNOWN; i++) {
		sid = svc_sid_of(known[i].sid);
		CHECK_EQ_STR(svc_sid_text(&sid), known[i].sid);
		if (!idmap_sid_to_name(&map, IDMAP_VIEW_ALL, &sid, &e)) {
			printf("# %s did not resolve\n", known[i].sid);
			CHECK(!"resolves");
			continue;
		}
		CHECK_EQ_STR(full_name(&e), known[i].name);
		CHECK_EQ_INT(e.use, known[i].use);
		CHECK(ndr_sid_equal(&e.sid, &sid));
		/* The domain's SID plus the RID rebuilds it (LookupNames v1). */
		idmap_domain_sid(&map, e.domain, &dsid);
		if (e.use == SID_TYPE_DOMAIN) {
			CHECK_EQ_INT(e.rid, 0xffffffffu);
			CHECK(ndr_sid_equal(&dsid, &sid));
		} else {
			ndr_sid_compose(&dsid, &dsid, e.rid);
			CHECK(ndr_sid_equal(&dsid, &sid));
		}
	}
}

/* Every name the table prints resolves back to its SID. */
TEST(name_to_sid_round_trip)
{
	struct idmap_entry e;
	size_t i;

	for (i = 0; i < N_KNOWN; i++) {
		if (!idmap_name_to_sid(&map, IDMAP_VIEW_ALL, known[i].name,
				       &e)) {
			printf("# %s did not resolve\n", known[i].name);
			CHECK(!"resolves");
			continue;
		}
		CHECK_EQ_STR(svc_sid_text(&e.sid), known[i].sid);
		CHECK_EQ_INT(e.use, known[i].use);
	}
}

TEST(name_forms)
{
	static const struct {
		const char *name, *sid;
	} forms[] = {
		{ "everyone", "S-1-1-0" },
		{ "nt authority\\system", "S-1-5-18" },
		{ "SYSTEM", "S-1-5-18" },
		{ "Administrators", "S-1-5-32-544" },
		{ "builtin\\users", "S-1-5-32-545" },
		/* Isolated account names: the account domain first. */
		{ "alice", "S-1-5-21-1-2-3-3000" },
		{ "carol", "S-1-5-21-1-2-3-5000" },
		{ FAKE_WORKGROUP "\\alice", "S-1-5-21-1-2-3-3000" },
		{ FAKE_NETBIOS "\\", "S-1-5-21-1-2-3" },
		{ "Builtin", "S-1-5-32" },
		{ "\\Everyone", "S-1-1-0" },
		{ "Unix User\\root", "S-1-22-1-0" },
		{ "Unix Group\\root", "S-1-22-2-0" },
	};
	struct idmap_entry e;
	size_t i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		CHECK(idmap_name_to_sid(&map, IDMAP_VIEW_ALL, forms[i].name,
					&e));
		CHECK_EQ_STR(svc_sid_text(&e.sid), forms[i].sid);
	}
}

TEST(unknown)
{
	static const char *const sids[] = {
		"S-1-5-21-9-9-9-1000",		/* another domain */
		"S-1-5-21-1-2-3-4242",		/* no such Unix user */
		"S-1-5-21-1-2-3-999",		/* below the rule, not fixed */
		"S-1-22-1-4242",
		"S-1-22-3-0",
		"S-1-1",			/* World has no name */
		"S-1-5-99",
		"S-1-16-12288",
	};
	static const char *const names[] = {
		"nosuch", "OTHER\\alice", "", "\\", "BUILTIN\\alice",
		"Unix User\\nosuch", "NT AUTHORITY\\Everyone",
		FAKE_NETBIOS "\\Administrators",
	};
	struct idmap_entry e;
	struct ndr_sid sid;
	size_t i;

	for (i = 0; i < sizeof(sids) / sizeof(sids[0]); i++) {
		sid = svc_sid_of(sids[i]);
		CHECK(!idmap_sid_to_name(&map, IDMAP_VIEW_ALL, &sid, &e));
		CHECK_EQ_INT(e.use, SID_TYPE_UNKNOWN);
		CHECK_EQ_INT(e.domain, IDMAP_DOM_NONE);
		/* Windows names an unknown SID by its text. */
		CHECK_EQ_STR(e.name, sids[i]);
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		CHECK(!idmap_name_to_sid(&map, IDMAP_VIEW_ALL, names[i], &e));
		CHECK_EQ_INT(e.use, SID_TYPE_UNKNOWN);
		CHECK_EQ_INT(e.domain, IDMAP_DOM_NONE);
	}
}

TEST(views)
{
	struct ndr_sid everyone = svc_sid_of("S-1-1-0");
	struct ndr_sid alice = svc_sid_of("S-1-5-21-1-2-3-3000");
	struct ndr_sid root = svc_sid_of("S-1-22-1-0");
	struct idmap_entry e;

	CHECK(!idmap_sid_to_name(&map, IDMAP_VIEW_ACCOUNT, &everyone, &e));
	CHECK(idmap_sid_to_name(&map, IDMAP_VIEW_ACCOUNT, &alice, &e));
	CHECK(!idmap_sid_to_name(&map, IDMAP_VIEW_ACCOUNT, &root, &e));
	CHECK(!idmap_sid_to_name(&map, 0, &alice, &e));
	CHECK(!idmap_name_to_sid(&map, IDMAP_VIEW_ACCOUNT, "Everyone", &e));
	CHECK(idmap_name_to_sid(&map, IDMAP_VIEW_ACCOUNT, "alice", &e));
	/* Without the account domain an isolated Unix name is a Unix User. */
	CHECK(idmap_name_to_sid(&map, IDMAP_VIEW_UNIX, "carol", &e));
	CHECK_EQ_STR(svc_sid_text(&e.sid), "S-1-22-1-2000");
	CHECK(!idmap_name_to_sid(&map, 0, "alice", &e));
}

TEST(rid_rule)
{
	uint32_t rid = 0, id = 0, top = (UINT32_MAX - 1001) / 2;
	bool group = true;

	CHECK(idmap_user_rid(0, &rid));
	CHECK_EQ_INT(rid, 1000);
	CHECK(idmap_group_rid(0, &rid));
	CHECK_EQ_INT(rid, 1001);
	CHECK(idmap_user_rid(top, &rid));
	CHECK(idmap_rid_to_unix(rid, &group, &id));
	CHECK(!group);
	CHECK_EQ_INT(id, top);
	CHECK(idmap_group_rid(top, &rid));
	CHECK_EQ_INT(rid, UINT32_MAX);
	CHECK(idmap_rid_to_unix(rid, &group, &id));
	CHECK(group);
	CHECK_EQ_INT(id, top);
	CHECK(!idmap_user_rid(top + 1, &rid));
	CHECK(!idmap_group_rid(UINT32_MAX, &rid));
	CHECK(!idmap_rid_to_unix(999, &group, &id));
	CHECK(idmap_rid_to_unix(1201, &group, &id));
	CHECK(group);
	CHECK_EQ_INT(id, 100);
}

TEST(sid_text_bounds)
{
	struct ndr_sid sid = { .revision = 1, .num_auths = 15,
		.id_auth = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
	char small[8], big[256];
	int i;

	for (i = 0; i < 15; i++)
		sid.sub_auths[i] = UINT32_MAX;
	idmap_sid_text(&sid, big, sizeof(big));
	CHECK(strncmp(big, "S-1-281474976710655-4294967295-", 31) == 0);
	CHECK_EQ_INT(strlen(big), 19 + 15 * 11);
	memset(small, 'x', sizeof(small));
	idmap_sid_text(&sid, small, sizeof(small));
	CHECK_EQ_INT(strlen(small), 7);
	CHECK_EQ_STR(small, "S-1-281");
}

/* samr's Builtin domain reads the same table. */
TEST(builtin_aliases)
{
	uint32_t rid = 0;

	CHECK_EQ_STR(rpc_builtin_alias_name(544), "Administrators");
	CHECK_EQ_STR(rpc_builtin_alias_name(546), "Guests");
	CHECK(rpc_builtin_alias_name(547) == NULL);
	CHECK(rpc_builtin_alias_name(18) == NULL);
	CHECK(rpc_builtin_alias_rid("users", &rid));
	CHECK_EQ_INT(rid, 545);
	CHECK(!rpc_builtin_alias_rid("SYSTEM", &rid));
}

/*
 * An SMB user has one SID in the account domain: the one its name maps
 * to, which is its uid's RID by the rule, and no other RID names it.
 */
TEST(one_sid_per_smb_user)
{
	struct idmap_entry e, back;
	struct ndr_sid dom, sid;
	uint32_t rid, want, n = 0;

	CHECK(idmap_name_to_sid(&map, IDMAP_VIEW_ALL, "alice", &e));
	CHECK_EQ_INT(e.domain, IDMAP_DOM_ACCOUNT);
	CHECK(idmap_user_rid(1000, &want));		/* alice's uid */
	CHECK_EQ_INT(e.rid, want);
	CHECK(idmap_sid_to_name(&map, IDMAP_VIEW_ALL, &e.sid, &back));
	CHECK_EQ_STR(back.name, "alice");
	CHECK_EQ_INT(back.use, SID_TYPE_USER);
	idmap_domain_sid(&map, IDMAP_DOM_ACCOUNT, &dom);
	for (rid = 0; rid <= 2 * 2000 + IDMAP_RID_BASE + 1; rid++) {
		ndr_sid_compose(&sid, &dom, rid);
		if (idmap_sid_to_name(&map, IDMAP_VIEW_ALL, &sid, &back) &&
		    !strcmp(back.name, "alice")) {
			CHECK_EQ_INT(rid, want);
			n++;
		}
	}
	CHECK_EQ_INT(n, 1);
}

/* Each Unix lookup is asked of the backend once per translation. */
TEST(unix_lookups_once)
{
	struct ndr_sid sid = svc_sid_of("S-1-5-21-1-2-3-5000");
	struct idmap_entry e;

	/* Unknown: the account domain asks passwd and group; nothing more. */
	fctx.unix_calls = 0;
	CHECK(!idmap_name_to_sid(&map, IDMAP_VIEW_ALL, "nosuch", &e));
	CHECK_EQ_INT(fctx.unix_calls, 2);
	/* A Unix group (BUILTIN\\Users aside): passwd misses, group finds. */
	fctx.unix_calls = 0;
	CHECK(idmap_name_to_sid(&map, IDMAP_VIEW_ACCOUNT | IDMAP_VIEW_UNIX,
				"users", &e));
	CHECK_EQ_STR(svc_sid_text(&e.sid), "S-1-5-21-1-2-3-1201");
	CHECK_EQ_INT(fctx.unix_calls, 2);
	/* A Unix-only RID: find_account_by_rid named it already. */
	fctx.unix_calls = 0;
	CHECK(idmap_sid_to_name(&map, IDMAP_VIEW_ALL, &sid, &e));
	CHECK_EQ_STR(e.name, "carol");
	CHECK_EQ_INT(fctx.unix_calls, 0);
}

TEST(init_failure)
{
	struct fake_ctx bad = { .fail_server = -EIO };
	struct rpc_backend b;
	struct idmap_ctx m;

	fake_backend_init(&b, &bad);
	CHECK(idmap_init(&m, &b) < 0);
	CHECK(idmap_init(&m, NULL) < 0);
}

int main(void)
{
	fake_backend_init(&be, &fctx);
	if (idmap_init(&map, &be)) {
		printf("# idmap_init failed\n");
		return 1;
	}
	RUN(sid_to_name_table);
	RUN(name_to_sid_round_trip);
	RUN(name_forms);
	RUN(unknown);
	RUN(views);
	RUN(rid_rule);
	RUN(sid_text_bounds);
	RUN(builtin_aliases);
	RUN(one_sid_per_smb_user);
	RUN(unix_lookups_once);
	RUN(init_failure);
	return test_report();
}
