/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Typed requests: what each command's handler reads, decoded from an
 * element ksmbd_request_validate() accepted (struct ksmbd_req), through
 * the wire structures of smb2.h.  Variable parts are the gate's slices,
 * never re-derived from the request's own offsets.  The session-level
 * commands (NEGOTIATE, SESSION_SETUP, TREE_CONNECT and the header-only
 * ones) are decoded in validate.h.
 *
 * Every decoder returns 0 or -EINVAL: the element is not that command or
 * is shorter than its fixed part (never the case for an element the gate
 * passed).  The FSCTL and SET_INFO class decoders below take the IOCTL
 * input or SET_INFO buffer, which the gate bounded but did not parse: a
 * short one is refused with the code the handler turns into its status.
 */
#ifndef KSMBD_PROTO_DECODE_H
#define KSMBD_PROTO_DECODE_H

#include "validate.h"

/* ---- Commands ---- */

struct ksmbd_create_req {
	u8 security_flags;
	u8 oplock_level;		/* RequestedOplockLevel */
	u32 impersonation_level;
	u64 create_flags;		/* SmbCreateFlags */
	u32 desired_access;
	u32 file_attributes;
	u32 share_access;
	u32 disposition;
	u32 options;
	struct ksmbd_buf name;		/* UTF-16LE, even length */
	struct ksmbd_buf contexts;	/* a chain the gate walked */
};

struct ksmbd_close_req {
	u16 flags;
	u64 pid, vid;			/* FileId.Persistent, .Volatile */
};

struct ksmbd_flush_req {
	u64 pid, vid;
};

struct ksmbd_read_req {
	u8 padding;
	u8 flags;
	u32 length;			/* bounded by MaxReadSize */
	u64 offset;
	u64 pid, vid;
	u32 minimum_count;
	u32 channel;
	u32 remaining_bytes;
	struct ksmbd_buf channel_info;
};

struct ksmbd_write_req {
	u32 length;			/* data.len: the field equals it */
	u64 offset;
	u64 pid, vid;
	u32 channel;
	u32 remaining_bytes;
	u32 flags;
	struct ksmbd_buf data;
	struct ksmbd_buf channel_info;
};

struct ksmbd_lock_req {
	u16 count;			/* >= 1; elements holds all of them */
	u32 sequence;			/* LockSequenceNumber and Index */
	u64 pid, vid;
	struct ksmbd_buf elements;
};

struct ksmbd_lock_elem {
	u64 offset;
	u64 length;
	u32 flags;
};

struct ksmbd_ioctl_req {
	u32 ctl_code;
	u64 pid, vid;
	u32 max_input_response;
	u32 max_output_response;
	u32 flags;
	struct ksmbd_buf input;
	struct ksmbd_buf output;
};

struct ksmbd_query_dir_req {
	u8 info_class;
	u8 flags;
	u32 file_index;
	u64 pid, vid;
	u32 output_len;			/* OutputBufferLength */
	struct ksmbd_buf pattern;	/* UTF-16LE; empty: "*" */
};

struct ksmbd_notify_req {
	u16 flags;
	u32 output_len;
	u64 pid, vid;
	u32 completion_filter;
};

struct ksmbd_query_info_req {
	u8 info_type;
	u8 info_class;
	u32 output_len;
	u32 additional;			/* AdditionalInformation */
	u32 flags;
	u64 pid, vid;
	struct ksmbd_buf input;
};

struct ksmbd_set_info_req {
	u8 info_type;
	u8 info_class;
	u32 additional;
	u64 pid, vid;
	struct ksmbd_buf buffer;
};

/* OPLOCK_BREAK carries an oplock or a lease acknowledgment (2.2.24). */
struct ksmbd_oplock_break_req {
	bool lease;
	u8 oplock_level;		/* oplock */
	u64 pid, vid;			/* oplock */
	u32 lease_flags;		/* lease */
	u8 lease_key[SMB2_LEASE_KEY_SIZE];
	u32 lease_state;
	u64 lease_duration;
};

int ksmbd_create_decode(const struct ksmbd_req *req, struct ksmbd_create_req *out);
int ksmbd_close_decode(const struct ksmbd_req *req, struct ksmbd_close_req *out);
int ksmbd_flush_decode(const struct ksmbd_req *req, struct ksmbd_flush_req *out);
int ksmbd_read_decode(const struct ksmbd_req *req, struct ksmbd_read_req *out);
int ksmbd_write_decode(const struct ksmbd_req *req, struct ksmbd_write_req *out);
int ksmbd_lock_decode(const struct ksmbd_req *req, struct ksmbd_lock_req *out);
/* Element i < count; false (and zeros) past the slice. */
bool ksmbd_lock_elem(const struct ksmbd_lock_req *lk, u32 i,
		     struct ksmbd_lock_elem *e);
