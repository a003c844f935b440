/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SMB2/3 wire format (MS-SMB2 section 2.2).  One header for the whole
 * project: the module, the adversarial tests and the BPF tools include it.
 * All multi-byte fields are little-endian on the wire; structures are packed
 * and their sizes are asserted against the specification.  Variable parts
 * are not declared as flexible arrays: callers reach them only through the
 * validated offsets produced by validate.c.
 */
#ifndef KSMBD_PROTO_SMB2_H
#define KSMBD_PROTO_SMB2_H

#include "shim.h"

/* ---- Transport framing (MS-SMB2 2.1: Direct TCP, RFC 1002 style) ---- */

enum {
	KSMBD_RFC1002_HDR_SIZE		= 4,
	KSMBD_RFC1002_SESSION_MESSAGE	= 0x00,
	KSMBD_RFC1002_MAX_LEN		= 0x00ffffff,	/* 24-bit length */
};

struct smb2_rfc1002_hdr {
	u8 type;		/* 0x00: session message */
	u8 length[3];		/* big-endian, 24 bits */
} __packed;

/* ---- Protocol identifiers (first four bytes of every message) ---- */

enum {
	SMB1_PROTO_BYTE		= 0xff,	/* 0xFF 'S' 'M' 'B' */
	SMB2_PROTO_BYTE		= 0xfe,	/* 0xFE 'S' 'M' 'B' */
	SMB2_TRANSFORM_BYTE	= 0xfd,	/* 0xFD 'S' 'M' 'B' */
	SMB2_COMPRESSION_BYTE	= 0xfc,	/* 0xFC 'S' 'M' 'B' */
};

#define SMB2_PROTO_NUMBER		cpu_to_le32(0x424d53fe)
#define SMB2_TRANSFORM_PROTO_NUMBER	cpu_to_le32(0x424d53fd)
#define SMB2_COMPRESSION_PROTO_NUMBER	cpu_to_le32(0x424d53fc)
#define SMB1_PROTO_NUMBER		cpu_to_le32(0x424d53ff)

enum {
	SMB1_HEADER_SIZE		= 32,
	SMB1_COM_NEGOTIATE		= 0x72,
	SMB2_HEADER_SIZE		= 64,
	SMB2_HEADER_STRUCTURE_SIZE	= 64,
	SMB2_TRANSFORM_HEADER_SIZE	= 52,
	SMB2_COMPRESSION_HEADER_SIZE	= 16,
	SMB2_COMPRESSION_PAYLOAD_HEADER_SIZE = 8,
	SMB2_SIGNATURE_SIZE		= 16,
	SMB2_CLIENT_GUID_SIZE		= 16,
	SMB2_LEASE_KEY_SIZE		= 16,
	SMB2_PREAUTH_HASH_SIZE		= 64,	/* SHA-512 */
	SMB2_PREAUTH_SALT_SIZE		= 32,
	SMB2_CREDIT_PAYLOAD_UNIT	= 65536,
};

/*
 * An SMB1 NEGOTIATE (MS-CIFS 2.2.4.52.1) after its 32-byte header, only
 * read for the SMB2 upgrade (MS-SMB2 3.3.5.3.1): WordCount 0, then the
 * dialect strings, each 0x02 and a NUL-terminated name.
 */
struct smb1_negotiate_req {
	u8 word_count;
	__le16 byte_count;
	/* dialects */
} __packed;

#define SMB1_DIALECT_MARKER	0x02

/* ---- Commands (2.2.1) ---- */

enum smb2_command {
	SMB2_NEGOTIATE		= 0x0000,
	SMB2_SESSION_SETUP	= 0x0001,
	SMB2_LOGOFF		= 0x0002,
	SMB2_TREE_CONNECT	= 0x0003,
	SMB2_TREE_DISCONNECT	= 0x0004,
	SMB2_CREATE		= 0x0005,
	SMB2_CLOSE		= 0x0006,
	SMB2_FLUSH		= 0x0007,
	SMB2_READ		= 0x0008,
	SMB2_WRITE		= 0x0009,
	SMB2_LOCK		= 0x000a,
	SMB2_IOCTL		= 0x000b,
	SMB2_CANCEL		= 0x000c,
	SMB2_ECHO		= 0x000d,
	SMB2_QUERY_DIRECTORY	= 0x000e,
	SMB2_CHANGE_NOTIFY	= 0x000f,
	SMB2_QUERY_INFO		= 0x0010,
	SMB2_SET_INFO		= 0x0011,
	SMB2_OPLOCK_BREAK	= 0x0012,
	SMB2_COMMAND_COUNT	= 0x0013,
};

