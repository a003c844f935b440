// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The validation gate (see validate.h).  Everything a handler may touch is
 * checked here against the *current compound element*, never the whole
 * frame, with all offset arithmetic done once, in 32 bits without overflow.
 */
#include "validate.h"

/* ---- Reasons ---- */

struct valid_info {
	const char *name;
	u32 status;
	bool fatal;
};

#define KSMBD_VALID_INFO(n, s, f) [KSMBD_VALID_##n] = { #n, s, f },
static const struct valid_info valid_info[KSMBD_VALID_COUNT] = {
	KSMBD_VALID_LIST(KSMBD_VALID_INFO)
};
#undef KSMBD_VALID_INFO

const char *ksmbd_valid_name(enum ksmbd_valid v)
{
	if ((unsigned int)v >= KSMBD_VALID_COUNT)
		return "UNKNOWN";
	return valid_info[v].name;
}

u32 ksmbd_valid_status(enum ksmbd_valid v)
{
	if ((unsigned int)v >= KSMBD_VALID_COUNT)
		return STATUS_INVALID_PARAMETER;
	return valid_info[v].status;
}

bool ksmbd_valid_is_fatal(enum ksmbd_valid v)
{
	if ((unsigned int)v >= KSMBD_VALID_COUNT)
		return true;
	return valid_info[v].fatal;
}

/* ---- Frame level ---- */

/* The smallest message of any kind: a compression transform header. */
#define KSMBD_MIN_FRAME		SMB2_COMPRESSION_HEADER_SIZE
/* A compressed segment may not claim to expand beyond the 24-bit frame. */
#define KSMBD_MAX_DECOMPRESSED	KSMBD_RFC1002_MAX_LEN

enum ksmbd_valid ksmbd_frame_check_length(const u8 hdr[KSMBD_RFC1002_HDR_SIZE],
					  u32 max_len, u32 *len)
{
	u32 n;

	if (hdr[0] != KSMBD_RFC1002_SESSION_MESSAGE)
		return KSMBD_VALID_BAD_RFC1002_TYPE;
	n = ((u32)hdr[1] << 16) | ((u32)hdr[2] << 8) | hdr[3];
	*len = n;
	if (n < KSMBD_MIN_FRAME)
		return KSMBD_VALID_FRAME_TOO_SHORT;
	if (n > max_len)
		return KSMBD_VALID_FRAME_TOO_LONG;
	return KSMBD_VALID_OK;
}

static bool is_smb_magic(const u8 *p, u8 first)
{
	return p[0] == first && p[1] == 'S' && p[2] == 'M' && p[3] == 'B';
}

bool ksmbd_write_streamable(const u8 *head, u32 frame_len)
{
	const struct smb2_hdr *h = (const void *)head;
	const u8 *body = head + SMB2_HEADER_SIZE;

	if (frame_len < KSMBD_WRITE_STREAM_HEAD + KSMBD_WRITE_STREAM_MIN)
		return false;
	if (!is_smb_magic(head, SMB2_PROTO_BYTE) ||
	    get_unaligned_le16(&h->structure_size) != SMB2_HEADER_SIZE ||
	    get_unaligned_le16(&h->command) != SMB2_WRITE ||
	    get_unaligned_le32(&h->next_command) ||
	    (get_unaligned_le32(&h->flags) & SMB2_FLAGS_SIGNED))
		return false;
	/* WRITE: StructureSize, DataOffset (16 bits), Length (32 bits) */
	return get_unaligned_le16(body) == SMB2_WRITE_REQ_SIZE &&
	       get_unaligned_le16(body + 2) == KSMBD_WRITE_STREAM_HEAD &&
	       get_unaligned_le32(body + 4) == frame_len - KSMBD_WRITE_STREAM_HEAD;
}

static enum ksmbd_valid check_transform(const u8 *frame, u32 len)
{
	const struct smb2_transform_hdr *th = (const void *)frame;
	u32 orig;

	if (len <= SMB2_TRANSFORM_HEADER_SIZE)
		return KSMBD_VALID_FRAME_TOO_SHORT;
	orig = get_unaligned_le32(&th->original_message_size);
	/* AES-CCM/GCM keep the length: the ciphertext is the message. */
	if (orig < SMB2_HEADER_SIZE || orig != len - SMB2_TRANSFORM_HEADER_SIZE)
		return KSMBD_VALID_BAD_TRANSFORM;
	if (get_unaligned_le16(&th->flags) != SMB2_TRANSFORM_FLAG_ENCRYPTED)
		return KSMBD_VALID_BAD_TRANSFORM;
	return KSMBD_VALID_OK;
}

