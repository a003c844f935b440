// SPDX-License-Identifier: GPL-2.0-or-later
/* CREATE's file-system-free decisions (module/fs/create_rules.c). */
#include "testlib.h"
#include "create_rules.h"
#include "proto/ntstatus.h"

static struct ksmbd_create_args good_args(void)
{
	struct ksmbd_create_args a = {
		.impersonation_level = 2,
		.desired_access = FILE_GENERIC_READ,
		.file_attributes = FILE_ATTRIBUTE_NORMAL,
		.share_access = FILE_SHARE_READ | FILE_SHARE_WRITE,
		.disposition = FILE_OPEN_IF,
		.options = FILE_NON_DIRECTORY_FILE,
	};

	return a;
}

TEST(args_ok)
{
	struct ksmbd_create_args a = good_args();

	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_SUCCESS);
	a.desired_access = FILE_MAXIMUM_ALLOWED;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_SUCCESS);
	a.desired_access = FILE_SYNCHRONIZE | FILE_READ_ATTRIBUTES;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_SUCCESS);
}

TEST(args_bad)
{
	struct ksmbd_create_args a;

	a = good_args();
	a.impersonation_level = 4;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_BAD_IMPERSONATION_LEVEL);
	a = good_args();
	a.options = FILE_DIRECTORY_FILE | FILE_NON_DIRECTORY_FILE;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_INVALID_PARAMETER);
	a = good_args();
	a.options = 0x01000000;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_INVALID_PARAMETER);
	a = good_args();
	a.disposition = 6;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_INVALID_PARAMETER);
	a = good_args();
	a.options = FILE_DIRECTORY_FILE;
	a.disposition = FILE_OVERWRITE_IF;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_INVALID_PARAMETER);
	a.disposition = FILE_SUPERSEDE;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_INVALID_PARAMETER);
	a.disposition = FILE_CREATE;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_SUCCESS);
	a = good_args();
	a.share_access = 8;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_INVALID_PARAMETER);
	a = good_args();
	a.file_attributes = 0x00008000;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_INVALID_PARAMETER);
	a = good_args();
	a.desired_access = 0x04000000;	/* reserved bit */
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_ACCESS_DENIED);
	a.file_attributes = 0x00000008;	/* VOLUME: access is checked first */
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_ACCESS_DENIED);
	a = good_args();
	a.desired_access = 0;		/* no right asked for */
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_ACCESS_DENIED);
	a.desired_access = FILE_SYNCHRONIZE;	/* smb2.getinfo.getinfo_access */
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_SUCCESS);
	a = good_args();
	a.desired_access = FILE_ACCESS_SYSTEM_SECURITY;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_PRIVILEGE_NOT_HELD);
	/* with SeSecurityPrivilege it is an access like another */
	a.may_audit = true;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_SUCCESS);
	a.may_audit = false;
	a = good_args();
	a.options |= FILE_OPEN_BY_FILE_ID;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_NOT_SUPPORTED);
	a = good_args();
	a.options |= FILE_CREATE_TREE_CONNECTION;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_NOT_SUPPORTED);
}

TEST(delete_on_close_needs_delete)
{
	struct ksmbd_create_args a = good_args();

	a.options |= FILE_DELETE_ON_CLOSE;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_ACCESS_DENIED);
	a.desired_access |= FILE_DELETE;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_SUCCESS);
	a.desired_access = FILE_GENERIC_ALL;
	CHECK_EQ_INT(ksmbd_create_args_check(&a), STATUS_SUCCESS);
}

TEST(generic_mapping)
{
	CHECK_EQ_INT(ksmbd_access_map_generic(FILE_GENERIC_READ), 0x00120089);
	CHECK_EQ_INT(ksmbd_access_map_generic(FILE_GENERIC_WRITE), 0x00120116);
	CHECK_EQ_INT(ksmbd_access_map_generic(FILE_GENERIC_EXECUTE), 0x001200a0);
	CHECK_EQ_INT(ksmbd_access_map_generic(FILE_GENERIC_ALL), 0x001f01ff);
	CHECK_EQ_INT(ksmbd_access_map_generic(FILE_DELETE | FILE_GENERIC_READ),
		     0x00130089);
	CHECK_EQ_INT(ksmbd_access_map_generic(FILE_MAXIMUM_ALLOWED),
		     FILE_MAXIMUM_ALLOWED);
}

