// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DACL -> POSIX ACL entries (proto/sd_posix.c): the outer bound that
 * must allow what the DACL grants, and deny ACEs as far as POSIX goes.
 */
#include "testlib.h"
#include "sdtest.h"
#include "proto/sd_posix.h"

#define R	KSMBD_PACL_READ
#define W	KSMBD_PACL_WRITE
#define X	KSMBD_PACL_EXECUTE
#define U_OBJ	KSMBD_PACL_USER_OBJ
#define U	KSMBD_PACL_USER
#define G_OBJ	KSMBD_PACL_GROUP_OBJ
#define G	KSMBD_PACL_GROUP
#define MASK	KSMBD_PACL_MASK
#define OTH	KSMBD_PACL_OTHER
#define OI	KSMBD_ACE_OBJECT_INHERIT
#define CI	KSMBD_ACE_CONTAINER_INHERIT
#define IO	KSMBD_ACE_INHERIT_ONLY

static struct ksmbd_sid_unix_map dom = {
	.domain = { 1, 2, 3 }, .has_domain = true,
	.has_users_gid = true, .users_gid = 100,
};

static struct ksmbd_pacl_entry acc[32], def[32];

/* Alice (uid 1000) owns, staff (gid 100) is the owning group. */
static int to_posix(const struct ksmbd_sd *sd, bool dir, struct ksmbd_pacl *p)
{
	memset(acc, 0xee, sizeof(acc));
	memset(def, 0xee, sizeof(def));
	p->acc = acc;
	p->acc_cap = 32;
	p->def = def;
	p->def_cap = 32;
	return ksmbd_sd_to_posix(sd, 1000, 100, dir, ksmbd_sid_map_unix, &dom,
				 p);
}

struct want {
	u16 tag;
	u32 id;
	u16 perm;
};

static bool same(const struct ksmbd_pacl_entry *e, u32 n,
		 const struct want *w, u32 wn)
{
	u32 i;

	if (n != wn)
		return false;
	for (i = 0; i < n; i++)
		if (e[i].tag != w[i].tag || e[i].id != w[i].id ||
		    e[i].perm != w[i].perm)
			return false;
	return true;
}

static void dump(const char *what, const struct ksmbd_pacl_entry *e, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		printf("# %s: tag 0x%x id %u perm %o\n", what, e[i].tag,
		       e[i].id, e[i].perm);
}

#define CHECK_ACL(e, n, ...) do {					\
	static const struct want w_[] = { __VA_ARGS__ };		\
	CHECK(same(e, n, w_, sizeof(w_) / sizeof(w_[0])));		\
	if (test_state_.failed_here)					\
		dump(#e, e, n);						\
} while (0)

TEST(sid_mapping)
{
	enum ksmbd_sid_kind k;
	struct ksmbd_sid s;
	u32 id;

	t_sid("S-1-22-1-1005", &s);
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), 0);
	CHECK(k == KSMBD_SID_UNIX_USER && id == 1005);
	t_sid("S-1-22-2-7", &s);
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), 0);
	CHECK(k == KSMBD_SID_UNIX_GROUP && id == 7);
	t_sid(S_BOB, &s);	/* RID 3002 */
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), 0);
	CHECK(k == KSMBD_SID_UNIX_USER && id == 1001);
	t_sid(S_DEVS, &s);	/* RID 1401 */
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), 0);
	CHECK(k == KSMBD_SID_UNIX_GROUP && id == 200);
	t_sid("S-1-5-21-1-2-3-513", &s);
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), 0);
	CHECK(k == KSMBD_SID_UNIX_GROUP && id == 100);
	t_sid("S-1-5-21-1-2-3-500", &s);
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), -ENOENT);
	t_sid(S_FOREIGN, &s);
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), -ENOENT);
	t_sid(S_WORLD, &s);
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), -ENOENT);
	t_sid("S-1-22-3-1", &s);
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &s, &k, &id), -ENOENT);
	/* without a domain only the S-1-22 forms map */
	t_sid(S_BOB, &s);
	CHECK_EQ_INT(ksmbd_sid_map_unix(NULL, &s, &k, &id), -ENOENT);
}

TEST(owner_group_other)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_ALICE),
		T_ALLOW(0, KSMBD_GENERIC_READ | KSMBD_GENERIC_EXECUTE, S_STAFF),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_WORLD),
	};
	struct ksmbd_pacl p;
	struct tsd t;

	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 3),
			      false, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, R | W | X },
		  { G_OBJ, 0, R | X }, { OTH, 0, R });
	CHECK_EQ_INT(p.def_count, 0);
}

