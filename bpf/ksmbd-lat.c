// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksmbd-lat: SMB2 request latency of the in-kernel ksmbd server, as log2
 * histograms per client, per command or both, with the credit table; or
 * the pinned mode that leaves the programs attached for bpftool.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksmbd_lat.h"

enum lat_mode { MODE_TRACE, MODE_PIN, MODE_UNPIN, MODE_STATUS };

struct lat_env {
	struct ksmbd_lat_view view;
	enum lat_mode mode;
	bool verbose;
	bool pinned;		/* the pinned maps or nothing (default: them if
				 * pinned, else load our own copy) */
	long interval;		/* seconds */
	long count;		/* intervals; 0 = until Ctrl-C */
	int nargs;
};

enum { OPT_PIN = 256, OPT_UNPIN, OPT_STATUS };

const char *argp_program_version = "ksmbd-lat " KSMBD_VERSION;
static const char doc[] =
"Summarize ksmbd SMB2 request latency as histograms.\n"
"\n"
"USAGE: ksmbd-lat [-C] [-c] [-k] [-s KEY] [-j] [-T] [-v] [-P]\n"
"                 [--pin | --unpin | --status] [interval [count]]\n"
"\n"
"-j, -s, -P and -v mean what they mean to ksmbdtop.\n"
"\n"
"EXAMPLES:\n"
"    ksmbd-lat               # all requests, histogram printed at Ctrl-C\n"
"    ksmbd-lat 1 10          # print 1 second summaries, 10 times\n"
"    ksmbd-lat -C            # a histogram per client (address, session)\n"
"    ksmbd-lat -c            # a histogram per SMB2 command\n"
"    ksmbd-lat -C -c         # per client, per command\n"
"    ksmbd-lat -C -s l       # clients by p99 latency, slowest first\n"
"    ksmbd-lat -k 5          # the credit table every 5 seconds\n"
"    ksmbd-lat -j 1 3        # one JSON object per second, 3 times\n"
"    ksmbd-lat --pin         # attach and pin under /sys/fs/bpf/ksmbd, exit\n"
"    ksmbd-lat -P -C         # the pinned maps only (without -P,\n"
"                            # they are used whenever something is pinned)\n"
"    ksmbd-lat --unpin       # detach and remove /sys/fs/bpf/ksmbd";

