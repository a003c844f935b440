// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The response encoders against the MS-SMB2 layouts: every field at the
 * offset of its smb2.h structure, contexts chained and 8-byte aligned,
 * and nothing written past what the buffer holds.
 */
#include <stddef.h>
#include "testlib.h"
#include "proto/encode.h"
#include "proto/smb2.h"

static const struct ksmbd_fattr file_a = {
	.creation_time = 0x0101010101010101ULL,
	.last_access_time = 0x0202020202020202ULL,
	.last_write_time = 0x0303030303030303ULL,
	.change_time = 0x0404040404040404ULL,
	.allocation_size = 4096,
	.end_of_file = 1234,
	.attributes = 0x20,
};

#define LE16_AT(p, s, f)	get_unaligned_le16((p) + offsetof(s, f))
#define LE32_AT(p, s, f)	get_unaligned_le32((p) + offsetof(s, f))
#define LE64_AT(p, s, f)	get_unaligned_le64((p) + offsetof(s, f))

static bool all(const u8 *p, u32 n, u8 v)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

TEST(create_fixed_no_contexts)
{
	struct ksmbd_create_rsp r = {
		.oplock_level = 1, .action = 2, .a = &file_a,
		.persistent_id = 0x1122, .volatile_id = 0x3344,
	};
	u8 mem[256];
	struct ksmbd_wbuf w;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_create_rsp_encode(&w, &r);
	CHECK(!w.overflow);
	CHECK_EQ_INT(w.len, sizeof(struct smb2_create_rsp));
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_create_rsp, structure_size), 89);
	CHECK_EQ_INT(mem[offsetof(struct smb2_create_rsp, oplock_level)], 1);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_create_rsp, create_action), 2);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_create_rsp, creation_time),
		     file_a.creation_time);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_create_rsp, change_time),
		     file_a.change_time);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_create_rsp, allocation_size), 4096);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_create_rsp, end_of_file), 1234);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_create_rsp, file_attributes), 0x20);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_create_rsp, persistent_file_id),
		     0x1122);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_create_rsp, volatile_file_id),
		     0x3344);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_create_rsp, create_contexts_offset), 0);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_create_rsp, create_contexts_length), 0);
}

/* Walk the chain: tags in order, 8-byte aligned, the last with Next 0. */
static int walk(const u8 *p, u32 len, const char *const *tags, int n)
{
	u32 at = 0;
	int i;

	for (i = 0; i < n; i++) {
		u32 next = get_unaligned_le32(p + at);

		if (memcmp(p + at + 16, tags[i], 4) ||
		    get_unaligned_le16(p + at + 4) != 16 ||
		    get_unaligned_le16(p + at + 10) != 24)
			return -1;
		if (i == n - 1)
			return next == 0 && at + 24 +
			       get_unaligned_le32(p + at + 12) <= len ? 0 : -1;
		if (!next || next % 8)
			return -1;
		at += next;
	}
	return -1;
}

TEST(create_all_contexts)
{
	static const char *const tags[] = { "MxAc", "QFid", "RqLs", "DH2Q" };
	struct ksmbd_create_rsp r = {
		.a = &file_a, .mxac = true, .maximal_access = 0x1f01ff,
		.qfid = true, .disk_file_id = 77, .volume_id = 88,
		.lease = true,
		.ls = { .version = 2, .state = 7, .flags = 0x6, .epoch = 3 },
		.durable = KSMBD_RSP_DH_V2, .durable_timeout_ms = 60000,
	};
	u8 mem[512];
	struct ksmbd_wbuf w;
	const u8 *c;

	memset(r.ls.key, 0x11, 16);
	memset(r.ls.parent_key, 0x22, 16);
	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_create_rsp_encode(&w, &r);
	CHECK(!w.overflow);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_create_rsp, create_contexts_offset),
		     SMB2_HEADER_SIZE + 88);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_create_rsp, create_contexts_length),
		     w.len - 88);
	/* MxAc 32 + QFid 56 + RqLs v2 80 + DH2Q 32 */
	CHECK_EQ_INT(w.len, 88 + 32 + 56 + 80 + 32);
	c = mem + 88;
	CHECK_EQ_INT(walk(c, w.len - 88, tags, 4), 0);
	CHECK_EQ_INT(get_unaligned_le32(c + 24), 0);		/* QueryStatus */
	CHECK_EQ_INT(get_unaligned_le32(c + 28), 0x1f01ff);
	CHECK_EQ_INT(get_unaligned_le64(c + 32 + 24), 77);
	CHECK_EQ_INT(get_unaligned_le64(c + 32 + 32), 88);
	c += 32 + 56;
	CHECK_EQ_INT(get_unaligned_le32(c + 12), 52);		/* lease v2 */
	CHECK(all(c + 24, 16, 0x11));
	CHECK_EQ_INT(get_unaligned_le32(c + 24 +
		offsetof(struct smb2_create_lease_v2, lease_state)), 7);
	CHECK_EQ_INT(get_unaligned_le32(c + 24 +
		offsetof(struct smb2_create_lease_v2, lease_flags)), 6);
	CHECK(all(c + 24 + offsetof(struct smb2_create_lease_v2,
				    parent_lease_key), 16, 0x22));
	CHECK_EQ_INT(get_unaligned_le16(c + 24 +
		offsetof(struct smb2_create_lease_v2, epoch)), 3);
	c += 80;
	CHECK_EQ_INT(get_unaligned_le32(c + 24), 60000);
	CHECK_EQ_INT(get_unaligned_le32(c + 28), 0);
}

