// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Typed decoders (proto/decode.h): every command's request, FSCTL input,
 * SET_INFO class, create context CREATE acts on, QUERY_INFO's EA list and
 * the SMB1 upgrade.  Fields are written at the byte offsets MS-SMB2 2.2
 * and MS-FSCC give (not through the library's structures) and read back
 * through the gate and the decoder; short, odd and foreign inputs are
 * refused.
 */
#include "testlib.h"
#include "proto/decode.h"
#include "samples.h"

static const struct ksmbd_req_limits lim = {
	.max_read = 8 << 20, .max_write = 8 << 20, .max_trans = 8 << 20,
	.multi_credit = true,
};

/* Body offset at to a frame offset: the body follows the 64-byte header. */
static void p8(u8 *b, u32 at, u8 v) { b[64 + at] = v; }
static void p16(u8 *b, u32 at, u16 v) { put_unaligned_le16(v, b + 64 + at); }
static void p32(u8 *b, u32 at, u32 v) { put_unaligned_le32(v, b + 64 + at); }
static void p64(u8 *b, u32 at, u64 v) { put_unaligned_le64(v, b + 64 + at); }

/* Fills a file id at body offset at with recognisable halves. */
static void put_fid(u8 *b, u32 at)
{
	p64(b, at, 0x1111222233334444ULL);
	p64(b, at + 8, 0x5555666677778888ULL);
}

static void check_fid(u64 pid, u64 vid)
{
	CHECK_EQ_INT(pid, 0x1111222233334444ULL);
	CHECK_EQ_INT(vid, 0x5555666677778888ULL);
}

static bool gate(const u8 *b, u32 len, struct ksmbd_req *req)
{
	return ksmbd_request_validate(b, len, &lim, req) == KSMBD_VALID_OK;
}

static bool points_at(const struct ksmbd_buf *s, const u8 *p, u32 len)
{
	return s->p == p && s->len == len;
}

TEST(create)
{
	struct ksmbd_create_req c;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_CREATE, b, sizeof(b));

	p8(b, 2, 0x01);
	p64(b, 8, 0x0102030405060708ULL);
	p32(b, 28, 0x80);
	p32(b, 40, 0x00200040);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_create_decode(&req, &c), 0);
	CHECK_EQ_INT(c.security_flags, 1);
	CHECK_EQ_INT(c.oplock_level, 0xff);
	CHECK_EQ_INT(c.impersonation_level, 2);
	CHECK_EQ_INT(c.create_flags, 0x0102030405060708ULL);
	CHECK_EQ_INT(c.desired_access, 0x0012019f);
	CHECK_EQ_INT(c.file_attributes, 0x80);
	CHECK_EQ_INT(c.share_access, 7);
	CHECK_EQ_INT(c.disposition, 1);
	CHECK_EQ_INT(c.options, 0x00200040);
	CHECK(points_at(&c.name, b + 120, 10));
	CHECK(points_at(&c.contexts, b + 136, 64));
}

TEST(close_flush)
{
	struct ksmbd_close_req cl;
	struct ksmbd_flush_req fl;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_CLOSE, b, sizeof(b));

	p16(b, 2, 1);
	put_fid(b, 8);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_close_decode(&req, &cl), 0);
	CHECK_EQ_INT(cl.flags, 1);
	check_fid(cl.pid, cl.vid);
	CHECK_EQ_INT(ksmbd_flush_decode(&req, &fl), -EINVAL);

	len = sample_request(SMB2_FLUSH, b, sizeof(b));
	put_fid(b, 8);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_flush_decode(&req, &fl), 0);
	check_fid(fl.pid, fl.vid);
	CHECK_EQ_INT(ksmbd_close_decode(&req, &cl), -EINVAL);
}

TEST(read)
{
	struct ksmbd_read_req r;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_READ, b, sizeof(b));

	p8(b, 2, 0x50);
	p8(b, 3, 0x01);
	p64(b, 8, 0x7fff000000001000ULL);
	put_fid(b, 16);
	p32(b, 32, 4096);
	p32(b, 36, 0);
	p32(b, 40, 9);
	p16(b, 44, 112);		/* channel info: the last 8 bytes */
	p16(b, 46, 8);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_read_decode(&req, &r), 0);
	CHECK_EQ_INT(r.padding, 0x50);
	CHECK_EQ_INT(r.flags, 1);
	CHECK_EQ_INT(r.length, 65536);
	CHECK_EQ_INT(r.offset, 0x7fff000000001000ULL);
	check_fid(r.pid, r.vid);
	CHECK_EQ_INT(r.minimum_count, 4096);
	CHECK_EQ_INT(r.channel, 0);
	CHECK_EQ_INT(r.remaining_bytes, 9);
	CHECK(points_at(&r.channel_info, b + 112, 8));
}