/* ---- Header flags (2.2.1.1) ---- */

enum {
	SMB2_FLAGS_SERVER_TO_REDIR	= 0x00000001,
	SMB2_FLAGS_ASYNC_COMMAND	= 0x00000002,
	SMB2_FLAGS_RELATED_OPERATIONS	= 0x00000004,
	SMB2_FLAGS_SIGNED		= 0x00000008,
	SMB2_FLAGS_PRIORITY_MASK	= 0x00000070,
	SMB2_FLAGS_DFS_OPERATIONS	= 0x10000000,
	SMB2_FLAGS_REPLAY_OPERATION	= 0x20000000,
};

/* ---- Dialects (2.2.3) ---- */

enum smb2_dialect {
	SMB20_DIALECT		= 0x0202,
	SMB21_DIALECT		= 0x0210,
	SMB2X_DIALECT_WILDCARD	= 0x02ff,
	SMB30_DIALECT		= 0x0300,
	SMB302_DIALECT		= 0x0302,
	SMB311_DIALECT		= 0x0311,
};

/* ---- Security mode and capabilities (2.2.3, 2.2.4) ---- */

enum {
	SMB2_NEGOTIATE_SIGNING_ENABLED	= 0x0001,
	SMB2_NEGOTIATE_SIGNING_REQUIRED	= 0x0002,
};

enum {
	SMB2_GLOBAL_CAP_DFS			= 0x00000001,
	SMB2_GLOBAL_CAP_LEASING			= 0x00000002,
	SMB2_GLOBAL_CAP_LARGE_MTU		= 0x00000004,
	SMB2_GLOBAL_CAP_MULTI_CHANNEL		= 0x00000008,
	SMB2_GLOBAL_CAP_PERSISTENT_HANDLES	= 0x00000010,
	SMB2_GLOBAL_CAP_DIRECTORY_LEASING	= 0x00000020,
	SMB2_GLOBAL_CAP_ENCRYPTION		= 0x00000040,
	SMB2_GLOBAL_CAP_NOTIFICATIONS		= 0x00000080,
};

/* ---- Negotiate context types and algorithm ids (2.2.3.1) ---- */

enum smb2_negctx_type {
	SMB2_PREAUTH_INTEGRITY_CAPABILITIES	= 0x0001,
	SMB2_ENCRYPTION_CAPABILITIES		= 0x0002,
	SMB2_COMPRESSION_CAPABILITIES		= 0x0003,
	SMB2_NETNAME_NEGOTIATE_CONTEXT_ID	= 0x0005,
	SMB2_TRANSPORT_CAPABILITIES		= 0x0006,
	SMB2_RDMA_TRANSFORM_CAPABILITIES	= 0x0007,
	SMB2_SIGNING_CAPABILITIES		= 0x0008,
	SMB2_POSIX_EXTENSIONS_AVAILABLE		= 0x0100,
};

enum smb2_hash_alg {
	SMB2_PREAUTH_INTEGRITY_SHA512	= 0x0001,
};

enum smb2_cipher {
	SMB2_ENCRYPTION_NONE		= 0x0000,
	SMB2_ENCRYPTION_AES128_CCM	= 0x0001,
	SMB2_ENCRYPTION_AES128_GCM	= 0x0002,
	SMB2_ENCRYPTION_AES256_CCM	= 0x0003,
	SMB2_ENCRYPTION_AES256_GCM	= 0x0004,
};

enum smb2_signing_alg {
	SMB2_SIGNING_HMAC_SHA256	= 0x0000,
	SMB2_SIGNING_AES_CMAC		= 0x0001,
	SMB2_SIGNING_AES_GMAC		= 0x0002,
};

