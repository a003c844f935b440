// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MS-DTYP 2.5.3.2 access check; see sd_access.h.
 *
 * The DACL is always walked to its end with the maximum-allowed rule
 * (first ACE that names a bit decides it), and `desired` is compared
 * with the result afterwards. Per bit that is what the spec's early-exit
 * loop decides too, and it gives MAXIMUM_ALLOWED and the deciding ACE
 * from one walk.
 */
#include "sd_access.h"
#include "ksmbd_errno.h"

/*
 * What an ACE can grant or deny: standard and object-specific rights.
 * ACCESS_SYSTEM_SECURITY comes from the privilege only (it "is not
 * valid in a DACL"), MAXIMUM_ALLOWED and the reserved bits are requests.
 */
#define ACE_RIGHTS	0x00ffffffu

struct wk_def {
	u8 authority;
	u8 n;
	u32 sub[2];
};

static const struct wk_def wk_defs[KSMBD_WK_NR] = {
	[KSMBD_WK_EVERYONE]		= { 1, 1, { 0 } },
	[KSMBD_WK_CREATOR_OWNER]	= { 3, 1, { 0 } },
	[KSMBD_WK_CREATOR_GROUP]	= { 3, 1, { 1 } },
	[KSMBD_WK_OWNER_RIGHTS]		= { 3, 1, { 4 } },
	[KSMBD_WK_AUTHENTICATED_USERS]	= { 5, 1, { 11 } },
	[KSMBD_WK_SYSTEM]		= { 5, 1, { 18 } },
	[KSMBD_WK_ADMINISTRATORS]	= { 5, 2, { 32, 544 } },
	[KSMBD_WK_USERS]		= { 5, 2, { 32, 545 } },
	[KSMBD_WK_NETWORK]		= { 5, 1, { 2 } },
	[KSMBD_WK_GUESTS]		= { 5, 2, { 32, 546 } },
};

void ksmbd_sid_well_known(enum ksmbd_wk_sid which, struct ksmbd_sid *sid)
{
	const struct wk_def *d = &wk_defs[which];
	u32 i;

	memset(sid, 0, sizeof(*sid));
	sid->revision = 1;
	sid->num_subauth = d->n;
	sid->authority[5] = d->authority;
	for (i = 0; i < d->n; i++)
		sid->sub_auth[i] = d->sub[i];
}

bool ksmbd_sid_is(const struct ksmbd_sid *sid, enum ksmbd_wk_sid which)
{
	struct ksmbd_sid wk;

	ksmbd_sid_well_known(which, &wk);
	return ksmbd_sid_equal(sid, &wk);
}

u32 ksmbd_sd_map_generic(u32 mask)
{
	if (mask & KSMBD_GENERIC_READ)
		mask |= KSMBD_FILE_GENERIC_READ;
	if (mask & KSMBD_GENERIC_WRITE)
		mask |= KSMBD_FILE_GENERIC_WRITE;
	if (mask & KSMBD_GENERIC_EXECUTE)
		mask |= KSMBD_FILE_GENERIC_EXECUTE;
	if (mask & KSMBD_GENERIC_ALL)
		mask |= KSMBD_FILE_ALL_ACCESS;
	return mask & ~KSMBD_GENERIC_BITS;
}

bool ksmbd_token_has_sid(const struct ksmbd_token *tok,
			 const struct ksmbd_sid *sid)
{
	u32 i;

	for (i = 0; i < tok->nr_sids; i++)
		if (ksmbd_sid_equal(&tok->sids[i], sid))
			return true;
	return false;
}

enum ksmbd_ace_effect ksmbd_ace_effect(const struct ksmbd_ace *ace)
{
	bool typed = ace->obj_flags & KSMBD_ACE_OBJECT_TYPE_PRESENT;

