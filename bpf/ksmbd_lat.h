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
	bool credits;		/* -s */
	bool json;		/* -j */
	bool timestamp;		/* -T */
};

#define KSMBD_LAT_STARS	40

/* One interval (a delta snapshot) in the view's format. */
void ksmbd_lat_print(FILE *f, const struct ksmbd_lat_view *v,
		     const struct ksmbd_stats_snapshot *d);

/* The credit table (-s): one line per client. */
void ksmbd_lat_print_credits(FILE *f, const struct ksmbd_stats_snapshot *d);

#endif
