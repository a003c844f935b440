/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one definition of what the ksmbd BPF programs aggregate: map keys,
 * map values, histogram slots and the SMB2 command table. Included by the
 * BPF programs (bpf/ksmbd_stats.bpf.c), the library (libksmbdstats), the
 * CLI (ksmbd-lat) and the monitor (ksmbdtop), so every layout below is ABI
 * between kernel maps and user space: append fields, never reorder them.
 *
 * Maps (pinned as /sys/fs/bpf/ksmbd/<name> by `ksmbd-lat --pin`):
 *   clients      LRU hash  struct ksmbd_client_key     -> struct ksmbd_client_val
 *   client_cmds  LRU hash  struct ksmbd_client_cmd_key -> struct ksmbd_cmd_val
 *   shares       LRU hash  struct ksmbd_share_key      -> struct ksmbd_share_val
 *   global       array[1]  __u32 0                     -> struct ksmbd_global_val
 *   conns, trees, inflight: the programs' own bookkeeping (not for readers).
 *
 * Client-driven keys live in LRU maps: a flood of clients evicts the least
 * recently active ones instead of exhausting memory or failing updates.
 */
#ifndef KSMBD_STATS_H
#define KSMBD_STATS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Map sizes. A "client" is a (peer address, session id) pair. */
#define KSMBD_STATS_MAX_CLIENTS		4096
#define KSMBD_STATS_NR_CMDS		19	/* SMB2 NEGOTIATE .. OPLOCK_BREAK */
#define KSMBD_STATS_MAX_CLIENT_CMDS	(KSMBD_STATS_MAX_CLIENTS * KSMBD_STATS_NR_CMDS)
#define KSMBD_STATS_MAX_SHARES		256
#define KSMBD_STATS_MAX_CONNS		4096
#define KSMBD_STATS_MAX_TREES		8192

#define KSMBD_STATS_USER_LEN		64	/* bytes, NUL included */
#define KSMBD_STATS_SHARE_LEN		64

/*
 * Latency histograms are log2 in microseconds, like libbpf-tools'
 * biolatency: slot 0 holds 0..1 us, slot i (i >= 1) holds
 * [2^i, 2^(i+1) - 1] us, and the last slot also holds everything longer
 * (2^23 us is about 8.4 s).
 */
#define KSMBD_STATS_HIST_SLOTS		24

/* Address families as stored in keys (the kernel's AF_INET / AF_INET6). */
#define KSMBD_STATS_AF_INET		2
#define KSMBD_STATS_AF_INET6		10

/* NT status severity (bits 30-31) 11 = error (MS-ERREF 2.3). */
#define KSMBD_STATS_STATUS_IS_ERROR(s)	(((__u32)(s) >> 30) == 3)

/* SMB2 commands by number (MS-SMB2 2.2.1.2), the one name table. */
#define KSMBD_STATS_COMMANDS(X)		\
	X(0x00, "NEGOTIATE")		\
	X(0x01, "SESSION_SETUP")	\
	X(0x02, "LOGOFF")		\
	X(0x03, "TREE_CONNECT")		\
	X(0x04, "TREE_DISCONNECT")	\
	X(0x05, "CREATE")		\
	X(0x06, "CLOSE")		\
	X(0x07, "FLUSH")		\
	X(0x08, "READ")			\
	X(0x09, "WRITE")		\
	X(0x0a, "LOCK")			\
	X(0x0b, "IOCTL")		\
	X(0x0c, "CANCEL")		\
	X(0x0d, "ECHO")			\
	X(0x0e, "QUERY_DIRECTORY")	\
	X(0x0f, "CHANGE_NOTIFY")	\
	X(0x10, "QUERY_INFO")		\
	X(0x11, "SET_INFO")		\
	X(0x12, "OPLOCK_BREAK")

#define KSMBD_STATS_CMD_READ		0x08
#define KSMBD_STATS_CMD_WRITE		0x09

struct ksmbd_stats_hist {
	__u64 slots[KSMBD_STATS_HIST_SLOTS];
};

