// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The descriptor of a new file or directory (MS-DTYP 2.5.3.4); see
 * sd_inherit.h.
 *
 * Each ACL is produced twice by the same code: once to measure it, once
 * to write it where ksmbd_sd_put_head() left room, so nothing is built
 * in a temporary buffer (ACLs reach 64 KiB).
 */
#include "sd_inherit.h"
#include "sd_build.h"
#include "sd_access.h"

#define INHERIT_BITS	(KSMBD_ACE_OBJECT_INHERIT | \
			 KSMBD_ACE_CONTAINER_INHERIT)
/* AceFlags that an ACE keeps wherever it goes (audit ACEs' what-to-log) */
#define KEPT_BITS	(KSMBD_ACE_SUCCESSFUL_ACCESS | \
			 KSMBD_ACE_FAILED_ACCESS)

/* An ACL being produced: measured (w NULL) or written. */
struct acl_gen {
	struct ksmbd_wbuf *w;
	const struct ksmbd_sid *owner, *group;	/* the new descriptor's */
	u32 size;
	u16 count;
	bool too_big;
};

/* What a parent ACE gives the new object (a mask of these). */
enum {
	GIVE_EFFECTIVE	= 0x1,	/* applies to it: substituted and mapped */
	GIVE_PASS_ON	= 0x2,	/* as it is, inheritable further */
	GIVE_IO_COPY	= 0x4,	/* as it is, inherit-only, for children */
};

/* CREATOR OWNER or CREATOR GROUP, or generic bits, to replace. */
static bool needs_change(const struct ksmbd_ace *ace)
{
	return ace->has_sid && ((ace->mask & KSMBD_GENERIC_BITS) ||
		ksmbd_sid_is(&ace->sid, KSMBD_WK_CREATOR_OWNER) ||
		ksmbd_sid_is(&ace->sid, KSMBD_WK_CREATOR_GROUP));
}

/*
 * CreateACLFromParent for one ACE (smb2.acls.INHERITANCE's table):
 * a file takes OI ACEs; a directory takes CI ACEs (NP: only for itself;
 * else with their OI/CI, split in two when CREATOR OWNER/GROUP or
 * generic bits must be replaced) and passes OI-only ones on inherit-only
 * (unless NP). An object ACE limited to an inherited object type never
 * applies to files or directories, only passes on.
 */
static u32 parent_gives(const struct ksmbd_ace *ace, bool is_directory)
{
	bool oi = ace->flags & KSMBD_ACE_OBJECT_INHERIT;
	bool ci = ace->flags & KSMBD_ACE_CONTAINER_INHERIT;
	bool np = ace->flags & KSMBD_ACE_NO_PROPAGATE_INHERIT;
	bool typed = ace->obj_flags & KSMBD_ACE_INHERITED_OBJECT_TYPE_PRESENT;

	if (!is_directory)
		return oi && !typed ? GIVE_EFFECTIVE : 0;
	if (ci && !typed) {
		if (np)
			return GIVE_EFFECTIVE;
		if (needs_change(ace))
			return GIVE_EFFECTIVE | GIVE_IO_COPY;
		return GIVE_PASS_ON;
	}
	if ((oi || ci) && !np)
		return GIVE_IO_COPY;
	return 0;
}

static const struct ksmbd_sid *substitute(const struct acl_gen *g,
					  const struct ksmbd_ace *ace)
{
	if (!ace->has_sid)
		return NULL;
	if (ksmbd_sid_is(&ace->sid, KSMBD_WK_CREATOR_OWNER))
		return g->owner;
	if (ksmbd_sid_is(&ace->sid, KSMBD_WK_CREATOR_GROUP))
		return g->group;
	return NULL;
}

/*
 * Emit one ACE copied from src (its ACL `acl`) with new flags; when
 * `effective`, CREATOR OWNER/GROUP replaced and generic bits mapped.
 * Bytes after the SID (a callback ACE's condition) are kept.
 */
