// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Typed decoders for the file commands (see decode.h).  Fields are read
 * through the smb2.h structures; the gate already proved the fixed part
 * present and every variable part inside the element, so the only checks
 * here keep a decoder safe on its own (a wrong or short element).
 */
#include "decode.h"

#define le16_at(s, f)	get_unaligned_le16(&(s)->f)
#define le32_at(s, f)	get_unaligned_le32(&(s)->f)
#define le64_at(s, f)	get_unaligned_le64(&(s)->f)

/* The body as the fixed part of command, or NULL. */
static const void *fixed_body(const struct ksmbd_req *req, u16 command,
			      u32 fixed)
{
	if (!req->elem.p || req->hdr.command != command ||
	    req->body.len < fixed)
		return NULL;
	return req->body.p;
}

int ksmbd_create_decode(const struct ksmbd_req *req, struct ksmbd_create_req *out)
{
	const struct smb2_create_req *r =
		fixed_body(req, SMB2_CREATE, sizeof(*r));

	if (!r)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->security_flags = r->security_flags;
	out->oplock_level = r->requested_oplock_level;
	out->impersonation_level = le32_at(r, impersonation_level);
	out->create_flags = le64_at(r, smb_create_flags);
	out->desired_access = le32_at(r, desired_access);
	out->file_attributes = le32_at(r, file_attributes);
	out->share_access = le32_at(r, share_access);
	out->disposition = le32_at(r, create_disposition);
	out->options = le32_at(r, create_options);
	out->name = req->buf[KSMBD_CREATE_NAME];
	out->contexts = req->buf[KSMBD_CREATE_CONTEXTS];
	return 0;
}

