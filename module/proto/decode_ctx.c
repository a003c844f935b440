// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Data of the create contexts CREATE acts on (MS-SMB2 2.2.13.2) and the
 * FILE_GET_EA_INFORMATION list of QUERY_INFO (MS-FSCC 2.4.15.1), see
 * decode.h. The context chain itself was walked by the gate; each data
 * part is only bounded, so every decoder checks the size it needs.
 */
#include "decode.h"
#include "fscc.h"

#define le16_at(s, f)	get_unaligned_le16(&(s)->f)
#define le32_at(s, f)	get_unaligned_le32(&(s)->f)
#define le64_at(s, f)	get_unaligned_le64(&(s)->f)

int ksmbd_ctx_alloc_size_decode(const struct ksmbd_buf *data, u64 *size)
{
	const struct smb2_create_alloc_size *a = (const void *)data->p;

	if (data->len < sizeof(*a))
		return -EINVAL;
	*size = le64_at(a, allocation_size);
	return 0;
}

int ksmbd_ctx_app_instance_decode(const struct ksmbd_buf *data,
				  u8 id[SMB2_APP_INSTANCE_ID_SIZE])
{
	const struct smb2_create_app_instance_id *a = (const void *)data->p;

	if (data->len < sizeof(*a) ||
	    le16_at(a, structure_size) != sizeof(*a))
		return -EINVAL;
	memcpy(id, a->app_instance_id, SMB2_APP_INSTANCE_ID_SIZE);
	return 0;
}

int ksmbd_ctx_lease_decode(const struct ksmbd_buf *data, bool v2_allowed,
			   struct ksmbd_lease_ctx *out)
{
	const struct smb2_create_lease_v2 *l2 = (const void *)data->p;
	const struct smb2_create_lease *l = (const void *)data->p;

	memset(out, 0, sizeof(*out));
	if (data->len >= sizeof(*l2) && v2_allowed) {
		out->version = 2;
		memcpy(out->parent_key, l2->parent_lease_key,
		       sizeof(out->parent_key));
		out->epoch = le16_at(l2, epoch);
	} else if (data->len >= sizeof(*l)) {
		out->version = 1;
	} else {
		return -EINVAL;
	}
	/* v2 starts with the whole of v1 */
	memcpy(out->key, l->lease_key, sizeof(out->key));
	out->state = le32_at(l, lease_state);
	out->flags = le32_at(l, lease_flags);
	out->duration = le64_at(l, lease_duration);
	return 0;
}

int ksmbd_get_ea_entry(const struct ksmbd_buf *list, u32 pos,
		       struct ksmbd_buf *name, u32 *next)
{
	const struct file_get_ea_information *e;
	struct ksmbd_buf ent;
	u32 n;

	if (!ksmbd_buf_sub(list, pos, list->len - min(pos, list->len), &ent) ||
	    ent.len < sizeof(*e))
		return -EINVAL;
	e = (const void *)ent.p;
	if (!ksmbd_buf_sub(&ent, sizeof(*e), e->ea_name_length, name))
		return -EINVAL;
	n = le32_at(e, next_entry_offset);
	/* One past this list ends it, as a zero does. */
	*next = n > ent.len ? 0 : n;
	return 0;
}
