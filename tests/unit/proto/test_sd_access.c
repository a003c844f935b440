// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MS-DTYP 2.5.3.2 access check (proto/sd_access.c). Expectations from the
 * spec and from what smbtorture's smb2.acls, smb2.create.nulldacl and
 * smb2.maximum_allowed ask of a server (named per test).
 */
#include "testlib.h"
#include "sdtest.h"
#include "proto/ksmbd_errno.h"

#define STD_ALL		0x001f0000u
#define FILE_SPECIFIC	0x000001ffu

static int check(const struct ksmbd_sd *sd, const struct ksmbd_token *tok,
		 u32 desired, u32 *granted, int *ace)
{
	*granted = 0xdeadbeef;
	*ace = 77;
	return ksmbd_sd_access_check(sd, tok, desired, granted, ace);
}

TEST(generic_mapping_table)
{
	CHECK_EQ_INT(ksmbd_sd_map_generic(KSMBD_GENERIC_READ), 0x00120089);
	CHECK_EQ_INT(ksmbd_sd_map_generic(KSMBD_GENERIC_WRITE), 0x00120116);
	CHECK_EQ_INT(ksmbd_sd_map_generic(KSMBD_GENERIC_EXECUTE), 0x001200a0);
	CHECK_EQ_INT(ksmbd_sd_map_generic(KSMBD_GENERIC_ALL), 0x001f01ff);
	CHECK_EQ_INT(ksmbd_sd_map_generic(KSMBD_GENERIC_READ |
					  KSMBD_DELETE), 0x00130089);
	CHECK_EQ_INT(ksmbd_sd_map_generic(KSMBD_FILE_READ_DATA),
		     KSMBD_FILE_READ_DATA);
}

TEST(well_known_sids)
{
	struct ksmbd_sid s;

	t_sid(S_CO, &s);
	CHECK(ksmbd_sid_is(&s, KSMBD_WK_CREATOR_OWNER));
	CHECK(!ksmbd_sid_is(&s, KSMBD_WK_CREATOR_GROUP));
	t_sid("S-1-5-32-544", &s);
	CHECK(ksmbd_sid_is(&s, KSMBD_WK_ADMINISTRATORS));
	t_sid(S_OR, &s);
	CHECK(ksmbd_sid_is(&s, KSMBD_WK_OWNER_RIGHTS));
}

/* smb2.create.nulldacl: a NULL DACL lets everyone do anything. */
TEST(null_dacl_grants_everything)
{
	struct tsd t;
	struct ttok k;
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_NULL, NULL, 0);
	struct ksmbd_token *bob = t_tok(&k, 0, S_BOB, NULL, NULL);
	u32 g;
	int ace;

	CHECK(sd->null_dacl);
	CHECK_EQ_INT(check(sd, bob, KSMBD_FILE_WRITE_DATA, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_WRITE_DATA);
	CHECK_EQ_INT(check(sd, bob, KSMBD_GENERIC_READ, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ);
	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_ALL_ACCESS);
	CHECK_EQ_INT(ace, -1);
	/* no DACL at all reads the same (MS-DTYP: absent DACL) */
	sd = t_sd(&t, 0, S_ALICE, NULL, T_ABSENT, NULL, 0);
	CHECK_EQ_INT(check(sd, bob, KSMBD_DELETE, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_DELETE);
}

/* smb2.create.nulldacl, "set DACL with 0 aces": the owner keeps
 * READ_CONTROL (and WRITE_DAC), nobody gets anything else. */
TEST(empty_dacl_leaves_owner_implicit_rights)
{
	struct tsd t;
	struct ttok k1, k2;
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, NULL, 0);
	struct ksmbd_token *alice = t_tok(&k1, 0, S_ALICE, NULL, NULL);
	struct ksmbd_token *bob = t_tok(&k2, 0, S_BOB, NULL, NULL);
	u32 g;
	int ace;

	CHECK(sd->has_dacl && !sd->null_dacl && sd->ace_count == 0);
	CHECK_EQ_INT(check(sd, alice, KSMBD_READ_CONTROL, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_READ_CONTROL);
	CHECK_EQ_INT(check(sd, alice, KSMBD_WRITE_DAC, &g, &ace), 0);
	CHECK_EQ_INT(check(sd, alice, KSMBD_FILE_WRITE_DATA, &g, &ace),
		     -EACCES);
	CHECK_EQ_INT(g, 0);
	CHECK_EQ_INT(ace, -1);
	CHECK_EQ_INT(check(sd, alice, KSMBD_GENERIC_READ, &g, &ace), -EACCES);
	CHECK_EQ_INT(check(sd, alice, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_READ_CONTROL | KSMBD_WRITE_DAC);
	CHECK_EQ_INT(check(sd, bob, KSMBD_READ_CONTROL, &g, &ace), -EACCES);
	/* nothing at all granted: MAXIMUM_ALLOWED fails too */
	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED, &g, &ace), -EACCES);
	CHECK_EQ_INT(ace, -1);
}