enum smb2_compression_alg {
	SMB2_COMPRESSION_NONE		= 0x0000,
	SMB2_COMPRESSION_LZNT1		= 0x0001,
	SMB2_COMPRESSION_LZ77		= 0x0002,
	SMB2_COMPRESSION_LZ77_HUFFMAN	= 0x0003,
	SMB2_COMPRESSION_PATTERN_V1	= 0x0004,
	SMB2_COMPRESSION_LZ4		= 0x0005,
};

enum {
	SMB2_COMPRESSION_CAPABILITIES_FLAG_NONE		= 0x00000000,
	SMB2_COMPRESSION_CAPABILITIES_FLAG_CHAINED	= 0x00000001,
	SMB2_COMPRESSION_FLAG_NONE			= 0x0000,
	SMB2_COMPRESSION_FLAG_CHAINED			= 0x0001,
	SMB2_TRANSPORT_ACCEPT_TRANSPORT_LEVEL_SECURITY	= 0x00000001,
	SMB2_TRANSFORM_FLAG_ENCRYPTED			= 0x0001,
};

/* ---- Session, tree and share flags ---- */

enum {
	SMB2_SESSION_FLAG_BINDING	= 0x01,	/* request Flags */
	SMB2_SESSION_FLAG_IS_GUEST	= 0x0001,	/* response SessionFlags */
	SMB2_SESSION_FLAG_IS_NULL	= 0x0002,
	SMB2_SESSION_FLAG_ENCRYPT_DATA	= 0x0004,
};

enum {
	SMB2_TREE_CONNECT_FLAG_CLUSTER_RECONNECT	= 0x0001,
	SMB2_TREE_CONNECT_FLAG_REDIRECT_TO_OWNER	= 0x0002,
	SMB2_TREE_CONNECT_FLAG_EXTENSION_PRESENT	= 0x0004,
};

enum {
	SMB2_SHARE_TYPE_DISK	= 0x01,
	SMB2_SHARE_TYPE_PIPE	= 0x02,
	SMB2_SHARE_TYPE_PRINT	= 0x03,
};

enum {
	SMB2_CLOSE_FLAG_POSTQUERY_ATTRIB	= 0x0001,
	SMB2_READFLAG_READ_UNBUFFERED		= 0x01,
	SMB2_READFLAG_REQUEST_COMPRESSED	= 0x02,
	SMB2_WRITEFLAG_WRITE_THROUGH		= 0x00000001,
	SMB2_WRITEFLAG_WRITE_UNBUFFERED		= 0x00000002,
	SMB2_CHANNEL_NONE			= 0x00000000,
	SMB2_CHANNEL_RDMA_V1			= 0x00000001,
	SMB2_CHANNEL_RDMA_V1_INVALIDATE		= 0x00000002,
	SMB2_CHANNEL_RDMA_TRANSFORM		= 0x00000003,
	SMB2_IOCTL_FLAG_IS_FSCTL		= 0x00000001,
	SMB2_WATCH_TREE				= 0x0001,
	SMB2_LOCKFLAG_SHARED_LOCK		= 0x00000001,
	SMB2_LOCKFLAG_EXCLUSIVE_LOCK		= 0x00000002,
	SMB2_LOCKFLAG_UNLOCK			= 0x00000004,
	SMB2_LOCKFLAG_FAIL_IMMEDIATELY		= 0x00000010,
};

enum {
	SMB2_OPLOCK_LEVEL_NONE		= 0x00,
	SMB2_OPLOCK_LEVEL_II		= 0x01,
	SMB2_OPLOCK_LEVEL_EXCLUSIVE	= 0x08,
	SMB2_OPLOCK_LEVEL_BATCH		= 0x09,
	SMB2_OPLOCK_LEVEL_LEASE		= 0xff,
};

/* LeaseFlags (2.2.13.2.8, 2.2.14.2.10) */
enum {
	SMB2_LEASE_FLAG_BREAK_IN_PROGRESS	= 0x02,
};

enum {
	SMB2_0_INFO_FILE	= 0x01,
	SMB2_0_INFO_FILESYSTEM	= 0x02,
	SMB2_0_INFO_SECURITY	= 0x03,
	SMB2_0_INFO_QUOTA	= 0x04,
};

enum {
	SMB2_RESTART_SCANS		= 0x01,
	SMB2_RETURN_SINGLE_ENTRY	= 0x02,
	SMB2_INDEX_SPECIFIED		= 0x04,
	SMB2_REOPEN			= 0x10,
};

