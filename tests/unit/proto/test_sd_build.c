// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Canonical descriptor encoding and SET_INFO(security)'s merge
 * (proto/sd_build.c). Merge expectations from smbtorture smb2.acls
 * (CREATOR, GENERIC, INHERITFLAGS), smb2.create.nulldacl and MS-SMB2
 * 3.3.5.21.3.
 */
#include "testlib.h"
#include "sdtest.h"
#include "proto/sd_build.h"

static u8 out[16384];

/* Encode with f, parse the result into *sd; the size returned or < 0. */
static int reparse(int size, struct ksmbd_wbuf *w, struct ksmbd_sd *sd)
{
	struct ksmbd_buf b;

	if (size < 0 || w->overflow || (u32)size != w->len)
		return -1;
	b = ksmbd_buf_make(w->p, w->len);
	return ksmbd_sd_parse(&b, sd) ? -2 : size;
}

TEST(canonical_layout)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_GENERIC_READ, S_WORLD),
		T_DENY(0, KSMBD_FILE_WRITE_DATA, S_BOB),
	};
	static const struct tace s[] = {
		T_AUDIT(KSMBD_ACE_FAILED_ACCESS, KSMBD_DELETE, S_WORLD),
	};
	struct tsd t;
	struct ksmbd_sd *in = t_sd_full(&t, KSMBD_SE_DACL_PROTECTED, S_ALICE,
					S_STAFF, T_ACL, d, 2, T_ACL, s, 1);
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_sd sd;
	struct tlist l;
	u32 sid_alice = 28, sid_staff = 28, sacl = 8 + 20, dacl = 8 + 20 + 36;
	int n;

	n = reparse(ksmbd_sd_write(&w, in), &w, &sd);
	CHECK_EQ_INT(n, (int)(20 + sid_alice + sid_staff + sacl + dacl));
	/* header, owner, group, SACL, DACL, back to back */
	CHECK_EQ_INT(get_unaligned_le32(out + 4), 20);
	CHECK_EQ_INT(get_unaligned_le32(out + 8), 20 + sid_alice);
	CHECK_EQ_INT(get_unaligned_le32(out + 12), 20 + sid_alice + sid_staff);
	CHECK_EQ_INT(get_unaligned_le32(out + 16),
		     20 + sid_alice + sid_staff + sacl);
	CHECK_EQ_INT(sd.control, KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT |
		     KSMBD_SE_SACL_PRESENT | KSMBD_SE_DACL_PROTECTED);
	CHECK(ksmbd_sid_equal(&sd.owner, &in->owner));
	CHECK(ksmbd_sid_equal(&sd.group, &in->group));
	CHECK_EQ_INT(t_list(&sd.dacl, sd.ace_count, &l), 0);
	CHECK_EQ_INT(l.n, 2);
	CHECK(t_ace_is(&l.a[0], KSMBD_ACE_ACCESS_ALLOWED, 0,
		       KSMBD_FILE_GENERIC_READ, S_WORLD));
	CHECK(t_ace_is(&l.a[1], KSMBD_ACE_ACCESS_DENIED, 0,
		       KSMBD_FILE_WRITE_DATA, S_BOB));
	CHECK_EQ_INT(t_list(&sd.sacl, sd.sacl_ace_count, &l), 0);
	CHECK_EQ_INT(l.n, 1);
	CHECK(t_ace_is(&l.a[0], KSMBD_ACE_SYSTEM_AUDIT,
		       KSMBD_ACE_FAILED_ACCESS, KSMBD_DELETE, S_WORLD));
}

/* Slack after the last ACE goes; AclSize is recomputed. */
TEST(acl_slack_dropped)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_WORLD),
	};
	struct tsd t;
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_buf b;
	struct ksmbd_sd sd;
	u32 dacl;

	t_sd(&t, 0, S_ALICE, NULL, T_ACL, d, 1);
	dacl = get_unaligned_le32(t.b + 16);
	put_unaligned_le16(8 + 20 + 12, t.b + dacl + 2);
	t.len += 12;
	b = ksmbd_buf_make(t.b, t.len);
	CHECK_EQ_INT(ksmbd_sd_parse(&b, &t.sd), 0);
	CHECK_EQ_INT(t.sd.dacl.len, 40);
	CHECK_EQ_INT(reparse(ksmbd_sd_write(&w, &t.sd), &w, &sd),
		     20 + 28 + 28);
	CHECK_EQ_INT(sd.dacl.len, 28);
	CHECK_EQ_INT(sd.ace_count, 1);
}

