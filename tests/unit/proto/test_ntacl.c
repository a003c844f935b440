// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * security.NTACL (proto/ntacl.c): values of every version built here by
 * hand from the layout in xattr.idl, our own round trip, refusals of
 * truncated and lying values, the hash rules of ntacl.h, and values
 * Samba's smbd wrote in the guest (the fixtures in ntacl/).
 */
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>

#include "testlib.h"
#include "proto/ntacl.h"
#include "proto/secdesc_parse.h"
#include "posix_xattr.h"
#include "samples.h"

struct blob {
	u8 b[2048];
	u32 len;
};

static void put16(struct blob *v, u16 x)
{
	put_unaligned_le16(x, v->b + v->len);
	v->len += 2;
}

static void put32(struct blob *v, u32 x)
{
	put_unaligned_le32(x, v->b + v->len);
	v->len += 4;
}

static void put64(struct blob *v, u64 x)
{
	put_unaligned_le64(x, v->b + v->len);
	v->len += 8;
}

static void putb(struct blob *v, const void *p, u32 n)
{
	memcpy(v->b + v->len, p, n);
	v->len += n;
}

static void pad(struct blob *v, u32 a)
{
	while (v->len % a)
		v->b[v->len++] = 0;
}

static void put_sid(struct blob *v, u32 n, const u32 *subs)
{
	u32 i;

	v->b[v->len++] = 1;
	v->b[v->len++] = (u8)n;
	memset(v->b + v->len, 0, 6);
	v->b[v->len + 5] = n == 1 ? 1 : 5;	/* S-1-1-0 or S-1-5-... */
	v->len += 6;
	for (i = 0; i < n; i++)
		put32(v, subs[i]);
}

static const u32 owner_sid[] = { 21, 1, 2, 3, 500 };
static const u32 group_sid[] = { 21, 1, 2, 3, 513 };
static const u32 user_sid[] = { 21, 1, 2, 3, 1001 };
static const u32 world_sid[] = { 0 };

static void put_ace(struct blob *v, u8 type, u8 flags, u32 mask, u32 n,
		    const u32 *subs)
{
	put16(v, type | (flags << 8));
	put16(v, (u16)(8 + 8 + 4 * n));
	put32(v, mask);
	put_sid(v, n, subs);
}

static void put_acl(struct blob *v, bool sacl)
{
	u32 at = v->len;

	put16(v, 2);
	put16(v, 0);
	put16(v, sacl ? 1 : 2);
	put16(v, 0);
	if (sacl) {
		/* SYSTEM_AUDIT_ACE, failed accesses */
		put_ace(v, 2, 0x80, 0x001f01ff, 1, world_sid);
	} else {
		put_ace(v, KSMBD_ACE_ACCESS_DENIED, 3, 0x2, 5, user_sid);
		put_ace(v, KSMBD_ACE_ACCESS_ALLOWED, 0, 0x001200a9, 1,
			world_sid);
	}
	put_unaligned_le16(v->len - at, v->b + at + 2);
}

/*
 * The test descriptor, header at v->len, offsets counted from base (the
 * value's start inside an NTACL value, the SD's start alone): owner,
 * group, [SACL], DACL in that order, the canonical form.
 */
static void put_sd(struct blob *v, u32 base, bool sacl)
{
	u32 hdr = v->len;
	u16 control = KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT;

	v->len += KSMBD_SD_HDR_SIZE;
	memset(v->b + hdr, 0, KSMBD_SD_HDR_SIZE);
	v->b[hdr] = 1;
	put_unaligned_le32(v->len - base, v->b + hdr + 4);
	put_sid(v, 5, owner_sid);
	put_unaligned_le32(v->len - base, v->b + hdr + 8);
	put_sid(v, 5, group_sid);
	if (sacl) {
		control |= KSMBD_SE_SACL_PRESENT;
		put_unaligned_le32(v->len - base, v->b + hdr + 12);
		put_acl(v, true);
	}
	put_unaligned_le32(v->len - base, v->b + hdr + 16);
	put_acl(v, false);
	put_unaligned_le16(control, v->b + hdr + 2);
}

