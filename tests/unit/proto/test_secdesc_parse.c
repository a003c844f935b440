// SPDX-License-Identifier: GPL-2.0-or-later
#include "testlib.h"
#include "proto/secdesc_parse.h"

/* A little builder for hand-made descriptors. */
struct sdb {
	u8 b[512];
	u32 len;
};

static u32 put_sid(struct sdb *s, u8 auth, u32 n, const u32 *subs)
{
	u32 at = s->len, i;

	s->b[s->len++] = 1;
	s->b[s->len++] = (u8)n;
	memset(s->b + s->len, 0, 6);
	s->b[s->len + 5] = auth;
	s->len += 6;
	for (i = 0; i < n; i++, s->len += 4)
		put_unaligned_le32(subs[i], s->b + s->len);
	return at;
}

static void put_hdr(struct sdb *s, u16 control, u32 owner, u32 group, u32 dacl)
{
	s->b[0] = 1;
	s->b[1] = 0;
	put_unaligned_le16(control, s->b + 2);
	put_unaligned_le32(owner, s->b + 4);
	put_unaligned_le32(group, s->b + 8);
	put_unaligned_le32(0, s->b + 12);
	put_unaligned_le32(dacl, s->b + 16);
}

/* Owner S-1-22-1-1000, group S-1-22-2-100, DACL with one ACE for Everyone. */
static void good_sd(struct sdb *s, u32 *dacl_at)
{
	static const u32 u[] = { 1, 1000 }, g[] = { 2, 100 }, e[] = { 0 };
	u32 owner, group, dacl, ace;

	memset(s, 0, sizeof(*s));
	s->len = KSMBD_SD_HDR_SIZE;
	owner = put_sid(s, 22, 2, u);
	group = put_sid(s, 22, 2, g);
	dacl = s->len;
	s->b[s->len] = 2;
	put_unaligned_le16(8 + 20, s->b + s->len + 2);
	put_unaligned_le16(1, s->b + s->len + 4);
	s->len += 8;
	ace = s->len;
	s->b[s->len] = KSMBD_ACE_ACCESS_ALLOWED;
	put_unaligned_le16(20, s->b + s->len + 2);
	put_unaligned_le32(0x001200a9, s->b + s->len + 4);
	s->len += 8;
	put_sid(s, 1, 1, e);
	(void)ace;
	put_hdr(s, KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT, owner, group,
		dacl);
	*dacl_at = dacl;
}

static int parse(const struct sdb *s, struct ksmbd_sd *sd)
{
	struct ksmbd_buf b = ksmbd_buf_make(s->b, s->len);

	return ksmbd_sd_parse(&b, sd);
}

TEST(good_descriptor)
{
	struct ksmbd_sd sd;
	struct ksmbd_ace ace;
	struct sdb s;
	u32 dacl, pos = KSMBD_ACL_HDR_SIZE;
	u16 left;

	good_sd(&s, &dacl);
	CHECK_EQ_INT(parse(&s, &sd), 0);
	CHECK(sd.has_owner && sd.has_group && sd.has_dacl && !sd.null_dacl);
	CHECK_EQ_INT(sd.owner.num_subauth, 2);
	CHECK_EQ_INT(sd.owner.sub_auth[1], 1000);
	CHECK_EQ_INT(ksmbd_sid_authority(&sd.group), 22);
	CHECK_EQ_INT(sd.group.sub_auth[1], 100);
	CHECK_EQ_INT(sd.ace_count, 1);
	left = sd.ace_count;
	CHECK_EQ_INT(ksmbd_acl_next(&sd.dacl, &pos, &left, &ace), 1);
	CHECK_EQ_INT(ace.mask, 0x001200a9);
	CHECK_EQ_INT(ace.sid.num_subauth, 1);
	CHECK_EQ_INT(ksmbd_acl_next(&sd.dacl, &pos, &left, &ace), 0);
}

