/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ksmbdtop's model: what the screen and the batch output show, computed
 * from two consecutive snapshots of the BPF statistics (libksmbdstats) and
 * of the module's own counters. No curses here.
 *
 * A row of the client table is one peer address: the BPF maps key clients
 * by (address, session id), and an administrator thinks of "the machine at
 * 10.0.0.5" with its sessions counted in a column. Rows persist from tick
 * to tick (so that a stable sort keeps ties where they were, like htop)
 * and are dropped when their address has vanished from the maps (LRU
 * eviction or a reset).
 */
#ifndef KSMBDTOP_MODEL_H
#define KSMBDTOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clients.h"
#include "libksmbdstats.h"
#include "modstats.h"

/* Client table columns; also the sort keys. */
enum kt_col {
	KT_COL_ADDR,
	KT_COL_USER,
	KT_COL_DIALECT,
	KT_COL_SECURITY,
	KT_COL_SESSIONS,
	KT_COL_FILES,
	KT_COL_REQS,
	KT_COL_READ,
	KT_COL_WRITE,
	KT_COL_AVG,
	KT_COL_P50,
	KT_COL_P99,
	KT_COL_ERRS,
	KT_COL_CREDITS,
	KT_COL_NR
};

/* Cumulative counters since the programs were attached (or reset). */
struct kt_totals {
	uint64_t requests;
	uint64_t errors;
	uint64_t bytes_read;
	uint64_t bytes_written;
	uint64_t credits_granted;
	uint64_t latency_ns;		/* sum, for the average */
};

/* The same counters over the last interval, as rates. */
struct kt_rates {
	struct kt_totals delta;
	double req_s;
	double err_s;
	double read_mbs;	/* MB = 10^6 bytes, like iotop */
	double write_mbs;
	double avg_us;		/* 0 when no request completed */
	uint64_t p50_us;	/* upper bound of the log2 slot, see the lib */
	uint64_t p99_us;
};

struct kt_cmd_stat {
	struct kt_totals total;
	struct kt_rates iv;
};

#define KT_USER_LEN	(KSMBD_STATS_USER_LEN + 16)

struct kt_client {
	struct ksmbd_client_key key;	/* address only: session_id is 0 */
	char addr[KSMBD_STATS_ADDR_LEN];
	char user[KT_USER_LEN];		/* "alice", "alice+1" (two users) */
	uint16_t dialect;		/* highest seen under this address */
	bool signing;
	bool encryption;
	unsigned int sessions;		/* distinct non-zero session ids */
	unsigned int listed_sessions;	/* in the module's listing now */
	int64_t open_files;		/* -1: not known per client */
	int64_t credits_outstanding;	/* summed over its connections */
	uint64_t credit_stalls;
	double stalls_s;
	struct kt_totals total;
	struct kt_rates iv;
	struct kt_cmd_stat cmd[KSMBD_STATS_NR_CMDS];
	bool seen;			/* present in the latest snapshot */
	/* interval histograms, rebuilt every tick */
	struct ksmbd_stats_hist iv_hist;
	struct ksmbd_stats_hist cmd_hist[KSMBD_STATS_NR_CMDS];
};

#define KT_MAX_DIALECTS	8

struct kt_dialect_count {
	uint16_t dialect;
	unsigned int clients;
};

/* The header: what the server as a whole is doing. */
struct kt_summary {
	bool have_mod;
	struct kt_modstats mod;
	bool have_bpf;
	double interval_s;		/* 0 on the first tick */
	struct kt_totals total;
	struct kt_rates iv;
	double wire_in_mbs;		/* from the module's byte totals */
	double wire_out_mbs;
	int64_t credits_outstanding;
	double stalls_s;
	struct kt_dialect_count dialects[KT_MAX_DIALECTS];
	unsigned int nr_dialects;
};

struct kt_model {
	struct kt_client **rows;	/* display order */
	size_t nr_rows;
	size_t cap_rows;
	enum kt_col sort_col;
	struct kt_summary sum;
	/* the previous tick's inputs */
	struct ksmbd_stats_snapshot prev;
	bool have_prev;
	struct kt_modstats prev_mod;
	bool have_prev_mod;
	uint64_t prev_mod_ns;
};

void kt_model_init(struct kt_model *m);
void kt_model_fini(struct kt_model *m);

/*
 * One tick. snap (NULL without BPF) is taken over by the model and freed
 * later; mod (NULL when the module's file could not be read) is copied;
 * listed (NULL when unreadable) adds a row for every connected address,
 * idle ones included, and their users;
 * now_ns is CLOCK_MONOTONIC, used for the module's rates (the snapshot
 * carries its own time). Rows are re-sorted by m->sort_col.
 * Returns 0 or -ENOMEM (the rows may then miss part of this tick; the
 * next tick starts over from the snapshots).
 */
int kt_model_update(struct kt_model *m, struct ksmbd_stats_snapshot *snap,
		    const struct kt_modstats *mod,
		    const struct kt_clients *listed, uint64_t now_ns);

/* Stable re-sort by col (insertion sort: rows are nearly sorted). */
void kt_model_sort(struct kt_model *m, enum kt_col col);

/* The row with this address, or NULL. */
struct kt_client *kt_model_find(const struct kt_model *m, const char *addr);

/* Column names and the key that sorts by each, for headers and help. */
const char *kt_col_name(enum kt_col col);
int kt_col_key(enum kt_col col);
/* The column sorted by key, or -1. */
int kt_col_by_key(int key);

/*
 * The per-command view of one client: indices of commands with requests,
 * ordered by interval count (then total count, then command number).
 * Returns how many were written to idx (at most KSMBD_STATS_NR_CMDS).
 */
size_t kt_client_cmd_order(const struct kt_client *c, unsigned int *idx);

#endif
