/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one validation gate.  Every frame goes through it before any handler
 * runs:
 *
 *   ksmbd_frame_check_length()   4-byte transport header, bound by state
 *   ksmbd_frame_classify()       protocol id, minimum size, transform and
 *                                compression headers
 *   ksmbd_compound_walk()        NextCommand chain -> array of elements
 *   ksmbd_request_validate()     per element: StructureSize, every
 *                                offset/length pair, counts, limits and the
 *                                credit charge; fills struct ksmbd_req
 *   ksmbd_<cmd>_decode()         typed request structs for handlers
 *
 * Each step answers with an enum ksmbd_valid reason; a reason carries the NT
 * status to answer with and whether the connection must be dropped.
 * Handlers read only what these functions produced.
 */
#ifndef KSMBD_PROTO_VALIDATE_H
#define KSMBD_PROTO_VALIDATE_H

#include "shim.h"
#include "buf.h"
#include "smb2.h"
#include "ntstatus.h"

/* reason, NT status to answer with, drop the connection? */
#define KSMBD_VALID_LIST(X)						\
	X(OK,			STATUS_SUCCESS,			false)	\
	X(BAD_RFC1002_TYPE,	STATUS_INVALID_PARAMETER,	true)	\
	X(FRAME_TOO_SHORT,	STATUS_INVALID_PARAMETER,	true)	\
	X(FRAME_TOO_LONG,	STATUS_INVALID_PARAMETER,	true)	\
	X(BAD_PROTOCOL_ID,	STATUS_INVALID_PARAMETER,	true)	\
	X(BAD_TRANSFORM,	STATUS_INVALID_PARAMETER,	true)	\
	X(BAD_COMPRESSION,	STATUS_INVALID_PARAMETER,	true)	\
	X(BAD_HEADER_SIZE,	STATUS_INVALID_PARAMETER,	true)	\
	X(BAD_NEXT_COMMAND,	STATUS_INVALID_PARAMETER,	true)	\
	X(TOO_MANY_ELEMENTS,	STATUS_INVALID_PARAMETER,	true)	\
	X(FIRST_RELATED,	STATUS_INVALID_PARAMETER,	false)	\
	X(BAD_COMMAND,		STATUS_INVALID_PARAMETER,	false)	\
	X(TOO_SHORT,		STATUS_INVALID_PARAMETER,	false)	\
	X(BAD_STRUCTURE_SIZE,	STATUS_INVALID_PARAMETER,	false)	\
	X(BAD_OFFSET,		STATUS_INVALID_PARAMETER,	false)	\
	X(BAD_LENGTH,		STATUS_INVALID_PARAMETER,	false)	\
	X(BAD_COUNT,		STATUS_INVALID_PARAMETER,	false)	\
	X(TOO_LARGE,		STATUS_INVALID_PARAMETER,	false)	\
	X(CREDIT_ZERO_LARGE,	STATUS_INVALID_PARAMETER,	false)	\
	X(CREDIT_TOO_SMALL,	STATUS_INVALID_PARAMETER,	false)	\
	X(BAD_CONTEXT,		STATUS_INVALID_PARAMETER,	false)

#define KSMBD_VALID_ENUM(name, status, fatal) KSMBD_VALID_##name,
enum ksmbd_valid {
	KSMBD_VALID_LIST(KSMBD_VALID_ENUM)
	KSMBD_VALID_COUNT
};
#undef KSMBD_VALID_ENUM

/* "bad_offset" etc.; stable strings for tracepoints and logs. */
const char *ksmbd_valid_name(enum ksmbd_valid v);
u32 ksmbd_valid_status(enum ksmbd_valid v);
bool ksmbd_valid_is_fatal(enum ksmbd_valid v);

/* ---- Frame level ---- */

enum ksmbd_frame_kind {
	KSMBD_FRAME_SMB2,
	KSMBD_FRAME_TRANSFORM,
	KSMBD_FRAME_COMPRESSED,
	KSMBD_FRAME_SMB1_NEGOTIATE,	/* only to answer with an SMB2 upgrade */
};

/*
 * Decode the 4-byte Direct TCP header into *len and bound it: 0 and
 * lengths over max_len (smaller before SESSION_SETUP completes; the engine
 * chooses) are refused before anything is allocated.
 */
enum ksmbd_valid ksmbd_frame_check_length(const u8 hdr[KSMBD_RFC1002_HDR_SIZE],
					  u32 max_len, u32 *len);

