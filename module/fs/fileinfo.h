/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Encoding of MS-FSCC information structures: file classes (2.4),
 * file system classes (2.5) and directory entries (2.4.8 ff). Plain C over
 * proto/'s bounded writer, built into ksmbd.ko and into host unit tests:
 * the kernel side fills a struct ksmbd_fattr from a kstat, the tests from
 * a fake one.
 */
#ifndef KSMBD_FILEINFO_H
#define KSMBD_FILEINFO_H

#include "proto/shim.h"
#include "proto/buf.h"
#include "proto/encode.h"
#include "create_rules.h"

/* FileInformationClass (MS-FSCC 2.4) */
enum {
	FILE_DIRECTORY_INFORMATION		= 1,
	FILE_FULL_DIRECTORY_INFORMATION		= 2,
	FILE_BOTH_DIRECTORY_INFORMATION		= 3,
	FILE_BASIC_INFORMATION			= 4,
	FILE_STANDARD_INFORMATION		= 5,
	FILE_INTERNAL_INFORMATION		= 6,
	FILE_EA_INFORMATION			= 7,
	FILE_ACCESS_INFORMATION			= 8,
	FILE_NAME_INFORMATION			= 9,
	FILE_RENAME_INFORMATION			= 10,
	FILE_LINK_INFORMATION			= 11,
	FILE_NAMES_INFORMATION			= 12,
	FILE_DISPOSITION_INFORMATION		= 13,
	FILE_POSITION_INFORMATION		= 14,
	FILE_FULL_EA_INFORMATION		= 15,
	FILE_MODE_INFORMATION			= 16,
	FILE_ALIGNMENT_INFORMATION		= 17,
	FILE_ALL_INFORMATION			= 18,
	FILE_ALLOCATION_INFORMATION		= 19,
	FILE_END_OF_FILE_INFORMATION		= 20,
	FILE_ALTERNATE_NAME_INFORMATION		= 21,
	FILE_STREAM_INFORMATION			= 22,
	FILE_COMPRESSION_INFORMATION		= 28,
	FILE_NETWORK_OPEN_INFORMATION		= 34,
	FILE_ATTRIBUTE_TAG_INFORMATION		= 35,
	FILE_ID_BOTH_DIRECTORY_INFORMATION	= 37,
	FILE_ID_FULL_DIRECTORY_INFORMATION	= 38,
	FILE_NORMALIZED_NAME_INFORMATION	= 48,
	FILE_DISPOSITION_INFORMATION_EX		= 64,
};

/* FsInformationClass (MS-FSCC 2.5) */
enum {
	FS_VOLUME_INFORMATION		= 1,
	FS_SIZE_INFORMATION		= 3,
	FS_DEVICE_INFORMATION		= 4,
	FS_ATTRIBUTE_INFORMATION	= 5,
	FS_CONTROL_INFORMATION		= 6,
	FS_FULL_SIZE_INFORMATION	= 7,
	FS_OBJECT_ID_INFORMATION	= 8,
	FS_SECTOR_SIZE_INFORMATION	= 11,
};

/*
 * FILE_ATTRIBUTE_* come from create_rules.h. What a client may set
 * through FileBasicInformation (MS-FSCC 2.6: not DIRECTORY, SPARSE, ...).
 */
#define KSMBD_ATTR_SETTABLE	(FILE_ATTRIBUTE_READONLY | FILE_ATTRIBUTE_HIDDEN | \
				 FILE_ATTRIBUTE_SYSTEM | FILE_ATTRIBUTE_ARCHIVE | \
				 FILE_ATTRIBUTE_NORMAL | FILE_ATTRIBUTE_TEMPORARY | \
				 0x00001000 | 0x00002000)
/*
 * What user.DOSATTRIB keeps and reports besides: SPARSE_FILE, which only
 * FSCTL_SET_SPARSE changes (files only; a SET_INFO keeps it as it is).
 */
#define KSMBD_ATTR_KEPT		(KSMBD_ATTR_SETTABLE | FILE_ATTRIBUTE_SPARSE_FILE)

/* FileModeInformation bits a handle reports (MS-FSCC 2.4.26) */
#define KSMBD_FILE_MODE_BITS	(0x00000002 | 0x00000004 | 0x00000008 | \
				 0x00000010 | 0x00000020 | 0x00001000)

