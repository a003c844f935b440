/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libksmbdstats: the user-space side of the ksmbd BPF statistics.
 *
 * Two ways to get a handle:
 *   ksmbd_stats_open()         loads the programs (CO-RE, skeleton) and
 *                              attaches them; they detach on close.
 *   ksmbd_stats_open_pinned()  opens the maps `ksmbd-lat --pin` left under
 *                              KSMBD_STATS_PIN_DIR; the programs stay
 *                              attached by their pinned links.
 *   ksmbd_stats_open_auto()    the pinned maps when something is pinned,
 *                              else loads: every reader of the pinned set
 *                              shares one copy of the programs, so a second
 *                              tool adds no work per request.
 * Then read snapshots (plain arrays copied out of the maps), subtract two
 * snapshots for an interval, reset, and close.
 *
 * Errors: every function that can fail returns 0 or a negative errno and,
 * when err is not NULL, writes one human-readable line into it (no trailing
 * newline). libbpf's own messages are silenced unless opts.verbose is set.
 * The distinct failures have distinct codes:
 *   -ENOENT  "ksmbd module not loaded", "the ksmbd module has no BTF
 *            (/sys/kernel/btf/ksmbd missing): ..." (built without pahole
 *            or without its kernel's BTF) or, for open_pinned, "nothing
 *            pinned under ..."
 *   -EPERM   "not permitted: run as root (CAP_BPF and CAP_PERFMON)"
 *   -ENOSYS  "kernel has no BPF support" / no BTF for vmlinux
 *
 * Thread safety: one handle per thread; snapshots are plain memory.
 */
#ifndef LIBKSMBDSTATS_H
#define LIBKSMBDSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ksmbd_stats.h"

#define KSMBD_STATS_PIN_DIR	"/sys/fs/bpf/ksmbd"
#define KSMBD_STATS_MODULE_BTF	"/sys/kernel/btf/ksmbd"
#define KSMBD_STATS_ERR_LEN	256
/* "ffff:...:ffff" plus NUL, enough for any printed address. */
#define KSMBD_STATS_ADDR_LEN	48

struct ksmbd_stats;	/* opaque handle */

struct ksmbd_stats_opts {
	bool verbose;		/* route libbpf's debug output to stderr */
	const char *btf_path;	/* module BTF probe path; NULL = default */
};

struct ksmbd_stats_client_row {
	struct ksmbd_client_key key;
	struct ksmbd_client_val val;
};

struct ksmbd_stats_cmd_row {
	struct ksmbd_client_cmd_key key;
	struct ksmbd_cmd_val val;
};

struct ksmbd_stats_share_row {
	struct ksmbd_share_key key;
	struct ksmbd_share_val val;
};

/*
 * Everything at one instant. Rows are sorted by key (memcmp order), so a
 * reader can bsearch and two snapshots can be merged. Counters are
 * cumulative since load (or the last reset); use ksmbd_stats_snapshot_delta
 * for an interval.
 */
struct ksmbd_stats_snapshot {
	uint64_t taken_ns;		/* CLOCK_MONOTONIC, like bpf_ktime */
	struct ksmbd_global_val global;
	struct ksmbd_stats_client_row *clients;
	size_t nr_clients;
	struct ksmbd_stats_cmd_row *cmds;	/* per (client, command) */
	size_t nr_cmds;
	struct ksmbd_stats_share_row *shares;
	size_t nr_shares;
};

/* Load + attach. opts may be NULL. */
int ksmbd_stats_open(struct ksmbd_stats **out,
		     const struct ksmbd_stats_opts *opts, char *err,
		     size_t errlen);
/* Open the maps pinned under dir (NULL: KSMBD_STATS_PIN_DIR). */
int ksmbd_stats_open_pinned(struct ksmbd_stats **out, const char *dir,
			    char *err, size_t errlen);
/*
 * Pinned maps when KSMBD_STATS_PIN_DIR exists and opens, else
 * ksmbd_stats_open(). A pinned directory that does not open (stale, or not
 * permitted) falls back to loading, except for -EPERM, which loading would
 * hit too.
 */
int ksmbd_stats_open_auto(struct ksmbd_stats **out,
			  const struct ksmbd_stats_opts *opts, char *err,
			  size_t errlen);
/* True when the handle reads pinned maps (reset affects other readers). */
bool ksmbd_stats_is_pinned(const struct ksmbd_stats *s);
void ksmbd_stats_close(struct ksmbd_stats *s);

/*
 * Pin programs, links and maps of a handle from ksmbd_stats_open() under
 * dir (NULL: default): dir/<map>, dir/prog_<name>, dir/link_<name>.
 */
int ksmbd_stats_pin(struct ksmbd_stats *s, const char *dir, char *err,
		    size_t errlen);