static enum ksmbd_valid check_compression(const u8 *frame, u32 len)
{
	const struct smb2_compression_hdr *ch = (const void *)frame;
	u32 orig = get_unaligned_le32(&ch->original_compressed_segment_size);
	u16 alg = get_unaligned_le16(&ch->compression_algorithm);
	u16 flags = get_unaligned_le16(&ch->flags);
	u32 offset = get_unaligned_le32(&ch->offset);

	if (orig < SMB2_HEADER_SIZE || orig > KSMBD_MAX_DECOMPRESSED)
		return KSMBD_VALID_BAD_COMPRESSION;
	if (flags == SMB2_COMPRESSION_FLAG_CHAINED) {
		/* Offset is the first payload's Length; it must fit. */
		if (len < SMB2_COMPRESSION_HEADER_SIZE + 4 ||
		    offset > len - SMB2_COMPRESSION_HEADER_SIZE)
			return KSMBD_VALID_BAD_COMPRESSION;
		return KSMBD_VALID_OK;
	}
	if (flags != SMB2_COMPRESSION_FLAG_NONE)
		return KSMBD_VALID_BAD_COMPRESSION;
	if (alg < SMB2_COMPRESSION_LZNT1 || alg > SMB2_COMPRESSION_LZ4)
		return KSMBD_VALID_BAD_COMPRESSION;
	if (offset > len - SMB2_COMPRESSION_HEADER_SIZE || offset > orig)
		return KSMBD_VALID_BAD_COMPRESSION;
	return KSMBD_VALID_OK;
}

enum ksmbd_valid ksmbd_frame_classify(const u8 *frame, u32 len,
				      enum ksmbd_frame_kind *kind)
{
	if (len < 4)
		return KSMBD_VALID_FRAME_TOO_SHORT;

	if (is_smb_magic(frame, SMB2_PROTO_BYTE)) {
		*kind = KSMBD_FRAME_SMB2;
		return len < SMB2_HEADER_SIZE ? KSMBD_VALID_FRAME_TOO_SHORT :
						KSMBD_VALID_OK;
	}
	if (is_smb_magic(frame, SMB2_TRANSFORM_BYTE)) {
		*kind = KSMBD_FRAME_TRANSFORM;
		return check_transform(frame, len);
	}
	if (is_smb_magic(frame, SMB2_COMPRESSION_BYTE)) {
		*kind = KSMBD_FRAME_COMPRESSED;
		if (len < SMB2_COMPRESSION_HEADER_SIZE)
			return KSMBD_VALID_FRAME_TOO_SHORT;
		return check_compression(frame, len);
	}
	if (is_smb_magic(frame, SMB1_PROTO_BYTE)) {
		/* Header, WordCount and ByteCount of an SMB1 NEGOTIATE. */
		if (len < SMB1_HEADER_SIZE + 3)
			return KSMBD_VALID_FRAME_TOO_SHORT;
		if (frame[4] != SMB1_COM_NEGOTIATE)
			return KSMBD_VALID_BAD_PROTOCOL_ID;
		*kind = KSMBD_FRAME_SMB1_NEGOTIATE;
		return KSMBD_VALID_OK;
	}
	return KSMBD_VALID_BAD_PROTOCOL_ID;
}

/* ---- Compound walk ---- */

static enum ksmbd_valid check_header(const u8 *h)
{
	const struct smb2_hdr *hdr = (const void *)h;

	if (!is_smb_magic(h, SMB2_PROTO_BYTE))
		return KSMBD_VALID_BAD_PROTOCOL_ID;
	if (get_unaligned_le16(&hdr->structure_size) != SMB2_HEADER_STRUCTURE_SIZE)
		return KSMBD_VALID_BAD_HEADER_SIZE;
	return KSMBD_VALID_OK;
}