/* smb2.acls.CREATOR: CREATOR OWNER in an effective ACE names nobody;
 * an ACE for the owner's own SID with GENERIC_READ grants FILE_READ. */
TEST(creator_owner_ace_matches_nobody)
{
	static const struct tace co[] = {
		T_ALLOW(0, KSMBD_FILE_GENERIC_READ | STD_ALL, S_CO),
	};
	static const struct tace own[] = {
		T_ALLOW(0, KSMBD_GENERIC_READ | STD_ALL, S_ALICE),
	};
	struct tsd t;
	struct ttok k;
	struct ksmbd_token *alice = t_tok(&k, 0, S_ALICE, NULL, NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, co, 1);
	u32 g;
	int ace;

	CHECK_EQ_INT(check(sd, alice, KSMBD_FILE_READ_DATA, &g, &ace), -EACCES);
	CHECK_EQ_INT(check(sd, alice, KSMBD_GENERIC_READ, &g, &ace), -EACCES);
	CHECK_EQ_INT(check(sd, alice, KSMBD_FILE_WRITE_DATA, &g, &ace),
		     -EACCES);
	sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, own, 1);
	CHECK_EQ_INT(check(sd, alice, KSMBD_FILE_READ_DATA, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_READ_DATA);
	CHECK_EQ_INT(check(sd, alice, KSMBD_GENERIC_READ, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ);
	CHECK_EQ_INT(check(sd, alice, KSMBD_GENERIC_WRITE, &g, &ace), -EACCES);
}

/* smb2.acls.OWNER: owner bits with one WRITE_DATA ACE, bit by bit. */
TEST(owner_bits_one_by_one)
{
	static const struct tace a[] = {
		T_ALLOW(0, KSMBD_FILE_WRITE_DATA, S_ALICE),
	};
	struct tsd t;
	struct ttok k;
	struct ksmbd_token *alice = t_tok(&k, 0, S_ALICE, NULL, NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, a, 1);
	u32 bit, g, ok = KSMBD_FILE_WRITE_DATA | KSMBD_READ_CONTROL |
			   KSMBD_WRITE_DAC;
	int i, ace;

	for (i = 0; i < 21; i++) {
		bit = 1u << i;
		if (ok & bit) {
			CHECK_EQ_INT(check(sd, alice, bit, &g, &ace), 0);
			CHECK_EQ_INT(g, bit);
		} else {
			CHECK_EQ_INT(check(sd, alice, bit, &g, &ace), -EACCES);
		}
	}
}

/* Deny before allow denies; allow before deny keeps the bit granted
 * (smb2.acls.DENY1, smb2.acls_non_canonical). deciding_ace names the
 * deny ACE. */
TEST(ace_order_decides)
{
	static const struct tace deny_first[] = {
		T_ALLOW(0, KSMBD_FILE_EXECUTE, S_BOB),
		T_DENY(0, KSMBD_FILE_READ_DATA, S_WORLD),
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_BOB),
	};
	static const struct tace allow_first[] = {
		T_ALLOW(0, KSMBD_FILE_GENERIC_READ | KSMBD_FILE_WRITE_DATA,
			S_ALICE),
		T_DENY(0, KSMBD_FILE_WRITE_DATA, S_ALICE),
	};
	struct tsd t;
	struct ttok k1, k2;
	struct ksmbd_token *bob = t_tok(&k1, 0, S_BOB, NULL, NULL);
	struct ksmbd_token *alice = t_tok(&k2, 0, S_ALICE, NULL, NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, deny_first, 3);
	u32 g;
	int ace;

	CHECK_EQ_INT(check(sd, bob, KSMBD_FILE_READ_DATA, &g, &ace), -EACCES);
	CHECK_EQ_INT(ace, 1);
	CHECK_EQ_INT(check(sd, bob, KSMBD_FILE_WRITE_DATA |
			   KSMBD_FILE_EXECUTE, &g, &ace), 0);
	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_ALL_ACCESS & ~KSMBD_FILE_READ_DATA);
	/* MAXIMUM_ALLOWED together with a denied bit: refused */
	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED |
			   KSMBD_FILE_READ_DATA, &g, &ace), -EACCES);
	CHECK_EQ_INT(ace, 1);

	sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, allow_first, 2);
	CHECK_EQ_INT(check(sd, alice, KSMBD_READ_CONTROL |
			   KSMBD_FILE_WRITE_DATA, &g, &ace), 0);
	CHECK_EQ_INT(check(sd, alice, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ | KSMBD_FILE_WRITE_DATA |
		     KSMBD_WRITE_DAC);
}

