// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DACL -> POSIX ACL entries; see sd_posix.h.
 *
 * Two walks over the DACL: the first finds the trustees (the entries),
 * the second applies the ACEs in order to each entry they concern. While
 * building, an entry's denied bits ride in perm's high byte.
 */
#include "sd_posix.h"
#include "sd_access.h"

#define DENIED_SHIFT	8
#define RWX		(KSMBD_PACL_READ | KSMBD_PACL_WRITE | KSMBD_PACL_EXECUTE)

static void sid_make(struct ksmbd_sid *s, u8 auth, u32 n, const u32 *sub)
{
	u32 i;

	memset(s, 0, sizeof(*s));
	s->revision = 1;
	s->authority[5] = auth;
	s->num_subauth = (u8)n;
	for (i = 0; i < n; i++)
		s->sub_auth[i] = sub[i];
}

void ksmbd_sid_unix_user(u32 uid, struct ksmbd_sid *sid)
{
	const u32 sub[2] = { 1, uid };

	sid_make(sid, 22, 2, sub);
}

void ksmbd_sid_unix_group(u32 gid, struct ksmbd_sid *sid)
{
	const u32 sub[2] = { 2, gid };

	sid_make(sid, 22, 2, sub);
}

void ksmbd_sid_domain_rid(const u32 domain[3], u32 rid, struct ksmbd_sid *sid)
{
	const u32 sub[5] = { 21, domain[0], domain[1], domain[2], rid };

	sid_make(sid, 5, 5, sub);
}

bool ksmbd_sid_in_domain(const struct ksmbd_sid *sid, const u32 domain[3])
{
	return ksmbd_sid_authority(sid) == 5 && sid->num_subauth == 5 &&
	       sid->sub_auth[0] == 21 && sid->sub_auth[1] == domain[0] &&
	       sid->sub_auth[2] == domain[1] && sid->sub_auth[3] == domain[2];
}

int ksmbd_sid_map_unix(void *ctx, const struct ksmbd_sid *sid,
		       enum ksmbd_sid_kind *kind, u32 *id)
{
	const struct ksmbd_sid_unix_map *m = ctx;
	u32 rid;

	if (sid->revision != 1)
		return -ENOENT;
	if (ksmbd_sid_authority(sid) == 22 && sid->num_subauth == 2 &&
	    (sid->sub_auth[0] == 1 || sid->sub_auth[0] == 2)) {
		*kind = sid->sub_auth[0] == 1 ? KSMBD_SID_UNIX_USER :
						KSMBD_SID_UNIX_GROUP;
		*id = sid->sub_auth[1];
		return 0;
	}
	if (!m || !m->has_domain || !ksmbd_sid_in_domain(sid, m->domain))
		return -ENOENT;
	rid = sid->sub_auth[4];
	if (rid == KSMBD_RID_DOMAIN_USERS && m->has_users_gid) {
		*kind = KSMBD_SID_UNIX_GROUP;
		*id = m->users_gid;
		return 0;
	}
	if (rid < KSMBD_RID_BASE)
		return -ENOENT;
	*kind = (rid - KSMBD_RID_BASE) % 2 ? KSMBD_SID_UNIX_GROUP :
					      KSMBD_SID_UNIX_USER;
	*id = (rid - KSMBD_RID_BASE) / 2;
	return 0;
}

struct sid_list {
	struct ksmbd_sid *s;
	u32 n, cap;
	bool full;
};

static void push(struct sid_list *l, const struct ksmbd_sid *sid)
{
	u32 i;

	for (i = 0; i < l->n; i++)
		if (ksmbd_sid_equal(&l->s[i], sid))
			return;
	if (l->n == l->cap) {
		l->full = true;
		return;
	}
	l->s[l->n++] = *sid;
}

static void push_domain(struct sid_list *l, const struct ksmbd_sid_unix_map *m,
			u32 rid)
{
	struct ksmbd_sid s;

	if (!m || !m->has_domain)
		return;
	ksmbd_sid_domain_rid(m->domain, rid, &s);
	push(l, &s);
}

static void push_well_known(struct sid_list *l, enum ksmbd_wk_sid which)
{
	struct ksmbd_sid s;

	ksmbd_sid_well_known(which, &s);
	push(l, &s);
}