enum ksmbd_valid ksmbd_compound_walk(const u8 *frame, u32 len,
				     struct ksmbd_elem *elems, u32 max_elems,
				     u32 *count)
{
	u32 off = 0, n = 0;
	enum ksmbd_valid v;
	bool first_related = false;

	*count = 0;
	for (;;) {
		const struct smb2_hdr *hdr;
		u32 rest = len - off, next;

		if (n == max_elems)
			return KSMBD_VALID_TOO_MANY_ELEMENTS;
		if (rest < SMB2_HEADER_SIZE)
			return n ? KSMBD_VALID_BAD_NEXT_COMMAND :
				   KSMBD_VALID_FRAME_TOO_SHORT;
		v = check_header(frame + off);
		if (v != KSMBD_VALID_OK)
			return v;
		hdr = (const void *)(frame + off);
		/*
		 * Not a framing error: every element still gets an answer
		 * (MS-SMB2 3.3.5.2.7.2), so the walk goes on to the end.
		 */
		if (!n && (get_unaligned_le32(&hdr->flags) &
			   SMB2_FLAGS_RELATED_OPERATIONS))
			first_related = true;

		next = get_unaligned_le32(&hdr->next_command);
		if (!next) {
			elems[n].off = off;
			elems[n].len = rest;
			*count = n + 1;
			return first_related ? KSMBD_VALID_FIRST_RELATED :
					       KSMBD_VALID_OK;
		}
		/*
		 * At least a header per element keeps the walk strictly
		 * advancing; "< rest" leaves room for the next element, whose
		 * own header is checked on the next turn.
		 */
		if (!IS_ALIGNED(next, 8) || next < SMB2_HEADER_SIZE ||
		    next >= rest)
			return KSMBD_VALID_BAD_NEXT_COMMAND;
		elems[n].off = off;
		elems[n].len = next;
		off += next;
		*count = ++n;
	}
}

/* ---- Per-command rules ---- */

struct buf_rule {
	u8 off_at;	/* body offset of the Offset field */
	u8 off_w;	/* 2 or 4 bytes */
	u8 len_at;
	u8 len_w;
	u8 align;	/* required alignment of Offset, 0 for none */
	bool even;	/* UTF-16 payloads: even length */
};

struct cmd_rule {
	u16 structure_size;
	u16 fixed;	/* body bytes that must be present */
	u8 nbufs;
	struct buf_rule buf[2];
};

#define BUF16(o, l)	  { .off_at = o, .off_w = 2, .len_at = l, .len_w = 2 }
#define BUF16_UTF16(o, l) { .off_at = o, .off_w = 2, .len_at = l, .len_w = 2, .even = true }
#define BUF16_32(o, l)	  { .off_at = o, .off_w = 2, .len_at = l, .len_w = 4 }
#define BUF32(o, l)	  { .off_at = o, .off_w = 4, .len_at = l, .len_w = 4 }

static const struct cmd_rule cmd_rules[SMB2_COMMAND_COUNT] = {
	/* dialects and contexts are checked in check_negotiate() */
	[SMB2_NEGOTIATE]	= { 36, 36, 0 },
	[SMB2_SESSION_SETUP]	= { 25, 24, 1, { BUF16(12, 14) } },
	[SMB2_LOGOFF]		= { 4, 4, 0 },
	[SMB2_TREE_CONNECT]	= { 9, 8, 1, { BUF16_UTF16(4, 6) } },
	[SMB2_TREE_DISCONNECT]	= { 4, 4, 0 },
	[SMB2_CREATE]		= { 57, 56, 2, { BUF16_UTF16(44, 46),
				    { .off_at = 48, .off_w = 4, .len_at = 52,
				      .len_w = 4, .align = 8 } } },
	[SMB2_CLOSE]		= { 24, 24, 0 },
	[SMB2_FLUSH]		= { 24, 24, 0 },
	[SMB2_READ]		= { 49, 48, 1, { BUF16(44, 46) } },
	[SMB2_WRITE]		= { 49, 48, 2, { BUF16_32(2, 4), BUF16(40, 42) } },
	/* the first lock element is part of StructureSize */
	[SMB2_LOCK]		= { 48, 48, 0 },
	[SMB2_IOCTL]		= { 57, 56, 2, { BUF32(24, 28), BUF32(36, 40) } },
	[SMB2_CANCEL]		= { 4, 4, 0 },
	[SMB2_ECHO]		= { 4, 4, 0 },
	[SMB2_QUERY_DIRECTORY]	= { 33, 32, 1, { BUF16_UTF16(24, 26) } },
	[SMB2_CHANGE_NOTIFY]	= { 32, 32, 0 },
	[SMB2_QUERY_INFO]	= { 41, 40, 1, { BUF16_32(8, 12) } },
	[SMB2_SET_INFO]		= { 33, 32, 1, { BUF16_32(8, 4) } },
	/* 24 (oplock) or 36 (lease); resolved in fixed_size() */
	[SMB2_OPLOCK_BREAK]	= { 24, 24, 0 },
};

static u32 body_le(const struct ksmbd_req *req, u32 at, u32 width)
{
	/* Callers only ask for fields inside the checked fixed part. */
	if (width == 2)
		return get_unaligned_le16(req->body.p + at);
	return get_unaligned_le32(req->body.p + at);
}