/* ---- Header (2.2.1.1 sync, 2.2.1.2 async) ---- */

struct smb2_hdr {
	__le32 protocol_id;	/* 0xFE 'SMB' */
	__le16 structure_size;	/* 64 */
	__le16 credit_charge;
	__le32 status;		/* ChannelSequence/Reserved in requests */
	__le16 command;
	__le16 credit_req_rsp;
	__le32 flags;
	__le32 next_command;
	__le64 message_id;
	union {
		struct {
			__le32 process_id;
			__le32 tree_id;
		} __packed sync;
		__le64 async_id;
	} __packed id;
	__le64 session_id;
	u8 signature[SMB2_SIGNATURE_SIZE];
} __packed;

/* 2.2.41 */
struct smb2_transform_hdr {
	__le32 protocol_id;	/* 0xFD 'SMB' */
	u8 signature[16];
	u8 nonce[16];
	__le32 original_message_size;
	__le16 reserved;
	__le16 flags;		/* EncryptionAlgorithm in 3.0/3.0.2 */
	__le64 session_id;
} __packed;

/* 2.2.42.1 (unchained) */
struct smb2_compression_hdr {
	__le32 protocol_id;	/* 0xFC 'SMB' */
	__le32 original_compressed_segment_size;
	__le16 compression_algorithm;
	__le16 flags;
	__le32 offset;		/* Length when chained */
} __packed;

/* 2.2.42.2.1 */
struct smb2_compression_payload_hdr {
	__le16 compression_algorithm;
	__le16 flags;
	__le32 length;
} __packed;

/* ---- Error response (2.2.2) ---- */

struct smb2_err_rsp {
	__le16 structure_size;	/* 9 */
	u8 error_context_count;
	u8 reserved;
	__le32 byte_count;
} __packed;

/* ---- NEGOTIATE (2.2.3, 2.2.4) ---- */

struct smb2_negotiate_req {
	__le16 structure_size;	/* 36 */
	__le16 dialect_count;
	__le16 security_mode;
	__le16 reserved;
	__le32 capabilities;
	u8 client_guid[SMB2_CLIENT_GUID_SIZE];
	__le32 negotiate_context_offset;	/* ClientStartTime before 3.1.1 */
	__le16 negotiate_context_count;
	__le16 reserved2;
	/* __le16 dialects[dialect_count] follows */
} __packed;

struct smb2_negotiate_rsp {
	__le16 structure_size;	/* 65 */
	__le16 security_mode;
	__le16 dialect_revision;
	__le16 negotiate_context_count;
	u8 server_guid[16];
	__le32 capabilities;
	__le32 max_transact_size;
	__le32 max_read_size;
	__le32 max_write_size;
	__le64 system_time;
	__le64 server_start_time;
	__le16 security_buffer_offset;
	__le16 security_buffer_length;
	__le32 negotiate_context_offset;
} __packed;

struct smb2_neg_context {
	__le16 context_type;
	__le16 data_length;
	__le32 reserved;
	/* data_length bytes follow */
} __packed;

struct smb2_preauth_neg_context {
	__le16 hash_algorithm_count;
	__le16 salt_length;
	/* __le16 hash_algorithms[count]; u8 salt[salt_length] */
} __packed;

struct smb2_encryption_neg_context {
	__le16 cipher_count;
	/* __le16 ciphers[cipher_count] */
} __packed;

struct smb2_compression_neg_context {
	__le16 compression_algorithm_count;
	__le16 padding;
	__le32 flags;
	/* __le16 compression_algorithms[count] */
} __packed;

struct smb2_transport_neg_context {
	__le32 flags;
} __packed;

struct smb2_rdma_transform_neg_context {
	__le16 transform_count;
	__le16 reserved1;
	__le32 reserved2;
	/* __le16 rdma_transform_ids[count] */
} __packed;

struct smb2_signing_neg_context {
	__le16 signing_algorithm_count;
	/* __le16 signing_algorithms[count] */
} __packed;

/* Samba's SMB3 POSIX extensions: context 0x100 carrying this GUID. */
struct smb2_posix_neg_context {
	u8 name[16];
} __packed;