/* FileFsAttributeInformation.FileSystemAttributes (MS-FSCC 2.5.1) */
enum {
	FILE_CASE_SENSITIVE_SEARCH	= 0x00000001,
	FILE_CASE_PRESERVED_NAMES	= 0x00000002,
	FILE_UNICODE_ON_DISK		= 0x00000004,
	FILE_PERSISTENT_ACLS		= 0x00000008,
	FILE_SUPPORTS_SPARSE_FILES	= 0x00000040,
	FILE_SUPPORTS_OBJECT_IDS	= 0x00010000,
	FILE_SUPPORTS_HARD_LINKS	= 0x00400000,
	FILE_NAMED_STREAMS		= 0x00040000,
	FILE_SUPPORTS_EXTENDED_ATTRIBUTES = 0x00800000,
};

#define FILE_DEVICE_DISK	0x00000007

/* Fixed sizes (MS-FSCC) */
enum {
	FILE_BASIC_INFO_SIZE		= 40,
	FILE_STANDARD_INFO_SIZE		= 24,
	FILE_INTERNAL_INFO_SIZE		= 8,
	FILE_EA_INFO_SIZE		= 4,
	FILE_ACCESS_INFO_SIZE		= 4,
	FILE_POSITION_INFO_SIZE		= 8,
	FILE_MODE_INFO_SIZE		= 4,
	FILE_ALIGNMENT_INFO_SIZE	= 4,
	FILE_ALL_INFO_FIXED		= 100,	/* up to FileNameLength included */
	FILE_NETWORK_OPEN_INFO_SIZE	= 56,
	FILE_ATTRIBUTE_TAG_INFO_SIZE	= 8,
	FILE_COMPRESSION_INFO_SIZE	= 16,
	FILE_STREAM_INFO_FIXED		= 24,
	FILE_NAME_INFO_FIXED		= 4,
	FS_VOLUME_INFO_FIXED		= 18,
	FS_SIZE_INFO_SIZE		= 24,
	FS_DEVICE_INFO_SIZE		= 8,
	FS_ATTRIBUTE_INFO_FIXED		= 12,
	FS_FULL_SIZE_INFO_SIZE		= 32,
	FS_OBJECT_ID_INFO_SIZE		= 64,
	FS_SECTOR_SIZE_INFO_SIZE	= 28,
	FS_CONTROL_INFO_SIZE		= 48,
};

/*
 * The smallest OutputBufferLength a variable-length class is answered
 * with (STATUS_BUFFER_OVERFLOW and a cut name) instead of
 * STATUS_INFO_LENGTH_MISMATCH: what Windows requires, the C size of the
 * structure with a one-character name, padded to its alignment.
 */
enum {
	FILE_ALL_INFO_MIN		= 104,
	FILE_ALTERNATE_NAME_INFO_MIN	= 8,
	FILE_NAME_INFO_MIN		= 8,
	FILE_STREAM_INFO_MIN		= 32,
	FS_VOLUME_INFO_MIN		= 24,
	FS_ATTRIBUTE_INFO_MIN		= 16,
};

/* struct ksmbd_fattr: proto/encode.h (CREATE and CLOSE report it too). */

/* FILETIME (100 ns since 1601-01-01) from Unix seconds and nanoseconds. */
u64 ksmbd_filetime_from_unix(s64 sec, u32 nsec);
/* And back; sec may be negative for times before 1970. */
void ksmbd_filetime_to_unix(u64 ft, s64 *sec, u32 *nsec);

struct ksmbd_dosattr;

/*
 * FileAttributes of a file: READONLY from the mode (the kernel enforces
 * it), HIDDEN for hidden dot files, the rest (HIDDEN, SYSTEM, ARCHIVE, ...)
 * from user.DOSATTRIB when da holds them; NORMAL when nothing else is set.
 * A file without stored attributes is ARCHIVE, as Windows sets it on
 * every new file (storing it at CREATE would cost an xattr write, and a
 * change-notify event the client did not cause); once a client sets the
 * attributes, what it set is stored, NORMAL included.
 */
