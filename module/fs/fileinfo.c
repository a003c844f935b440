// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MS-FSCC information structures; see fileinfo.h. Every function writes
 * through a struct ksmbd_wbuf, so a structure that does not fit marks the
 * writer as overflowed instead of writing past it; the variable ones
 * truncate their name on purpose and report the size they needed.
 */
#include "fileinfo.h"
#include "dosattr.h"

/* 100 ns intervals between 1601-01-01 and 1970-01-01 */
#define FILETIME_UNIX_EPOCH	116444736000000000ULL
#define FILETIME_MAX		0x7fffffffffffffffULL
/* Seconds that still fit a FILETIME once scaled; beyond, clamp. */
#define UNIX_SEC_MAX		((s64)((FILETIME_MAX - FILETIME_UNIX_EPOCH) / 10000000))

u64 ksmbd_filetime_from_unix(s64 sec, u32 nsec)
{
	s64 t;

	if (sec > UNIX_SEC_MAX)
		return FILETIME_MAX;
	/* Before 1601 cannot be said; clamp instead of wrapping. */
	if (sec < -(s64)(FILETIME_UNIX_EPOCH / 10000000))
		return 0;
	t = sec * 10000000LL + nsec / 100;
	if (t < -(s64)FILETIME_UNIX_EPOCH)
		return 0;
	return (u64)(t + (s64)FILETIME_UNIX_EPOCH);
}

void ksmbd_filetime_to_unix(u64 ft, s64 *sec, u32 *nsec)
{
	s64 t;

	/* FILETIMEs past year 30828 are negative as s64: clamp. */
	if (ft > FILETIME_MAX)
		ft = FILETIME_MAX;
	t = (s64)ft - (s64)FILETIME_UNIX_EPOCH;
	*sec = t / 10000000;
	t %= 10000000;
	if (t < 0) {
		t += 10000000;
		(*sec)--;
	}
	*nsec = (u32)t * 100;
}

bool ksmbd_attrs_writable(bool ro_in_xattr, u32 mode,
			  const struct ksmbd_dosattr *da)
{
	if (!ro_in_xattr)
		return mode & 0222;
	return !(da && (da->valid & KSMBD_DOSINFO_ATTRIB) &&
		 (da->attrib & FILE_ATTRIBUTE_READONLY));
}

u32 ksmbd_dos_attrs(bool directory, bool mode_writable, bool hide,
		    const struct ksmbd_dosattr *da)
{
	u32 attrs = 0;

	if (da && (da->valid & KSMBD_DOSINFO_ATTRIB))
		attrs = da->attrib & KSMBD_ATTR_KEPT &
			~(FILE_ATTRIBUTE_READONLY | FILE_ATTRIBUTE_NORMAL);
	else if (!directory)
		attrs = FILE_ATTRIBUTE_ARCHIVE;
	if (directory)
		attrs = (attrs & ~FILE_ATTRIBUTE_SPARSE_FILE) |
			FILE_ATTRIBUTE_DIRECTORY;
	else if (!mode_writable)
		attrs |= FILE_ATTRIBUTE_READONLY;
	if (hide)
		attrs |= FILE_ATTRIBUTE_HIDDEN;
	return attrs ? attrs : FILE_ATTRIBUTE_NORMAL;
}

/* Directories have no data: sizes are 0 as Windows reports them. */
static u64 eof_of(const struct ksmbd_fattr *a)
{
	return a->directory ? 0 : a->end_of_file;
}

static u64 alloc_of(const struct ksmbd_fattr *a)
{
	return a->directory ? 0 : a->allocation_size;
}

void ksmbd_fileinfo_basic(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a)
{
	ksmbd_put_file_times(w, a);
	ksmbd_wbuf_put_le32(w, a->attributes);
	ksmbd_wbuf_put_le32(w, 0);
}

void ksmbd_fileinfo_standard(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a)
{
	ksmbd_wbuf_put_le64(w, alloc_of(a));
	ksmbd_wbuf_put_le64(w, eof_of(a));
	ksmbd_wbuf_put_le32(w, a->nlink);
	ksmbd_wbuf_put_u8(w, a->delete_pending);
	ksmbd_wbuf_put_u8(w, a->directory);
	ksmbd_wbuf_put_le16(w, 0);
}

void ksmbd_fileinfo_internal(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a)
{
	ksmbd_wbuf_put_le64(w, a->index_number);
}

void ksmbd_fileinfo_network_open(struct ksmbd_wbuf *w,
				 const struct ksmbd_fattr *a)
{
	ksmbd_put_file_times(w, a);
	ksmbd_wbuf_put_le64(w, alloc_of(a));
	ksmbd_wbuf_put_le64(w, eof_of(a));
	ksmbd_wbuf_put_le32(w, a->attributes);
	ksmbd_wbuf_put_le32(w, 0);
}

void ksmbd_fileinfo_attribute_tag(struct ksmbd_wbuf *w,
				  const struct ksmbd_fattr *a)
{
	ksmbd_wbuf_put_le32(w, a->attributes);
	ksmbd_wbuf_put_le32(w, 0);	/* ReparseTag: no reparse points */
}

