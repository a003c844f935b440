// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Canonical self-relative descriptors and SET_INFO's merge; see
 * sd_build.h.
 */
#include "sd_build.h"
#include "sd_access.h"

/* Masks of ACEs that apply to the object get their generic bits mapped. */
enum { ACL_AS_IS, ACL_MAP_GENERIC };

/* The size the ACL takes re-encoded: header plus its ACEs. */
static int acl_measure(const struct ksmbd_buf *acl, u32 *size)
{
	struct ksmbd_buf a;
	u16 count;
	int used = ksmbd_acl_check(acl, 0, &a, &count);

	if (used < 0)
		return -EINVAL;
	*size = used;
	return 0;
}

/* Write an ACL acl_measure() accepted, `size` bytes. */
static void acl_put(struct ksmbd_wbuf *w, const struct ksmbd_buf *acl,
		    u32 size, int how)
{
	u32 pos = KSMBD_ACL_HDR_SIZE;
	u16 count = get_unaligned_le16(acl->p + 4), left;
	struct ksmbd_ace ace;
	u8 *at;

	ksmbd_wbuf_put_u8(w, acl->p[0]);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le16(w, (u16)size);
	ksmbd_wbuf_put_le16(w, count);
	ksmbd_wbuf_put_le16(w, 0);
	left = count;
	while (ksmbd_acl_next(acl, &pos, &left, &ace) > 0) {
		at = ksmbd_wbuf_reserve_raw(w, ace.size);
		if (!at)
			return;
		memcpy(at, acl->p + ace.off, ace.size);
		if (how == ACL_MAP_GENERIC && ace.has_sid &&
		    !(ace.flags & KSMBD_ACE_INHERIT_ONLY))
			put_unaligned_le32(ksmbd_sd_map_generic(ace.mask),
					   at + 4);
	}
}

int ksmbd_sd_put_head(struct ksmbd_wbuf *w, u16 control,
		      const struct ksmbd_sid *owner,
		      const struct ksmbd_sid *group, u32 sacl_size,
		      u32 dacl_size)
{
	u32 off = KSMBD_SD_HDR_SIZE, owner_off = 0, group_off = 0;
	u32 sacl_off = 0, dacl_off = 0;

	if (owner) {
		owner_off = off;
		off += ksmbd_sid_size(owner);
	}
	if (group) {
		group_off = off;
		off += ksmbd_sid_size(group);
	}
	if (sacl_size) {
		sacl_off = off;
		off += sacl_size;
	}
	if (dacl_size) {
		dacl_off = off;
		off += dacl_size;
	}
	if (!ksmbd_range_ok(w->cap, w->len, off)) {
		w->overflow = true;
		return off;
	}
	ksmbd_wbuf_put_u8(w, 1);	/* Revision */
	ksmbd_wbuf_put_u8(w, 0);	/* Sbz1 */
	ksmbd_wbuf_put_le16(w, control | KSMBD_SE_SELF_RELATIVE);
	ksmbd_wbuf_put_le32(w, owner_off);
	ksmbd_wbuf_put_le32(w, group_off);
	ksmbd_wbuf_put_le32(w, sacl_off);
	ksmbd_wbuf_put_le32(w, dacl_off);
	if (owner)
		ksmbd_sid_put(w, owner);
	if (group)
		ksmbd_sid_put(w, group);
	return off;
}

static int sd_encode(struct ksmbd_wbuf *w, u16 control,
		     const struct ksmbd_sid *owner,
		     const struct ksmbd_sid *group,
		     const struct ksmbd_buf *sacl, const struct ksmbd_buf *dacl,
		     int sacl_how, int dacl_how)
{
	u32 sacl_size = 0, dacl_size = 0;
	int total;

	if ((sacl && acl_measure(sacl, &sacl_size)) ||
	    (dacl && acl_measure(dacl, &dacl_size)))
		return -EINVAL;
	if (sacl)
		control |= KSMBD_SE_SACL_PRESENT;
	if (dacl)
		control |= KSMBD_SE_DACL_PRESENT;
	total = ksmbd_sd_put_head(w, control, owner, group, sacl_size,
				  dacl_size);
	if (w->overflow)
		return total;
	if (sacl)
		acl_put(w, sacl, sacl_size, sacl_how);
	if (dacl)
		acl_put(w, dacl, dacl_size, dacl_how);
	return total;
}

int ksmbd_sd_build(struct ksmbd_wbuf *w, u16 control,
		   const struct ksmbd_sid *owner, const struct ksmbd_sid *group,
		   const struct ksmbd_buf *sacl, const struct ksmbd_buf *dacl)
{
	return sd_encode(w, control, owner, group, sacl, dacl, ACL_AS_IS,
			 ACL_AS_IS);
}

static const struct ksmbd_buf *sd_sacl(const struct ksmbd_sd *sd)
{
	return sd->has_sacl && !sd->null_sacl ? &sd->sacl : NULL;
}

static const struct ksmbd_buf *sd_dacl(const struct ksmbd_sd *sd)
{
	return sd->has_dacl && !sd->null_dacl ? &sd->dacl : NULL;
}

