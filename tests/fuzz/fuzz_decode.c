// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: the input is one received frame (after the 4-byte transport
 * header).  Each element the gate accepts goes to every typed decoder of
 * proto/decode.h: its own command's must take it, every other must refuse
 * it, and what a decoder hands out must lie inside the element.  IOCTL
 * inputs go to every FSCTL decoder and SET_INFO buffers to every class
 * decoder, whatever their code or class says, as a hostile client would
 * send them, CREATE's contexts to the context decoders and QUERY_INFO's
 * input to the EA-list reader; the receive thread's frame checks and the
 * SMB1 upgrade check run on the raw input.
 */
#include "proto/decode.h"

#include <stdlib.h>

#define MAX_ELEMS 32

static void inside(const struct ksmbd_buf *outer, const struct ksmbd_buf *in)
{
	if (in->len && (in->p < outer->p ||
			in->p + in->len > outer->p + outer->len))
		abort();
}

/* Must succeed for its own command, fail for every other one. */
static void expect(int rc, bool own)
{
	if (own ? rc != 0 : rc != -EINVAL)
		abort();
}

static void fsctls(const struct ksmbd_buf *in)
{
	struct ksmbd_fsctl_validate_negotiate v;
	struct ksmbd_fsctl_duplicate_extents d;
	struct ksmbd_fsctl_copychunk cc;
	struct ksmbd_copychunk_entry e;
	struct ksmbd_fsctl_zero_data z;
	struct ksmbd_fsctl_range r;
	u64 pid, vid;
	u16 fmt;
	u32 i;

	if (!ksmbd_fsctl_validate_negotiate_decode(in, &v)) {
		inside(in, &v.dialects);
		for (i = 0; i <= v.dialect_count; i++)
			(void)ksmbd_fsctl_vneg_dialect(&v, (u16)i);
	}
	if (!ksmbd_fsctl_copychunk_decode(in, &cc)) {
		inside(in, &cc.chunks);
		ksmbd_resume_key_ids(cc.source_key, &pid, &vid);
		for (i = 0; i < cc.count && i < 1024; i++)
			if (!ksmbd_fsctl_copychunk_entry(&cc, i, &e))
				abort();
		if (ksmbd_fsctl_copychunk_entry(&cc, cc.count, &e))
			abort();
	}
	(void)ksmbd_fsctl_duplicate_extents_decode(in, &d);
	(void)ksmbd_fsctl_zero_data_decode(in, &z);
	(void)ksmbd_fsctl_allocated_ranges_decode(in, &r);
	(void)ksmbd_fsctl_set_compression_decode(in, &fmt);
}

static void setinfo_classes(const struct ksmbd_buf *b)
{
	struct ksmbd_info_basic bi;
	struct ksmbd_info_rename rn;
	bool on;
	u32 v32;
	u64 v64;

	(void)ksmbd_setinfo_basic_decode(b, &bi);
	if (!ksmbd_setinfo_rename_decode(b, &rn)) {
		if (!rn.name.len)
			abort();
		inside(b, &rn.name);
	}
	(void)ksmbd_setinfo_disposition_decode(b, &on);
	(void)ksmbd_setinfo_disposition_ex_decode(b, &v32);
	(void)ksmbd_setinfo_eof_decode(b, &v64);
	(void)ksmbd_setinfo_allocation_decode(b, &v64);
	(void)ksmbd_setinfo_position_decode(b, &v64);
	(void)ksmbd_setinfo_mode_decode(b, &v32);
}

static void create_contexts(const struct ksmbd_buf *list)
{
	struct ksmbd_create_ctx c;
	struct ksmbd_lease_ctx lc;
	u8 id[SMB2_APP_INSTANCE_ID_SIZE];
	u32 pos = 0;
	u64 size;

	while (ksmbd_create_ctx_next(list, &pos, &c) > 0) {
		(void)ksmbd_ctx_alloc_size_decode(&c.data, &size);
		(void)ksmbd_ctx_app_instance_decode(&c.data, id);
		if (!ksmbd_ctx_lease_decode(&c.data, true, &lc) &&
		    lc.version != 1 && lc.version != 2)
			abort();
		(void)ksmbd_ctx_lease_decode(&c.data, false, &lc);
	}
}

static void get_ea_list(const struct ksmbd_buf *list)
{
	struct ksmbd_buf name;
	u32 pos = 0, next, n = 0;

	while (!ksmbd_get_ea_entry(list, pos, &name, &next)) {
		inside(list, &name);
		if (!next || ++n > list->len)
			break;
		pos += next;
	}
}

