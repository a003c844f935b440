/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ksmbd tracepoints (trace-cmd record -e ksmbd). tracing/README.md
 * documents every event and field.
 *
 * The prototypes of the events bpf/ attaches to (tp_btf: request_start,
 * request_done, vfs_read, vfs_write, session_setup, session_end,
 * tree_connect, tree_disconnect, credit_window, conn_accept, conn_close)
 * are ABI: the programs read the typed arguments (struct ksmbd_conn,
 * struct ksmbd_req_hdr) positionally with CO-RE, so those arguments are
 * only ever appended, never reordered. Events carry ids, sizes, statuses
 * and latencies, never a secret: no hashes, keys, passwords or challenge
 * responses.
 *
 * Every request event starts with the same identity fields in the same
 * order (KSMBD_TP_REQ_FIELDS): connection, session, tree, message id,
 * command.
 *
 * A family of events shares a class: one prototype, one record, one
 * assignment. Where members carry different fields the class takes their
 * union and a member passes 0 or NULL for what it lacks; a member whose
 * output differs from the class's prints the class's identity fields and
 * then its own (DEFINE_EVENT_PRINT). An event that is a family of its own
 * stays a TRACE_EVENT: negotiate, session_setup, listen, request_rejected,
 * credit_window, vfs_open, vfs_copychunk, vfs_readdir, access_denied,
 * durable_reconnect and notify_arm (what each carries is its own), conn_accept and
 * conn_close (a class would reorder the arguments bpf/ reads) and
 * conn_limit (it may have no connection). The fields they share with a
 * family are macros: KSMBD_TP_PEER_*, KSMBD_TP_FILE_*, KSMBD_TP_NOTIFY_*.
 * A class member is defined through its DEFINE_KSMBD_*_EVENT() macro
 * (DEFINE_KSMBD_*_PRINT_EVENT() for one with an output of its own), never
 * a bare DEFINE_EVENT*(): tests/vm/cases/tracing.sh finds the events of
 * this header by those names and TRACE_EVENT.
 *
 * No event has a TP_CONDITION: none fires only on an error that its own
 * arguments show. The error-only ones (auth_failure, conn_limit,
 * request_rejected, credit_window) fire inside the error branch, whose
 * test is not on the event's arguments (a MessageId already used lies
 * inside credit_window's [lo, hi)); the others fire on success too.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ksmbd

#if !defined(KSMBD_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define KSMBD_TRACE_H

#include <linux/tracepoint.h>
#include <linux/in6.h>
#include <linux/socket.h>
#include "proto/ntstatus.h"
#include "proto/smb2.h"
#include "proto/validate.h"

/*
 * Events take the objects they describe by pointer; only trace.c, which
 * instantiates them, needs the definitions (so that this header, included
 * by every layer, depends on none of them).
 */
struct ksmbd_conn;
struct ksmbd_file;

/*
 * Longest share-relative path, user or share name an event records; longer
 * ones are cut (every string field is bounded, whatever a client sends).
 */
#define KSMBD_TP_STR_MAX	256
#define ksmbd_tp_strlen(s)	strnlen((s) ? (s) : "", KSMBD_TP_STR_MAX)
#define __ksmbd_str(item, src)	__string_len(item, src, ksmbd_tp_strlen(src))
#define __ksmbd_assign_str(item, src)					\
	__assign_str_len(item, (src) ? (src) : "", ksmbd_tp_strlen(src))

#define KSMBD_TP_COMMANDS(X)			\
	X(SMB2_NEGOTIATE, "NEGOTIATE")		\
	X(SMB2_SESSION_SETUP, "SESSION_SETUP")	\
	X(SMB2_LOGOFF, "LOGOFF")		\
	X(SMB2_TREE_CONNECT, "TREE_CONNECT")	\
	X(SMB2_TREE_DISCONNECT, "TREE_DISCONNECT") \
	X(SMB2_CREATE, "CREATE")		\
	X(SMB2_CLOSE, "CLOSE")			\
	X(SMB2_FLUSH, "FLUSH")			\
	X(SMB2_READ, "READ")			\
	X(SMB2_WRITE, "WRITE")			\
	X(SMB2_LOCK, "LOCK")			\
	X(SMB2_IOCTL, "IOCTL")			\
	X(SMB2_CANCEL, "CANCEL")		\
	X(SMB2_ECHO, "ECHO")			\
	X(SMB2_QUERY_DIRECTORY, "QUERY_DIRECTORY") \
	X(SMB2_CHANGE_NOTIFY, "CHANGE_NOTIFY")	\
	X(SMB2_QUERY_INFO, "QUERY_INFO")	\
	X(SMB2_SET_INFO, "SET_INFO")		\
	X(SMB2_OPLOCK_BREAK, "OPLOCK_BREAK")

/* Exported so that trace-cmd can decode the symbols offline. */
#define KSMBD_TP_DEFINE_CMD(id, name) TRACE_DEFINE_ENUM(id);
#define KSMBD_TP_DEFINE_STATUS(id, value) TRACE_DEFINE_ENUM(id);
KSMBD_TP_COMMANDS(KSMBD_TP_DEFINE_CMD)
KSMBD_NTSTATUS_LIST(KSMBD_TP_DEFINE_STATUS)

#define KSMBD_TP_SYM_CMD(id, name) { id, name },
#define KSMBD_TP_SYM_STATUS(id, value) { id, #id },
#define show_smb2_command(c) \
	__print_symbolic(c, KSMBD_TP_COMMANDS(KSMBD_TP_SYM_CMD) { 0xffff, "?" })
#define show_nt_status(s) \
	__print_symbolic(s, KSMBD_NTSTATUS_LIST(KSMBD_TP_SYM_STATUS) { 0xffffffff, "?" })

/* ---------------------------------------------------------------- */
/* Connections                                                       */

/* The connection and its peer (address:port, v4 or v6). */
#define KSMBD_TP_PEER_FIELDS				\
	__field(u64, conn_id)				\
	__array(u8, peer, sizeof(struct sockaddr_in6))

#define KSMBD_TP_PEER_ASSIGN(id, addr) do {				\
	__entry->conn_id = (id);					\
	memcpy(__entry->peer, (addr), sizeof(__entry->peer));		\
} while (0)

#define KSMBD_TP_PEER_FMT "conn=0x%016llx peer=%pISpc"
#define KSMBD_TP_PEER_ARGS __entry->conn_id, __entry->peer