TEST(null_and_absent_parts)
{
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_sid alice;
	struct ksmbd_sd sd;

	t_sid(S_ALICE, &alice);
	CHECK_EQ_INT(reparse(ksmbd_sd_build(&w, KSMBD_SE_DACL_PRESENT, &alice,
					    NULL, NULL, NULL), &w, &sd), 48);
	CHECK(sd.has_dacl && sd.null_dacl && sd.has_owner && !sd.has_group);
	CHECK_EQ_INT(get_unaligned_le32(out + 16), 0);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK_EQ_INT(reparse(ksmbd_sd_build(&w, 0, NULL, NULL, NULL, NULL),
			     &w, &sd), 20);
	CHECK(!sd.has_dacl && !sd.has_owner && !sd.has_sacl);
	CHECK_EQ_INT(sd.control, KSMBD_SE_SELF_RELATIVE);
}

/* Too small a writer: overflow, nothing usable, the size still told
 * (QUERY_INFO's BUFFER_TOO_SMALL answer). */
TEST(too_small_reports_size)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_WORLD),
	};
	struct tsd t;
	struct ksmbd_sd *in = t_sd(&t, 0, S_ALICE, S_STAFF, T_ACL, d, 1);
	struct ksmbd_wbuf w;
	u32 cap;
	int need;

	w = ksmbd_wbuf_make(out, sizeof(out));
	need = ksmbd_sd_write(&w, in);
	CHECK_EQ_INT(need, 20 + 28 + 28 + 28);
	for (cap = 0; cap < (u32)need; cap += 7) {
		w = ksmbd_wbuf_make(out, cap);
		CHECK_EQ_INT(ksmbd_sd_write(&w, in), need);
		CHECK(w.overflow);
	}
}

/* smb2.acls.CREATOR / GENERIC: DACL from the client, generic bits
 * mapped in effective ACEs (not in inherit-only ones), owner and group
 * kept from what was stored. */
TEST(merge_dacl_maps_generic)
{
	static const struct tace stored_d[] = {
		T_ALLOW(0, KSMBD_FILE_ALL_ACCESS, S_ALICE),
	};
	static const struct tace given_d[] = {
		T_ALLOW(0, KSMBD_GENERIC_READ | 0x001f0000, S_ALICE),
		T_ALLOW(KSMBD_ACE_INHERIT_ONLY | KSMBD_ACE_OBJECT_INHERIT,
			KSMBD_GENERIC_ALL, S_CO),
		T_DENY(0, KSMBD_GENERIC_WRITE, S_BOB),
	};
	struct tsd ts, tg;
	struct ksmbd_sd *stored = t_sd(&ts, 0, S_ALICE, S_STAFF, T_ACL,
				       stored_d, 1);
	struct ksmbd_sd *given = t_sd(&tg, 0, NULL, NULL, T_ACL, given_d, 3);
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_sd sd;
	struct tlist l;

	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_DACL_SECINFO),
		      &w, &sd) > 0);
	CHECK(ksmbd_sid_equal(&sd.owner, &stored->owner));
	CHECK(ksmbd_sid_equal(&sd.group, &stored->group));
	CHECK_EQ_INT(t_list(&sd.dacl, sd.ace_count, &l), 0);
	CHECK_EQ_INT(l.n, 3);
	CHECK(t_ace_is(&l.a[0], KSMBD_ACE_ACCESS_ALLOWED, 0,
		       KSMBD_FILE_GENERIC_READ | 0x001f0000, S_ALICE));
	CHECK(t_ace_is(&l.a[1], KSMBD_ACE_ACCESS_ALLOWED,
		       KSMBD_ACE_INHERIT_ONLY | KSMBD_ACE_OBJECT_INHERIT,
		       KSMBD_GENERIC_ALL, S_CO));
	CHECK(t_ace_is(&l.a[2], KSMBD_ACE_ACCESS_DENIED, 0,
		       KSMBD_FILE_GENERIC_WRITE, S_BOB));
}

