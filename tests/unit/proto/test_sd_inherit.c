// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * New files' and directories' descriptors (proto/sd_inherit.c), against
 * MS-DTYP 2.5.3.4 and what smbtorture's smb2.acls.INHERITANCE,
 * INHERITFLAGS and smb2.create.aclfile / acldir / nulldacl expect.
 */
#include "testlib.h"
#include "sdtest.h"
#include "proto/sd_inherit.h"

#define OI	KSMBD_ACE_OBJECT_INHERIT
#define CI	KSMBD_ACE_CONTAINER_INHERIT
#define NP	KSMBD_ACE_NO_PROPAGATE_INHERIT
#define IO	KSMBD_ACE_INHERIT_ONLY
#define ID	KSMBD_ACE_INHERITED
#define WD	KSMBD_FILE_WRITE_DATA
#define ALLOW	KSMBD_ACE_ACCESS_ALLOWED

static u8 out[1 << 18];
static struct ksmbd_sid alice, staff;
/* the Windows default for a new object: owner and SYSTEM, full control */
static u8 def_acl[256];
static struct ksmbd_buf def_dacl;

static void setup(void)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_ALICE),
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_SYSTEM),
	};

	t_sid(S_ALICE, &alice);
	t_sid(S_STAFF, &staff);
	def_dacl = ksmbd_buf_make(def_acl, t_put_acl(def_acl, d, 2));
}

/* Inherit into a new object; parse the result into *sd, list its DACL. */
static int inherit(const struct ksmbd_sd *parent,
		   const struct ksmbd_sd *creator, bool dir,
		   struct ksmbd_sd *sd, struct tlist *l)
{
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_buf b;
	int n;

	n = ksmbd_sd_inherit(&w, parent, creator, &alice, &staff, &def_dacl,
			     dir);
	if (n < 0)
		return n;
	if (w.overflow || (u32)n != w.len)
		return -1000;
	b = ksmbd_buf_make(out, w.len);
	if (ksmbd_sd_parse(&b, sd))
		return -1001;
	l->n = 0;
	if (sd->has_dacl && !sd->null_dacl &&
	    t_list(&sd->dacl, sd->ace_count, l))
		return -1002;
	return n;
}

static bool is_default(const struct tlist *l)
{
	return l->n == 2 &&
	       t_ace_is(&l->a[0], ALLOW, 0, KSMBD_FILE_ALL_ACCESS, S_ALICE) &&
	       t_ace_is(&l->a[1], ALLOW, 0, KSMBD_FILE_ALL_ACCESS, S_SYSTEM);
}

/*
 * smb2.acls.INHERITANCE's table: the parent has CREATOR OWNER
 * WRITE_DATA with the flags below and Everyone full control (not
 * inheritable); what a new file and a new directory get.
 */
TEST(inheritance_table)
{
	static const u8 flags[] = {
		0, OI, CI, OI | CI, NP, NP | OI, NP | CI, NP | CI | OI,
		IO, IO | OI, IO | CI, IO | CI | OI, IO | NP, IO | NP | OI,
		IO | NP | CI, IO | NP | CI | OI,
	};
	struct tace p[2] = {
		T_ALLOW(0, WD, S_CO),
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_WORLD),
	};
	struct ksmbd_sd *parent, sd;
	struct tsd t;
	struct tlist l;
	u32 i;
	u8 f;

	for (i = 0; i < sizeof(flags); i++) {
		f = flags[i];
		p[0].flags = f;
		parent = t_sd(&t, 0, S_ALICE, NULL, T_ACL, p, 2);

		CHECK(inherit(parent, NULL, false, &sd, &l) > 0);
		CHECK_EQ_INT(sd.control, KSMBD_SE_SELF_RELATIVE |
			     KSMBD_SE_DACL_PRESENT);
		CHECK(ksmbd_sid_equal(&sd.owner, &alice));
		CHECK(ksmbd_sid_equal(&sd.group, &staff));
		if (!(f & OI))
			CHECK(is_default(&l));
		else
			CHECK(l.n == 1 && t_ace_is(&l.a[0], ALLOW, 0, WD,
						   S_ALICE));

		CHECK(inherit(parent, NULL, true, &sd, &l) > 0);
		if (!(f & CI) && (!(f & OI) || (f & NP))) {
			CHECK(is_default(&l));
		} else if ((f & CI) && (f & NP)) {
			CHECK(l.n == 1 && t_ace_is(&l.a[0], ALLOW, 0, WD,
						   S_ALICE));
		} else if (f & CI) {
			CHECK(l.n == 2 && t_ace_is(&l.a[0], ALLOW, 0, WD,
						   S_ALICE) &&
			      t_ace_is(&l.a[1], ALLOW, (f & (OI | CI)) | IO,
				       WD, S_CO));
		} else {
			CHECK(l.n == 1 && t_ace_is(&l.a[0], ALLOW, OI | IO, WD,
						   S_CO));
		}
		if (test_state_.failed_here) {
			printf("# at parent flags 0x%x\n", f);
			break;
		}
	}
}

