// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The validation gate: frame checks, compound walk, and for every command
 * the minimal valid request, every truncation, wrong StructureSize, every
 * offset/length pair out of its element, counts, limits and credit charge.
 */
#include "testlib.h"
#include "proto/validate.h"
#include "samples.h"

#include <stdlib.h>

static const struct ksmbd_req_limits lim = {
	.max_read = 8 << 20, .max_write = 8 << 20, .max_trans = 8 << 20,
	.multi_credit = true,
};

/* Body bytes that must be present, from MS-SMB2 2.2 (not the library). */
static const u16 fixed_of[SMB2_COMMAND_COUNT] = {
	[SMB2_NEGOTIATE] = 36, [SMB2_SESSION_SETUP] = 24, [SMB2_LOGOFF] = 4,
	[SMB2_TREE_CONNECT] = 8, [SMB2_TREE_DISCONNECT] = 4, [SMB2_CREATE] = 56,
	[SMB2_CLOSE] = 24, [SMB2_FLUSH] = 24, [SMB2_READ] = 48, [SMB2_WRITE] = 48,
	[SMB2_LOCK] = 48, [SMB2_IOCTL] = 56, [SMB2_CANCEL] = 4, [SMB2_ECHO] = 4,
	[SMB2_QUERY_DIRECTORY] = 32, [SMB2_CHANGE_NOTIFY] = 32,
	[SMB2_QUERY_INFO] = 40, [SMB2_SET_INFO] = 32, [SMB2_OPLOCK_BREAK] = 24,
};

struct pair {
	u16 cmd;
	u8 off_at, off_w, len_at, len_w;	/* body offsets */
	u32 vfixed;				/* where Buffer starts (body) */
};

static const struct pair pairs[] = {
	{ SMB2_SESSION_SETUP,	12, 2, 14, 2, 24 },
	{ SMB2_TREE_CONNECT,	4, 2, 6, 2, 8 },
	{ SMB2_CREATE,		44, 2, 46, 2, 56 },
	{ SMB2_CREATE,		48, 4, 52, 4, 56 },
	{ SMB2_READ,		44, 2, 46, 2, 48 },
	{ SMB2_WRITE,		2, 2, 4, 4, 48 },
	{ SMB2_WRITE,		40, 2, 42, 2, 48 },
	{ SMB2_IOCTL,		24, 4, 28, 4, 56 },
	{ SMB2_IOCTL,		36, 4, 40, 4, 56 },
	{ SMB2_QUERY_DIRECTORY,	24, 2, 26, 2, 32 },
	{ SMB2_QUERY_INFO,	8, 2, 12, 4, 40 },
	{ SMB2_SET_INFO,	8, 2, 4, 4, 32 },
};

static void put_field(u8 *b, u32 at, u32 w, u32 v)
{
	if (w == 2)
		put_unaligned_le16((u16)v, b + at);
	else
		put_unaligned_le32(v, b + at);
}

static enum ksmbd_valid run(const u8 *b, u32 len)
{
	struct ksmbd_req req;

	return ksmbd_request_validate(b, len, &lim, &req);
}

TEST(reason_names_and_statuses)
{
	int i, j;

	for (i = 0; i < KSMBD_VALID_COUNT; i++) {
		CHECK(ksmbd_valid_name(i) != NULL);
		for (j = 0; j < i; j++)
			CHECK(strcmp(ksmbd_valid_name(i), ksmbd_valid_name(j)));
		if (i)
			CHECK_EQ_INT(ksmbd_valid_status(i), STATUS_INVALID_PARAMETER);
	}
	CHECK_EQ_STR(ksmbd_valid_name(KSMBD_VALID_BAD_OFFSET), "BAD_OFFSET");
	CHECK_EQ_INT(ksmbd_valid_status(KSMBD_VALID_OK), STATUS_SUCCESS);
	CHECK(ksmbd_valid_is_fatal(KSMBD_VALID_BAD_NEXT_COMMAND));
	CHECK(!ksmbd_valid_is_fatal(KSMBD_VALID_BAD_LENGTH));
	CHECK_EQ_STR(ksmbd_valid_name(KSMBD_VALID_COUNT + 5), "UNKNOWN");
}

TEST(rfc1002_length)
{
	u8 h[4] = { 0, 0, 0x10, 0 };
	u32 len;

	CHECK_EQ_INT(ksmbd_frame_check_length(h, 65536, &len), KSMBD_VALID_OK);
	CHECK_EQ_INT(len, 0x1000);
	CHECK_EQ_INT(ksmbd_frame_check_length(h, 0xfff, &len), KSMBD_VALID_FRAME_TOO_LONG);
	h[0] = 0x85;
	CHECK_EQ_INT(ksmbd_frame_check_length(h, 65536, &len), KSMBD_VALID_BAD_RFC1002_TYPE);
	h[0] = 0; h[2] = 0; h[3] = 0;
	CHECK_EQ_INT(ksmbd_frame_check_length(h, 65536, &len), KSMBD_VALID_FRAME_TOO_SHORT);
	h[3] = 15;
	CHECK_EQ_INT(ksmbd_frame_check_length(h, 65536, &len), KSMBD_VALID_FRAME_TOO_SHORT);
	h[1] = 0xff; h[2] = 0xff; h[3] = 0xff;
	CHECK_EQ_INT(ksmbd_frame_check_length(h, 0x00ffffff, &len), KSMBD_VALID_OK);
	CHECK_EQ_INT(len, 0x00ffffff);
}