TRACE_EVENT(ksmbd_conn_accept,
	TP_PROTO(const struct ksmbd_conn *conn, u16 local_port),
	TP_ARGS(conn, local_port),
	TP_STRUCT__entry(
		KSMBD_TP_PEER_FIELDS
		__field(u16, local_port)
	),
	TP_fast_assign(
		KSMBD_TP_PEER_ASSIGN(conn->id, &conn->peer);
		__entry->local_port = local_port;
	),
	TP_printk(KSMBD_TP_PEER_FMT " local_port=%u", KSMBD_TP_PEER_ARGS,
		  __entry->local_port)
);

/*
 * A listening socket opened ("start"), closed ("stop", "address gone")
 * or refused (err), with the address it is for.
 */
TRACE_EVENT(ksmbd_listen,
	TP_PROTO(const struct sockaddr_storage *addr, const char *what, int err),
	TP_ARGS(addr, what, err),
	TP_STRUCT__entry(
		__array(u8, addr, sizeof(struct sockaddr_in6))
		__field(int, err)
		__ksmbd_str(what, what)
	),
	TP_fast_assign(
		memcpy(__entry->addr, addr, sizeof(__entry->addr));
		__entry->err = err;
		__ksmbd_assign_str(what, what);
	),
	TP_printk("addr=%pISpc what='%s' err=%d",
		  __entry->addr, __get_str(what), __entry->err)
);

TRACE_EVENT(ksmbd_conn_close,
	TP_PROTO(const struct ksmbd_conn *conn, const char *reason,
		 u64 lifetime_ms, u64 requests, u64 bytes_in, u64 bytes_out),
	TP_ARGS(conn, reason, lifetime_ms, requests, bytes_in, bytes_out),
	TP_STRUCT__entry(
		KSMBD_TP_PEER_FIELDS
		__field(u64, lifetime_ms)
		__field(u64, requests)
		__field(u64, bytes_in)
		__field(u64, bytes_out)
		__ksmbd_str(reason, reason)
	),
	TP_fast_assign(
		KSMBD_TP_PEER_ASSIGN(conn->id, &conn->peer);
		__entry->lifetime_ms = lifetime_ms;
		__entry->requests = requests;
		__entry->bytes_in = bytes_in;
		__entry->bytes_out = bytes_out;
		__ksmbd_assign_str(reason, reason);
	),
	TP_printk(KSMBD_TP_PEER_FMT " reason='%s' lifetime_ms=%llu requests=%llu bytes_in=%llu bytes_out=%llu",
		  KSMBD_TP_PEER_ARGS, __get_str(reason), __entry->lifetime_ms,
		  __entry->requests, __entry->bytes_in, __entry->bytes_out)
);

/*
 * A limit was hit: too many connections (conn_id 0: the socket was refused
 * before a connection existed), frame too large, a deadline.
 */
TRACE_EVENT(ksmbd_conn_limit,
	TP_PROTO(u64 conn_id, const struct sockaddr_storage *peer,
		 const char *limit),
	TP_ARGS(conn_id, peer, limit),
	TP_STRUCT__entry(
		KSMBD_TP_PEER_FIELDS
		__ksmbd_str(limit, limit)
	),
	TP_fast_assign(
		KSMBD_TP_PEER_ASSIGN(conn_id, peer);
		__ksmbd_assign_str(limit, limit);
	),
	TP_printk(KSMBD_TP_PEER_FMT " limit='%s'", KSMBD_TP_PEER_ARGS,
		  __get_str(limit))
);

/* ---------------------------------------------------------------- */
/* Negotiate, sessions, trees                                        */

TRACE_EVENT(ksmbd_negotiate,
	TP_PROTO(const struct ksmbd_conn *conn),
	TP_ARGS(conn),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u16, dialect)
		__field(u16, signing_alg)
		__field(u16, cipher)
		__field(u16, security_mode)
		__field(bool, preauth)
	),
	TP_fast_assign(
		__entry->conn_id = conn->id;
		__entry->dialect = conn->neg.dialect;
		__entry->signing_alg = conn->neg.signing_alg;
		__entry->cipher = conn->neg.cipher;
		__entry->security_mode = conn->neg.security_mode;
		__entry->preauth = conn->neg.dialect == SMB311_DIALECT;
	),
	TP_printk("conn=0x%016llx dialect=0x%04x signing=%s cipher=%s security_mode=0x%x preauth=%s",
		  __entry->conn_id, __entry->dialect,
		  __print_symbolic(__entry->signing_alg,
				   { SMB2_SIGNING_HMAC_SHA256, "HMAC-SHA256" },
				   { SMB2_SIGNING_AES_CMAC, "AES-CMAC" },
				   { SMB2_SIGNING_AES_GMAC, "AES-GMAC" }),
		  __print_symbolic(__entry->cipher, { 0, "none" },
				   { SMB2_ENCRYPTION_AES128_CCM, "AES-128-CCM" },
				   { SMB2_ENCRYPTION_AES128_GCM, "AES-128-GCM" },
				   { SMB2_ENCRYPTION_AES256_CCM, "AES-256-CCM" },
				   { SMB2_ENCRYPTION_AES256_GCM, "AES-256-GCM" }),
		  __entry->security_mode,
		  __entry->preauth ? "sha512" : "none")
);

TRACE_EVENT(ksmbd_session_setup,
	TP_PROTO(const struct ksmbd_conn *conn, u64 session_id,
		 const char *user, const char *mech, u32 status, bool signing,
		 bool encryption, bool binding, u64 latency_ns),
	TP_ARGS(conn, session_id, user, mech, status, signing, encryption,
		binding, latency_ns),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u64, session_id)
		__field(u64, latency_ns)
		__field(u32, status)
		__field(bool, signing)
		__field(bool, encryption)
		__field(bool, binding)
		__ksmbd_str(user, user)
		__ksmbd_str(mech, mech)
	),
	TP_fast_assign(
		__entry->conn_id = conn->id;
		__entry->session_id = session_id;
		__entry->latency_ns = latency_ns;
		__entry->status = status;
		__entry->signing = signing;
		__entry->encryption = encryption;
		__entry->binding = binding;
		__ksmbd_assign_str(user, user);
		__ksmbd_assign_str(mech, mech);
	),
	TP_printk("conn=0x%016llx sess=0x%016llx user=%s mech=%s status=%s signing=%d encryption=%d binding=%d latency_ns=%llu",
		  __entry->conn_id, __entry->session_id, __get_str(user),
		  __get_str(mech), show_nt_status(__entry->status),
		  __entry->signing, __entry->encryption, __entry->binding,
		  __entry->latency_ns)
);

/*
 * A session's peer, user and a reason: why it ended (session_end), why
 * a logon failed, as a class (auth_failure: the client only ever sees
 * LOGON_FAILURE; sess is the SessionId of the request), or a channel's
 * event (session_channel, "bind" or "unbind"). session_end's first four
 * arguments are ABI (bpf/).
 */
