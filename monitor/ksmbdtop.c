// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksmbdtop: a live, top-like monitor of the ksmbd SMB3 server.
 *
 * collect (BPF statistics + the module's counters) -> model (deltas, rates,
 * percentiles) -> sort -> view (curses, or batch text / JSON).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "view.h"

/* Set by signal handlers: the one piece of global state with a reason. */
static volatile sig_atomic_t stop_requested;

bool kt_stop_requested(void)
{
	return stop_requested != 0;
}

void kt_sleep(double secs)
{
	double left = secs;

	/* in slices, so that Ctrl-C ends a long delay promptly */
	while (left > 0 && !stop_requested) {
		double step = left < 0.1 ? left : 0.1;
		struct timespec ts = {
			.tv_sec = (time_t)step,
			.tv_nsec = (long)((step - (double)(time_t)step) * 1e9),
		};

		nanosleep(&ts, NULL);
		left -= step;
	}
}

int kt_tick(struct kt_ctx *ctx)
{
	struct ksmbd_stats_snapshot snap = { 0 };
	struct kt_clients listed;
	struct kt_modstats mod;
	bool have_snap, have_mod, have_listed;
	uint64_t now;
	int ret;

	ret = kt_collect_sample(&ctx->col, &snap, &have_snap, &mod, &have_mod,
				&listed, &have_listed, &now);
	if (!ctx->col.bpf)
		snprintf(ctx->note, sizeof(ctx->note),
			 "BPF unavailable (%s): showing the module's own counters",
			 ctx->col.bpf_err);
	else if (ret)
		snprintf(ctx->note, sizeof(ctx->note), "BPF read failed: %s",
			 ctx->col.bpf_err);
	else if (!have_mod)
		snprintf(ctx->note, sizeof(ctx->note),
			 "module counters unreadable (%s)",
			 ctx->col.modstats_path);
	else
		ctx->note[0] = '\0';
	ctx->model.sort_col = ctx->opts.sort_col;
	ret = kt_model_update(&ctx->model, have_snap ? &snap : NULL,
			      have_mod ? &mod : NULL,
			      have_listed ? &listed : NULL, now);
	kt_clients_free(&listed);
	return ret;
}

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/*
 * A crash must not leave the terminal raw: restore it, then die of the
 * same signal with the default action (endwin is not async-signal-safe,
 * but the process is about to end either way).
 */
static void on_fatal(int sig)
{
	kt_curses_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ksmbdtop [-b] [-j] [-d SECS] [-n COUNT] [-s KEY] [-P | -L | -N] [-v]\n"
"Live view of the ksmbd SMB3 server: per-client requests, throughput,\n"
"latency and credits from the BPF statistics, plus the module's counters.\n"
"\n"
"  -b, --batch        plain-text frames on stdout (default when stdout\n"
"                     is not a terminal)\n"
"  -j, --json         batch mode, one JSON object per interval (-J too)\n"
"  -d, --delay SECS   seconds between updates (default 2)\n"
"  -n, --iterations N stop after N updates\n"
"  -s, --sort KEY     initial sort key (r requests/s, w write, R read,\n"
"                     l p99 latency, ...; see h in the interactive view)\n"
"  -P, --pinned       read the maps `ksmbd-lat --pin` pinned (required)\n"
"  -L, --load         always load our own BPF programs\n"
"  -N, --no-bpf       module counters only\n"
"  -v, --verbose      libbpf's debug messages on stderr\n"
"      --stats-file F read the module's counters from F instead of\n"
"                     " KT_MODSTATS_PATH " (tests)\n"
"  -V, --version      print the version\n"
"  -h, --help         this help\n"
"\n"
"-j, -s, -P and -v mean what they mean to ksmbd-lat.\n"
"Without BPF (no BTF, not permitted, no programs) ksmbdtop runs on the\n"
"module's own counters and says so in the header.\n"
"\n"
"Exit status: 0 ok, 1 failure, 2 usage, 3 not root (without -N), 4 ksmbd module not\n"
"loaded, 5 pinned maps required (-P) but unavailable.\n"
"\n"
"Examples:\n"
"  ksmbdtop                      interactive\n"
"  ksmbdtop -b -n 3 -d 1         three text frames, one second apart\n"
"  ksmbdtop -j -n 5 | jq .clients\n");
}

