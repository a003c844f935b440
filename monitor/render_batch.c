// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Batch view: frames on stdout for scripts, tests and logs (-b, -J),
 * chosen automatically when stdout is not a terminal. The frames' text is
 * batch_format.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include "view.h"

static int batch_init(struct kt_ctx *ctx)
{
	/* the first sample is the baseline of the first interval */
	return kt_tick(ctx);
}

static int batch_loop(struct kt_ctx *ctx)
{
	long i;

	for (i = 0; ctx->opts.count < 0 || i < ctx->opts.count; i++) {
		kt_sleep(ctx->opts.delay_s);
		if (kt_stop_requested())
			break;
		if (kt_tick(ctx) == -ENOMEM) {
			fprintf(stderr, "ksmbdtop: out of memory\n");
			return KT_EXIT_FAIL;
		}
		if (ctx->opts.json)
			kt_batch_json(stdout, &ctx->model, ctx->note,
				      time(NULL));
		else
			kt_batch_text(stdout, &ctx->model, ctx->note,
				      time(NULL));
		if (fflush(stdout) == EOF)
			return KT_EXIT_FAIL;	/* reader went away */
	}
	return KT_EXIT_OK;
}

static void batch_fini(struct kt_ctx *ctx)
{
	(void)ctx;
	fflush(stdout);
}

const struct kt_view kt_view_batch = {
	.init = batch_init,
	.loop = batch_loop,
	.fini = batch_fini,
};