TEST(perms_to_access)
{
	u32 ro = ksmbd_access_from_perms(true, false, false, false);
	u32 rw = ksmbd_access_from_perms(true, true, false, true);

	CHECK(ro & FILE_READ_DATA);
	CHECK(!(ro & (FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_DELETE)));
	CHECK(ro & FILE_READ_ATTRIBUTES);
	CHECK(rw & FILE_WRITE_DATA);
	CHECK(rw & FILE_DELETE);
	CHECK(!(rw & FILE_EXECUTE));
}

TEST(share_modes)
{
	u32 r = FILE_READ_DATA, w = FILE_WRITE_DATA, d = FILE_DELETE;

	/* Readers sharing read. */
	CHECK(!ksmbd_share_conflict(r, FILE_SHARE_READ, r, FILE_SHARE_READ));
	/* Writer when the first withheld write sharing. */
	CHECK(ksmbd_share_conflict(r, FILE_SHARE_READ, w, FILE_SHARE_ALL));
	/* New open withholds read sharing from an existing reader. */
	CHECK(ksmbd_share_conflict(r, FILE_SHARE_ALL, r, FILE_SHARE_WRITE));
	/* Delete needs share-delete both ways. */
	CHECK(ksmbd_share_conflict(r, FILE_SHARE_READ, d, FILE_SHARE_ALL));
	CHECK(ksmbd_share_conflict(d, FILE_SHARE_ALL, r, FILE_SHARE_READ));
	CHECK(!ksmbd_share_conflict(d, FILE_SHARE_ALL, r, FILE_SHARE_ALL));
	/* Append counts as write; execute as read. */
	CHECK(ksmbd_share_conflict(FILE_APPEND_DATA, FILE_SHARE_ALL, r,
				   FILE_SHARE_READ));
	CHECK(ksmbd_share_conflict(FILE_EXECUTE, FILE_SHARE_ALL, r,
				   FILE_SHARE_WRITE));
	/* Attribute-only opens neither block nor are blocked. */
	CHECK(!ksmbd_share_conflict(FILE_READ_ATTRIBUTES, 0, w, 0));
	CHECK(!ksmbd_share_conflict(w, 0, FILE_READ_ATTRIBUTES, 0));
}

TEST(dispositions)
{
	static const struct {
		u32 disp;
		enum ksmbd_create_step exists, missing;
		u32 action_exists;
	} t[] = {
		{ FILE_SUPERSEDE, KSMBD_STEP_TRUNCATE, KSMBD_STEP_CREATE, FILE_SUPERSEDED },
		{ FILE_OPEN, KSMBD_STEP_OPEN, KSMBD_STEP_FAIL_MISSING, FILE_OPENED },
		{ FILE_CREATE, KSMBD_STEP_FAIL_EXISTS, KSMBD_STEP_CREATE, 0 },
		{ FILE_OPEN_IF, KSMBD_STEP_OPEN, KSMBD_STEP_CREATE, FILE_OPENED },
		{ FILE_OVERWRITE, KSMBD_STEP_TRUNCATE, KSMBD_STEP_FAIL_MISSING, FILE_OVERWRITTEN },
		{ FILE_OVERWRITE_IF, KSMBD_STEP_TRUNCATE, KSMBD_STEP_CREATE, FILE_OVERWRITTEN },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CHECK_EQ_INT(ksmbd_create_step(t[i].disp, true), t[i].exists);
		CHECK_EQ_INT(ksmbd_create_step(t[i].disp, false), t[i].missing);
		if (t[i].exists != KSMBD_STEP_FAIL_EXISTS)
			CHECK_EQ_INT(ksmbd_create_action(t[i].disp, t[i].exists),
				     t[i].action_exists);
		if (t[i].missing == KSMBD_STEP_CREATE)
			CHECK_EQ_INT(ksmbd_create_action(t[i].disp, t[i].missing),
				     FILE_CREATED);
	}
}