TEST(inherit_only_and_unrelated_aces_skipped)
{
	static const struct tace a[] = {
		T_DENY(KSMBD_ACE_INHERIT_ONLY | KSMBD_ACE_OBJECT_INHERIT,
		       KSMBD_FILE_READ_DATA, S_WORLD),
		T_ALLOW(KSMBD_ACE_INHERIT_ONLY, KSMBD_FILE_WRITE_DATA, S_BOB),
		T_ALLOW(0, KSMBD_FILE_WRITE_DATA, S_FOREIGN),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_STAFF),
	};
	struct tsd t;
	struct ttok k1, k2;
	struct ksmbd_token *bob = t_tok(&k1, 0, S_BOB, S_STAFF, NULL);
	struct ksmbd_token *bob2 = t_tok(&k2, 0, S_BOB, S_DEVS, NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, a, 4);
	u32 g;
	int ace;

	/* the group ACE grants; the inherit-only deny does not deny */
	CHECK_EQ_INT(check(sd, bob, KSMBD_FILE_READ_DATA, &g, &ace), 0);
	CHECK_EQ_INT(check(sd, bob, KSMBD_FILE_WRITE_DATA, &g, &ace), -EACCES);
	CHECK_EQ_INT(ace, -1);
	CHECK_EQ_INT(check(sd, bob2, KSMBD_FILE_READ_DATA, &g, &ace), -EACCES);
}

/* smb2.acls.OWNER-RIGHTS: an OWNER RIGHTS ACE replaces the implicit
 * READ_CONTROL|WRITE_DAC and adds to the owner's own ACEs. */
TEST(owner_rights_additive)
{
	static const struct tace a[] = {
		T_ALLOW(0, KSMBD_FILE_GENERIC_READ, S_ALICE),
		T_ALLOW(0, KSMBD_FILE_WRITE_DATA, S_OR),
	};
	struct tsd t;
	struct ttok k1, k2;
	struct ksmbd_token *alice = t_tok(&k1, 0, S_ALICE, NULL, NULL);
	struct ksmbd_token *bob = t_tok(&k2, 0, S_BOB, NULL, NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, a, 2);
	u32 g;
	int ace;

	CHECK_EQ_INT(check(sd, alice, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ | KSMBD_FILE_WRITE_DATA);
	CHECK_EQ_INT(check(sd, alice, KSMBD_WRITE_DAC, &g, &ace), -EACCES);
	/* not the owner: OWNER RIGHTS is nobody */
	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED, &g, &ace), -EACCES);
}