static void sd_alone(struct blob *sd, bool sacl)
{
	memset(sd, 0, sizeof(*sd));
	put_sd(sd, 0, sacl);
}

/* A file: uid 1000, gid 100, mode 0100640, no POSIX ACL. */
static const struct ksmbd_ntacl_unix plain_file = {
	.uid = 1000, .gid = 100, .mode = 0100640,
};

/*
 * Samba's smb_acl_wrapper of plain_file, written out byte by byte from
 * smb_acl.idl's NDR: the pointers, owner and group as hyper, mode, then
 * the access ACL libacl makes from the mode (USER_OBJ rw, GROUP_OBJ r,
 * OTHER none).
 */
static void samba_wrapper_plain(struct blob *w)
{
	static const u16 tags[3] = { 2, 4, 5 };
	static const u32 perms[3] = { 6, 4, 0 };
	u32 i;

	memset(w, 0, sizeof(*w));
	put32(w, 0x00020000);
	put32(w, 0);
	put64(w, 1000);
	put64(w, 100);
	put32(w, 0100640);
	put32(w, 3);		/* conformance count */
	pad(w, 8);
	put32(w, 3);
	put32(w, 0);
	for (i = 0; i < 3; i++) {
		pad(w, 8);
		put16(w, tags[i]);
		put16(w, tags[i]);
		put32(w, perms[i]);
	}
}

static void sha256_64(const u8 *p, u32 n, u8 out[64])
{
	memset(out, 0, 64);
	SHA256(p, n, out);
}

/* Header of a value of version ver up to its descriptor. */
static void put_head(struct blob *v, u16 ver, u16 hash_type,
		     const u8 *sys_hash)
{
	static const char desc[] = "posix_acl";
	u8 hash[64];

	memset(v, 0, sizeof(*v));
	put16(v, ver);
	put16(v, ver);
	put32(v, 0x00020000);
	if (ver == 1)
		return;
	put32(v, 0x00020004);
	if (ver == 2) {
		memset(hash, 0xaa, 16);
		putb(v, hash, 16);
		return;
	}
	put16(v, hash_type);
	memset(hash, 0x55, sizeof(hash));
	putb(v, hash, 64);
	if (ver == 4) {
		putb(v, desc, sizeof(desc));
		pad(v, 4);
		put64(v, 0);
		if (sys_hash) {
			putb(v, sys_hash, 64);
		} else {
			memset(hash, 0, sizeof(hash));
			putb(v, hash, 64);
		}
	}
	pad(v, 4);
}

static void value_of(struct blob *v, u16 ver, u16 hash_type,
		     const u8 *sys_hash, bool sacl)
{
	put_head(v, ver, hash_type, sys_hash);
	put_sd(v, 0, sacl);
}

static u8 out[4096];

static void check_decodes_to(const struct blob *v,
			     const struct ksmbd_ntacl_unix *u, bool sacl,
			     u16 ver, u16 hash_type, bool hash_ok)
{
	struct ksmbd_ntacl_info info;
	struct blob want;
	int rc;

	sd_alone(&want, sacl);
	rc = ksmbd_ntacl_decode(v->b, v->len, u, out, sizeof(out), &info);
	CHECK_EQ_INT(rc, want.len);
	CHECK_EQ_INT(info.version, ver);
	CHECK_EQ_INT(info.hash_type, hash_type);
	CHECK_EQ_INT(info.hash_ok, hash_ok);
	CHECK_EQ_INT(info.sd_len, want.len);
	if (rc == (int)want.len)
		CHECK_EQ_MEM(out, want.b, want.len);
}

TEST(version_1_and_2_unchecked)
{
	struct blob v;

	value_of(&v, 1, 0, NULL, false);
	CHECK_EQ_INT(v.len - KSMBD_SD_HDR_SIZE, 8 + 28 + 28 + 64);
	check_decodes_to(&v, NULL, false, 1, 0, false);
	value_of(&v, 2, 0, NULL, true);
	check_decodes_to(&v, &plain_file, true, 2, 0, false);
}