/* Remove everything under dir and dir itself; absent dir is not an error. */
int ksmbd_stats_unpin(const char *dir, char *err, size_t errlen);
/* Writes one line per pinned object to f; returns how many, or -errno. */
int ksmbd_stats_pin_status(const char *dir, FILE *f, char *err,
			   size_t errlen);

/* Fill snap (zero it first or reuse one that was freed). */
int ksmbd_stats_read(struct ksmbd_stats *s, struct ksmbd_stats_snapshot *snap,
		     char *err, size_t errlen);
void ksmbd_stats_snapshot_free(struct ksmbd_stats_snapshot *snap);
/*
 * out = cur - prev, row by row (a row absent from prev is kept whole).
 * Identity fields (user, dialect, outstanding, *_max, seen times) come from
 * cur. Rows without a new request or byte are left out.
 */
int ksmbd_stats_snapshot_delta(const struct ksmbd_stats_snapshot *cur,
			       const struct ksmbd_stats_snapshot *prev,
			       struct ksmbd_stats_snapshot *out);
/* Sort rows by key (memcmp order); for snapshots built by hand. */
void ksmbd_stats_snapshot_sort(struct ksmbd_stats_snapshot *snap);
/*
 * Give every command row a client row: add an empty one (key only) for a
 * command row whose client is missing, so that readers which walk
 * commands under their clients (JSON, -C -c, the monitor) see every
 * command row. Rows must be sorted; they stay sorted. 0 or -ENOMEM.
 */
int ksmbd_stats_snapshot_complete(struct ksmbd_stats_snapshot *snap);
/* Zero every statistics map (not the programs' bookkeeping). */
int ksmbd_stats_reset(struct ksmbd_stats *s, char *err, size_t errlen);

/* ---- pure helpers (no BPF needed; unit-tested on the host) ---- */

/* The slot a latency in microseconds falls in. */
unsigned int ksmbd_stats_hist_slot(uint64_t usecs);
/* Inclusive range of slot i: [lo, hi] microseconds (last slot: hi = max). */
void ksmbd_stats_hist_range(unsigned int slot, uint64_t *lo, uint64_t *hi);
uint64_t ksmbd_stats_hist_count(const struct ksmbd_stats_hist *h);
/*
 * The pct-th percentile (0 < pct <= 100) in microseconds, as the upper
 * bound of the slot that holds it: rank = ceil(pct / 100 * count), and the
 * answer is the inclusive upper bound 2^(i+1) - 1 of the first slot i whose
 * cumulative count reaches rank (slot 0: 1). So p50 = 255 means "half of
 * the requests took less than 256 us". 0 for an empty histogram.
 */
uint64_t ksmbd_stats_hist_percentile(const struct ksmbd_stats_hist *h,
				     double pct);
/*
 * biolatency-style rendering: a header "     usecs               : count
 * distribution", then one line per slot from the first to the last
 * non-empty one, with a bar of up to width stars scaled to the largest
 * slot. Nothing when empty. label replaces "usecs" when not NULL.
 */
void ksmbd_stats_hist_print(FILE *f, const struct ksmbd_stats_hist *h,
			    const char *label, unsigned int width);

/* "127.0.0.1" or "::1"; "?" for an unknown family. Returns buf. */
const char *ksmbd_stats_addr_format(const struct ksmbd_client_key *key,
				    char *buf, size_t len);
/* Parse a printed address back into a key's addr/family (tests, filters). */
int ksmbd_stats_addr_parse(const char *s, struct ksmbd_client_key *key);
/* "READ"; "UNKNOWN" for a number outside the table. Static strings. */
const char *ksmbd_stats_cmd_name(unsigned int command);
/* "3.1.1", "3.0.2", "3.0", "2.1", "2.0.2", "" for 0, "?" otherwise. */
const char *ksmbd_stats_dialect_name(unsigned int dialect);

/* ---- JSON (one object, no trailing newline) ---- */

/*
 * Writes snap as one JSON object:
 * {"ts_ns":N,"global":{...},"clients":[{"addr":..,"family":4|6,
 *  "session_id":"0x..","user":..,"dialect":..,"requests":..,"errors":..,
 *  "bytes_read":..,"bytes_written":..,"credits_charged":..,
 *  "credits_granted":..,"outstanding":..,"outstanding_max":..,
 *  "credit_stalls":..,"latency":{"count":..,"sum_ns":..,"p50_us":..,
 *  "p90_us":..,"p99_us":..,"hist":[slot0,..]},"commands":[{"command":"READ",
 *  ...same counters and latency...}]}],"shares":[...]}
 * Strings are escaped; user names are arbitrary bytes from the wire.
 */
void ksmbd_stats_json_write(FILE *f, const struct ksmbd_stats_snapshot *snap);

#endif /* LIBKSMBDSTATS_H */