TEST(write)
{
	struct ksmbd_write_req w;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_WRITE, b, sizeof(b));

	p64(b, 8, 4096);
	put_fid(b, 16);
	p32(b, 32, 1);
	p32(b, 36, 3);
	p32(b, 44, 0x2);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_write_decode(&req, &w), 0);
	CHECK_EQ_INT(w.offset, 4096);
	check_fid(w.pid, w.vid);
	CHECK_EQ_INT(w.channel, 1);
	CHECK_EQ_INT(w.remaining_bytes, 3);
	CHECK_EQ_INT(w.flags, 2);
	CHECK_EQ_INT(w.length, 16);
	CHECK(points_at(&w.data, b + 112, 16));
	CHECK_EQ_INT(w.channel_info.len, 0);

	/* A zero-length write: the data slice is empty whatever its offset. */
	p32(b, 4, 0);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_write_decode(&req, &w), 0);
	CHECK_EQ_INT(w.length, 0);
	CHECK_EQ_INT(w.data.len, 0);
}

TEST(lock)
{
	struct ksmbd_lock_elem e;
	struct ksmbd_lock_req lk;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_LOCK, b, sizeof(b));

	/* two elements: the StructureSize one and one more */
	p16(b, 2, 2);
	p32(b, 4, 0x50000003);
	put_fid(b, 8);
	p64(b, 24, 10);
	p64(b, 32, 20);
	p32(b, 40, 0x12);
	p64(b, 48, 0xffffffffffffff00ULL);
	p64(b, 56, 0x100);
	p32(b, 64, 0x4);
	len = 64 + 24 + 2 * 24;
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_lock_decode(&req, &lk), 0);
	CHECK_EQ_INT(lk.count, 2);
	CHECK_EQ_INT(lk.sequence, 0x50000003);
	check_fid(lk.pid, lk.vid);
	CHECK(ksmbd_lock_elem(&lk, 0, &e));
	CHECK_EQ_INT(e.offset, 10);
	CHECK_EQ_INT(e.length, 20);
	CHECK_EQ_INT(e.flags, 0x12);
	CHECK(ksmbd_lock_elem(&lk, 1, &e));
	CHECK_EQ_INT(e.offset, 0xffffffffffffff00ULL);
	CHECK_EQ_INT(e.length, 0x100);
	CHECK_EQ_INT(e.flags, 4);
	CHECK(!ksmbd_lock_elem(&lk, 2, &e));
	CHECK_EQ_INT(e.offset, 0);

	/* A count the slice does not hold (the gate never passes one). */
	lk.count = 3;
	CHECK(!ksmbd_lock_elem(&lk, 2, &e));
	req.buf[KSMBD_LOCK_ELEMENTS].len = 24;
	CHECK_EQ_INT(ksmbd_lock_decode(&req, &lk), -EINVAL);
}

TEST(ioctl)
{
	struct ksmbd_ioctl_req io;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_IOCTL, b, sizeof(b));

	put_fid(b, 8);
	p32(b, 32, 16);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_ioctl_decode(&req, &io), 0);
	CHECK_EQ_INT(io.ctl_code, 0x0011c017);
	check_fid(io.pid, io.vid);
	CHECK_EQ_INT(io.max_input_response, 16);
	CHECK_EQ_INT(io.max_output_response, 4096);
	CHECK_EQ_INT(io.flags, 1);
	CHECK(points_at(&io.input, b + 120, 8));
	CHECK_EQ_INT(io.output.len, 0);
}

TEST(query_directory)
{
	struct ksmbd_query_dir_req q;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_QUERY_DIRECTORY, b, sizeof(b));

	p8(b, 3, 0x05);
	p32(b, 4, 77);
	put_fid(b, 8);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_query_dir_decode(&req, &q), 0);
	CHECK_EQ_INT(q.info_class, 0x25);
	CHECK_EQ_INT(q.flags, 5);
	CHECK_EQ_INT(q.file_index, 77);
	check_fid(q.pid, q.vid);
	CHECK_EQ_INT(q.output_len, 65536);
	CHECK(points_at(&q.pattern, b + 96, 2));
}

TEST(change_notify)
{
	struct ksmbd_notify_req n;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_CHANGE_NOTIFY, b, sizeof(b));

	p16(b, 2, 1);
	put_fid(b, 8);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_notify_decode(&req, &n), 0);
	CHECK_EQ_INT(n.flags, 1);
	CHECK_EQ_INT(n.output_len, 4096);
	check_fid(n.pid, n.vid);
	CHECK_EQ_INT(n.completion_filter, 0x17);
}

