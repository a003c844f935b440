// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>
#include "testlib.h"
#include "fileinfo.h"
#include "dosattr.h"

/* What smb2_query.c makes of a kstat, for a 5000-byte file, inode 42. */
static struct ksmbd_fattr fake_file(void)
{
	struct ksmbd_fattr a = {
		.creation_time = ksmbd_filetime_from_unix(1000000000, 0),
		.last_access_time = ksmbd_filetime_from_unix(1700000000, 500),
		.last_write_time = ksmbd_filetime_from_unix(1700000001, 0),
		.change_time = ksmbd_filetime_from_unix(1700000002, 0),
		.end_of_file = 5000,
		.allocation_size = 8192,
		.index_number = 42,
		.attributes = FILE_ATTRIBUTE_ARCHIVE,
		.nlink = 2,
	};
	return a;
}

#define LE32(p) get_unaligned_le32(p)
#define LE64(p) get_unaligned_le64(p)

TEST(filetime_conversion)
{
	s64 sec;
	u32 nsec;

	CHECK(ksmbd_filetime_from_unix(0, 0) == 116444736000000000ULL);
	CHECK(ksmbd_filetime_from_unix(1, 150) == 116444736010000001ULL);
	ksmbd_filetime_to_unix(116444736010000001ULL, &sec, &nsec);
	CHECK_EQ_INT(sec, 1);
	CHECK_EQ_INT(nsec, 100);
	/* before 1970 */
	ksmbd_filetime_to_unix(116444735990000000ULL, &sec, &nsec);
	CHECK_EQ_INT(sec, -1);
	CHECK_EQ_INT(nsec, 0);
	ksmbd_filetime_to_unix(116444735995000000ULL, &sec, &nsec);
	CHECK_EQ_INT(sec, -1);
	CHECK_EQ_INT(nsec, 500000000);
	/* clamps instead of wrapping */
	CHECK(ksmbd_filetime_from_unix(-20000000000LL, 0) == 0);
	CHECK(ksmbd_filetime_from_unix(INT64_MAX / 2, 0) == 0x7fffffffffffffffULL);
	ksmbd_filetime_to_unix(~0ULL, &sec, &nsec);
	CHECK(sec > 0);
}

TEST(basic_and_standard)
{
	struct ksmbd_fattr a = fake_file();
	u8 b[64];
	struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));

	ksmbd_fileinfo_basic(&w, &a);
	CHECK_EQ_INT(w.len, FILE_BASIC_INFO_SIZE);
	CHECK(LE64(b) == a.creation_time);
	CHECK(LE64(b + 8) == a.last_access_time);
	CHECK(LE64(b + 16) == a.last_write_time);
	CHECK(LE64(b + 24) == a.change_time);
	CHECK_EQ_INT(LE32(b + 32), FILE_ATTRIBUTE_ARCHIVE);

	w = ksmbd_wbuf_make(b, sizeof(b));
	ksmbd_fileinfo_standard(&w, &a);
	CHECK_EQ_INT(w.len, FILE_STANDARD_INFO_SIZE);
	CHECK_EQ_INT(LE64(b), 8192);
	CHECK_EQ_INT(LE64(b + 8), 5000);
	CHECK_EQ_INT(LE32(b + 16), 2);
	CHECK_EQ_INT(b[20], 0);
	CHECK_EQ_INT(b[21], 0);

	/* a directory reports no data and its flag */
	a.directory = true;
	a.delete_pending = true;
	w = ksmbd_wbuf_make(b, sizeof(b));
	ksmbd_fileinfo_standard(&w, &a);
	CHECK_EQ_INT(LE64(b), 0);
	CHECK_EQ_INT(LE64(b + 8), 0);
	CHECK_EQ_INT(b[20], 1);
	CHECK_EQ_INT(b[21], 1);
}

