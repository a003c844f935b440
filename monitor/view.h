/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two views of ksmbdtop (curses and batch) share this context and the
 * tick that feeds the model; each implements init/loop/fini.
 */
#ifndef KSMBDTOP_VIEW_H
#define KSMBDTOP_VIEW_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include "collect.h"
#include "format.h"
#include "model.h"

struct kt_opts {
	double delay_s;		/* between updates */
	long count;		/* updates to show; < 0: until stopped */
	bool batch;
	bool json;
	bool verbose;
	enum kt_col sort_col;
	enum kt_source source;
	const char *stats_path;	/* NULL: the module's sysfs file */
};

struct kt_ctx {
	struct kt_opts opts;
	struct kt_collect col;
	struct kt_model model;
	char note[KT_LINE_MAX];	/* shown under the header, may be empty */
};

struct kt_view {
	int (*init)(struct kt_ctx *ctx);
	/* Returns the process exit status. */
	int (*loop)(struct kt_ctx *ctx);
	void (*fini)(struct kt_ctx *ctx);
};

extern const struct kt_view kt_view_batch;
extern const struct kt_view kt_view_curses;

/* Collect once and feed the model. 0 or a negative errno. */
int kt_tick(struct kt_ctx *ctx);
/* SIGINT/SIGTERM arrived. */
bool kt_stop_requested(void);
/* Leaves curses mode if the screen is in it; safe to call twice. */
void kt_curses_restore(void);
/* Sleeps up to secs, returning early when a stop is requested. */
void kt_sleep(double secs);

/* One frame of batch output; both are host-tested. */
void kt_batch_text(FILE *f, const struct kt_model *m, const char *note,
		   time_t now);
void kt_batch_json(FILE *f, const struct kt_model *m, const char *note,
		   time_t now);

#endif