int ksmbd_ioctl_decode(const struct ksmbd_req *req, struct ksmbd_ioctl_req *out);
int ksmbd_query_dir_decode(const struct ksmbd_req *req,
			   struct ksmbd_query_dir_req *out);
int ksmbd_notify_decode(const struct ksmbd_req *req, struct ksmbd_notify_req *out);
int ksmbd_query_info_decode(const struct ksmbd_req *req,
			    struct ksmbd_query_info_req *out);
int ksmbd_set_info_decode(const struct ksmbd_req *req,
			  struct ksmbd_set_info_req *out);
int ksmbd_oplock_break_decode(const struct ksmbd_req *req,
			      struct ksmbd_oplock_break_req *out);

/* ---- Whole frames, before the gate runs (the receive thread) ---- */

/*
 * A plain SMB2 frame of one element: its command in *command. Lets the
 * receive thread pick the requests it runs itself; the gate still checks
 * the whole frame when the request runs.
 */
bool ksmbd_frame_lone_command(const u8 *frame, u32 len, u16 *command);

/*
 * The Length of the READ that opens a plain SMB2 frame (its first
 * element): the size its answer may reach, for buffer sizing only.
 */
bool ksmbd_frame_read_length(const u8 *frame, u32 len, u32 *length);

/*
 * A plain SMB2 frame that is one READ: what it reads, unchecked (the gate
 * checks the whole frame when the request runs). Lets the receive thread
 * see whether the data is in memory already (ksmbd_work_init()).
 */
struct ksmbd_frame_read {
	u64 session_id;
	u32 length;
	u64 offset;
	u64 persistent_id;
	u64 volatile_id;
};

bool ksmbd_frame_lone_read(const u8 *frame, u32 len,
			   struct ksmbd_frame_read *out);

/*
 * An SMB1 NEGOTIATE frame: 1 when its dialects name "SMB 2.???" (the
 * upgrade to SMB2), 0 when not, -EINVAL when malformed. "SMB 2.002"
 * alone would ask for dialect 0x0202, which the server does not offer.
 */
int ksmbd_smb1_negotiate_offers_smb2(const u8 *frame, u32 len);

/* ---- FSCTL inputs (MS-SMB2 2.2.31.1 - 2.2.31.4, MS-FSCC 2.3) ---- */

/* Not the FSCTL's input: -EINVAL, answer STATUS_INVALID_PARAMETER. */

struct ksmbd_fsctl_validate_negotiate {
	u32 capabilities;
	u8 guid[SMB2_CLIENT_GUID_SIZE];
	u16 security_mode;
	u16 dialect_count;
	struct ksmbd_buf dialects;	/* dialect_count le16 */
};

int ksmbd_fsctl_validate_negotiate_decode(const struct ksmbd_buf *in,
				struct ksmbd_fsctl_validate_negotiate *out);
u16 ksmbd_fsctl_vneg_dialect(const struct ksmbd_fsctl_validate_negotiate *v,
			     u16 i);

#define KSMBD_RESUME_KEY_SIZE	24

/* SRV_COPYCHUNK_COPY: the source's resume key, then the chunks. */
struct ksmbd_fsctl_copychunk {
	u8 source_key[KSMBD_RESUME_KEY_SIZE];
	u32 count;
	struct ksmbd_buf chunks;	/* count entries of 24 bytes */
};

struct ksmbd_copychunk_entry {
	u64 source_offset;
	u64 target_offset;
	u32 length;
};

int ksmbd_fsctl_copychunk_decode(const struct ksmbd_buf *in,
				 struct ksmbd_fsctl_copychunk *out);
bool ksmbd_fsctl_copychunk_entry(const struct ksmbd_fsctl_copychunk *cc,
				 u32 i, struct ksmbd_copychunk_entry *e);

/*
 * Our resume keys (FSCTL_SRV_REQUEST_RESUME_KEY) name the handle: its
 * persistent and volatile ids, then zeros. Read back from a key.
 */
void ksmbd_resume_key_ids(const u8 key[KSMBD_RESUME_KEY_SIZE], u64 *pid,
			  u64 *vid);