static void emit(struct acl_gen *g, const struct ksmbd_buf *acl,
		 const struct ksmbd_ace *src, u8 flags, bool effective)
{
	const struct ksmbd_sid *sid = effective ? substitute(g, src) : NULL;
	const u8 *p = acl->p + src->off;
	u32 size = src->size, tail = 0;
	u8 *at;

	if (sid) {
		tail = src->size - src->sid_off - src->sid_size;
		size = src->sid_off + ksmbd_sid_size(sid) + tail;
	}
	if (size > 0xffff || g->size + size > 0xffff - KSMBD_ACL_HDR_SIZE ||
	    g->count == 0xffff) {
		g->too_big = true;
		return;
	}
	g->size += size;
	g->count++;
	if (!g->w)
		return;
	at = ksmbd_wbuf_reserve_raw(g->w, sid ? src->sid_off : size);
	if (!at)
		return;
	memcpy(at, p, sid ? src->sid_off : size);
	at[1] = flags;
	put_unaligned_le16((u16)size, at + 2);
	if (effective && src->has_sid)
		put_unaligned_le32(ksmbd_sd_map_generic(src->mask), at + 4);
	if (sid) {
		ksmbd_sid_put(g->w, sid);
		ksmbd_wbuf_put(g->w, p + src->sid_off + src->sid_size, tail);
	}
}

static void emit_from_parent(struct acl_gen *g, const struct ksmbd_buf *acl,
			     u16 count, bool is_directory, bool auto_inherit)
{
	u8 inh = auto_inherit ? KSMBD_ACE_INHERITED : 0, keep, pass;
	u32 pos = KSMBD_ACL_HDR_SIZE, give;
	struct ksmbd_ace ace;
	u16 left = count;

	while (ksmbd_acl_next(acl, &pos, &left, &ace) > 0) {
		give = parent_gives(&ace, is_directory);
		keep = (ace.flags & KEPT_BITS) | inh;
		pass = (ace.flags & INHERIT_BITS) | keep;
		if (give & GIVE_EFFECTIVE)
			emit(g, acl, &ace, keep, true);
		if (give & GIVE_PASS_ON)
			emit(g, acl, &ace, pass, false);
		if (give & GIVE_IO_COPY)
			emit(g, acl, &ace, pass | KSMBD_ACE_INHERIT_ONLY, false);
	}
}

/*
 * The creator's own ACEs (skipping inherited ones when the parent's are
 * added after them): an ACE that applies to the object gets CREATOR
 * OWNER/GROUP and generic bits replaced, a directory keeping an
 * inheritable one's original inherit-only for its children.
 */
static void emit_from_creator(struct acl_gen *g, const struct ksmbd_buf *acl,
			      u16 count, bool is_directory, bool explicit_only)
{
	u32 pos = KSMBD_ACL_HDR_SIZE;
	struct ksmbd_ace ace;
	u16 left = count;
	u8 f;

	while (ksmbd_acl_next(acl, &pos, &left, &ace) > 0) {
		f = ace.flags;
		if (explicit_only && (f & KSMBD_ACE_INHERITED))
			continue;
		if ((f & KSMBD_ACE_INHERIT_ONLY) || !needs_change(&ace)) {
			emit(g, acl, &ace, f, false);
			continue;
		}
		if (is_directory && (f & INHERIT_BITS)) {
			emit(g, acl, &ace, f & ~(INHERIT_BITS |
				KSMBD_ACE_NO_PROPAGATE_INHERIT), true);
			emit(g, acl, &ace, f | KSMBD_ACE_INHERIT_ONLY, false);
			continue;
		}
		emit(g, acl, &ace, f, true);
	}
}

/* How one ACL of the new descriptor is made (ComputeACL's branches). */
enum acl_plan {
	PLAN_ABSENT,		/* no ACL, not present */
	PLAN_NULL,		/* present, NULL */
	PLAN_PARENT,		/* inherited from the parent */
	PLAN_CREATOR,		/* the creator's */
	PLAN_BOTH,		/* the creator's explicit ACEs, then inherited */
	PLAN_DEFAULT,		/* the caller's default */
};

/* One ACL's inputs, DACL or SACL. */
struct acl_in {
	const struct ksmbd_buf *parent;	/* NULL: none or NULL ACL */
	u16 parent_count;
	bool auto_inherit;		/* parent's AUTO_INHERITED */
	bool creator_has;		/* creator's present, not defaulted */
	bool creator_defaulted;		/* present but defaulted */
	bool creator_null;
	bool creator_protected;
	const struct ksmbd_buf *creator;
	u16 creator_count;
	const struct ksmbd_buf *def;
	u16 def_count;
	bool is_directory;
};

/* Control bits of the outcome (AUTO_INHERITED, PROTECTED, PRESENT). */
struct acl_out {
	enum acl_plan plan;
	u16 control;
	u8 rev;
};

static enum acl_plan plan_of(const struct acl_in *in, bool inheritable)
{
	if (in->creator_has) {
		if (in->creator_null)
			return PLAN_NULL;
		if (in->creator_protected || !in->auto_inherit)
			return PLAN_CREATOR;
		return PLAN_BOTH;
	}
	if (inheritable)
		return PLAN_PARENT;
	if (in->creator_defaulted)
		return in->creator_null ? PLAN_NULL : PLAN_CREATOR;
	return in->def ? PLAN_DEFAULT : PLAN_ABSENT;
}