TEST(version_3_and_4_hash_type_none)
{
	struct blob v;

	value_of(&v, 3, KSMBD_NTACL_HASH_NONE, NULL, false);
	/* the descriptor starts at 80: 78 aligned to 4 */
	CHECK_EQ_INT(get_unaligned_le32(v.b + 80 + 4), 80 + 20);
	check_decodes_to(&v, NULL, false, 3, 0, false);
	value_of(&v, 4, KSMBD_NTACL_HASH_NONE, NULL, true);
	check_decodes_to(&v, &plain_file, true, 4, 0, false);
}

TEST(version_4_sha256_checked_against_permissions)
{
	struct ksmbd_ntacl_unix u = plain_file;
	struct blob w, v;
	u8 h[64];

	samba_wrapper_plain(&w);
	sha256_64(w.b, w.len, h);
	value_of(&v, 4, KSMBD_NTACL_HASH_SHA256, h, false);
	check_decodes_to(&v, &u, false, 4, 1, true);
	/* a local chmod since: Samba drops the value, so do we */
	u.mode = 0100600;
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, &u, out, sizeof(out), NULL),
		     -EBADMSG);
	u = plain_file;
	u.gid = 101;
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, &u, out, sizeof(out), NULL),
		     -EBADMSG);
	/* nothing to check it against */
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, NULL, out, sizeof(out), NULL),
		     -EBADMSG);
}

TEST(version_3_sha256_and_unknown_hash_types_refused)
{
	struct ksmbd_ntacl_info info;
	struct blob v;

	value_of(&v, 3, KSMBD_NTACL_HASH_SHA256, NULL, false);
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, &plain_file, out,
					sizeof(out), &info), -EBADMSG);
	CHECK_EQ_INT(info.version, 3);
	CHECK_EQ_INT(info.hash_type, 1);
	CHECK(!info.hash_ok);
	value_of(&v, 4, 2, NULL, false);
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, &plain_file, out,
					sizeof(out), &info), -EBADMSG);
	CHECK_EQ_INT(info.hash_type, 2);
}

/*
 * The in-kernel ksmbd hashes its own variant of the wrapper: no access
 * ACL pointer when the file has no POSIX ACL. Its values are accepted.
 */
TEST(in_kernel_ksmbd_permission_hash_accepted)
{
	struct blob w, v;
	u8 h[64];

	memset(&w, 0, sizeof(w));
	put32(&w, 0);
	put32(&w, 0);
	put64(&w, 1000);
	put64(&w, 100);
	put32(&w, 0100640);
	sha256_64(w.b, w.len, h);
	value_of(&v, 4, KSMBD_NTACL_HASH_SHA256, h, false);
	check_decodes_to(&v, &plain_file, false, 4, 1, true);
}

TEST(encode_layout)
{
	struct blob sd, w;
	u8 h[64];
	int rc;

	sd_alone(&sd, true);
	rc = ksmbd_ntacl_encode(sd.b, sd.len, &plain_file, out, sizeof(out));
	CHECK_EQ_INT(rc, 160 + sd.len);
	CHECK_EQ_INT(ksmbd_ntacl_encoded_size(sd.b, sd.len), rc);
	CHECK_EQ_INT(get_unaligned_le16(out), 4);
	CHECK_EQ_INT(get_unaligned_le16(out + 2), 4);
	CHECK_EQ_INT(get_unaligned_le32(out + 4), 0x00020000);
	CHECK_EQ_INT(get_unaligned_le32(out + 8), 0x00020004);
	CHECK_EQ_INT(get_unaligned_le16(out + 12), KSMBD_NTACL_HASH_SHA256);
	/* hash: the stored descriptor's SHA-256, zero padded */
	sha256_64(out + 160, sd.len, h);
	CHECK_EQ_MEM(out + 14, h, 64);
	CHECK_EQ_MEM(out + 78, "posix_acl", 10);
	CHECK_EQ_MEM(out + 88, "\0\0\0\0\0\0\0\0", 8);
	/* sys_acl_hash: Samba's wrapper, written out by hand above */
	samba_wrapper_plain(&w);
	sha256_64(w.b, w.len, h);
	CHECK_EQ_MEM(out + 96, h, 64);
	/* the descriptor with offsets from the value's start */
	CHECK_EQ_INT(get_unaligned_le32(out + 160 + 4), 160 + 20);
	CHECK_EQ_INT(get_unaligned_le32(out + 160 + 8), 160 + 48);
	CHECK_EQ_INT(get_unaligned_le32(out + 160 + 12), 160 + 76);
	CHECK_EQ_INT(get_unaligned_le32(out + 160 + 16), 160 + 76 + 28);
	CHECK_EQ_MEM(out + 160 + 20, sd.b + 20, sd.len - 20);
}