/* DUPLICATE_EXTENTS_DATA (MS-FSCC 2.3.8) */
struct ksmbd_fsctl_duplicate_extents {
	u64 source_pid, source_vid;
	u64 source_offset;
	u64 target_offset;
	u64 byte_count;
};

int ksmbd_fsctl_duplicate_extents_decode(const struct ksmbd_buf *in,
				struct ksmbd_fsctl_duplicate_extents *out);

/* FILE_ZERO_DATA_INFORMATION (MS-FSCC 2.3.85) */
struct ksmbd_fsctl_zero_data {
	u64 offset;
	u64 beyond_final_zero;
};

int ksmbd_fsctl_zero_data_decode(const struct ksmbd_buf *in,
				 struct ksmbd_fsctl_zero_data *out);

/* FILE_ALLOCATED_RANGE_BUFFER (MS-FSCC 2.3.32) */
struct ksmbd_fsctl_range {
	u64 offset;
	u64 length;
};

int ksmbd_fsctl_allocated_ranges_decode(const struct ksmbd_buf *in,
					struct ksmbd_fsctl_range *out);

/* FSCTL_SET_COMPRESSION (MS-FSCC 2.3.67): CompressionState */
int ksmbd_fsctl_set_compression_decode(const struct ksmbd_buf *in, u16 *format);

/* ---- SET_INFO classes (MS-FSCC 2.4) ---- */

/* A buffer shorter than the class's structure: -EMSGSIZE. */

struct ksmbd_info_basic {
	u64 creation_time;
	u64 last_access_time;
	u64 last_write_time;
	u64 change_time;
	u32 attributes;
};

/* FILE_RENAME_INFORMATION_TYPE_2 and FILE_LINK_INFORMATION_TYPE_2 */
struct ksmbd_info_rename {
	bool replace;
	u64 root_directory;
	struct ksmbd_buf name;		/* FileNameLength bytes, > 0 */
};

int ksmbd_setinfo_basic_decode(const struct ksmbd_buf *b,
			       struct ksmbd_info_basic *out);
/* -EINVAL also for an empty name or one past the buffer. */
int ksmbd_setinfo_rename_decode(const struct ksmbd_buf *b,
				struct ksmbd_info_rename *out);
/* FileDispositionInformation: DeletePending; _EX: its Flags. */
int ksmbd_setinfo_disposition_decode(const struct ksmbd_buf *b, bool *on);
int ksmbd_setinfo_disposition_ex_decode(const struct ksmbd_buf *b, u32 *flags);
/* EndOfFile, AllocationSize, CurrentByteOffset: one 64-bit value. */
int ksmbd_setinfo_eof_decode(const struct ksmbd_buf *b, u64 *size);
int ksmbd_setinfo_allocation_decode(const struct ksmbd_buf *b, u64 *size);
int ksmbd_setinfo_position_decode(const struct ksmbd_buf *b, u64 *pos);
int ksmbd_setinfo_mode_decode(const struct ksmbd_buf *b, u32 *mode);

/* ---- Create context data and QUERY_INFO's EA list ---- */

/* A data part shorter than its structure: -EINVAL. */
int ksmbd_ctx_alloc_size_decode(const struct ksmbd_buf *data, u64 *size);
/* Also -EINVAL when StructureSize is not 20. */
int ksmbd_ctx_app_instance_decode(const struct ksmbd_buf *data,
				  u8 id[SMB2_APP_INSTANCE_ID_SIZE]);

struct ksmbd_lease_ctx {
	u8 version;			/* 1 or 2 */
	u8 key[SMB2_LEASE_KEY_SIZE];
	u32 state;
	u32 flags;
	u64 duration;
	u8 parent_key[SMB2_LEASE_KEY_SIZE];	/* v2 */
	u16 epoch;				/* v2 */
};

/* RqLs: v2 when it is that long and v2_allowed (dialect 3.0 and on). */
int ksmbd_ctx_lease_decode(const struct ksmbd_buf *data, bool v2_allowed,
			   struct ksmbd_lease_ctx *out);

/*
 * The FILE_GET_EA_INFORMATION entry at pos: its name, and in *next the
 * offset of the following one, 0 for the last (also when NextEntryOffset
 * points past the list). -EINVAL when the entry is not all inside.
 */
int ksmbd_get_ea_entry(const struct ksmbd_buf *list, u32 pos,
		       struct ksmbd_buf *name, u32 *next);

#endif /* KSMBD_PROTO_DECODE_H */
