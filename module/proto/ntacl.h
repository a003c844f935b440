/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The security.NTACL extended attribute as Samba's acl_xattr module (and
 * the in-kernel ksmbd) keep it: the NDR encoding of xattr_NTACL, a u16
 * version and, by version, a security descriptor alone (1), with a
 * 16-byte hash nobody checks (2), with a hash type and a 64-byte hash
 * (3), or with those, a description string, a time and a second 64-byte
 * hash of the file's POSIX permissions (4, what Samba writes today).
 *
 * What the hashes are, and what we do with them:
 *
 * Samba's hashes do not protect the descriptor's bytes: they record the
 * Unix permission state the descriptor was stored over, so that an NT
 * ACL made stale by a local chmod/chown/setfacl is ignored (Samba then
 * maps the mode and POSIX ACLs instead). Version 4's sys_acl_hash is the
 * SHA-256 of Samba's NDR "smb_acl_wrapper" of the file: its access ACL,
 * default ACL (directories), owner, group and mode. Its `hash` is the
 * SHA-256 of the descriptor Samba maps from those permissions, which
 * only Samba's mapping code can reproduce; Samba compares it only when
 * sys_acl_hash did not match.
 *
 * - Encode writes version 4, hash type SHA-256, sys_acl_hash computed
 *   from the caller's struct ksmbd_ntacl_unix exactly as Samba computes
 *   it, so Samba's first check matches and it serves our descriptor;
 *   hash = SHA-256 of the descriptor as stored (what the in-kernel ksmbd
 *   puts there; to Samba it is a mismatch, so a value made stale by a
 *   local chmod is dropped by Samba too), description "posix_acl", time 0.
 * - Decode serves versions 1 and 2 unchecked (Samba does), and 3 and 4
 *   with hash type NONE unchecked (as Samba's "ignore system acls" does).
 *   Version 4 with SHA-256 is served when sys_acl_hash is the hash of the
 *   caller's current permission state, computed as Samba does or as the
 *   in-kernel ksmbd does (it leaves out the ACLs a file lacks), so values
 *   both wrote are accepted while the permissions are unchanged.
 *   Otherwise -EBADMSG: Samba would compare `hash` with its own mapping of
 *   the permissions, which ours is not, so a stale value is refused as
 *   Samba refuses it and the caller falls back to the mode. Version 3
 *   with SHA-256 carries only that hash: -EBADMSG. Without a
 *   struct ksmbd_ntacl_unix (NULL) no hash can be checked: -EBADMSG for
 *   hashed values. A hash type other than NONE or SHA-256: -EBADMSG
 *   (Samba ignores such values).
 *
 * The descriptor handed out (decode) or stored (encode) is rewritten in
 * one canonical self-relative form: header, owner, group, SACL, DACL,
 * each at a multiple of 4 (Samba's NDR pull aligns to 4 before each part,
 * so one at another offset is misread). SIDs (8 + 4n bytes) and ACEs
 * (AceSize a multiple of 4, ksmbd_sd_parse() refuses others) keep that
 * alignment by themselves, so the parts follow one another as in
 * sd_build.h; an ACL is copied with its AclSize as given, slack
 * included, and one whose AclSize is not a multiple of 4 is followed by
 * zero padding. The ACLs' reserved bytes are written zero, AclRevision 3
 * (smbcacls writes it) as 2; a DACL or SACL whose Present bit is clear
 * is left out.
 *
 * The caller owns every buffer; sd_out/out must not overlap the input.
 * The permission hash needs a scratch buffer (kvmalloc) only for POSIX
 * ACLs of more than a few entries. Process context (may sleep: the
 * kernel's crypto allocates).
 */
#ifndef KSMBD_PROTO_NTACL_H
#define KSMBD_PROTO_NTACL_H

#include "shim.h"

#define KSMBD_NTACL_XATTR	"security.NTACL"

enum {
	KSMBD_NTACL_HASH_NONE	= 0,
	KSMBD_NTACL_HASH_SHA256	= 1,
	/* the hash fields' size; SHA-256 fills the first 32 bytes */
	KSMBD_NTACL_HASH_SIZE	= 64,
	/* the longest SD we decode or encode (a full 64 KiB xattr value) */
	KSMBD_NTACL_MAX		= 65536,
};

/* POSIX ACL entry tags, as Linux numbers them (ACL_USER_OBJ ...) */
enum {
	KSMBD_POSIX_USER_OBJ	= 0x01,
	KSMBD_POSIX_USER	= 0x02,
	KSMBD_POSIX_GROUP_OBJ	= 0x04,
	KSMBD_POSIX_GROUP	= 0x08,
	KSMBD_POSIX_MASK	= 0x10,
	KSMBD_POSIX_OTHER	= 0x20,
};

struct ksmbd_posix_ace {
	u16 tag;	/* KSMBD_POSIX_* */
	u16 perm;	/* rwx bits, 4/2/1 */
	u32 id;		/* uid (USER) or gid (GROUP); else ignored */
};

/*
 * The file's Unix permission state that version 4's sys_acl_hash covers.
 * acl == NULL: the file has no extended access ACL (what the kernel
 * reports for it is its mode's three entries; they are made here).
 * def == NULL: no default ACL (always so for a non-directory). Entries in
 * the order the kernel keeps them (tag, then id).
 */
struct ksmbd_ntacl_unix {
	u32 uid;
	u32 gid;
	u32 mode;	/* st_mode, file type bits included */
	const struct ksmbd_posix_ace *acl;
	u16 acl_count;
	const struct ksmbd_posix_ace *def;
	u16 def_count;
};

struct ksmbd_ntacl_info {
	u16 version;	/* 1-4 */
	u16 hash_type;	/* KSMBD_NTACL_HASH_*; NONE for versions 1 and 2 */
	bool hash_ok;	/* a hash was checked and matched */
	u32 sd_len;	/* the descriptor's length (also the return value) */
};

/*
 * Decode a security.NTACL value (versions 1-4) into a self-relative
 * security descriptor (MS-DTYP 2.4.6) written to sd_out, the layout
 * ksmbd_sd_parse() accepts (and which it has passed). Returns the SD's
 * length or -errno: -EINVAL malformed or unknown version, -ENOSPC
 * sd_out too small, -EBADMSG a hash that does not vouch for it (see
 * above; info is filled then too, sd_out is not). info may be NULL.
 */
int ksmbd_ntacl_decode(const u8 *val, u32 len,
		       const struct ksmbd_ntacl_unix *unix_state,
		       u8 *sd_out, u32 sd_size, struct ksmbd_ntacl_info *info);

/*
 * Encode a self-relative SD (it must pass ksmbd_sd_parse(); a SACL must
 * be well formed too) as the security.NTACL value Samba writes: version
 * 4, SHA-256, sys_acl_hash of unix_state (required: the file's state
 * after any chown/chmod/setfacl the new SD caused, as it will be read
 * back). Returns the value's length or -errno (-EINVAL bad SD or state,
 * -ENOSPC out too small; ksmbd_ntacl_encoded_size() says how much).
 */
int ksmbd_ntacl_encode(const u8 *sd, u32 sd_len,
		       const struct ksmbd_ntacl_unix *unix_state,
		       u8 *out, u32 out_size);

/* The size ksmbd_ntacl_encode() needs for this SD, or -EINVAL. */
int ksmbd_ntacl_encoded_size(const u8 *sd, u32 sd_len);

#endif /* KSMBD_PROTO_NTACL_H */