DECLARE_EVENT_CLASS(ksmbd_session_class,
	TP_PROTO(u64 conn_id, u64 session_id, const char *user,
		 const char *reason, const struct sockaddr_storage *peer),
	TP_ARGS(conn_id, session_id, user, reason, peer),
	TP_STRUCT__entry(
		KSMBD_TP_PEER_FIELDS
		__field(u64, session_id)
		__ksmbd_str(user, user)
		__ksmbd_str(reason, reason)
	),
	TP_fast_assign(
		KSMBD_TP_PEER_ASSIGN(conn_id, peer);
		__entry->session_id = session_id;
		__ksmbd_assign_str(user, user);
		__ksmbd_assign_str(reason, reason);
	),
	TP_printk(KSMBD_TP_PEER_FMT " sess=0x%016llx user=%s reason='%s'",
		  KSMBD_TP_PEER_ARGS, __entry->session_id, __get_str(user),
		  __get_str(reason))
);
#define DEFINE_KSMBD_SESSION_EVENT(name)				\
DEFINE_EVENT(ksmbd_session_class, name,					\
	TP_PROTO(u64 conn_id, u64 session_id, const char *user,	\
		 const char *reason, const struct sockaddr_storage *peer), \
	TP_ARGS(conn_id, session_id, user, reason, peer))
#define DEFINE_KSMBD_SESSION_PRINT_EVENT(name, fmt, ...)		\
DEFINE_EVENT_PRINT(ksmbd_session_class, name,				\
	TP_PROTO(u64 conn_id, u64 session_id, const char *user,	\
		 const char *reason, const struct sockaddr_storage *peer), \
	TP_ARGS(conn_id, session_id, user, reason, peer),		\
	TP_printk(KSMBD_TP_PEER_FMT " sess=0x%016llx user=%s" fmt,	\
		  KSMBD_TP_PEER_ARGS, __entry->session_id,		\
		  __get_str(user), ##__VA_ARGS__))
DEFINE_KSMBD_SESSION_EVENT(ksmbd_auth_failure);
DEFINE_KSMBD_SESSION_EVENT(ksmbd_session_end);
DEFINE_KSMBD_SESSION_PRINT_EVENT(ksmbd_session_channel, " event=%s",
				 __get_str(reason));

DECLARE_EVENT_CLASS(ksmbd_tree_class,
	TP_PROTO(u64 conn_id, u64 session_id, u32 tree_id, const char *share,
		 u32 flags, u32 status),
	TP_ARGS(conn_id, session_id, tree_id, share, flags, status),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u64, session_id)
		__field(u32, tree_id)
		__field(u32, flags)
		__field(u32, status)
		__ksmbd_str(share, share)
	),
	TP_fast_assign(
		__entry->conn_id = conn_id;
		__entry->session_id = session_id;
		__entry->tree_id = tree_id;
		__entry->flags = flags;
		__entry->status = status;
		__ksmbd_assign_str(share, share);
	),
	TP_printk("conn=0x%016llx sess=0x%016llx tree=0x%08x share=%s flags=0x%x status=%s",
		  __entry->conn_id, __entry->session_id, __entry->tree_id,
		  __get_str(share), __entry->flags,
		  show_nt_status(__entry->status))
);
#define DEFINE_KSMBD_TREE_EVENT(name)					\
DEFINE_EVENT(ksmbd_tree_class, name,					\
	TP_PROTO(u64 conn_id, u64 session_id, u32 tree_id,		\
		 const char *share, u32 flags, u32 status),		\
	TP_ARGS(conn_id, session_id, tree_id, share, flags, status))
DEFINE_KSMBD_TREE_EVENT(ksmbd_tree_connect);
DEFINE_KSMBD_TREE_EVENT(ksmbd_tree_disconnect);

/* ---------------------------------------------------------------- */
/* Requests and credits                                              */

#define KSMBD_TP_REQ_FIELDS			\
	__field(u64, conn_id)			\
	__field(u64, session_id)		\
	__field(u32, tree_id)			\
	__field(u64, message_id)		\
	__field(u16, command)

#define KSMBD_TP_REQ_ASSIGN(conn, hdr) do {			\
	__entry->conn_id = (conn)->id;				\
	__entry->session_id = (hdr)->session_id;		\
	__entry->tree_id = (hdr)->tree_id;			\
	__entry->message_id = (hdr)->message_id;		\
	__entry->command = (hdr)->command;			\
} while (0)

#define KSMBD_TP_REQ_FMT "conn=0x%016llx sess=0x%016llx tree=0x%08x mid=%llu cmd=%s"
#define KSMBD_TP_REQ_ARGS __entry->conn_id, __entry->session_id,	\
	__entry->tree_id, __entry->message_id, show_smb2_command(__entry->command)

/*
 * An element of a frame: request_start when it passed the ordering rules
 * and the sequence window (it has no result yet: 0 for the arguments
 * after compound_index), request_done when its response is built.
 * request_start's three arguments are a prefix of request_done's, so the
 * BPF programs read both unchanged.
 */
DECLARE_EVENT_CLASS(ksmbd_request_class,
	TP_PROTO(const struct ksmbd_conn *conn,
		 const struct ksmbd_req_hdr *hdr, u32 compound_index,
		 u32 status, u16 credits_granted, u32 bytes_in, u32 bytes_out,
		 u64 latency_ns),
	TP_ARGS(conn, hdr, compound_index, status, credits_granted, bytes_in,
		bytes_out, latency_ns),
	TP_STRUCT__entry(
		KSMBD_TP_REQ_FIELDS
		__field(u32, compound_index)
		__field(u32, status)
		__field(u16, credit_charge)
		__field(u16, credit_request)
		__field(u16, credits_granted)
		__field(bool, async)
		__field(u32, bytes_in)
		__field(u32, bytes_out)
		__field(u64, latency_ns)
	),
	TP_fast_assign(
		KSMBD_TP_REQ_ASSIGN(conn, hdr);
		__entry->compound_index = compound_index;
		__entry->status = status;
		__entry->credit_charge = hdr->credit_charge;
		__entry->credit_request = hdr->credit_request;
		__entry->credits_granted = credits_granted;
		__entry->async = hdr->flags & SMB2_FLAGS_ASYNC_COMMAND;
		__entry->bytes_in = bytes_in;
		__entry->bytes_out = bytes_out;
		__entry->latency_ns = latency_ns;
	),
	TP_printk(KSMBD_TP_REQ_FMT " index=%u status=%s charge=%u requested=%u granted=%u bytes_in=%u bytes_out=%u latency_ns=%llu",
		  KSMBD_TP_REQ_ARGS, __entry->compound_index,
		  show_nt_status(__entry->status), __entry->credit_charge,
		  __entry->credit_request, __entry->credits_granted,
		  __entry->bytes_in, __entry->bytes_out, __entry->latency_ns)
);
#define DEFINE_KSMBD_REQUEST_EVENT(name)				\
DEFINE_EVENT(ksmbd_request_class, name,					\
	TP_PROTO(const struct ksmbd_conn *conn,				\
		 const struct ksmbd_req_hdr *hdr, u32 compound_index,	\
		 u32 status, u16 credits_granted, u32 bytes_in,		\
		 u32 bytes_out, u64 latency_ns),			\
	TP_ARGS(conn, hdr, compound_index, status, credits_granted,	\
		bytes_in, bytes_out, latency_ns))
