/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The descriptor of a new file or directory: MS-DTYP 2.5.3.4
 * CreateSecurityDescriptor with its helpers ComputeACL,
 * ContainsInheritableACEs and CreateACLFromParent, for file objects (no
 * object types) and the auto-inherit flags an NTFS volume uses (DACL
 * and SACL auto-inherit on).
 *
 *  - Owner: the creator descriptor's, else `owner` (the token's user);
 *    group: the creator descriptor's, else `group` (its primary group).
 *  - From the parent's ACL, an ACE with OBJECT_INHERIT (file) or
 *    CONTAINER_INHERIT (directory) is inherited: INHERITED_ACE set,
 *    INHERIT_ONLY cleared. For a directory: CI keeps its OI/CI flags
 *    (unless NO_PROPAGATE_INHERIT, which ends them); an OI-only ACE comes
 *    over inherit-only, to pass on to files. CREATOR OWNER / CREATOR
 *    GROUP and GENERIC_* bits in an effective ACE are replaced by the new
 *    owner / group and the file rights; a directory then also keeps the
 *    ACE as it was, inherit-only, for its own children (two ACEs).
 *  - A creator descriptor (the SecD create context) with a DACL (not
 *    DACL_DEFAULTED): SE_DACL_PROTECTED in it: its ACEs alone; else its
 *    explicit (non-inherited) ACEs, then the parent's inheritable ones,
 *    SE_DACL_AUTO_INHERITED set. Its ACEs' CREATOR OWNER/GROUP and
 *    generic bits are replaced as above where they apply to the object.
 *  - No creator DACL and the parent has inheritable ACEs: those, with
 *    SE_DACL_AUTO_INHERITED when the parent has it.
 *  - No creator DACL and nothing to inherit: default_dacl (the caller's
 *    default, e.g. from the mode); NULL: -ENODATA (the caller writes its
 *    own default, nothing was written).
 *  - The SACL follows the same rules from the creator's and parent's.
 *    A parent whose DACL is NULL or absent passes nothing on.
 *
 * Returns the size the descriptor needs, as ksmbd_sd_build() (the writer
 * records overflow), or a negative errno: -EINVAL for a default ACL
 * ksmbd_acl_check() refuses, -ERANGE when an ACL would pass 64 KiB (a
 * directory can double a parent's ACEs), -ENODATA as above.
 */
#ifndef KSMBD_PROTO_SD_INHERIT_H
#define KSMBD_PROTO_SD_INHERIT_H

#include "shim.h"
#include "buf.h"
#include "secdesc_parse.h"

int ksmbd_sd_inherit(struct ksmbd_wbuf *w, const struct ksmbd_sd *parent,
		     const struct ksmbd_sd *creator,
		     const struct ksmbd_sid *owner,
		     const struct ksmbd_sid *group,
		     const struct ksmbd_buf *default_dacl, bool is_directory);

/*
 * The DACL Windows gives a new object that inherits nothing (the token's
 * default, smb2.acls.INHERITANCE's sd_def1): owner and SYSTEM, full
 * control. Returns its size; the writer records overflow.
 */
u32 ksmbd_acl_put_default(struct ksmbd_wbuf *w, const struct ksmbd_sid *owner);

/* True when acl (a whole ACL) has an ACE a new file (or directory) inherits. */
bool ksmbd_acl_inheritable(const struct ksmbd_buf *acl, u16 ace_count,
			   bool is_directory);

#endif /* KSMBD_PROTO_SD_INHERIT_H */