/* Groups every caller's token holds grant to every entry, as Everyone:
 * an ACE for NETWORK or BUILTIN\\Users must not be lost to the kernel. */
TEST(token_wide_groups_reach_other)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, "S-1-5-2"),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, "S-1-5-32-545"),
	};
	struct ksmbd_pacl p;
	struct tsd t;

	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 2),
			      false, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, R | X },
		  { G_OBJ, 0, R | X }, { OTH, 0, R | X });
}

/* What gives r, w and x. */
TEST(rwx_of_masks)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_APPEND_DATA, S_ALICE),
		T_ALLOW(0, KSMBD_FILE_DELETE_CHILD, S_STAFF),
		T_ALLOW(0, KSMBD_FILE_READ_ATTRIBUTES | KSMBD_READ_CONTROL |
			KSMBD_DELETE, S_WORLD),
		T_ALLOW(0, KSMBD_GENERIC_EXECUTE, "S-1-22-1-7"),
		T_ALLOW(0, KSMBD_GENERIC_READ, "S-1-22-2-8"),
	};
	struct ksmbd_pacl p;
	struct tsd t;

	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 5),
			      false, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, W }, { U, 7, X },
		  { G_OBJ, 0, W }, { G, 8, R }, { MASK, 0, R | W | X },
		  { OTH, 0, 0 });
}

/* Named entries, sorted by id, MASK their union with GROUP_OBJ; an
 * Everyone grant reaches every entry; SIDs naming the same id merge. */
TEST(named_entries_sorted_and_masked)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_WRITE_DATA, S_BOB),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_DEVS),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, "S-1-22-1-1001"),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, "S-1-22-1-5"),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, "S-1-22-2-50"),
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_FOREIGN),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_AUTH),
	};
	struct ksmbd_pacl p;
	struct tsd t;

	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 7),
			      false, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, R }, { U, 5, R | X },
		  { U, 1001, R | W | X }, { G_OBJ, 0, R }, { G, 50, R | X },
		  { G, 200, R }, { MASK, 0, R | W | X }, { OTH, 0, R });
}

/* First match per bit, as the access check: a deny before an allow
 * takes the bit, after it does not. */
TEST(deny_order)
{
	static const struct tace deny_first[] = {
		T_DENY(0, KSMBD_FILE_WRITE_DATA, S_WORLD),
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_BOB),
		T_DENY(0, KSMBD_FILE_READ_DATA, S_DEVS),
		T_ALLOW(0, KSMBD_FILE_READ_DATA | KSMBD_FILE_EXECUTE, S_WORLD),
	};
	static const struct tace allow_first[] = {
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_BOB),
		T_DENY(0, KSMBD_FILE_WRITE_DATA, S_WORLD),
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_ALICE),
	};
	struct ksmbd_pacl p;
	struct tsd t;

	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL,
				   deny_first, 4), false, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, R | X },
		  { U, 1001, R | X }, { G_OBJ, 0, R | X }, { G, 200, X },
		  { MASK, 0, R | X }, { OTH, 0, R | X });
	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL,
				   allow_first, 3), false, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, R | X },
		  { U, 1001, R | W | X }, { G_OBJ, 0, 0 },
		  { MASK, 0, R | W | X }, { OTH, 0, 0 });
}

/* OWNER RIGHTS is the owner; inherit-only ACEs stay out of the access
 * ACL; a NULL DACL is rwx for all. */
TEST(owner_rights_inherit_only_null)
{
	static const struct tace d[] = {
		T_ALLOW(IO | OI, KSMBD_FILE_ALL_ACCESS, S_WORLD),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_OR),
		T_ALLOW(0, KSMBD_FILE_WRITE_DATA, "S-1-22-1-1000"),
	};
	struct ksmbd_pacl p;
	struct tsd t;

	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 3),
			      false, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, R | W }, { G_OBJ, 0, 0 },
		  { OTH, 0, 0 });
	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_NULL, NULL, 0),
			      true, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, R | W | X },
		  { G_OBJ, 0, R | W | X }, { OTH, 0, R | W | X });
	CHECK_EQ_INT(p.def_count, 0);
}

