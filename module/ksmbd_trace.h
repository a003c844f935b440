/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tracepoints of the connection layer and the request path
 * (trace-cmd list -e ksmbd). Prototypes pass typed pointers so BPF
 * programs can read more fields with CO-RE; keep argument order stable.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ksmbd

#if !defined(KSMBD_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define KSMBD_TRACE_H

#include <linux/tracepoint.h>
#include "connection.h"

TRACE_EVENT(ksmbd_conn_accept,
	TP_PROTO(const struct ksmbd_conn *conn),
	TP_ARGS(conn),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__array(u8, peer, sizeof(struct sockaddr_in6))
	),
	TP_fast_assign(
		__entry->conn_id = conn->id;
		memcpy(__entry->peer, &conn->peer, sizeof(__entry->peer));
	),
	TP_printk("conn=0x%016llx peer=%pISpc", __entry->conn_id,
		  __entry->peer)
);

TRACE_EVENT(ksmbd_conn_close,
	TP_PROTO(const struct ksmbd_conn *conn, const char *reason),
	TP_ARGS(conn, reason),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__string(reason, reason)
	),
	TP_fast_assign(
		__entry->conn_id = conn->id;
		__assign_str(reason, reason);
	),
	TP_printk("conn=0x%016llx reason=\"%s\"", __entry->conn_id,
		  __get_str(reason))
);

TRACE_EVENT(ksmbd_request_rejected,
	TP_PROTO(const struct ksmbd_conn *conn, const char *reason),
	TP_ARGS(conn, reason),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__string(reason, reason)
	),
	TP_fast_assign(
		__entry->conn_id = conn->id;
		__assign_str(reason, reason);
	),
	TP_printk("conn=0x%016llx reason=%s", __entry->conn_id,
		  __get_str(reason))
);

TRACE_EVENT(ksmbd_request_done,
	TP_PROTO(const struct ksmbd_conn *conn, u16 command, u64 message_id,
		 u32 status, u64 latency_ns),
	TP_ARGS(conn, command, message_id, status, latency_ns),
	TP_STRUCT__entry(
		__field(u64, conn_id)
		__field(u64, message_id)
		__field(u64, latency_ns)
		__field(u32, status)
		__field(u16, command)
	),
	TP_fast_assign(
		__entry->conn_id = conn->id;
		__entry->message_id = message_id;
		__entry->latency_ns = latency_ns;
		__entry->status = status;
		__entry->command = command;
	),
	TP_printk("conn=0x%016llx mid=%llu cmd=%u status=0x%08x latency_ns=%llu",
		  __entry->conn_id, __entry->message_id, __entry->command,
		  __entry->status, __entry->latency_ns)
);

#endif /* KSMBD_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ksmbd_trace
#include <trace/define_trace.h>
