// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Live-object counters and totals. Every layer counts here; stats_show.c,
 * above all of them, prints them.
 */
#include "stats.h"

struct ksmbd_stats ksmbd_stats;

long ksmbd_stats_live_sum(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < KSMBD_LIVE_NR; i++)
		sum += atomic_long_read(&ksmbd_stats.live[i]);
	return sum;
}
