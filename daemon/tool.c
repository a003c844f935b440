// SPDX-License-Identifier: GPL-2.0
/* The command line and error line ksmbd.adduser and ksmbd.addshare share. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define OWN_MAX	8	/* long options a tool may add */

int ksmbd_tool_fail(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

const char *ksmbd_tool_done(enum ksmbd_tool_op op)
{
	return op == KSMBD_TOOL_ADD ? "added" :
	       op == KSMBD_TOOL_UPDATE ? "updated" : "deleted";
}

static int set_op(struct ksmbd_tool *t, int c, const char *name)
{
	if (t->op != KSMBD_TOOL_NONE)
		return ksmbd_tool_fail(t->prog, "give only one of -a, -u and -d");
	t->op = c == 'a' ? KSMBD_TOOL_ADD :
		c == 'u' ? KSMBD_TOOL_UPDATE : KSMBD_TOOL_DELETE;
	t->name = name;
	return 0;
}

/* One option; 0, or 1 after an error line. */
static int one(struct ksmbd_tool *t, int c, char **argv)
{
	switch (c) {
	case 'a':
	case 'u':
	case 'd':
		return set_op(t, c, optarg);
	case 'c':
		t->conf_path = optarg;
		return 0;
	case KSMBD_TOOL_OPT_PIDFILE:
		t->pid_file = optarg;
		return 0;
	case 'v':
		t->verbose = true;
		return 0;
	case 'V':
		printf("%s (ksmbd) %s\n", t->prog, KSMBD_VERSION);
		exit(0);
	case 'h':
		t->usage(stdout);
		exit(0);
	}
	if (c != '?' && c != ':' && t->own && t->own_short && strchr(t->own_short, c))
		return t->own(t, c, optarg);
	return ksmbd_tool_fail(t->prog, "bad option '%s' (see --help)",
			       argv[optind - 1]);
}

int ksmbd_tool_parse(struct ksmbd_tool *t, int argc, char **argv)
{
	char add[40], update[40], del[40], shortopts[40];
	struct option longopts[8 + OWN_MAX + 1] = {
		{ add, required_argument, NULL, 'a' },
		{ update, required_argument, NULL, 'u' },
		{ del, required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "pid-file", required_argument, NULL, KSMBD_TOOL_OPT_PIDFILE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
	};
	size_t n = 8;
	int c;

	snprintf(add, sizeof(add), "add-%s", t->noun);
	snprintf(update, sizeof(update), "update-%s", t->noun);
	snprintf(del, sizeof(del), "del-%s", t->noun);
	snprintf(shortopts, sizeof(shortopts), "a:u:d:c:vVh%s",
		 t->own_short ? t->own_short : "");
	for (; t->own_long && t->own_long[n - 8].name && n < 8 + OWN_MAX; n++)
		longopts[n] = t->own_long[n - 8];

	opterr = 0;	/* one error line, ours */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
		if (one(t, c, argv))
			return 1;
	if (optind < argc)
		return ksmbd_tool_fail(t->prog, "unexpected argument '%s'", argv[optind]);
	if (t->op == KSMBD_TOOL_NONE)
		return ksmbd_tool_fail(t->prog, "one of -a, -u or -d is needed (see --help)");
	return 0;
}