TEST(round_trip)
{
	static const struct ksmbd_posix_ace acl[] = {
		{ KSMBD_POSIX_USER_OBJ, 7, 0 },
		{ KSMBD_POSIX_USER, 4, 1001 },
		{ KSMBD_POSIX_GROUP_OBJ, 5, 0 },
		{ KSMBD_POSIX_GROUP, 6, 2000 },
		{ KSMBD_POSIX_MASK, 7, 0 },
		{ KSMBD_POSIX_OTHER, 0, 0 },
	};
	struct ksmbd_ntacl_unix dir = {
		.uid = 0, .gid = 0, .mode = 040750,
		.acl = acl, .acl_count = 6, .def = acl, .def_count = 6,
	};
	struct ksmbd_ntacl_info info;
	static u8 val[4096];
	struct blob sd;
	int n, i;

	for (i = 0; i < 2; i++) {
		sd_alone(&sd, i);
		n = ksmbd_ntacl_encode(sd.b, sd.len, &dir, val, sizeof(val));
		CHECK(n > 0);
		CHECK_EQ_INT(ksmbd_ntacl_decode(val, n, &dir, out, sizeof(out),
						&info), sd.len);
		CHECK(info.hash_ok);
		CHECK_EQ_MEM(out, sd.b, sd.len);
	}
	/* a default ACL removed: the value is stale */
	dir.def = NULL;
	CHECK_EQ_INT(ksmbd_ntacl_decode(val, n, &dir, out, sizeof(out), NULL),
		     -EBADMSG);
	/* an entry fewer: stale too */
	dir.def = acl;
	dir.acl_count = 5;
	CHECK_EQ_INT(ksmbd_ntacl_decode(val, n, &dir, out, sizeof(out), NULL),
		     -EBADMSG);
}

/* Samba lays parts out wherever it likes; we hand out one canonical form. */
TEST(decode_canonicalizes_layout)
{
	struct blob v, want;
	u32 sd_at, dacl_len;

	/* v1 with the DACL first, then group, then owner, an unused gap */
	put_head(&v, 1, 0, NULL);
	sd_at = v.len;
	memset(v.b + v.len, 0, 20);
	v.b[v.len] = 1;
	put_unaligned_le16(KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT,
			   v.b + v.len + 2);
	v.len += 20;
	put_unaligned_le32(v.len, v.b + sd_at + 16);
	put_acl(&v, false);
	dacl_len = v.len - get_unaligned_le32(v.b + sd_at + 16);
	/* reserved bytes set: given back zero */
	v.b[v.len - dacl_len + 1] = 0x77;
	put32(&v, 0xdeadbeef);
	put_unaligned_le32(v.len, v.b + sd_at + 8);
	put_sid(&v, 5, group_sid);
	put_unaligned_le32(v.len, v.b + sd_at + 4);
	put_sid(&v, 5, owner_sid);
	sd_alone(&want, false);
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, NULL, out, sizeof(out),
					NULL), want.len);
	CHECK_EQ_MEM(out, want.b, want.len);
}