TEST(fixed_classes_overflow_instead_of_writing)
{
	struct ksmbd_fattr a = fake_file();
	u8 b[64];
	struct ksmbd_wbuf w = ksmbd_wbuf_make(b, 39);

	memset(b, 0xee, sizeof(b));
	ksmbd_fileinfo_basic(&w, &a);
	CHECK(w.overflow);
	CHECK_EQ_INT(b[39], 0xee);

	w = ksmbd_wbuf_make(b, sizeof(b));
	ksmbd_fileinfo_network_open(&w, &a);
	CHECK_EQ_INT(w.len, FILE_NETWORK_OPEN_INFO_SIZE);
	CHECK_EQ_INT(LE64(b + 32), 8192);
	CHECK_EQ_INT(LE64(b + 40), 5000);
	CHECK_EQ_INT(LE32(b + 48), FILE_ATTRIBUTE_ARCHIVE);

	w = ksmbd_wbuf_make(b, sizeof(b));
	ksmbd_fileinfo_internal(&w, &a);
	ksmbd_fileinfo_attribute_tag(&w, &a);
	ksmbd_fileinfo_compression(&w, &a);
	CHECK_EQ_INT(w.len, 8 + 8 + 16);
	CHECK_EQ_INT(LE64(b), 42);
}

TEST(all_information_and_truncation)
{
	static const u8 name[] = { 'a', 0, '\\', 0, 'b', 0 };
	struct ksmbd_fileinfo_handle h = {
		.access_flags = 0x001f01ff, .position = 7, .mode = 0,
		.name16 = name, .name16_len = sizeof(name),
	};
	struct ksmbd_fattr a = fake_file();
	u8 b[128];
	struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));
	u32 need;

	need = ksmbd_fileinfo_all(&w, &a, &h);
	CHECK_EQ_INT(need, 106);
	CHECK_EQ_INT(w.len, 106);
	CHECK(!w.overflow);
	CHECK_EQ_INT(LE64(b + 64), 42);			/* IndexNumber */
	CHECK_EQ_INT(LE32(b + 76), 0x001f01ff);		/* AccessFlags */
	CHECK_EQ_INT(LE64(b + 80), 7);			/* CurrentByteOffset */
	CHECK_EQ_INT(LE32(b + 96), sizeof(name));	/* FileNameLength */
	CHECK_EQ_MEM(b + 100, name, sizeof(name));

	/* room for the fixed part and one character: name cut, length kept */
	w = ksmbd_wbuf_make(b, 103);
	need = ksmbd_fileinfo_all(&w, &a, &h);
	CHECK_EQ_INT(need, 106);
	CHECK(!w.overflow);
	CHECK_EQ_INT(w.len, 102);
	CHECK_EQ_INT(LE32(b + 96), sizeof(name));
}

TEST(stream_information)
{
	struct ksmbd_fattr a = fake_file();
	u8 b[64];
	struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));

	CHECK_EQ_INT(ksmbd_fileinfo_stream(&w, &a), 38);
	CHECK_EQ_INT(w.len, 38);
	CHECK_EQ_INT(LE32(b), 0);
	CHECK_EQ_INT(LE32(b + 4), 14);
	CHECK_EQ_INT(LE64(b + 8), 5000);
	CHECK_EQ_MEM(b + 24, ":\0:\0$\0D\0A\0T\0A\0", 14);
}