#define SMB2_POSIX_NEGCTX_GUID { \
	0x93, 0xad, 0x25, 0x50, 0x9c, 0xb4, 0x11, 0xe7, \
	0xb4, 0x23, 0x83, 0xde, 0x96, 0x8b, 0xcd, 0x7c }

/* ---- SESSION_SETUP (2.2.5, 2.2.6) ---- */

struct smb2_sess_setup_req {
	__le16 structure_size;	/* 25 */
	u8 flags;
	u8 security_mode;
	__le32 capabilities;
	__le32 channel;
	__le16 security_buffer_offset;
	__le16 security_buffer_length;
	__le64 previous_session_id;
} __packed;

struct smb2_sess_setup_rsp {
	__le16 structure_size;	/* 9 */
	__le16 session_flags;
	__le16 security_buffer_offset;
	__le16 security_buffer_length;
} __packed;

/* ---- LOGOFF, TREE_DISCONNECT, ECHO, CANCEL, simple responses ---- */

struct smb2_simple_req {
	__le16 structure_size;	/* 4 */
	__le16 reserved;
} __packed;

#define smb2_logoff_req		smb2_simple_req
#define smb2_logoff_rsp		smb2_simple_req
#define smb2_tree_disconnect_req smb2_simple_req
#define smb2_tree_disconnect_rsp smb2_simple_req
#define smb2_echo_req		smb2_simple_req
#define smb2_echo_rsp		smb2_simple_req
#define smb2_cancel_req		smb2_simple_req
#define smb2_flush_rsp		smb2_simple_req
#define smb2_lock_rsp		smb2_simple_req

/* ---- TREE_CONNECT (2.2.9, 2.2.10) ---- */

struct smb2_tree_connect_req {
	__le16 structure_size;	/* 9 */
	__le16 flags;		/* Reserved before 3.1.1 */
	__le16 path_offset;
	__le16 path_length;
} __packed;

/* 2.2.9.1: present at PathOffset when EXTENSION_PRESENT is set */
struct smb2_tree_connect_req_ext {
	__le32 tree_connect_context_offset;
	__le16 tree_connect_context_count;
	u8 reserved[10];
	/* PathName follows */
} __packed;

struct smb2_tree_connect_rsp {
	__le16 structure_size;	/* 16 */
	u8 share_type;
	u8 reserved;
	__le32 share_flags;
	__le32 capabilities;
	__le32 maximal_access;
} __packed;

/* ---- CREATE (2.2.13, 2.2.14) ---- */

struct smb2_create_req {
	__le16 structure_size;	/* 57 */
	u8 security_flags;
	u8 requested_oplock_level;
	__le32 impersonation_level;
	__le64 smb_create_flags;
	__le64 reserved;
	__le32 desired_access;
	__le32 file_attributes;
	__le32 share_access;
	__le32 create_disposition;
	__le32 create_options;
	__le16 name_offset;
	__le16 name_length;
	__le32 create_contexts_offset;
	__le32 create_contexts_length;
} __packed;

struct smb2_create_rsp {
	__le16 structure_size;	/* 89 */
	u8 oplock_level;
	u8 flags;
	__le32 create_action;
	__le64 creation_time;
	__le64 last_access_time;
	__le64 last_write_time;
	__le64 change_time;
	__le64 allocation_size;
	__le64 end_of_file;
	__le32 file_attributes;
	__le32 reserved2;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	__le32 create_contexts_offset;
	__le32 create_contexts_length;
} __packed;

/* 2.2.13.2 */
struct smb2_create_context {
	__le32 next;
	__le16 name_offset;
	__le16 name_length;
	__le16 reserved;
	__le16 data_offset;
	__le32 data_length;
} __packed;

/* Data of the create contexts CREATE acts on (2.2.13.2.x). */
enum {
	SMB2_APP_INSTANCE_ID_SIZE	= 16,
};

/* .6 AlSi */
struct smb2_create_alloc_size {
	__le64 allocation_size;
} __packed;

/* .8 RqLs, lease v1 */
struct smb2_create_lease {
	u8 lease_key[SMB2_LEASE_KEY_SIZE];
	__le32 lease_state;
	__le32 lease_flags;
	__le64 lease_duration;
} __packed;