/*
 * smb2.acls.INHERITFLAGS: the child's ACE is INHERITED and its DACL
 * AUTO_INHERITED only when the parent's DACL is AUTO_INHERITED; the
 * parent's PROTECTED and AUTO_INHERIT_REQ and its ACE's INHERITED flag
 * do not carry over. Each of the 16 iterations is a distinct parent.
 */
TEST(inherit_flags_follow_parent_auto_inherited)
{
	struct tace p[2] = {
		T_ALLOW(OI | CI, WD | KSMBD_WRITE_DAC, S_ALICE),
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_WORLD),
	};
	struct ksmbd_sd *parent, sd;
	struct tsd t;
	struct tlist l;
	u16 pc, want_c;
	u8 want_f;
	int i;

	for (i = 0; i < 16; i++) {
		pc = 0;
		if (i & 1)
			pc |= KSMBD_SE_DACL_AUTO_INHERITED;
		if (i & 2)
			pc |= KSMBD_SE_DACL_AUTO_INHERIT_REQ;
		if (i & 4)
			pc |= KSMBD_SE_DACL_PROTECTED;
		p[0].flags = OI | CI | ((i & 8) ? ID : 0);
		parent = t_sd(&t, pc, S_ALICE, NULL, T_ACL, p, 2);
		want_c = KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT;
		want_f = 0;
		if (i & 1) {
			want_c |= KSMBD_SE_DACL_AUTO_INHERITED;
			want_f = ID;
		}
		CHECK(inherit(parent, NULL, false, &sd, &l) > 0);
		CHECK_EQ_INT(sd.control, want_c);
		CHECK(l.n == 1 && t_ace_is(&l.a[0], ALLOW, want_f,
					   WD | KSMBD_WRITE_DAC, S_ALICE));
		/* a directory keeps OI|CI on the same single ACE */
		CHECK(inherit(parent, NULL, true, &sd, &l) > 0);
		CHECK(l.n == 1 && t_ace_is(&l.a[0], ALLOW, want_f | OI | CI,
					   WD | KSMBD_WRITE_DAC, S_ALICE));
		CHECK_EQ_INT(sd.control, want_c);
		if (test_state_.failed_here) {
			printf("# at iteration %d\n", i);
			break;
		}
	}
}

/* CREATOR GROUP and generic bits: an effective mapped copy and, for a
 * directory, the original inherit-only. */