/* smb2.acls.OWNER-RIGHTS-DENY and -DENY1 */
TEST(owner_rights_deny)
{
	static const struct tace lead[] = {
		T_DENY(0, KSMBD_FILE_READ_DATA, S_OR),
		T_ALLOW(0, KSMBD_FILE_GENERIC_READ, S_ALICE),
	};
	static const struct tace trail[] = {
		T_ALLOW(0, KSMBD_FILE_GENERIC_READ, S_ALICE),
		T_ALLOW(0, KSMBD_FILE_WRITE_DATA, S_OR),
		T_DENY(0, KSMBD_FILE_WRITE_DATA | KSMBD_FILE_READ_DATA, S_OR),
	};
	struct tsd t;
	struct ttok k;
	struct ksmbd_token *alice = t_tok(&k, 0, S_ALICE, NULL, NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, lead, 2);
	u32 g;
	int ace;

	CHECK_EQ_INT(check(sd, alice, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ & ~KSMBD_FILE_READ_DATA);
	CHECK_EQ_INT(check(sd, alice, KSMBD_FILE_READ_DATA, &g, &ace), -EACCES);
	CHECK_EQ_INT(ace, 0);
	sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, trail, 3);
	CHECK_EQ_INT(check(sd, alice, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ | KSMBD_FILE_WRITE_DATA);
}

/*
 * An OWNER RIGHTS ACE the walk skips (a callback allow, which this check
 * never applies) does not take away the owner's implicit READ_CONTROL
 * and WRITE_DAC: only one that takes effect replaces them.
 */
TEST(owner_rights_skipped_ace_keeps_implicit)
{
	static const struct tace a[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_OR),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, S_ALICE),
	};
	struct tsd t;
	struct ttok k;
	struct ksmbd_token *alice = t_tok(&k, 0, S_ALICE, NULL, NULL);
	struct ksmbd_buf b;
	u32 off, g;
	int ace;

	t_sd(&t, 0, S_ALICE, NULL, T_ACL, a, 2);
	off = get_unaligned_le32(t.b + 16);
	t.b[off + 8] = KSMBD_ACE_ACCESS_ALLOWED_CALLBACK;
	b = ksmbd_buf_make(t.b, t.len);
	CHECK_EQ_INT(ksmbd_sd_parse(&b, &t.sd), 0);
	CHECK_EQ_INT(check(&t.sd, alice, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_EXECUTE | KSMBD_READ_CONTROL |
		     KSMBD_WRITE_DAC);
	/* the same ACE as a plain allow takes effect: its bits only */
	t_sd(&t, 0, S_ALICE, NULL, T_ACL, a, 2);
	CHECK_EQ_INT(check(&t.sd, alice, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_EXECUTE | KSMBD_FILE_READ_DATA);
}

/* smb2.maximum_allowed / MXAC-NOT-GRANTED: MAXIMUM_ALLOWED with a bit
 * not granted fails; generic bits in the ACE count mapped. */
TEST(maximum_allowed_with_other_bits)
{
	static const struct tace a[] = {
		T_ALLOW(0, KSMBD_GENERIC_READ, S_WORLD),
	};
	struct tsd t;
	struct ttok k;
	struct ksmbd_token *bob = t_tok(&k, 0, S_BOB, NULL, NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, a, 1);
	u32 g;
	int ace;

	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ);
	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED |
			   KSMBD_FILE_READ_DATA, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ);
	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED |
			   KSMBD_FILE_WRITE_DATA, &g, &ace), -EACCES);
	CHECK_EQ_INT(g, 0);
	CHECK_EQ_INT(ace, -1);
}