/* A group in both forms; no RID for an id beyond KSMBD_RID_MAX_ID. */
static void push_group(struct sid_list *l, const struct ksmbd_sid_unix_map *m,
		       u32 gid)
{
	struct ksmbd_sid s;

	ksmbd_sid_unix_group(gid, &s);
	push(l, &s);
	if (gid <= KSMBD_RID_MAX_ID)
		push_domain(l, m, KSMBD_RID_BASE + 1 + 2 * gid);
}

int ksmbd_token_unix_sids(const struct ksmbd_sid_unix_map *m,
			  const struct ksmbd_token_who *who,
			  struct ksmbd_sid *out, u32 cap)
{
	struct sid_list l = { .s = out, .cap = cap };
	struct ksmbd_sid s;
	u32 i;

	ksmbd_sid_unix_user(who->uid, &s);
	push(&l, &s);
	push_group(&l, m, who->gid);
	if (who->guest)
		push_domain(&l, m, KSMBD_RID_GUEST);
	else if (who->uid <= KSMBD_RID_MAX_ID)
		push_domain(&l, m, KSMBD_RID_BASE + 2 * who->uid);
	for (i = 0; i < who->ngids; i++)
		push_group(&l, m, who->gids[i]);
	push_well_known(&l, KSMBD_WK_EVERYONE);
	push_well_known(&l, KSMBD_WK_NETWORK);
	if (who->guest) {
		push_well_known(&l, KSMBD_WK_GUESTS);
	} else {
		push_domain(&l, m, KSMBD_RID_DOMAIN_USERS);
		push_well_known(&l, KSMBD_WK_AUTHENTICATED_USERS);
		push_well_known(&l, KSMBD_WK_USERS);
	}
	if (who->admin)
		push_well_known(&l, KSMBD_WK_ADMINISTRATORS);
	return l.full ? -E2BIG : (int)l.n;
}

/* rwx of an access mask (generic bits mapped). */
static u16 mask_rwx(u32 mask)
{
	u16 bits = 0;

	mask = ksmbd_sd_map_generic(mask);
	if (mask & KSMBD_FILE_READ_DATA)
		bits |= KSMBD_PACL_READ;
	if (mask & (KSMBD_FILE_WRITE_DATA | KSMBD_FILE_APPEND_DATA |
		    KSMBD_FILE_DELETE_CHILD))
		bits |= KSMBD_PACL_WRITE;
	if (mask & KSMBD_FILE_EXECUTE)
		bits |= KSMBD_PACL_EXECUTE;
	return bits;
}

/* One ACL being built: the access ACL or the default one. */
struct pbuild {
	struct ksmbd_pacl_entry *e;
	u32 cap, n;
	bool is_default;	/* CREATOR OWNER/GROUP are the owner entries */
	bool traverse;		/* a directory's access ACL: x with any right */
	u32 uid, gid;		/* the file's; access ACL only */
	ksmbd_sid_map_fn map;
	void *map_ctx;
};

/* Who an ACE is for, as an entry (tag, id) or every entry. */
struct target {
	bool all;
	bool none;
	u16 tag;
	u32 id;
};

static struct target target_of(const struct pbuild *b,
			       const struct ksmbd_sid *sid)
{
	struct target t = { .none = true };
	enum ksmbd_sid_kind kind;
	u32 id;

	/* Groups every SMB caller's token holds (ksmbd_token_unix_sids()) */
	if (ksmbd_sid_is(sid, KSMBD_WK_EVERYONE) ||
	    ksmbd_sid_is(sid, KSMBD_WK_AUTHENTICATED_USERS) ||
	    ksmbd_sid_is(sid, KSMBD_WK_NETWORK) ||
	    ksmbd_sid_is(sid, KSMBD_WK_USERS)) {
		t.none = false;
		t.all = true;
		return t;
	}
	if (ksmbd_sid_is(sid, KSMBD_WK_OWNER_RIGHTS) ||
	    (b->is_default && ksmbd_sid_is(sid, KSMBD_WK_CREATOR_OWNER))) {
		t.none = false;
		t.tag = KSMBD_PACL_USER_OBJ;
		return t;
	}
	if (b->is_default && ksmbd_sid_is(sid, KSMBD_WK_CREATOR_GROUP)) {
		t.none = false;
		t.tag = KSMBD_PACL_GROUP_OBJ;
		return t;
	}
	if (b->map(b->map_ctx, sid, &kind, &id))
		return t;
	t.none = false;
	t.id = id;
	if (kind == KSMBD_SID_UNIX_USER)
		t.tag = !b->is_default && id == b->uid ?
			KSMBD_PACL_USER_OBJ : KSMBD_PACL_USER;
	else
		t.tag = !b->is_default && id == b->gid ?
			KSMBD_PACL_GROUP_OBJ : KSMBD_PACL_GROUP;
	if (t.tag != KSMBD_PACL_USER && t.tag != KSMBD_PACL_GROUP)
		t.id = 0;
	return t;
}