#define DEFINE_KSMBD_REQUEST_PRINT_EVENT(name, fmt, ...)		\
DEFINE_EVENT_PRINT(ksmbd_request_class, name,				\
	TP_PROTO(const struct ksmbd_conn *conn,				\
		 const struct ksmbd_req_hdr *hdr, u32 compound_index,	\
		 u32 status, u16 credits_granted, u32 bytes_in,		\
		 u32 bytes_out, u64 latency_ns),			\
	TP_ARGS(conn, hdr, compound_index, status, credits_granted,	\
		bytes_in, bytes_out, latency_ns),			\
	TP_printk(KSMBD_TP_REQ_FMT " index=%u" fmt, KSMBD_TP_REQ_ARGS,	\
		  __entry->compound_index, ##__VA_ARGS__))
DEFINE_KSMBD_REQUEST_PRINT_EVENT(ksmbd_request_start,
				 " async=%d charge=%u credits_requested=%u",
				 __entry->async, __entry->credit_charge,
				 __entry->credit_request);
DEFINE_KSMBD_REQUEST_EVENT(ksmbd_request_done);

/* The validation gate or an ordering rule refused a frame or an element. */
TRACE_EVENT(ksmbd_request_rejected,
	TP_PROTO(const struct ksmbd_conn *conn, u16 command, u64 message_id,
		 const char *reason),
	TP_ARGS(conn, command, message_id, reason),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u64, message_id)
		__field(u16, command)
		__ksmbd_str(reason, reason)
	),
	TP_fast_assign(
		__entry->conn_id = conn->id;
		__entry->message_id = message_id;
		__entry->command = command;
		__ksmbd_assign_str(reason, reason);
	),
	TP_printk("conn=0x%016llx mid=%llu cmd=%s reason='%s'", __entry->conn_id,
		  __entry->message_id, show_smb2_command(__entry->command),
		  __get_str(reason))
);

/* A MessageId outside the granted window, or one already used. */
TRACE_EVENT(ksmbd_credit_window,
	TP_PROTO(const struct ksmbd_conn *conn, u64 message_id, u16 charge,
		 u64 window_lo, u64 window_hi),
	TP_ARGS(conn, message_id, charge, window_lo, window_hi),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u64, message_id)
		__field(u64, window_lo)
		__field(u64, window_hi)
		__field(u16, charge)
	),
	TP_fast_assign(
		__entry->conn_id = conn->id;
		__entry->message_id = message_id;
		__entry->window_lo = window_lo;
		__entry->window_hi = window_hi;
		__entry->charge = charge;
	),
	TP_printk("conn=0x%016llx mid=%llu charge=%u window=[%llu,%llu)",
		  __entry->conn_id, __entry->message_id, __entry->charge,
		  __entry->window_lo, __entry->window_hi)
);

/* ---------------------------------------------------------------- */
/* VFS                                                               */
/*
 * conn is the connection whose request did the operation; NULL when it
 * ran outside a request (delete-on-close at a handle's last close, which
 * may come from a teardown): conn is then 0. fp is the handle (its
 * volatile id is "file", its session "sess"); NULL when there is none
 * (a failed open, the mkdir of a CREATE before its handle exists).
 */
#define KSMBD_TP_FILE_FIELDS			\
	__field(u64, conn_id)			\
	__field(u64, session_id)		\
	__field(u64, file_id)

#define KSMBD_TP_FILE_ASSIGN(conn, fp) do {				\
	__entry->conn_id = (conn) ? (conn)->id : 0;			\
	__entry->session_id = (fp) ? (fp)->session_id : 0;		\
	__entry->file_id = (fp) ? (fp)->volatile_id : 0;		\
} while (0)

#define KSMBD_TP_FILE_FMT "conn=0x%016llx sess=0x%016llx file=0x%016llx"
#define KSMBD_TP_FILE_ARGS __entry->conn_id, __entry->session_id,	\
	__entry->file_id

/* The action of an open that failed. */
#define KSMBD_TP_NO_ACTION	0xffffffff

/* sess: the request's session (fp is NULL when the open failed). */
TRACE_EVENT(ksmbd_vfs_open,
	TP_PROTO(const struct ksmbd_conn *conn, u64 session_id,
		 const struct ksmbd_file *fp, const char *path, u32 disposition,
		 u32 action, u32 status, u64 latency_ns),
	TP_ARGS(conn, session_id, fp, path, disposition, action, status,
		latency_ns),
	TP_STRUCT__entry(
		KSMBD_TP_FILE_FIELDS
		__field(u64, latency_ns)
		__field(u32, disposition)
		__field(u32, action)
		__field(u32, status)
		__ksmbd_str(path, path)
	),
	TP_fast_assign(
		KSMBD_TP_FILE_ASSIGN(conn, fp);
		__entry->session_id = session_id;
		__entry->latency_ns = latency_ns;
		__entry->disposition = disposition;
		__entry->action = action;
		__entry->status = status;
		__ksmbd_assign_str(path, path);
	),
	TP_printk(KSMBD_TP_FILE_FMT " path='%s' disposition=%s action=%s status=%s latency_ns=%llu",
		  KSMBD_TP_FILE_ARGS, __get_str(path),
		  __print_symbolic(__entry->disposition,
				   { 0, "SUPERSEDE" }, { 1, "OPEN" },
				   { 2, "CREATE" }, { 3, "OPEN_IF" },
				   { 4, "OVERWRITE" }, { 5, "OVERWRITE_IF" }),
		  __print_symbolic(__entry->action,
				   { 0, "SUPERSEDED" }, { 1, "OPENED" },
				   { 2, "CREATED" }, { 3, "OVERWRITTEN" },
				   { KSMBD_TP_NO_ACTION, "-" }),
		  show_nt_status(__entry->status), __entry->latency_ns)
);

