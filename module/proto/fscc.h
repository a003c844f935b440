/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Wire structures carried inside IOCTL inputs and SET_INFO buffers
 * (MS-SMB2 2.2.31.x, MS-FSCC 2.3 and 2.4). Packed, little-endian, sizes
 * asserted; read only through decode.h.
 */
#ifndef KSMBD_PROTO_FSCC_H
#define KSMBD_PROTO_FSCC_H

#include "shim.h"

/* ---- FSCTL inputs ---- */

/* MS-SMB2 2.2.31.4 VALIDATE_NEGOTIATE_INFO */
struct fsctl_validate_negotiate_req {
	__le32 capabilities;
	u8 guid[16];
	__le16 security_mode;
	__le16 dialect_count;
	/* __le16 dialects[dialect_count] */
} __packed;

/* MS-SMB2 2.2.31.1 SRV_COPYCHUNK_COPY and 2.2.31.1.1 SRV_COPYCHUNK */
struct srv_copychunk_copy {
	u8 source_key[24];
	__le32 chunk_count;
	__le32 reserved;
	/* struct srv_copychunk chunks[chunk_count] */
} __packed;

struct srv_copychunk {
	__le64 source_offset;
	__le64 target_offset;
	__le32 length;
	__le32 reserved;
} __packed;

/* MS-FSCC 2.3.8 DUPLICATE_EXTENTS_DATA (64-bit FileHandle) */
struct duplicate_extents_data {
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	__le64 source_file_offset;
	__le64 target_file_offset;
	__le64 byte_count;
} __packed;

/* MS-FSCC 2.3.85 FILE_ZERO_DATA_INFORMATION */
struct file_zero_data_information {
	__le64 file_offset;
	__le64 beyond_final_zero;
} __packed;

/* MS-FSCC 2.3.32 FILE_ALLOCATED_RANGE_BUFFER */
struct file_allocated_range_buffer {
	__le64 file_offset;
	__le64 length;
} __packed;

/* MS-FSCC 2.3.67 FSCTL_SET_COMPRESSION input */
struct compression_state {
	__le16 compression_state;
} __packed;

/* ---- SET_INFO classes (MS-FSCC 2.4) ---- */

/* 2.4.7: Reserved at the end; 36 bytes are enough, as Windows accepts */
struct file_basic_information {
	__le64 creation_time;
	__le64 last_access_time;
	__le64 last_write_time;
	__le64 change_time;
	__le32 file_attributes;
	__le32 reserved;
} __packed;

#define FILE_BASIC_INFORMATION_MIN \
	offsetof(struct file_basic_information, reserved)

/* 2.4.42.2 / 2.4.27.2: _TYPE_2, as SMB2 sends them (MS-SMB2 2.2.39) */
struct file_rename_information {
	u8 replace_if_exists;
	u8 reserved[7];
	__le64 root_directory;
	__le32 file_name_length;
	/* FileName follows */
} __packed;

/* 2.4.11 and 2.4.11.2 */
struct file_disposition_information {
	u8 delete_pending;
} __packed;

struct file_disposition_information_ex {
	__le32 flags;
} __packed;

/* 2.4.13 EndOfFile, 2.4.4 AllocationSize, 2.4.35 CurrentByteOffset */
struct file_u64_information {
	__le64 value;
} __packed;

/* 2.4.26 FILE_MODE_INFORMATION */
struct file_mode_information {
	__le32 mode;
} __packed;

/* ---- QUERY_INFO input (MS-FSCC 2.4.15.1) ---- */

struct file_get_ea_information {
	__le32 next_entry_offset;
	u8 ea_name_length;
	/* EaName follows */
} __packed;

static_assert(sizeof(struct fsctl_validate_negotiate_req) == 24, "vneg");
static_assert(sizeof(struct file_get_ea_information) == 5, "get ea");
static_assert(sizeof(struct srv_copychunk_copy) == 32, "copychunk copy");
static_assert(sizeof(struct srv_copychunk) == 24, "copychunk");
static_assert(sizeof(struct duplicate_extents_data) == 40, "dup extents");
static_assert(sizeof(struct file_zero_data_information) == 16, "zero data");
static_assert(sizeof(struct file_allocated_range_buffer) == 16, "range");
static_assert(sizeof(struct file_basic_information) == 40, "basic info");
static_assert(sizeof(struct file_rename_information) == 20, "rename info");
static_assert(sizeof(struct file_disposition_information_ex) == 4, "disp ex");

#endif /* KSMBD_PROTO_FSCC_H */