/* Protocol id and the per-kind minimum size of a received frame. */
enum ksmbd_valid ksmbd_frame_classify(const u8 *frame, u32 len,
				      enum ksmbd_frame_kind *kind);

/* ---- Streamed WRITE payload ---- */

/*
 * A frame may leave its payload in the socket for the WRITE handler to
 * receive straight into the file (transport_tcp.c) when its first
 * KSMBD_WRITE_STREAM_HEAD bytes (SMB2 header and WRITE's fixed part) show
 * one unsigned WRITE whose data starts right there and runs to the end of
 * the frame, with at least KSMBD_WRITE_STREAM_MIN bytes of it. The usual
 * checks still run later, on the whole request.
 */
#define KSMBD_WRITE_STREAM_HEAD	(SMB2_HEADER_SIZE + SMB2_WRITE_REQ_SIZE - 1)
#define KSMBD_WRITE_STREAM_MIN	(64 * 1024)

bool ksmbd_write_streamable(const u8 *head, u32 frame_len);

/* ---- Compound walk ---- */

struct ksmbd_elem {
	u32 off;	/* of the element's SMB2 header within the frame */
	u32 len;	/* header + body (+ padding up to the next element) */
};

/*
 * Split a plain SMB2 frame (already decrypted/decompressed) into validated
 * elements.  On failure *count says how many leading elements were fine.
 * KSMBD_VALID_FIRST_RELATED (the first element has the RELATED flag) comes
 * with the whole chain split: the caller answers each element.
 */
enum ksmbd_valid ksmbd_compound_walk(const u8 *frame, u32 len,
				     struct ksmbd_elem *elems, u32 max_elems,
				     u32 *count);

/* ---- Per-element request validation ---- */

struct ksmbd_req_limits {
	u32 max_read;		/* Connection.MaxReadSize */
	u32 max_write;		/* Connection.MaxWriteSize */
	u32 max_trans;		/* Connection.MaxTransactSize */
	bool multi_credit;	/* Connection.SupportsMultiCredit */
};

struct ksmbd_req_hdr {
	u16 command;
	u16 credit_charge;
	u16 credit_request;
	u16 channel_sequence;
	u32 flags;
	u32 next_command;
	u64 message_id;
	u64 async_id;		/* valid when flags has ASYNC_COMMAND */
	u32 process_id;
	u32 tree_id;
	u64 session_id;
};

/*
 * What the gate hands to a handler: the element, its decoded header, and
 * up to two validated variable buffers.  Which buffer is which depends on
 * the command (see enum ksmbd_req_buf_slot).
 */
struct ksmbd_req {
	struct ksmbd_buf elem;		/* whole element, header included */
	struct ksmbd_buf body;		/* from the end of the header */
	struct ksmbd_req_hdr hdr;
	struct ksmbd_buf buf[2];
};

enum ksmbd_req_buf_slot {
	/* NEGOTIATE */
	KSMBD_NEG_DIALECTS = 0, KSMBD_NEG_CONTEXTS = 1,
	/* SESSION_SETUP */
	KSMBD_SESS_BLOB = 0,
	/* TREE_CONNECT */
	KSMBD_TCON_PATH = 0, KSMBD_TCON_EXT = 1,
	/* CREATE */
	KSMBD_CREATE_NAME = 0, KSMBD_CREATE_CONTEXTS = 1,
	/* READ */
	KSMBD_READ_CHANNEL = 0,
	/* WRITE */
	KSMBD_WRITE_DATA = 0, KSMBD_WRITE_CHANNEL = 1,
	/* LOCK */
	KSMBD_LOCK_ELEMENTS = 0,
	/* IOCTL */
	KSMBD_IOCTL_INPUT = 0, KSMBD_IOCTL_OUTPUT = 1,
	/* QUERY_DIRECTORY */
	KSMBD_QDIR_NAME = 0,
	/* QUERY_INFO */
	KSMBD_QINFO_INPUT = 0,
	/* SET_INFO */
	KSMBD_SINFO_BUFFER = 0,
};

enum ksmbd_valid ksmbd_request_validate(const u8 *elem, u32 len,
					const struct ksmbd_req_limits *lim,
					struct ksmbd_req *req);

/* Decode only the 64-byte header; len must be >= SMB2_HEADER_SIZE. */
void ksmbd_req_hdr_decode(const u8 *hdr, struct ksmbd_req_hdr *out);

