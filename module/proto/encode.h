/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Response encoders over struct ksmbd_wbuf: the fixed parts of the SMB2
 * responses whose fields the handlers know in host order, and the file
 * fields (times, sizes, attributes) CREATE and CLOSE share with the
 * MS-FSCC classes of QUERY_INFO and QUERY_DIRECTORY (fileinfo.c). Field
 * layout and order are decided here, so no handler writes at an offset.
 */
#ifndef KSMBD_PROTO_ENCODE_H
#define KSMBD_PROTO_ENCODE_H

#include "shim.h"
#include "buf.h"

/* What one file looks like to a client; times are FILETIMEs. */
struct ksmbd_fattr {
	u64 creation_time;
	u64 last_access_time;
	u64 last_write_time;
	u64 change_time;
	u64 end_of_file;
	u64 allocation_size;
	u64 index_number;	/* inode number: FileId / IndexNumber */
	u32 attributes;		/* FILE_ATTRIBUTE_* */
	u32 nlink;
	u32 ea_size;
	bool delete_pending;
	bool directory;
	/* 8.3 name for FileBoth/FileIdBoth entries (ASCII), "" = none */
	char short_name[13];
};

/* CreationTime, LastAccessTime, LastWriteTime, ChangeTime. */
static inline void ksmbd_put_file_times(struct ksmbd_wbuf *w,
					const struct ksmbd_fattr *a)
{
	ksmbd_wbuf_put_le64(w, a->creation_time);
	ksmbd_wbuf_put_le64(w, a->last_access_time);
	ksmbd_wbuf_put_le64(w, a->last_write_time);
	ksmbd_wbuf_put_le64(w, a->change_time);
}

/* The lease CREATE grants, answered in an RqLs context (2.2.14.2.10). */
struct ksmbd_lease_rsp {
	u8 version;		/* 1 or 2 */
	u8 key[16];
	u8 parent_key[16];
	u32 state;
	u32 flags;
	u16 epoch;
};

enum {
	KSMBD_RSP_DH_NONE,
	KSMBD_RSP_DH_V1,	/* DHnQ */
	KSMBD_RSP_DH_V2,	/* DH2Q */
};

/* Everything the CREATE response (MS-SMB2 2.2.14) says, in host order. */
struct ksmbd_create_rsp {
	u8 oplock_level;
	u32 action;
	/* times, AllocationSize, EndOfFile and FileAttributes */
	const struct ksmbd_fattr *a;
	u64 persistent_id;
	u64 volatile_id;
	/* The create contexts answered, written in this order. */
	bool mxac;
	u32 maximal_access;
	bool qfid;
	u64 disk_file_id;
	u64 volume_id;
	bool lease;
	struct ksmbd_lease_rsp ls;
	u8 durable;		/* KSMBD_RSP_DH_* */
	u32 durable_timeout_ms;
};

void ksmbd_create_rsp_encode(struct ksmbd_wbuf *w,
			     const struct ksmbd_create_rsp *r);
/*
 * CLOSE (2.2.16): with a (SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB answered) its
 * times, sizes and attributes; without, all of them zero.
 */
void ksmbd_close_rsp_encode(struct ksmbd_wbuf *w, const struct ksmbd_fattr *a);

/*
 * Fixed responses the handlers finish after their payload. Each starts
 * the body (the writer the dispatcher gives a handler begins right after
 * the 64-byte header), so a later field is patched in place there.
 */

/* READ (2.2.20): the data follows the fixed part; DataLength set after. */
void ksmbd_read_rsp_encode(struct ksmbd_wbuf *w);
void ksmbd_read_rsp_set_length(struct ksmbd_wbuf *w, u32 data_len);
/* WRITE (2.2.22). */
void ksmbd_write_rsp_encode(struct ksmbd_wbuf *w, u32 count);
/* IOCTL (2.2.32): the output follows the fixed part; OutputCount after. */
void ksmbd_ioctl_rsp_encode(struct ksmbd_wbuf *w, u32 ctl_code, u64 pid,
			    u64 vid);
void ksmbd_ioctl_rsp_set_output(struct ksmbd_wbuf *w, u32 out_len);
/* OPLOCK_BREAK acknowledgement response (2.2.25.1). */
void ksmbd_oplock_break_rsp_encode(struct ksmbd_wbuf *w, u8 level, u64 pid,
				   u64 vid);
/* Lease Break Response (2.2.25.2). */
void ksmbd_lease_ack_rsp_encode(struct ksmbd_wbuf *w, const u8 *key,
				u32 state);
/*
 * QUERY_DIRECTORY (2.2.34), CHANGE_NOTIFY (2.2.36) and QUERY_INFO (2.2.38)
 * share one fixed part (struct smb2_output_buffer_rsp) with the buffer
 * right after it. The handler reserves the part, writes the buffer, then
 * fills the part here: an empty buffer has no offset.
 */
void ksmbd_output_rsp_set(void *fixed, u32 out_len);
/* One FILE_NOTIFY_INFORMATION entry (MS-FSCC 2.7.1), 4-byte aligned. */
static inline u32 ksmbd_notify_info_size(u32 name_len)
{
	return ALIGN(12 + name_len, 4);
}

/*
 * Appends one entry of a CHANGE_NOTIFY answer; the last one says so
 * (NextEntryOffset 0) but is padded like the others, as its size counts.
 */
void ksmbd_notify_info_encode(struct ksmbd_wbuf *w, u32 action,
			      const void *name, u32 name_len, bool last);
/*
 * FSCTL_QUERY_NETWORK_INTERFACE_INFO (2.2.32.5): one entry per address,
 * each 152 bytes (a multiple of 8, so Next is the size itself).
 */
#define KSMBD_NETIF_INFO_SIZE		152
#define KSMBD_NETIF_RSS_CAPABLE		0x00000001
struct ksmbd_netif_info {
	u32 ifindex;
	u32 capability;			/* KSMBD_NETIF_* */
	u64 link_speed;			/* bits per second */
	bool ipv6;
	u8 addr[16];			/* network order; IPv4 in the first 4 */
};

/*
 * Appends one entry; the last one says so (Next 0). Port, FlowInfo and
 * ScopeId are 0 (2.2.32.5.1: the client ignores them).
 */
void ksmbd_netif_info_encode(struct ksmbd_wbuf *w,
			     const struct ksmbd_netif_info *ni, bool last);
/*
 * SESSION_SETUP (2.2.6): the security blob right after the fixed part,
 * reserved before the blob is built.
 */
void ksmbd_sess_setup_rsp_set(void *fixed, u16 session_flags, u16 blob_len);
/* NEGOTIATE (2.2.4): SecurityBufferLength, then the 3.1.1 contexts. */
void ksmbd_negotiate_rsp_set_security_len(struct ksmbd_wbuf *w, u16 len);
void ksmbd_negotiate_rsp_set_contexts(struct ksmbd_wbuf *w, u32 offset,
				      u16 count);

#endif