/* A v1 lease carries only BREAK_IN_PROGRESS; DHnQ has no timeout. */
TEST(create_lease_v1_durable_v1)
{
	static const char *const tags[] = { "RqLs", "DHnQ" };
	struct ksmbd_create_rsp r = {
		.a = &file_a, .lease = true,
		.ls = { .version = 1, .state = 5, .flags = 0x6 },
		.durable = KSMBD_RSP_DH_V1, .durable_timeout_ms = 60000,
	};
	u8 mem[512];
	struct ksmbd_wbuf w;
	const u8 *c = mem + 88;

	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_create_rsp_encode(&w, &r);
	CHECK(!w.overflow);
	CHECK_EQ_INT(w.len, 88 + 56 + 32);
	CHECK_EQ_INT(walk(c, w.len - 88, tags, 2), 0);
	CHECK_EQ_INT(get_unaligned_le32(c + 12), 32);
	CHECK_EQ_INT(get_unaligned_le32(c + 24 +
		offsetof(struct smb2_create_lease, lease_flags)), 2);
	CHECK_EQ_INT(get_unaligned_le32(c + 56 + 24), 0);
}

/* Out of room: overflow marked, contexts' offset never patched past it. */
TEST(create_overflow)
{
	struct ksmbd_create_rsp r = { .a = &file_a, .mxac = true };
	u8 mem[100];
	struct ksmbd_wbuf w;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, 96);
	ksmbd_create_rsp_encode(&w, &r);
	CHECK(w.overflow);
	CHECK(w.len <= 96);
	CHECK(all(mem + 96, 4, 0xa5));
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_create_rsp, create_contexts_offset), 0);
}

TEST(close_postquery)
{
	u8 mem[64];
	struct ksmbd_wbuf w;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_close_rsp_encode(&w, &file_a);
	CHECK_EQ_INT(w.len, sizeof(struct smb2_close_rsp));
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_close_rsp, structure_size), 60);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_close_rsp, flags),
		     SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_close_rsp, last_access_time),
		     file_a.last_access_time);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_close_rsp, end_of_file), 1234);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_close_rsp, file_attributes), 0x20);
}

TEST(close_plain_is_zero)
{
	u8 mem[64];
	struct ksmbd_wbuf w;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_close_rsp_encode(&w, NULL);
	CHECK_EQ_INT(w.len, 60);
	CHECK_EQ_INT(get_unaligned_le16(mem), 60);
	CHECK(all(mem + 2, 58, 0));
}

TEST(read_rsp_length_patched)
{
	u8 mem[32];
	struct ksmbd_wbuf w;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_read_rsp_encode(&w);
	CHECK_EQ_INT(w.len, sizeof(struct smb2_read_rsp));
	ksmbd_read_rsp_set_length(&w, 0x12345);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_read_rsp, structure_size), 17);
	CHECK_EQ_INT(mem[offsetof(struct smb2_read_rsp, data_offset)], 80);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_read_rsp, data_length), 0x12345);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_read_rsp, data_remaining), 0);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_read_rsp, flags), 0);
}

TEST(write_rsp)
{
	u8 mem[32];
	struct ksmbd_wbuf w;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_write_rsp_encode(&w, 65536);
	CHECK_EQ_INT(w.len, sizeof(struct smb2_write_rsp));
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_write_rsp, structure_size), 17);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_write_rsp, count), 65536);
	CHECK(all(mem + offsetof(struct smb2_write_rsp, remaining), 8, 0));
}