static enum ksmbd_valid fixed_size(const struct ksmbd_req *req, u16 *fixed)
{
	const struct cmd_rule *r = &cmd_rules[req->hdr.command];
	u16 ss;

	if (req->body.len < 2)
		return KSMBD_VALID_TOO_SHORT;
	ss = get_unaligned_le16(req->body.p);
	if (req->hdr.command == SMB2_OPLOCK_BREAK) {
		if (ss != SMB2_OPLOCK_BREAK_SIZE && ss != SMB2_LEASE_ACK_SIZE) {
			/* A cut body is "short" whatever its first bytes say. */
			return req->body.len < SMB2_OPLOCK_BREAK_SIZE ?
			       KSMBD_VALID_TOO_SHORT :
			       KSMBD_VALID_BAD_STRUCTURE_SIZE;
		}
		*fixed = ss;
	} else {
		*fixed = r->fixed;
	}
	if (req->body.len < *fixed)
		return KSMBD_VALID_TOO_SHORT;
	if (ss != r->structure_size && req->hdr.command != SMB2_OPLOCK_BREAK)
		return KSMBD_VALID_BAD_STRUCTURE_SIZE;
	return KSMBD_VALID_OK;
}

/*
 * Offsets count from the SMB2 header of this element and must land at or
 * after the end of the fixed part; an empty buffer's offset is ignored, as
 * Windows does, and yields an empty slice at the end of the fixed part.
 */
static enum ksmbd_valid slice(const struct ksmbd_req *req, u32 fixed_end,
			      u32 off, u32 len, u32 align, struct ksmbd_buf *out)
{
	out->p = req->elem.p + fixed_end;
	out->len = 0;
	if (!len)
		return KSMBD_VALID_OK;
	if (off < fixed_end || off > req->elem.len)
		return KSMBD_VALID_BAD_OFFSET;
	if (align && !IS_ALIGNED(off, align))
		return KSMBD_VALID_BAD_OFFSET;
	if (len > req->elem.len - off)
		return KSMBD_VALID_BAD_LENGTH;
	out->p = req->elem.p + off;
	out->len = len;
	return KSMBD_VALID_OK;
}

static enum ksmbd_valid check_buffers(struct ksmbd_req *req, u32 fixed_end)
{
	const struct cmd_rule *r = &cmd_rules[req->hdr.command];
	enum ksmbd_valid v;
	u8 i;

	for (i = 0; i < r->nbufs; i++) {
		const struct buf_rule *b = &r->buf[i];
		u32 off = body_le(req, b->off_at, b->off_w);
		u32 len = body_le(req, b->len_at, b->len_w);

		if (b->even && (len & 1))
			return KSMBD_VALID_BAD_LENGTH;
		v = slice(req, fixed_end, off, len, b->align, &req->buf[i]);
		if (v != KSMBD_VALID_OK)
			return v;
	}
	return KSMBD_VALID_OK;
}

static enum ksmbd_valid check_negotiate(struct ksmbd_req *req)
{
	const struct smb2_negotiate_req *nr = (const void *)req->body.p;
	u32 count = get_unaligned_le16(&nr->dialect_count);
	u32 dial_end = SMB2_HEADER_SIZE + sizeof(*nr) + count * 2;
	u32 ctx_off, ctx_count, i;
	bool has_311 = false;

	if (!count)
		return KSMBD_VALID_BAD_COUNT;
	if (dial_end > req->elem.len)
		return KSMBD_VALID_BAD_LENGTH;
	req->buf[KSMBD_NEG_DIALECTS].p = req->body.p + sizeof(*nr);
	req->buf[KSMBD_NEG_DIALECTS].len = count * 2;
	req->buf[KSMBD_NEG_CONTEXTS].p = req->elem.p + dial_end;
	req->buf[KSMBD_NEG_CONTEXTS].len = 0;

	for (i = 0; i < count; i++)
		if (get_unaligned_le16(req->buf[0].p + i * 2) == SMB311_DIALECT)
			has_311 = true;
	/* Before 3.1.1 the same bytes are ClientStartTime. */
	ctx_count = get_unaligned_le16(&nr->negotiate_context_count);
	if (!has_311 || !ctx_count)
		return KSMBD_VALID_OK;