TEST(generic_and_creator_group_split)
{
	static const struct tace p[] = {
		T_ALLOW(CI | OI, KSMBD_GENERIC_READ, S_CG),
		T_ALLOW(OI | CI, KSMBD_GENERIC_ALL, S_BOB),
		T_DENY(OI, KSMBD_FILE_WRITE_DATA, S_DEVS),
	};
	struct ksmbd_sd *parent, sd;
	struct tsd t;
	struct tlist l;

	parent = t_sd(&t, KSMBD_SE_DACL_AUTO_INHERITED, S_BOB, NULL, T_ACL,
		      p, 3);
	CHECK(inherit(parent, NULL, true, &sd, &l) > 0);
	CHECK_EQ_INT(l.n, 5);
	CHECK(t_ace_is(&l.a[0], ALLOW, ID, KSMBD_FILE_GENERIC_READ, S_STAFF));
	CHECK(t_ace_is(&l.a[1], ALLOW, ID | CI | OI | IO, KSMBD_GENERIC_READ,
		       S_CG));
	CHECK(t_ace_is(&l.a[2], ALLOW, ID, KSMBD_FILE_ALL_ACCESS, S_BOB));
	CHECK(t_ace_is(&l.a[3], ALLOW, ID | OI | CI | IO, KSMBD_GENERIC_ALL,
		       S_BOB));
	CHECK(t_ace_is(&l.a[4], KSMBD_ACE_ACCESS_DENIED, ID | OI | IO,
		       KSMBD_FILE_WRITE_DATA, S_DEVS));
	CHECK(inherit(parent, NULL, false, &sd, &l) > 0);
	CHECK_EQ_INT(l.n, 3);
	CHECK(t_ace_is(&l.a[0], ALLOW, ID, KSMBD_FILE_GENERIC_READ, S_STAFF));
	CHECK(t_ace_is(&l.a[1], ALLOW, ID, KSMBD_FILE_ALL_ACCESS, S_BOB));
	CHECK(t_ace_is(&l.a[2], KSMBD_ACE_ACCESS_DENIED, ID,
		       KSMBD_FILE_WRITE_DATA, S_DEVS));
}

/* smb2.create.aclfile / acldir: the SecD context's DACL is the new
 * object's when the parent does not auto-inherit, as sent. */
TEST(creator_dacl_as_given)
{
	static const struct tace p[] = {
		T_ALLOW(OI | CI, KSMBD_FILE_ALL_ACCESS, S_WORLD),
	};
	static const struct tace c[] = {
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_ALICE),
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_SYSTEM),
		T_ALLOW(0, 0x001f0000, S_AUTH),
	};
	struct ksmbd_sd *parent, *creator, sd;
	struct tsd tp, tc;
	struct ksmbd_sid world, users;
	struct tlist l;
	u32 i;
	int dir;

	t_sid(S_WORLD, &world);
	t_sid("S-1-5-32-545", &users);
	parent = t_sd(&tp, 0, S_BOB, NULL, T_ACL, p, 1);
	creator = t_sd(&tc, 0, S_WORLD, "S-1-5-32-545", T_ACL, c, 3);
	for (dir = 0; dir < 2; dir++) {
		CHECK(inherit(parent, creator, dir, &sd, &l) > 0);
		CHECK_EQ_INT(l.n, 3);
		for (i = 0; i < 3; i++)
			CHECK(t_ace_is(&l.a[i], c[i].type, c[i].flags,
				       c[i].mask, c[i].sid));
		/* "creating with attributes, ACL and owner" */
		CHECK(ksmbd_sid_equal(&sd.owner, &world));
		CHECK(ksmbd_sid_equal(&sd.group, &users));
		CHECK(!(sd.control & KSMBD_SE_DACL_AUTO_INHERITED));
	}
}

/* Auto-inheriting parent: the creator's explicit ACEs, then the
 * parent's; a PROTECTED creator DACL stands alone. */
