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
	KSMBD_SE_SACL_DEFAULTED		= 0x0020,
	KSMBD_SE_DACL_AUTO_INHERIT_REQ	= 0x0100,
	KSMBD_SE_SACL_AUTO_INHERIT_REQ	= 0x0200,
	KSMBD_SE_DACL_AUTO_INHERITED	= 0x0400,
	KSMBD_SE_SACL_AUTO_INHERITED	= 0x0800,
	KSMBD_SE_DACL_PROTECTED		= 0x1000,
	KSMBD_SE_SACL_PROTECTED		= 0x2000,
	KSMBD_SE_SELF_RELATIVE		= 0x8000,
};

/* Access mask bits (MS-DTYP 2.4.3, MS-SMB2 2.2.13.1.1) */
enum {
	KSMBD_FILE_READ_DATA		= 0x00000001,
	KSMBD_FILE_WRITE_DATA		= 0x00000002,
	KSMBD_FILE_APPEND_DATA		= 0x00000004,
	KSMBD_FILE_READ_EA		= 0x00000008,
	KSMBD_FILE_WRITE_EA		= 0x00000010,
	KSMBD_FILE_EXECUTE		= 0x00000020,
	KSMBD_FILE_DELETE_CHILD		= 0x00000040,
	KSMBD_FILE_READ_ATTRIBUTES	= 0x00000080,
	KSMBD_FILE_WRITE_ATTRIBUTES	= 0x00000100,
	KSMBD_DELETE			= 0x00010000,
	KSMBD_READ_CONTROL		= 0x00020000,
	KSMBD_WRITE_DAC			= 0x00040000,
	KSMBD_WRITE_OWNER		= 0x00080000,
	KSMBD_SYNCHRONIZE		= 0x00100000,
	KSMBD_ACCESS_SYSTEM_SECURITY	= 0x01000000,
	KSMBD_MAXIMUM_ALLOWED		= 0x02000000,
	KSMBD_GENERIC_ALL		= 0x10000000,
	KSMBD_GENERIC_EXECUTE		= 0x20000000,
	KSMBD_GENERIC_WRITE		= 0x40000000,
	KSMBD_GENERIC_READ		= 0x80000000,
};

/* AceFlags (2.4.4.1) */
enum {
	KSMBD_ACE_OBJECT_INHERIT	= 0x01,
	KSMBD_ACE_CONTAINER_INHERIT	= 0x02,
	KSMBD_ACE_NO_PROPAGATE_INHERIT	= 0x04,
	KSMBD_ACE_INHERIT_ONLY		= 0x08,
	KSMBD_ACE_INHERITED		= 0x10,
	KSMBD_ACE_SUCCESSFUL_ACCESS	= 0x40,
	KSMBD_ACE_FAILED_ACCESS		= 0x80,
};

/* SecurityInformation / AdditionalInformation bits (MS-SMB2 2.2.37) */
enum {
	KSMBD_OWNER_SECINFO	= 0x00000001,
	KSMBD_GROUP_SECINFO	= 0x00000002,
	KSMBD_DACL_SECINFO	= 0x00000004,
	KSMBD_SACL_SECINFO	= 0x00000008,
	KSMBD_LABEL_SECINFO	= 0x00000010,
};

/*
 * AceType (2.4.4.1). Allowed and denied ACEs, their object and callback
 * forms and the audit/alarm ones carry a mask and a SID the parser
 * reports (has_sid); the object forms put 0 to 2 GUIDs before the SID
 * (ObjectFlags say which). Every other type is walked over by AceSize.
 */