	ctx_off = get_unaligned_le32(&nr->negotiate_context_offset);
	if (ctx_off < dial_end || !IS_ALIGNED(ctx_off, 8) ||
	    ctx_off > req->elem.len)
		return KSMBD_VALID_BAD_OFFSET;
	if (req->elem.len - ctx_off < sizeof(struct smb2_neg_context))
		return KSMBD_VALID_BAD_LENGTH;
	req->buf[KSMBD_NEG_CONTEXTS].p = req->elem.p + ctx_off;
	req->buf[KSMBD_NEG_CONTEXTS].len = req->elem.len - ctx_off;
	return KSMBD_VALID_OK;
}

static enum ksmbd_valid check_tree_connect(struct ksmbd_req *req)
{
	u16 flags = get_unaligned_le16(req->body.p + 2);
	u32 ext_end = SMB2_HEADER_SIZE + sizeof(struct smb2_tree_connect_req) +
		      sizeof(struct smb2_tree_connect_req_ext);
	u32 path_off = body_le(req, 4, 2);
	u32 path_len = body_le(req, 6, 2);

	if (!(flags & SMB2_TREE_CONNECT_FLAG_EXTENSION_PRESENT))
		return KSMBD_VALID_OK;
	/* The extension opens the Buffer; the path must follow it. */
	if (req->elem.len < ext_end)
		return KSMBD_VALID_TOO_SHORT;
	if (path_len && path_off < ext_end)
		return KSMBD_VALID_BAD_OFFSET;
	req->buf[KSMBD_TCON_EXT].p = req->body.p + sizeof(struct smb2_tree_connect_req);
	req->buf[KSMBD_TCON_EXT].len = sizeof(struct smb2_tree_connect_req_ext);
	return KSMBD_VALID_OK;
}

static enum ksmbd_valid check_lock(struct ksmbd_req *req)
{
	u32 count = body_le(req, 2, 2);
	u32 hdr_part = sizeof(struct smb2_lock_req);

	if (!count)
		return KSMBD_VALID_BAD_COUNT;
	if (count * SMB2_LOCK_ELEMENT_SIZE > req->body.len - hdr_part)
		return KSMBD_VALID_BAD_LENGTH;
	req->buf[KSMBD_LOCK_ELEMENTS].p = req->body.p + hdr_part;
	req->buf[KSMBD_LOCK_ELEMENTS].len = count * SMB2_LOCK_ELEMENT_SIZE;
	return KSMBD_VALID_OK;
}

/* Negotiated maxima (MS-SMB2 3.3.5.12, .13, .15, .17, .18, .19, .20, .21). */
static enum ksmbd_valid check_limits(const struct ksmbd_req *req,
				     const struct ksmbd_req_limits *lim)
{
	switch (req->hdr.command) {
	case SMB2_READ:
		return body_le(req, 4, 4) > lim->max_read ?
		       KSMBD_VALID_TOO_LARGE : KSMBD_VALID_OK;
	case SMB2_WRITE:
		return body_le(req, 4, 4) > lim->max_write ?
		       KSMBD_VALID_TOO_LARGE : KSMBD_VALID_OK;
	case SMB2_IOCTL:
		if (body_le(req, 28, 4) > lim->max_trans ||
		    body_le(req, 32, 4) > lim->max_trans ||
		    body_le(req, 44, 4) > lim->max_trans)
			return KSMBD_VALID_TOO_LARGE;
		return KSMBD_VALID_OK;
	case SMB2_QUERY_DIRECTORY:
		return body_le(req, 28, 4) > lim->max_trans ?
		       KSMBD_VALID_TOO_LARGE : KSMBD_VALID_OK;
	case SMB2_CHANGE_NOTIFY:
	case SMB2_QUERY_INFO:
		return body_le(req, 4, 4) > lim->max_trans ?
		       KSMBD_VALID_TOO_LARGE : KSMBD_VALID_OK;
	case SMB2_SET_INFO:
		return body_le(req, 4, 4) > lim->max_trans ?
		       KSMBD_VALID_TOO_LARGE : KSMBD_VALID_OK;
	default:
		return KSMBD_VALID_OK;
	}
}

/*
 * MS-SMB2 3.3.5.2.5 with 3.1.5.2: the charge must cover the larger of what
 * the request carries and what the response may carry, in 64 KiB units.
 * Sums are 64-bit so hostile 32-bit lengths cannot wrap.
 */