TEST(every_truncation_is_refused)
{
	struct ksmbd_sd sd;
	struct sdb s;
	u32 dacl, full;

	good_sd(&s, &dacl);
	full = s.len;
	for (s.len = 0; s.len < full; s.len++)
		CHECK(parse(&s, &sd) != 0);
	s.len = full;
	CHECK_EQ_INT(parse(&s, &sd), 0);
}

TEST(offsets_inside_header_or_past_end)
{
	struct ksmbd_sd sd;
	struct sdb s;
	u32 dacl;

	good_sd(&s, &dacl);
	put_unaligned_le32(4, s.b + 4);		/* owner inside the header */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	put_unaligned_le32(s.len, s.b + 8);	/* group at the very end */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	put_unaligned_le32(0xfffffff0, s.b + 16);	/* dacl far away */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	put_unaligned_le32(0xffffffff, s.b + 12);	/* sacl too */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
}

TEST(sub_authority_count)
{
	struct ksmbd_sd sd;
	struct sdb s;
	u32 dacl;

	good_sd(&s, &dacl);
	s.b[KSMBD_SD_HDR_SIZE + 1] = 16;	/* past the maximum of 15 */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	s.b[KSMBD_SD_HDR_SIZE + 1] = 15;	/* allowed, but runs past the end */
	put_unaligned_le32(0, s.b + 8);
	put_unaligned_le32(0, s.b + 16);
	s.len = KSMBD_SD_HDR_SIZE + 8 + 4 * 14;
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	s.b[KSMBD_SD_HDR_SIZE] = 2;		/* SID revision */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
}

TEST(acl_size_and_count)
{
	struct ksmbd_sd sd;
	struct sdb s;
	u32 dacl;

	good_sd(&s, &dacl);
	put_unaligned_le16(0xffff, s.b + dacl + 2);	/* AclSize past the end */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	put_unaligned_le16(4, s.b + dacl + 2);		/* smaller than a header */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	put_unaligned_le16(0xffff, s.b + dacl + 4);	/* AceCount huge */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	put_unaligned_le16(2, s.b + dacl + 4);		/* one more than present */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	/*
	 * AclRevision: 2 to 4, as Windows' IsValidAcl (MIN_ACL_REVISION to
	 * MAX_ACL_REVISION); smbcacls builds its ACLs with 3.
	 */
	good_sd(&s, &dacl);
	s.b[dacl] = 3;
	CHECK_EQ_INT(parse(&s, &sd), 0);
	good_sd(&s, &dacl);
	s.b[dacl] = 1;
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	s.b[dacl] = 5;
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
}

TEST(ace_size)
{
	struct ksmbd_sd sd;
	struct sdb s;
	u32 dacl;

	good_sd(&s, &dacl);
	put_unaligned_le16(2, s.b + dacl + 8 + 2);	/* smaller than its header */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	s.b[dacl + 8] = 0x7f;		/* unknown type, 4 bytes: no ACE is */
	put_unaligned_le16(4, s.b + dacl + 8 + 2);
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	put_unaligned_le16(200, s.b + dacl + 8 + 2);	/* past the ACL */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	put_unaligned_le16(12, s.b + dacl + 8 + 2);	/* SID outside the ACE */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd(&s, &dacl);
	s.b[dacl + 8 + 9] = 3;		/* ACE's SID claims 3 sub-authorities */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
}

/*
 * MS-DTYP 2.4.4.1: AceSize MUST be a multiple of 4. Trailing bytes after
 * the SID are allowed (24 for a 20-byte ACE), an odd size is not.
 */
TEST(ace_size_multiple_of_4)
{
	static const u16 sizes[] = { 21, 22, 23, 24 };
	struct ksmbd_sd sd;
	struct sdb s;
	u32 dacl, i;

	for (i = 0; i < 4; i++) {
		good_sd(&s, &dacl);
		s.len = dacl + 8 + sizes[i];
		put_unaligned_le16(8 + sizes[i], s.b + dacl + 2);
		put_unaligned_le16(sizes[i], s.b + dacl + 8 + 2);
		CHECK_EQ_INT(parse(&s, &sd), sizes[i] == 24 ? 0 : -EINVAL);
	}
}