TEST(absent_parts_and_present_bits)
{
	struct blob v, sd;
	u32 sd_at;
	int n;

	/* SACL offset set but SACL_PRESENT clear: left out */
	value_of(&v, 1, 0, NULL, true);
	sd_at = 8;
	put_unaligned_le16(KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT,
			   v.b + sd_at + 2);
	n = ksmbd_ntacl_decode(v.b, v.len, NULL, out, sizeof(out), NULL);
	sd_alone(&sd, false);
	CHECK_EQ_INT(n, sd.len);
	CHECK_EQ_INT(get_unaligned_le32(out + 12), 0);
	/* DACL_PRESENT with no DACL: a NULL DACL, kept as such */
	value_of(&v, 1, 0, NULL, false);
	put_unaligned_le32(0, v.b + sd_at + 16);
	n = ksmbd_ntacl_decode(v.b, v.len, NULL, out, sizeof(out), NULL);
	CHECK_EQ_INT(n, 20 + 28 + 28);
	CHECK_EQ_INT(get_unaligned_le16(out + 2),
		     KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT);
	CHECK_EQ_INT(get_unaligned_le32(out + 16), 0);
	/* no owner, no group */
	value_of(&v, 1, 0, NULL, false);
	put_unaligned_le32(0, v.b + sd_at + 4);
	put_unaligned_le32(0, v.b + sd_at + 8);
	n = ksmbd_ntacl_decode(v.b, v.len, NULL, out, sizeof(out), NULL);
	CHECK_EQ_INT(n, 20 + 64);
}

TEST(every_truncation_refused)
{
	struct blob w, v;
	u8 h[64];
	u32 i;

	samba_wrapper_plain(&w);
	sha256_64(w.b, w.len, h);
	value_of(&v, 4, KSMBD_NTACL_HASH_SHA256, h, true);
	CHECK(ksmbd_ntacl_decode(v.b, v.len, &plain_file, out, sizeof(out),
				 NULL) > 0);
	for (i = 0; i < v.len; i++)
		if (ksmbd_ntacl_decode(v.b, i, &plain_file, out, sizeof(out),
				       NULL) != -EINVAL)
			test_fail_("prefix of %u bytes not refused", i);
}

static int decode_mod(struct blob *v, u32 at, u32 val, u32 width)
{
	struct blob m = *v;

	if (width == 4)
		put_unaligned_le32(val, m.b + at);
	else if (width == 2)
		put_unaligned_le16((u16)val, m.b + at);
	else
		m.b[at] = (u8)val;
	return ksmbd_ntacl_decode(m.b, m.len, NULL, out, sizeof(out), NULL);
}

TEST(lying_fields_refused)
{
	struct blob v;
	u32 sd = 80, dacl;

	value_of(&v, 3, KSMBD_NTACL_HASH_NONE, NULL, false);
	dacl = get_unaligned_le32(v.b + sd + 16);
	CHECK(decode_mod(&v, 0, 3, 1) > 0);
	/* version and level disagree; unknown versions; null pointers */
	CHECK_EQ_INT(decode_mod(&v, 2, 4, 2), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, 0, 0, 4), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, 0, 0x00050005, 4), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, 4, 0, 4), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, 8, 0, 4), -EINVAL);
	/* SD revision */
	CHECK_EQ_INT(decode_mod(&v, sd, 2, 1), -EINVAL);
	/* owner inside the SD header, inside the hash, past the end */
	CHECK_EQ_INT(decode_mod(&v, sd + 4, sd + 4, 4), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, sd + 4, 20, 4), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, sd + 4, v.len, 4), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, sd + 4, v.len - 4, 4), -EINVAL);
	/* SID with 16 sub-authorities */
	CHECK_EQ_INT(decode_mod(&v, sd + 20 + 1, 16, 1), -EINVAL);
	/* AclSize past the end, AclSize below the header, AceCount too big */
	CHECK_EQ_INT(decode_mod(&v, dacl + 2, 0x200, 2), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, dacl + 2, 4, 2), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, dacl + 4, 9, 2), -EINVAL);
	/* an ACE's size past its ACL, and below its header */
	CHECK_EQ_INT(decode_mod(&v, dacl + 8 + 2, 0x100, 2), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, dacl + 8 + 2, 2, 2), -EINVAL);
	/* ACL revision: 2 to 4 (3 handed out as 2), nothing else */
	CHECK_EQ_INT(decode_mod(&v, dacl, 1, 1), -EINVAL);
	CHECK_EQ_INT(decode_mod(&v, dacl, 5, 1), -EINVAL);
	CHECK(decode_mod(&v, dacl, 3, 1) > 0);
	CHECK_EQ_INT(out[get_unaligned_le32(out + 16)], 2);
	CHECK(decode_mod(&v, dacl, 4, 1) > 0);
	CHECK_EQ_INT(out[get_unaligned_le32(out + 16)], 4);
}