TEST(classify)
{
	u8 b[512];
	enum ksmbd_frame_kind k;
	u32 len = sample_request(SMB2_ECHO, b, sizeof(b));

	CHECK_EQ_INT(ksmbd_frame_classify(b, len, &k), KSMBD_VALID_OK);
	CHECK_EQ_INT(k, KSMBD_FRAME_SMB2);
	CHECK_EQ_INT(ksmbd_frame_classify(b, 63, &k), KSMBD_VALID_FRAME_TOO_SHORT);
	CHECK_EQ_INT(ksmbd_frame_classify(b, 3, &k), KSMBD_VALID_FRAME_TOO_SHORT);
	b[0] = 0xfb;
	CHECK_EQ_INT(ksmbd_frame_classify(b, len, &k), KSMBD_VALID_BAD_PROTOCOL_ID);
	b[0] = 0xfe; b[3] = 'X';
	CHECK_EQ_INT(ksmbd_frame_classify(b, len, &k), KSMBD_VALID_BAD_PROTOCOL_ID);

	/* SMB1: only NEGOTIATE is recognised */
	memset(b, 0, 64);
	b[0] = 0xff; b[1] = 'S'; b[2] = 'M'; b[3] = 'B'; b[4] = 0x72;
	CHECK_EQ_INT(ksmbd_frame_classify(b, 40, &k), KSMBD_VALID_OK);
	CHECK_EQ_INT(k, KSMBD_FRAME_SMB1_NEGOTIATE);
	CHECK_EQ_INT(ksmbd_frame_classify(b, 34, &k), KSMBD_VALID_FRAME_TOO_SHORT);
	b[4] = 0x73;
	CHECK_EQ_INT(ksmbd_frame_classify(b, 40, &k), KSMBD_VALID_BAD_PROTOCOL_ID);
}

TEST(classify_transform)
{
	u8 b[52 + 68];
	enum ksmbd_frame_kind k;

	memset(b, 0, sizeof(b));
	b[0] = 0xfd; b[1] = 'S'; b[2] = 'M'; b[3] = 'B';
	put_unaligned_le32(68, b + 36);
	put_unaligned_le16(1, b + 42);
	CHECK_EQ_INT(ksmbd_frame_classify(b, sizeof(b), &k), KSMBD_VALID_OK);
	CHECK_EQ_INT(k, KSMBD_FRAME_TRANSFORM);
	/* row 28: no shorter than the transform header */
	CHECK_EQ_INT(ksmbd_frame_classify(b, 52, &k), KSMBD_VALID_FRAME_TOO_SHORT);
	CHECK_EQ_INT(ksmbd_frame_classify(b, 40, &k), KSMBD_VALID_FRAME_TOO_SHORT);
	put_unaligned_le32(69, b + 36);
	CHECK_EQ_INT(ksmbd_frame_classify(b, sizeof(b), &k), KSMBD_VALID_BAD_TRANSFORM);
	put_unaligned_le32(68, b + 36);
	CHECK_EQ_INT(ksmbd_frame_classify(b, sizeof(b) - 8, &k), KSMBD_VALID_BAD_TRANSFORM);
	put_unaligned_le16(0, b + 42);
	CHECK_EQ_INT(ksmbd_frame_classify(b, sizeof(b), &k), KSMBD_VALID_BAD_TRANSFORM);
}

TEST(classify_compression)
{
	u8 b[64];
	enum ksmbd_frame_kind k;

	memset(b, 0, sizeof(b));
	b[0] = 0xfc; b[1] = 'S'; b[2] = 'M'; b[3] = 'B';
	put_unaligned_le32(4096, b + 4);
	put_unaligned_le16(SMB2_COMPRESSION_LZ77, b + 8);
	put_unaligned_le32(0, b + 12);
	CHECK_EQ_INT(ksmbd_frame_classify(b, sizeof(b), &k), KSMBD_VALID_OK);
	CHECK_EQ_INT(k, KSMBD_FRAME_COMPRESSED);
	CHECK_EQ_INT(ksmbd_frame_classify(b, 15, &k), KSMBD_VALID_FRAME_TOO_SHORT);
	put_unaligned_le32(49, b + 12);
	CHECK_EQ_INT(ksmbd_frame_classify(b, sizeof(b), &k), KSMBD_VALID_BAD_COMPRESSION);
	put_unaligned_le32(0, b + 12);
	put_unaligned_le16(9, b + 8);
	CHECK_EQ_INT(ksmbd_frame_classify(b, sizeof(b), &k), KSMBD_VALID_BAD_COMPRESSION);
	put_unaligned_le16(SMB2_COMPRESSION_LZ77, b + 8);
	put_unaligned_le32(0x7fffffff, b + 4);
	CHECK_EQ_INT(ksmbd_frame_classify(b, sizeof(b), &k), KSMBD_VALID_BAD_COMPRESSION);
}