/* .10 RqLs, lease v2: v1 followed by these */
struct smb2_create_lease_v2 {
	u8 lease_key[SMB2_LEASE_KEY_SIZE];
	__le32 lease_state;
	__le32 lease_flags;
	__le64 lease_duration;
	u8 parent_lease_key[SMB2_LEASE_KEY_SIZE];
	__le16 epoch;
	__le16 reserved;
} __packed;

/* .13 SMB2_CREATE_APP_INSTANCE_ID */
struct smb2_create_app_instance_id {
	__le16 structure_size;	/* 20 */
	__le16 reserved;
	u8 app_instance_id[SMB2_APP_INSTANCE_ID_SIZE];
} __packed;

/* ---- CLOSE, FLUSH (2.2.15 - 2.2.18) ---- */

struct smb2_close_req {
	__le16 structure_size;	/* 24 */
	__le16 flags;
	__le32 reserved;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
} __packed;

struct smb2_close_rsp {
	__le16 structure_size;	/* 60 */
	__le16 flags;
	__le32 reserved;
	__le64 creation_time;
	__le64 last_access_time;
	__le64 last_write_time;
	__le64 change_time;
	__le64 allocation_size;
	__le64 end_of_file;
	__le32 file_attributes;
} __packed;

struct smb2_flush_req {
	__le16 structure_size;	/* 24 */
	__le16 reserved1;
	__le32 reserved2;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
} __packed;

/* ---- READ, WRITE (2.2.19 - 2.2.22) ---- */

struct smb2_read_req {
	__le16 structure_size;	/* 49 */
	u8 padding;
	u8 flags;
	__le32 length;
	__le64 offset;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	__le32 minimum_count;
	__le32 channel;
	__le32 remaining_bytes;
	__le16 read_channel_info_offset;
	__le16 read_channel_info_length;
} __packed;

struct smb2_read_rsp {
	__le16 structure_size;	/* 17 */
	u8 data_offset;
	u8 reserved;
	__le32 data_length;
	__le32 data_remaining;
	__le32 flags;
} __packed;

struct smb2_write_req {
	__le16 structure_size;	/* 49 */
	__le16 data_offset;
	__le32 length;
	__le64 offset;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	__le32 channel;
	__le32 remaining_bytes;
	__le16 write_channel_info_offset;
	__le16 write_channel_info_length;
	__le32 flags;
} __packed;

struct smb2_write_rsp {
	__le16 structure_size;	/* 17 */
	__le16 reserved;
	__le32 count;
	__le32 remaining;
	__le16 write_channel_info_offset;
	__le16 write_channel_info_length;
} __packed;

/* ---- OPLOCK_BREAK (2.2.23 - 2.2.25) ---- */

struct smb2_oplock_break {
	__le16 structure_size;	/* 24 */
	u8 oplock_level;
	u8 reserved;
	__le32 reserved2;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
} __packed;

struct smb2_lease_break_notify {
	__le16 structure_size;	/* 44 */
	__le16 new_epoch;
	__le32 flags;
	u8 lease_key[SMB2_LEASE_KEY_SIZE];
	__le32 current_lease_state;
	__le32 new_lease_state;
	__le32 break_reason;
	__le32 access_mask_hint;
	__le32 share_mask_hint;
} __packed;

struct smb2_lease_ack {
	__le16 structure_size;	/* 36 */
	__le16 reserved;
	__le32 flags;
	u8 lease_key[SMB2_LEASE_KEY_SIZE];
	__le32 lease_state;
	__le64 lease_duration;
} __packed;

/* ---- LOCK (2.2.26, 2.2.27) ---- */

struct smb2_lock_element {
	__le64 offset;
	__le64 length;
	__le32 flags;
	__le32 reserved;
} __packed;

struct smb2_lock_req {
	__le16 structure_size;	/* 48: includes one lock element */
	__le16 lock_count;
	__le32 lock_sequence;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	/* struct smb2_lock_element locks[lock_count] */
} __packed;

/* ---- IOCTL (2.2.31, 2.2.32) ---- */

struct smb2_ioctl_req {
	__le16 structure_size;	/* 57 */
	__le16 reserved;
	__le32 ctl_code;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	__le32 input_offset;
	__le32 input_count;
	__le32 max_input_response;
	__le32 output_offset;
	__le32 output_count;
	__le32 max_output_response;
	__le32 flags;
	__le32 reserved2;
} __packed;

