/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stored security descriptors: a share with KSMBD_SHARE_FLAG_ACL_XATTR
 * ("acl xattr = yes", "vfs objects = acl_xattr") keeps each file's full
 * descriptor in security.NTACL, in Samba's format (proto/ntacl.h).
 *
 * The descriptor of a file is its stored one, or (none stored, or one a
 * local chmod/chown/setfacl made stale, as Samba judges it by the hash of
 * the Unix permissions) the one secdesc.h derives from the mode. It is
 * the authority for SMB opens on such a share (proto/sd_access.h); the
 * open still runs with the user's credentials, so the kernel stays the
 * outer bound. Storing one makes it true for the kernel too: owner and
 * group by chown, the DACL as the file's POSIX ACL (proto/sd_posix.h),
 * the mode bits where the file system has no POSIX ACLs.
 */
#ifndef KSMBD_NTACL_STORE_H
#define KSMBD_NTACL_STORE_H

#include <linux/types.h>
#include "proto/buf.h"
#include "proto/sd_access.h"
#include "proto/secdesc_parse.h"

struct cred;
struct dentry;
struct ksmbd_conn;
struct ksmbd_file;
struct ksmbd_tree;
struct ksmbd_vfs_lookup;

/* A file's descriptor in memory. */
struct ksmbd_sd_held {
	u8 *buf;		/* self-relative, kmalloc'd */
	u32 len;
	struct ksmbd_sd sd;	/* its parse; points into buf */
	bool stored;		/* from security.NTACL, else from the mode */
};

/* Does the tree's share store descriptors? */
bool ksmbd_sd_stored_share(const struct ksmbd_tree *tree);
/*
 * Does the caller (cred, or tree's forced one) hold SeSecurityPrivilege,
 * which ACCESS_SYSTEM_SECURITY and a SACL need? An administrator (root or
 * "admin users") of a share storing descriptors; its token has it too.
 */
bool ksmbd_sd_may_audit(const struct ksmbd_tree *tree, const struct cred *cred);

/* d's descriptor (positive dentry). 0, or -ENOMEM / -EIO. */
int ksmbd_sd_load(struct dentry *d, struct ksmbd_sd_held *h);
void ksmbd_sd_held_free(struct ksmbd_sd_held *h);

/*
 * The caller's token: the SIDs of its uid and gids (Samba's S-1-22-*
 * and the server domain's RIDs), Domain Users, Everyone, Network,
 * Authenticated Users and BUILTIN\Users; a guest (tree flag) gets
 * Guest, Everyone, Network and BUILTIN\Guests; uid 0 and the share's
 * admin users also BUILTIN\Administrators and every privilege.
 */
int ksmbd_token_build(const struct cred *cred, const struct ksmbd_tree *tree,
		      struct ksmbd_token *tok);
void ksmbd_token_free(struct ksmbd_token *tok);

/*
 * Access-based enumeration ("hide unreadable"): may tok see the entry
 * name of directory handle dir in a listing, i.e. does its descriptor
 * (stored, or the mode's) grant read data, attributes and EAs? Not
 * counted as access checks; an entry whose descriptor cannot be read is
 * not listed.
 */
bool ksmbd_sd_child_listed(struct ksmbd_file *dir, const char *name, u32 len,
			   const struct ksmbd_token *tok);

/*
 * The access check, counted in stats and traced when it refuses: 0 and
 * *granted, or -EACCES.
 */
int ksmbd_sd_check(const struct ksmbd_conn *conn, const char *name,
		   const struct ksmbd_sd_held *h, const struct ksmbd_token *tok,
		   u32 desired, u32 *granted);

/*
 * CREATE of an existing file (res->dentry, in res->parent): tok NULL
 * (the share stores nothing) changes nothing; with a stored
 * descriptor, desired must be granted (MS-DTYP 2.5.3.2; DELETE also by
 * the parent's DELETE_CHILD, READ_ATTRIBUTES by its LIST_DIRECTORY:
 * MS-FSA 2.1.5.1.2.1), and *maximal (in: what the kernel allows)
 * becomes what the descriptor grants, data rights only where the kernel
 * allows them too, within tree_mask. Without one nothing changes: the
 * kernel's answer stands. 0, or -EACCES.
 */
int ksmbd_sd_open_check(const struct ksmbd_conn *conn, const char *name,
			const struct ksmbd_token *tok,
			const struct ksmbd_vfs_lookup *res, u32 desired,
			u32 tree_mask, u32 *maximal);
/*
 * A new file (or directory, dir) in parent: its stored descriptor must
 * grant ADD_FILE (ADD_SUBDIRECTORY). 0 (also for tok NULL), or -EACCES.
 */
int ksmbd_sd_add_check(const struct ksmbd_conn *conn, const char *name,
		       const struct ksmbd_token *tok, struct dentry *parent,
		       bool dir);
/*
 * A rename or hard link of fp to new_name (MS-FSA 2.1.5.14.11): the
 * folder it goes into must grant the caller ADD_FILE (ADD_SUBDIRECTORY
 * for a directory), as for a new file there. 0 where the share stores no
 * descriptors or the folder does not exist (the rename answers that).
 */
int ksmbd_sd_target_check(const struct ksmbd_conn *conn, struct ksmbd_file *fp,
			  const char *new_name);

/*
 * Store sd (self-relative, parsed) on fp's file: chown to its owner and
 * group where they name Unix ids (to another user only when privileged),
 * its DACL as the POSIX ACL (or mode), then security.NTACL. The caller
 * has checked WRITE_DAC / WRITE_OWNER on the handle.
 */
int ksmbd_sd_store(struct ksmbd_file *fp, const struct ksmbd_buf *sd,
		   bool privileged);

/*
 * SET_INFO(security): the file's descriptor with the parts secinfo names
 * replaced from given (sd_build.h's merge), stored. An owner that is not
 * one of the token's SIDs needs the take-ownership or restore privilege
 * (-KSMBD_EINVALID_OWNER). The caller has checked the handle's access.
 */
int ksmbd_sd_set(struct ksmbd_file *fp, const struct ksmbd_sd *given,
		 u32 secinfo, const struct ksmbd_token *tok);

/*
 * A new file or directory (fp just created): its descriptor inherited
 * from the parent's (MS-DTYP 2.5.3.4) and the SecD create context's
 * (creator, len 0 when none), owner and group the token's user and
 * primary group, stored. -EINVAL for a creator descriptor that is not
 * valid.
 */
int ksmbd_sd_store_new(struct ksmbd_file *fp, struct dentry *parent,
		       const struct ksmbd_buf *creator,
		       const struct ksmbd_token *tok);

#endif /* KSMBD_NTACL_STORE_H */
