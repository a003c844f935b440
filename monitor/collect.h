/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where ksmbdtop's numbers come from: the BPF statistics (libksmbdstats,
 * its own programs or the maps `ksmbd-lat --pin` left) and the module's
 * /sys/class/ksmbd-control/stats. Without BPF the monitor still runs on the
 * module's counters ("degraded"), and says why in the header.
 */
#ifndef KSMBDTOP_COLLECT_H
#define KSMBDTOP_COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "clients.h"
#include "libksmbdstats.h"
#include "modstats.h"

enum kt_source {
	KT_SOURCE_AUTO,		/* pinned maps when present, else load */
	KT_SOURCE_PINNED,	/* pinned maps only */
	KT_SOURCE_LOAD,		/* always load our own programs */
	KT_SOURCE_NONE,		/* module counters only */
};

/* Exit statuses, documented in --help. */
enum kt_exit {
	KT_EXIT_OK = 0,
	KT_EXIT_FAIL = 1,
	KT_EXIT_USAGE = 2,
	KT_EXIT_NOT_ROOT = 3,
	KT_EXIT_NO_MODULE = 4,
	KT_EXIT_NO_BPF = 5,	/* only when BPF was required (-P) */
};

struct kt_collect {
	struct ksmbd_stats *bpf;	/* NULL: degraded */
	const char *modstats_path;
	const char *clients_path;	/* the module's client listing */
	char bpf_err[KSMBD_STATS_ERR_LEN];	/* why bpf is NULL */
};

/*
 * Checks root and the module, then opens the BPF source. Returns a
 * kt_exit status; on failure err holds one line. A BPF failure with
 * KT_SOURCE_AUTO or _LOAD is not a failure: c->bpf stays NULL and
 * c->bpf_err says why.
 */
int kt_collect_open(struct kt_collect *c, enum kt_source src, bool verbose,
		    char *err, size_t errlen);
void kt_collect_close(struct kt_collect *c);

/*
 * One sample. *snap is filled when BPF is open (have_snap), *mod when the
 * module's file could be read (have_mod), *listed when the module's client
 * listing could be (have_listed: root only; free it with kt_clients_free);
 * now_ns is CLOCK_MONOTONIC.
 * Returns 0, or a negative errno when the BPF read failed (mod is still
 * valid then).
 */
int kt_collect_sample(struct kt_collect *c, struct ksmbd_stats_snapshot *snap,
		      bool *have_snap, struct kt_modstats *mod, bool *have_mod,
		      struct kt_clients *listed, bool *have_listed,
		      uint64_t *now_ns);

#endif