static u64 credit_payload(const struct ksmbd_req *req)
{
	u64 send = 0, resp = 0;

	switch (req->hdr.command) {
	case SMB2_READ:
		send = body_le(req, 46, 2);
		resp = body_le(req, 4, 4);
		break;
	case SMB2_WRITE:
		send = (u64)body_le(req, 4, 4) + body_le(req, 42, 2);
		break;
	case SMB2_IOCTL:
		send = (u64)body_le(req, 28, 4) + body_le(req, 40, 4);
		resp = (u64)body_le(req, 32, 4) + body_le(req, 44, 4);
		break;
	case SMB2_QUERY_DIRECTORY:
		send = body_le(req, 26, 2);
		resp = body_le(req, 28, 4);
		break;
	case SMB2_CHANGE_NOTIFY:
		resp = body_le(req, 4, 4);
		break;
	case SMB2_QUERY_INFO:
		send = body_le(req, 12, 4);
		resp = body_le(req, 4, 4);
		break;
	case SMB2_SET_INFO:
		send = body_le(req, 4, 4);
		break;
	default:
		return 0;
	}
	return max(send, resp);
}

static enum ksmbd_valid check_credit(const struct ksmbd_req *req)
{
	u64 payload = credit_payload(req);
	u64 need;

	if (!payload)
		return KSMBD_VALID_OK;
	need = (payload - 1) / SMB2_CREDIT_PAYLOAD_UNIT + 1;
	if (!req->hdr.credit_charge)
		return need > 1 ? KSMBD_VALID_CREDIT_ZERO_LARGE : KSMBD_VALID_OK;
	if (need > req->hdr.credit_charge)
		return KSMBD_VALID_CREDIT_TOO_SMALL;
	return KSMBD_VALID_OK;
}

void ksmbd_req_hdr_decode(const u8 *h, struct ksmbd_req_hdr *out)
{
	const struct smb2_hdr *hdr = (const void *)h;

	out->command = get_unaligned_le16(&hdr->command);
	out->credit_charge = get_unaligned_le16(&hdr->credit_charge);
	out->credit_request = get_unaligned_le16(&hdr->credit_req_rsp);
	out->channel_sequence = get_unaligned_le16(&hdr->status);
	out->flags = get_unaligned_le32(&hdr->flags);
	out->next_command = get_unaligned_le32(&hdr->next_command);
	out->message_id = get_unaligned_le64(&hdr->message_id);
	out->async_id = get_unaligned_le64(&hdr->id.async_id);
	out->process_id = get_unaligned_le32(&hdr->id.sync.process_id);
	out->tree_id = get_unaligned_le32(&hdr->id.sync.tree_id);
	out->session_id = get_unaligned_le64(&hdr->session_id);
}

static enum ksmbd_valid check_command(struct ksmbd_req *req, u32 fixed_end)
{
	enum ksmbd_valid v;

	switch (req->hdr.command) {
	case SMB2_NEGOTIATE:
		return check_negotiate(req);
	case SMB2_LOCK:
		return check_lock(req);
	case SMB2_TREE_CONNECT:
		v = check_tree_connect(req);
		return v != KSMBD_VALID_OK ? v : check_buffers(req, fixed_end);
	case SMB2_CREATE:
		v = check_buffers(req, fixed_end);
		if (v != KSMBD_VALID_OK)
			return v;
		return ksmbd_create_ctx_validate(&req->buf[KSMBD_CREATE_CONTEXTS]);
	default:
		return check_buffers(req, fixed_end);
	}
}

enum ksmbd_valid ksmbd_request_validate(const u8 *elem, u32 len,
					const struct ksmbd_req_limits *lim,
					struct ksmbd_req *req)
{
	enum ksmbd_valid v;
	u16 fixed;

	memset(req, 0, sizeof(*req));
	if (len < SMB2_HEADER_SIZE)
		return KSMBD_VALID_TOO_SHORT;
	v = check_header(elem);
	if (v != KSMBD_VALID_OK)
		return v;
	req->elem = ksmbd_buf_make(elem, len);
	req->body = ksmbd_buf_make(elem + SMB2_HEADER_SIZE, len - SMB2_HEADER_SIZE);
	ksmbd_req_hdr_decode(elem, &req->hdr);
	if (req->hdr.command >= SMB2_COMMAND_COUNT)
		return KSMBD_VALID_BAD_COMMAND;

	v = fixed_size(req, &fixed);
	if (v != KSMBD_VALID_OK)
		return v;
	v = check_command(req, SMB2_HEADER_SIZE + fixed);
	if (v != KSMBD_VALID_OK)
		return v;
	v = check_limits(req, lim);
	if (v != KSMBD_VALID_OK)
		return v;
	if (lim->multi_credit)
		return check_credit(req);
	return KSMBD_VALID_OK;
}

/* ---- Create contexts ---- */

int ksmbd_create_ctx_next(const struct ksmbd_buf *list, u32 *pos,
			  struct ksmbd_create_ctx *ctx)
{
	const struct smb2_create_context *cc;
	u32 rest, next, size, name_off, name_len, data_off, data_len;