TEST(ioctl_rsp_output_patched)
{
	u8 mem[64];
	struct ksmbd_wbuf w;

	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_ioctl_rsp_encode(&w, 0x00140204, 5, 6);
	CHECK_EQ_INT(w.len, sizeof(struct smb2_ioctl_rsp));
	ksmbd_ioctl_rsp_set_output(&w, 24);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_ioctl_rsp, structure_size), 49);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_ioctl_rsp, ctl_code), 0x00140204);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_ioctl_rsp, persistent_file_id), 5);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_ioctl_rsp, volatile_file_id), 6);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_ioctl_rsp, input_offset), 112);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_ioctl_rsp, input_count), 0);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_ioctl_rsp, output_offset), 112);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_ioctl_rsp, output_count), 24);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_ioctl_rsp, flags), 0);
}

TEST(oplock_break_and_lease_ack)
{
	u8 key[16], mem[64];
	struct ksmbd_wbuf w;

	memset(key, 0x33, sizeof(key));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_oplock_break_rsp_encode(&w, 1, 7, 8);
	CHECK_EQ_INT(w.len, sizeof(struct smb2_oplock_break));
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_oplock_break, structure_size), 24);
	CHECK_EQ_INT(mem[offsetof(struct smb2_oplock_break, oplock_level)], 1);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_oplock_break, persistent_file_id), 7);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_oplock_break, volatile_file_id), 8);
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	ksmbd_lease_ack_rsp_encode(&w, key, 3);
	CHECK_EQ_INT(w.len, sizeof(struct smb2_lease_ack));
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_lease_ack, structure_size), 36);
	CHECK(all(mem + offsetof(struct smb2_lease_ack, lease_key), 16, 0x33));
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_lease_ack, lease_state), 3);
	CHECK_EQ_INT(LE64_AT(mem, struct smb2_lease_ack, lease_duration), 0);
}

TEST(negotiate_patches)
{
	u8 mem[sizeof(struct smb2_negotiate_rsp)];
	struct ksmbd_wbuf w;

	memset(mem, 0, sizeof(mem));
	w = ksmbd_wbuf_make(mem, sizeof(mem));
	w.len = sizeof(mem);
	ksmbd_negotiate_rsp_set_security_len(&w, 74);
	ksmbd_negotiate_rsp_set_contexts(&w, 216, 2);
	CHECK_EQ_INT(get_unaligned_le16(mem + 58), 74);
	CHECK_EQ_INT(get_unaligned_le32(mem + 60), 216);
	CHECK_EQ_INT(get_unaligned_le16(mem + 6), 2);
}

TEST(output_rsp_offset_only_with_data)
{
	u8 mem[8];

	memset(mem, 0xa5, sizeof(mem));
	ksmbd_output_rsp_set(mem, 40);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_output_buffer_rsp, structure_size), 9);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_output_buffer_rsp,
			     output_buffer_offset), 72);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_output_buffer_rsp,
			     output_buffer_length), 40);
	ksmbd_output_rsp_set(mem, 0);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_output_buffer_rsp,
			     output_buffer_offset), 0);
	CHECK_EQ_INT(LE32_AT(mem, struct smb2_output_buffer_rsp,
			     output_buffer_length), 0);
}

TEST(sess_setup_rsp_blob_offset)
{
	u8 mem[8];

	memset(mem, 0xa5, sizeof(mem));
	ksmbd_sess_setup_rsp_set(mem, 0x4, 200);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_sess_setup_rsp, structure_size), 9);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_sess_setup_rsp, session_flags), 4);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_sess_setup_rsp,
			     security_buffer_offset), 72);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_sess_setup_rsp,
			     security_buffer_length), 200);
	ksmbd_sess_setup_rsp_set(mem, 0, 0);
	CHECK_EQ_INT(LE16_AT(mem, struct smb2_sess_setup_rsp,
			     security_buffer_offset), 0);
}

/* Two entries (names of 2 and 6 bytes): 16 + 20 bytes, chained, padded. */
TEST(notify_info_chain)
{
	u8 mem[64];
	struct ksmbd_wbuf w;
	u32 total = ksmbd_notify_info_size(2) + ksmbd_notify_info_size(6);

	CHECK_EQ_INT(total, 36);
	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, total);
	ksmbd_notify_info_encode(&w, 1, "a\0", 2, false);
	ksmbd_notify_info_encode(&w, 3, "b\0c\0d\0", 6, true);
	CHECK(!w.overflow);
	CHECK_EQ_INT(w.len, total);
	CHECK_EQ_INT(get_unaligned_le32(mem), 16);	/* NextEntryOffset */
	CHECK_EQ_INT(get_unaligned_le32(mem + 4), 1);	/* Action */
	CHECK_EQ_INT(get_unaligned_le32(mem + 8), 2);	/* FileNameLength */
	CHECK(mem[12] == 'a' && mem[14] == 0 && mem[15] == 0);
	CHECK_EQ_INT(get_unaligned_le32(mem + 16), 0);	/* the last entry */
	CHECK_EQ_INT(get_unaligned_le32(mem + 20), 3);
	CHECK_EQ_INT(get_unaligned_le32(mem + 24), 6);
	CHECK(mem[28] == 'b' && mem[32] == 'd' && mem[34] == 0 && mem[35] == 0);
	CHECK(mem[36] == 0xa5);
	/* No room for a third: the writer says so and writes nothing past. */
	ksmbd_notify_info_encode(&w, 1, "x\0", 2, true);
	CHECK(w.overflow);
	CHECK(mem[36] == 0xa5);
}