/*
 * Only the ACLs secinfo names come from the client and get their generic
 * bits mapped; a stored DACL or SACL that stays is written as it was.
 */
TEST(merge_keeps_unnamed_acls)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_GENERIC_READ, S_ALICE),
		T_ALLOW(0, KSMBD_GENERIC_ALL, S_SYSTEM),
	};
	static const struct tace s[] = {
		T_AUDIT(KSMBD_ACE_FAILED_ACCESS, KSMBD_GENERIC_WRITE, S_WORLD),
	};
	struct tsd ts, tg;
	struct ksmbd_sd *stored = t_sd_full(&ts, 0, S_ALICE, S_STAFF, T_ACL,
					    d, 2, T_ACL, s, 1);
	struct ksmbd_sd *given = t_sd(&tg, 0, S_BOB, NULL, T_ABSENT, NULL, 0);
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_sd sd;
	struct ksmbd_sid bob;

	t_sid(S_BOB, &bob);
	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_OWNER_SECINFO),
		      &w, &sd) > 0);
	CHECK(ksmbd_sid_equal(&sd.owner, &bob));
	CHECK_EQ_INT(sd.dacl.len, stored->dacl.len);
	CHECK(!memcmp(sd.dacl.p, stored->dacl.p, stored->dacl.len));
	CHECK_EQ_INT(sd.sacl.len, stored->sacl.len);
	CHECK(!memcmp(sd.sacl.p, stored->sacl.p, stored->sacl.len));
	/* the DACL named: it is mapped, the stored SACL still is not */
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK(reparse(ksmbd_sd_merge(&w, stored, stored, KSMBD_DACL_SECINFO),
		      &w, &sd) > 0);
	CHECK_EQ_INT(get_unaligned_le32(sd.dacl.p + 8 + 4),
		     KSMBD_FILE_GENERIC_READ);
	CHECK(!memcmp(sd.sacl.p, stored->sacl.p, stored->sacl.len));
}

/* smb2.acls.INHERITFLAGS: DR never stored, DI only with DR, DP kept;
 * the ACEs' INHERITED flag as given. */
TEST(merge_control_bits)
{
	static const struct tace d[] = {
		T_ALLOW(KSMBD_ACE_INHERITED, KSMBD_FILE_READ_DATA, S_ALICE),
	};
	struct tsd ts, tg;
	struct ksmbd_sd *stored = t_sd(&ts, KSMBD_SE_DACL_AUTO_INHERITED,
				       S_ALICE, NULL, T_ACL, d, 1);
	struct ksmbd_wbuf w;
	struct ksmbd_sd *given, sd;
	struct tlist l;
	u16 c, want;
	int i;

	for (i = 0; i < 8; i++) {
		c = 0;
		if (i & 1)
			c |= KSMBD_SE_DACL_AUTO_INHERITED;
		if (i & 2)
			c |= KSMBD_SE_DACL_AUTO_INHERIT_REQ;
		if (i & 4)
			c |= KSMBD_SE_DACL_PROTECTED;
		want = KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT |
		       (c & KSMBD_SE_DACL_PROTECTED);
		if ((i & 3) == 3)
			want |= KSMBD_SE_DACL_AUTO_INHERITED;
		given = t_sd(&tg, c, NULL, NULL, T_ACL, d, 1);
		w = ksmbd_wbuf_make(out, sizeof(out));
		CHECK(reparse(ksmbd_sd_merge(&w, stored, given,
					     KSMBD_DACL_SECINFO), &w, &sd) > 0);
		CHECK_EQ_INT(sd.control, want);
		CHECK_EQ_INT(t_list(&sd.dacl, sd.ace_count, &l), 0);
		CHECK_EQ_INT(l.a[0].flags, KSMBD_ACE_INHERITED);
	}
	/* PROTECTED_DACL_SECURITY_INFORMATION protects whatever was sent */
	given = t_sd(&tg, 0, NULL, NULL, T_ACL, d, 1);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_DACL_SECINFO |
				     KSMBD_PROTECTED_DACL_SECINFO), &w,
		      &sd) > 0);
	CHECK(sd.control & KSMBD_SE_DACL_PROTECTED);
	given = t_sd(&tg, KSMBD_SE_DACL_PROTECTED, NULL, NULL, T_ACL, d, 1);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_DACL_SECINFO |
				     KSMBD_UNPROTECTED_DACL_SECINFO), &w,
		      &sd) > 0);
	CHECK(!(sd.control & KSMBD_SE_DACL_PROTECTED));
}