	if (*pos == list->len)
		return 0;
	if (*pos > list->len)
		return -EINVAL;
	rest = list->len - *pos;
	if (rest < sizeof(*cc))
		return -EINVAL;
	cc = (const void *)(list->p + *pos);
	next = get_unaligned_le32(&cc->next);
	name_off = get_unaligned_le16(&cc->name_offset);
	name_len = get_unaligned_le16(&cc->name_length);
	data_off = get_unaligned_le16(&cc->data_offset);
	data_len = get_unaligned_le32(&cc->data_length);

	/* A non-zero Next must leave room for another context after this. */
	if (next && (!IS_ALIGNED(next, 8) || next < sizeof(*cc) || next >= rest))
		return -EINVAL;
	size = next ? next : rest;

	if (name_len < 4 || name_off < sizeof(*cc) ||
	    !ksmbd_range_ok(size, name_off, name_len))
		return -EINVAL;
	if (data_len) {
		if (!IS_ALIGNED(data_off, 8) || data_off < name_off + name_len ||
		    !ksmbd_range_ok(size, data_off, data_len))
			return -EINVAL;
	}
	ctx->name = ksmbd_buf_make(list->p + *pos + name_off, name_len);
	ctx->data = ksmbd_buf_make(data_len ? list->p + *pos + data_off : NULL,
				   data_len);
	*pos += size;
	return 1;
}

enum ksmbd_valid ksmbd_create_ctx_validate(const struct ksmbd_buf *list)
{
	struct ksmbd_create_ctx ctx;
	u32 pos = 0;
	int rc;

	while ((rc = ksmbd_create_ctx_next(list, &pos, &ctx)) > 0)
		;
	return rc < 0 ? KSMBD_VALID_BAD_CONTEXT : KSMBD_VALID_OK;
}

int ksmbd_create_ctx_find(const struct ksmbd_buf *list, const char *tag,
			  u32 tag_len, struct ksmbd_create_ctx *ctx)
{
	u32 pos = 0;
	int rc;

	while ((rc = ksmbd_create_ctx_next(list, &pos, ctx)) > 0)
		if (ctx->name.len == tag_len && !memcmp(ctx->name.p, tag, tag_len))
			return 0;
	return rc < 0 ? rc : -ENOENT;
}

/* ---- Durable handle contexts ---- */

enum { DH_Q = 1, DH_C = 2, DH2_Q = 4, DH2_C = 8 };

/* Which durable context c is (0: none), its data checked for size. */
static int durable_tag(const struct ksmbd_create_ctx *c)
{
	static const struct {
		char tag[4];
		u32 size;
		int bit;
	} tags[] = {
		{ "DHnQ", 16, DH_Q }, { "DHnC", 16, DH_C },
		{ "DH2Q", 32, DH2_Q }, { "DH2C", 36, DH2_C },
	};
	u32 i;

	if (c->name.len != 4)
		return 0;
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		if (memcmp(c->name.p, tags[i].tag, 4))
			continue;
		return c->data.len == tags[i].size ? tags[i].bit : -EINVAL;
	}
	return 0;
}

/* FileId (16 bytes) at data offset 0 of DHnC and DH2C. */
static void durable_file_id(const struct ksmbd_buf *d,
			    struct ksmbd_durable_req *out)
{
	ksmbd_buf_get_le64(d, 0, &out->persistent_id);
	ksmbd_buf_get_le64(d, 8, &out->volatile_id);
}

int ksmbd_durable_ctx_parse(const struct ksmbd_buf *list,
			    struct ksmbd_durable_req *out)
{
	struct ksmbd_create_ctx c, found[4];
	int rc, bit, seen = 0;
	u32 pos = 0;

	memset(out, 0, sizeof(*out));
	while ((rc = ksmbd_create_ctx_next(list, &pos, &c)) > 0) {
		bit = durable_tag(&c);
		if (bit < 0)
			return -EINVAL;
		if (!bit || (seen & bit))
			continue;	/* the first of a tag counts, as find() */
		seen |= bit;
		found[bit == DH_Q ? 0 : bit == DH_C ? 1 : bit == DH2_Q ? 2 : 3] = c;
	}
	if (rc < 0)
		return rc;
	if ((seen & DH2_Q) && (seen & ~DH2_Q))
		return -EINVAL;
	if ((seen & DH2_C) && (seen & ~DH2_C))
		return -EINVAL;
	if (seen & DH2_C) {
		out->kind = KSMBD_DH_V2_RECONNECT;
		durable_file_id(&found[3].data, out);
		memcpy(out->create_guid, found[3].data.p + 16, 16);
		ksmbd_buf_get_le32(&found[3].data, 32, &out->flags);
	} else if (seen & DH2_Q) {
		out->kind = KSMBD_DH_V2_REQ;
		ksmbd_buf_get_le32(&found[2].data, 0, &out->timeout_ms);
		ksmbd_buf_get_le32(&found[2].data, 4, &out->flags);
		memcpy(out->create_guid, found[2].data.p + 16, 16);
	} else if (seen & DH_C) {
		out->kind = KSMBD_DH_V1_RECONNECT;
		durable_file_id(&found[1].data, out);
	} else if (seen & DH_Q) {
		out->kind = KSMBD_DH_V1_REQ;
	}
	return 0;
}