struct smb2_ioctl_rsp {
	__le16 structure_size;	/* 49 */
	__le16 reserved;
	__le32 ctl_code;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	__le32 input_offset;
	__le32 input_count;
	__le32 output_offset;
	__le32 output_count;
	__le32 flags;
	__le32 reserved2;
} __packed;

/* ---- QUERY_DIRECTORY, CHANGE_NOTIFY, QUERY_INFO, SET_INFO ---- */

struct smb2_query_directory_req {
	__le16 structure_size;	/* 33 */
	u8 file_information_class;
	u8 flags;
	__le32 file_index;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	__le16 file_name_offset;
	__le16 file_name_length;
	__le32 output_buffer_length;
} __packed;

/* Shared by QUERY_DIRECTORY, CHANGE_NOTIFY and QUERY_INFO responses. */
struct smb2_output_buffer_rsp {
	__le16 structure_size;	/* 9 */
	__le16 output_buffer_offset;
	__le32 output_buffer_length;
} __packed;

#define smb2_query_directory_rsp	smb2_output_buffer_rsp
#define smb2_change_notify_rsp		smb2_output_buffer_rsp
#define smb2_query_info_rsp		smb2_output_buffer_rsp

struct smb2_change_notify_req {
	__le16 structure_size;	/* 32 */
	__le16 flags;
	__le32 output_buffer_length;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
	__le32 completion_filter;
	__le32 reserved;
} __packed;

struct smb2_query_info_req {
	__le16 structure_size;	/* 41 */
	u8 info_type;
	u8 file_info_class;
	__le32 output_buffer_length;
	__le16 input_buffer_offset;
	__le16 reserved;
	__le32 input_buffer_length;
	__le32 additional_information;
	__le32 flags;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
} __packed;

struct smb2_set_info_req {
	__le16 structure_size;	/* 33 */
	u8 info_type;
	u8 file_info_class;
	__le32 buffer_length;
	__le16 buffer_offset;
	__le16 reserved;
	__le32 additional_information;
	__le64 persistent_file_id;
	__le64 volatile_file_id;
} __packed;

struct smb2_set_info_rsp {
	__le16 structure_size;	/* 2 */
} __packed;

/* ---- StructureSize values the specification fixes ---- */

enum {
	SMB2_NEGOTIATE_REQ_SIZE		= 36,
	SMB2_NEGOTIATE_RSP_SIZE		= 65,
	SMB2_SESSION_SETUP_REQ_SIZE	= 25,
	SMB2_SESSION_SETUP_RSP_SIZE	= 9,
	SMB2_SIMPLE_SIZE		= 4,	/* LOGOFF, TREE_DISCONNECT, ECHO, CANCEL, FLUSH/LOCK rsp */
	SMB2_TREE_CONNECT_REQ_SIZE	= 9,
	SMB2_TREE_CONNECT_RSP_SIZE	= 16,
	SMB2_CREATE_REQ_SIZE		= 57,
	SMB2_CREATE_RSP_SIZE		= 89,
	SMB2_CLOSE_REQ_SIZE		= 24,
	SMB2_CLOSE_RSP_SIZE		= 60,
	SMB2_FLUSH_REQ_SIZE		= 24,
	SMB2_READ_REQ_SIZE		= 49,
	SMB2_READ_RSP_SIZE		= 17,
	SMB2_WRITE_REQ_SIZE		= 49,
	SMB2_WRITE_RSP_SIZE		= 17,
	SMB2_OPLOCK_BREAK_SIZE		= 24,
	SMB2_LEASE_BREAK_NOTIFY_SIZE	= 44,
	SMB2_LEASE_ACK_SIZE		= 36,
	SMB2_LOCK_REQ_SIZE		= 48,
	SMB2_LOCK_ELEMENT_SIZE		= 24,
	SMB2_IOCTL_REQ_SIZE		= 57,
	SMB2_IOCTL_RSP_SIZE		= 49,
	SMB2_QUERY_DIRECTORY_REQ_SIZE	= 33,
	SMB2_OUTPUT_BUFFER_RSP_SIZE	= 9,
	SMB2_CHANGE_NOTIFY_REQ_SIZE	= 32,
	SMB2_QUERY_INFO_REQ_SIZE	= 41,
	SMB2_SET_INFO_REQ_SIZE		= 33,
	SMB2_SET_INFO_RSP_SIZE		= 2,
	SMB2_ERROR_RSP_SIZE		= 9,
};