/* smb2.create.nulldacl: "set NULL DACL" stores DACL_PRESENT without an
 * ACL; so does a DACL_SECINFO without DACL_PRESENT ("set empty sd"). */
TEST(merge_null_and_missing_dacl)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_ALICE),
	};
	struct tsd ts, tg;
	struct ksmbd_sd *stored = t_sd(&ts, 0, S_ALICE, S_STAFF, T_ACL, d, 1);
	struct ksmbd_sd *given = t_sd(&tg, 0, NULL, NULL, T_NULL, NULL, 0);
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_sd sd;

	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_DACL_SECINFO),
		      &w, &sd) > 0);
	CHECK(sd.has_dacl && sd.null_dacl);
	CHECK(sd.has_owner && sd.has_group);
	given = t_sd(&tg, 0, NULL, NULL, T_ABSENT, NULL, 0);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_DACL_SECINFO),
		      &w, &sd) > 0);
	CHECK(sd.has_dacl && sd.null_dacl);
	/* and an empty one stays empty, not NULL */
	given = t_sd(&tg, 0, NULL, NULL, T_ACL, NULL, 0);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_DACL_SECINFO),
		      &w, &sd) > 0);
	CHECK(sd.has_dacl && !sd.null_dacl && sd.ace_count == 0);
}

TEST(merge_owner_group_sacl)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_ALICE),
	};
	static const struct tace s[] = {
		T_AUDIT(KSMBD_ACE_SUCCESSFUL_ACCESS, KSMBD_GENERIC_WRITE, S_BOB),
	};
	struct tsd ts, tg;
	struct ksmbd_sd *stored = t_sd(&ts, 0, S_ALICE, S_STAFF, T_ACL, d, 1);
	struct ksmbd_sd *given = t_sd_full(&tg, 0, S_BOB, NULL, T_ABSENT, NULL,
					   0, T_ACL, s, 1);
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_sd sd;
	struct ksmbd_sid bob;
	struct tlist l;

	t_sid(S_BOB, &bob);
	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_OWNER_SECINFO |
				     KSMBD_SACL_SECINFO), &w, &sd) > 0);
	CHECK(ksmbd_sid_equal(&sd.owner, &bob));
	CHECK(ksmbd_sid_equal(&sd.group, &stored->group));
	CHECK(sd.has_dacl && sd.ace_count == 1);
	CHECK(sd.has_sacl);
	CHECK_EQ_INT(t_list(&sd.sacl, sd.sacl_ace_count, &l), 0);
	CHECK(t_ace_is(&l.a[0], KSMBD_ACE_SYSTEM_AUDIT,
		       KSMBD_ACE_SUCCESSFUL_ACCESS, KSMBD_FILE_GENERIC_WRITE,
		       S_BOB));
	/* a group named but not given stays (Samba's set_sd, W2K3) */
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_GROUP_SECINFO),
		      &w, &sd) > 0);
	CHECK(ksmbd_sid_equal(&sd.group, &stored->group));
	CHECK_EQ_INT(ksmbd_sd_sent(given, KSMBD_GROUP_SECINFO), 0);
	CHECK_EQ_INT(ksmbd_sd_sent(given, KSMBD_OWNER_SECINFO |
				   KSMBD_GROUP_SECINFO | KSMBD_DACL_SECINFO |
				   KSMBD_LABEL_SECINFO),
		     KSMBD_OWNER_SECINFO | KSMBD_DACL_SECINFO);
	/* nothing named: the stored descriptor, canonical */
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_LABEL_SECINFO),
		      &w, &sd) > 0);
	CHECK(ksmbd_sid_equal(&sd.owner, &stored->owner));
	CHECK(!sd.has_sacl && sd.ace_count == 1);
}

