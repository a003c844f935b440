/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A DACL as POSIX ACL entries: what the kernel's own permission check
 * (the outer bound of every SMB open, which runs with the user's
 * credentials) must allow so that what the DACL grants works, and, for
 * local processes, the DACL's deny ACEs as far as POSIX can say them.
 *
 * Entries come from the ACEs that apply to the object (not inherit-only)
 * whose SID the map callback turns into a Unix user or group, plus the
 * file's owner (USER_OBJ), owning group (GROUP_OBJ) and OTHER:
 *  - an ACE for the owner's uid goes to USER_OBJ, for the owning gid to
 *    GROUP_OBJ, OWNER RIGHTS to USER_OBJ; Everyone, Authenticated
 *    Users, NETWORK and BUILTIN\\Users (in every caller's token) apply
 *    to every entry (OTHER included);
 *  - per entry, in ACE order: an allowed ACE adds its rwx minus what
 *    earlier denied ACEs for the entry took away, a denied ACE takes away
 *    its rwx not already granted (the access check's first-match rule);
 *  - rwx of a mask (generic bits mapped): r = READ_DATA (list); w =
 *    WRITE_DATA, APPEND_DATA, or DELETE_CHILD (add and remove entries);
 *    x = EXECUTE (traverse); in a directory's access ACL every entry
 *    with a right also gets x (Windows never checks traverse);
 *  - MASK is the union of the named entries and GROUP_OBJ, written when
 *    there is a named entry.
 * What POSIX cannot say: a user with an entry of its own gets no more
 * than it (its groups' grants are not added: group membership is not
 * known here), and DELETE on a file needs w on the directory locally.
 * A NULL DACL is rwx for all.
 *
 * For a directory the default ACL comes the same way from the ACEs that
 * new files or directories inherit (OI or CI; NO_PROPAGATE_INHERIT is
 * not expressible and counts as inheritable), CREATOR OWNER and CREATOR
 * GROUP standing for USER_OBJ and GROUP_OBJ. No inheritable ACE: no
 * default ACL (def_count 0).
 *
 * Entries are in the order posix_acl_valid() wants: USER_OBJ, USER by
 * id, GROUP_OBJ, GROUP by id, MASK, OTHER.
 */
#ifndef KSMBD_PROTO_SD_POSIX_H
#define KSMBD_PROTO_SD_POSIX_H

#include "shim.h"
#include "secdesc_parse.h"

/* Tags, with the values of linux/posix_acl.h's ACL_* */
enum {
	KSMBD_PACL_USER_OBJ	= 0x01,
	KSMBD_PACL_USER		= 0x02,
	KSMBD_PACL_GROUP_OBJ	= 0x04,
	KSMBD_PACL_GROUP	= 0x08,
	KSMBD_PACL_MASK		= 0x10,
	KSMBD_PACL_OTHER	= 0x20,
};

/* Permission bits, as ACL_READ / ACL_WRITE / ACL_EXECUTE */
enum {
	KSMBD_PACL_READ		= 0x4,
	KSMBD_PACL_WRITE	= 0x2,
	KSMBD_PACL_EXECUTE	= 0x1,
};

struct ksmbd_pacl_entry {
	u16 tag;
	u16 perm;
	u32 id;		/* uid or gid for USER / GROUP, else 0 */
};

enum ksmbd_sid_kind {
	KSMBD_SID_UNIX_USER,
	KSMBD_SID_UNIX_GROUP,
};

/* The Unix user or group a SID names: 0, or -ENOENT when none. */
typedef int (*ksmbd_sid_map_fn)(void *ctx, const struct ksmbd_sid *sid,
				enum ksmbd_sid_kind *kind, u32 *id);

/*
 * A ready mapper (ctx: struct ksmbd_sid_unix_map): S-1-22-1-x is user x,
 * S-1-22-2-x group x, and RIDs of the server's domain
 * S-1-5-21-d0-d1-d2 as daemon/rpc_adapter.c hands them out: 1000 + 2 *
 * uid, 1001 + 2 * gid; 513 (Domain Users) is users_gid when set.
 */
struct ksmbd_sid_unix_map {
	u32 domain[3];
	bool has_domain;
	bool has_users_gid;
	u32 users_gid;
};

int ksmbd_sid_map_unix(void *ctx, const struct ksmbd_sid *sid,
		       enum ksmbd_sid_kind *kind, u32 *id);

/*
 * The daemon's algorithmic RIDs (daemon/rpc_adapter.c): a user's is
 * KSMBD_RID_BASE + 2 * uid, a group's KSMBD_RID_BASE + 1 + 2 * gid; ids
 * above KSMBD_RID_MAX_ID have no RID (it would wrap onto another id's).
 */
#define KSMBD_RID_BASE		1000u
#define KSMBD_RID_GUEST		501u
#define KSMBD_RID_DOMAIN_USERS	513u
#define KSMBD_RID_MAX_ID	((0xffffffffu - KSMBD_RID_BASE - 1) / 2)

/* S-1-22-1-uid, S-1-22-2-gid (Samba's unmapped Unix ids) */
void ksmbd_sid_unix_user(u32 uid, struct ksmbd_sid *sid);
void ksmbd_sid_unix_group(u32 gid, struct ksmbd_sid *sid);
/* S-1-5-21-domain-rid */
void ksmbd_sid_domain_rid(const u32 domain[3], u32 rid, struct ksmbd_sid *sid);
bool ksmbd_sid_in_domain(const struct ksmbd_sid *sid, const u32 domain[3]);

/* Who a token is for: the credentials' ids and the logon's kind. */
struct ksmbd_token_who {
	u32 uid, gid;		/* fsuid, fsgid */
	const u32 *gids;	/* supplementary groups */
	u32 ngids;
	bool guest;		/* guest or anonymous logon */
	bool admin;		/* uid 0 or the share's admin users */
};

/*
 * A Unix user's SIDs for a struct ksmbd_token, in the forms
 * ksmbd_sid_map_unix() reads back: out[0] S-1-22-1-uid, out[1]
 * S-1-22-2-gid (the owner and group of what the user creates), then with
 * a domain the primary group's RID and the user's (Guest, 501, for a
 * guest), each supplementary group in both forms, Everyone, NETWORK, and
 * BUILTIN\Guests for a guest or Domain Users (513, with a domain),
 * Authenticated Users and BUILTIN\Users for anyone else; BUILTIN\
 * Administrators for an admin. A SID that repeats is written once. The
 * count, or -E2BIG when cap is too small.
 */
int ksmbd_token_unix_sids(const struct ksmbd_sid_unix_map *m,
			  const struct ksmbd_token_who *who,
			  struct ksmbd_sid *out, u32 cap);

struct ksmbd_pacl {
	struct ksmbd_pacl_entry *acc;	/* access ACL, acc_cap entries */
	u32 acc_cap, acc_count;
	struct ksmbd_pacl_entry *def;	/* default ACL (directories) */
	u32 def_cap, def_count;
};

/*
 * Fill out->acc (and, for a directory, out->def) from sd's DACL for a
 * file owned by uid:gid. -E2BIG when an array is too small (nothing
 * usable then), 0 otherwise.
 */
int ksmbd_sd_to_posix(const struct ksmbd_sd *sd, u32 uid, u32 gid,
		      bool is_directory, ksmbd_sid_map_fn map, void *map_ctx,
		      struct ksmbd_pacl *out);

#endif /* KSMBD_PROTO_SD_POSIX_H */