int ksmbd_close_decode(const struct ksmbd_req *req, struct ksmbd_close_req *out)
{
	const struct smb2_close_req *r = fixed_body(req, SMB2_CLOSE, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->flags = le16_at(r, flags);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	return 0;
}

int ksmbd_flush_decode(const struct ksmbd_req *req, struct ksmbd_flush_req *out)
{
	const struct smb2_flush_req *r = fixed_body(req, SMB2_FLUSH, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	return 0;
}

int ksmbd_read_decode(const struct ksmbd_req *req, struct ksmbd_read_req *out)
{
	const struct smb2_read_req *r = fixed_body(req, SMB2_READ, sizeof(*r));

	if (!r)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->padding = r->padding;
	out->flags = r->flags;
	out->length = le32_at(r, length);
	out->offset = le64_at(r, offset);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	out->minimum_count = le32_at(r, minimum_count);
	out->channel = le32_at(r, channel);
	out->remaining_bytes = le32_at(r, remaining_bytes);
	out->channel_info = req->buf[KSMBD_READ_CHANNEL];
	return 0;
}

int ksmbd_write_decode(const struct ksmbd_req *req, struct ksmbd_write_req *out)
{
	const struct smb2_write_req *r = fixed_body(req, SMB2_WRITE, sizeof(*r));

	if (!r)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->offset = le64_at(r, offset);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	out->channel = le32_at(r, channel);
	out->remaining_bytes = le32_at(r, remaining_bytes);
	out->flags = le32_at(r, flags);
	out->data = req->buf[KSMBD_WRITE_DATA];
	out->channel_info = req->buf[KSMBD_WRITE_CHANNEL];
	/* The validated slice's, never the field's own claim. */
	out->length = out->data.len;
	return 0;
}

int ksmbd_lock_decode(const struct ksmbd_req *req, struct ksmbd_lock_req *out)
{
	const struct smb2_lock_req *r = fixed_body(req, SMB2_LOCK, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->count = le16_at(r, lock_count);
	out->sequence = le32_at(r, lock_sequence);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	out->elements = req->buf[KSMBD_LOCK_ELEMENTS];
	if (!out->count ||
	    out->elements.len != (u32)out->count * sizeof(struct smb2_lock_element))
		return -EINVAL;
	return 0;
}

bool ksmbd_lock_elem(const struct ksmbd_lock_req *lk, u32 i,
		     struct ksmbd_lock_elem *e)
{
	const struct smb2_lock_element *le;
	struct ksmbd_buf s;

	memset(e, 0, sizeof(*e));
	if (i >= lk->count ||
	    !ksmbd_buf_sub(&lk->elements, i * sizeof(*le), sizeof(*le), &s))
		return false;
	le = (const void *)s.p;
	e->offset = le64_at(le, offset);
	e->length = le64_at(le, length);
	e->flags = le32_at(le, flags);
	return true;
}

int ksmbd_ioctl_decode(const struct ksmbd_req *req, struct ksmbd_ioctl_req *out)
{
	const struct smb2_ioctl_req *r = fixed_body(req, SMB2_IOCTL, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->ctl_code = le32_at(r, ctl_code);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	out->max_input_response = le32_at(r, max_input_response);
	out->max_output_response = le32_at(r, max_output_response);
	out->flags = le32_at(r, flags);
	out->input = req->buf[KSMBD_IOCTL_INPUT];
	out->output = req->buf[KSMBD_IOCTL_OUTPUT];
	return 0;
}

int ksmbd_query_dir_decode(const struct ksmbd_req *req,
			   struct ksmbd_query_dir_req *out)
{
	const struct smb2_query_directory_req *r =
		fixed_body(req, SMB2_QUERY_DIRECTORY, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->info_class = r->file_information_class;
	out->flags = r->flags;
	out->file_index = le32_at(r, file_index);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	out->output_len = le32_at(r, output_buffer_length);
	out->pattern = req->buf[KSMBD_QDIR_NAME];
	return 0;
}

int ksmbd_notify_decode(const struct ksmbd_req *req, struct ksmbd_notify_req *out)
{
	const struct smb2_change_notify_req *r =
		fixed_body(req, SMB2_CHANGE_NOTIFY, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->flags = le16_at(r, flags);
	out->output_len = le32_at(r, output_buffer_length);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	out->completion_filter = le32_at(r, completion_filter);
	return 0;
}

int ksmbd_query_info_decode(const struct ksmbd_req *req,
			    struct ksmbd_query_info_req *out)
{
	const struct smb2_query_info_req *r =
		fixed_body(req, SMB2_QUERY_INFO, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->info_type = r->info_type;
	out->info_class = r->file_info_class;
	out->output_len = le32_at(r, output_buffer_length);
	out->additional = le32_at(r, additional_information);
	out->flags = le32_at(r, flags);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	out->input = req->buf[KSMBD_QINFO_INPUT];
	return 0;
}

int ksmbd_set_info_decode(const struct ksmbd_req *req,
			  struct ksmbd_set_info_req *out)
{
	const struct smb2_set_info_req *r =
		fixed_body(req, SMB2_SET_INFO, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->info_type = r->info_type;
	out->info_class = r->file_info_class;
	out->additional = le32_at(r, additional_information);
	out->pid = le64_at(r, persistent_file_id);
	out->vid = le64_at(r, volatile_file_id);
	out->buffer = req->buf[KSMBD_SINFO_BUFFER];
	return 0;
}

/* StructureSize tells the two apart; the gate allowed only these two. */
int ksmbd_oplock_break_decode(const struct ksmbd_req *req,
			      struct ksmbd_oplock_break_req *out)
{
	const struct smb2_oplock_break *ob =
		fixed_body(req, SMB2_OPLOCK_BREAK, sizeof(*ob));
	const struct smb2_lease_ack *la;

	if (!ob)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	switch (le16_at(ob, structure_size)) {
	case SMB2_OPLOCK_BREAK_SIZE:
		out->oplock_level = ob->oplock_level;
		out->pid = le64_at(ob, persistent_file_id);
		out->vid = le64_at(ob, volatile_file_id);
		return 0;
	case SMB2_LEASE_ACK_SIZE:
		if (req->body.len < sizeof(*la))
			return -EINVAL;
		la = (const void *)req->body.p;
		out->lease = true;
		out->lease_flags = le32_at(la, flags);
		memcpy(out->lease_key, la->lease_key, sizeof(out->lease_key));
		out->lease_state = le32_at(la, lease_state);
		out->lease_duration = le64_at(la, lease_duration);
		return 0;
	default:
		return -EINVAL;
	}
}

/* ---- Whole frames ---- */

static const struct smb2_hdr *frame_hdr(const u8 *frame, u32 len)
{
	const struct smb2_hdr *h = (const void *)frame;

	if (len < SMB2_HEADER_SIZE ||
	    get_unaligned_le32(&h->protocol_id) != le32_to_cpu(SMB2_PROTO_NUMBER))
		return NULL;
	return h;
}

bool ksmbd_frame_lone_command(const u8 *frame, u32 len, u16 *command)
{
	const struct smb2_hdr *h = frame_hdr(frame, len);

	if (!h || le32_at(h, next_command))
		return false;
	*command = le16_at(h, command);
	return true;
}

bool ksmbd_frame_read_length(const u8 *frame, u32 len, u32 *length)
{
	const struct smb2_hdr *h = frame_hdr(frame, len);
	const struct smb2_read_req *r;

	if (!h || le16_at(h, command) != SMB2_READ ||
	    len < SMB2_HEADER_SIZE + offsetof(struct smb2_read_req, offset))
		return false;
	r = (const void *)(frame + SMB2_HEADER_SIZE);
	*length = le32_at(r, length);
	return true;
}

bool ksmbd_frame_lone_read(const u8 *frame, u32 len,
			   struct ksmbd_frame_read *out)
{
	const struct smb2_hdr *h = (const void *)frame;
	const struct smb2_read_req *r;
	u16 command;

	if (!ksmbd_frame_lone_command(frame, len, &command) ||
	    command != SMB2_READ ||
	    len < SMB2_HEADER_SIZE + offsetof(struct smb2_read_req,
					      minimum_count))
		return false;
	r = (const void *)(frame + SMB2_HEADER_SIZE);
	out->session_id = le64_at(h, session_id);
	out->length = le32_at(r, length);
	out->offset = le64_at(r, offset);
	out->persistent_id = le64_at(r, persistent_file_id);
	out->volatile_id = le64_at(r, volatile_file_id);
	return true;
}

int ksmbd_smb1_negotiate_offers_smb2(const u8 *frame, u32 len)
{
	static const char wildcard[] = "SMB 2.???";
	const struct smb1_negotiate_req *n;
	struct ksmbd_buf list;
	const u8 *s, *nul;
	bool found = false;
	u32 pos = 0;

	if (len < SMB1_HEADER_SIZE + sizeof(*n))
		return -EINVAL;
	n = (const void *)(frame + SMB1_HEADER_SIZE);
	if (n->word_count ||
	    le16_at(n, byte_count) > len - SMB1_HEADER_SIZE - sizeof(*n))
		return -EINVAL;
	list = ksmbd_buf_make(frame + SMB1_HEADER_SIZE + sizeof(*n),
			      le16_at(n, byte_count));
	while (pos < list.len) {
		if (list.p[pos] != SMB1_DIALECT_MARKER)
			return -EINVAL;
		s = list.p + pos + 1;
		nul = memchr(s, 0, list.len - pos - 1);
		if (!nul)
			return -EINVAL;
		if (nul - s == sizeof(wildcard) - 1 &&
		    !memcmp(s, wildcard, sizeof(wildcard) - 1))
			found = true;
		pos += (nul - s) + 2;
	}
	return found;
}