static u8 acl_rev(const struct ksmbd_buf *a, const struct ksmbd_buf *b)
{
	u8 rev = 2;

	if (a && a->p[0] > rev)
		rev = a->p[0];
	if (b && b->p[0] > rev)
		rev = b->p[0];
	return rev;
}

static void plan_acl(const struct acl_in *in, u16 present, u16 auto_bit,
		     u16 protect_bit, struct acl_out *out)
{
	bool inheritable = in->parent &&
		ksmbd_acl_inheritable(in->parent, in->parent_count,
				      in->is_directory);

	out->plan = plan_of(in, inheritable);
	out->control = out->plan == PLAN_ABSENT ? 0 : present;
	out->rev = 2;
	switch (out->plan) {
	case PLAN_PARENT:
		if (in->auto_inherit)
			out->control |= auto_bit;
		out->rev = acl_rev(in->parent, NULL);
		break;
	case PLAN_BOTH:
		out->control |= auto_bit;
		out->rev = acl_rev(in->parent, in->creator);
		break;
	case PLAN_CREATOR:
	case PLAN_NULL:
		if (in->creator_protected)
			out->control |= protect_bit;
		out->rev = acl_rev(in->creator, NULL);
		break;
	case PLAN_DEFAULT:
		out->rev = acl_rev(in->def, NULL);
		break;
	case PLAN_ABSENT:
		break;
	}
}

static void gen_acl(struct acl_gen *g, const struct acl_in *in,
		    const struct acl_out *plan)
{
	switch (plan->plan) {
	case PLAN_PARENT:
		emit_from_parent(g, in->parent, in->parent_count,
				 in->is_directory, in->auto_inherit);
		break;
	case PLAN_BOTH:
		emit_from_creator(g, in->creator, in->creator_count,
				  in->is_directory, true);
		if (in->parent)
			emit_from_parent(g, in->parent, in->parent_count,
					 in->is_directory, true);
		break;
	case PLAN_CREATOR:
		emit_from_creator(g, in->creator, in->creator_count,
				  in->is_directory, false);
		break;
	case PLAN_DEFAULT:
		emit_from_creator(g, in->def, in->def_count,
				  in->is_directory, false);
		break;
	default:
		break;
	}
}

/* Size and ACE count of the ACL the plan makes: size 0 when none is. */
static int measure_acl(struct acl_gen *g, const struct acl_in *in,
		       const struct acl_out *plan, u32 *size, u16 *count)
{
	*size = 0;
	*count = 0;
	if (plan->plan == PLAN_ABSENT || plan->plan == PLAN_NULL)
		return 0;
	g->w = NULL;
	g->size = 0;
	g->count = 0;
	g->too_big = false;
	gen_acl(g, in, plan);
	if (g->too_big)
		return -ERANGE;
	*size = KSMBD_ACL_HDR_SIZE + g->size;
	*count = g->count;
	return 0;
}

/* Write the ACL measure_acl() measured: `size` bytes, `count` ACEs. */
static void write_acl(struct acl_gen *g, struct ksmbd_wbuf *w,
		      const struct acl_in *in, const struct acl_out *plan,
		      u32 size, u16 count)
{
	if (!size)
		return;
	ksmbd_wbuf_put_u8(w, plan->rev);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le16(w, (u16)size);
	ksmbd_wbuf_put_le16(w, count);
	ksmbd_wbuf_put_le16(w, 0);
	g->w = w;
	g->size = 0;
	g->count = 0;
	gen_acl(g, in, plan);
}

static void dacl_in(const struct ksmbd_sd *parent, const struct ksmbd_sd *c,
		    struct acl_in *in)
{
	if (parent->has_dacl && !parent->null_dacl) {
		in->parent = &parent->dacl;
		in->parent_count = parent->ace_count;
	}
	in->auto_inherit = parent->control & KSMBD_SE_DACL_AUTO_INHERITED;
	if (!c || !c->has_dacl)
		return;
	if (c->control & KSMBD_SE_DACL_DEFAULTED)
		in->creator_defaulted = true;
	else
		in->creator_has = true;
	in->creator_null = c->null_dacl;
	in->creator_protected = c->control & KSMBD_SE_DACL_PROTECTED;
	if (!c->null_dacl) {
		in->creator = &c->dacl;
		in->creator_count = c->ace_count;
	}
}