TEST(every_command_minimal_valid)
{
	u8 b[512];
	struct ksmbd_req req;
	u16 c;

	for (c = 0; c < SMB2_COMMAND_COUNT; c++) {
		u32 len = sample_request(c, b, sizeof(b));
		enum ksmbd_valid v = ksmbd_request_validate(b, len, &lim, &req);

		if (v != KSMBD_VALID_OK)
			test_fail_("command %u: %s", c, ksmbd_valid_name(v));
		CHECK_EQ_INT(req.hdr.command, c);
		CHECK_EQ_INT(req.hdr.message_id, 7);
		CHECK_EQ_INT(req.hdr.tree_id, 1);
	}
}

TEST(every_command_cut_at_every_byte)
{
	u8 b[512];
	u16 c;
	u32 cut;

	for (c = 0; c < SMB2_COMMAND_COUNT; c++) {
		sample_request(c, b, sizeof(b));
		for (cut = 0; cut < 64u + fixed_of[c]; cut++) {
			u8 *copy = malloc(cut ? cut : 1);	/* ASan sees overreads */
			enum ksmbd_valid v;

			memcpy(copy, b, cut);
			v = run(copy, cut);
			free(copy);
			if (v != KSMBD_VALID_TOO_SHORT)
				test_fail_("command %u cut at %u: %s", c, cut,
					   ksmbd_valid_name(v));
		}
	}
}

TEST(every_command_wrong_structure_size)
{
	u8 b[512];
	u16 c;

	for (c = 0; c < SMB2_COMMAND_COUNT; c++) {
		u32 len = sample_request(c, b, sizeof(b));
		u16 ss = get_unaligned_le16(b + 64);

		put_unaligned_le16(ss + 2, b + 64);
		CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_STRUCTURE_SIZE);
		put_unaligned_le16(ss - 1, b + 64);
		CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_STRUCTURE_SIZE);
		/* row 23: SESSION_SETUP with StructureSize 1 */
		put_unaligned_le16(1, b + 64);
		CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_STRUCTURE_SIZE);
	}
}

TEST(header_checks)
{
	u8 b[512];
	u32 len = sample_request(SMB2_ECHO, b, sizeof(b));

	put_unaligned_le16(0x13, b + 12);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_COMMAND);
	put_unaligned_le16(0xffff, b + 12);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_COMMAND);
	put_unaligned_le16(SMB2_ECHO, b + 12);
	put_unaligned_le16(65, b + 4);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_HEADER_SIZE);
	put_unaligned_le16(64, b + 4);
	b[0] = 0xfd;
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_PROTOCOL_ID);
}

/* Each offset/length pair: into the fixed part, past the element, overflow. */
TEST(every_offset_length_pair)
{
	u8 b[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		const struct pair *p = &pairs[i];
		u32 len = sample_request(p->cmd, b, sizeof(b));
		u32 fixed_end = 64 + p->vfixed;
		u8 *body = b + 64;
		u32 max_off = p->off_w == 2 ? 0xffff : 0xffffffff;
		u32 max_len = p->len_w == 2 ? 0xffff : 0xffffffff;

		/* a 2-byte buffer right after the fixed part is fine */
		put_field(body, p->off_at, p->off_w, fixed_end);
		put_field(body, p->len_at, p->len_w, 2);
		if (p->cmd == SMB2_CREATE && p->off_at == 48)
			goto skip_ok;	/* contexts need 8-byte alignment */
		if (run(b, len) != KSMBD_VALID_OK)
			test_fail_("pair %zu in-bounds: %s", i,
				   ksmbd_valid_name(run(b, len)));
skip_ok:
		put_field(body, p->off_at, p->off_w, fixed_end - 2);
		if (run(b, len) != KSMBD_VALID_BAD_OFFSET)
			test_fail_("pair %zu into fixed part: %s", i,
				   ksmbd_valid_name(run(b, len)));
		put_field(body, p->off_at, p->off_w, 0);
		CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);
		put_field(body, p->off_at, p->off_w, (len + 8) & ~7u);
		if (run(b, len) != KSMBD_VALID_BAD_OFFSET)
			test_fail_("pair %zu past element: %s", i,
				   ksmbd_valid_name(run(b, len)));
		put_field(body, p->off_at, p->off_w, max_off & ~7u);
		CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);

		/* length running past the element, and wrapping 32 bits */
		put_field(body, p->off_at, p->off_w, fixed_end);
		put_field(body, p->len_at, p->len_w, (len - fixed_end + 2) & ~1u);
		if (run(b, len) != KSMBD_VALID_BAD_LENGTH)
			test_fail_("pair %zu length past element: %s", i,
				   ksmbd_valid_name(run(b, len)));
		put_field(body, p->len_at, p->len_w, max_len & ~1u);
		if (run(b, len) != KSMBD_VALID_BAD_LENGTH)
			test_fail_("pair %zu length overflow: %s", i,
				   ksmbd_valid_name(run(b, len)));
	}
}

