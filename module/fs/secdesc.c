// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Security descriptors <-> Unix ownership and mode; see secdesc.h.
 */
#include "secdesc.h"
#include "proto/sd_access.h"

/* Access a class's r, w and x bits stand for. */
#define SD_READ_MASK	(KSMBD_FILE_READ_DATA | KSMBD_FILE_READ_EA | \
			 KSMBD_FILE_READ_ATTRIBUTES | KSMBD_READ_CONTROL | \
			 KSMBD_SYNCHRONIZE)
#define SD_WRITE_MASK	(KSMBD_FILE_WRITE_DATA | KSMBD_FILE_APPEND_DATA | \
			 KSMBD_FILE_WRITE_EA | KSMBD_FILE_WRITE_ATTRIBUTES | \
			 KSMBD_SYNCHRONIZE)
#define SD_EXEC_MASK	(KSMBD_FILE_EXECUTE | KSMBD_FILE_READ_ATTRIBUTES | \
			 KSMBD_SYNCHRONIZE)
#define SD_OWNER_EXTRA	(KSMBD_READ_CONTROL | KSMBD_WRITE_DAC | \
			 KSMBD_WRITE_OWNER)

/* The one mapping (proto/sd_posix.c), for the kind asked. */
static int sid_to_id(const struct ksmbd_sid *sid, const u32 domain[3],
		     enum ksmbd_sid_kind want, u32 *id)
{
	struct ksmbd_sid_unix_map m = { .has_domain = true };
	enum ksmbd_sid_kind kind;

	memcpy(m.domain, domain, sizeof(m.domain));
	if (ksmbd_sid_map_unix(&m, sid, &kind, id) || kind != want)
		return -ENOENT;
	return 0;
}

int ksmbd_sid_to_uid(const struct ksmbd_sid *sid, const u32 domain[3], u32 *uid)
{
	return sid_to_id(sid, domain, KSMBD_SID_UNIX_USER, uid);
}

int ksmbd_sid_to_gid(const struct ksmbd_sid *sid, const u32 domain[3], u32 *gid)
{
	return sid_to_id(sid, domain, KSMBD_SID_UNIX_GROUP, gid);
}

static u32 rwx_mask(u16 bits, bool directory)
{
	u32 mask = 0;

	if (bits & 4)
		mask |= SD_READ_MASK;
	if (bits & 2) {
		mask |= SD_WRITE_MASK;
		/* in a writable directory entries may be removed */
		if (directory)
			mask |= KSMBD_FILE_DELETE_CHILD;
	}
	if (bits & 1)
		mask |= SD_EXEC_MASK;
	return mask;
}

static void put_ace(struct ksmbd_wbuf *w, u32 mask, const struct ksmbd_sid *sid)
{
	ksmbd_wbuf_put_u8(w, KSMBD_ACE_ACCESS_ALLOWED);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le16(w, (u16)(8 + ksmbd_sid_size(sid)));
	ksmbd_wbuf_put_le32(w, mask);
	ksmbd_sid_put(w, sid);
}

static u32 dacl_size(const struct ksmbd_sid *sids, u32 n)
{
	u32 size = KSMBD_ACL_HDR_SIZE, i;

	for (i = 0; i < n; i++)
		size += 8 + ksmbd_sid_size(&sids[i]);
	return size;
}

static void put_dacl(struct ksmbd_wbuf *w, const struct ksmbd_sd_unix *u,
		     const struct ksmbd_sid sids[3])
{
	u32 masks[3];

	masks[0] = rwx_mask((u->mode >> 6) & 7, u->directory) | SD_OWNER_EXTRA;
	masks[1] = rwx_mask((u->mode >> 3) & 7, u->directory);
	masks[2] = rwx_mask(u->mode & 7, u->directory);
	ksmbd_wbuf_put_u8(w, 2);	/* ACL_REVISION */
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le16(w, (u16)dacl_size(sids, 3));
	ksmbd_wbuf_put_le16(w, 3);
	ksmbd_wbuf_put_le16(w, 0);
	put_ace(w, masks[0], &sids[0]);
	put_ace(w, masks[1], &sids[1]);
	put_ace(w, masks[2], &sids[2]);
}