/* ---- Typed requests ---- */

static bool req_is(const struct ksmbd_req *req, u16 command, u32 fixed)
{
	return req->elem.p && req->hdr.command == command &&
	       req->body.len >= fixed;
}

int ksmbd_negotiate_decode(const struct ksmbd_req *req,
			   struct ksmbd_negotiate_req *out)
{
	const struct smb2_negotiate_req *nr;
	u16 i;

	if (!req_is(req, SMB2_NEGOTIATE, sizeof(*nr)))
		return -EINVAL;
	nr = (const void *)req->body.p;
	memset(out, 0, sizeof(*out));
	out->dialect_count = get_unaligned_le16(&nr->dialect_count);
	out->security_mode = get_unaligned_le16(&nr->security_mode);
	out->capabilities = get_unaligned_le32(&nr->capabilities);
	memcpy(out->client_guid, nr->client_guid, sizeof(out->client_guid));
	out->dialects = req->buf[KSMBD_NEG_DIALECTS];
	if (out->dialects.len != out->dialect_count * 2u)
		return -EINVAL;
	for (i = 0; i < out->dialect_count; i++)
		if (ksmbd_negotiate_dialect(out, i) == SMB311_DIALECT)
			out->offers_311 = true;
	if (out->offers_311) {
		out->contexts = req->buf[KSMBD_NEG_CONTEXTS];
		out->context_count = out->contexts.len ?
			get_unaligned_le16(&nr->negotiate_context_count) : 0;
		out->contexts_offset = (u32)(out->contexts.p - req->elem.p);
	}
	return 0;
}

u16 ksmbd_negotiate_dialect(const struct ksmbd_negotiate_req *neg, u16 i)
{
	u16 d = 0;

	if (!ksmbd_buf_get_le16(&neg->dialects, (u32)i * 2, &d))
		return 0;
	return d;
}

int ksmbd_sess_setup_decode(const struct ksmbd_req *req,
			    struct ksmbd_sess_setup_req *out)
{
	const struct smb2_sess_setup_req *sr;

	if (!req_is(req, SMB2_SESSION_SETUP, sizeof(*sr)))
		return -EINVAL;
	sr = (const void *)req->body.p;
	out->flags = sr->flags;
	out->security_mode = sr->security_mode;
	out->capabilities = get_unaligned_le32(&sr->capabilities);
	out->channel = get_unaligned_le32(&sr->channel);
	out->previous_session_id = get_unaligned_le64(&sr->previous_session_id);
	out->security_blob = req->buf[KSMBD_SESS_BLOB];
	return 0;
}

int ksmbd_tree_connect_decode(const struct ksmbd_req *req,
			      struct ksmbd_tree_connect_req *out)
{
	const struct smb2_tree_connect_req *tr;

	if (!req_is(req, SMB2_TREE_CONNECT, sizeof(*tr)))
		return -EINVAL;
	tr = (const void *)req->body.p;
	memset(out, 0, sizeof(*out));
	out->flags = get_unaligned_le16(&tr->flags);
	out->path = req->buf[KSMBD_TCON_PATH];
	out->extension_present = req->buf[KSMBD_TCON_EXT].len != 0;
	if (out->extension_present) {
		const struct smb2_tree_connect_req_ext *ext =
			(const void *)req->buf[KSMBD_TCON_EXT].p;

		out->context_count =
			get_unaligned_le16(&ext->tree_connect_context_count);
	}
	return 0;
}

int ksmbd_simple_decode(const struct ksmbd_req *req, u16 command)
{
	switch (command) {
	case SMB2_LOGOFF:
	case SMB2_TREE_DISCONNECT:
	case SMB2_ECHO:
	case SMB2_CANCEL:
		return req_is(req, command, SMB2_SIMPLE_SIZE) ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}
