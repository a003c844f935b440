/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The module's own view of itself: /sys/class/ksmbd-control/stats, one
 * "key value" pair per line. This is all ksmbdtop has when BPF is not
 * available, so it is parsed separately from the BPF snapshot and tested on
 * the host.
 */
#ifndef KSMBDTOP_MODSTATS_H
#define KSMBDTOP_MODSTATS_H

#include <stdbool.h>
#include <stdint.h>

#define KT_MODSTATS_PATH "/sys/class/ksmbd-control/stats"

struct kt_modstats {
	char version[32];
	char state[32];
	uint64_t uptime_s;
	uint64_t listen_port;		/* 0: not listening */
	/* live objects */
	uint64_t connections;
	uint64_t sessions;
	uint64_t trees;
	uint64_t open_files;
	uint64_t works;
	/* monotonic totals since load */
	uint64_t accepted;
	uint64_t requests;
	uint64_t bytes_in;
	uint64_t bytes_out;
	/*
	 * The server's bounds at work: what is held now, and since load how
	 * often a bound refused or ended something (module README).
	 */
	uint64_t pending_sessions;
	uint64_t setups_refused;
	uint64_t setups_evicted;
	uint64_t tx_queued_bytes;
	uint64_t works_parked;
	uint64_t send_stall_drops;
	uint64_t daemon_pid;		/* 0: no daemon registered */
	uint64_t daemon_losses;
	/* per-client bounds: held now, then refusals since load */
	uint64_t notify_watches;
	uint64_t locks;
	uint64_t files_refused_session;
	uint64_t files_refused_conn;
	uint64_t notify_refused;
	uint64_t locks_refused_handle;
	uint64_t locks_refused_file;
	uint64_t alloc_capped;
};

/*
 * Parses the text of the stats file. Unknown keys are ignored (the module
 * adds counters over time); a line that is not "key value" is an error.
 * Returns 0 or -EINVAL.
 */
int kt_modstats_parse(const char *text, struct kt_modstats *out);

/*
 * Reads and parses @path. Returns 0, -ENOENT when the module is not loaded
 * (the control class is absent), another negative errno otherwise.
 */
int kt_modstats_read(const char *path, struct kt_modstats *out);

#endif