u32 ksmbd_secdesc_build(struct ksmbd_wbuf *w, const struct ksmbd_sd_unix *u,
			u32 secinfo)
{
	struct ksmbd_sid sids[3];	/* owner, group, everyone */
	u32 off = KSMBD_SD_HDR_SIZE, owner = 0, group = 0, dacl = 0;
	u16 control = KSMBD_SE_SELF_RELATIVE;

	ksmbd_sid_unix_user(u->uid, &sids[0]);
	ksmbd_sid_unix_group(u->gid, &sids[1]);
	ksmbd_sid_well_known(KSMBD_WK_EVERYONE, &sids[2]);
	if (secinfo & KSMBD_OWNER_SECINFO) {
		owner = off;
		off += ksmbd_sid_size(&sids[0]);
	}
	if (secinfo & KSMBD_GROUP_SECINFO) {
		group = off;
		off += ksmbd_sid_size(&sids[1]);
	}
	if (secinfo & KSMBD_DACL_SECINFO) {
		dacl = off;
		off += dacl_size(sids, 3);
		control |= KSMBD_SE_DACL_PRESENT;
	}
	ksmbd_wbuf_put_u8(w, 1);	/* Revision */
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_le16(w, control);
	ksmbd_wbuf_put_le32(w, owner);
	ksmbd_wbuf_put_le32(w, group);
	ksmbd_wbuf_put_le32(w, 0);	/* no SACL */
	ksmbd_wbuf_put_le32(w, dacl);
	if (owner)
		ksmbd_sid_put(w, &sids[0]);
	if (group)
		ksmbd_sid_put(w, &sids[1]);
	if (dacl)
		put_dacl(w, u, sids);
	return off;
}

/* rwx bits an ACE mask carries */
static u16 mask_rwx(u32 mask)
{
	u16 bits = 0;

	if (mask & (KSMBD_GENERIC_ALL | KSMBD_GENERIC_READ | KSMBD_FILE_READ_DATA))
		bits |= 4;
	if (mask & (KSMBD_GENERIC_ALL | KSMBD_GENERIC_WRITE | KSMBD_FILE_WRITE_DATA))
		bits |= 2;
	if (mask & (KSMBD_GENERIC_ALL | KSMBD_GENERIC_EXECUTE | KSMBD_FILE_EXECUTE))
		bits |= 1;
	return bits;
}

u16 ksmbd_secdesc_dacl_mode(const struct ksmbd_sd *sd,
			    const struct ksmbd_sid *owner,
			    const struct ksmbd_sid *group)
{
	u16 allowed = 0, denied = 0, left = sd->ace_count, bits;
	u32 pos = KSMBD_ACL_HDR_SIZE;
	struct ksmbd_sid everyone;
	struct ksmbd_ace ace;
	u32 shift;

	if (sd->null_dacl)
		return 0777;
	ksmbd_sid_well_known(KSMBD_WK_EVERYONE, &everyone);
	while (ksmbd_acl_next(&sd->dacl, &pos, &left, &ace) > 0) {
		if (ace.flags & KSMBD_ACE_INHERIT_ONLY)
			continue;
		if (ace.type != KSMBD_ACE_ACCESS_ALLOWED &&
		    ace.type != KSMBD_ACE_ACCESS_DENIED)
			continue;
		if (ksmbd_sid_equal(&ace.sid, owner))
			shift = 6;
		else if (ksmbd_sid_equal(&ace.sid, group))
			shift = 3;
		else if (ksmbd_sid_equal(&ace.sid, &everyone))
			shift = 0;
		else
			continue;
		bits = (u16)(mask_rwx(ace.mask) << shift);
		if (ace.type == KSMBD_ACE_ACCESS_ALLOWED)
			allowed |= bits;
		else
			denied |= bits;
	}
	return allowed & ~denied & 0777;
}