TEST(query_info)
{
	struct ksmbd_query_info_req q;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_QUERY_INFO, b, sizeof(b));

	p32(b, 16, 0x7);
	p32(b, 20, 0x1);
	put_fid(b, 24);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_query_info_decode(&req, &q), 0);
	CHECK_EQ_INT(q.info_type, 1);
	CHECK_EQ_INT(q.info_class, 0x12);
	CHECK_EQ_INT(q.output_len, 4096);
	CHECK_EQ_INT(q.additional, 7);
	CHECK_EQ_INT(q.flags, 1);
	check_fid(q.pid, q.vid);
	CHECK(points_at(&q.input, b + 104, 8));
}

TEST(set_info)
{
	struct ksmbd_set_info_req s;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_SET_INFO, b, sizeof(b));

	p32(b, 12, 0x4);
	put_fid(b, 16);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_set_info_decode(&req, &s), 0);
	CHECK_EQ_INT(s.info_type, 1);
	CHECK_EQ_INT(s.info_class, 0x14);
	CHECK_EQ_INT(s.additional, 4);
	check_fid(s.pid, s.vid);
	CHECK(points_at(&s.buffer, b + 96, 8));
}

TEST(oplock_and_lease_ack)
{
	static const u8 key[16] = "0123456789abcdef";
	struct ksmbd_oplock_break_req ob;
	struct ksmbd_req req;
	u8 b[512];
	u32 len = sample_request(SMB2_OPLOCK_BREAK, b, sizeof(b));

	p8(b, 2, 0x01);
	put_fid(b, 8);
	CHECK(gate(b, len, &req));
	CHECK_EQ_INT(ksmbd_oplock_break_decode(&req, &ob), 0);
	CHECK(!ob.lease);
	CHECK_EQ_INT(ob.oplock_level, 1);
	check_fid(ob.pid, ob.vid);

	/* MS-SMB2 2.2.24.2: the 36-byte lease acknowledgment */
	memset(b + 64, 0, 36);
	p16(b, 0, 36);
	p32(b, 4, 0x9);
	memcpy(b + 64 + 8, key, 16);
	p32(b, 24, 0x5);
	p64(b, 28, 0x42);
	CHECK(gate(b, 64 + 36, &req));
	CHECK_EQ_INT(ksmbd_oplock_break_decode(&req, &ob), 0);
	CHECK(ob.lease);
	CHECK_EQ_INT(ob.lease_flags, 9);
	CHECK_EQ_MEM(ob.lease_key, key, 16);
	CHECK_EQ_INT(ob.lease_state, 5);
	CHECK_EQ_INT(ob.lease_duration, 0x42);
	CHECK_EQ_INT(ob.pid, 0);

	/* Cut to the oplock size: a lease ack must not read past it. */
	req.body.len = 24;
	CHECK_EQ_INT(ksmbd_oplock_break_decode(&req, &ob), -EINVAL);
	req.body.len = 36;
	p16(b, 0, 25);
	CHECK_EQ_INT(ksmbd_oplock_break_decode(&req, &ob), -EINVAL);
}

/* Every command decoder behind one signature, with its own out type. */
#define WRAP(name)							\
static int w_##name(const struct ksmbd_req *req, void *out)		\
{									\
	return ksmbd_##name##_decode(req, out);				\
}
WRAP(create) WRAP(close) WRAP(flush) WRAP(read) WRAP(write) WRAP(lock)
WRAP(ioctl) WRAP(query_dir) WRAP(notify) WRAP(query_info) WRAP(set_info)
WRAP(oplock_break)

static const struct {
	u16 cmd;
	u32 fixed;
	int (*fn)(const struct ksmbd_req *req, void *out);
} decoders[] = {
	{ SMB2_CREATE, 56, w_create },
	{ SMB2_CLOSE, 24, w_close },
	{ SMB2_FLUSH, 24, w_flush },
	{ SMB2_READ, 48, w_read },
	{ SMB2_WRITE, 48, w_write },
	{ SMB2_LOCK, 24, w_lock },
	{ SMB2_IOCTL, 56, w_ioctl },
	{ SMB2_QUERY_DIRECTORY, 32, w_query_dir },
	{ SMB2_CHANGE_NOTIFY, 32, w_notify },
	{ SMB2_QUERY_INFO, 40, w_query_info },
	{ SMB2_SET_INFO, 32, w_set_info },
	{ SMB2_OPLOCK_BREAK, 24, w_oplock_break },
};

/*
 * Each decoder takes its own command's valid element, refuses every other
 * command's, a body one byte short of its fixed part, and an empty req.
 */