static struct ksmbd_pacl_entry *find(struct pbuild *b, u16 tag, u32 id)
{
	u32 i;

	for (i = 0; i < b->n; i++)
		if (b->e[i].tag == tag && b->e[i].id == id)
			return &b->e[i];
	return NULL;
}

static int add(struct pbuild *b, u16 tag, u32 id)
{
	if (find(b, tag, id))
		return 0;
	if (b->n == b->cap)
		return -E2BIG;
	b->e[b->n].tag = tag;
	b->e[b->n].id = id;
	b->e[b->n].perm = 0;
	b->n++;
	return 0;
}

/* First match per bit, as the access check decides it. */
static void apply(struct ksmbd_pacl_entry *e, bool allow, u16 rwx)
{
	u16 perm = e->perm & RWX, denied = e->perm >> DENIED_SHIFT;

	if (allow)
		perm |= rwx & ~denied;
	else
		denied |= rwx & ~perm;
	e->perm = perm | (u16)(denied << DENIED_SHIFT);
}

/* Does the ACE count for this ACL? Effective ones, or inheritable ones. */
static bool ace_counts(const struct pbuild *b, const struct ksmbd_ace *ace,
		       bool *allow)
{
	struct ksmbd_ace probe = *ace;
	enum ksmbd_ace_effect eff;

	if (b->is_default) {
		if (!(ace->flags & (KSMBD_ACE_OBJECT_INHERIT |
				    KSMBD_ACE_CONTAINER_INHERIT)))
			return false;
		/* judged as if it applied, which it will to the children */
		probe.flags &= ~KSMBD_ACE_INHERIT_ONLY;
	}
	eff = ksmbd_ace_effect(&probe);
	*allow = eff == KSMBD_ACE_ALLOWS;
	return eff != KSMBD_ACE_SKIPPED;
}

static int collect(struct pbuild *b, const struct ksmbd_sd *sd, bool *any)
{
	u32 pos = KSMBD_ACL_HDR_SIZE;
	u16 left = sd->ace_count;
	struct ksmbd_ace ace;
	struct target t;
	bool allow;
	int rc;

	*any = false;
	while ((rc = ksmbd_acl_next(&sd->dacl, &pos, &left, &ace)) > 0) {
		if (!ace_counts(b, &ace, &allow))
			continue;
		*any = true;
		t = target_of(b, &ace.sid);
		if (t.none || t.all)
			continue;
		rc = add(b, t.tag, t.id);
		if (rc)
			return rc;
	}
	return rc;
}

static void apply_all(struct pbuild *b, const struct ksmbd_sd *sd)
{
	u32 pos = KSMBD_ACL_HDR_SIZE, i;
	u16 left = sd->ace_count, rwx;
	struct ksmbd_ace ace;
	struct ksmbd_pacl_entry *e;
	struct target t;
	bool allow;

	while (ksmbd_acl_next(&sd->dacl, &pos, &left, &ace) > 0) {
		if (!ace_counts(b, &ace, &allow))
			continue;
		t = target_of(b, &ace.sid);
		if (t.none)
			continue;
		rwx = mask_rwx(ace.mask);
		if (t.all) {
			for (i = 0; i < b->n; i++)
				apply(&b->e[i], allow, rwx);
			continue;
		}
		e = find(b, t.tag, t.id);
		if (e)
			apply(e, allow, rwx);
	}
}