/*
 * Identifies a client: the peer address without the port (a reconnect
 * from a new port is the same client) and the SMB2 SessionId. An IPv4
 * peer seen by a dual-stack socket (::ffff:a.b.c.d) is keyed as IPv4. Requests
 * before SESSION_SETUP succeeded (NEGOTIATE, the first SESSION_SETUP
 * legs) count under session_id 0.
 */
struct ksmbd_client_key {
	__u8 addr[16];		/* IPv4: the 4 address bytes, rest zero */
	__u16 family;		/* KSMBD_STATS_AF_INET or _INET6 */
	__u16 pad[3];		/* zero: keys are compared as bytes */
	__u64 session_id;
};

/* Counters shared by the per-client and per-(client, command) values. */
struct ksmbd_req_counters {
	__u64 requests;		/* ksmbd_request_done events */
	/*
	 * Of which the status had severity 11, except the interim
	 * STATUS_MORE_PROCESSING_REQUIRED of a SESSION_SETUP leg.
	 */
	__u64 errors;
	__u64 bytes_in;		/* request elements, headers included */
	__u64 bytes_out;	/* response elements, headers included */
	/* File data moved: the `done` of ksmbd_vfs_read/write. */
	__u64 bytes_read;
	__u64 bytes_written;
	__u64 credits_charged;	/* CreditCharge, 0 counted as 1 */
	__u64 credits_granted;	/* CreditResponse */
	__u64 latency_ns_sum;
	struct ksmbd_stats_hist lat;	/* request latency, log2 us */
};

struct ksmbd_client_val {
	struct ksmbd_req_counters c;
	/*
	 * Credits on the client's connection when it last sent a request
	 * under this key: 1 (the implicit first credit) + granted - charged
	 * over the connection's life, and the largest value seen.
	 */
	__s64 outstanding;
	__s64 outstanding_max;
	__u64 credit_stalls;	/* ksmbd_credit_window: MessageId refused */
	__u64 conn_id;		/* the connection last seen under this key */
	__u64 first_seen_ns;	/* bpf_ktime_get_ns() (CLOCK_MONOTONIC) */
	__u64 last_seen_ns;
	__u32 last_status;	/* of the last SESSION_SETUP, 0 if none */
	__u16 dialect;		/* 0x0311 ...; 0 before NEGOTIATE */
	__u8 signing;		/* from ksmbd_session_setup */
	__u8 encryption;
	char user[KSMBD_STATS_USER_LEN];	/* "" until a session exists */
};

struct ksmbd_client_cmd_key {
	struct ksmbd_client_key client;
	__u16 command;		/* SMB2 command number, < KSMBD_STATS_NR_CMDS */
	__u16 pad[3];
};

struct ksmbd_cmd_val {
	struct ksmbd_req_counters c;
};

struct ksmbd_share_key {
	char name[KSMBD_STATS_SHARE_LEN];	/* zero padded */
};

struct ksmbd_share_val {
	__u64 tree_connects;		/* successful TREE_CONNECTs */
	__u64 tree_connect_errors;
	__u64 trees_now;		/* connected minus disconnected */
	struct ksmbd_req_counters c;	/* requests carrying its TreeId */
};

struct ksmbd_global_val {
	struct ksmbd_req_counters c;	/* every request */
	__u64 conns_accepted;
	__u64 conns_closed;
	__u64 sessions;			/* successful SESSION_SETUPs */
	__u64 session_failures;
	__u64 sessions_ended;
	__u64 credit_stalls;
	__u64 untracked_io;		/* VFS I/O with no request in flight */
};

/* Bookkeeping of the programs; exposed only so that bpftool shows names. */
struct ksmbd_conn_info {
	struct ksmbd_client_key last;	/* key of the last request */
	__s64 outstanding;
	__u16 dialect;
	__u16 pad[3];
};

struct ksmbd_tree_key {
	__u64 conn_id;
	__u64 session_id;
	__u32 tree_id;
	__u32 pad;
};

/* The request a kernel thread is running now (request_start .. done). */
struct ksmbd_inflight {
	struct ksmbd_client_key client;
	__u64 conn_id;
	__u32 tree_id;
	__u16 command;
	__u16 pad;
	__u64 bytes_read;
	__u64 bytes_written;
};

#endif /* KSMBD_STATS_H */