TEST(foreign_short_and_empty_refused)
{
	union {
		struct ksmbd_create_req c;
		struct ksmbd_read_req r;
		struct ksmbd_write_req w;
		struct ksmbd_lock_req l;
		struct ksmbd_ioctl_req i;
		struct ksmbd_query_info_req q;
		struct ksmbd_oplock_break_req o;
		u8 pad[256];
	} out;
	struct ksmbd_req req, empty = { 0 };
	u32 i, j, len;
	u8 b[512];

	for (i = 0; i < ARRAY_SIZE(decoders); i++) {
		len = sample_request(decoders[i].cmd, b, sizeof(b));
		CHECK(gate(b, len, &req));
		for (j = 0; j < ARRAY_SIZE(decoders); j++)
			CHECK_EQ_INT(decoders[j].fn(&req, &out), i == j ? 0 : -EINVAL);
		req.body.len = decoders[i].fixed - 1;
		CHECK_EQ_INT(decoders[i].fn(&req, &out), -EINVAL);
		empty.hdr.command = decoders[i].cmd;
		CHECK_EQ_INT(decoders[i].fn(&empty, &out), -EINVAL);
	}
}

TEST(frame_lone_command_and_read_length)
{
	static const u16 chain[] = { SMB2_READ, SMB2_CLOSE };
	u8 b[1024];
	u32 len = sample_request(SMB2_CHANGE_NOTIFY, b, sizeof(b)), n;
	struct ksmbd_frame_read rd;
	u16 cmd = 0;

	CHECK(ksmbd_frame_lone_command(b, len, &cmd));
	CHECK_EQ_INT(cmd, SMB2_CHANGE_NOTIFY);
	CHECK(!ksmbd_frame_lone_command(b, 63, &cmd));
	CHECK(!ksmbd_frame_read_length(b, len, &n));
	b[0] = 0xfd;
	CHECK(!ksmbd_frame_lone_command(b, len, &cmd));

	len = sample_request(SMB2_READ, b, sizeof(b));
	CHECK(ksmbd_frame_read_length(b, len, &n));
	CHECK_EQ_INT(n, 65536);
	CHECK(ksmbd_frame_read_length(b, 72, &n));
	CHECK(!ksmbd_frame_read_length(b, 71, &n));

	/* A compound: not lone; its first READ still sizes the answer. */
	len = sample_compound(b, sizeof(b), chain, 2);
	CHECK(len > 0);
	CHECK(!ksmbd_frame_lone_command(b, len, &cmd));
	CHECK(ksmbd_frame_read_length(b, len, &n));
	CHECK_EQ_INT(n, 65536);
	CHECK(!ksmbd_frame_lone_read(b, len, &rd));
}

TEST(frame_lone_read)
{
	struct ksmbd_frame_read rd;
	u8 b[1024];
	u32 len = sample_request(SMB2_READ, b, sizeof(b));

	put_unaligned_le64(0x123456789aULL, b + 72);
	put_unaligned_le64(7, b + 80);
	put_unaligned_le64(0xfffffffe, b + 88);
	put_unaligned_le64(0x4400000000000011ULL, b + 40);
	CHECK(ksmbd_frame_lone_read(b, len, &rd));
	CHECK(rd.session_id == 0x4400000000000011ULL);
	CHECK_EQ_INT(rd.length, 65536);
	CHECK(rd.offset == 0x123456789aULL);
	CHECK(rd.persistent_id == 7);
	CHECK(rd.volatile_id == 0xfffffffe);
	/* the fields up to the volatile id, no further */
	CHECK(ksmbd_frame_lone_read(b, 64 + 32, &rd));
	CHECK(!ksmbd_frame_lone_read(b, 64 + 31, &rd));
	put_unaligned_le16(SMB2_WRITE, b + 12);
	CHECK(!ksmbd_frame_lone_read(b, len, &rd));
}

/* An SMB1 NEGOTIATE of the given dialect strings; returns its length. */
static u32 smb1_negotiate(u8 *b, const char *const *names, u32 n)
{
	u32 p = 35, i, l;

	memset(b, 0, 35);
	b[0] = 0xff; b[1] = 'S'; b[2] = 'M'; b[3] = 'B'; b[4] = 0x72;
	for (i = 0; i < n; i++) {
		l = (u32)strlen(names[i]) + 1;
		b[p] = 0x02;
		memcpy(b + p + 1, names[i], l);
		p += 1 + l;
	}
	put_unaligned_le16((u16)(p - 35), b + 33);
	return p;
}