static bool before(const struct ksmbd_pacl_entry *a,
		   const struct ksmbd_pacl_entry *b)
{
	return a->tag < b->tag || (a->tag == b->tag && a->id < b->id);
}

/* Drop the denied bits, add MASK, sort as posix_acl_valid() wants. */
static int finish(struct pbuild *b)
{
	struct ksmbd_pacl_entry tmp;
	bool named = false;
	u16 mask = 0;
	u32 i, j;

	for (i = 0; i < b->n; i++) {
		b->e[i].perm &= RWX;
		if (b->e[i].tag == KSMBD_PACL_USER ||
		    b->e[i].tag == KSMBD_PACL_GROUP)
			named = true;
		if (b->e[i].tag != KSMBD_PACL_USER_OBJ &&
		    b->e[i].tag != KSMBD_PACL_OTHER)
			mask |= b->e[i].perm;
	}
	if (named) {
		if (b->n == b->cap)
			return -E2BIG;
		b->e[b->n].tag = KSMBD_PACL_MASK;
		b->e[b->n].id = 0;
		b->e[b->n].perm = mask;
		b->n++;
	}
	for (i = 1; i < b->n; i++) {
		tmp = b->e[i];
		for (j = i; j > 0 && before(&tmp, &b->e[j - 1]); j--)
			b->e[j] = b->e[j - 1];
		b->e[j] = tmp;
	}
	return 0;
}

static int build(struct pbuild *b, const struct ksmbd_sd *sd, bool *any)
{
	u32 i;
	int rc;

	b->n = 0;
	if (add(b, KSMBD_PACL_USER_OBJ, 0) || add(b, KSMBD_PACL_GROUP_OBJ, 0) ||
	    add(b, KSMBD_PACL_OTHER, 0))
		return -E2BIG;
	rc = collect(b, sd, any);
	if (rc)
		return rc;
	apply_all(b, sd);
	/*
	 * Windows never checks traverse (every token holds the bypass
	 * privilege), the kernel does on every path walk: whoever has a
	 * right in a directory may search it, or a file its DACL lets the
	 * caller create or open there could not be reached.
	 */
	if (b->traverse)
		for (i = 0; i < b->n; i++)
			if (b->e[i].perm & RWX)
				b->e[i].perm |= KSMBD_PACL_EXECUTE;
	return finish(b);
}

/* A NULL (or absent) DACL: everything for everyone, no default ACL. */
static int open_to_all(struct ksmbd_pacl *out)
{
	static const u16 tags[] = { KSMBD_PACL_USER_OBJ, KSMBD_PACL_GROUP_OBJ,
				    KSMBD_PACL_OTHER };
	u32 i;

	if (out->acc_cap < 3)
		return -E2BIG;
	for (i = 0; i < 3; i++) {
		out->acc[i].tag = tags[i];
		out->acc[i].id = 0;
		out->acc[i].perm = RWX;
	}
	out->acc_count = 3;
	return 0;
}

int ksmbd_sd_to_posix(const struct ksmbd_sd *sd, u32 uid, u32 gid,
		      bool is_directory, ksmbd_sid_map_fn map, void *map_ctx,
		      struct ksmbd_pacl *out)
{
	struct pbuild b = { .uid = uid, .gid = gid, .map = map,
			    .map_ctx = map_ctx };
	bool any;
	int rc;

	out->acc_count = 0;
	out->def_count = 0;
	if (!sd->has_dacl || sd->null_dacl)
		return open_to_all(out);
	b.e = out->acc;
	b.cap = out->acc_cap;
	b.traverse = is_directory;
	rc = build(&b, sd, &any);
	if (rc)
		return rc;
	out->acc_count = b.n;
	if (!is_directory)
		return 0;
	b.e = out->def;
	b.cap = out->def_cap;
	b.is_default = true;
	b.traverse = false;
	rc = build(&b, sd, &any);
	if (rc) {
		out->acc_count = 0;
		return rc;
	}
	out->def_count = any ? b.n : 0;
	return 0;
}