TEST(buffers_point_into_element)
{
	u8 b[512];
	struct ksmbd_req req;
	u32 len = sample_request(SMB2_WRITE, b, sizeof(b));

	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req), KSMBD_VALID_OK);
	CHECK(req.buf[KSMBD_WRITE_DATA].p == b + 112);
	CHECK_EQ_INT(req.buf[KSMBD_WRITE_DATA].len, 16);
	CHECK_EQ_INT(req.buf[KSMBD_WRITE_CHANNEL].len, 0);

	len = sample_request(SMB2_CREATE, b, sizeof(b));
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req), KSMBD_VALID_OK);
	CHECK(req.buf[KSMBD_CREATE_NAME].p == b + 120);
	CHECK_EQ_INT(req.buf[KSMBD_CREATE_NAME].len, 10);
	CHECK_EQ_INT(req.buf[KSMBD_CREATE_CONTEXTS].len, 64);
}

TEST(write_rows_9_11_24)
{
	u8 b[512];
	u32 len = sample_request(SMB2_WRITE, b, sizeof(b));

	/* row 11: DataOffset 0 with a huge Length */
	put_unaligned_le16(0, b + 66);
	put_unaligned_le32(0x100000, b + 68);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);
	/* row 9: Length past the PDU without padding */
	put_unaligned_le16(112, b + 66);
	put_unaligned_le32(17, b + 68);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_LENGTH);
	/* row 24: the element ends before the data does (NextCommand short) */
	put_unaligned_le32(16, b + 68);
	CHECK_EQ_INT(run(b, 120), KSMBD_VALID_BAD_LENGTH);
	CHECK_EQ_INT(run(b, 128), KSMBD_VALID_OK);
}

/* A large WRITE whose payload may stay in the socket until it is checked. */
TEST(write_streamable)
{
	const u32 data = KSMBD_WRITE_STREAM_MIN, len = KSMBD_WRITE_STREAM_HEAD + data;
	u8 *b = calloc(1, len + 1);
	u8 head[KSMBD_WRITE_STREAM_HEAD];

	CHECK_EQ_INT(KSMBD_WRITE_STREAM_HEAD, 112);
	sample_request(SMB2_WRITE, b, len);
	put_unaligned_le16(112, b + 66);
	put_unaligned_le32(data, b + 68);
	put_unaligned_le16(1, b + 6);		/* CreditCharge for 64 KiB */
	CHECK(ksmbd_write_streamable(b, len));
	/* what it lets through is a WRITE the gate takes once it is whole */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_OK);
	/* a payload smaller than the minimum is received whole */
	put_unaligned_le32(data - 1, b + 68);
	CHECK(!ksmbd_write_streamable(b, len - 1));
	/* Length must run exactly to the end of the frame */
	CHECK(!ksmbd_write_streamable(b, len));
	put_unaligned_le32(data + 1, b + 68);
	CHECK(!ksmbd_write_streamable(b, len));
	put_unaligned_le32(data, b + 68);
	/* each field of the head, one at a time */
	memcpy(head, b, sizeof(head));
#define ONE(at, val, w) do {						\
		memcpy(b, head, sizeof(head));				\
		if (w == 1)						\
			b[at] = val;					\
		else if (w == 2)					\
			put_unaligned_le16(val, b + (at));		\
		else							\
			put_unaligned_le32(val, b + (at));		\
		CHECK(!ksmbd_write_streamable(b, len));			\
	} while (0)
	ONE(0, 0xfd, 1);			/* transform header */
	ONE(0, 0xfc, 1);			/* compression header */
	ONE(3, 'X', 1);
	ONE(4, 65, 2);				/* header StructureSize */
	ONE(12, SMB2_READ, 2);
	ONE(20, 0x80, 4);			/* NextCommand: a compound */
	ONE(16, SMB2_FLAGS_SIGNED, 4);		/* verified whole, first */
	ONE(64, 48, 2);				/* WRITE StructureSize */
	ONE(66, 120, 2);			/* DataOffset past the head */
	ONE(66, 0, 2);
#undef ONE
	memcpy(b, head, sizeof(head));
	put_unaligned_le32(SMB2_FLAGS_RELATED_OPERATIONS, b + 16);
	CHECK(ksmbd_write_streamable(b, len));	/* the gate answers that one */
	free(b);
}

TEST(negotiate_rules)
{
	u8 b[512];
	u32 len = sample_request(SMB2_NEGOTIATE, b, sizeof(b));
	u32 ctx = get_unaligned_le32(b + 92);

	put_unaligned_le16(0, b + 66);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_COUNT);
	put_unaligned_le16(200, b + 66);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_LENGTH);
	put_unaligned_le16(5, b + 66);
	put_unaligned_le32(ctx + 4, b + 92);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);
	put_unaligned_le32(104, b + 92);	/* inside the dialect array */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);
	put_unaligned_le32((len + 8) & ~7u, b + 92);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);
	put_unaligned_le32(0xfffffff8, b + 92);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);
	put_unaligned_le32(ctx, b + 92);
	CHECK_EQ_INT(run(b, ctx + 4), KSMBD_VALID_BAD_LENGTH);
	/* without 3.1.1 the field is ClientStartTime: garbage is fine */
	put_unaligned_le16(0x0302, b + 108);
	put_unaligned_le32(0xdeadbeef, b + 92);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_OK);
}