/* An allow after a deny, a deny after an allow: kept as sent. */
TEST(merge_keeps_non_canonical_order)
{
	static const struct tace d[] = {
		T_ALLOW(KSMBD_ACE_OBJECT_INHERIT | KSMBD_ACE_CONTAINER_INHERIT,
			KSMBD_FILE_ALL_ACCESS, S_WORLD),
		T_DENY(KSMBD_ACE_OBJECT_INHERIT | KSMBD_ACE_CONTAINER_INHERIT,
		       KSMBD_FILE_ALL_ACCESS, S_WORLD),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_BOB),
	};
	struct tsd ts, tg;
	struct ksmbd_sd *stored = t_sd(&ts, 0, S_ALICE, NULL, T_ACL, NULL, 0);
	struct ksmbd_sd *given = t_sd(&tg, 0, NULL, NULL, T_ACL, d, 3);
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_sd sd;
	struct tlist l;
	int i;

	CHECK(reparse(ksmbd_sd_merge(&w, stored, given, KSMBD_DACL_SECINFO),
		      &w, &sd) > 0);
	CHECK_EQ_INT(t_list(&sd.dacl, sd.ace_count, &l), 0);
	CHECK_EQ_INT(l.n, 3);
	for (i = 0; i < 3; i++)
		CHECK(t_ace_is(&l.a[i], d[i].type, d[i].flags, d[i].mask,
			       d[i].sid));
}

/* Object ACEs, their GUIDs and unknown types go through byte for byte. */
TEST(opaque_aces_copied)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_WORLD),
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_WORLD),
	};
	struct tsd t;
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_buf b;
	struct ksmbd_sd sd;
	u32 dacl;

	t_sd(&t, 0, S_ALICE, NULL, T_ACL, d, 2);
	dacl = get_unaligned_le32(t.b + 16);
	/* the second ACE becomes a type nobody knows, with content */
	t.b[dacl + 8 + 20] = 0x7f;
	memset(t.b + dacl + 8 + 20 + 4, 0x5a, 16);
	b = ksmbd_buf_make(t.b, t.len);
	CHECK_EQ_INT(ksmbd_sd_parse(&b, &t.sd), 0);
	CHECK(reparse(ksmbd_sd_write(&w, &t.sd), &w, &sd) > 0);
	CHECK_EQ_INT(sd.dacl.len, 48);
	CHECK_EQ_MEM(sd.dacl.p + 8, t.b + dacl + 8, 40);
}

/* QUERY_INFO's AdditionalInformation: only the parts asked for. */
TEST(write_parts)
{
	static const struct tace d[] = {
		T_ALLOW(0, KSMBD_FILE_READ_DATA, S_WORLD),
	};
	static const struct tace s[] = {
		T_AUDIT(KSMBD_ACE_FAILED_ACCESS, KSMBD_DELETE, S_WORLD),
	};
	struct tsd t;
	struct ksmbd_sd *in = t_sd_full(&t, KSMBD_SE_DACL_PROTECTED, S_ALICE,
					S_STAFF, T_ACL, d, 1, T_ACL, s, 1);
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, sizeof(out));
	struct ksmbd_sd sd;

	CHECK_EQ_INT(reparse(ksmbd_sd_write_parts(&w, in, KSMBD_DACL_SECINFO |
						  KSMBD_OWNER_SECINFO),
			     &w, &sd), 20 + 28 + 28);
	CHECK(sd.has_owner && !sd.has_group && sd.has_dacl && !sd.has_sacl);
	CHECK_EQ_INT(sd.control, KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT |
		     KSMBD_SE_DACL_PROTECTED);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK_EQ_INT(reparse(ksmbd_sd_write_parts(&w, in, KSMBD_GROUP_SECINFO |
						  KSMBD_SACL_SECINFO),
			     &w, &sd), 20 + 28 + 28);
	CHECK(!sd.has_owner && sd.has_group && !sd.has_dacl && sd.has_sacl);
	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK_EQ_INT(reparse(ksmbd_sd_write_parts(&w, in, 0), &w, &sd), 20);
}

int main(void)
{
	RUN(canonical_layout);
	RUN(acl_slack_dropped);
	RUN(null_and_absent_parts);
	RUN(too_small_reports_size);
	RUN(merge_dacl_maps_generic);
	RUN(merge_keeps_unnamed_acls);
	RUN(merge_control_bits);
	RUN(merge_null_and_missing_dacl);
	RUN(merge_owner_group_sacl);
	RUN(merge_keeps_non_canonical_order);
	RUN(opaque_aces_copied);
	RUN(write_parts);
	return test_report();
}