TEST(smb1_negotiate_upgrade)
{
	static const char *const w[] = { "NT LM 0.12", "SMB 2.002", "SMB 2.???" };
	u8 b[128];
	u32 len = smb1_negotiate(b, w, 3);

	CHECK_EQ_INT(ksmbd_smb1_negotiate_offers_smb2(b, len), 1);
	len = smb1_negotiate(b, w, 2);
	CHECK_EQ_INT(ksmbd_smb1_negotiate_offers_smb2(b, len), 0);
	/* ByteCount past the frame; a name without its NUL; a bad marker */
	CHECK_EQ_INT(ksmbd_smb1_negotiate_offers_smb2(b, len - 1), -EINVAL);
	put_unaligned_le16(get_unaligned_le16(b + 33) - 1, b + 33);
	CHECK_EQ_INT(ksmbd_smb1_negotiate_offers_smb2(b, len), -EINVAL);
	len = smb1_negotiate(b, w, 3);
	b[35] = 0x03;
	CHECK_EQ_INT(ksmbd_smb1_negotiate_offers_smb2(b, len), -EINVAL);
	len = smb1_negotiate(b, w, 0);
	CHECK_EQ_INT(len, 35);
	CHECK_EQ_INT(ksmbd_smb1_negotiate_offers_smb2(b, len), 0);
	b[32] = 1;	/* WordCount must be 0 */
	CHECK_EQ_INT(ksmbd_smb1_negotiate_offers_smb2(b, len), -EINVAL);
	CHECK_EQ_INT(ksmbd_smb1_negotiate_offers_smb2(b, 34), -EINVAL);
}

/* ---- FSCTL inputs ---- */

static struct ksmbd_buf mk(const u8 *p, u32 len)
{
	return ksmbd_buf_make(p, len);
}

TEST(fsctl_validate_negotiate)
{
	struct ksmbd_fsctl_validate_negotiate v;
	struct ksmbd_buf in;
	u8 b[64] = { 0 };
	u32 i;

	put_unaligned_le32(0x7f, b);
	for (i = 0; i < 16; i++)
		b[4 + i] = (u8)(0xa0 + i);
	put_unaligned_le16(1, b + 20);
	put_unaligned_le16(2, b + 22);
	put_unaligned_le16(0x0300, b + 24);
	put_unaligned_le16(0x0302, b + 26);
	in = mk(b, 28);
	CHECK_EQ_INT(ksmbd_fsctl_validate_negotiate_decode(&in, &v), 0);
	CHECK_EQ_INT(v.capabilities, 0x7f);
	CHECK_EQ_MEM(v.guid, b + 4, 16);
	CHECK_EQ_INT(v.security_mode, 1);
	CHECK_EQ_INT(v.dialect_count, 2);
	CHECK_EQ_INT(ksmbd_fsctl_vneg_dialect(&v, 0), 0x0300);
	CHECK_EQ_INT(ksmbd_fsctl_vneg_dialect(&v, 1), 0x0302);
	CHECK_EQ_INT(ksmbd_fsctl_vneg_dialect(&v, 2), 0);

	in.len = 27;	/* the second dialect cut */
	CHECK_EQ_INT(ksmbd_fsctl_validate_negotiate_decode(&in, &v), -EINVAL);
	in.len = 23;
	CHECK_EQ_INT(ksmbd_fsctl_validate_negotiate_decode(&in, &v), -EINVAL);
	put_unaligned_le16(0xffff, b + 22);
	in.len = sizeof(b);
	CHECK_EQ_INT(ksmbd_fsctl_validate_negotiate_decode(&in, &v), -EINVAL);
	put_unaligned_le16(0, b + 22);
	in.len = 24;
	CHECK_EQ_INT(ksmbd_fsctl_validate_negotiate_decode(&in, &v), 0);
	CHECK_EQ_INT(v.dialect_count, 0);
}

TEST(fsctl_copychunk)
{
	struct ksmbd_fsctl_copychunk cc;
	struct ksmbd_copychunk_entry e;
	struct ksmbd_buf in;
	u8 b[32 + 3 * 24] = { 0 };
	u64 pid, vid;

	put_unaligned_le64(0x1234, b);
	put_unaligned_le64(0x5678, b + 8);
	put_unaligned_le32(2, b + 24);
	put_unaligned_le64(100, b + 32);
	put_unaligned_le64(200, b + 40);
	put_unaligned_le32(4096, b + 48);
	put_unaligned_le64(0x7fffffffffffffffULL, b + 56);
	put_unaligned_le64(1, b + 64);
	put_unaligned_le32(1, b + 72);
	in = mk(b, 32 + 2 * 24);
	CHECK_EQ_INT(ksmbd_fsctl_copychunk_decode(&in, &cc), 0);
	CHECK_EQ_INT(cc.count, 2);
	CHECK(points_at(&cc.chunks, b + 32, 48));
	ksmbd_resume_key_ids(cc.source_key, &pid, &vid);
	CHECK_EQ_INT(pid, 0x1234);
	CHECK_EQ_INT(vid, 0x5678);
	CHECK(ksmbd_fsctl_copychunk_entry(&cc, 0, &e));
	CHECK_EQ_INT(e.source_offset, 100);
	CHECK_EQ_INT(e.target_offset, 200);
	CHECK_EQ_INT(e.length, 4096);
	CHECK(ksmbd_fsctl_copychunk_entry(&cc, 1, &e));
	CHECK_EQ_INT(e.source_offset, 0x7fffffffffffffffULL);
	CHECK_EQ_INT(e.length, 1);
	CHECK(!ksmbd_fsctl_copychunk_entry(&cc, 2, &e));

	/* Extra bytes after the chunks are not chunks. */
	in.len = sizeof(b);
	CHECK_EQ_INT(ksmbd_fsctl_copychunk_decode(&in, &cc), 0);
	CHECK_EQ_INT(cc.chunks.len, 48);
	in.len = 32 + 2 * 24 - 1;
	CHECK_EQ_INT(ksmbd_fsctl_copychunk_decode(&in, &cc), -EINVAL);
	in.len = 31;
	put_unaligned_le32(0, b + 24);
	CHECK_EQ_INT(ksmbd_fsctl_copychunk_decode(&in, &cc), -EINVAL);
	in.len = 32;
	CHECK_EQ_INT(ksmbd_fsctl_copychunk_decode(&in, &cc), 0);
	CHECK_EQ_INT(cc.count, 0);
	/* A count whose size wraps 32 bits is refused, not wrapped. */
	put_unaligned_le32(0xaaaaaaab, b + 24);
	in.len = sizeof(b);
	CHECK_EQ_INT(ksmbd_fsctl_copychunk_decode(&in, &cc), -EINVAL);
}