TEST(creator_dacl_with_auto_inherit)
{
	static const struct tace p[] = {
		T_ALLOW(OI | CI, KSMBD_FILE_GENERIC_READ, S_STAFF),
		T_ALLOW(OI, WD, S_CO),
	};
	static const struct tace c[] = {
		T_ALLOW(ID, KSMBD_FILE_ALL_ACCESS, S_DEVS),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, S_BOB),
		T_ALLOW(0, KSMBD_GENERIC_WRITE, S_CO),
	};
	struct ksmbd_sd *parent, *creator, sd;
	struct tsd tp, tc;
	struct tlist l;

	parent = t_sd(&tp, KSMBD_SE_DACL_AUTO_INHERITED, S_BOB, NULL, T_ACL,
		      p, 2);
	creator = t_sd(&tc, 0, NULL, NULL, T_ACL, c, 3);
	CHECK(inherit(parent, creator, false, &sd, &l) > 0);
	CHECK(sd.control & KSMBD_SE_DACL_AUTO_INHERITED);
	CHECK_EQ_INT(l.n, 4);
	CHECK(t_ace_is(&l.a[0], ALLOW, 0, KSMBD_FILE_EXECUTE, S_BOB));
	CHECK(t_ace_is(&l.a[1], ALLOW, 0, KSMBD_FILE_GENERIC_WRITE, S_ALICE));
	CHECK(t_ace_is(&l.a[2], ALLOW, ID, KSMBD_FILE_GENERIC_READ, S_STAFF));
	CHECK(t_ace_is(&l.a[3], ALLOW, ID, WD, S_ALICE));

	creator = t_sd(&tc, KSMBD_SE_DACL_PROTECTED, NULL, NULL, T_ACL, c, 3);
	CHECK(inherit(parent, creator, false, &sd, &l) > 0);
	CHECK_EQ_INT(sd.control & (KSMBD_SE_DACL_PROTECTED |
				   KSMBD_SE_DACL_AUTO_INHERITED),
		     KSMBD_SE_DACL_PROTECTED);
	CHECK_EQ_INT(l.n, 3);
	CHECK(t_ace_is(&l.a[0], ALLOW, ID, KSMBD_FILE_ALL_ACCESS, S_DEVS));
	CHECK(t_ace_is(&l.a[2], ALLOW, 0, KSMBD_FILE_GENERIC_WRITE, S_ALICE));
}

/*
 * The creator's own ACEs on a directory (emit_from_creator()): one with
 * CREATOR OWNER or generic bits and OI/CI becomes the effective ACE
 * (replaced, mapped, no inherit flags) plus the original inherit-only
 * for the children; one needing no change, or without OI/CI, stays one
 * ACE. A file takes each as one ACE.
 */
TEST(creator_aces_split_on_directory)
{
	static const struct tace c[] = {
		T_ALLOW(OI | CI, WD, S_CO),
		T_ALLOW(CI | NP, KSMBD_GENERIC_READ, S_BOB),
		T_ALLOW(OI | CI, KSMBD_FILE_EXECUTE, S_DEVS),
		T_ALLOW(0, KSMBD_GENERIC_ALL, S_SYSTEM),
	};
	struct ksmbd_sd *parent, *creator, sd;
	struct tsd tp, tc;
	struct tlist l;

	parent = t_sd(&tp, 0, S_BOB, NULL, T_ABSENT, NULL, 0);
	creator = t_sd(&tc, 0, NULL, NULL, T_ACL, c, 4);
	CHECK(inherit(parent, creator, true, &sd, &l) > 0);
	CHECK_EQ_INT(l.n, 6);
	CHECK(t_ace_is(&l.a[0], ALLOW, 0, WD, S_ALICE));
	CHECK(t_ace_is(&l.a[1], ALLOW, OI | CI | IO, WD, S_CO));
	CHECK(t_ace_is(&l.a[2], ALLOW, 0, KSMBD_FILE_GENERIC_READ, S_BOB));
	CHECK(t_ace_is(&l.a[3], ALLOW, CI | NP | IO, KSMBD_GENERIC_READ,
		       S_BOB));
	CHECK(t_ace_is(&l.a[4], ALLOW, OI | CI, KSMBD_FILE_EXECUTE, S_DEVS));
	CHECK(t_ace_is(&l.a[5], ALLOW, 0, KSMBD_FILE_ALL_ACCESS, S_SYSTEM));
	/* a file: no inherit-only copies */
	CHECK(inherit(parent, creator, false, &sd, &l) > 0);
	CHECK_EQ_INT(l.n, 4);
	CHECK(t_ace_is(&l.a[0], ALLOW, OI | CI, WD, S_ALICE));
	CHECK(t_ace_is(&l.a[1], ALLOW, CI | NP, KSMBD_FILE_GENERIC_READ,
		       S_BOB));
	CHECK(t_ace_is(&l.a[3], ALLOW, 0, KSMBD_FILE_ALL_ACCESS, S_SYSTEM));
}