TEST(filesystem_classes)
{
	static const u8 ntfs[] = { 'N', 0, 'T', 0, 'F', 0, 'S', 0 };
	static const u8 label[] = { 's', 0, 'h', 0 };
	struct ksmbd_fsinfo f = {
		.total_units = 1000, .free_units = 300, .avail_units = 250,
		.sectors_per_unit = 8, .bytes_per_sector = 512, .name_max = 255,
		.serial = 0xabcd, .attributes = FILE_CASE_PRESERVED_NAMES |
		FILE_UNICODE_ON_DISK, .fsname16 = ntfs, .fsname16_len = 8,
		.label16 = label, .label16_len = 4,
	};
	u8 b[128];
	struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));

	ksmbd_fsinfo_full_size(&w, &f);
	CHECK_EQ_INT(w.len, FS_FULL_SIZE_INFO_SIZE);
	CHECK_EQ_INT(LE64(b), 1000);
	CHECK_EQ_INT(LE64(b + 8), 250);
	CHECK_EQ_INT(LE64(b + 16), 300);
	CHECK_EQ_INT(LE32(b + 24), 8);
	CHECK_EQ_INT(LE32(b + 28), 512);

	w = ksmbd_wbuf_make(b, sizeof(b));
	ksmbd_fsinfo_size(&w, &f);
	CHECK_EQ_INT(w.len, FS_SIZE_INFO_SIZE);
	CHECK_EQ_INT(LE64(b + 8), 250);

	w = ksmbd_wbuf_make(b, sizeof(b));
	CHECK_EQ_INT(ksmbd_fsinfo_attribute(&w, &f), 20);
	CHECK_EQ_INT(LE32(b), FILE_CASE_PRESERVED_NAMES | FILE_UNICODE_ON_DISK);
	CHECK_EQ_INT(LE32(b + 4), 255);
	CHECK_EQ_INT(LE32(b + 8), 8);
	CHECK_EQ_MEM(b + 12, ntfs, 8);

	w = ksmbd_wbuf_make(b, 14);	/* two bytes of the name fit */
	CHECK_EQ_INT(ksmbd_fsinfo_attribute(&w, &f), 20);
	CHECK_EQ_INT(w.len, 14);

	w = ksmbd_wbuf_make(b, sizeof(b));
	CHECK_EQ_INT(ksmbd_fsinfo_volume(&w, &f), 22);
	CHECK_EQ_INT(LE32(b + 8), 0xabcd);
	CHECK_EQ_INT(LE32(b + 12), 4);

	w = ksmbd_wbuf_make(b, sizeof(b));
	ksmbd_fsinfo_device(&w);
	ksmbd_fsinfo_sector_size(&w, &f);
	CHECK_EQ_INT(w.len, FS_DEVICE_INFO_SIZE + FS_SECTOR_SIZE_INFO_SIZE);
	CHECK_EQ_INT(LE32(b), FILE_DEVICE_DISK);
	CHECK_EQ_INT(LE32(b + 8), 512);

	/* FileFsControlInformation: no quota limits, no flags */
	w = ksmbd_wbuf_make(b, sizeof(b));
	ksmbd_fsinfo_control(&w);
	CHECK_EQ_INT(w.len, FS_CONTROL_INFO_SIZE);
	CHECK(LE64(b + 24) == ~0ULL);		/* DefaultQuotaThreshold */
	CHECK(LE64(b + 32) == ~0ULL);		/* DefaultQuotaLimit */
	CHECK_EQ_INT(LE32(b + 40), 0);
	w = ksmbd_wbuf_make(b, FS_CONTROL_INFO_SIZE - 1);
	ksmbd_fsinfo_control(&w);
	CHECK(w.overflow);
}

/* ShortNameLength at 68, the UTF-16 ShortName at 70 (24 bytes) */
TEST(both_directory_short_name)
{
	static const u8 name[] = { 'x', 0, 'y', 0, 'z', 0 };
	static const u8 want[] = { 'T', 0, 'O', 0, 'R', 0, 'T', 0, '~', 0,
				   '1', 0, '2', 0, '3', 0, '.', 0, 'T', 0,
				   'X', 0, 'T', 0 };
	struct ksmbd_fattr a = fake_file();
	u8 b[256], zero[24] = { 0 };
	struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));

	memset(b, 0xee, sizeof(b));
	CHECK_EQ_INT(ksmbd_dirent_put(&w, FILE_BOTH_DIRECTORY_INFORMATION, &a,
				      name, 6), 0);
	CHECK_EQ_INT(b[68], 0);
	CHECK_EQ_MEM(b + 70, zero, 24);
	strcpy(a.short_name, "TORT~123.TXT");
	w = ksmbd_wbuf_make(b, sizeof(b));
	CHECK_EQ_INT(ksmbd_dirent_put(&w, FILE_ID_BOTH_DIRECTORY_INFORMATION,
				      &a, name, 6), 0);
	CHECK_EQ_INT(b[68], 24);
	CHECK_EQ_MEM(b + 70, want, 24);
	CHECK_EQ_INT(LE64(b + 96), 42);		/* FileId after it */
	CHECK_EQ_MEM(b + 104, name, 6);
}

