/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ksmbd.adduser and ksmbd.addshare share: the "PROG: message" error
 * line and the command line they have in common (-a/-u/-d NAME, -c CONF,
 * --pid-file PATH, -v, -V, -h), with each tool's own options handed to a
 * callback.
 */
#ifndef KSMBD_TOOL_H
#define KSMBD_TOOL_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

enum ksmbd_tool_op { KSMBD_TOOL_NONE, KSMBD_TOOL_ADD, KSMBD_TOOL_UPDATE,
		     KSMBD_TOOL_DELETE };

struct ksmbd_tool {
	/* set by the tool */
	const char *prog;		/* "ksmbd.adduser" */
	const char *noun;		/* "user": --add-user, --update-user, --del-user */
	void (*usage)(FILE *out);
	const char *own_short;		/* getopt letters of the tool's own options */
	const struct option *own_long;	/* and their long names; zero entry ends */
	/* one own option: 0, or 1 after printing an error */
	int (*own)(struct ksmbd_tool *t, int c, const char *arg);
	/* the result of ksmbd_tool_parse (conf_path keeps a preset default) */
	enum ksmbd_tool_op op;
	const char *name;		/* the USER or SHARE of -a/-u/-d */
	const char *conf_path;
	const char *pid_file;		/* the daemon's, told to reload after a change */
	bool verbose;
};

/* getopt value of --pid-file (long only). */
#define KSMBD_TOOL_OPT_PIDFILE	0x100

/* Prints "PROG: message" on stderr; returns 1. */
int ksmbd_tool_fail(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Parses argv: exactly one of -a/-u/-d, no operands. -V and -h print and
 * exit(0). Returns 0, or 1 after one error line.
 */
int ksmbd_tool_parse(struct ksmbd_tool *t, int argc, char **argv);

/* "added", "updated" or "deleted", for the -v line. */
const char *ksmbd_tool_done(enum ksmbd_tool_op op);

#endif
