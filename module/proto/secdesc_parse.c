// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bounds-checked security descriptor parsing; see secdesc_parse.h.
 * The in-kernel ksmbd overflowed here more than once (bug classes 12, 32,
 * 46, 49): offsets inside the header, num_subauth past 15, AceCount larger
 * than AclSize allows, AclSize past the descriptor. Each is a check below.
 */
#include "secdesc_parse.h"

int ksmbd_sid_parse(const struct ksmbd_buf *b, u32 off, struct ksmbd_sid *sid,
		    u32 *size)
{
	struct ksmbd_buf s;
	u32 i, need;

	if (!ksmbd_buf_sub(b, off, KSMBD_SID_HDR_SIZE, &s))
		return -EINVAL;
	sid->revision = s.p[0];
	sid->num_subauth = s.p[1];
	if (sid->revision != 1 || sid->num_subauth > KSMBD_SID_MAX_SUB_AUTH)
		return -EINVAL;
	need = KSMBD_SID_HDR_SIZE + 4u * sid->num_subauth;
	if (!ksmbd_buf_sub(b, off, need, &s))
		return -EINVAL;
	memcpy(sid->authority, s.p + 2, 6);
	for (i = 0; i < sid->num_subauth; i++)
		sid->sub_auth[i] = get_unaligned_le32(s.p + 8 + 4 * i);
	*size = need;
	return 0;
}

void ksmbd_sid_put(struct ksmbd_wbuf *w, const struct ksmbd_sid *sid)
{
	u32 i;

	ksmbd_wbuf_put_u8(w, sid->revision);
	ksmbd_wbuf_put_u8(w, sid->num_subauth);
	ksmbd_wbuf_put(w, sid->authority, 6);
	for (i = 0; i < sid->num_subauth && i < KSMBD_SID_MAX_SUB_AUTH; i++)
		ksmbd_wbuf_put_le32(w, sid->sub_auth[i]);
}

bool ksmbd_sid_equal(const struct ksmbd_sid *a, const struct ksmbd_sid *b)
{
	u32 i;

	if (a->revision != b->revision || a->num_subauth != b->num_subauth ||
	    memcmp(a->authority, b->authority, 6))
		return false;
	for (i = 0; i < a->num_subauth; i++)
		if (a->sub_auth[i] != b->sub_auth[i])
			return false;
	return true;
}

u64 ksmbd_sid_authority(const struct ksmbd_sid *sid)
{
	u64 v = 0;
	u32 i;

	for (i = 0; i < 6; i++)
		v = (v << 8) | sid->authority[i];
	return v;
}

/*
 * Where the SID of an ACE type starts (from the ACE's start), or 0 for a
 * type that carries none the descriptor code looks at (compound ACEs,
 * unknown types). Object types put their ObjectFlags at 8 and one GUID
 * per flag after it.
 */
static int sid_offset(const struct ksmbd_buf *a, struct ksmbd_ace *ace,
		      u32 *sid_off)
{
	switch (ace->type) {
	case KSMBD_ACE_ACCESS_ALLOWED:
	case KSMBD_ACE_ACCESS_DENIED:
	case KSMBD_ACE_SYSTEM_AUDIT:
	case KSMBD_ACE_SYSTEM_ALARM:
	case KSMBD_ACE_ACCESS_ALLOWED_CALLBACK:
	case KSMBD_ACE_ACCESS_DENIED_CALLBACK:
	case KSMBD_ACE_SYSTEM_AUDIT_CALLBACK:
	case KSMBD_ACE_SYSTEM_ALARM_CALLBACK:
	case KSMBD_ACE_SYSTEM_MANDATORY_LABEL:
	case KSMBD_ACE_SYSTEM_RESOURCE_ATTRIBUTE:
	case KSMBD_ACE_SYSTEM_SCOPED_POLICY_ID:
		*sid_off = 8;
		return 0;
	case KSMBD_ACE_ACCESS_ALLOWED_OBJECT:
	case KSMBD_ACE_ACCESS_DENIED_OBJECT:
	case KSMBD_ACE_SYSTEM_AUDIT_OBJECT:
	case KSMBD_ACE_SYSTEM_ALARM_OBJECT:
	case KSMBD_ACE_ACCESS_ALLOWED_CALLBACK_OBJECT:
	case KSMBD_ACE_ACCESS_DENIED_CALLBACK_OBJECT:
	case KSMBD_ACE_SYSTEM_AUDIT_CALLBACK_OBJECT:
	case KSMBD_ACE_SYSTEM_ALARM_CALLBACK_OBJECT:
		if (!ksmbd_buf_get_le32(a, 8, &ace->obj_flags))
			return -EINVAL;
		*sid_off = 12;
		if (ace->obj_flags & KSMBD_ACE_OBJECT_TYPE_PRESENT)
			*sid_off += 16;
		if (ace->obj_flags & KSMBD_ACE_INHERITED_OBJECT_TYPE_PRESENT)
			*sid_off += 16;
		return 0;
	default:
		*sid_off = 0;
		return 0;
	}
}

/* One ACE at *pos of the ACL; moves *pos past it. */
static int ace_parse(const struct ksmbd_buf *acl, u32 *pos,
		     struct ksmbd_ace *ace)
{
	struct ksmbd_buf a;
	u32 sid_size, sid_off;
	u16 size;