/* smb2.create.nulldacl: an SD without DACL_PRESENT gets the inherited
 * (here: default) DACL; a NULL DACL stays NULL; a defaulted one yields
 * to the parent's inheritable ACEs. */
TEST(creator_without_or_null_dacl)
{
	static const struct tace p[] = {
		T_ALLOW(OI, KSMBD_FILE_GENERIC_READ, S_STAFF),
	};
	static const struct tace np[] = {
		T_ALLOW(OI | NP, KSMBD_FILE_GENERIC_READ, S_STAFF),
	};
	static const struct tace c[] = {
		T_ALLOW(0, KSMBD_FILE_EXECUTE, S_BOB),
	};
	struct ksmbd_sd *parent, *creator, sd;
	struct tsd tp, tc;
	struct tlist l;

	parent = t_sd(&tp, 0, S_BOB, NULL, T_ACL, NULL, 0);
	creator = t_sd(&tc, 0, NULL, NULL, T_ABSENT, NULL, 0);
	CHECK(inherit(parent, creator, false, &sd, &l) > 0);
	CHECK(sd.has_dacl && is_default(&l));

	creator = t_sd(&tc, 0, NULL, NULL, T_NULL, NULL, 0);
	CHECK(inherit(parent, creator, false, &sd, &l) > 0);
	CHECK(sd.has_dacl && sd.null_dacl);

	parent = t_sd(&tp, 0, S_BOB, NULL, T_ACL, p, 1);
	creator = t_sd(&tc, KSMBD_SE_DACL_DEFAULTED, NULL, NULL, T_ACL, c, 1);
	CHECK(inherit(parent, creator, false, &sd, &l) > 0);
	CHECK(l.n == 1 && t_ace_is(&l.a[0], ALLOW, 0, KSMBD_FILE_GENERIC_READ,
				   S_STAFF));
	/* ... and is used when the parent has nothing to give: an NP|OI
	 * ACE reaches files, not directories */
	parent = t_sd(&tp, 0, S_BOB, NULL, T_ACL, np, 1);
	CHECK(inherit(parent, creator, true, &sd, &l) > 0);
	CHECK(l.n == 1 && t_ace_is(&l.a[0], ALLOW, 0, KSMBD_FILE_EXECUTE,
				   S_BOB));
	CHECK(inherit(parent, creator, false, &sd, &l) > 0);
	CHECK(l.n == 1 && t_ace_is(&l.a[0], ALLOW, 0, KSMBD_FILE_GENERIC_READ,
				   S_STAFF));
}

/* Nothing to inherit and no default: -ENODATA, nothing written; a NULL
 * parent DACL passes nothing on. */
TEST(nothing_to_inherit)
{
	static const struct tace p[] = {
		T_ALLOW(CI, KSMBD_FILE_GENERIC_READ, S_STAFF),
	};
	struct ksmbd_sd *parent;
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct tsd tp;

	parent = t_sd(&tp, 0, S_BOB, NULL, T_ACL, p, 1);
	CHECK_EQ_INT(ksmbd_sd_inherit(&w, parent, NULL, &alice, &staff, NULL,
				      false), -ENODATA);
	CHECK_EQ_INT(w.len, 0);
	CHECK(ksmbd_sd_inherit(&w, parent, NULL, &alice, &staff, NULL,
			       true) > 0);
	CHECK(!ksmbd_acl_inheritable(&parent->dacl, 1, false));
	CHECK(ksmbd_acl_inheritable(&parent->dacl, 1, true));
	parent = t_sd(&tp, 0, S_BOB, NULL, T_NULL, NULL, 0);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK_EQ_INT(ksmbd_sd_inherit(&w, parent, NULL, &alice, &staff, NULL,
				      true), -ENODATA);
}