TEST(negotiate_decode)
{
	u8 b[512];
	struct ksmbd_req req;
	struct ksmbd_negotiate_req neg;
	u32 len = sample_request(SMB2_NEGOTIATE, b, sizeof(b));

	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req), KSMBD_VALID_OK);
	CHECK_EQ_INT(ksmbd_negotiate_decode(&req, &neg), 0);
	CHECK_EQ_INT(neg.dialect_count, 5);
	CHECK_EQ_INT(ksmbd_negotiate_dialect(&neg, 0), 0x0202);
	CHECK_EQ_INT(ksmbd_negotiate_dialect(&neg, 4), 0x0311);
	CHECK_EQ_INT(ksmbd_negotiate_dialect(&neg, 5), 0);
	CHECK(neg.offers_311);
	CHECK_EQ_INT(neg.context_count, 5);
	CHECK_EQ_INT(neg.contexts_offset, 112);
	CHECK_EQ_INT(neg.contexts.len, len - 112);
	CHECK_EQ_INT(neg.capabilities, 0x7f);
	CHECK_EQ_INT(neg.client_guid[3], 0xa3);
	CHECK(ksmbd_sess_setup_decode(&req, NULL) == -EINVAL);
}

TEST(session_and_tree_decode)
{
	u8 b[512];
	struct ksmbd_req req;
	struct ksmbd_sess_setup_req ss;
	struct ksmbd_tree_connect_req tc;
	u32 len = sample_request(SMB2_SESSION_SETUP, b, sizeof(b));

	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req), KSMBD_VALID_OK);
	CHECK_EQ_INT(ksmbd_sess_setup_decode(&req, &ss), 0);
	CHECK_EQ_INT(ss.security_blob.len, 16);
	CHECK(!memcmp(ss.security_blob.p, "NTLMSSP", 8));
	CHECK_EQ_INT(ss.security_mode, 1);

	len = sample_request(SMB2_TREE_CONNECT, b, sizeof(b));
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req), KSMBD_VALID_OK);
	CHECK_EQ_INT(ksmbd_tree_connect_decode(&req, &tc), 0);
	CHECK_EQ_INT(tc.path.len, 22);
	CHECK(!tc.extension_present);
	put_unaligned_le16(23, b + 70);		/* odd UTF-16 length */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_LENGTH);

	len = sample_request(SMB2_ECHO, b, sizeof(b));
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req), KSMBD_VALID_OK);
	CHECK_EQ_INT(ksmbd_simple_decode(&req, SMB2_ECHO), 0);
	CHECK_EQ_INT(ksmbd_simple_decode(&req, SMB2_LOGOFF), -EINVAL);
	CHECK_EQ_INT(ksmbd_simple_decode(&req, SMB2_CREATE), -EINVAL);
}

TEST(tree_connect_extension)
{
	u8 b[512];
	struct ksmbd_req req;
	struct ksmbd_tree_connect_req tc;
	u32 len;

	/* row 10 shape: extension flag with no room for the extension */
	len = sample_request(SMB2_TREE_CONNECT, b, sizeof(b));
	put_unaligned_le16(SMB2_TREE_CONNECT_FLAG_EXTENSION_PRESENT, b + 66);
	CHECK_EQ_INT(run(b, 80), KSMBD_VALID_TOO_SHORT);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);
	/* path after the 16-byte extension */
	memset(b + 72, 0, 16);
	put_unaligned_le16(3, b + 76);
	memcpy(b + 88, "\\\0x\0", 4);
	put_unaligned_le16(88, b + 68);
	put_unaligned_le16(4, b + 70);
	CHECK_EQ_INT(ksmbd_request_validate(b, 92, &lim, &req), KSMBD_VALID_OK);
	CHECK_EQ_INT(ksmbd_tree_connect_decode(&req, &tc), 0);
	CHECK(tc.extension_present);
	CHECK_EQ_INT(tc.context_count, 3);
	CHECK(tc.path.p == b + 88);
}

TEST(lock_count)
{
	u8 b[512];
	struct ksmbd_req req;
	u32 len = sample_request(SMB2_LOCK, b, sizeof(b));

	put_unaligned_le16(0, b + 66);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_COUNT);
	put_unaligned_le16(2, b + 66);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_LENGTH);
	CHECK_EQ_INT(run(b, len + 23), KSMBD_VALID_BAD_LENGTH);
	CHECK_EQ_INT(ksmbd_request_validate(b, len + 24, &lim, &req), KSMBD_VALID_OK);
	CHECK_EQ_INT(req.buf[KSMBD_LOCK_ELEMENTS].len, 48);
	put_unaligned_le16(0xffff, b + 66);
	CHECK_EQ_INT(run(b, len + 24), KSMBD_VALID_BAD_LENGTH);
}

TEST(oplock_and_lease_ack_sizes)
{
	u8 b[512];
	u32 len = sample_request(SMB2_OPLOCK_BREAK, b, sizeof(b));

	CHECK_EQ_INT(run(b, len), KSMBD_VALID_OK);
	put_unaligned_le16(36, b + 64);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_TOO_SHORT);
	CHECK_EQ_INT(run(b, 64 + 36), KSMBD_VALID_OK);
	put_unaligned_le16(44, b + 64);
	CHECK_EQ_INT(run(b, 64 + 44), KSMBD_VALID_BAD_STRUCTURE_SIZE);
	put_unaligned_le16(25, b + 64);
	CHECK_EQ_INT(run(b, 64 + 36), KSMBD_VALID_BAD_STRUCTURE_SIZE);
}