/* fp is never NULL: data moves through an open handle. */
DECLARE_EVENT_CLASS(ksmbd_vfs_io_class,
	TP_PROTO(const struct ksmbd_conn *conn, const struct ksmbd_file *fp,
		 u64 offset, u32 requested, u32 done, u64 latency_ns),
	TP_ARGS(conn, fp, offset, requested, done, latency_ns),
	TP_STRUCT__entry(
		KSMBD_TP_FILE_FIELDS
		__field(u64, offset)
		__field(u64, latency_ns)
		__field(u32, requested)
		__field(u32, done)
	),
	TP_fast_assign(
		KSMBD_TP_FILE_ASSIGN(conn, fp);
		__entry->offset = offset;
		__entry->latency_ns = latency_ns;
		__entry->requested = requested;
		__entry->done = done;
	),
	TP_printk(KSMBD_TP_FILE_FMT " offset=%llu requested=%u done=%u latency_ns=%llu",
		  KSMBD_TP_FILE_ARGS, __entry->offset, __entry->requested,
		  __entry->done, __entry->latency_ns)
);
#define DEFINE_KSMBD_VFS_IO_EVENT(name)					\
DEFINE_EVENT(ksmbd_vfs_io_class, name,					\
	TP_PROTO(const struct ksmbd_conn *conn, const struct ksmbd_file *fp, \
		 u64 offset, u32 requested, u32 done, u64 latency_ns),	\
	TP_ARGS(conn, fp, offset, requested, done, latency_ns))
/* done: bytes moved; 0 on an error (request_done carries the status). */
DEFINE_KSMBD_VFS_IO_EVENT(ksmbd_vfs_read);
DEFINE_KSMBD_VFS_IO_EVENT(ksmbd_vfs_write);

/*
 * A namespace or attribute change; err is 0 or a negative errno. path is
 * share-relative: the name created (mkdir), removed (unlink), changed
 * (setattr, lock) or renamed from (rename, whose new name is "to" and
 * link 1 for a hard link; the others pass NULL and false).
 */
DECLARE_EVENT_CLASS(ksmbd_vfs_op_class,
	TP_PROTO(const struct ksmbd_conn *conn, const struct ksmbd_file *fp,
		 const char *path, int err, const char *to, bool link),
	TP_ARGS(conn, fp, path, err, to, link),
	TP_STRUCT__entry(
		KSMBD_TP_FILE_FIELDS
		__field(int, err)
		__field(bool, link)
		__ksmbd_str(path, path)
		__ksmbd_str(to, to)
	),
	TP_fast_assign(
		KSMBD_TP_FILE_ASSIGN(conn, fp);
		__entry->err = err;
		__entry->link = link;
		__ksmbd_assign_str(path, path);
		__ksmbd_assign_str(to, to);
	),
	TP_printk(KSMBD_TP_FILE_FMT " path='%s' err=%d", KSMBD_TP_FILE_ARGS,
		  __get_str(path), __entry->err)
);
#define DEFINE_KSMBD_VFS_OP_EVENT(name)					\
DEFINE_EVENT(ksmbd_vfs_op_class, name,					\
	TP_PROTO(const struct ksmbd_conn *conn, const struct ksmbd_file *fp, \
		 const char *path, int err, const char *to, bool link),	\
	TP_ARGS(conn, fp, path, err, to, link))
#define DEFINE_KSMBD_VFS_OP_PRINT_EVENT(name, fmt, ...)			\
DEFINE_EVENT_PRINT(ksmbd_vfs_op_class, name,				\
	TP_PROTO(const struct ksmbd_conn *conn, const struct ksmbd_file *fp, \
		 const char *path, int err, const char *to, bool link),	\
	TP_ARGS(conn, fp, path, err, to, link),				\
	TP_printk(KSMBD_TP_FILE_FMT fmt, KSMBD_TP_FILE_ARGS, ##__VA_ARGS__))
DEFINE_KSMBD_VFS_OP_EVENT(ksmbd_vfs_unlink);
DEFINE_KSMBD_VFS_OP_EVENT(ksmbd_vfs_mkdir);
DEFINE_KSMBD_VFS_OP_EVENT(ksmbd_vfs_setattr);
DEFINE_KSMBD_VFS_OP_EVENT(ksmbd_vfs_lock);
DEFINE_KSMBD_VFS_OP_PRINT_EVENT(ksmbd_vfs_rename,
				" from='%s' to='%s' link=%d err=%d",
				__get_str(path), __get_str(to),
				__entry->link, __entry->err);

/*
 * The access check of a share that stores descriptors refused an open:
 * uid the caller's, path share-relative, desired the mask asked (as
 * sent), granted what the descriptor grants the caller at most (its
 * MAXIMUM_ALLOWED), ace the index of the deny ACE that decided (-1: no
 * ACE granted a bit asked for), sid that ACE's trustee ("" for -1),
 * stored 0 when the descriptor came from the mode. Its own prototype:
 * what it carries is the check's.
 */
TRACE_EVENT(ksmbd_access_denied,
	TP_PROTO(const struct ksmbd_conn *conn, u32 uid, const char *path,
		 u32 desired, u32 granted, int ace, const char *sid,
		 bool stored),
	TP_ARGS(conn, uid, path, desired, granted, ace, sid, stored),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u32, uid)
		__field(u32, desired)
		__field(u32, granted)
		__field(int, ace)
		__field(bool, stored)
		__ksmbd_str(path, path)
		__ksmbd_str(sid, sid)
	),
	TP_fast_assign(
		__entry->conn_id = conn ? conn->id : 0;
		__entry->uid = uid;
		__entry->desired = desired;
		__entry->granted = granted;
		__entry->ace = ace;
		__entry->stored = stored;
		__ksmbd_assign_str(path, path);
		__ksmbd_assign_str(sid, sid);
	),
	TP_printk("conn=0x%016llx uid=%u path='%s' desired=0x%08x granted=0x%08x ace=%d sid='%s' stored=%d",
		  __entry->conn_id, __entry->uid, __get_str(path),
		  __entry->desired, __entry->granted, __entry->ace,
		  __get_str(sid), __entry->stored)
);

/* One FSCTL_SRV_COPYCHUNK(_WRITE): chunks and bytes copied src -> dst. */
TRACE_EVENT(ksmbd_vfs_copychunk,
	TP_PROTO(const struct ksmbd_conn *conn, const struct ksmbd_file *src,
		 const struct ksmbd_file *dst, u32 chunks, u64 bytes, int err,
		 u64 latency_ns),
	TP_ARGS(conn, src, dst, chunks, bytes, err, latency_ns),
	TP_STRUCT__entry(
		KSMBD_TP_FILE_FIELDS
		__field(u64, src_id)
		__field(u64, bytes)
		__field(u64, latency_ns)
		__field(u32, chunks)
		__field(int, err)
	),
	TP_fast_assign(
		KSMBD_TP_FILE_ASSIGN(conn, dst);
		__entry->src_id = src->volatile_id;
		__entry->bytes = bytes;
		__entry->latency_ns = latency_ns;
		__entry->chunks = chunks;
		__entry->err = err;
	),
	TP_printk("conn=0x%016llx sess=0x%016llx src=0x%016llx dst=0x%016llx chunks=%u bytes=%llu err=%d latency_ns=%llu",
		  __entry->conn_id, __entry->session_id, __entry->src_id,
		  __entry->file_id, __entry->chunks, __entry->bytes,
		  __entry->err, __entry->latency_ns)
);