/* A directory's default ACL from its inheritable ACEs: CREATOR OWNER
 * and CREATOR GROUP are the new object's owner and group, the dir's
 * own owner is a named user there. */
TEST(directory_default_acl)
{
	static const struct tace d[] = {
		T_ALLOW(OI | CI | IO, KSMBD_GENERIC_ALL, S_CO),
		T_ALLOW(CI | IO, KSMBD_FILE_READ_DATA | KSMBD_FILE_EXECUTE,
			S_CG),
		T_ALLOW(OI | CI, KSMBD_FILE_READ_DATA, S_ALICE),
		T_ALLOW(OI, KSMBD_FILE_WRITE_DATA, S_DEVS),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, S_WORLD),
	};
	struct ksmbd_pacl p;
	struct tsd t;

	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 5),
			      true, &p), 0);
	/* an OI ACE without IO applies to the directory too */
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, R | X }, { G_OBJ, 0, X },
		  { G, 200, W | X }, { MASK, 0, W | X }, { OTH, 0, X });
	CHECK_ACL(def, p.def_count, { U_OBJ, 0, R | W | X },
		  { U, 1000, R }, { G_OBJ, 0, R | X }, { G, 200, W },
		  { MASK, 0, R | W | X }, { OTH, 0, 0 });
	/* a file has no default ACL */
	CHECK_EQ_INT(to_posix(&t.sd, false, &p), 0);
	CHECK_EQ_INT(p.def_count, 0);
}

/* smb2.acls.DYNAMIC: a directory whose DACL gives its owner only
 * WRITE_DATA (ADD_FILE) must let the owner create files there, which the
 * kernel allows only with search (x) on it; a file gets no x from that. */
TEST(directory_traverse)
{
	static const struct tace d[] = {
		T_ALLOW(OI, KSMBD_FILE_WRITE_DATA | KSMBD_DELETE |
			KSMBD_FILE_READ_ATTRIBUTES, "S-1-22-1-1000"),
		T_DENY(0, KSMBD_FILE_READ_DATA, S_WORLD),
	};
	struct ksmbd_pacl p;
	struct tsd t;

	CHECK_EQ_INT(to_posix(t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 2),
			      true, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, W | X }, { G_OBJ, 0, 0 },
		  { OTH, 0, 0 });
	/* the default ACL is the children's: no x for files from it (the
	 * dir's owner is a named user there) */
	CHECK_ACL(def, p.def_count, { U_OBJ, 0, 0 }, { U, 1000, W },
		  { G_OBJ, 0, 0 }, { MASK, 0, W }, { OTH, 0, 0 });
	CHECK_EQ_INT(to_posix(&t.sd, false, &p), 0);
	CHECK_ACL(acc, p.acc_count, { U_OBJ, 0, W }, { G_OBJ, 0, 0 },
		  { OTH, 0, 0 });
}

TEST(no_room)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, "S-1-22-1-1"),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, "S-1-22-1-2"),
		T_ALLOW(OI | IO, KSMBD_FILE_READ_DATA, "S-1-22-1-3"),
	};
	struct ksmbd_pacl p = { .acc = acc, .acc_cap = 5, .def = def,
				.def_cap = 32 };
	struct tsd t;
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 3);

	/* 3 fixed + 2 named + MASK = 6 */
	CHECK_EQ_INT(ksmbd_sd_to_posix(sd, 1000, 100, false, ksmbd_sid_map_unix,
				       &dom, &p), -E2BIG);
	p.acc_cap = 6;
	CHECK_EQ_INT(ksmbd_sd_to_posix(sd, 1000, 100, false, ksmbd_sid_map_unix,
				       &dom, &p), 0);
	CHECK_EQ_INT(p.acc_count, 6);
	p.def_cap = 4;
	CHECK_EQ_INT(ksmbd_sd_to_posix(sd, 1000, 100, true, ksmbd_sid_map_unix,
				       &dom, &p), -E2BIG);
	CHECK_EQ_INT(p.acc_count, 0);
}

static bool has_sid(const struct ksmbd_sid *sids, int n, const char *text)
{
	struct ksmbd_sid s;
	int i;

	t_sid(text, &s);
	for (i = 0; i < n; i++)
		if (ksmbd_sid_equal(&sids[i], &s))
			return true;
	return false;
}

/* A token's SIDs: both forms of the user and its groups, each mapping
 * back to the same id; the access check then matches ACEs in either. */