void ksmbd_fileinfo_compression(struct ksmbd_wbuf *w,
				const struct ksmbd_fattr *a)
{
	static const u8 zero[3];

	ksmbd_wbuf_put_le64(w, eof_of(a));	/* CompressedFileSize */
	ksmbd_wbuf_put_le16(w, 0);		/* COMPRESSION_FORMAT_NONE */
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put_u8(w, 0);
	ksmbd_wbuf_put(w, zero, 3);
}

/* As much of a name as fits; the writer never overflows for it. */
static void put_name_truncated(struct ksmbd_wbuf *w, const u8 *s, u32 len)
{
	u32 room;

	if (w->overflow)
		return;
	room = w->cap - w->len;
	ksmbd_wbuf_put(w, s, min(len, room & ~1u));
}

u32 ksmbd_fileinfo_name(struct ksmbd_wbuf *w, const u8 *name16, u32 len)
{
	ksmbd_wbuf_put_le32(w, len);
	put_name_truncated(w, name16, len);
	return FILE_NAME_INFO_FIXED + len;
}

u32 ksmbd_fileinfo_all(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a,
		       const struct ksmbd_fileinfo_handle *h)
{
	ksmbd_fileinfo_basic(w, a);
	ksmbd_fileinfo_standard(w, a);
	ksmbd_fileinfo_internal(w, a);
	ksmbd_wbuf_put_le32(w, a->ea_size);
	ksmbd_wbuf_put_le32(w, h->access_flags);
	ksmbd_wbuf_put_le64(w, h->position);
	ksmbd_wbuf_put_le32(w, h->mode);
	ksmbd_wbuf_put_le32(w, 0);	/* AlignmentRequirement: byte */
	return FILE_ALL_INFO_FIXED - FILE_NAME_INFO_FIXED +
	       ksmbd_fileinfo_name(w, h->name16, h->name16_len);
}

u32 ksmbd_fileinfo_stream(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a)
{
	/* "::$DATA" */
	static const u8 name[] = {
		':', 0, ':', 0, '$', 0, 'D', 0, 'A', 0, 'T', 0, 'A', 0,
	};

	ksmbd_wbuf_put_le32(w, 0);			/* NextEntryOffset */
	ksmbd_wbuf_put_le32(w, sizeof(name));
	ksmbd_wbuf_put_le64(w, a->end_of_file);
	ksmbd_wbuf_put_le64(w, a->allocation_size);
	put_name_truncated(w, name, sizeof(name));
	return FILE_STREAM_INFO_FIXED + sizeof(name);
}

u32 ksmbd_fsinfo_volume(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f)
{
	ksmbd_wbuf_put_le64(w, f->volume_creation_time);
	ksmbd_wbuf_put_le32(w, f->serial);
	ksmbd_wbuf_put_le32(w, f->label16_len);
	ksmbd_wbuf_put_u8(w, 0);	/* SupportsObjects */
	ksmbd_wbuf_put_u8(w, 0);
	put_name_truncated(w, f->label16, f->label16_len);
	return FS_VOLUME_INFO_FIXED + f->label16_len;
}

void ksmbd_fsinfo_size(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f)
{
	ksmbd_wbuf_put_le64(w, f->total_units);
	ksmbd_wbuf_put_le64(w, f->avail_units);
	ksmbd_wbuf_put_le32(w, f->sectors_per_unit);
	ksmbd_wbuf_put_le32(w, f->bytes_per_sector);
}

void ksmbd_fsinfo_full_size(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f)
{
	ksmbd_wbuf_put_le64(w, f->total_units);
	ksmbd_wbuf_put_le64(w, f->avail_units);
	ksmbd_wbuf_put_le64(w, f->free_units);
	ksmbd_wbuf_put_le32(w, f->sectors_per_unit);
	ksmbd_wbuf_put_le32(w, f->bytes_per_sector);
}

void ksmbd_fsinfo_device(struct ksmbd_wbuf *w)
{
	ksmbd_wbuf_put_le32(w, FILE_DEVICE_DISK);
	ksmbd_wbuf_put_le32(w, 0);	/* Characteristics */
}

u32 ksmbd_fsinfo_attribute(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f)
{
	ksmbd_wbuf_put_le32(w, f->attributes);
	ksmbd_wbuf_put_le32(w, f->name_max);
	ksmbd_wbuf_put_le32(w, f->fsname16_len);
	put_name_truncated(w, f->fsname16, f->fsname16_len);
	return FS_ATTRIBUTE_INFO_FIXED + f->fsname16_len;
}

void ksmbd_fsinfo_object_id(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f)
{
	static const u8 extended[48];

	ksmbd_wbuf_put(w, f->object_id, 16);
	ksmbd_wbuf_put(w, extended, sizeof(extended));
}