/* One QUERY_DIRECTORY response filled: entries and bytes of them. */
TRACE_EVENT(ksmbd_vfs_readdir,
	TP_PROTO(const struct ksmbd_conn *conn, const struct ksmbd_file *fp,
		 u32 entries, u32 bytes, u32 status),
	TP_ARGS(conn, fp, entries, bytes, status),
	TP_STRUCT__entry(
		KSMBD_TP_FILE_FIELDS
		__field(u32, entries)
		__field(u32, bytes)
		__field(u32, status)
	),
	TP_fast_assign(
		KSMBD_TP_FILE_ASSIGN(conn, fp);
		__entry->entries = entries;
		__entry->bytes = bytes;
		__entry->status = status;
	),
	TP_printk(KSMBD_TP_FILE_FMT " entries=%u bytes=%u status=%s",
		  KSMBD_TP_FILE_ARGS, __entry->entries, __entry->bytes,
		  show_nt_status(__entry->status))
);

/* ---------------------------------------------------------------- */
/* IPC with the daemon                                               */

/*
 * ipc_request: a request went to the daemon (err and latency_ns are 0);
 * ipc_response: its answer, with err 0, -ETIMEDOUT (no answer in time)
 * or another negative errno.
 */
DECLARE_EVENT_CLASS(ksmbd_ipc_class,
	TP_PROTO(u16 type, u32 handle, u32 size, int err, u64 latency_ns),
	TP_ARGS(type, handle, size, err, latency_ns),
	TP_STRUCT__entry(
		__field(u64, latency_ns)
		__field(u32, handle)
		__field(u32, size)
		__field(int, err)
		__field(u16, type)
	),
	TP_fast_assign(
		__entry->latency_ns = latency_ns;
		__entry->handle = handle;
		__entry->size = size;
		__entry->err = err;
		__entry->type = type;
	),
	TP_printk("type=%u handle=%u size=%u err=%d timed_out=%d latency_ns=%llu",
		  __entry->type, __entry->handle, __entry->size, __entry->err,
		  __entry->err == -ETIMEDOUT, __entry->latency_ns)
);
#define DEFINE_KSMBD_IPC_EVENT(name)					\
DEFINE_EVENT(ksmbd_ipc_class, name,					\
	TP_PROTO(u16 type, u32 handle, u32 size, int err, u64 latency_ns), \
	TP_ARGS(type, handle, size, err, latency_ns))
#define DEFINE_KSMBD_IPC_PRINT_EVENT(name, fmt, ...)			\
DEFINE_EVENT_PRINT(ksmbd_ipc_class, name,				\
	TP_PROTO(u16 type, u32 handle, u32 size, int err, u64 latency_ns), \
	TP_ARGS(type, handle, size, err, latency_ns),			\
	TP_printk("type=%u handle=%u size=%u" fmt, __entry->type,	\
		  __entry->handle, __entry->size, ##__VA_ARGS__))
DEFINE_KSMBD_IPC_PRINT_EVENT(ksmbd_ipc_request, "");
DEFINE_KSMBD_IPC_EVENT(ksmbd_ipc_response);

/* ---------------------------------------------------------------- */
/* Oplocks and leases                                                */

/*
 * id: the handle's persistent FileId for an oplock, the first 8 bytes of
 * the lease key (little-endian) for a lease. States are lease bits
 * (R=1, H=2, W=4) for both: level II = R, exclusive = RW, batch = RWH.
 *
 * grant: to = the state a CREATE got (or a handle joined); break_sent:
 * from and to of the break offered; break_ack: to = the state acked, its
 * status and the time since the break; break_timeout: the break ended
 * without an acknowledgement, reason "timeout" (the break timeout
 * passed), "disconnected" (the client's connection is gone) or "waiters"
 * (too many opens waiting; downgraded at once); moved: the connection
 * the owner's breaks went to closed while its session lives on, conn is
 * the channel they go to now (from: the state held, to: the state a
 * break under way goes to, resent there; 0 when none). What a member
 * lacks it passes as 0 or NULL.
 */
#define show_lease_state(s) __print_flags(s, "", { 1, "R" }, { 2, "H" }, { 4, "W" })

DECLARE_EVENT_CLASS(ksmbd_oplock_class,
	TP_PROTO(u64 conn_id, u64 id, bool lease, u32 from, u32 to,
		 u32 status, u64 latency_ns, const char *reason),
	TP_ARGS(conn_id, id, lease, from, to, status, latency_ns, reason),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u64, id)
		__field(u64, latency_ns)
		__field(u32, from)
		__field(u32, to)
		__field(u32, status)
		__field(bool, lease)
		__ksmbd_str(reason, reason)
	),
	TP_fast_assign(
		__entry->conn_id = conn_id;
		__entry->id = id;
		__entry->latency_ns = latency_ns;
		__entry->from = from;
		__entry->to = to;
		__entry->status = status;
		__entry->lease = lease;
		__ksmbd_assign_str(reason, reason);
	),
	TP_printk("conn=%llu %s=0x%016llx from=%s to=%s", __entry->conn_id,
		  __entry->lease ? "lease" : "fid", __entry->id,
		  show_lease_state(__entry->from), show_lease_state(__entry->to))
);
#define DEFINE_KSMBD_OPLOCK_EVENT(name)					\
DEFINE_EVENT(ksmbd_oplock_class, name,					\
	TP_PROTO(u64 conn_id, u64 id, bool lease, u32 from, u32 to,	\
		 u32 status, u64 latency_ns, const char *reason),	\
	TP_ARGS(conn_id, id, lease, from, to, status, latency_ns, reason))
