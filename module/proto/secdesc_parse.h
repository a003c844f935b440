/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Self-relative security descriptors (MS-DTYP 2.4.6), SIDs (2.4.2.2),
 * ACLs (2.4.5) and ACEs (2.4.4) as a client sends them in SET_INFO.
 *
 * Every offset, count and size is checked against the buffer before it is
 * used: a SID's SubAuthorityCount against 15 and against the bytes left,
 * an ACL's AclSize against the descriptor, AceCount against what AclSize
 * can hold, every AceSize against the ACL. Offsets are 32-bit and only
 * ever compared, never added to a pointer unchecked.
 */
#ifndef KSMBD_PROTO_SECDESC_PARSE_H
#define KSMBD_PROTO_SECDESC_PARSE_H

#include "shim.h"
#include "buf.h"

#define KSMBD_SID_MAX_SUB_AUTH	15

enum {
	KSMBD_SD_HDR_SIZE	= 20,
	KSMBD_SID_HDR_SIZE	= 8,
	KSMBD_ACL_HDR_SIZE	= 8,
	KSMBD_ACE_HDR_SIZE	= 4,
	/* header + mask + a SID without sub-authorities */
	KSMBD_ACE_MIN_SIZE	= 16,
};

/* SECURITY_DESCRIPTOR Control (2.4.6) */
enum {
	KSMBD_SE_OWNER_DEFAULTED	= 0x0001,
	KSMBD_SE_GROUP_DEFAULTED	= 0x0002,
	KSMBD_SE_DACL_PRESENT		= 0x0004,
	KSMBD_SE_DACL_DEFAULTED		= 0x0008,
	KSMBD_SE_SACL_PRESENT		= 0x0010,
	KSMBD_SE_DACL_PROTECTED		= 0x1000,
	KSMBD_SE_SELF_RELATIVE		= 0x8000,
};

/* SecurityInformation / AdditionalInformation bits (MS-SMB2 2.2.37) */
enum {
	KSMBD_OWNER_SECINFO	= 0x00000001,
	KSMBD_GROUP_SECINFO	= 0x00000002,
	KSMBD_DACL_SECINFO	= 0x00000004,
	KSMBD_SACL_SECINFO	= 0x00000008,
	KSMBD_LABEL_SECINFO	= 0x00000010,
};

/* ACE types we interpret (2.4.4.1); others are walked over. */
enum {
	KSMBD_ACE_ACCESS_ALLOWED	= 0x00,
	KSMBD_ACE_ACCESS_DENIED		= 0x01,
};

struct ksmbd_sid {
	u8 revision;
	u8 num_subauth;
	u8 authority[6];	/* big-endian 48-bit value */
	u32 sub_auth[KSMBD_SID_MAX_SUB_AUTH];
};

struct ksmbd_ace {
	u8 type;
	u8 flags;
	u16 size;
	u32 mask;		/* allowed/denied ACEs only */
	struct ksmbd_sid sid;	/* allowed/denied ACEs only */
};

struct ksmbd_sd {
	u16 control;
	bool has_owner, has_group;
	bool has_dacl;		/* SE_DACL_PRESENT */
	bool null_dacl;		/* present but no ACL: everyone has access */
	struct ksmbd_sid owner, group;
	struct ksmbd_buf dacl;	/* the whole ACL, header included */
	u16 ace_count;
};

/* Parse a SID at off; its encoded size in *size. -EINVAL when malformed. */
int ksmbd_sid_parse(const struct ksmbd_buf *b, u32 off, struct ksmbd_sid *sid,
		    u32 *size);
/* Encoded size of a SID. */
static inline u32 ksmbd_sid_size(const struct ksmbd_sid *sid)
{
	return KSMBD_SID_HDR_SIZE + 4u * sid->num_subauth;
}
/* Append a SID; the writer records overflow. */
void ksmbd_sid_put(struct ksmbd_wbuf *w, const struct ksmbd_sid *sid);
bool ksmbd_sid_equal(const struct ksmbd_sid *a, const struct ksmbd_sid *b);
/* 48-bit IdentifierAuthority as a number. */
u64 ksmbd_sid_authority(const struct ksmbd_sid *sid);

/*
 * Parse a self-relative descriptor; every part it reports is validated,
 * the DACL's ACEs included. -EINVAL on any defect.
 */
int ksmbd_sd_parse(const struct ksmbd_buf *sd, struct ksmbd_sd *out);

/*
 * Iterate the ACEs of a DACL that ksmbd_sd_parse() accepted: *pos starts
 * at KSMBD_ACL_HDR_SIZE, *left at sd->ace_count. 1 per ACE, 0 at the end,
 * -EINVAL on a defect (not reachable after a successful parse).
 */
int ksmbd_acl_next(const struct ksmbd_buf *acl, u32 *pos, u16 *left,
		   struct ksmbd_ace *ace);

#endif /* KSMBD_PROTO_SECDESC_PARSE_H */