static int parse_args(int argc, char **argv, struct kt_opts *o)
{
	static const struct option longopts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "sort", required_argument, NULL, 's' },
		{ "pinned", no_argument, NULL, 'P' },
		{ "load", no_argument, NULL, 'L' },
		{ "no-bpf", no_argument, NULL, 'N' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "stats-file", required_argument, NULL, 'S' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int ch, col;

	while ((ch = getopt_long(argc, argv, "bjJd:n:s:PLNvVh", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'b':
			o->batch = true;
			break;
		case 'j':
		case 'J':	/* the first spelling; kept for scripts */
			o->batch = true;
			o->json = true;
			break;
		case 'd':
			o->delay_s = strtod(optarg, &end);
			if (*end || !(o->delay_s >= 0.1 && o->delay_s <= 3600)) {
				fprintf(stderr, "ksmbdtop: -d wants 0.1 to 3600 seconds\n");
				return KT_EXIT_USAGE;
			}
			break;
		case 'n':
			errno = 0;
			o->count = strtol(optarg, &end, 10);
			if (errno || *end || o->count < 1) {
				fprintf(stderr, "ksmbdtop: -n wants a positive count\n");
				return KT_EXIT_USAGE;
			}
			break;
		case 's':
			col = optarg[0] && !optarg[1] ? kt_col_by_key(optarg[0]) : -1;
			if (col < 0) {
				fprintf(stderr, "ksmbdtop: unknown sort key '%s'\n",
					optarg);
				return KT_EXIT_USAGE;
			}
			o->sort_col = (enum kt_col)col;
			break;
		case 'P':
			o->source = KT_SOURCE_PINNED;
			break;
		case 'L':
			o->source = KT_SOURCE_LOAD;
			break;
		case 'N':
			o->source = KT_SOURCE_NONE;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'S':
			o->stats_path = optarg;
			break;
		case 'V':
			printf("ksmbdtop %s\n", KSMBD_VERSION);
			exit(KT_EXIT_OK);
		case 'h':
			usage(stdout);
			exit(KT_EXIT_OK);
		default:
			usage(stderr);
			return KT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ksmbdtop: unexpected argument '%s'\n",
			argv[optind]);
		return KT_EXIT_USAGE;
	}
	return KT_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct kt_ctx ctx = {
		.opts = {
			.delay_s = 2.0,
			.count = -1,
			.sort_col = KT_COL_REQS,
			.source = KT_SOURCE_AUTO,
		},
	};
	char err[KT_LINE_MAX];
	const struct kt_view *view;
	int ret;

	ret = parse_args(argc, argv, &ctx.opts);
	if (ret)
		return ret;
	if (!isatty(STDOUT_FILENO))
		ctx.opts.batch = true;
	view = ctx.opts.batch ? &kt_view_batch : &kt_view_curses;
	kt_model_init(&ctx.model);
	ctx.col.modstats_path = ctx.opts.stats_path;
	ret = kt_collect_open(&ctx.col, ctx.opts.source, ctx.opts.verbose,
			      err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return ret;
	}
	install_signals();
	if (view->init(&ctx)) {
		fprintf(stderr, "ksmbdtop: cannot start the %s view\n",
			ctx.opts.batch ? "batch" : "terminal");
		ret = KT_EXIT_FAIL;
		goto out_close;
	}
	ret = view->loop(&ctx);
	view->fini(&ctx);
out_close:
	kt_collect_close(&ctx.col);
	kt_model_fini(&ctx.model);
	return ret;
}