/* ksmbd_acl_check(): the ACL with its slack, the bytes its ACEs take. */
TEST(acl_check_reports_sizes)
{
	struct ksmbd_buf b, acl;
	struct sdb s;
	u32 dacl;
	u16 count;

	good_sd(&s, &dacl);
	b = ksmbd_buf_make(s.b, s.len);
	CHECK_EQ_INT(ksmbd_acl_check(&b, dacl, &acl, &count), 28);
	CHECK_EQ_INT(acl.len, 28);
	CHECK_EQ_INT(count, 1);
	/* 4 bytes of slack: kept in the ACL, not counted as used */
	s.len += 4;
	put_unaligned_le16(32, s.b + dacl + 2);
	b = ksmbd_buf_make(s.b, s.len);
	CHECK_EQ_INT(ksmbd_acl_check(&b, dacl, &acl, &count), 28);
	CHECK_EQ_INT(acl.len, 32);
	/* an ACL alone, at 0 */
	b = ksmbd_buf_make(s.b + dacl, 32);
	CHECK_EQ_INT(ksmbd_acl_check(&b, 0, &acl, &count), 28);
	s.b[dacl] = 5;
	CHECK_EQ_INT(ksmbd_acl_check(&b, 0, &acl, &count), -EINVAL);
	s.b[dacl] = 2;
	put_unaligned_le16(2, s.b + dacl + 4);	/* 32 bytes hold one ACE */
	CHECK_EQ_INT(ksmbd_acl_check(&b, 0, &acl, &count), -EINVAL);
}

/*
 * good_sd() plus a SACL after the DACL: one audit ACE for Everyone,
 * SACL_PRESENT set.
 */
static void good_sd_sacl(struct sdb *s, u32 *sacl_at)
{
	static const u32 e[] = { 0 };
	u32 dacl, sacl;

	good_sd(s, &dacl);
	sacl = s->len;
	s->b[s->len] = 2;
	put_unaligned_le16(8 + 20, s->b + s->len + 2);
	put_unaligned_le16(1, s->b + s->len + 4);
	s->len += 8;
	s->b[s->len] = KSMBD_ACE_SYSTEM_AUDIT;
	s->b[s->len + 1] = KSMBD_ACE_FAILED_ACCESS;
	put_unaligned_le16(20, s->b + s->len + 2);
	put_unaligned_le32(KSMBD_DELETE, s->b + s->len + 4);
	s->len += 8;
	put_sid(s, 1, 1, e);
	put_unaligned_le16(KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT |
			   KSMBD_SE_SACL_PRESENT, s->b + 2);
	put_unaligned_le32(sacl, s->b + 12);
	*sacl_at = sacl;
}