static const struct argp_option opts[] = {
	{ "clients", 'C', NULL, 0, "Print a histogram per client", 0 },
	{ "commands", 'c', NULL, 0, "Print a histogram per SMB2 command", 0 },
	{ "credits", 'k', NULL, 0, "Print the credit table", 0 },
	{ "sort", 's', "KEY", 0,
	  "Order clients and commands by KEY (ksmbdtop's letters): a address, u user, r requests, e errors, L avg, m p50, l p99, c credits", 0 },
	{ "json", 'j', NULL, 0, "One JSON object per interval", 0 },
	{ "timestamp", 'T', NULL, 0, "Include a timestamp on output", 0 },
	{ "verbose", 'v', NULL, 0, "Verbose debug output (libbpf)", 0 },
	{ "pin", OPT_PIN, NULL, 0,
	  "Load, attach and pin under " KSMBD_STATS_PIN_DIR ", then exit", 0 },
	{ "unpin", OPT_UNPIN, NULL, 0,
	  "Remove everything under " KSMBD_STATS_PIN_DIR, 0 },
	{ "status", OPT_STATUS, NULL, 0, "Show what is pinned", 0 },
	{ "pinned", 'P', NULL, 0, "Read the pinned maps only", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help", 0 },
	{ 0 },
};

static long parse_positive(const char *arg, struct argp_state *state)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || v <= 0)
		argp_error(state, "invalid number: %s", arg);
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct lat_env *env = state->input;

	switch (key) {
	case 'C': env->view.per_client = true; break;
	case 'c': env->view.per_cmd = true; break;
	case 'k': env->view.credits = true; break;
	case 's':
		if (!arg[0] || arg[1] || !strchr(KSMBD_LAT_SORT_KEYS, arg[0]))
			argp_error(state, "unknown sort key '%s' (one of %s)", arg,
				   KSMBD_LAT_SORT_KEYS);
		env->view.sort = arg[0];
		break;
	case 'j': env->view.json = true; break;
	case 'T': env->view.timestamp = true; break;
	case 'v': env->verbose = true; break;
	case OPT_PIN: env->mode = MODE_PIN; break;
	case OPT_UNPIN: env->mode = MODE_UNPIN; break;
	case OPT_STATUS: env->mode = MODE_STATUS; break;
	case 'P': env->pinned = true; break;
	case 'h': argp_state_help(state, stderr, ARGP_HELP_STD_HELP); break;
	case ARGP_KEY_ARG:
		if (env->nargs == 0)
			env->interval = parse_positive(arg, state);
		else if (env->nargs == 1)
			env->count = parse_positive(arg, state);
		else
			argp_usage(state);
		env->nargs++;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Set by SIGINT/SIGTERM; the loop prints the last interval and exits. */
static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

static int fail(const char *what, const char *msg)
{
	fprintf(stderr, "ksmbd-lat: %s%s%s\n", what, *what ? ": " : "", msg);
	return 1;
}

static int print_interval(struct ksmbd_stats *s, const struct lat_env *env,
			  struct ksmbd_stats_snapshot *prev)
{
	struct ksmbd_stats_snapshot cur, delta;
	char err[KSMBD_STATS_ERR_LEN];

	if (ksmbd_stats_read(s, &cur, err, sizeof(err)))
		return fail("", err);
	if (ksmbd_stats_snapshot_delta(&cur, prev, &delta)) {
		ksmbd_stats_snapshot_free(&cur);
		return fail("", "out of memory");
	}
	ksmbd_lat_print(stdout, &env->view, &delta);
	fflush(stdout);
	ksmbd_stats_snapshot_free(&delta);
	ksmbd_stats_snapshot_free(prev);
	*prev = cur;
	return 0;
}

static int trace_loop(struct ksmbd_stats *s, const struct lat_env *env)
{
	struct ksmbd_stats_snapshot prev;
	char err[KSMBD_STATS_ERR_LEN];
	long done = 0;
	int ret = 0;

	/* A pinned map has history: intervals count from now. */
	if (ksmbd_stats_read(s, &prev, err, sizeof(err)))
		return fail("", err);
	/* stderr, so that -j's stdout stays pure JSON; tests wait for it. */
	fprintf(stderr, "Tracing ksmbd requests... Hit Ctrl-C to end.\n");
	while (!exiting && !ret) {
		unsigned int left = (unsigned int)env->interval;

		while (left && !exiting)
			left = sleep(left);
		ret = print_interval(s, env, &prev);
		if (env->count && ++done >= env->count)
			break;
	}
	ksmbd_stats_snapshot_free(&prev);
	return ret;
}

static int run(const struct lat_env *env)
{
	struct ksmbd_stats_opts o = { .verbose = env->verbose };
	char err[KSMBD_STATS_ERR_LEN];
	struct ksmbd_stats *s;
	int ret;

	if (env->mode == MODE_UNPIN)
		return ksmbd_stats_unpin(NULL, err, sizeof(err)) ?
		       fail("unpin", err) : 0;
	if (env->mode == MODE_STATUS) {
		ret = ksmbd_stats_pin_status(NULL, stdout, err, sizeof(err));
		if (ret < 0)
			return fail("status", err);
		if (!ret)
			printf("nothing pinned under %s\n", KSMBD_STATS_PIN_DIR);
		return 0;
	}
	if (env->mode != MODE_TRACE)
		ret = ksmbd_stats_open(&s, &o, err, sizeof(err));
	else if (env->pinned)
		ret = ksmbd_stats_open_pinned(&s, NULL, err, sizeof(err));
	else	/* share the pinned programs rather than run a second copy */
		ret = ksmbd_stats_open_auto(&s, &o, err, sizeof(err));
	if (ret)
		return fail("", err);
	if (env->mode == MODE_PIN) {
		ret = ksmbd_stats_pin(s, NULL, err, sizeof(err));
		if (ret)
			fail("pin", err);
		else
			printf("pinned under %s\n", KSMBD_STATS_PIN_DIR);
		ksmbd_stats_close(s);
		return ret ? 1 : 0;
	}
	ret = trace_loop(s, env);
	ksmbd_stats_close(s);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts, .parser = parse_arg, .doc = doc,
		.args_doc = "[interval [count]]",
	};
	struct lat_env env = { .interval = 99999999 };
	struct sigaction sa = { .sa_handler = on_signal };
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, &env);
	if (err)
		return 1;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return run(&env);
}