/* The SACL inherits by the same rules, its audit flags kept. */
TEST(sacl_inherited)
{
	static const struct tace s[] = {
		T_AUDIT(OI | KSMBD_ACE_FAILED_ACCESS, KSMBD_GENERIC_WRITE, S_CO),
		T_AUDIT(CI | KSMBD_ACE_SUCCESSFUL_ACCESS, KSMBD_DELETE, S_WORLD),
	};
	struct ksmbd_sd *parent, sd;
	struct tsd tp;
	struct tlist l;

	parent = t_sd_full(&tp, KSMBD_SE_SACL_AUTO_INHERITED, S_BOB, NULL,
			   T_ABSENT, NULL, 0, T_ACL, s, 2);
	CHECK(inherit(parent, NULL, false, &sd, &l) > 0);
	CHECK(is_default(&l));
	CHECK(sd.has_sacl && (sd.control & KSMBD_SE_SACL_AUTO_INHERITED));
	CHECK_EQ_INT(t_list(&sd.sacl, sd.sacl_ace_count, &l), 0);
	CHECK_EQ_INT(l.n, 1);
	CHECK(t_ace_is(&l.a[0], KSMBD_ACE_SYSTEM_AUDIT,
		       ID | KSMBD_ACE_FAILED_ACCESS, KSMBD_FILE_GENERIC_WRITE,
		       S_ALICE));
}

/* Bytes after the SID (a callback ACE's condition) survive the SID's
 * replacement. */
TEST(callback_tail_kept)
{
	static const struct tace p[] = {
		T_ALLOW(OI, WD, S_CO),
	};
	u8 buf[256];
	struct ksmbd_sd parent, sd;
	struct ksmbd_buf b;
	struct tsd tp;
	struct tlist l;
	u32 dacl;

	t_sd(&tp, 0, S_BOB, NULL, T_ACL, p, 1);
	/* append 8 condition bytes to the ACE, make it a callback allow */
	memcpy(buf, tp.b, tp.len);
	dacl = get_unaligned_le32(buf + 16);
	buf[dacl + 8] = KSMBD_ACE_ACCESS_ALLOWED_CALLBACK;
	put_unaligned_le16(20 + 8, buf + dacl + 8 + 2);
	put_unaligned_le16(8 + 28, buf + dacl + 2);
	memcpy(buf + dacl + 8 + 20, "artxcond", 8);
	b = ksmbd_buf_make(buf, tp.len + 8);
	CHECK_EQ_INT(ksmbd_sd_parse(&b, &parent), 0);
	CHECK(inherit(&parent, NULL, false, &sd, &l) > 0);
	CHECK_EQ_INT(l.n, 1);
	CHECK(t_ace_is(&l.a[0], KSMBD_ACE_ACCESS_ALLOWED_CALLBACK, 0, WD,
		       S_ALICE));
	CHECK_EQ_INT(l.a[0].size, 8 + 28 + 8);
	CHECK_EQ_MEM(sd.dacl.p + l.a[0].off + 36, "artxcond", 8);
}

/* The writer too small: overflow and the size; a directory doubling a
 * near-64K ACL: -ERANGE. */