TEST(description_without_terminator)
{
	struct blob v;
	u32 i;

	put_head(&v, 4, KSMBD_NTACL_HASH_NONE, NULL);
	v.len = 78;
	for (i = 0; i < 200; i++)
		v.b[v.len++] = 'x';
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, NULL, out, sizeof(out),
					NULL), -EINVAL);
}

TEST(more_than_2000_aces_refused)
{
	static u8 big[40000], big_out[40000];
	u32 i, len = 8, acl_at;

	put_unaligned_le16(1, big);
	put_unaligned_le16(1, big + 2);
	put_unaligned_le32(0x00020000, big + 4);
	big[len] = 1;
	put_unaligned_le16(KSMBD_SE_SELF_RELATIVE | KSMBD_SE_SACL_PRESENT,
			   big + len + 2);
	put_unaligned_le32(len + 20, big + len + 12);
	len += 20;
	acl_at = len;
	/*
	 * A SACL of 2001 ACEs of a type no parser interprets (0x14), 16
	 * bytes each (the parser refuses an ACE shorter than a mask and an
	 * empty SID).
	 */
	big[len] = 2;
	put_unaligned_le16(8 + 16 * 2001, big + len + 2);
	put_unaligned_le16(2001, big + len + 4);
	len += 8;
	for (i = 0; i < 2001; i++, len += 16) {
		big[len] = 0x14;
		put_unaligned_le16(16, big + len + 2);
	}
	CHECK_EQ_INT(ksmbd_ntacl_decode(big, len, NULL, big_out,
					sizeof(big_out), NULL), -EINVAL);
	put_unaligned_le16(2000, big + acl_at + 4);
	CHECK_EQ_INT(ksmbd_ntacl_decode(big, len, NULL, big_out,
					sizeof(big_out), NULL),
		     20 + 8 + 16 * 2001);
}

TEST(sizes)
{
	struct blob v, sd;
	static u8 val[KSMBD_NTACL_MAX + 2];
	int n;

	value_of(&v, 1, 0, NULL, false);
	sd_alone(&sd, false);
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, NULL, out, sd.len - 1,
					NULL), -ENOSPC);
	CHECK_EQ_INT(ksmbd_ntacl_decode(v.b, v.len, NULL, out, sd.len, NULL),
		     sd.len);
	/* larger than any xattr value */
	memcpy(val, v.b, v.len);
	CHECK_EQ_INT(ksmbd_ntacl_decode(val, sizeof(val), NULL, out,
					sizeof(out), NULL), -EINVAL);
	n = ksmbd_ntacl_encoded_size(sd.b, sd.len);
	CHECK_EQ_INT(n, 160 + sd.len);
	CHECK_EQ_INT(ksmbd_ntacl_encode(sd.b, sd.len, &plain_file, val, n - 1),
		     -ENOSPC);
	CHECK_EQ_INT(ksmbd_ntacl_encode(sd.b, sd.len, &plain_file, val, n), n);
	/* encode needs the permission state and a valid SD */
	CHECK_EQ_INT(ksmbd_ntacl_encode(sd.b, sd.len, NULL, val, n), -EINVAL);
	CHECK_EQ_INT(ksmbd_ntacl_encode(sd.b, sd.len - 1, &plain_file, val, n),
		     -EINVAL);
	CHECK_EQ_INT(ksmbd_ntacl_encoded_size(sd.b, 19), -EINVAL);
}

