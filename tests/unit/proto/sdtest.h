/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hand-made security descriptors for the sd_* unit tests, encoded here
 * byte by byte (not with sd_build.c, which some of them test), and a
 * reader that lists a descriptor's ACEs for the assertions.
 *
 * The encoder writes header, owner, group, DACL, SACL: not the canonical
 * order, so a re-encoding that only copied would show.
 */
#ifndef KSMBD_TEST_SDTEST_H
#define KSMBD_TEST_SDTEST_H

#include <stdio.h>
#include <stdlib.h>
#include "proto/secdesc_parse.h"
#include "proto/sd_access.h"

struct tace {
	u8 type;
	u8 flags;
	u32 mask;
	const char *sid;
};

#define T_ALLOW(f, m, s)	{ KSMBD_ACE_ACCESS_ALLOWED, (f), (m), (s) }
#define T_DENY(f, m, s)		{ KSMBD_ACE_ACCESS_DENIED, (f), (m), (s) }
#define T_AUDIT(f, m, s)	{ KSMBD_ACE_SYSTEM_AUDIT, (f), (m), (s) }

/* How an ACL is present in a descriptor. */
enum { T_ABSENT, T_NULL, T_ACL };

/* Well-known and test SIDs */
#define S_WORLD		"S-1-1-0"
#define S_CO		"S-1-3-0"
#define S_CG		"S-1-3-1"
#define S_OR		"S-1-3-4"
#define S_AUTH		"S-1-5-11"
#define S_SYSTEM	"S-1-5-18"
#define S_ALICE		"S-1-5-21-1-2-3-3000"	/* uid 1000 */
#define S_BOB		"S-1-5-21-1-2-3-3002"	/* uid 1001 */
#define S_STAFF		"S-1-5-21-1-2-3-1201"	/* gid 100 */
#define S_DEVS		"S-1-5-21-1-2-3-1401"	/* gid 200 */
#define S_FOREIGN	"S-1-5-21-9-9-9-1105"

static inline void t_sid(const char *str, struct ksmbd_sid *sid)
{
	const char *p = str + 2;	/* past "S-" */
	unsigned long long auth;
	char *end;
	int i;

	memset(sid, 0, sizeof(*sid));
	sid->revision = (u8)strtoul(p, &end, 10);
	auth = strtoull(end + 1, &end, 10);
	for (i = 0; i < 6; i++)
		sid->authority[5 - i] = (u8)(auth >> (8 * i));
	while (*end == '-' && sid->num_subauth < KSMBD_SID_MAX_SUB_AUTH)
		sid->sub_auth[sid->num_subauth++] =
			(u32)strtoul(end + 1, &end, 10);
}

static inline u32 t_put_sid(u8 *p, const char *str)
{
	struct ksmbd_sid sid;
	u32 i;

	t_sid(str, &sid);
	p[0] = sid.revision;
	p[1] = sid.num_subauth;
	memcpy(p + 2, sid.authority, 6);
	for (i = 0; i < sid.num_subauth; i++)
		put_unaligned_le32(sid.sub_auth[i], p + 8 + 4 * i);
	return 8 + 4 * sid.num_subauth;
}

static inline u32 t_put_acl(u8 *p, const struct tace *a, u32 n)
{
	u32 len = 8, i, sz;

	for (i = 0; i < n; i++) {
		p[len] = a[i].type;
		p[len + 1] = a[i].flags;
		put_unaligned_le32(a[i].mask, p + len + 4);
		sz = 8 + t_put_sid(p + len + 8, a[i].sid);
		put_unaligned_le16((u16)sz, p + len + 2);
		len += sz;
	}
	p[0] = 2;
	p[1] = 0;
	put_unaligned_le16((u16)len, p + 2);
	put_unaligned_le16((u16)n, p + 4);
	put_unaligned_le16(0, p + 6);
	return len;
}

struct tsd {
	u8 b[8192];
	u32 len;
	struct ksmbd_sd sd;
};

/* Build and parse; aborts the test binary on an encoder mistake. */
static inline struct ksmbd_sd *t_sd_full(struct tsd *t, u16 control,
					 const char *owner, const char *group,
					 int dacl_how, const struct tace *dacl,
					 u32 nd, int sacl_how,
					 const struct tace *sacl, u32 ns)
{
	struct ksmbd_buf b;
	u32 off = 20;

	memset(t, 0, sizeof(*t));
	t->b[0] = 1;
	control |= KSMBD_SE_SELF_RELATIVE;
	if (dacl_how != T_ABSENT)
		control |= KSMBD_SE_DACL_PRESENT;
	if (sacl_how != T_ABSENT)
		control |= KSMBD_SE_SACL_PRESENT;
	put_unaligned_le16(control, t->b + 2);
	if (owner) {
		put_unaligned_le32(off, t->b + 4);
		off += t_put_sid(t->b + off, owner);
	}
	if (group) {
		put_unaligned_le32(off, t->b + 8);
		off += t_put_sid(t->b + off, group);
	}
	if (dacl_how == T_ACL) {
		put_unaligned_le32(off, t->b + 16);
		off += t_put_acl(t->b + off, dacl, nd);
	}
	if (sacl_how == T_ACL) {
		put_unaligned_le32(off, t->b + 12);
		off += t_put_acl(t->b + off, sacl, ns);
	}
	t->len = off;
	b = ksmbd_buf_make(t->b, t->len);
	if (ksmbd_sd_parse(&b, &t->sd)) {
		fprintf(stderr, "sdtest: encoder produced an unparsable SD\n");
		abort();
	}
	return &t->sd;
}

static inline struct ksmbd_sd *t_sd(struct tsd *t, u16 control,
				    const char *owner, const char *group,
				    int dacl_how, const struct tace *dacl,
				    u32 nd)
{
	return t_sd_full(t, control, owner, group, dacl_how, dacl, nd,
			 T_ABSENT, NULL, 0);
}

/* An ACL's ACEs, listed. */
struct tlist {
	u32 n;
	struct ksmbd_ace a[64];
};

static inline int t_list(const struct ksmbd_buf *acl, u16 count,
			 struct tlist *l)
{
	u32 pos = KSMBD_ACL_HDR_SIZE;
	u16 left = count;
	int rc;

	l->n = 0;
	while (l->n < 64 &&
	       (rc = ksmbd_acl_next(acl, &pos, &left, &l->a[l->n])) > 0)
		l->n++;
	return left ? -1 : 0;
}

/* One listed ACE is (type, flags, mask, sid). */
static inline bool t_ace_is(const struct ksmbd_ace *a, u8 type, u8 flags,
			    u32 mask, const char *sid)
{
	struct ksmbd_sid s;

	t_sid(sid, &s);
	return a->type == type && a->flags == flags && a->mask == mask &&
	       ksmbd_sid_equal(&a->sid, &s);
}

/* A token: the user's SID, then groups. */
struct ttok {
	struct ksmbd_sid sids[8];
	struct ksmbd_token tok;
};

static inline struct ksmbd_token *t_tok(struct ttok *t, u32 privs,
					const char *user, const char *g1,
					const char *g2)
{
	u32 n = 0;

	t_sid(user, &t->sids[n++]);
	t_sid(S_WORLD, &t->sids[n++]);
	t_sid(S_AUTH, &t->sids[n++]);
	if (g1)
		t_sid(g1, &t->sids[n++]);
	if (g2)
		t_sid(g2, &t->sids[n++]);
	t->tok.sids = t->sids;
	t->tok.nr_sids = n;
	t->tok.privileges = privs;
	return &t->tok;
}

#endif /* KSMBD_TEST_SDTEST_H */
