// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NT status names and the errno -> NT status table.
 */
#include "ntstatus.h"

struct ntstatus_name {
	u32 status;
	const char *name;
};

#define KSMBD_NTSTATUS_ENTRY(n, v) { v, #n },
static const struct ntstatus_name ntstatus_names[] = {
	KSMBD_NTSTATUS_LIST(KSMBD_NTSTATUS_ENTRY)
};
#undef KSMBD_NTSTATUS_ENTRY

const char *ksmbd_ntstatus_name(u32 status)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ntstatus_names); i++)
		if (ntstatus_names[i].status == status)
			return ntstatus_names[i].name;
	return "STATUS_UNKNOWN";
}

struct errno_map {
	int err;
	u32 status;
};

/*
 * Choices follow what Windows answers for the equivalent NTFS failure.
 * ELOOP comes from path walks that refuse symlinks and EXDEV from walks that
 * would leave the share: both are "you may not go there".
 */
static const struct errno_map errno_map[] = {
	{ EPERM,	STATUS_ACCESS_DENIED },
	{ EACCES,	STATUS_ACCESS_DENIED },
	{ ELOOP,	STATUS_ACCESS_DENIED },
	{ ENOENT,	STATUS_OBJECT_NAME_NOT_FOUND },
	{ EEXIST,	STATUS_OBJECT_NAME_COLLISION },
	{ ENOTDIR,	STATUS_NOT_A_DIRECTORY },
	{ EISDIR,	STATUS_FILE_IS_A_DIRECTORY },
	{ ENOTEMPTY,	STATUS_DIRECTORY_NOT_EMPTY },
	{ ENAMETOOLONG,	STATUS_OBJECT_NAME_INVALID },
	{ EILSEQ,	STATUS_OBJECT_NAME_INVALID },
	{ EINVAL,	STATUS_INVALID_PARAMETER },
	{ ESPIPE,	STATUS_INVALID_PARAMETER },
	{ ERANGE,	STATUS_INVALID_PARAMETER },
	{ ENOMEM,	STATUS_NO_MEMORY },
	{ ENOSPC,	STATUS_DISK_FULL },
	{ EDQUOT,	STATUS_DISK_FULL },
	{ EFBIG,	STATUS_FILE_TOO_LARGE },
	{ EROFS,	STATUS_MEDIA_WRITE_PROTECTED },
	{ EBADF,	STATUS_INVALID_HANDLE },
	{ ESTALE,	STATUS_FILE_CLOSED },
	{ EXDEV,	STATUS_NOT_SAME_DEVICE },
	{ EBUSY,	STATUS_SHARING_VIOLATION },
	{ ETXTBSY,	STATUS_SHARING_VIOLATION },
	{ EAGAIN,	STATUS_FILE_LOCK_CONFLICT },
	{ ENOLCK,	STATUS_LOCK_NOT_GRANTED },
	{ EDEADLK,	STATUS_POSSIBLE_DEADLOCK },
	{ EMFILE,	STATUS_TOO_MANY_OPENED_FILES },
	{ ENFILE,	STATUS_TOO_MANY_OPENED_FILES },
	{ EMLINK,	STATUS_TOO_MANY_LINKS },
	{ EOPNOTSUPP,	STATUS_NOT_SUPPORTED },
	{ ENOTSUPP,	STATUS_NOT_SUPPORTED },
	{ ENOSYS,	STATUS_NOT_IMPLEMENTED },
	{ EIO,		STATUS_UNEXPECTED_IO_ERROR },
	{ EBADMSG,	STATUS_DATA_ERROR },
	{ ENODATA,	STATUS_NO_EAS_ON_FILE },
	{ ENOBUFS,	STATUS_BUFFER_TOO_SMALL },
	{ EOVERFLOW,	STATUS_BUFFER_OVERFLOW },
	{ ENXIO,	STATUS_NO_SUCH_DEVICE },
	{ ENODEV,	STATUS_NO_SUCH_DEVICE },
	{ ETIMEDOUT,	STATUS_IO_TIMEOUT },
	{ ECANCELED,	STATUS_CANCELLED },
	{ ENOTCONN,	STATUS_CONNECTION_DISCONNECTED },
	{ ECONNRESET,	STATUS_CONNECTION_RESET },
	{ EPIPE,	STATUS_PIPE_BROKEN },
	{ EKEYREJECTED,	STATUS_LOGON_FAILURE },
	{ EKEYEXPIRED,	STATUS_PASSWORD_EXPIRED },
};

u32 ksmbd_ntstatus_from_errno(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	if (!err)
		return STATUS_SUCCESS;
	for (i = 0; i < ARRAY_SIZE(errno_map); i++)
		if (errno_map[i].err == err)
			return errno_map[i].status;
	return STATUS_UNSUCCESSFUL;
}