TEST(sizes)
{
	static const struct tace p[] = {
		T_ALLOW(OI | CI, WD, S_CO),
	};
	struct ksmbd_sd *parent, big;
	struct ksmbd_wbuf w;
	struct ksmbd_buf b;
	struct ksmbd_ace ace;
	struct tsd tp;
	u8 *sd;
	u32 i, n = 1600, acl = 20, pos;
	u16 left;
	int need;

	parent = t_sd(&tp, 0, S_BOB, NULL, T_ACL, p, 1);
	w = ksmbd_wbuf_make(out, sizeof(out));
	need = ksmbd_sd_inherit(&w, parent, NULL, &alice, &staff, NULL, true);
	CHECK_EQ_INT(need, 20 + 28 + 28 + 8 + 36 + 20);
	w = ksmbd_wbuf_make(out, (u32)need - 1);
	CHECK_EQ_INT(ksmbd_sd_inherit(&w, parent, NULL, &alice, &staff, NULL,
				      true), need);
	CHECK(w.overflow);

	sd = calloc(1, 20 + 8 + 20 * n);
	sd[0] = 1;
	put_unaligned_le16(KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT,
			   sd + 2);
	put_unaligned_le32(acl, sd + 16);
	sd[acl] = 2;
	put_unaligned_le16((u16)(8 + 20 * n), sd + acl + 2);
	put_unaligned_le16((u16)n, sd + acl + 4);
	for (i = 0; i < n; i++) {
		u8 *a = sd + acl + 8 + 20 * i;

		a[1] = OI | CI;
		put_unaligned_le16(20, a + 2);
		put_unaligned_le32(WD, a + 4);
		t_put_sid(a + 8, S_CO);
	}
	b = ksmbd_buf_make(sd, 20 + 8 + 20 * n);
	CHECK_EQ_INT(ksmbd_sd_parse(&b, &big), 0);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK_EQ_INT(ksmbd_sd_inherit(&w, &big, NULL, &alice, &staff, NULL,
				      true), -ERANGE);
	/* a file gets one ACE each, CREATOR OWNER replaced: fits */
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK(ksmbd_sd_inherit(&w, &big, NULL, &alice, &staff, NULL,
			       false) > 0);
	free(sd);
	CHECK(!w.overflow);
	b = ksmbd_buf_make(out, w.len);
	CHECK_EQ_INT(ksmbd_sd_parse(&b, &big), 0);
	CHECK_EQ_INT(big.ace_count, n);
	CHECK_EQ_INT(big.dacl.len, 8 + (8 + 28) * n);
	pos = KSMBD_ACL_HDR_SIZE;
	left = big.ace_count;
	for (i = 0; ksmbd_acl_next(&big.dacl, &pos, &left, &ace) > 0; i++)
		if (!t_ace_is(&ace, ALLOW, 0, WD, S_ALICE))
			break;
	CHECK_EQ_INT(i, n);
	CHECK_EQ_INT(left, 0);
}

/* The built-in default DACL is the one the table above expects. */
TEST(default_dacl_bytes)
{
	u8 buf[256];
	struct ksmbd_wbuf w = ksmbd_wbuf_make(buf, sizeof(buf));

	CHECK_EQ_INT(ksmbd_acl_put_default(&w, &alice), def_dacl.len);
	CHECK(!w.overflow);
	CHECK_EQ_INT(w.len, def_dacl.len);
	CHECK_EQ_MEM(buf, def_dacl.p, def_dacl.len);
	w = ksmbd_wbuf_make(buf, 10);
	CHECK_EQ_INT(ksmbd_acl_put_default(&w, &alice), def_dacl.len);
	CHECK(w.overflow);
}

int main(void)
{
	setup();
	RUN(inheritance_table);
	RUN(inherit_flags_follow_parent_auto_inherited);
	RUN(generic_and_creator_group_split);
	RUN(creator_dacl_as_given);
	RUN(creator_dacl_with_auto_inherit);
	RUN(creator_aces_split_on_directory);
	RUN(creator_without_or_null_dacl);
	RUN(nothing_to_inherit);
	RUN(sacl_inherited);
	RUN(callback_tail_kept);
	RUN(sizes);
	RUN(default_dacl_bytes);
	return test_report();
}