TEST(limits)
{
	u8 b[512];
	struct ksmbd_req req;
	struct ksmbd_req_limits small = { 65536, 65536, 65536, false };
	u32 len;

	len = sample_request(SMB2_READ, b, sizeof(b));
	put_unaligned_le32(65537, b + 68);
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &small, &req), KSMBD_VALID_TOO_LARGE);
	len = sample_request(SMB2_IOCTL, b, sizeof(b));
	put_unaligned_le32(65537, b + 108);
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &small, &req), KSMBD_VALID_TOO_LARGE);
	len = sample_request(SMB2_QUERY_DIRECTORY, b, sizeof(b));
	put_unaligned_le32(65537, b + 92);
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &small, &req), KSMBD_VALID_TOO_LARGE);
	len = sample_request(SMB2_QUERY_INFO, b, sizeof(b));
	put_unaligned_le32(65537, b + 68);
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &small, &req), KSMBD_VALID_TOO_LARGE);
	len = sample_request(SMB2_CHANGE_NOTIFY, b, sizeof(b));
	put_unaligned_le32(65537, b + 68);
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &small, &req), KSMBD_VALID_TOO_LARGE);
	small.max_write = 8;
	len = sample_request(SMB2_WRITE, b, sizeof(b));
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &small, &req), KSMBD_VALID_TOO_LARGE);
	small.max_trans = 4;
	len = sample_request(SMB2_SET_INFO, b, sizeof(b));
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &small, &req), KSMBD_VALID_TOO_LARGE);
}

static void credit_case(u16 cmd, u32 at, u32 v, bool grow)
{
	u32 cap = 64 + 64 + v + 64;
	u8 *b = calloc(1, cap);
	struct ksmbd_req req;
	struct ksmbd_req_limits nomc = lim;
	u32 len = sample_request(cmd, b, cap);

	put_unaligned_le32(v, b + 64 + at);
	if (grow)
		len = get_unaligned_le16(b + (cmd == SMB2_WRITE ? 66 : 72)) + v;
	put_unaligned_le16(1, b + 6);
	if (ksmbd_request_validate(b, len, &lim, &req) != KSMBD_VALID_CREDIT_TOO_SMALL)
		test_fail_("cmd %u charge 1: %s", cmd,
			   ksmbd_valid_name(ksmbd_request_validate(b, len, &lim, &req)));
	put_unaligned_le16(0, b + 6);
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req),
		     KSMBD_VALID_CREDIT_ZERO_LARGE);
	put_unaligned_le16((u16)((v - 1) / 65536 + 1), b + 6);
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req), KSMBD_VALID_OK);
	put_unaligned_le16(1, b + 6);
	nomc.multi_credit = false;
	CHECK_EQ_INT(ksmbd_request_validate(b, len, &nomc, &req), KSMBD_VALID_OK);
	free(b);
}

TEST(credit_charge)
{
	u8 b[512];
	u32 len = sample_request(SMB2_READ, b, sizeof(b));

	/* exactly 64 KiB needs one credit, charge 0 counts as 1 */
	put_unaligned_le16(0, b + 6);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_OK);
	credit_case(SMB2_READ, 4, 3 * 65536, false);
	credit_case(SMB2_READ, 4, 65537, false);
	credit_case(SMB2_WRITE, 4, 65536 + 100, true);
	credit_case(SMB2_IOCTL, 44, 200000, false);
	credit_case(SMB2_QUERY_DIRECTORY, 28, 131072, false);
	credit_case(SMB2_QUERY_INFO, 4, 70000, false);
	credit_case(SMB2_CHANGE_NOTIFY, 4, 70000, false);
	credit_case(SMB2_SET_INFO, 4, 70000, true);
}

TEST(compound_walk_ok)
{
	static const u16 cmds[] = { SMB2_CREATE, SMB2_QUERY_INFO, SMB2_CLOSE };
	u8 b[2048];
	struct ksmbd_elem el[8];
	u32 n, len = sample_compound(b, sizeof(b), cmds, 3), i;

	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_OK);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(el[0].off, 0);
	CHECK_EQ_INT(el[1].off, el[0].len);
	CHECK_EQ_INT(el[2].off + el[2].len, len);
	for (i = 0; i < n; i++) {
		CHECK_EQ_INT(el[i].off % 8, 0);
		CHECK_EQ_INT(run(b + el[i].off, el[i].len), KSMBD_VALID_OK);
	}
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 2, &n),
		     KSMBD_VALID_TOO_MANY_ELEMENTS);
	CHECK_EQ_INT(n, 2);
}