/* One FILE_FULL_EA_INFORMATION entry at p; returns its unpadded size. */
static u32 put_ea(u8 *p, u32 next, const char *name, const char *value)
{
	u32 nl = (u32)strlen(name), vl = (u32)strlen(value);

	put_unaligned_le32(next, p);
	p[4] = 0;
	p[5] = (u8)nl;
	put_unaligned_le16((u16)vl, p + 6);
	memcpy(p + 8, name, nl + 1);
	memcpy(p + 9 + nl, value, vl);
	return 9 + nl + vl;
}

TEST(ea_chain_good)
{
	u8 b[64] = { 0 };
	struct ksmbd_buf buf;
	struct ksmbd_ea_entry e;
	u32 pos = 0, n1;

	n1 = put_ea(b, 16, "ab", "xyz");	/* 14 bytes, padded to 16 */
	CHECK_EQ_INT(n1, 14);
	put_ea(b + 16, 0, "c", "");
	buf = ksmbd_buf_make(b, 16 + 10);
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), 2);
	CHECK_EQ_INT(ksmbd_ea_next(&buf, &pos, &e), 1);
	CHECK_EQ_INT(e.name.len, 2);
	CHECK_EQ_MEM(e.name.p, "ab", 2);
	CHECK_EQ_INT(e.value.len, 3);
	CHECK_EQ_MEM(e.value.p, "xyz", 3);
	CHECK_EQ_INT(ksmbd_ea_next(&buf, &pos, &e), 1);
	CHECK_EQ_INT(e.value.len, 0);
	CHECK_EQ_INT(ksmbd_ea_next(&buf, &pos, &e), 0);
}

TEST(ea_names_reserved)
{
	static const char *const refused[] = {
		"DOSATTRIB", "dosattrib", "DosStream.x", "dosstream.",
		"KsmbdStream.s", "KSMBDSTREAM.anything",
	};
	static const char *const allowed[] = {
		"DOSATTRIBX", "DOSATTRI", "DosStream", "KsmbdStreamx", "user",
		"x.DOSATTRIB",
	};
	struct ksmbd_buf n;
	u32 i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		n = ksmbd_buf_make((const u8 *)refused[i], strlen(refused[i]));
		CHECK(ksmbd_ea_name_reserved(&n));
	}
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		n = ksmbd_buf_make((const u8 *)allowed[i], strlen(allowed[i]));
		CHECK(!ksmbd_ea_name_reserved(&n));
	}
	n = ksmbd_buf_make((const u8 *)"ab\0cd", 5);
	CHECK(ksmbd_ea_name_reserved(&n));
}

TEST(ea_chain_bad)
{
	u8 b[64] = { 0 };
	struct ksmbd_buf buf;

	/* Value runs past the buffer. */
	put_ea(b, 0, "ab", "xyz");
	buf = ksmbd_buf_make(b, 13);
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), -EINVAL);
	/* Name not NUL-terminated where EaNameLength says. */
	put_ea(b, 0, "ab", "xyz");
	b[10] = 'Z';
	buf = ksmbd_buf_make(b, 14);
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), -EINVAL);
	/* NextEntryOffset inside the entry, unaligned, or past the end. */
	put_ea(b, 8, "ab", "xyz");
	buf = ksmbd_buf_make(b, 40);
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), -EINVAL);
	put_ea(b, 18, "ab", "xyz");
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), -EINVAL);
	put_ea(b, 40, "ab", "xyz");
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), -EINVAL);
	/* Empty name, empty buffer, short header. */
	put_ea(b, 0, "", "v");
	buf = ksmbd_buf_make(b, 10);
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), -EINVAL);
	buf = ksmbd_buf_make(b, 0);
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), -EINVAL);
	buf = ksmbd_buf_make(b, 7);
	CHECK_EQ_INT(ksmbd_ea_chain_check(&buf), -EINVAL);
}

int main(void)
{
	RUN(args_ok);
	RUN(args_bad);
	RUN(delete_on_close_needs_delete);
	RUN(generic_mapping);
	RUN(perms_to_access);
	RUN(share_modes);
	RUN(dispositions);
	RUN(ea_chain_good);
	RUN(ea_chain_bad);
	RUN(ea_names_reserved);
	return test_report();
}
