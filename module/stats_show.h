/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KSMBD_STATS_SHOW_H
#define KSMBD_STATS_SHOW_H

#include <linux/types.h>

/* The stats file's text: one "key value" pair per line, into buf. */
int ksmbd_stats_show(char *buf, size_t size);

#endif