TEST(compound_walk_bad_next)
{
	static const u16 cmds[] = { SMB2_ECHO, SMB2_ECHO };
	u8 b[1024];
	struct ksmbd_elem el[8];
	u32 n, len = sample_compound(b, sizeof(b), cmds, 2);

	put_unaligned_le32(len, b + 20);	/* past the end */
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_BAD_NEXT_COMMAND);
	put_unaligned_le32(0xfffffff8, b + 20);
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_BAD_NEXT_COMMAND);
	put_unaligned_le32(68, b + 20);		/* unaligned */
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_BAD_NEXT_COMMAND);
	put_unaligned_le32(8, b + 20);		/* would not advance past the header */
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_BAD_NEXT_COMMAND);
	put_unaligned_le32(56, b + 20);
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_BAD_NEXT_COMMAND);
	/* next element too short for its header */
	put_unaligned_le32(72, b + 20);
	CHECK_EQ_INT(ksmbd_compound_walk(b, 72 + 63, el, 8, &n), KSMBD_VALID_BAD_NEXT_COMMAND);
	CHECK_EQ_INT(n, 1);
	/* NextCommand 0 on what "should" be a non-last element: one element */
	put_unaligned_le32(0, b + 20);
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_OK);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(el[0].len, len);
	/* first element related */
	put_unaligned_le32(4, b + 16);
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_FIRST_RELATED);
	CHECK_EQ_INT(n, 1);
	/* ... and the walk still splits the rest: each element gets an answer */
	put_unaligned_le32(72, b + 20);
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_FIRST_RELATED);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(el[1].off, 72);
	/* a framing error after it still wins */
	put_unaligned_le32(68, b + 20);
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_BAD_NEXT_COMMAND);
	put_unaligned_le32(0, b + 20);
	put_unaligned_le32(0, b + 16);
	/* second element's protocol id */
	put_unaligned_le32(72, b + 20);
	b[72] = 0xfd;
	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 8, &n), KSMBD_VALID_BAD_PROTOCOL_ID);
	CHECK_EQ_INT(ksmbd_compound_walk(b, 10, el, 8, &n), KSMBD_VALID_FRAME_TOO_SHORT);
}

/* Row 26: SESSION_SETUP second in a compound; offsets are per element. */
TEST(compound_offsets_are_per_element)
{
	static const u16 cmds[] = { SMB2_ECHO, SMB2_SESSION_SETUP };
	u8 b[1024];
	struct ksmbd_elem el[4];
	struct ksmbd_req req;
	u32 n, len = sample_compound(b, sizeof(b), cmds, 2);
	u8 *e;

	CHECK_EQ_INT(ksmbd_compound_walk(b, len, el, 4, &n), KSMBD_VALID_OK);
	CHECK_EQ_INT(n, 2);
	e = b + el[1].off;
	CHECK_EQ_INT(ksmbd_request_validate(e, el[1].len, &lim, &req), KSMBD_VALID_OK);
	CHECK(req.buf[KSMBD_SESS_BLOB].p == e + 88);
	/* valid against the frame start, not against this element */
	put_unaligned_le16(88 + 16 - 8, e + 78);
	put_unaligned_le16((u16)(el[1].off + 88 - 8 + 16), e + 76);
	CHECK_EQ_INT(ksmbd_request_validate(e, el[1].len, &lim, &req), KSMBD_VALID_BAD_OFFSET);
}

TEST(create_contexts)
{
	u8 b[512];
	struct ksmbd_req req;
	struct ksmbd_create_ctx ctx;
	struct ksmbd_buf list;
	u32 len = sample_request(SMB2_CREATE, b, sizeof(b));
	u8 *c = b + 136;

	CHECK_EQ_INT(ksmbd_request_validate(b, len, &lim, &req), KSMBD_VALID_OK);
	list = req.buf[KSMBD_CREATE_CONTEXTS];
	CHECK_EQ_INT(ksmbd_create_ctx_find(&list, "DHnQ", 4, &ctx), 0);
	CHECK_EQ_INT(ctx.data.len, 16);
	CHECK(ctx.data.p == c + 24 + 24);
	CHECK_EQ_INT(ksmbd_create_ctx_find(&list, "MxAc", 4, &ctx), 0);
	CHECK_EQ_INT(ctx.data.len, 0);
	CHECK_EQ_INT(ksmbd_create_ctx_find(&list, "RqLs", 4, &ctx), -ENOENT);

	/* contexts offset not 8-aligned */
	put_unaligned_le32(132, b + 112);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_OFFSET);
	put_unaligned_le32(136, b + 112);
	/* row 18: NameLength past the context */
	put_unaligned_le16(9, c + 6);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le16(3, c + 6);		/* shorter than a tag */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le16(4, c + 6);
	put_unaligned_le16(8, c + 4);		/* name inside the context header */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le16(16, c + 4);
	/* row 31: DataOffset 0 with DataLength */
	put_unaligned_le16(0, c + 24 + 10);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le16(28, c + 24 + 10);	/* unaligned */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le16(24, c + 24 + 10);
	put_unaligned_le32(17, c + 24 + 12);	/* data past the context */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le32(16, c + 24 + 12);
	put_unaligned_le32(20, c);		/* Next unaligned */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le32(64, c);		/* Next to the end of the list */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le32(8, c);		/* Next inside this header */
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
	put_unaligned_le32(24, c);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_OK);
	/* a list shorter than a context header */
	put_unaligned_le32(8, b + 116);
	CHECK_EQ_INT(run(b, len), KSMBD_VALID_BAD_CONTEXT);
}