TEST(privileges)
{
	static const struct tace a[] = {
		T_DENY(0, KSMBD_WRITE_OWNER | KSMBD_FILE_WRITE_DATA, S_WORLD),
		T_ALLOW(0, KSMBD_FILE_GENERIC_READ, S_WORLD),
	};
	struct tsd t;
	struct ttok k1, k2, k3, k4;
	struct ksmbd_token *plain = t_tok(&k1, 0, S_BOB, NULL, NULL);
	struct ksmbd_token *sec = t_tok(&k2, KSMBD_PRIV_SECURITY, S_BOB, NULL,
					NULL);
	struct ksmbd_token *take = t_tok(&k3, KSMBD_PRIV_TAKE_OWNERSHIP, S_BOB,
					 NULL, NULL);
	struct ksmbd_token *rest = t_tok(&k4, KSMBD_PRIV_RESTORE, S_BOB, NULL,
					 NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, a, 2);
	u32 g;
	int ace;

	/* SACL access is a privilege, whatever the DACL (even NULL) says */
	CHECK_EQ_INT(check(sd, plain, KSMBD_ACCESS_SYSTEM_SECURITY, &g, &ace),
		     -KSMBD_EPRIV_NOT_HELD);
	CHECK_EQ_INT(check(sd, sec, KSMBD_ACCESS_SYSTEM_SECURITY |
			   KSMBD_FILE_READ_DATA, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_ACCESS_SYSTEM_SECURITY | KSMBD_FILE_READ_DATA);
	/* never part of MAXIMUM_ALLOWED unless asked */
	CHECK_EQ_INT(check(sd, sec, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ);
	/* take ownership beats the deny ACE; write data stays denied */
	CHECK_EQ_INT(check(sd, plain, KSMBD_WRITE_OWNER, &g, &ace), -EACCES);
	CHECK_EQ_INT(ace, 0);
	CHECK_EQ_INT(check(sd, take, KSMBD_WRITE_OWNER, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_WRITE_OWNER);
	CHECK_EQ_INT(check(sd, take, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_GENERIC_READ | KSMBD_WRITE_OWNER);
	CHECK_EQ_INT(check(sd, take, KSMBD_WRITE_OWNER | KSMBD_FILE_WRITE_DATA,
			   &g, &ace), -EACCES);
	CHECK_EQ_INT(g, 0);
	/* restore (a backup-intent open) writes */
	CHECK_EQ_INT(check(sd, rest, KSMBD_FILE_WRITE_DATA | KSMBD_DELETE |
			   KSMBD_WRITE_DAC, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_WRITE_DATA | KSMBD_DELETE |
		     KSMBD_WRITE_DAC);
	CHECK_EQ_INT(check(sd, rest, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, (KSMBD_FILE_GENERIC_READ | KSMBD_PRIV_RESTORE_ACCESS) &
		     ~KSMBD_ACCESS_SYSTEM_SECURITY);
	/* without the privilege the DACL's deny stands */
	CHECK_EQ_INT(check(sd, plain, KSMBD_FILE_WRITE_DATA, &g, &ace),
		     -EACCES);
	CHECK_EQ_INT(g, 0);
	sd = t_sd(&t, 0, S_ALICE, NULL, T_NULL, NULL, 0);
	CHECK_EQ_INT(check(sd, plain, KSMBD_ACCESS_SYSTEM_SECURITY, &g, &ace),
		     -KSMBD_EPRIV_NOT_HELD);
}

/* Object ACEs: without an ObjectType they act as plain ones, with one
 * they never apply to a file. Callback ACEs: deny applies, allow not. */
TEST(object_and_callback_aces)
{
	struct tsd t;
	struct ttok k;
	struct ksmbd_token *bob = t_tok(&k, 0, S_BOB, NULL, NULL);
	struct ksmbd_sd *sd;
	u8 *acl;
	u32 off, g;
	int ace;
	static const struct tace base[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_BOB),
		T_ALLOW(0, KSMBD_FILE_WRITE_DATA, S_BOB),
		T_ALLOW(0, KSMBD_FILE_EXECUTE, S_BOB),
	};

	sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, base, 3);
	/* ACE 0 becomes a callback deny (same layout), ACE 2 a callback
	 * allow: the SID stays at offset 8 for both */
	off = get_unaligned_le32(t.b + 16);
	acl = t.b + off;
	acl[8] = KSMBD_ACE_ACCESS_DENIED_CALLBACK;
	acl[8 + 2 * 36] = KSMBD_ACE_ACCESS_ALLOWED_CALLBACK;
	{
		struct ksmbd_buf b = ksmbd_buf_make(t.b, t.len);

		CHECK_EQ_INT(ksmbd_sd_parse(&b, &t.sd), 0);
	}
	sd = &t.sd;
	CHECK_EQ_INT(check(sd, bob, KSMBD_FILE_READ_DATA, &g, &ace), -EACCES);
	CHECK_EQ_INT(ace, 0);
	CHECK_EQ_INT(check(sd, bob, KSMBD_FILE_WRITE_DATA, &g, &ace), 0);
	CHECK_EQ_INT(check(sd, bob, KSMBD_FILE_EXECUTE, &g, &ace), -EACCES);
	CHECK_EQ_INT(ace, -1);
}

/* An object ACE built by hand: flags, optional GUIDs, then the SID. */
static u32 put_object_ace(u8 *p, u8 type, u32 mask, u32 obj_flags,
			  const char *sid)
{
	u32 len = 12;

	p[0] = type;
	p[1] = 0;
	put_unaligned_le32(mask, p + 4);
	put_unaligned_le32(obj_flags, p + 8);
	if (obj_flags & KSMBD_ACE_OBJECT_TYPE_PRESENT) {
		memset(p + len, 0xab, 16);
		len += 16;
	}
	if (obj_flags & KSMBD_ACE_INHERITED_OBJECT_TYPE_PRESENT) {
		memset(p + len, 0xcd, 16);
		len += 16;
	}
	len += t_put_sid(p + len, sid);
	put_unaligned_le16((u16)len, p + 2);
	return len;
}

TEST(object_aces_walked_and_applied)
{
	struct ttok k;
	struct ksmbd_token *bob = t_tok(&k, 0, S_BOB, NULL, NULL);
	struct ksmbd_sd sd;
	struct ksmbd_buf b;
	u8 buf[512] = { 1, 0 };
	u32 off = 20, acl, len = 8, g;
	int ace;

	put_unaligned_le16(KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT,
			   buf + 2);
	put_unaligned_le32(off, buf + 4);
	off += t_put_sid(buf + off, S_ALICE);
	acl = off;
	len += put_object_ace(buf + acl + len, KSMBD_ACE_ACCESS_DENIED_OBJECT,
			      KSMBD_FILE_READ_DATA,
			      KSMBD_ACE_OBJECT_TYPE_PRESENT, S_BOB);
	len += put_object_ace(buf + acl + len, KSMBD_ACE_ACCESS_ALLOWED_OBJECT,
			      KSMBD_FILE_READ_DATA | KSMBD_FILE_WRITE_DATA,
			      KSMBD_ACE_INHERITED_OBJECT_TYPE_PRESENT, S_BOB);
	len += put_object_ace(buf + acl + len, KSMBD_ACE_ACCESS_ALLOWED_OBJECT,
			      KSMBD_FILE_EXECUTE, KSMBD_ACE_OBJECT_TYPE_PRESENT |
			      KSMBD_ACE_INHERITED_OBJECT_TYPE_PRESENT, S_BOB);
	buf[acl] = 4;
	put_unaligned_le16((u16)len, buf + acl + 2);
	put_unaligned_le16(3, buf + acl + 4);
	put_unaligned_le32(acl, buf + 16);
	b = ksmbd_buf_make(buf, acl + len);
	CHECK_EQ_INT(ksmbd_sd_parse(&b, &sd), 0);
	/* the typed deny does not apply; the untyped allow does */
	CHECK_EQ_INT(check(&sd, bob, KSMBD_FILE_READ_DATA |
			   KSMBD_FILE_WRITE_DATA, &g, &ace), 0);
	CHECK_EQ_INT(check(&sd, bob, KSMBD_FILE_EXECUTE, &g, &ace), -EACCES);
	/* an object ACE whose flags claim a GUID the ACE has no room for */
	put_unaligned_le32(3, buf + acl + 8 + 8);
	put_unaligned_le16(12 + 12, buf + acl + 8 + 2);
	CHECK_EQ_INT(ksmbd_sd_parse(&b, &sd), -EINVAL);
}

/* Found by fuzz_sd: an ACE naming ACCESS_SYSTEM_SECURITY, MAXIMUM_ALLOWED
 * or reserved bits grants none of them ("not valid in a DACL"). */
TEST(ace_grants_only_rights)
{
	static const struct tace a[] = {
		T_ALLOW(0, 0x1f1f01ffu, S_WORLD),
	};
	struct tsd t;
	struct ttok k;
	struct ksmbd_token *bob = t_tok(&k, 0, S_BOB, NULL, NULL);
	struct ksmbd_sd *sd = t_sd(&t, 0, S_ALICE, NULL, T_ACL, a, 1);
	u32 g;
	int ace;

	CHECK_EQ_INT(check(sd, bob, KSMBD_MAXIMUM_ALLOWED, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_ALL_ACCESS);
	CHECK_EQ_INT(check(sd, bob, 0x04000000, &g, &ace), -EACCES);
}

/* smb2.acls.GENERIC (MAXIMUM_ALLOWED expected_mask) and MS-FSA
 * 2.1.5.1.2.1: DELETE through the parent's FILE_DELETE_CHILD,
 * READ_ATTRIBUTES through its FILE_LIST_DIRECTORY, even against a deny
 * ACE on the file. */
TEST(open_with_parent_grants)
{
	static const struct tace pd[] = {
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_ALICE),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_BOB),
	};
	static const struct tace fd[] = {
		T_DENY(0, KSMBD_DELETE, S_ALICE),
		T_ALLOW(0, 0, S_ALICE),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_BOB),
	};
	struct tsd tp, tf;
	struct ttok k1, k2, k3;
	struct ksmbd_token *alice = t_tok(&k1, 0, S_ALICE, NULL, NULL);
	struct ksmbd_token *bob = t_tok(&k2, 0, S_BOB, NULL, NULL);
	struct ksmbd_token *eve = t_tok(&k3, 0, S_FOREIGN, NULL, NULL);
	struct ksmbd_sd *parent = t_sd(&tp, 0, S_ALICE, NULL, T_ACL, pd, 2);
	struct ksmbd_sd *file = t_sd(&tf, 0, S_ALICE, NULL, T_ACL, fd, 3);
	u32 g;
	int ace;

	CHECK_EQ_INT(ksmbd_sd_access_check_open(file, parent, alice,
						KSMBD_MAXIMUM_ALLOWED, &g,
						&ace), 0);
	CHECK_EQ_INT(g, KSMBD_READ_CONTROL | KSMBD_WRITE_DAC | KSMBD_DELETE |
		     KSMBD_FILE_READ_ATTRIBUTES);
	CHECK_EQ_INT(ksmbd_sd_access_check_open(file, parent, alice,
						KSMBD_DELETE, &g, &ace), 0);
	CHECK_EQ_INT(g, KSMBD_DELETE);
	CHECK_EQ_INT(ksmbd_sd_access_check(file, alice, KSMBD_DELETE, &g,
					   &ace), -EACCES);
	CHECK_EQ_INT(ace, 0);
	/* at the share root there is no parent to ask */
	CHECK_EQ_INT(ksmbd_sd_access_check_open(file, NULL, alice,
						KSMBD_DELETE, &g, &ace),
		     -EACCES);
	/* bob may list the parent: READ_ATTRIBUTES, not DELETE */
	CHECK_EQ_INT(ksmbd_sd_access_check_open(file, parent, bob,
						KSMBD_MAXIMUM_ALLOWED, &g,
						&ace), 0);
	CHECK_EQ_INT(g, KSMBD_FILE_READ_DATA | KSMBD_FILE_READ_ATTRIBUTES);
	CHECK_EQ_INT(ksmbd_sd_access_check_open(file, parent, bob,
						KSMBD_DELETE, &g, &ace),
		     -EACCES);
	/* a stranger gets nothing from either */
	CHECK_EQ_INT(ksmbd_sd_access_check_open(file, parent, eve,
						KSMBD_MAXIMUM_ALLOWED, &g,
						&ace), -EACCES);
	CHECK_EQ_INT(g, 0);
}

int main(void)
{
	RUN(generic_mapping_table);
	RUN(well_known_sids);
	RUN(null_dacl_grants_everything);
	RUN(empty_dacl_leaves_owner_implicit_rights);
	RUN(creator_owner_ace_matches_nobody);
	RUN(owner_bits_one_by_one);
	RUN(ace_order_decides);
	RUN(inherit_only_and_unrelated_aces_skipped);
	RUN(owner_rights_additive);
	RUN(owner_rights_deny);
	RUN(owner_rights_skipped_ace_keeps_implicit);
	RUN(maximum_allowed_with_other_bits);
	RUN(privileges);
	RUN(object_and_callback_aces);
	RUN(object_aces_walked_and_applied);
	RUN(ace_grants_only_rights);
	RUN(open_with_parent_grants);
	return test_report();
}