	if (!ace->has_sid || (ace->flags & KSMBD_ACE_INHERIT_ONLY))
		return KSMBD_ACE_SKIPPED;
	switch (ace->type) {
	case KSMBD_ACE_ACCESS_ALLOWED:
		return KSMBD_ACE_ALLOWS;
	case KSMBD_ACE_ACCESS_DENIED:
	case KSMBD_ACE_ACCESS_DENIED_CALLBACK:
		return KSMBD_ACE_DENIES;
	case KSMBD_ACE_ACCESS_ALLOWED_OBJECT:
		return typed ? KSMBD_ACE_SKIPPED : KSMBD_ACE_ALLOWS;
	case KSMBD_ACE_ACCESS_DENIED_OBJECT:
	case KSMBD_ACE_ACCESS_DENIED_CALLBACK_OBJECT:
		return typed ? KSMBD_ACE_SKIPPED : KSMBD_ACE_DENIES;
	default:
		return KSMBD_ACE_SKIPPED;
	}
}

/* The DACL walk's outcome: bits granted, bits denied, who denied each. */
struct dacl_walk {
	u32 granted;
	u32 denied;
	s32 denied_by[32];
	s32 first_deny;		/* first ACE that denied anything */
};

/*
 * An OWNER RIGHTS ACE replaces the owner's implicit rights only when it
 * takes effect: the same test walk_dacl() applies, so an ACE it skips
 * (inherit-only, a callback allow, a typed object ACE) leaves them.
 */
static bool has_owner_rights_ace(const struct ksmbd_sd *sd)
{
	u32 pos = KSMBD_ACL_HDR_SIZE;
	u16 left = sd->ace_count;
	struct ksmbd_ace ace;

	while (ksmbd_acl_next(&sd->dacl, &pos, &left, &ace) > 0)
		if (ksmbd_ace_effect(&ace) != KSMBD_ACE_SKIPPED &&
		    ksmbd_sid_is(&ace.sid, KSMBD_WK_OWNER_RIGHTS))
			return true;
	return false;
}

static void note_denied(struct dacl_walk *r, u32 bits, s32 idx)
{
	u32 b;

	if (r->first_deny < 0)
		r->first_deny = idx;
	for (b = 0; b < 32; b++)
		if ((bits & (1u << b)) && r->denied_by[b] < 0)
			r->denied_by[b] = idx;
}

static int walk_dacl(const struct ksmbd_sd *sd, const struct ksmbd_token *tok,
		     bool owner, struct dacl_walk *r)
{
	u32 pos = KSMBD_ACL_HDR_SIZE, mask, fresh;
	u16 left = sd->ace_count;
	struct ksmbd_ace ace;
	enum ksmbd_ace_effect eff;
	s32 idx = -1;
	int rc;

	while ((rc = ksmbd_acl_next(&sd->dacl, &pos, &left, &ace)) > 0) {
		idx++;
		eff = ksmbd_ace_effect(&ace);
		if (eff == KSMBD_ACE_SKIPPED)
			continue;
		if (!(owner && ksmbd_sid_is(&ace.sid, KSMBD_WK_OWNER_RIGHTS)) &&
		    !ksmbd_token_has_sid(tok, &ace.sid))
			continue;
		mask = ksmbd_sd_map_generic(ace.mask) & ACE_RIGHTS;
		if (eff == KSMBD_ACE_ALLOWS) {
			r->granted |= mask & ~r->denied;
			continue;
		}
		fresh = mask & ~r->granted & ~r->denied;
		if (!fresh)
			continue;
		r->denied |= fresh;
		note_denied(r, fresh, idx);
	}
	return rc;
}

/* What privileges give whatever the DACL says. */
static u32 privileged_access(const struct ksmbd_token *tok)
{
	u32 bits = 0;

	if (tok->privileges & KSMBD_PRIV_TAKE_OWNERSHIP)
		bits |= KSMBD_WRITE_OWNER;
	if (tok->privileges & KSMBD_PRIV_BACKUP)
		bits |= KSMBD_PRIV_BACKUP_ACCESS;
	if (tok->privileges & KSMBD_PRIV_RESTORE)
		bits |= KSMBD_PRIV_RESTORE_ACCESS;
	/* only ever granted when asked for, by the security privilege */
	return bits & ~KSMBD_ACCESS_SYSTEM_SECURITY;
}