TEST(sacl)
{
	struct ksmbd_sd sd;
	struct ksmbd_ace ace;
	struct sdb s;
	u32 sacl, pos = KSMBD_ACL_HDR_SIZE;
	u16 left;

	good_sd_sacl(&s, &sacl);
	CHECK_EQ_INT(parse(&s, &sd), 0);
	CHECK(sd.has_sacl && !sd.null_sacl);
	CHECK_EQ_INT(sd.sacl_ace_count, 1);
	CHECK_EQ_INT(sd.sacl.len, 28);
	CHECK(sd.sacl.p == s.b + sacl);
	left = sd.sacl_ace_count;
	CHECK_EQ_INT(ksmbd_acl_next(&sd.sacl, &pos, &left, &ace), 1);
	CHECK(ace.type == KSMBD_ACE_SYSTEM_AUDIT && ace.has_sid &&
	      ace.mask == KSMBD_DELETE);
	CHECK(sd.has_dacl && sd.ace_count == 1);
	/* SACL_PRESENT with offset 0: the NULL SACL */
	put_unaligned_le32(0, s.b + 12);
	CHECK_EQ_INT(parse(&s, &sd), 0);
	CHECK(sd.has_sacl && sd.null_sacl);
	CHECK_EQ_INT(sd.sacl_ace_count, 0);
	/* an offset without SACL_PRESENT: no SACL, not even looked at */
	good_sd_sacl(&s, &sacl);
	put_unaligned_le16(KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT,
			   s.b + 2);
	put_unaligned_le16(0xffff, s.b + sacl + 2);
	CHECK_EQ_INT(parse(&s, &sd), 0);
	CHECK(!sd.has_sacl && !sd.null_sacl);
	/* a present SACL is checked as the DACL is */
	good_sd_sacl(&s, &sacl);
	put_unaligned_le16(0xffff, s.b + sacl + 2);	/* AclSize past the end */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd_sacl(&s, &sacl);
	put_unaligned_le16(4, s.b + sacl + 2);		/* below its header */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd_sacl(&s, &sacl);
	put_unaligned_le16(2, s.b + sacl + 4);		/* one more than present */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd_sacl(&s, &sacl);
	put_unaligned_le16(0xffff, s.b + sacl + 4);	/* AceCount huge */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd_sacl(&s, &sacl);
	put_unaligned_le16(22, s.b + sacl + 8 + 2);	/* AceSize not 4n */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
	good_sd_sacl(&s, &sacl);
	put_unaligned_le32(s.len, s.b + 12);		/* offset at the end */
	CHECK_EQ_INT(parse(&s, &sd), -EINVAL);
}

TEST(null_and_absent_dacl)
{
	struct ksmbd_sd sd;
	struct sdb s;
	u32 dacl;

	good_sd(&s, &dacl);
	put_unaligned_le32(0, s.b + 16);
	CHECK_EQ_INT(parse(&s, &sd), 0);
	CHECK(sd.has_dacl && sd.null_dacl);
	good_sd(&s, &dacl);
	put_unaligned_le16(KSMBD_SE_SELF_RELATIVE, s.b + 2);
	CHECK_EQ_INT(parse(&s, &sd), 0);
	CHECK(!sd.has_dacl);
}

TEST(unknown_ace_types_are_walked)
{
	struct ksmbd_sd sd;
	struct sdb s;
	u32 dacl;

	good_sd(&s, &dacl);
	s.b[dacl + 8] = 0x11;	/* SYSTEM_MANDATORY_LABEL: not interpreted */
	CHECK_EQ_INT(parse(&s, &sd), 0);
	CHECK_EQ_INT(sd.ace_count, 1);
}

TEST(sid_put_round_trip)
{
	static const u32 subs[] = { 21, 1, 2, 3, 1104 };
	struct ksmbd_sid a, b;
	struct ksmbd_wbuf w;
	struct ksmbd_buf r;
	struct sdb s = { .len = 0 };
	u8 out[64];
	u32 size;

	put_sid(&s, 5, 5, subs);
	r = ksmbd_buf_make(s.b, s.len);
	CHECK_EQ_INT(ksmbd_sid_parse(&r, 0, &a, &size), 0);
	CHECK_EQ_INT(size, 28);
	w = ksmbd_wbuf_make(out, sizeof(out));
	ksmbd_sid_put(&w, &a);
	CHECK_EQ_INT(w.len, 28);
	CHECK_EQ_MEM(out, s.b, 28);
	r = ksmbd_buf_make(out, w.len);
	CHECK_EQ_INT(ksmbd_sid_parse(&r, 0, &b, &size), 0);
	CHECK(ksmbd_sid_equal(&a, &b));
	b.sub_auth[4]++;
	CHECK(!ksmbd_sid_equal(&a, &b));
}

int main(void)
{
	RUN(good_descriptor);
	RUN(every_truncation_is_refused);
	RUN(offsets_inside_header_or_past_end);
	RUN(sub_authority_count);
	RUN(acl_size_and_count);
	RUN(ace_size);
	RUN(ace_size_multiple_of_4);
	RUN(acl_check_reports_sizes);
	RUN(sacl);
	RUN(null_and_absent_dacl);
	RUN(unknown_ace_types_are_walked);
	RUN(sid_put_round_trip);
	return test_report();
}