enum {
	KSMBD_ACE_ACCESS_ALLOWED		= 0x00,
	KSMBD_ACE_ACCESS_DENIED			= 0x01,
	KSMBD_ACE_SYSTEM_AUDIT			= 0x02,
	KSMBD_ACE_SYSTEM_ALARM			= 0x03,
	KSMBD_ACE_ACCESS_ALLOWED_COMPOUND	= 0x04,
	KSMBD_ACE_ACCESS_ALLOWED_OBJECT		= 0x05,
	KSMBD_ACE_ACCESS_DENIED_OBJECT		= 0x06,
	KSMBD_ACE_SYSTEM_AUDIT_OBJECT		= 0x07,
	KSMBD_ACE_SYSTEM_ALARM_OBJECT		= 0x08,
	KSMBD_ACE_ACCESS_ALLOWED_CALLBACK	= 0x09,
	KSMBD_ACE_ACCESS_DENIED_CALLBACK	= 0x0a,
	KSMBD_ACE_ACCESS_ALLOWED_CALLBACK_OBJECT = 0x0b,
	KSMBD_ACE_ACCESS_DENIED_CALLBACK_OBJECT	= 0x0c,
	KSMBD_ACE_SYSTEM_AUDIT_CALLBACK		= 0x0d,
	KSMBD_ACE_SYSTEM_ALARM_CALLBACK		= 0x0e,
	KSMBD_ACE_SYSTEM_AUDIT_CALLBACK_OBJECT	= 0x0f,
	KSMBD_ACE_SYSTEM_ALARM_CALLBACK_OBJECT	= 0x10,
	KSMBD_ACE_SYSTEM_MANDATORY_LABEL	= 0x11,
	KSMBD_ACE_SYSTEM_RESOURCE_ATTRIBUTE	= 0x12,
	KSMBD_ACE_SYSTEM_SCOPED_POLICY_ID	= 0x13,
};

/* ObjectFlags of the object ACE types (2.4.4.3) */
enum {
	KSMBD_ACE_OBJECT_TYPE_PRESENT		= 0x1,
	KSMBD_ACE_INHERITED_OBJECT_TYPE_PRESENT	= 0x2,
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
	bool has_sid;		/* mask and sid below are the ACE's */
	u32 mask;
	struct ksmbd_sid sid;
	u32 obj_flags;		/* object types: ObjectFlags, else 0 */
	u16 sid_off;		/* where the SID starts inside the ACE */
	u16 sid_size;		/* its encoded size */
	u32 off;		/* where the ACE starts inside its ACL */
};

struct ksmbd_sd {
	u16 control;
	bool has_owner, has_group;
	bool has_dacl;		/* SE_DACL_PRESENT */
	bool null_dacl;		/* present but no ACL: everyone has access */
	struct ksmbd_sid owner, group;
	struct ksmbd_buf dacl;	/* the whole ACL, header included */
	u16 ace_count;
	bool has_sacl;		/* SE_SACL_PRESENT */
	bool null_sacl;		/* present without an ACL */
	struct ksmbd_buf sacl;	/* header included, validated as the DACL */
	u16 sacl_ace_count;
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
 * the ACEs of both ACLs included. -EINVAL on any defect.
 */
int ksmbd_sd_parse(const struct ksmbd_buf *sd, struct ksmbd_sd *out);

/*
 * The one check of an ACL (2.4.5), used wherever one is read: its header
 * at off of b, AclRevision 2 to 4, AclSize inside b, AceCount no more
 * than AclSize can hold at KSMBD_ACE_MIN_SIZE each, and every ACE walked
 * (ksmbd_acl_next()). On success *acl is the ACL (AclSize bytes, slack
 * included), *ace_count its AceCount, and the return value the bytes
 * its header and ACEs take (> 0); -EINVAL on any defect.
 */
int ksmbd_acl_check(const struct ksmbd_buf *b, u32 off,
		    struct ksmbd_buf *acl, u16 *ace_count);

/*
 * Iterate the ACEs of a DACL (or SACL) that ksmbd_sd_parse() accepted:
 * *pos starts at KSMBD_ACL_HDR_SIZE, *left at sd->ace_count (or
 * sacl_ace_count). 1 per ACE, 0 at the end, -EINVAL on a defect (not
 * reachable after a successful parse).
 */
int ksmbd_acl_next(const struct ksmbd_buf *acl, u32 *pos, u16 *left,
		   struct ksmbd_ace *ace);

#endif /* KSMBD_PROTO_SECDESC_PARSE_H */