TEST(fsctl_fixed_inputs)
{
	struct ksmbd_fsctl_duplicate_extents d;
	struct ksmbd_fsctl_zero_data z;
	struct ksmbd_fsctl_range r;
	struct ksmbd_buf in;
	u8 b[40];
	u16 fmt;
	u32 i;

	for (i = 0; i < 5; i++)
		put_unaligned_le64(0x100 + i, b + 8 * i);
	in = mk(b, 40);
	CHECK_EQ_INT(ksmbd_fsctl_duplicate_extents_decode(&in, &d), 0);
	CHECK_EQ_INT(d.source_pid, 0x100);
	CHECK_EQ_INT(d.source_vid, 0x101);
	CHECK_EQ_INT(d.source_offset, 0x102);
	CHECK_EQ_INT(d.target_offset, 0x103);
	CHECK_EQ_INT(d.byte_count, 0x104);
	in.len = 39;
	CHECK_EQ_INT(ksmbd_fsctl_duplicate_extents_decode(&in, &d), -EINVAL);

	in.len = 16;
	CHECK_EQ_INT(ksmbd_fsctl_zero_data_decode(&in, &z), 0);
	CHECK_EQ_INT(z.offset, 0x100);
	CHECK_EQ_INT(z.beyond_final_zero, 0x101);
	CHECK_EQ_INT(ksmbd_fsctl_allocated_ranges_decode(&in, &r), 0);
	CHECK_EQ_INT(r.offset, 0x100);
	CHECK_EQ_INT(r.length, 0x101);
	in.len = 15;
	CHECK_EQ_INT(ksmbd_fsctl_zero_data_decode(&in, &z), -EINVAL);
	CHECK_EQ_INT(ksmbd_fsctl_allocated_ranges_decode(&in, &r), -EINVAL);

	put_unaligned_le16(1, b);
	in.len = 2;
	CHECK_EQ_INT(ksmbd_fsctl_set_compression_decode(&in, &fmt), 0);
	CHECK_EQ_INT(fmt, 1);
	in.len = 1;
	CHECK_EQ_INT(ksmbd_fsctl_set_compression_decode(&in, &fmt), -EINVAL);
	in.len = 0;
	CHECK_EQ_INT(ksmbd_fsctl_set_compression_decode(&in, &fmt), -EINVAL);
}

/* ---- SET_INFO classes ---- */

TEST(setinfo_basic)
{
	struct ksmbd_info_basic bi;
	struct ksmbd_buf in;
	u8 b[40] = { 0 };

	put_unaligned_le64(1, b);
	put_unaligned_le64(2, b + 8);
	put_unaligned_le64(3, b + 16);
	put_unaligned_le64(0xffffffffffffffffULL, b + 24);
	put_unaligned_le32(0x20, b + 32);
	in = mk(b, 40);
	CHECK_EQ_INT(ksmbd_setinfo_basic_decode(&in, &bi), 0);
	CHECK_EQ_INT(bi.creation_time, 1);
	CHECK_EQ_INT(bi.last_access_time, 2);
	CHECK_EQ_INT(bi.last_write_time, 3);
	CHECK_EQ_INT(bi.change_time, 0xffffffffffffffffULL);
	CHECK_EQ_INT(bi.attributes, 0x20);
	in.len = 36;	/* without Reserved, as Windows accepts */
	CHECK_EQ_INT(ksmbd_setinfo_basic_decode(&in, &bi), 0);
	in.len = 35;
	CHECK_EQ_INT(ksmbd_setinfo_basic_decode(&in, &bi), -EMSGSIZE);
}

