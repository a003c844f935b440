/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ksmbd-lat's text rendering, split from the CLI's main loop so that host
 * unit tests can render fake snapshots.
 */
#ifndef KSMBD_LAT_H
#define KSMBD_LAT_H

#include <stdbool.h>
#include <stdio.h>

#include "libksmbdstats.h"

struct ksmbd_lat_view {
	bool per_client;	/* -C */
	bool per_cmd;		/* -c */
	bool credits;		/* -k */
	bool json;		/* -j */
	bool timestamp;		/* -T */
	char sort;		/* -s: ksmbdtop's key letter, 0 = as read */
};

/*
 * The sort keys -s takes, with ksmbdtop's letters and meanings: a address,
 * u user, r requests, e errors, L average, m p50, l p99 latency, c credits
 * charged. The text views list clients and commands in that order
 * (largest first, address and user alphabetical); JSON keeps map order.
 */
#define KSMBD_LAT_SORT_KEYS	"aureLmlc"

#define KSMBD_LAT_STARS	40

/* One interval (a delta snapshot) in the view's format. */
void ksmbd_lat_print(FILE *f, const struct ksmbd_lat_view *v,
		     const struct ksmbd_stats_snapshot *d);

/* The credit table (-k): one line per client. */
void ksmbd_lat_print_credits(FILE *f, const struct ksmbd_stats_snapshot *d);

#endif