/* Sizes of the fixed parts against MS-SMB2 (odd StructureSize counts one buffer byte). */
static_assert(sizeof(struct smb2_rfc1002_hdr) == 4, "rfc1002 header");
static_assert(sizeof(struct smb2_hdr) == 64, "SMB2 header");
static_assert(sizeof(struct smb1_negotiate_req) == 3, "SMB1 negotiate");
static_assert(sizeof(struct smb2_transform_hdr) == 52, "transform header");
static_assert(sizeof(struct smb2_compression_hdr) == 16, "compression header");
static_assert(sizeof(struct smb2_compression_payload_hdr) == 8, "payload header");
static_assert(sizeof(struct smb2_err_rsp) == 8, "error response");
static_assert(sizeof(struct smb2_negotiate_req) == 36, "negotiate req");
static_assert(sizeof(struct smb2_negotiate_rsp) == 64, "negotiate rsp");
static_assert(sizeof(struct smb2_neg_context) == 8, "negotiate context");
static_assert(sizeof(struct smb2_preauth_neg_context) == 4, "preauth ctx");
static_assert(sizeof(struct smb2_compression_neg_context) == 8, "compression ctx");
static_assert(sizeof(struct smb2_rdma_transform_neg_context) == 8, "rdma ctx");
static_assert(sizeof(struct smb2_sess_setup_req) == 24, "session setup req");
static_assert(sizeof(struct smb2_sess_setup_rsp) == 8, "session setup rsp");
static_assert(sizeof(struct smb2_simple_req) == 4, "simple req");
static_assert(sizeof(struct smb2_tree_connect_req) == 8, "tree connect req");
static_assert(sizeof(struct smb2_tree_connect_req_ext) == 16, "tree connect ext");
static_assert(sizeof(struct smb2_tree_connect_rsp) == 16, "tree connect rsp");
static_assert(sizeof(struct smb2_create_req) == 56, "create req");
static_assert(sizeof(struct smb2_create_rsp) == 88, "create rsp");
static_assert(sizeof(struct smb2_create_context) == 16, "create context");
static_assert(sizeof(struct smb2_create_alloc_size) == 8, "AlSi");
static_assert(sizeof(struct smb2_create_lease) == 32, "lease v1");
static_assert(sizeof(struct smb2_create_lease_v2) == 52, "lease v2");
static_assert(sizeof(struct smb2_create_app_instance_id) == 20, "app instance");
static_assert(sizeof(struct smb2_close_req) == 24, "close req");
static_assert(sizeof(struct smb2_close_rsp) == 60, "close rsp");
static_assert(sizeof(struct smb2_flush_req) == 24, "flush req");
static_assert(sizeof(struct smb2_read_req) == 48, "read req");
static_assert(sizeof(struct smb2_read_rsp) == 16, "read rsp");
static_assert(sizeof(struct smb2_write_req) == 48, "write req");
static_assert(sizeof(struct smb2_write_rsp) == 16, "write rsp");
static_assert(sizeof(struct smb2_oplock_break) == 24, "oplock break");
static_assert(sizeof(struct smb2_lease_break_notify) == 44, "lease break notify");
static_assert(sizeof(struct smb2_lease_ack) == 36, "lease ack");
static_assert(sizeof(struct smb2_lock_element) == 24, "lock element");
static_assert(sizeof(struct smb2_lock_req) == 24, "lock req");
static_assert(sizeof(struct smb2_ioctl_req) == 56, "ioctl req");
static_assert(sizeof(struct smb2_ioctl_rsp) == 48, "ioctl rsp");
static_assert(sizeof(struct smb2_query_directory_req) == 32, "query dir req");
static_assert(sizeof(struct smb2_output_buffer_rsp) == 8, "output buffer rsp");
static_assert(sizeof(struct smb2_change_notify_req) == 32, "change notify req");
static_assert(sizeof(struct smb2_query_info_req) == 40, "query info req");
static_assert(sizeof(struct smb2_set_info_req) == 32, "set info req");

#endif /* KSMBD_PROTO_SMB2_H */