TEST(setinfo_rename)
{
	struct ksmbd_info_rename r;
	struct ksmbd_buf in;
	u8 b[32] = { 0 };

	b[0] = 1;
	put_unaligned_le32(6, b + 16);
	memcpy(b + 20, "a\0b\0c\0", 6);
	in = mk(b, 26);
	CHECK_EQ_INT(ksmbd_setinfo_rename_decode(&in, &r), 0);
	CHECK(r.replace);
	CHECK_EQ_INT(r.root_directory, 0);
	CHECK(points_at(&r.name, b + 20, 6));
	put_unaligned_le64(9, b + 8);
	CHECK_EQ_INT(ksmbd_setinfo_rename_decode(&in, &r), 0);
	CHECK_EQ_INT(r.root_directory, 9);

	in.len = 25;
	CHECK_EQ_INT(ksmbd_setinfo_rename_decode(&in, &r), -EINVAL);
	put_unaligned_le32(0, b + 16);
	CHECK_EQ_INT(ksmbd_setinfo_rename_decode(&in, &r), -EINVAL);
	put_unaligned_le32(0xffffffff, b + 16);
	CHECK_EQ_INT(ksmbd_setinfo_rename_decode(&in, &r), -EINVAL);
	in.len = 19;
	CHECK_EQ_INT(ksmbd_setinfo_rename_decode(&in, &r), -EMSGSIZE);
}

TEST(setinfo_small_classes)
{
	struct ksmbd_buf in;
	u8 b[8];
	bool on;
	u32 v32;
	u64 v64;

	put_unaligned_le64(0x8000000000000001ULL, b);
	in = mk(b, 8);
	CHECK_EQ_INT(ksmbd_setinfo_eof_decode(&in, &v64), 0);
	CHECK_EQ_INT(v64, 0x8000000000000001ULL);
	CHECK_EQ_INT(ksmbd_setinfo_allocation_decode(&in, &v64), 0);
	CHECK_EQ_INT(ksmbd_setinfo_position_decode(&in, &v64), 0);
	CHECK_EQ_INT(ksmbd_setinfo_mode_decode(&in, &v32), 0);
	CHECK_EQ_INT(v32, 1);
	CHECK_EQ_INT(ksmbd_setinfo_disposition_ex_decode(&in, &v32), 0);
	CHECK_EQ_INT(v32, 1);
	CHECK_EQ_INT(ksmbd_setinfo_disposition_decode(&in, &on), 0);
	CHECK(on);
	b[0] = 0;
	CHECK_EQ_INT(ksmbd_setinfo_disposition_decode(&in, &on), 0);
	CHECK(!on);

	in.len = 7;
	CHECK_EQ_INT(ksmbd_setinfo_eof_decode(&in, &v64), -EMSGSIZE);
	CHECK_EQ_INT(ksmbd_setinfo_allocation_decode(&in, &v64), -EMSGSIZE);
	CHECK_EQ_INT(ksmbd_setinfo_position_decode(&in, &v64), -EMSGSIZE);
	in.len = 3;
	CHECK_EQ_INT(ksmbd_setinfo_mode_decode(&in, &v32), -EMSGSIZE);
	CHECK_EQ_INT(ksmbd_setinfo_disposition_ex_decode(&in, &v32), -EMSGSIZE);
	in.len = 0;
	CHECK_EQ_INT(ksmbd_setinfo_disposition_decode(&in, &on), -EMSGSIZE);
}

/* ---- Create context data, QUERY_INFO EA list ---- */

TEST(ctx_alloc_size_and_app_instance)
{
	u8 b[20] = { 0 }, id[16];
	struct ksmbd_buf in = mk(b, 8);
	u64 size;
	u32 i;

	put_unaligned_le64(0x123456789ULL, b);
	CHECK_EQ_INT(ksmbd_ctx_alloc_size_decode(&in, &size), 0);
	CHECK_EQ_INT(size, 0x123456789ULL);
	in.len = 7;
	CHECK_EQ_INT(ksmbd_ctx_alloc_size_decode(&in, &size), -EINVAL);

	/* MS-SMB2 2.2.13.2.13: StructureSize 20, Reserved, the id */
	put_unaligned_le16(20, b);
	put_unaligned_le16(0, b + 2);
	for (i = 0; i < 16; i++)
		b[4 + i] = (u8)(0x30 + i);
	in.len = 20;
	CHECK_EQ_INT(ksmbd_ctx_app_instance_decode(&in, id), 0);
	CHECK_EQ_MEM(id, b + 4, 16);
	in.len = 19;
	CHECK_EQ_INT(ksmbd_ctx_app_instance_decode(&in, id), -EINVAL);
	in.len = 20;
	put_unaligned_le16(24, b);
	CHECK_EQ_INT(ksmbd_ctx_app_instance_decode(&in, id), -EINVAL);
}

