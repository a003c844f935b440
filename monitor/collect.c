// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksmbdtop's data sources: the BPF statistics and the module's counters.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "collect.h"

/*
 * Pinned maps first: they are already attached and shared with ksmbd-lat,
 * so two monitors do not load two copies of the programs.
 */
static int open_bpf(struct kt_collect *c, enum kt_source src, bool verbose)
{
	struct ksmbd_stats_opts o = { .verbose = verbose };

	if (src == KT_SOURCE_PINNED)
		return ksmbd_stats_open_pinned(&c->bpf, NULL, c->bpf_err,
					       sizeof(c->bpf_err));
	if (src == KT_SOURCE_AUTO)
		return ksmbd_stats_open_auto(&c->bpf, &o, c->bpf_err,
					     sizeof(c->bpf_err));
	return ksmbd_stats_open(&c->bpf, &o, c->bpf_err, sizeof(c->bpf_err));
}

int kt_collect_open(struct kt_collect *c, enum kt_source src, bool verbose,
		    char *err, size_t errlen)
{
	struct kt_modstats mod;
	int ret;

	if (!c->modstats_path)
		c->modstats_path = KT_MODSTATS_PATH;
	if (!c->clients_path)
		c->clients_path = KT_CLIENTS_PATH;
	c->bpf = NULL;
	c->bpf_err[0] = '\0';
	/* The counters file is world-readable (no secrets in it); BPF is not. */
	if (src != KT_SOURCE_NONE && geteuid() != 0) {
		snprintf(err, errlen,
			 "ksmbdtop: must be run as root for BPF (-N shows the module's counters without it)");
		return KT_EXIT_NOT_ROOT;
	}
	ret = kt_modstats_read(c->modstats_path, &mod);
	if (ret == -ENOENT) {
		snprintf(err, errlen,
			 "ksmbdtop: ksmbd module not loaded (%s not found)",
			 c->modstats_path);
		return KT_EXIT_NO_MODULE;
	}
	if (ret) {
		snprintf(err, errlen, "ksmbdtop: cannot read %s: %s",
			 c->modstats_path, strerror(-ret));
		return KT_EXIT_FAIL;
	}
	if (src == KT_SOURCE_NONE) {
		snprintf(c->bpf_err, sizeof(c->bpf_err), "BPF not requested");
		return KT_EXIT_OK;
	}
	ret = open_bpf(c, src, verbose);
	if (ret) {
		c->bpf = NULL;
		if (src == KT_SOURCE_PINNED) {
			snprintf(err, errlen, "ksmbdtop: %s", c->bpf_err);
			return KT_EXIT_NO_BPF;
		}
	}
	return KT_EXIT_OK;
}

void kt_collect_close(struct kt_collect *c)
{
	if (c->bpf)
		ksmbd_stats_close(c->bpf);
	c->bpf = NULL;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int kt_collect_sample(struct kt_collect *c, struct ksmbd_stats_snapshot *snap,
		      bool *have_snap, struct kt_modstats *mod, bool *have_mod,
		      struct kt_clients *listed, bool *have_listed,
		      uint64_t *now_ns)
{
	int ret = 0;

	*have_snap = false;
	*now_ns = monotonic_ns();
	*have_mod = !kt_modstats_read(c->modstats_path, mod);
	/* -N without root cannot read it: no client rows then, as before */
	*have_listed = !kt_clients_read(c->clients_path, listed);
	if (!c->bpf)
		return 0;
	memset(snap, 0, sizeof(*snap));
	ret = ksmbd_stats_read(c->bpf, snap, c->bpf_err, sizeof(c->bpf_err));
	if (ret)
		ksmbd_stats_snapshot_free(snap);
	else
		*have_snap = true;
	return ret;
}