/*
 * Not READONLY: the mode has a write bit, or where READONLY is stored
 * (ro_in_xattr, KSMBD_FILE_TREE_RO_XATTR) da does not hold it.
 */
bool ksmbd_attrs_writable(bool ro_in_xattr, u32 mode,
			  const struct ksmbd_dosattr *da);
u32 ksmbd_dos_attrs(bool directory, bool mode_writable, bool hide,
		    const struct ksmbd_dosattr *da);

/* ---- File classes (QUERY_INFO, SMB2_0_INFO_FILE) ---- */

void ksmbd_fileinfo_basic(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a);
void ksmbd_fileinfo_standard(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a);
void ksmbd_fileinfo_internal(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a);
void ksmbd_fileinfo_network_open(struct ksmbd_wbuf *w,
				 const struct ksmbd_fattr *a);
void ksmbd_fileinfo_attribute_tag(struct ksmbd_wbuf *w,
				  const struct ksmbd_fattr *a);
void ksmbd_fileinfo_compression(struct ksmbd_wbuf *w,
				const struct ksmbd_fattr *a);

/* The parts of FileAllInformation that are not about the file's metadata. */
struct ksmbd_fileinfo_handle {
	u32 access_flags;	/* granted access */
	u64 position;
	u32 mode;		/* FILE_MODE_INFORMATION bits */
	const u8 *name16;	/* UTF-16LE name, as FileNameInformation */
	u32 name16_len;		/* bytes */
};

/*
 * FileAllInformation. The name is truncated to what fits in cap, with
 * FileNameLength still the full length: MS-SMB2 3.3.5.20.1 answers
 * STATUS_BUFFER_OVERFLOW with as much as fits. Returns the size the full
 * structure needs.
 */
u32 ksmbd_fileinfo_all(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a,
		       const struct ksmbd_fileinfo_handle *h);
/* FileNameInformation; same truncation rule. */
u32 ksmbd_fileinfo_name(struct ksmbd_wbuf *w, const u8 *name16, u32 len);
/* FileStreamInformation: the one unnamed data stream of a file. */
u32 ksmbd_fileinfo_stream(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a);

/* ---- File system classes (QUERY_INFO, SMB2_0_INFO_FILESYSTEM) ---- */

struct ksmbd_fsinfo {
	u64 total_units;	/* allocation units = f_blocks */
	u64 free_units;		/* f_bfree */
	u64 avail_units;	/* f_bavail: what the caller may use */
	u32 sectors_per_unit;
	u32 bytes_per_sector;
	u32 name_max;
	u32 serial;
	u64 volume_creation_time;
	u32 attributes;		/* FILE_CASE_PRESERVED_NAMES, ... */
	const u8 *label16;	/* volume label (the share name), UTF-16LE */
	u32 label16_len;
	const u8 *fsname16;	/* "NTFS" */
	u32 fsname16_len;
	u8 object_id[16];
};

u32 ksmbd_fsinfo_volume(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f);
void ksmbd_fsinfo_size(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f);
void ksmbd_fsinfo_full_size(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f);
void ksmbd_fsinfo_device(struct ksmbd_wbuf *w);
u32 ksmbd_fsinfo_attribute(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f);
void ksmbd_fsinfo_object_id(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f);
void ksmbd_fsinfo_sector_size(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f);
/* FileFsControlInformation of a volume without quotas: no limits. */
void ksmbd_fsinfo_control(struct ksmbd_wbuf *w);

/* ---- Directory entries (QUERY_DIRECTORY) ---- */

/* Is class one of the six QUERY_DIRECTORY classes we answer? */
bool ksmbd_dirent_class_ok(u8 info_class);
/* Bytes an entry takes before padding: fixed part + name. */
u32 ksmbd_dirent_size(u8 info_class, u32 name16_len);
/*
 * Append one entry with NextEntryOffset 0 (the caller links entries and
 * pads them to 8 bytes). Returns 0, -EINVAL for a class we do not answer,
 * -ENOSPC when it does not fit (nothing written then).
 */
int ksmbd_dirent_put(struct ksmbd_wbuf *w, u8 info_class,
		     const struct ksmbd_fattr *a, const u8 *name16,
		     u32 name16_len);

#endif /* KSMBD_FILEINFO_H */