TEST(bad_permission_state_refused)
{
	static const struct ksmbd_posix_ace bad[] = { { 0x40, 7, 0 } };
	struct ksmbd_ntacl_unix u = plain_file;
	static u8 val[1024];
	struct blob sd;

	sd_alone(&sd, false);
	u.acl = bad;
	u.acl_count = 1;
	CHECK_EQ_INT(ksmbd_ntacl_encode(sd.b, sd.len, &u, val, sizeof(val)),
		     -EINVAL);
}

/*
 * Fixtures: values Samba 4.17's smbd stored through smbcacls --set in
 * tests/vm/cases/ntacl-interop.sh, with the file's owner, mode and POSIX
 * ACLs at the time and what smbcacls --numeric showed of the file
 * ("shown=" lines), copied from build/vm/ntacl/.
 */
struct fixture {
	u8 value[4096];
	u32 len;
	u8 acl_raw[1024], def_raw[1024];
	struct ksmbd_posix_ace acl[64], def[64];
	struct ksmbd_ntacl_unix u;
	char shown[16][128];
	u32 nshown;
};

static bool fixture_hex(const char *hex, u8 *out, u32 cap, u32 *len)
{
	u32 n = (u32)strlen(hex);

	*len = n / 2;
	return !(n % 2) && (!n || sample_unhex(hex, out, cap) == n / 2);
}

static bool fixture_load(const char *name, struct fixture *f)
{
	char path[512], line[8192];
	const char *dir = __FILE__;
	u32 dlen = (u32)(strrchr(dir, '/') - dir), n;
	bool ok = true;
	FILE *fp;

	memset(f, 0, sizeof(*f));
	snprintf(path, sizeof(path), "%.*s/ntacl/%s.txt", (int)dlen, dir, name);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	while (ok && fgets(line, sizeof(line), fp)) {
		char *v = strchr(line, '=');

		line[strcspn(line, "\n")] = 0;
		if (!v)
			continue;
		*v++ = 0;
		if (!strcmp(line, "value")) {
			ok = fixture_hex(v, f->value, sizeof(f->value), &f->len);
		} else if (!strcmp(line, "uid")) {
			f->u.uid = (u32)strtoul(v, NULL, 10);
		} else if (!strcmp(line, "gid")) {
			f->u.gid = (u32)strtoul(v, NULL, 10);
		} else if (!strcmp(line, "mode")) {
			f->u.mode = (u32)strtoul(v, NULL, 16);
		} else if (!strcmp(line, "acl") && *v) {
			ok = fixture_hex(v, f->acl_raw, sizeof(f->acl_raw), &n) &&
			     !posix_xattr_parse(f->acl_raw, n, f->acl, 64,
						&f->u.acl_count);
			f->u.acl = f->acl;
		} else if (!strcmp(line, "def") && *v) {
			ok = fixture_hex(v, f->def_raw, sizeof(f->def_raw), &n) &&
			     !posix_xattr_parse(f->def_raw, n, f->def, 64,
						&f->u.def_count);
			f->u.def = f->def;
		} else if (!strcmp(line, "shown") && f->nshown < 16) {
			snprintf(f->shown[f->nshown++], 128, "%s", v);
		}
	}
	fclose(fp);
	return ok && f->len;
}

static void sid_text(const struct ksmbd_sid *sid, char *out, size_t cap)
{
	int at = snprintf(out, cap, "S-%u-%llu", sid->revision,
			  (unsigned long long)ksmbd_sid_authority(sid));
	u32 i;

	for (i = 0; i < sid->num_subauth; i++)
		at += snprintf(out + at, cap - at, "-%u", sid->sub_auth[i]);
}