/* The ACE that refused one of `missing`, or -1 when none did. */
static int decider(const struct dacl_walk *r, u32 missing)
{
	s32 best = -1;
	u32 b;

	for (b = 0; b < 32; b++)
		if ((missing & (1u << b)) && r->denied_by[b] >= 0 &&
		    (best < 0 || r->denied_by[b] < best))
			best = r->denied_by[b];
	return best;
}

static int refuse(u32 *granted, int *deciding_ace, int ace, int err)
{
	*granted = 0;
	if (deciding_ace)
		*deciding_ace = ace;
	return err;
}

int ksmbd_sd_access_check(const struct ksmbd_sd *sd,
			  const struct ksmbd_token *tok, u32 desired,
			  u32 *granted, int *deciding_ace)
{
	bool max = desired & KSMBD_MAXIMUM_ALLOWED;
	struct dacl_walk r = { .first_deny = -1 };
	u32 want, total, b;
	bool owner;

	want = ksmbd_sd_map_generic(desired) & ~KSMBD_MAXIMUM_ALLOWED;
	if ((want & KSMBD_ACCESS_SYSTEM_SECURITY) &&
	    !(tok->privileges & KSMBD_PRIV_SECURITY))
		return refuse(granted, deciding_ace, -1, -KSMBD_EPRIV_NOT_HELD);

	if (!sd->has_dacl || sd->null_dacl) {
		*granted = want | (max ? KSMBD_FILE_ALL_ACCESS : 0);
		if (deciding_ace)
			*deciding_ace = -1;
		return 0;
	}

	for (b = 0; b < 32; b++)
		r.denied_by[b] = -1;
	owner = sd->has_owner && ksmbd_token_has_sid(tok, &sd->owner);
	if (owner && !has_owner_rights_ace(sd))
		r.granted = KSMBD_READ_CONTROL | KSMBD_WRITE_DAC;
	if (walk_dacl(sd, tok, owner, &r) < 0)
		return refuse(granted, deciding_ace, -1, -EINVAL);

	total = r.granted | privileged_access(tok) |
		(want & KSMBD_ACCESS_SYSTEM_SECURITY);
	if (want & ~total)
		return refuse(granted, deciding_ace, decider(&r, want & ~total),
			      -EACCES);
	if (max) {
		if (!total)
			return refuse(granted, deciding_ace, r.first_deny,
				      -EACCES);
		*granted = total;
	} else {
		*granted = want;
	}
	if (deciding_ace)
		*deciding_ace = -1;
	return 0;
}

/* What the parent directory's descriptor gives an open of its child. */
static u32 parent_grants(const struct ksmbd_sd *parent,
			 const struct ksmbd_token *tok)
{
	u32 bits = 0, g;

	if (!parent)
		return 0;
	if (!ksmbd_sd_access_check(parent, tok, KSMBD_FILE_DELETE_CHILD, &g,
				   NULL))
		bits |= KSMBD_DELETE;
	if (!ksmbd_sd_access_check(parent, tok, KSMBD_FILE_READ_DATA, &g,
				   NULL))
		bits |= KSMBD_FILE_READ_ATTRIBUTES;
	return bits;
}

int ksmbd_sd_access_check_open(const struct ksmbd_sd *sd,
			       const struct ksmbd_sd *parent,
			       const struct ksmbd_token *tok, u32 desired,
			       u32 *granted, int *deciding_ace)
{
	bool max = desired & KSMBD_MAXIMUM_ALLOWED;
	u32 extra = parent_grants(parent, tok);
	u32 want = ksmbd_sd_map_generic(desired) & ~KSMBD_MAXIMUM_ALLOWED;
	u32 rest = want & ~extra;
	int rc;

	rc = ksmbd_sd_access_check(sd, tok, rest | (max ? desired &
				   KSMBD_MAXIMUM_ALLOWED : 0), granted,
				   deciding_ace);
	if (rc == -EACCES && max && !rest && extra) {
		/* the file grants nothing, the parent something */
		*granted = 0;
		rc = 0;
	}
	if (rc)
		return rc;
	*granted |= (want & extra) | (max ? extra : 0);
	if (deciding_ace)
		*deciding_ace = -1;
	return 0;
}
