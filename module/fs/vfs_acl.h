/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The VFS side of stored security descriptors: the security.NTACL
 * attribute and the POSIX ACLs the kernel checks.
 *
 * security.* needs CAP_SYS_ADMIN to write, which no session has
 * (tree.c clears every capability). The writes here run with the
 * server's own credentials, and only on the already-opened,
 * already-confined file of a handle: never on a path a client names.
 * The caller decides first that the handle may: WRITE_DAC granted (the
 * POSIX ACL is the DACL's projection, so whoever may change the one may
 * change the other), and for an owner change to someone else the
 * take-ownership or restore privilege.
 */
#ifndef KSMBD_VFS_ACL_H
#define KSMBD_VFS_ACL_H

#include <linux/types.h>
#include "proto/ntacl.h"

struct dentry;
struct iattr;
struct ksmbd_file;

/* Longest POSIX ACL we read or write (entries). */
#define KSMBD_POSIX_ACL_MAX	64

/* The raw security.NTACL value; -ENODATA when there is none. */
ssize_t ksmbd_vfs_ntacl_get(struct dentry *d, void *buf, size_t size);
int ksmbd_vfs_ntacl_set(struct ksmbd_file *fp, const void *val, size_t size);

/*
 * notify_change() with the server's credentials: a chown the caller's
 * privilege allows, a chmod its WRITE_DAC allows.
 */
int ksmbd_vfs_setattr_server(struct ksmbd_file *fp, struct iattr *ia);

/*
 * The access (dflt false) or default ACL of d, sorted as the kernel keeps
 * it: the number of entries, 0 when it has none (or the file system has
 * no POSIX ACLs), -E2BIG over max.
 */
int ksmbd_vfs_posix_acl_get(struct dentry *d, bool dflt,
			    struct ksmbd_posix_ace *out, u16 max);
/*
 * Replace the handle's access or default ACL (n == 0 removes a default
 * ACL). Entries are sorted here. -EOPNOTSUPP when the file system has no
 * POSIX ACLs.
 */
int ksmbd_vfs_posix_acl_set(struct ksmbd_file *fp, bool dflt,
			    const struct ksmbd_posix_ace *e, u16 n);

#endif /* KSMBD_VFS_ACL_H */