#define DEFINE_KSMBD_OPLOCK_PRINT_EVENT(name, fmt, ...)			\
DEFINE_EVENT_PRINT(ksmbd_oplock_class, name,				\
	TP_PROTO(u64 conn_id, u64 id, bool lease, u32 from, u32 to,	\
		 u32 status, u64 latency_ns, const char *reason),	\
	TP_ARGS(conn_id, id, lease, from, to, status, latency_ns, reason), \
	TP_printk("conn=%llu %s=0x%016llx" fmt, __entry->conn_id,	\
		  __entry->lease ? "lease" : "fid", __entry->id,	\
		  ##__VA_ARGS__))
DEFINE_KSMBD_OPLOCK_EVENT(ksmbd_oplock_grant);
DEFINE_KSMBD_OPLOCK_EVENT(ksmbd_oplock_break_sent);
DEFINE_KSMBD_OPLOCK_PRINT_EVENT(ksmbd_oplock_break_ack,
				" acked=%s status=%s latency_ns=%llu",
				show_lease_state(__entry->to),
				show_nt_status(__entry->status),
				__entry->latency_ns);
DEFINE_KSMBD_OPLOCK_PRINT_EVENT(ksmbd_oplock_break_timeout,
				" from=%s to=%s reason=%s",
				show_lease_state(__entry->from),
				show_lease_state(__entry->to),
				__get_str(reason));
DEFINE_KSMBD_OPLOCK_PRINT_EVENT(ksmbd_oplock_moved,
				" state=%s breaking_to=%s",
				show_lease_state(__entry->from),
				show_lease_state(__entry->to));

/*
 * Durable handles (durable.h). disconnect: the connection of a durable
 * handle dropped and the handle is kept for timeout_ms (sess: the
 * session it had); scavenge: a disconnected handle closed ("timeout",
 * "conflicting open", "stop"; sess and timeout_ms 0). reconnect: a
 * DHnC/DH2C for the persistent FileId, with its status: it asks for a
 * handle it may not find, so it has no class with the two.
 */
DECLARE_EVENT_CLASS(ksmbd_durable_class,
	TP_PROTO(const struct ksmbd_file *fp, u64 session_id, u32 timeout_ms,
		 const char *reason),
	TP_ARGS(fp, session_id, timeout_ms, reason),
	TP_STRUCT__entry(
		__field(u64, session_id)
		__field(u64, persistent_id)
		__field(u64, file_id)
		__field(u32, timeout_ms)
		__ksmbd_str(reason, reason)
	),
	TP_fast_assign(
		__entry->session_id = session_id;
		__entry->persistent_id = fp->persistent_id;
		__entry->file_id = fp->volatile_id;
		__entry->timeout_ms = timeout_ms;
		__ksmbd_assign_str(reason, reason);
	),
	TP_printk("sess=0x%016llx persistent=0x%016llx file=0x%016llx timeout_ms=%u",
		  __entry->session_id, __entry->persistent_id,
		  __entry->file_id, __entry->timeout_ms)
);
#define DEFINE_KSMBD_DURABLE_EVENT(name)				\
DEFINE_EVENT(ksmbd_durable_class, name,					\
	TP_PROTO(const struct ksmbd_file *fp, u64 session_id,		\
		 u32 timeout_ms, const char *reason),			\
	TP_ARGS(fp, session_id, timeout_ms, reason))
#define DEFINE_KSMBD_DURABLE_PRINT_EVENT(name, fmt, ...)		\
DEFINE_EVENT_PRINT(ksmbd_durable_class, name,				\
	TP_PROTO(const struct ksmbd_file *fp, u64 session_id,		\
		 u32 timeout_ms, const char *reason),			\
	TP_ARGS(fp, session_id, timeout_ms, reason),			\
	TP_printk("persistent=0x%016llx file=0x%016llx" fmt,		\
		  __entry->persistent_id, __entry->file_id, ##__VA_ARGS__))
DEFINE_KSMBD_DURABLE_EVENT(ksmbd_durable_disconnect);
DEFINE_KSMBD_DURABLE_PRINT_EVENT(ksmbd_durable_scavenge, " reason='%s'",
				 __get_str(reason));

TRACE_EVENT(ksmbd_durable_reconnect,
	TP_PROTO(const struct ksmbd_conn *conn, u64 session_id,
		 u64 persistent_id, u32 status),
	TP_ARGS(conn, session_id, persistent_id, status),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u64, session_id)
		__field(u64, persistent_id)
		__field(u32, status)
	),
	TP_fast_assign(
		__entry->conn_id = conn ? conn->id : 0;
		__entry->session_id = session_id;
		__entry->persistent_id = persistent_id;
		__entry->status = status;
	),
	TP_printk("conn=0x%016llx sess=0x%016llx persistent=0x%016llx status=%s",
		  __entry->conn_id, __entry->session_id,
		  __entry->persistent_id, show_nt_status(__entry->status))
);

/* ---------------------------------------------------------------- */
/* Async requests (MS-SMB2 3.3.4.2, 3.3.5.16)                        */

/*
 * async_id: the AsyncId of the interim response; mid and cmd: the
 * request's MessageId and command. interim: the STATUS_PENDING response
 * went out, the request now waits. cancel: a cancel won the request,
 * reason "cancel" (an SMB2 CANCEL), "early" (a CANCEL that came before
 * the interim) or "teardown" (connection loss). done: the final
 * response, its status, whether it was sent (0 when the connection was
 * already going) and the time since the request arrived. What a member
 * lacks it passes as 0 or NULL.
 */
DECLARE_EVENT_CLASS(ksmbd_async_class,
	TP_PROTO(u64 conn_id, u64 async_id, u64 mid, u16 command,
		 const char *reason, u32 status, bool sent, u64 latency_ns),
	TP_ARGS(conn_id, async_id, mid, command, reason, status, sent,
		latency_ns),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u64, async_id)
		__field(u64, mid)
		__field(u64, latency_ns)
		__field(u32, status)
		__field(u16, command)
		__field(bool, sent)
		__ksmbd_str(reason, reason)
	),
	TP_fast_assign(
		__entry->conn_id = conn_id;
		__entry->async_id = async_id;
		__entry->mid = mid;
		__entry->latency_ns = latency_ns;
		__entry->status = status;
		__entry->command = command;
		__entry->sent = sent;
		__ksmbd_assign_str(reason, reason);
	),
	TP_printk("conn=0x%016llx async_id=%llu mid=%llu cmd=%s",
		  __entry->conn_id, __entry->async_id, __entry->mid,
		  show_smb2_command(__entry->command))
);
#define DEFINE_KSMBD_ASYNC_EVENT(name)					\
DEFINE_EVENT(ksmbd_async_class, name,					\
	TP_PROTO(u64 conn_id, u64 async_id, u64 mid, u16 command,	\
		 const char *reason, u32 status, bool sent, u64 latency_ns), \
	TP_ARGS(conn_id, async_id, mid, command, reason, status, sent,	\
		latency_ns))
