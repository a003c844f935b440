// SPDX-License-Identifier: GPL-2.0-or-later
#include "testlib.h"
#include "secdesc.h"

static const u32 domain[3] = { 111, 222, 333 };

static int build_parse(const struct ksmbd_sd_unix *u, u32 secinfo, u8 *out,
		       u32 cap, struct ksmbd_sd *sd, u32 *len)
{
	struct ksmbd_wbuf w = ksmbd_wbuf_make(out, cap);
	struct ksmbd_buf b;
	u32 need = ksmbd_secdesc_build(&w, u, secinfo);

	if (w.overflow || need != w.len)
		return -ENOSPC;
	*len = w.len;
	b = ksmbd_buf_make(out, w.len);
	return ksmbd_sd_parse(&b, sd);
}

TEST(round_trip_every_mode)
{
	struct ksmbd_sd_unix u = { .uid = 1000, .gid = 100 };
	struct ksmbd_sid owner, group;
	struct ksmbd_sd sd;
	u8 out[256];
	u32 len, mode, bad = 0;

	for (mode = 0; mode <= 0777; mode++) {
		u.mode = (u16)mode;
		u.directory = mode & 1;
		if (build_parse(&u, KSMBD_OWNER_SECINFO | KSMBD_GROUP_SECINFO |
				KSMBD_DACL_SECINFO, out, sizeof(out), &sd, &len)) {
			bad++;
			continue;
		}
		if (ksmbd_secdesc_dacl_mode(&sd, &sd.owner, &sd.group) != mode)
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
	ksmbd_sid_unix_user(1000, &owner);
	ksmbd_sid_unix_group(100, &group);
	CHECK(ksmbd_sid_equal(&sd.owner, &owner));
	CHECK(ksmbd_sid_equal(&sd.group, &group));
	CHECK_EQ_INT(len, 128);
}

TEST(only_requested_parts)
{
	struct ksmbd_sd_unix u = { .uid = 5, .gid = 6, .mode = 0640 };
	struct ksmbd_sd sd;
	u8 out[256];
	u32 len;

	CHECK_EQ_INT(build_parse(&u, KSMBD_OWNER_SECINFO, out, sizeof(out), &sd,
				 &len), 0);
	CHECK(sd.has_owner && !sd.has_group && !sd.has_dacl);
	CHECK_EQ_INT(len, 20 + 16);
	CHECK_EQ_INT(build_parse(&u, KSMBD_DACL_SECINFO, out, sizeof(out), &sd,
				 &len), 0);
	CHECK(!sd.has_owner && sd.has_dacl);
	CHECK_EQ_INT(sd.ace_count, 3);
	CHECK_EQ_INT(build_parse(&u, 0, out, sizeof(out), &sd, &len), 0);
	CHECK_EQ_INT(len, 20);
}

TEST(too_small_reports_size)
{
	struct ksmbd_sd_unix u = { .uid = 5, .gid = 6, .mode = 0640 };
	struct ksmbd_wbuf w;
	u8 out[64];

	w = ksmbd_wbuf_make(out, sizeof(out));
	CHECK_EQ_INT(ksmbd_secdesc_build(&w, &u, KSMBD_OWNER_SECINFO |
					 KSMBD_GROUP_SECINFO |
					 KSMBD_DACL_SECINFO), 128);
	CHECK(w.overflow);
}

TEST(sid_mapping)
{
	struct ksmbd_sid s;
	u32 id;

	ksmbd_sid_unix_user(1234, &s);
	CHECK_EQ_INT(ksmbd_sid_to_uid(&s, domain, &id), 0);
	CHECK_EQ_INT(id, 1234);
	CHECK_EQ_INT(ksmbd_sid_to_gid(&s, domain, &id), -ENOENT);
	ksmbd_sid_unix_group(77, &s);
	CHECK_EQ_INT(ksmbd_sid_to_gid(&s, domain, &id), 0);
	CHECK_EQ_INT(id, 77);
	/*
	 * The server's domain: the daemon's RIDs (rpc_adapter.c), user
	 * 1000 + 2 * uid, group 1001 + 2 * gid; a RID below 1000 (Domain
	 * Users, Guest) is no Unix id.
	 */
	ksmbd_sid_domain_rid(domain, 1000 + 2 * 1234, &s);
	CHECK_EQ_INT(s.num_subauth, 5);
	CHECK_EQ_INT(s.sub_auth[0], 21);
	CHECK_EQ_INT(s.sub_auth[3], 333);
	CHECK(ksmbd_sid_in_domain(&s, domain));
	CHECK_EQ_INT(ksmbd_sid_to_uid(&s, domain, &id), 0);
	CHECK_EQ_INT(id, 1234);
	CHECK_EQ_INT(ksmbd_sid_to_gid(&s, domain, &id), -ENOENT);
	ksmbd_sid_domain_rid(domain, 1001 + 2 * 77, &s);
	CHECK_EQ_INT(ksmbd_sid_to_gid(&s, domain, &id), 0);
	CHECK_EQ_INT(id, 77);
	CHECK_EQ_INT(ksmbd_sid_to_uid(&s, domain, &id), -ENOENT);
	ksmbd_sid_domain_rid(domain, 1000, &s);		/* root */
	CHECK_EQ_INT(ksmbd_sid_to_uid(&s, domain, &id), 0);
	CHECK_EQ_INT(id, 0);
	ksmbd_sid_domain_rid(domain, 513, &s);
	CHECK_EQ_INT(ksmbd_sid_to_gid(&s, domain, &id), -ENOENT);
	CHECK_EQ_INT(ksmbd_sid_to_uid(&s, domain, &id), -ENOENT);
	ksmbd_sid_domain_rid(domain, 1000 + 2 * 1234, &s);
	s.sub_auth[3] = 334;	/* another domain */
	CHECK(!ksmbd_sid_in_domain(&s, domain));
	CHECK_EQ_INT(ksmbd_sid_to_uid(&s, domain, &id), -ENOENT);
}

/* A DACL made by a client: generic rights, a deny, an inherit-only ACE. */
TEST(client_dacl_to_mode)
{
	u8 b[256];
	struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));
	struct ksmbd_sid owner, group, everyone = { .revision = 1, .num_subauth = 1 };
	struct ksmbd_sd sd;
	struct ksmbd_buf r;
	u32 acl_at;

	everyone.authority[5] = 1;
	ksmbd_sid_unix_user(1, &owner);
	ksmbd_sid_unix_group(2, &group);
	/* header: owner absent, DACL at 20 */
	ksmbd_wbuf_put_u8(&w, 1);
	ksmbd_wbuf_put_u8(&w, 0);
	ksmbd_wbuf_put_le16(&w, KSMBD_SE_SELF_RELATIVE | KSMBD_SE_DACL_PRESENT);
	ksmbd_wbuf_put_le32(&w, 0);
	ksmbd_wbuf_put_le32(&w, 0);
	ksmbd_wbuf_put_le32(&w, 0);
	ksmbd_wbuf_put_le32(&w, 20);
	acl_at = w.len;
	ksmbd_wbuf_put_u8(&w, 2);
	ksmbd_wbuf_put_u8(&w, 0);
	ksmbd_wbuf_put_le16(&w, 0);	/* patched below */
	ksmbd_wbuf_put_le16(&w, 4);
	ksmbd_wbuf_put_le16(&w, 0);
	/* owner: GENERIC_ALL */
	ksmbd_wbuf_put_u8(&w, KSMBD_ACE_ACCESS_ALLOWED);
	ksmbd_wbuf_put_u8(&w, 0);
	ksmbd_wbuf_put_le16(&w, 8 + 16);
	ksmbd_wbuf_put_le32(&w, KSMBD_GENERIC_ALL);
	ksmbd_sid_put(&w, &owner);
	/* group: read + execute */
	ksmbd_wbuf_put_u8(&w, KSMBD_ACE_ACCESS_ALLOWED);
	ksmbd_wbuf_put_u8(&w, 0);
	ksmbd_wbuf_put_le16(&w, 8 + 16);
	ksmbd_wbuf_put_le32(&w, KSMBD_GENERIC_READ | KSMBD_GENERIC_EXECUTE);
	ksmbd_sid_put(&w, &group);
	/* everyone: denied execute, allowed read */
	ksmbd_wbuf_put_u8(&w, KSMBD_ACE_ACCESS_DENIED);
	ksmbd_wbuf_put_u8(&w, 0);
	ksmbd_wbuf_put_le16(&w, 8 + 12);
	ksmbd_wbuf_put_le32(&w, KSMBD_FILE_EXECUTE);
	ksmbd_sid_put(&w, &everyone);
	/* inherit-only write for everyone: not about this file */
	ksmbd_wbuf_put_u8(&w, KSMBD_ACE_ACCESS_ALLOWED);
	ksmbd_wbuf_put_u8(&w, KSMBD_ACE_INHERIT_ONLY);
	ksmbd_wbuf_put_le16(&w, 8 + 12);
	ksmbd_wbuf_put_le32(&w, KSMBD_FILE_WRITE_DATA | KSMBD_FILE_READ_DATA |
			    KSMBD_FILE_EXECUTE);
	ksmbd_sid_put(&w, &everyone);
	put_unaligned_le16((u16)(w.len - acl_at), b + acl_at + 2);
	CHECK(!w.overflow);
	r = ksmbd_buf_make(b, w.len);
	CHECK_EQ_INT(ksmbd_sd_parse(&r, &sd), 0);
	CHECK_EQ_INT(ksmbd_secdesc_dacl_mode(&sd, &owner, &group), 0750);
}

TEST(null_dacl_is_everything)
{
	struct ksmbd_sd sd = { .has_dacl = true, .null_dacl = true };
	struct ksmbd_sid o, g;

	ksmbd_sid_unix_user(1, &o);
	ksmbd_sid_unix_group(1, &g);
	CHECK_EQ_INT(ksmbd_secdesc_dacl_mode(&sd, &o, &g), 0777);
}

int main(void)
{
	RUN(round_trip_every_mode);
	RUN(only_requested_parts);
	RUN(too_small_reports_size);
	RUN(sid_mapping);
	RUN(client_dacl_to_mode);
	RUN(null_dacl_is_everything);
	return test_report();
}