void ksmbd_fsinfo_sector_size(struct ksmbd_wbuf *w, const struct ksmbd_fsinfo *f)
{
	ksmbd_wbuf_put_le32(w, f->bytes_per_sector);	/* logical */
	ksmbd_wbuf_put_le32(w, f->bytes_per_sector);	/* atomicity */
	ksmbd_wbuf_put_le32(w, f->bytes_per_sector);	/* performance */
	ksmbd_wbuf_put_le32(w, f->bytes_per_sector);	/* effective atomicity */
	/* SSINFO_FLAGS_ALIGNED_DEVICE | SSINFO_FLAGS_PARTITION_ALIGNED_ON_DEVICE */
	ksmbd_wbuf_put_le32(w, 0x00000003);
	ksmbd_wbuf_put_le32(w, 0);
	ksmbd_wbuf_put_le32(w, 0);
}

void ksmbd_fsinfo_control(struct ksmbd_wbuf *w)
{
	ksmbd_wbuf_put_le64(w, 0);		/* FreeSpaceStartFiltering */
	ksmbd_wbuf_put_le64(w, 0);		/* FreeSpaceThreshold */
	ksmbd_wbuf_put_le64(w, 0);		/* FreeSpaceStopFiltering */
	ksmbd_wbuf_put_le64(w, U64_MAX);	/* DefaultQuotaThreshold: none */
	ksmbd_wbuf_put_le64(w, U64_MAX);	/* DefaultQuotaLimit: none */
	ksmbd_wbuf_put_le32(w, 0);		/* FileSystemControlFlags */
	ksmbd_wbuf_put_le32(w, 0);		/* Padding */
}

/* Fixed part of each directory entry class, FileName excluded. */
static u32 dirent_fixed(u8 info_class)
{
	switch (info_class) {
	case FILE_DIRECTORY_INFORMATION:
		return 64;
	case FILE_FULL_DIRECTORY_INFORMATION:
		return 68;
	case FILE_BOTH_DIRECTORY_INFORMATION:
		return 94;
	case FILE_NAMES_INFORMATION:
		return 12;
	case FILE_ID_BOTH_DIRECTORY_INFORMATION:
		return 104;
	case FILE_ID_FULL_DIRECTORY_INFORMATION:
		return 80;
	default:
		return 0;
	}
}

bool ksmbd_dirent_class_ok(u8 info_class)
{
	return dirent_fixed(info_class) != 0;
}

u32 ksmbd_dirent_size(u8 info_class, u32 name16_len)
{
	return dirent_fixed(info_class) + name16_len;
}

/* Common head of every class but FileNamesInformation. */
static void put_dir_head(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a,
			 u32 name16_len)
{
	ksmbd_put_file_times(w, a);
	ksmbd_wbuf_put_le64(w, eof_of(a));
	ksmbd_wbuf_put_le64(w, alloc_of(a));
	ksmbd_wbuf_put_le32(w, a->attributes);
	ksmbd_wbuf_put_le32(w, name16_len);
}

/* FileBoth*: ShortNameLength, Reserved and the 24-byte ShortName. */
static void put_short_name(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a)
{
	u32 i, n = 0;

	while (n < 12 && a->short_name[n])
		n++;
	ksmbd_wbuf_put_u8(w, (u8)(2 * n));
	ksmbd_wbuf_put_u8(w, 0);
	for (i = 0; i < 12; i++)
		ksmbd_wbuf_put_le16(w, i < n ? (u8)a->short_name[i] : 0);
}

int ksmbd_dirent_put(struct ksmbd_wbuf *w, u8 info_class,
		     const struct ksmbd_fattr *a, const u8 *name16,
		     u32 name16_len)
{
	u32 need = ksmbd_dirent_size(info_class, name16_len);

	if (!dirent_fixed(info_class))
		return -EINVAL;
	if (w->overflow || !ksmbd_range_ok(w->cap, w->len, need))
		return -ENOSPC;
	ksmbd_wbuf_put_le32(w, 0);	/* NextEntryOffset */
	ksmbd_wbuf_put_le32(w, 0);	/* FileIndex: undefined for NTFS */
	if (info_class == FILE_NAMES_INFORMATION) {
		ksmbd_wbuf_put_le32(w, name16_len);
		goto name;
	}
	put_dir_head(w, a, name16_len);
	if (info_class == FILE_DIRECTORY_INFORMATION)
		goto name;
	ksmbd_wbuf_put_le32(w, a->ea_size);
	switch (info_class) {
	case FILE_BOTH_DIRECTORY_INFORMATION:
		put_short_name(w, a);
		break;
	case FILE_ID_BOTH_DIRECTORY_INFORMATION:
		put_short_name(w, a);
		ksmbd_wbuf_put_le16(w, 0);
		ksmbd_wbuf_put_le64(w, a->index_number);
		break;
	case FILE_ID_FULL_DIRECTORY_INFORMATION:
		ksmbd_wbuf_put_le32(w, 0);
		ksmbd_wbuf_put_le64(w, a->index_number);
		break;
	default:
		break;
	}
name:
	ksmbd_wbuf_put(w, name16, name16_len);
	return 0;
}
