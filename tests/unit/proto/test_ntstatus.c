// SPDX-License-Identifier: GPL-2.0-or-later
/* The errno -> NT status table (module/proto/ntstatus.c). */
#include "testlib.h"
#include "proto/ntstatus.h"
#include "proto/ksmbd_errno.h"

TEST(zero_and_sign)
{
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(0), STATUS_SUCCESS);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ENOENT),
		     STATUS_OBJECT_NAME_NOT_FOUND);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(ENOENT),
		     STATUS_OBJECT_NAME_NOT_FOUND);
}

TEST(unknown_is_never_success)
{
	/* ksmbd_ipc_rpc_errno() answers EPROTO for an RPC status unknown. */
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EPROTO), STATUS_UNSUCCESSFUL);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ESHUTDOWN),
		     STATUS_UNSUCCESSFUL);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EMSGSIZE),
		     STATUS_UNSUCCESSFUL);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_ERRNO_END),
		     STATUS_UNSUCCESSFUL);
}

/* What the handlers' former local translators relied on the table for. */
TEST(errnos_the_handlers_pass)
{
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ENOTDIR),
		     STATUS_NOT_A_DIRECTORY);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ECANCELED), STATUS_CANCELLED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ENOTEMPTY),
		     STATUS_DIRECTORY_NOT_EMPTY);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ENODATA),
		     STATUS_NO_EAS_ON_FILE);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EPERM), STATUS_ACCESS_DENIED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EACCES), STATUS_ACCESS_DENIED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EBADF), STATUS_INVALID_HANDLE);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ENOMEM), STATUS_NO_MEMORY);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EMFILE),
		     STATUS_TOO_MANY_OPENED_FILES);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EAGAIN),
		     STATUS_FILE_LOCK_CONFLICT);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ENOLCK),
		     STATUS_LOCK_NOT_GRANTED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-ENOSPC), STATUS_DISK_FULL);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EINVAL),
		     STATUS_INVALID_PARAMETER);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EOVERFLOW),
		     STATUS_BUFFER_OVERFLOW);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-EOPNOTSUPP),
		     STATUS_NOT_SUPPORTED);
}

TEST(named_codes)
{
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_ECANNOT_DELETE),
		     STATUS_CANNOT_DELETE);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_EDELETE_PENDING),
		     STATUS_DELETE_PENDING);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_ENETNAME_DELETED),
		     STATUS_NETWORK_NAME_DELETED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_EFILE_CLOSED),
		     STATUS_FILE_CLOSED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_ENORESOURCES),
		     STATUS_INSUFFICIENT_RESOURCES);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_ELOCK_NOT_GRANTED),
		     STATUS_LOCK_NOT_GRANTED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_ERANGE_NOT_LOCKED),
		     STATUS_RANGE_NOT_LOCKED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_EINFO_LENGTH),
		     STATUS_INFO_LENGTH_MISMATCH);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_EBAD_NETWORK_NAME),
		     STATUS_BAD_NETWORK_NAME);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_ENOT_ACCEPTED),
		     STATUS_REQUEST_NOT_ACCEPTED);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_EPRIV_NOT_HELD),
		     STATUS_PRIVILEGE_NOT_HELD);
	CHECK_EQ_INT(ksmbd_ntstatus_from_errno(-KSMBD_EINVALID_OWNER),
		     STATUS_INVALID_OWNER);
}

/* Every named code is in the table and fits ERR_PTR() (below 4096). */
TEST(named_codes_all_mapped)
{
	int e;

	CHECK(KSMBD_ERRNO_FIRST > 600);
	CHECK(KSMBD_ERRNO_END <= 4096);
	for (e = KSMBD_ERRNO_FIRST; e < KSMBD_ERRNO_END; e++)
		CHECK(ksmbd_ntstatus_from_errno(-e) != STATUS_UNSUCCESSFUL);
}

int main(void)
{
	RUN(zero_and_sign);
	RUN(unknown_is_never_success);
	RUN(errnos_the_handlers_pass);
	RUN(named_codes);
	RUN(named_codes_all_mapped);
	return test_report();
}