int ksmbd_sd_write(struct ksmbd_wbuf *w, const struct ksmbd_sd *sd)
{
	return ksmbd_sd_build(w, sd->control,
			      sd->has_owner ? &sd->owner : NULL,
			      sd->has_group ? &sd->group : NULL,
			      sd_sacl(sd), sd_dacl(sd));
}

int ksmbd_sd_write_parts(struct ksmbd_wbuf *w, const struct ksmbd_sd *sd,
			 u32 secinfo)
{
	u16 control = sd->control;
	const struct ksmbd_buf *sacl = NULL, *dacl = NULL;

	if (secinfo & KSMBD_DACL_SECINFO)
		dacl = sd_dacl(sd);
	else
		control &= ~KSMBD_SE_DACL_PRESENT;
	if (secinfo & KSMBD_SACL_SECINFO)
		sacl = sd_sacl(sd);
	else
		control &= ~KSMBD_SE_SACL_PRESENT;
	return ksmbd_sd_build(w, control,
			      sd->has_owner && (secinfo & KSMBD_OWNER_SECINFO) ?
			      &sd->owner : NULL,
			      sd->has_group && (secinfo & KSMBD_GROUP_SECINFO) ?
			      &sd->group : NULL, sacl, dacl);
}

/*
 * The control bits of one ACL taken from the client's descriptor: as
 * given, except that AUTO_INHERIT_REQ is a request, never stored, and
 * AUTO_INHERITED stays only with it (smb2.acls.INHERITFLAGS: Windows
 * keeps DI only when the client also sent DR).
 */
static u16 given_acl_bits(u16 given, u16 bits, u16 req, u16 inherited)
{
	u16 out = given & bits & ~(req | inherited);

	if ((given & (req | inherited)) == (req | inherited))
		out |= inherited;
	return out;
}

static u16 protect_bits(u16 control, u32 secinfo, u32 on, u32 off, u16 bit)
{
	if (secinfo & on)
		control |= bit;
	else if (secinfo & off)
		control &= ~bit;
	return control;
}

int ksmbd_sd_merge(struct ksmbd_wbuf *w, const struct ksmbd_sd *stored,
		   const struct ksmbd_sd *given, u32 secinfo)
{
	const struct ksmbd_sid *owner = stored->has_owner ? &stored->owner : NULL;
	const struct ksmbd_sid *group = stored->has_group ? &stored->group : NULL;
	const struct ksmbd_buf *sacl = sd_sacl(stored), *dacl = sd_dacl(stored);
	u16 control = stored->control;
	int sacl_how = ACL_AS_IS, dacl_how = ACL_AS_IS;

	/* an owner or group named but not sent is not set (as W2K3) */
	if ((secinfo & KSMBD_OWNER_SECINFO) && given->has_owner)
		owner = &given->owner;
	if ((secinfo & KSMBD_GROUP_SECINFO) && given->has_group)
		group = &given->group;
	if (secinfo & KSMBD_DACL_SECINFO) {
		control &= ~KSMBD_SE_DACL_BITS;
		control |= given_acl_bits(given->control, KSMBD_SE_DACL_BITS,
					  KSMBD_SE_DACL_AUTO_INHERIT_REQ,
					  KSMBD_SE_DACL_AUTO_INHERITED);
		control = protect_bits(control, secinfo,
				       KSMBD_PROTECTED_DACL_SECINFO,
				       KSMBD_UNPROTECTED_DACL_SECINFO,
				       KSMBD_SE_DACL_PROTECTED);
		dacl = sd_dacl(given);
		dacl_how = ACL_MAP_GENERIC;
		/* none sent is the NULL DACL, and reads back as one */
		if (!given->has_dacl)
			control |= KSMBD_SE_DACL_PRESENT;
	}
	if (secinfo & KSMBD_SACL_SECINFO) {
		control &= ~KSMBD_SE_SACL_BITS;
		control |= given_acl_bits(given->control, KSMBD_SE_SACL_BITS,
					  KSMBD_SE_SACL_AUTO_INHERIT_REQ,
					  KSMBD_SE_SACL_AUTO_INHERITED);
		control = protect_bits(control, secinfo,
				       KSMBD_PROTECTED_SACL_SECINFO,
				       KSMBD_UNPROTECTED_SACL_SECINFO,
				       KSMBD_SE_SACL_PROTECTED);
		sacl = sd_sacl(given);
		sacl_how = ACL_MAP_GENERIC;
	}
	/* only the given ACLs are mapped: a stored one stays as it is */
	return sd_encode(w, control, owner, group, sacl, dacl, sacl_how,
			 dacl_how);
}

u32 ksmbd_sd_sent(const struct ksmbd_sd *given, u32 secinfo)
{
	u32 sent = secinfo & (KSMBD_DACL_SECINFO | KSMBD_SACL_SECINFO);

	if ((secinfo & KSMBD_OWNER_SECINFO) && given->has_owner)
		sent |= KSMBD_OWNER_SECINFO;
	if ((secinfo & KSMBD_GROUP_SECINFO) && given->has_group)
		sent |= KSMBD_GROUP_SECINFO;
	return sent;
}
