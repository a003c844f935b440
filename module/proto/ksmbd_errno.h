/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Failures of ksmbd's own layers that no errno names without also naming
 * something else.  The objects below the handlers return -errno or one of
 * these (negated, like an errno); the handler turns either into the NT
 * status with ksmbd_ntstatus_from_errno() (ntstatus.h), the one table.
 *
 * The values sit above every kernel errno (the kernel-internal ones end
 * near 530) and below MAX_ERRNO (4095), so ERR_PTR()/IS_ERR() carry them
 * like any errno.
 */
#ifndef KSMBD_PROTO_KSMBD_ERRNO_H
#define KSMBD_PROTO_KSMBD_ERRNO_H

enum ksmbd_errno {
	KSMBD_ERRNO_FIRST = 4000,

	/*
	 * STATUS_CANNOT_DELETE: delete-on-close or a disposition on a
	 * read-only file.  EPERM and EACCES are both ACCESS_DENIED.
	 */
	KSMBD_ECANNOT_DELETE = KSMBD_ERRNO_FIRST,

	/*
	 * STATUS_DELETE_PENDING: the name's file is already to be deleted;
	 * a new open of it must fail.  No errno says "being deleted".
	 */
	KSMBD_EDELETE_PENDING,

	/*
	 * STATUS_NETWORK_NAME_DELETED: the tree the open was made under was
	 * disconnected meanwhile.  ESHUTDOWN also stands for a session that
	 * ended, which the client hears as USER_SESSION_DELETED.
	 */
	KSMBD_ENETNAME_DELETED,

	/*
	 * STATUS_FILE_CLOSED: the handle is closing under the request (its
	 * locks or watch already torn down).  EBADF is INVALID_HANDLE, a
	 * handle that was never there.
	 */
	KSMBD_EFILE_CLOSED,

	/*
	 * STATUS_INSUFFICIENT_RESOURCES: a bound of the server (locks per
	 * handle, pending requests, watches per session) or an allocation
	 * the client is told about as such.  ENOMEM is NO_MEMORY and ENOLCK
	 * is LOCK_NOT_GRANTED.
	 */
	KSMBD_ENORESOURCES,

	/*
	 * STATUS_LOCK_NOT_GRANTED: a byte-range lock conflicts.  EAGAIN is
	 * FILE_LOCK_CONFLICT, the answer to I/O into a locked range.
	 */
	KSMBD_ELOCK_NOT_GRANTED,

	/*
	 * STATUS_RANGE_NOT_LOCKED: an unlock of a range this open does not
	 * hold.  ENOENT is OBJECT_NAME_NOT_FOUND.
	 */
	KSMBD_ERANGE_NOT_LOCKED,

	/*
	 * STATUS_INFO_LENGTH_MISMATCH: an information class's buffer cannot
	 * hold even its fixed part.  ENOSPC is DISK_FULL, EMSGSIZE has no
	 * status of its own.
	 */
	KSMBD_EINFO_LENGTH,

	/*
	 * STATUS_BAD_NETWORK_NAME: the daemon knows no share of that name.
	 * ENOENT is OBJECT_NAME_NOT_FOUND, a file.
	 */
	KSMBD_EBAD_NETWORK_NAME,

	/*
	 * STATUS_REQUEST_NOT_ACCEPTED: the daemon's limit of connections
	 * or sessions on the share is reached.  EUSERS has no status.
	 */
	KSMBD_ENOT_ACCEPTED,

	/*
	 * STATUS_PRIVILEGE_NOT_HELD: the access asked for needs a privilege
	 * the caller lacks (ACCESS_SYSTEM_SECURITY without
	 * SeSecurityPrivilege). EPERM is ACCESS_DENIED.
	 */
	KSMBD_EPRIV_NOT_HELD,

	/*
	 * STATUS_INVALID_OWNER: a descriptor names an owner the caller may
	 * not give (not its own SID, and no take-ownership or restore
	 * privilege).  EPERM is ACCESS_DENIED.
	 */
	KSMBD_EINVALID_OWNER,

	/*
	 * STATUS_OBJECT_PATH_SYNTAX_BAD: a path whose ".." would climb above
	 * the share root.  EINVAL is the other bad names' OBJECT_NAME_INVALID.
	 */
	KSMBD_EPATH_SYNTAX_BAD,

	KSMBD_ERRNO_END		/* one past the last */
};

#endif /* KSMBD_PROTO_KSMBD_ERRNO_H */
