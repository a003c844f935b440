/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Live-object counters. Every object type the server allocates on behalf of
 * a client is counted up on creation and down on destruction, so that tests
 * can prove that after clients are gone every count is back to zero (the
 * guest kernel has no kmemleak or KASAN to tell us).
 */
#ifndef KSMBD_STATS_H
#define KSMBD_STATS_H

#include <linux/atomic.h>
#include <linux/types.h>

#define KSMBD_LIVE_OBJECTS(X)		\
	X(CONNECTIONS, "connections")	\
	X(SESSIONS, "sessions")		\
	X(TREES, "trees")		\
	X(FILES, "open_files")		\
	X(WORKS, "works")		\
	X(BUFFERS, "buffers")		\
	X(IPC_REQUESTS, "ipc_requests")	\
	X(OPLOCKS, "oplocks")		\
	X(NOTIFY_WATCHES, "notify_watches") \
	X(LOCKS, "byte_range_locks")

enum ksmbd_live_object {
#define X(id, name) KSMBD_LIVE_##id,
	KSMBD_LIVE_OBJECTS(X)
#undef X
	KSMBD_LIVE_NR
};

/* Monotonic totals since the module was loaded. */
#define KSMBD_TOTALS(X)			\
	X(ACCEPTED, "connections_accepted") \
	X(REQUESTS, "requests")		\
	X(BYTES_IN, "bytes_in")		\
	X(BYTES_OUT, "bytes_out")	\
	X(WRITES_STREAMED, "writes_streamed") \
	X(WRITES_DIRECT, "writes_direct") \
	X(READS_INLINE, "reads_inline") \
	X(TX_CORKS, "answer_corks") \
	X(SETUPS_REFUSED, "session_setups_refused") \
	X(SETUPS_EVICTED, "session_setups_evicted") \
	X(SENDS_QUEUED, "sends_queued") \
	X(WORKS_PARKED, "works_parked") \
	X(SEND_STALLS, "send_stall_drops") \
	X(DAEMON_GONE, "daemon_losses") \
	X(CONNS_REFUSED, "connections_refused") \
	X(CONNS_REFUSED_PEER, "connections_refused_per_peer") \
	X(FILES_REFUSED_SESS, "open_files_refused_per_session") \
	X(FILES_REFUSED_CONN, "open_files_refused_per_connection") \
	X(NOTIFY_REFUSED, "notify_watches_refused") \
	X(LOCKS_REFUSED_HANDLE, "locks_refused_per_handle") \
	X(LOCKS_REFUSED_FILE, "locks_refused_per_file") \
	X(ALLOC_CAPPED, "allocation_reservations_capped") \
	X(NOTIFY_CHECKS, "notify_watch_checks") \
	X(ACCESS_CHECKS, "access_checks") \
	X(ACCESS_DENIED, "access_denied")

enum ksmbd_total {
#define X(id, name) KSMBD_TOTAL_##id,
	KSMBD_TOTALS(X)
#undef X
	KSMBD_TOTAL_NR
};

struct ksmbd_stats {
	atomic_long_t live[KSMBD_LIVE_NR];
	atomic64_t total[KSMBD_TOTAL_NR];
};

extern struct ksmbd_stats ksmbd_stats;

static inline void ksmbd_live_inc(enum ksmbd_live_object o)
{
	atomic_long_inc(&ksmbd_stats.live[o]);
}

static inline void ksmbd_live_dec(enum ksmbd_live_object o)
{
	atomic_long_dec(&ksmbd_stats.live[o]);
}

static inline void ksmbd_total_add(enum ksmbd_total t, s64 n)
{
	atomic64_add(n, &ksmbd_stats.total[t]);
}

long ksmbd_stats_live_sum(void);

#endif
