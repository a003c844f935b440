// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /sys/class/ksmbd-control/stats: the counters of stats.h and what each
 * layer reports about itself. It reads from every layer, so it sits above
 * all of them (stats.c, below all of them, only keeps the counters).
 */
#define pr_fmt(fmt) "ksmbd: " fmt

#include <linux/kernel.h>
#include "listener.h"
#include "stats.h"
#include "stats_show.h"
#include "connection.h"
#include "file.h"
#include "ipc.h"
#include "server.h"
#include "session.h"
#include "signing.h"
#include "smb2_dispatch.h"
#include "smb2_transform.h"
#include "transport_tcp.h"
#include "bufpool.h"

static const char * const live_names[KSMBD_LIVE_NR] = {
#define X(id, name) [KSMBD_LIVE_##id] = name,
	KSMBD_LIVE_OBJECTS(X)
#undef X
};

static const char * const total_names[KSMBD_TOTAL_NR] = {
#define X(id, name) [KSMBD_TOTAL_##id] = name,
	KSMBD_TOTALS(X)
#undef X
};

/* One "key value" pair per line, so shells and tests can grep it. */
int ksmbd_stats_show(char *buf, size_t size)
{
	int n, i;

	n = scnprintf(buf, size, "version %s\nstate %s\nuptime_s %llu\n",
		      KSMBD_VERSION, ksmbd_server_state_name(),
		      ksmbd_server_uptime_s());
	n += scnprintf(buf + n, size - n, "daemon_pid %d\n",
		       ksmbd_ipc_daemon_pid());
	if (ksmbd_tcp_listen_port())
		n += scnprintf(buf + n, size - n, "listen_port %u\nlisteners %u\n",
			       ksmbd_tcp_listen_port(), ksmbd_listen_count());
	for (i = 0; i < KSMBD_LIVE_NR; i++)
		n += scnprintf(buf + n, size - n, "%s %ld\n", live_names[i],
			       atomic_long_read(&ksmbd_stats.live[i]));
	for (i = 0; i < KSMBD_TOTAL_NR; i++)
		n += scnprintf(buf + n, size - n, "%s %lld\n", total_names[i],
			       (long long)atomic64_read(&ksmbd_stats.total[i]));
	n += scnprintf(buf + n, size - n, "signing_failures %llu\n",
		       (unsigned long long)ksmbd_signing_failures());
	n += scnprintf(buf + n, size - n, "decrypt_failures %llu\n",
		       (unsigned long long)ksmbd_decrypt_failures());
	n += scnprintf(buf + n, size - n, "decrypted_frames %llu\n",
		       (unsigned long long)ksmbd_decrypted_frames());
	n += scnprintf(buf + n, size - n, "rx_pool_bytes %zu\n",
		       ksmbd_rx_pool_bytes());
	n += scnprintf(buf + n, size - n, "pending_sessions %u\n",
		       ksmbd_session_nr_pending());
	n += scnprintf(buf + n, size - n, "tx_queued_bytes %lld\n",
		       (long long)ksmbd_conn_tx_queued_all());
	n += scnprintf(buf + n, size - n, "alloc_reserved_bytes %lld\n",
		       (long long)ksmbd_file_reserved_all());
	n += scnprintf(buf + n, size - n, "response_bytes %lld\n",
		       (long long)ksmbd_smb2_rsp_bytes());
	return n;
}