#define DEFINE_KSMBD_ASYNC_PRINT_EVENT(name, fmt, ...)			\
DEFINE_EVENT_PRINT(ksmbd_async_class, name,				\
	TP_PROTO(u64 conn_id, u64 async_id, u64 mid, u16 command,	\
		 const char *reason, u32 status, bool sent, u64 latency_ns), \
	TP_ARGS(conn_id, async_id, mid, command, reason, status, sent,	\
		latency_ns),						\
	TP_printk("conn=0x%016llx async_id=%llu mid=%llu cmd=%s" fmt,	\
		  __entry->conn_id, __entry->async_id, __entry->mid,	\
		  show_smb2_command(__entry->command), ##__VA_ARGS__))
DEFINE_KSMBD_ASYNC_EVENT(ksmbd_async_interim);
DEFINE_KSMBD_ASYNC_PRINT_EVENT(ksmbd_async_cancel, " reason=%s",
			       __get_str(reason));
DEFINE_KSMBD_ASYNC_PRINT_EVENT(ksmbd_async_done,
			       " status=%s sent=%d latency_ns=%llu",
			       show_nt_status(__entry->status), __entry->sent,
			       __entry->latency_ns);

/* ---------------------------------------------------------------- */
/* Change notify                                                     */

/* file: the directory handle's volatile FileId. */
#define KSMBD_TP_NOTIFY_FIELDS			\
	__field(u64, conn_id)			\
	__field(u64, mid)			\
	__field(u64, file)

#define KSMBD_TP_NOTIFY_ASSIGN(conn_id, mid, file) do {		\
	__entry->conn_id = (conn_id);				\
	__entry->mid = (mid);					\
	__entry->file = (file);					\
} while (0)

#define KSMBD_TP_NOTIFY_FMT "conn=0x%016llx mid=%llu file=0x%016llx"
#define KSMBD_TP_NOTIFY_ARGS __entry->conn_id, __entry->mid, __entry->file

/*
 * A CHANGE_NOTIFY found no buffered change and waits: filter, the
 * completion filter; tree, SMB2_WATCH_TREE. Its own prototype: what it
 * carries is the request's, the end events' is the answer's.
 */
TRACE_EVENT(ksmbd_notify_arm,
	TP_PROTO(u64 conn_id, u64 mid, u64 file, u32 filter, bool tree,
		 u32 out_len),
	TP_ARGS(conn_id, mid, file, filter, tree, out_len),
	TP_STRUCT__entry(
		KSMBD_TP_NOTIFY_FIELDS
		__field(u32, filter)
		__field(u32, out_len)
		__field(bool, tree)
	),
	TP_fast_assign(
		KSMBD_TP_NOTIFY_ASSIGN(conn_id, mid, file);
		__entry->filter = filter;
		__entry->out_len = out_len;
		__entry->tree = tree;
	),
	TP_printk(KSMBD_TP_NOTIFY_FMT " filter=0x%x tree=%d out_len=%u",
		  KSMBD_TP_NOTIFY_ARGS, __entry->filter, __entry->tree,
		  __entry->out_len)
);

/*
 * How a CHANGE_NOTIFY ended. fire: answered with changes, actions
 * (entries in the response, 0 with STATUS_NOTIFY_ENUM_DIR), bytes of the
 * response body, waited (0: the changes were already buffered when it
 * came). cancel: a waiting one ended without changes, status CANCELLED
 * (a CANCEL or a teardown) or NOTIFY_CLEANUP (its handle closed); it
 * passes 0 for the rest.
 */
DECLARE_EVENT_CLASS(ksmbd_notify_class,
	TP_PROTO(u64 conn_id, u64 mid, u64 file, u32 status, u32 actions,
		 u32 bytes, bool waited),
	TP_ARGS(conn_id, mid, file, status, actions, bytes, waited),
	TP_STRUCT__entry(
		KSMBD_TP_NOTIFY_FIELDS
		__field(u32, status)
		__field(u32, actions)
		__field(u32, bytes)
		__field(bool, waited)
	),
	TP_fast_assign(
		KSMBD_TP_NOTIFY_ASSIGN(conn_id, mid, file);
		__entry->status = status;
		__entry->actions = actions;
		__entry->bytes = bytes;
		__entry->waited = waited;
	),
	TP_printk(KSMBD_TP_NOTIFY_FMT " status=%s actions=%u bytes=%u waited=%d",
		  KSMBD_TP_NOTIFY_ARGS, show_nt_status(__entry->status),
		  __entry->actions, __entry->bytes, __entry->waited)
);
#define DEFINE_KSMBD_NOTIFY_EVENT(name)					\
DEFINE_EVENT(ksmbd_notify_class, name,					\
	TP_PROTO(u64 conn_id, u64 mid, u64 file, u32 status, u32 actions, \
		 u32 bytes, bool waited),				\
	TP_ARGS(conn_id, mid, file, status, actions, bytes, waited))
#define DEFINE_KSMBD_NOTIFY_PRINT_EVENT(name, fmt, ...)			\
DEFINE_EVENT_PRINT(ksmbd_notify_class, name,				\
	TP_PROTO(u64 conn_id, u64 mid, u64 file, u32 status, u32 actions, \
		 u32 bytes, bool waited),				\
	TP_ARGS(conn_id, mid, file, status, actions, bytes, waited),	\
	TP_printk(KSMBD_TP_NOTIFY_FMT fmt, KSMBD_TP_NOTIFY_ARGS,	\
		  ##__VA_ARGS__))
DEFINE_KSMBD_NOTIFY_EVENT(ksmbd_notify_fire);
DEFINE_KSMBD_NOTIFY_PRINT_EVENT(ksmbd_notify_cancel, " status=%s",
				show_nt_status(__entry->status));

#endif /* KSMBD_TRACE_H */

#ifndef KSMBD_TRACE_HELPERS_H
#define KSMBD_TRACE_HELPERS_H
#include <linux/ktime.h>
#include <linux/slab.h>

/*
 * Latency of a traced operation, without reading the clock when the event
 * is off: t0 = KSMBD_TP_CLOCK(event) before, ksmbd_tp_since(t0) after.
 */
#define KSMBD_TP_CLOCK(event) (trace_##event##_enabled() ? ktime_get_ns() : 0)
static inline u64 ksmbd_tp_since(u64 t0)
{
	return t0 ? ktime_get_ns() - t0 : 0;
}

/*
 * A VFS op event on a handle whose name a concurrent rename may replace:
 * the event records a copy taken under the handle's name lock.
 */
#define ksmbd_trace_fp_op(event, conn, fp, err) do {			\
	if (trace_##event##_enabled()) {				\
		char *__name = ksmbd_file_name_dup(fp, GFP_KERNEL);	\
									\
		trace_##event(conn, fp, __name ?: "", err, NULL, false);	\
		kfree(__name);						\
	}								\
} while (0)
#endif

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ksmbd_trace
#include <trace/define_trace.h>