/* The decoded SD's lines, as smbcacls --numeric prints them. */
static u32 sd_lines(const u8 *sd, u32 len, char lines[][128], u32 max)
{
	struct ksmbd_buf b = ksmbd_buf_make(sd, len);
	struct ksmbd_sd p;
	struct ksmbd_ace ace;
	char sid[96];
	u32 n = 0, pos = KSMBD_ACL_HDR_SIZE;
	u16 left;

	if (ksmbd_sd_parse(&b, &p))
		return 0;
	if (p.has_owner && n < max) {
		sid_text(&p.owner, sid, sizeof(sid));
		snprintf(lines[n++], 128, "OWNER:%s", sid);
	}
	if (p.has_group && n < max) {
		sid_text(&p.group, sid, sizeof(sid));
		snprintf(lines[n++], 128, "GROUP:%s", sid);
	}
	left = p.ace_count;
	while (p.has_dacl && !p.null_dacl && n < max &&
	       ksmbd_acl_next(&p.dacl, &pos, &left, &ace) > 0) {
		sid_text(&ace.sid, sid, sizeof(sid));
		snprintf(lines[n++], 128, "ACL:%s:%u/0x%x/0x%08x", sid, ace.type,
			 ace.flags, ace.mask);
	}
	return n;
}

static void check_samba_fixture(const char *name)
{
	static struct fixture f;
	struct ksmbd_ntacl_info info;
	struct ksmbd_ntacl_unix u;
	char lines[16][128];
	static u8 again[4096];
	const u8 *nul;
	u32 i, n;
	int rc, m;

	if (!fixture_load(name, &f)) {
		test_fail_("fixture %s missing or malformed", name);
		return;
	}
	rc = ksmbd_ntacl_decode(f.value, f.len, &f.u, out, sizeof(out), &info);
	CHECK(rc > 0);
	CHECK_EQ_INT(info.version, 4);
	CHECK_EQ_INT(info.hash_type, KSMBD_NTACL_HASH_SHA256);
	CHECK(info.hash_ok);
	if (rc <= 0)
		return;
	/* what we decode is what Samba itself served for the file */
	n = sd_lines(out, (u32)rc, lines, 16);
	CHECK_EQ_INT(n, f.nshown);
	for (i = 0; i < n && i < f.nshown; i++)
		CHECK_EQ_STR(lines[i], f.shown[i]);
	/* our encoding of the same SD over the same file: Samba's sys_acl_hash */
	m = ksmbd_ntacl_encode(out, (u32)rc, &f.u, again, sizeof(again));
	CHECK(m > 160);
	nul = memchr(f.value + 78, 0, f.len - 78);
	CHECK(nul);
	if (m > 160 && nul) {
		i = ALIGN((u32)(nul - f.value) + 1, 4u) + 8;
		CHECK(i + 64 <= f.len);
		CHECK_EQ_MEM(again + 96, f.value + i, 64);
	}
	/* and the permissions changed since: refused */
	u = f.u;
	u.mode ^= 0004;
	CHECK_EQ_INT(ksmbd_ntacl_decode(f.value, f.len, &u, out, sizeof(out),
					NULL), -EBADMSG);
}

TEST(samba_file_fixture)
{
	check_samba_fixture("samba_sfile");
}

TEST(samba_directory_fixture)
{
	check_samba_fixture("samba_sdir");
}

int main(void)
{
	RUN(version_1_and_2_unchecked);
	RUN(version_3_and_4_hash_type_none);
	RUN(version_4_sha256_checked_against_permissions);
	RUN(version_3_sha256_and_unknown_hash_types_refused);
	RUN(in_kernel_ksmbd_permission_hash_accepted);
	RUN(encode_layout);
	RUN(round_trip);
	RUN(decode_canonicalizes_layout);
	RUN(absent_parts_and_present_bits);
	RUN(every_truncation_refused);
	RUN(lying_fields_refused);
	RUN(description_without_terminator);
	RUN(more_than_2000_aces_refused);
	RUN(sizes);
	RUN(bad_permission_state_refused);
	RUN(samba_file_fixture);
	RUN(samba_directory_fixture);
	return test_report();
}