static void decode_all(const struct ksmbd_req *req)
{
	u16 c = req->hdr.command;
	struct ksmbd_create_req cr;
	struct ksmbd_close_req cl;
	struct ksmbd_flush_req fl;
	struct ksmbd_read_req rd;
	struct ksmbd_write_req wr;
	struct ksmbd_lock_req lk;
	struct ksmbd_lock_elem le;
	struct ksmbd_ioctl_req io;
	struct ksmbd_query_dir_req qd;
	struct ksmbd_notify_req nt;
	struct ksmbd_query_info_req qi;
	struct ksmbd_set_info_req si;
	struct ksmbd_oplock_break_req ob;
	u32 i;

	expect(ksmbd_create_decode(req, &cr), c == SMB2_CREATE);
	expect(ksmbd_close_decode(req, &cl), c == SMB2_CLOSE);
	expect(ksmbd_flush_decode(req, &fl), c == SMB2_FLUSH);
	expect(ksmbd_read_decode(req, &rd), c == SMB2_READ);
	expect(ksmbd_write_decode(req, &wr), c == SMB2_WRITE);
	expect(ksmbd_lock_decode(req, &lk), c == SMB2_LOCK);
	expect(ksmbd_ioctl_decode(req, &io), c == SMB2_IOCTL);
	expect(ksmbd_query_dir_decode(req, &qd), c == SMB2_QUERY_DIRECTORY);
	expect(ksmbd_notify_decode(req, &nt), c == SMB2_CHANGE_NOTIFY);
	expect(ksmbd_query_info_decode(req, &qi), c == SMB2_QUERY_INFO);
	expect(ksmbd_set_info_decode(req, &si), c == SMB2_SET_INFO);
	expect(ksmbd_oplock_break_decode(req, &ob), c == SMB2_OPLOCK_BREAK);

	switch (c) {
	case SMB2_CREATE:
		inside(&req->elem, &cr.name);
		inside(&req->elem, &cr.contexts);
		create_contexts(&cr.contexts);
		break;
	case SMB2_READ:
		inside(&req->elem, &rd.channel_info);
		break;
	case SMB2_WRITE:
		inside(&req->elem, &wr.data);
		inside(&req->elem, &wr.channel_info);
		if (wr.length != wr.data.len)
			abort();
		break;
	case SMB2_LOCK:
		inside(&req->elem, &lk.elements);
		for (i = 0; i < lk.count; i++)
			if (!ksmbd_lock_elem(&lk, i, &le))
				abort();
		break;
	case SMB2_IOCTL:
		inside(&req->elem, &io.input);
		inside(&req->elem, &io.output);
		fsctls(&io.input);
		break;
	case SMB2_QUERY_DIRECTORY:
		inside(&req->elem, &qd.pattern);
		break;
	case SMB2_QUERY_INFO:
		inside(&req->elem, &qi.input);
		get_ea_list(&qi.input);
		break;
	case SMB2_SET_INFO:
		inside(&req->elem, &si.buffer);
		setinfo_classes(&si.buffer);
		break;
	default:
		break;
	}
}

static void frame_checks(const u8 *data, u32 size)
{
	struct ksmbd_frame_read rd;
	u16 cmd;
	u32 len;

	if (ksmbd_frame_lone_command(data, size, &cmd) &&
	    (size < SMB2_HEADER_SIZE || cmd != get_unaligned_le16(data + 12)))
		abort();
	if (ksmbd_frame_read_length(data, size, &len) &&
	    get_unaligned_le16(data + 12) != SMB2_READ)
		abort();
	if (ksmbd_frame_lone_read(data, size, &rd) &&
	    (size < SMB2_HEADER_SIZE + 32 ||
	     get_unaligned_le16(data + 12) != SMB2_READ ||
	     get_unaligned_le32(data + 20) ||
	     rd.volatile_id != get_unaligned_le64(data + 88)))
		abort();
	if (size >= 5 && data[0] == 0xff)
		(void)ksmbd_smb1_negotiate_offers_smb2(data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ksmbd_req_limits lim = {
		.max_read = 1 << 20, .max_write = 1 << 20, .max_trans = 1 << 16,
		.multi_credit = true,
	};
	struct ksmbd_elem elems[MAX_ELEMS];
	enum ksmbd_frame_kind kind;
	struct ksmbd_req req;
	u32 count = 0, i;

	if (size > 1 << 20)
		return 0;
	frame_checks(data, (u32)size);
	if (ksmbd_frame_classify(data, (u32)size, &kind) != KSMBD_VALID_OK ||
	    kind != KSMBD_FRAME_SMB2)
		return 0;
	(void)ksmbd_compound_walk(data, (u32)size, elems, MAX_ELEMS, &count);
	for (i = 0; i < count; i++) {
		if (ksmbd_request_validate(data + elems[i].off, elems[i].len,
					   &lim, &req) != KSMBD_VALID_OK)
			continue;
		decode_all(&req);
	}
	return 0;
}