/* One create context at b (name tag, data of len bytes), Next = next. */
static u32 put_cc(u8 *b, const char *tag, const u8 *data, u32 len, u32 next)
{
	memset(b, 0, 24);
	put_unaligned_le32(next, b);
	put_unaligned_le16(16, b + 4);
	put_unaligned_le16(4, b + 6);
	put_unaligned_le16(len ? 24 : 0, b + 10);
	put_unaligned_le32(len, b + 12);
	memcpy(b + 16, tag, 4);
	if (len)
		memcpy(b + 24, data, len);
	return (24 + len + 7) & ~7u;
}

/* Two contexts chained: a then b. */
static struct ksmbd_buf two_cc(u8 *buf, const char *ta, u32 la,
			       const char *tb, u32 lb, const u8 *data)
{
	u32 n = put_cc(buf, ta, data, la, 0);

	put_unaligned_le32(n, buf);
	n += put_cc(buf + n, tb, data, lb, 0);
	return ksmbd_buf_make(buf, n);
}

TEST(durable_contexts)
{
	u8 buf[256], data[64];
	struct ksmbd_durable_req dh;
	struct ksmbd_buf l;
	u32 i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (u8)(i + 1);
	l = ksmbd_buf_make(buf, put_cc(buf, "MxAc", data, 0, 0));
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), 0);
	CHECK_EQ_INT(dh.kind, KSMBD_DH_NONE);
	l = ksmbd_buf_make(buf, put_cc(buf, "DHnQ", data, 16, 0));
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), 0);
	CHECK_EQ_INT(dh.kind, KSMBD_DH_V1_REQ);
	l = ksmbd_buf_make(buf, put_cc(buf, "DHnC", data, 16, 0));
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), 0);
	CHECK_EQ_INT(dh.kind, KSMBD_DH_V1_RECONNECT);
	CHECK(dh.persistent_id == get_unaligned_le64(data));
	CHECK(dh.volatile_id == get_unaligned_le64(data + 8));
	l = ksmbd_buf_make(buf, put_cc(buf, "DH2Q", data, 32, 0));
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), 0);
	CHECK_EQ_INT(dh.kind, KSMBD_DH_V2_REQ);
	CHECK(dh.timeout_ms == get_unaligned_le32(data));
	CHECK(dh.flags == get_unaligned_le32(data + 4));
	CHECK(!memcmp(dh.create_guid, data + 16, 16));
	l = ksmbd_buf_make(buf, put_cc(buf, "DH2C", data, 36, 0));
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), 0);
	CHECK_EQ_INT(dh.kind, KSMBD_DH_V2_RECONNECT);
	CHECK(!memcmp(dh.create_guid, data + 16, 16));
	CHECK(dh.flags == get_unaligned_le32(data + 32));
	/* Every size but the spec's, for each tag. */
	for (i = 0; i <= 40; i++) {
		l = ksmbd_buf_make(buf, put_cc(buf, "DHnQ", data, i, 0));
		CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), i == 16 ? 0 : -EINVAL);
		l = ksmbd_buf_make(buf, put_cc(buf, "DHnC", data, i, 0));
		CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), i == 16 ? 0 : -EINVAL);
		l = ksmbd_buf_make(buf, put_cc(buf, "DH2Q", data, i, 0));
		CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), i == 32 ? 0 : -EINVAL);
		l = ksmbd_buf_make(buf, put_cc(buf, "DH2C", data, i, 0));
		CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), i == 36 ? 0 : -EINVAL);
	}
	/* Combinations: v2 with anything else is refused; DHnC beats DHnQ. */
	l = two_cc(buf, "DH2Q", 32, "DHnQ", 16, data);
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), -EINVAL);
	l = two_cc(buf, "DHnC", 16, "DH2Q", 32, data);
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), -EINVAL);
	l = two_cc(buf, "DH2C", 36, "DHnQ", 16, data);
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), -EINVAL);
	l = two_cc(buf, "DH2C", 36, "DH2Q", 32, data);
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), -EINVAL);
	l = two_cc(buf, "DHnQ", 16, "DHnC", 16, data);
	CHECK_EQ_INT(ksmbd_durable_ctx_parse(&l, &dh), 0);
	CHECK_EQ_INT(dh.kind, KSMBD_DH_V1_RECONNECT);
	/* A malformed chain is an error, not "no context". */
	l = ksmbd_buf_make(buf, 20);
	CHECK(ksmbd_durable_ctx_parse(&l, &dh) < 0);
}

int main(void)
{
	RUN(reason_names_and_statuses);
	RUN(rfc1002_length);
	RUN(classify);
	RUN(classify_transform);
	RUN(classify_compression);
	RUN(every_command_minimal_valid);
	RUN(every_command_cut_at_every_byte);
	RUN(every_command_wrong_structure_size);
	RUN(header_checks);
	RUN(every_offset_length_pair);
	RUN(buffers_point_into_element);
	RUN(write_rows_9_11_24);
	RUN(write_streamable);
	RUN(negotiate_rules);
	RUN(negotiate_decode);
	RUN(session_and_tree_decode);
	RUN(tree_connect_extension);
	RUN(lock_count);
	RUN(oplock_and_lease_ack_sizes);
	RUN(limits);
	RUN(credit_charge);
	RUN(compound_walk_ok);
	RUN(compound_walk_bad_next);
	RUN(compound_offsets_are_per_element);
	RUN(create_contexts);
	RUN(durable_contexts);
	return test_report();
}