/* ---- Create contexts (MS-SMB2 2.2.13.2) ---- */

struct ksmbd_create_ctx {
	struct ksmbd_buf name;
	struct ksmbd_buf data;
};

/*
 * Iterate a validated create-context chain: *pos starts at 0; returns 1 and
 * fills *ctx for each context, 0 at the end, or a negative errno on a
 * malformed chain (never past the end of the list).
 */
int ksmbd_create_ctx_next(const struct ksmbd_buf *list, u32 *pos,
			  struct ksmbd_create_ctx *ctx);

/* Walk the whole chain once; KSMBD_VALID_BAD_CONTEXT on any defect. */
enum ksmbd_valid ksmbd_create_ctx_validate(const struct ksmbd_buf *list);

/* Find a context by its tag ("MxAc", "RqLs", ...); -ENOENT when absent. */
int ksmbd_create_ctx_find(const struct ksmbd_buf *list, const char *tag,
			  u32 tag_len, struct ksmbd_create_ctx *ctx);

/* ---- Durable handle contexts (MS-SMB2 2.2.13.2.3, .4, .11, .12) ---- */

enum ksmbd_durable_kind {
	KSMBD_DH_NONE,
	KSMBD_DH_V1_REQ,		/* DHnQ */
	KSMBD_DH_V2_REQ,		/* DH2Q */
	KSMBD_DH_V1_RECONNECT,		/* DHnC */
	KSMBD_DH_V2_RECONNECT,		/* DH2C */
};

#define KSMBD_DH_FLAG_PERSISTENT	0x2	/* SMB2_DHANDLE_FLAG_PERSISTENT */

struct ksmbd_durable_req {
	enum ksmbd_durable_kind kind;
	u32 timeout_ms;			/* DH2Q; 0 = the server's default */
	u32 flags;			/* DH2Q, DH2C */
	u64 persistent_id, volatile_id;	/* DHnC, DH2C */
	u8 create_guid[16];		/* DH2Q, DH2C */
};

/*
 * The durable-handle contexts of a validated context list: each of the
 * exact size the spec gives it, and no combination MS-SMB2 3.3.5.9.6,
 * .7, .10 and .12 refuse (a v2 context with any other durable context).
 * DHnC wins over DHnQ. -EINVAL: answer STATUS_INVALID_PARAMETER.
 */
int ksmbd_durable_ctx_parse(const struct ksmbd_buf *list,
			    struct ksmbd_durable_req *out);

/* ---- Typed requests for the session-level commands ---- */

struct ksmbd_negotiate_req {
	u16 dialect_count;
	u16 security_mode;
	u32 capabilities;
	u8 client_guid[SMB2_CLIENT_GUID_SIZE];
	struct ksmbd_buf dialects;	/* dialect_count little-endian u16 */
	bool offers_311;
	u16 context_count;		/* only meaningful when offers_311 */
	struct ksmbd_buf contexts;	/* from the first context to the end */
	u32 contexts_offset;		/* from the SMB2 header, for alignment */
};

struct ksmbd_sess_setup_req {
	u8 flags;
	u8 security_mode;
	u32 capabilities;
	u32 channel;
	u64 previous_session_id;
	struct ksmbd_buf security_blob;
};

struct ksmbd_tree_connect_req {
	u16 flags;
	bool extension_present;
	struct ksmbd_buf path;		/* UTF-16LE, even length */
	u16 context_count;		/* extension only; contexts not parsed */
};

int ksmbd_negotiate_decode(const struct ksmbd_req *req,
			   struct ksmbd_negotiate_req *out);
u16 ksmbd_negotiate_dialect(const struct ksmbd_negotiate_req *neg, u16 i);
int ksmbd_sess_setup_decode(const struct ksmbd_req *req,
			    struct ksmbd_sess_setup_req *out);
int ksmbd_tree_connect_decode(const struct ksmbd_req *req,
			      struct ksmbd_tree_connect_req *out);
/* LOGOFF, TREE_DISCONNECT, ECHO, CANCEL carry nothing but the header. */
int ksmbd_simple_decode(const struct ksmbd_req *req, u16 command);

/* Credits this element consumes (CreditCharge, 0 counted as 1). */
static inline u16 ksmbd_req_credit_charge(const struct ksmbd_req *req)
{
	return req->hdr.credit_charge ? req->hdr.credit_charge : 1;
}

#endif /* KSMBD_PROTO_VALIDATE_H */