/*
 * Two interface entries, IPv4 then IPv6: 152 bytes each, chained by Next,
 * the address where SOCKADDR_IN(6) puts it, the rest zero; a third that
 * does not fit writes nothing.
 */
TEST(netif_info_chain)
{
	static const struct ksmbd_netif_info v4 = {
		.ifindex = 2, .capability = KSMBD_NETIF_RSS_CAPABLE,
		.link_speed = 1000000000ULL, .addr = { 10, 0, 2, 15 },
	};
	static const struct ksmbd_netif_info v6 = {
		.ifindex = 3, .link_speed = 10000000000ULL, .ipv6 = true,
		.addr = { 0xfd, 0, [15] = 1 },
	};
	u8 mem[2 * KSMBD_NETIF_INFO_SIZE + 8];
	const u8 *e2 = mem + KSMBD_NETIF_INFO_SIZE;
	struct ksmbd_wbuf w;

	CHECK_EQ_INT(KSMBD_NETIF_INFO_SIZE % 8, 0);
	memset(mem, 0xa5, sizeof(mem));
	w = ksmbd_wbuf_make(mem, 2 * KSMBD_NETIF_INFO_SIZE + 4);
	ksmbd_netif_info_encode(&w, &v4, false);
	ksmbd_netif_info_encode(&w, &v6, true);
	CHECK(!w.overflow);
	CHECK_EQ_INT(w.len, 2 * KSMBD_NETIF_INFO_SIZE);
	CHECK_EQ_INT(get_unaligned_le32(mem), KSMBD_NETIF_INFO_SIZE);
	CHECK_EQ_INT(get_unaligned_le32(mem + 4), 2);		/* IfIndex */
	CHECK_EQ_INT(get_unaligned_le32(mem + 8), 1);		/* RSS */
	CHECK_EQ_INT(get_unaligned_le32(mem + 12), 0);		/* Reserved */
	CHECK(get_unaligned_le64(mem + 16) == 1000000000ULL);
	CHECK_EQ_INT(get_unaligned_le16(mem + 24), 0x0002);	/* InterNetwork */
	CHECK_EQ_INT(get_unaligned_le16(mem + 26), 0);		/* Port */
	CHECK(mem[28] == 10 && mem[29] == 0 && mem[30] == 2 && mem[31] == 15);
	CHECK(all(mem + 32, KSMBD_NETIF_INFO_SIZE - 32, 0));
	CHECK_EQ_INT(get_unaligned_le32(e2), 0);		/* the last */
	CHECK_EQ_INT(get_unaligned_le32(e2 + 4), 3);
	CHECK_EQ_INT(get_unaligned_le32(e2 + 8), 0);
	CHECK(get_unaligned_le64(e2 + 16) == 10000000000ULL);
	CHECK_EQ_INT(get_unaligned_le16(e2 + 24), 0x0017);	/* InterNetworkV6 */
	CHECK(all(e2 + 26, 6, 0));			/* Port, FlowInfo */
	CHECK(e2[32] == 0xfd && e2[33] == 0 && e2[47] == 1);
	CHECK(all(e2 + 48, KSMBD_NETIF_INFO_SIZE - 48, 0));	/* ScopeId.. */
	ksmbd_netif_info_encode(&w, &v4, true);
	CHECK(w.overflow);
	CHECK_EQ_INT(w.len, 2 * KSMBD_NETIF_INFO_SIZE);
	CHECK(mem[2 * KSMBD_NETIF_INFO_SIZE] == 0xa5);
}

int main(void)
{
	RUN(create_fixed_no_contexts);
	RUN(create_all_contexts);
	RUN(create_lease_v1_durable_v1);
	RUN(create_overflow);
	RUN(close_postquery);
	RUN(close_plain_is_zero);
	RUN(read_rsp_length_patched);
	RUN(write_rsp);
	RUN(ioctl_rsp_output_patched);
	RUN(oplock_break_and_lease_ack);
	RUN(negotiate_patches);
	RUN(output_rsp_offset_only_with_data);
	RUN(sess_setup_rsp_blob_offset);
	RUN(notify_info_chain);
	RUN(netif_info_chain);
	return test_report();
}