TEST(token_sids)
{
	static const u32 gids[] = { 100, 200, 100 };
	struct ksmbd_token_who who = {
		.uid = 1000, .gid = 100, .gids = gids, .ngids = 3,
	};
	struct ksmbd_sid sids[16], s;
	struct ksmbd_token tok = { .sids = sids };
	enum ksmbd_sid_kind k;
	struct tsd t;
	u32 id, g;
	int n, ace, i;
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, "S-1-22-1-1000"),
		T_ALLOW(0, KSMBD_FILE_WRITE_DATA, S_DEVS),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, S_AUTH),
	};

	n = ksmbd_token_unix_sids(&dom, &who, sids, 16);
	/* user x2, group 100 x2, group 200 x2, World, Network, Domain
	 * Users, Auth, BUILTIN\Users */
	CHECK_EQ_INT(n, 11);
	t_sid("S-1-22-1-1000", &s);
	CHECK(ksmbd_sid_equal(&sids[0], &s));
	CHECK_EQ_INT(ksmbd_sid_map_unix(&dom, &sids[1], &k, &id), 0);
	CHECK(k == KSMBD_SID_UNIX_GROUP && id == 100);
	CHECK(has_sid(sids, n, S_ALICE));
	CHECK(has_sid(sids, n, S_DEVS));
	CHECK(has_sid(sids, n, "S-1-22-2-200"));
	CHECK(!has_sid(sids, n, "S-1-5-32-544"));
	tok.nr_sids = (u32)n;
	CHECK_EQ_INT(ksmbd_sd_access_check(t_sd(&t, 0, S_BOB, NULL, T_ACL, d,
						3), &tok,
					   KSMBD_FILE_READ_DATA |
					   KSMBD_FILE_WRITE_DATA |
					   KSMBD_FILE_EXECUTE, &g, &ace), 0);
	/* a guest: no Authenticated Users, so no EXECUTE; Guest, not Alice */
	who.guest = true;
	n = ksmbd_token_unix_sids(&dom, &who, sids, 16);
	CHECK_EQ_INT(n, 9);
	CHECK(!has_sid(sids, n, S_ALICE));
	CHECK(has_sid(sids, n, "S-1-5-21-1-2-3-501"));
	CHECK(has_sid(sids, n, "S-1-5-32-546"));
	tok.nr_sids = (u32)n;
	CHECK_EQ_INT(ksmbd_sd_access_check(&t.sd, &tok, KSMBD_FILE_EXECUTE,
					   &g, &ace), -EACCES);
	/* an admin also has BUILTIN\Administrators */
	who.guest = false;
	who.admin = true;
	n = ksmbd_token_unix_sids(&dom, &who, sids, 16);
	CHECK(has_sid(sids, n, "S-1-5-32-544"));
	/* without a domain: the S-1-22 forms only, user first */
	memset(&who, 0, sizeof(who));
	who.uid = 5;
	who.gid = 5;
	n = ksmbd_token_unix_sids(NULL, &who, sids, 16);
	CHECK_EQ_INT(n, 6);
	t_sid("S-1-22-1-5", &s);
	CHECK(ksmbd_sid_equal(&sids[0], &s));
	/* an id whose RID would wrap (onto root's 1000) gets none */
	who.uid = 0x80000000u;
	who.gid = 0x80000000u;
	n = ksmbd_token_unix_sids(&dom, &who, sids, 16);
	CHECK(n > 0);
	for (i = 0; i < n; i++)
		if (!ksmbd_sid_map_unix(&dom, &sids[i], &k, &id))
			CHECK(id == 0x80000000u ||
			      (k == KSMBD_SID_UNIX_GROUP && id == 100));
	CHECK(!has_sid(sids, n, "S-1-5-21-1-2-3-1000"));
	who.uid = 1000;
	who.gid = 100;
	who.gids = gids;
	who.ngids = 3;
	CHECK_EQ_INT(ksmbd_token_unix_sids(&dom, &who, sids, 8), -E2BIG);
}

int main(void)
{
	RUN(sid_mapping);
	RUN(owner_group_other);
	RUN(token_wide_groups_reach_other);
	RUN(rwx_of_masks);
	RUN(named_entries_sorted_and_masked);
	RUN(deny_order);
	RUN(owner_rights_inherit_only_null);
	RUN(directory_default_acl);
	RUN(directory_traverse);
	RUN(no_room);
	RUN(token_sids);
	return test_report();
}