TEST(directory_entries)
{
	static const u8 name[] = { 'f', 0, '.', 0, 'c', 0 };
	static const struct { u8 cls; u32 fixed; u32 name_len_at; } c[] = {
		{ FILE_DIRECTORY_INFORMATION, 64, 60 },
		{ FILE_FULL_DIRECTORY_INFORMATION, 68, 60 },
		{ FILE_BOTH_DIRECTORY_INFORMATION, 94, 60 },
		{ FILE_NAMES_INFORMATION, 12, 8 },
		{ FILE_ID_BOTH_DIRECTORY_INFORMATION, 104, 60 },
		{ FILE_ID_FULL_DIRECTORY_INFORMATION, 80, 60 },
	};
	struct ksmbd_fattr a = fake_file();
	u8 b[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));

		CHECK(ksmbd_dirent_class_ok(c[i].cls));
		CHECK_EQ_INT(ksmbd_dirent_size(c[i].cls, 6), c[i].fixed + 6);
		CHECK_EQ_INT(ksmbd_dirent_put(&w, c[i].cls, &a, name, 6), 0);
		CHECK_EQ_INT(w.len, c[i].fixed + 6);
		CHECK_EQ_INT(LE32(b + c[i].name_len_at), 6);
		CHECK_EQ_MEM(b + c[i].fixed, name, 6);
		/* one byte short: nothing written, -ENOSPC */
		w = ksmbd_wbuf_make(b, c[i].fixed + 5);
		CHECK_EQ_INT(ksmbd_dirent_put(&w, c[i].cls, &a, name, 6), -ENOSPC);
		CHECK_EQ_INT(w.len, 0);
	}
	{
		struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));

		CHECK_EQ_INT(ksmbd_dirent_put(&w, FILE_ID_BOTH_DIRECTORY_INFORMATION,
					      &a, name, 6), 0);
		CHECK_EQ_INT(LE64(b + 96), 42);		/* FileId */
		CHECK_EQ_INT(LE64(b + 40), 5000);	/* EndOfFile */
		CHECK_EQ_INT(LE64(b + 48), 8192);	/* AllocationSize */
	}
	CHECK(!ksmbd_dirent_class_ok(FILE_BASIC_INFORMATION));
	{
		struct ksmbd_wbuf w = ksmbd_wbuf_make(b, sizeof(b));

		CHECK_EQ_INT(ksmbd_dirent_put(&w, 99, &a, name, 6), -EINVAL);
	}
}

TEST(dos_attributes)
{
	struct ksmbd_dosattr da = { .valid = KSMBD_DOSINFO_ATTRIB,
				    .attrib = FILE_ATTRIBUTE_SYSTEM |
					      FILE_ATTRIBUTE_READONLY |
					      FILE_ATTRIBUTE_DIRECTORY };

	/* nothing stored: a file is ARCHIVE, as Windows creates it */
	CHECK_EQ_INT(ksmbd_dos_attrs(false, true, false, NULL),
		     FILE_ATTRIBUTE_ARCHIVE);
	CHECK_EQ_INT(ksmbd_dos_attrs(false, false, false, NULL),
		     FILE_ATTRIBUTE_ARCHIVE | FILE_ATTRIBUTE_READONLY);
	CHECK_EQ_INT(ksmbd_dos_attrs(true, false, true, NULL),
		     FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_HIDDEN);
	/* the mode decides READONLY and the file type DIRECTORY */
	CHECK_EQ_INT(ksmbd_dos_attrs(false, true, false, &da),
		     FILE_ATTRIBUTE_SYSTEM);
	da.valid = 0;
	CHECK_EQ_INT(ksmbd_dos_attrs(false, true, false, &da),
		     FILE_ATTRIBUTE_ARCHIVE);
	/* stored attributes without ARCHIVE (a client cleared it) */
	da.valid = KSMBD_DOSINFO_ATTRIB;
	da.attrib = 0;
	CHECK_EQ_INT(ksmbd_dos_attrs(false, true, false, &da),
		     FILE_ATTRIBUTE_NORMAL);
	/* SPARSE_FILE stored by FSCTL_SET_SPARSE: reported, on files only */
	da.attrib = FILE_ATTRIBUTE_SPARSE_FILE | FILE_ATTRIBUTE_ARCHIVE;
	CHECK_EQ_INT(ksmbd_dos_attrs(false, true, false, &da),
		     FILE_ATTRIBUTE_SPARSE_FILE | FILE_ATTRIBUTE_ARCHIVE);
	CHECK_EQ_INT(ksmbd_dos_attrs(true, true, false, &da),
		     FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_ARCHIVE);
}

int main(void)
{
	RUN(dos_attributes);
	RUN(filetime_conversion);
	RUN(basic_and_standard);
	RUN(fixed_classes_overflow_instead_of_writing);
	RUN(all_information_and_truncation);
	RUN(stream_information);
	RUN(filesystem_classes);
	RUN(directory_entries);
	RUN(both_directory_short_name);
	return test_report();
}
