// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FSCTL inputs and SET_INFO class buffers (see decode.h): the gate bounded
 * these buffers inside their element but knows nothing of their layout,
 * so each decoder checks the length its structure needs.
 */
#include "decode.h"
#include "fscc.h"

#define le16_at(s, f)	get_unaligned_le16(&(s)->f)
#define le32_at(s, f)	get_unaligned_le32(&(s)->f)
#define le64_at(s, f)	get_unaligned_le64(&(s)->f)

/* The buffer as a structure of size bytes, or NULL when shorter. */
static const void *as(const struct ksmbd_buf *b, u32 size)
{
	return b->len >= size ? b->p : NULL;
}

/* ---- FSCTL inputs ---- */

int ksmbd_fsctl_validate_negotiate_decode(const struct ksmbd_buf *in,
				struct ksmbd_fsctl_validate_negotiate *out)
{
	const struct fsctl_validate_negotiate_req *v = as(in, sizeof(*v));

	if (!v)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->capabilities = le32_at(v, capabilities);
	memcpy(out->guid, v->guid, sizeof(out->guid));
	out->security_mode = le16_at(v, security_mode);
	out->dialect_count = le16_at(v, dialect_count);
	if (!ksmbd_buf_sub(in, sizeof(*v), 2u * out->dialect_count,
			   &out->dialects))
		return -EINVAL;
	return 0;
}

u16 ksmbd_fsctl_vneg_dialect(const struct ksmbd_fsctl_validate_negotiate *v,
			     u16 i)
{
	u16 d = 0;

	if (i >= v->dialect_count ||
	    !ksmbd_buf_get_le16(&v->dialects, 2u * i, &d))
		return 0;
	return d;
}

int ksmbd_fsctl_copychunk_decode(const struct ksmbd_buf *in,
				 struct ksmbd_fsctl_copychunk *out)
{
	const struct srv_copychunk_copy *c = as(in, sizeof(*c));
	u64 size;

	if (!c)
		return -EINVAL;
	memcpy(out->source_key, c->source_key, sizeof(out->source_key));
	out->count = le32_at(c, chunk_count);
	size = (u64)out->count * sizeof(struct srv_copychunk);
	if (size > in->len - sizeof(*c))
		return -EINVAL;
	out->chunks = ksmbd_buf_make(in->p + sizeof(*c), (u32)size);
	return 0;
}

bool ksmbd_fsctl_copychunk_entry(const struct ksmbd_fsctl_copychunk *cc,
				 u32 i, struct ksmbd_copychunk_entry *e)
{
	const struct srv_copychunk *ch;
	struct ksmbd_buf s;

	memset(e, 0, sizeof(*e));
	if (i >= cc->count ||
	    !ksmbd_buf_sub(&cc->chunks, i * (u32)sizeof(*ch), sizeof(*ch), &s))
		return false;
	ch = (const void *)s.p;
	e->source_offset = le64_at(ch, source_offset);
	e->target_offset = le64_at(ch, target_offset);
	e->length = le32_at(ch, length);
	return true;
}

void ksmbd_resume_key_ids(const u8 key[KSMBD_RESUME_KEY_SIZE], u64 *pid,
			  u64 *vid)
{
	*pid = get_unaligned_le64(key);
	*vid = get_unaligned_le64(key + 8);
}

int ksmbd_fsctl_duplicate_extents_decode(const struct ksmbd_buf *in,
				struct ksmbd_fsctl_duplicate_extents *out)
{
	const struct duplicate_extents_data *d = as(in, sizeof(*d));

	if (!d)
		return -EINVAL;
	out->source_pid = le64_at(d, persistent_file_id);
	out->source_vid = le64_at(d, volatile_file_id);
	out->source_offset = le64_at(d, source_file_offset);
	out->target_offset = le64_at(d, target_file_offset);
	out->byte_count = le64_at(d, byte_count);
	return 0;
}

int ksmbd_fsctl_zero_data_decode(const struct ksmbd_buf *in,
				 struct ksmbd_fsctl_zero_data *out)
{
	const struct file_zero_data_information *z = as(in, sizeof(*z));

	if (!z)
		return -EINVAL;
	out->offset = le64_at(z, file_offset);
	out->beyond_final_zero = le64_at(z, beyond_final_zero);
	return 0;
}

int ksmbd_fsctl_allocated_ranges_decode(const struct ksmbd_buf *in,
					struct ksmbd_fsctl_range *out)
{
	const struct file_allocated_range_buffer *r = as(in, sizeof(*r));

	if (!r)
		return -EINVAL;
	out->offset = le64_at(r, file_offset);
	out->length = le64_at(r, length);
	return 0;
}

int ksmbd_fsctl_set_compression_decode(const struct ksmbd_buf *in, u16 *format)
{
	const struct compression_state *c = as(in, sizeof(*c));

	if (!c)
		return -EINVAL;
	*format = le16_at(c, compression_state);
	return 0;
}

/* ---- SET_INFO classes ---- */

int ksmbd_setinfo_basic_decode(const struct ksmbd_buf *b,
			       struct ksmbd_info_basic *out)
{
	const struct file_basic_information *fb =
		as(b, FILE_BASIC_INFORMATION_MIN);

	if (!fb)
		return -EMSGSIZE;
	out->creation_time = le64_at(fb, creation_time);
	out->last_access_time = le64_at(fb, last_access_time);
	out->last_write_time = le64_at(fb, last_write_time);
	out->change_time = le64_at(fb, change_time);
	out->attributes = le32_at(fb, file_attributes);
	return 0;
}

int ksmbd_setinfo_rename_decode(const struct ksmbd_buf *b,
				struct ksmbd_info_rename *out)
{
	const struct file_rename_information *r = as(b, sizeof(*r));
	u32 len;

	if (!r)
		return -EMSGSIZE;
	out->replace = r->replace_if_exists != 0;
	out->root_directory = le64_at(r, root_directory);
	len = le32_at(r, file_name_length);
	if (!len || !ksmbd_buf_sub(b, sizeof(*r), len, &out->name))
		return -EINVAL;
	return 0;
}

int ksmbd_setinfo_disposition_decode(const struct ksmbd_buf *b, bool *on)
{
	const struct file_disposition_information *d = as(b, sizeof(*d));

	if (!d)
		return -EMSGSIZE;
	*on = d->delete_pending != 0;
	return 0;
}

int ksmbd_setinfo_disposition_ex_decode(const struct ksmbd_buf *b, u32 *flags)
{
	const struct file_disposition_information_ex *d = as(b, sizeof(*d));

	if (!d)
		return -EMSGSIZE;
	*flags = le32_at(d, flags);
	return 0;
}

static int u64_info(const struct ksmbd_buf *b, u64 *v)
{
	const struct file_u64_information *i = as(b, sizeof(*i));

	if (!i)
		return -EMSGSIZE;
	*v = le64_at(i, value);
	return 0;
}

int ksmbd_setinfo_eof_decode(const struct ksmbd_buf *b, u64 *size)
{
	return u64_info(b, size);
}

int ksmbd_setinfo_allocation_decode(const struct ksmbd_buf *b, u64 *size)
{
	return u64_info(b, size);
}

int ksmbd_setinfo_position_decode(const struct ksmbd_buf *b, u64 *pos)
{
	return u64_info(b, pos);
}

int ksmbd_setinfo_mode_decode(const struct ksmbd_buf *b, u32 *mode)
{
	const struct file_mode_information *m = as(b, sizeof(*m));

	if (!m)
		return -EMSGSIZE;
	*mode = le32_at(m, mode);
	return 0;
}