TEST(ctx_lease)
{
	struct ksmbd_lease_ctx lc;
	struct ksmbd_buf in;
	u8 b[52];
	u32 i;

	/* MS-SMB2 2.2.13.2.10: key, state, flags, duration, parent, epoch */
	for (i = 0; i < 16; i++) {
		b[i] = (u8)(0x10 + i);
		b[32 + i] = (u8)(0x80 + i);
	}
	put_unaligned_le32(0x7, b + 16);
	put_unaligned_le32(0x4, b + 20);
	put_unaligned_le64(0x99, b + 24);
	put_unaligned_le16(3, b + 48);
	put_unaligned_le16(0, b + 50);
	in = mk(b, 52);
	CHECK_EQ_INT(ksmbd_ctx_lease_decode(&in, true, &lc), 0);
	CHECK_EQ_INT(lc.version, 2);
	CHECK_EQ_MEM(lc.key, b, 16);
	CHECK_EQ_INT(lc.state, 7);
	CHECK_EQ_INT(lc.flags, 4);
	CHECK_EQ_INT(lc.duration, 0x99);
	CHECK_EQ_MEM(lc.parent_key, b + 32, 16);
	CHECK_EQ_INT(lc.epoch, 3);

	/* Not allowed v2, or cut below it: v1, nothing of v2 read. */
	CHECK_EQ_INT(ksmbd_ctx_lease_decode(&in, false, &lc), 0);
	CHECK_EQ_INT(lc.version, 1);
	CHECK_EQ_INT(lc.epoch, 0);
	CHECK_EQ_INT(lc.state, 7);
	in.len = 51;
	CHECK_EQ_INT(ksmbd_ctx_lease_decode(&in, true, &lc), 0);
	CHECK_EQ_INT(lc.version, 1);
	in.len = 32;
	CHECK_EQ_INT(ksmbd_ctx_lease_decode(&in, true, &lc), 0);
	CHECK_EQ_INT(lc.version, 1);
	CHECK_EQ_MEM(lc.key, b, 16);
	in.len = 31;
	CHECK_EQ_INT(ksmbd_ctx_lease_decode(&in, true, &lc), -EINVAL);
}

TEST(get_ea_list)
{
	struct ksmbd_buf list, name;
	u8 b[32] = { 0 };
	u32 next;

	/* MS-FSCC 2.4.15.1: NextEntryOffset, EaNameLength, EaName, NUL */
	put_unaligned_le32(12, b);
	b[4] = 3;
	memcpy(b + 5, "abc", 4);
	b[12 + 4] = 2;
	memcpy(b + 12 + 5, "xy", 3);
	list = mk(b, 20);
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 0, &name, &next), 0);
	CHECK(points_at(&name, b + 5, 3));
	CHECK_EQ_INT(next, 12);
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 12, &name, &next), 0);
	CHECK(points_at(&name, b + 17, 2));
	CHECK_EQ_INT(next, 0);

	/* A next past the list ends it; a name past it is refused. */
	put_unaligned_le32(21, b);
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 0, &name, &next), 0);
	CHECK_EQ_INT(next, 0);
	put_unaligned_le32(20, b);
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 0, &name, &next), 0);
	CHECK_EQ_INT(next, 20);
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 20, &name, &next), -EINVAL);
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 16, &name, &next), -EINVAL);
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 0xffffffff, &name, &next), -EINVAL);
	b[12 + 4] = 4;
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 12, &name, &next), -EINVAL);
	list.len = 4;
	CHECK_EQ_INT(ksmbd_get_ea_entry(&list, 0, &name, &next), -EINVAL);
}

int main(void)
{
	RUN(create);
	RUN(close_flush);
	RUN(read);
	RUN(write);
	RUN(lock);
	RUN(ioctl);
	RUN(query_directory);
	RUN(change_notify);
	RUN(query_info);
	RUN(set_info);
	RUN(oplock_and_lease_ack);
	RUN(foreign_short_and_empty_refused);
	RUN(frame_lone_command_and_read_length);
	RUN(frame_lone_read);
	RUN(smb1_negotiate_upgrade);
	RUN(fsctl_validate_negotiate);
	RUN(fsctl_copychunk);
	RUN(fsctl_fixed_inputs);
	RUN(setinfo_basic);
	RUN(setinfo_rename);
	RUN(setinfo_small_classes);
	RUN(ctx_alloc_size_and_app_instance);
	RUN(ctx_lease);
	RUN(get_ea_list);
	return test_report();
}