	/*
	 * No ACE type is smaller than KSMBD_ACE_MIN_SIZE; the AceCount bound
	 * in ksmbd_acl_check() assumes it, and an ACL re-encoded from its ACEs
	 * (sd_build.c) must pass that bound again. AceSize MUST be a
	 * multiple of 4 (MS-DTYP 2.4.4.1), so every ACE, and every ACL and
	 * descriptor part made of them, keeps 4-byte alignment.
	 */
	if (!ksmbd_buf_get_le16(acl, *pos + 2, &size) ||
	    size < KSMBD_ACE_MIN_SIZE || (size & 3) ||
	    !ksmbd_buf_sub(acl, *pos, size, &a))
		return -EINVAL;
	memset(ace, 0, sizeof(*ace));
	ace->type = a.p[0];
	ace->flags = a.p[1];
	ace->size = size;
	ace->off = *pos;
	if (sid_offset(&a, ace, &sid_off))
		return -EINVAL;
	if (sid_off) {
		/* the SID must lie inside this ACE, not merely inside the ACL */
		if (!ksmbd_buf_get_le32(&a, 4, &ace->mask) ||
		    ksmbd_sid_parse(&a, sid_off, &ace->sid, &sid_size))
			return -EINVAL;
		ace->has_sid = true;
		ace->sid_off = (u16)sid_off;
		ace->sid_size = (u16)sid_size;
	}
	*pos += size;
	return 0;
}

int ksmbd_acl_next(const struct ksmbd_buf *acl, u32 *pos, u16 *left,
		   struct ksmbd_ace *ace)
{
	int rc;

	if (!*left)
		return 0;
	rc = ace_parse(acl, pos, ace);
	if (rc)
		return rc;
	(*left)--;
	return 1;
}

int ksmbd_acl_check(const struct ksmbd_buf *b, u32 off,
		    struct ksmbd_buf *acl, u16 *ace_count)
{
	struct ksmbd_buf hdr;
	struct ksmbd_ace ace;
	u16 acl_size, count, left;
	u32 pos;
	int rc;

	if (!ksmbd_buf_sub(b, off, KSMBD_ACL_HDR_SIZE, &hdr))
		return -EINVAL;
	/*
	 * AclRevision 2 (ACL_REVISION) to 4 (ACL_REVISION_DS), as Windows
	 * accepts them: smbcacls sends 3.
	 */
	if (hdr.p[0] < 2 || hdr.p[0] > 4)
		return -EINVAL;
	acl_size = get_unaligned_le16(hdr.p + 2);
	count = get_unaligned_le16(hdr.p + 4);
	if (acl_size < KSMBD_ACL_HDR_SIZE ||
	    !ksmbd_buf_sub(b, off, acl_size, acl))
		return -EINVAL;
	/* Division, not multiplication: a huge count cannot wrap. */
	if (count > (acl_size - KSMBD_ACL_HDR_SIZE) / KSMBD_ACE_MIN_SIZE)
		return -EINVAL;
	*ace_count = count;
	pos = KSMBD_ACL_HDR_SIZE;
	left = count;
	while ((rc = ksmbd_acl_next(acl, &pos, &left, &ace)) > 0)
		;
	return rc ? rc : (int)pos;
}

/* An offset of 0 means absent; anything else must point past the header. */
static int part_offset(const struct ksmbd_buf *sd, u32 at, u32 *off)
{
	if (!ksmbd_buf_get_le32(sd, at, off))
		return -EINVAL;
	if (*off && (*off < KSMBD_SD_HDR_SIZE || *off >= sd->len))
		return -EINVAL;
	return 0;
}

int ksmbd_sd_parse(const struct ksmbd_buf *sd, struct ksmbd_sd *out)
{
	u32 owner, group, sacl, dacl, size;

	memset(out, 0, sizeof(*out));
	if (sd->len < KSMBD_SD_HDR_SIZE || sd->p[0] != 1)
		return -EINVAL;
	out->control = get_unaligned_le16(sd->p + 2);
	if (part_offset(sd, 4, &owner) || part_offset(sd, 8, &group) ||
	    part_offset(sd, 12, &sacl) || part_offset(sd, 16, &dacl))
		return -EINVAL;
	if (owner) {
		if (ksmbd_sid_parse(sd, owner, &out->owner, &size))
			return -EINVAL;
		out->has_owner = true;
	}
	if (group) {
		if (ksmbd_sid_parse(sd, group, &out->group, &size))
			return -EINVAL;
		out->has_group = true;
	}
	if (out->control & KSMBD_SE_SACL_PRESENT) {
		out->has_sacl = true;
		if (!sacl)
			out->null_sacl = true;
		else if (ksmbd_acl_check(sd, sacl, &out->sacl,
					 &out->sacl_ace_count) < 0)
			return -EINVAL;
	}
	if (!(out->control & KSMBD_SE_DACL_PRESENT))
		return 0;
	out->has_dacl = true;
	if (!dacl) {
		out->null_dacl = true;
		return 0;
	}
	if (ksmbd_acl_check(sd, dacl, &out->dacl, &out->ace_count) < 0)
		return -EINVAL;
	return 0;
}