static void sacl_in(const struct ksmbd_sd *parent, const struct ksmbd_sd *c,
		    struct acl_in *in)
{
	if (parent->has_sacl && !parent->null_sacl) {
		in->parent = &parent->sacl;
		in->parent_count = parent->sacl_ace_count;
	}
	in->auto_inherit = parent->control & KSMBD_SE_SACL_AUTO_INHERITED;
	if (!c || !c->has_sacl)
		return;
	if (c->control & KSMBD_SE_SACL_DEFAULTED)
		in->creator_defaulted = true;
	else
		in->creator_has = true;
	in->creator_null = c->null_sacl;
	in->creator_protected = c->control & KSMBD_SE_SACL_PROTECTED;
	if (!c->null_sacl) {
		in->creator = &c->sacl;
		in->creator_count = c->sacl_ace_count;
	}
}

int ksmbd_sd_inherit(struct ksmbd_wbuf *w, const struct ksmbd_sd *parent,
		     const struct ksmbd_sd *creator,
		     const struct ksmbd_sid *owner,
		     const struct ksmbd_sid *group,
		     const struct ksmbd_buf *default_dacl, bool is_directory)
{
	struct acl_in din = { .is_directory = is_directory };
	struct acl_in sin = { .is_directory = is_directory };
	struct acl_out dout, sout;
	struct acl_gen g = { 0 };
	struct ksmbd_buf def;
	u32 dsize, ssize;
	u16 dcount, scount;
	int total, rc;

	if (default_dacl) {
		if (ksmbd_acl_check(default_dacl, 0, &def, &din.def_count) < 0)
			return -EINVAL;
		din.def = default_dacl;
	}
	dacl_in(parent, creator, &din);
	sacl_in(parent, creator, &sin);
	plan_acl(&din, KSMBD_SE_DACL_PRESENT, KSMBD_SE_DACL_AUTO_INHERITED,
		 KSMBD_SE_DACL_PROTECTED, &dout);
	plan_acl(&sin, KSMBD_SE_SACL_PRESENT, KSMBD_SE_SACL_AUTO_INHERITED,
		 KSMBD_SE_SACL_PROTECTED, &sout);
	if (dout.plan == PLAN_ABSENT)
		return -ENODATA;

	g.owner = creator && creator->has_owner ? &creator->owner : owner;
	g.group = creator && creator->has_group ? &creator->group : group;
	rc = measure_acl(&g, &sin, &sout, &ssize, &scount);
	if (!rc)
		rc = measure_acl(&g, &din, &dout, &dsize, &dcount);
	if (rc)
		return rc;
	total = ksmbd_sd_put_head(w, dout.control | sout.control, g.owner,
				  g.group, ssize, dsize);
	if (w->overflow)
		return total;
	write_acl(&g, w, &sin, &sout, ssize, scount);
	write_acl(&g, w, &din, &dout, dsize, dcount);
	return total;
}

bool ksmbd_acl_inheritable(const struct ksmbd_buf *acl, u16 ace_count,
			   bool is_directory)
{
	u32 pos = KSMBD_ACL_HDR_SIZE;
	struct ksmbd_ace ace;
	u16 left = ace_count;

	while (ksmbd_acl_next(acl, &pos, &left, &ace) > 0)
		if (parent_gives(&ace, is_directory))
			return true;
	return false;
}

static void put_allow(struct ksmbd_wbuf *w, u32 mask,
		      const struct ksmbd_sid *sid)
{
	ksmbd_wbuf_put_u8(w, KSMBD_ACE_ACCESS_ALLOWED);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le16(w, (u16)(8 + ksmbd_sid_size(sid)));
	ksmbd_wbuf_put_le32(w, mask);
	ksmbd_sid_put(w, sid);
}

u32 ksmbd_acl_put_default(struct ksmbd_wbuf *w, const struct ksmbd_sid *owner)
{
	struct ksmbd_sid system;
	u32 size;

	ksmbd_sid_well_known(KSMBD_WK_SYSTEM, &system);
	size = KSMBD_ACL_HDR_SIZE + 2 * 8 + ksmbd_sid_size(owner) +
	       ksmbd_sid_size(&system);
	ksmbd_wbuf_put_u8(w, 2);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le16(w, (u16)size);
	ksmbd_wbuf_put_le16(w, 2);
	ksmbd_wbuf_put_le16(w, 0);
	put_allow(w, KSMBD_FILE_ALL_ACCESS, owner);
	put_allow(w, KSMBD_FILE_ALL_ACCESS, &system);
	return size;
}
