// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.addshare: add, update or delete a share in ksmbd.conf. The file is
 * edited as text (comments and other sections stay as written), the result
 * is checked with the real parser, and only then replaces the file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "confedit.h"
#include "config.h"
#include "fileio.h"
#include "pidfile.h"
#include "tool.h"

#define PROG	"ksmbd.addshare"

#define fail(...)	ksmbd_tool_fail(PROG, __VA_ARGS__)

struct addshare_opts {
	struct ksmbd_tool t;	/* first: own_opt() gets &o->t */
	const char **options;	/* each "key = value", possibly several lines */
	size_t noptions;
};

static void usage(FILE *out)
{
	fputs("Usage: " PROG " {-a SHARE | -u SHARE} -o 'KEY = VALUE' [-o ...] [-c CONF] [-v]\n"
	      "       " PROG " -d SHARE [-c CONF] [-v]\n"
	      "       " PROG " {-h | -V}\n"
	      "\n"
	      "Add, change or remove a share in the ksmbd configuration.\n"
	      "\n"
	      "  -a, --add-share=SHARE     add SHARE (it must not exist; 'path' is required)\n"
	      "  -u, --update-share=SHARE  change keys of SHARE\n"
	      "  -d, --del-share=SHARE     remove SHARE and its keys\n"
	      "  -o, --options=OPTIONS     share parameters: 'key = value'; repeat -o,\n"
	      "                            or put several on separate lines of one -o\n"
	      "  -c, --config=CONF         configuration (default " KSMBD_CONFIG_PATH ")\n"
	      "      --pid-file=PATH       the running ksmbd.mountd's pid file (default\n"
	      "                            " KSMBD_PIDFILE_DEFAULT "); it is told to reload\n"
	      "  -v, --verbose             print warnings about the whole file, say what was done\n"
	      "  -V, --version             print the version\n"
	      "  -h, --help                print this help\n"
	      "\n"
	      "SHARE is case-insensitive, 1 to 63 characters, not 'global' or 'IPC$'.\n"
	      "A key already set in the share (or a synonym: 'writeable' for\n"
	      "'read only') is replaced in place; comments and other sections are kept.\n"
	      "The new file must pass the configuration checks, else nothing is written.\n"
	      "A running ksmbd.mountd then reloads it (SIGHUP), which is said in one line.\n"
	      "\n"
	      "Examples:\n"
	      "  " PROG " -a data -o 'path = /srv/data' -o 'read only = no'\n"
	      "  " PROG " -u data -o 'valid users = alice, @staff'\n"
	      "  " PROG " -d data -c /tmp/test.conf\n", out);
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Applies one "key = value" line of an -o argument. */
static int apply_option(struct ksmbd_confedit *ce, const char *share, char *line)
{
	char *eq = strchr(line, '='), *key, *value;
	int err;

	if (!*trim(line))
		return 0;
	if (!eq)
		return fail("option '%s' is not 'key = value'", trim(line));
	*eq = '\0';
	key = trim(line);
	value = trim(eq + 1);
	if (!*key)
		return fail("option with an empty key");
	/* ksmbd.conf would read the rest of the line as a comment. */
	if (strpbrk(value, ";#"))
		return fail("the value of '%s' contains '%c', which starts a comment in ksmbd.conf",
			    key, *strpbrk(value, ";#"));
	err = ksmbd_confedit_set(ce, share, key, value);
	if (err == -EINVAL)
		return fail("'%s' is not a share parameter (or its value is malformed)", key);
	if (err)
		return fail("cannot set '%s': %s", key, strerror(-err));
	return 0;
}

static int apply_options(struct ksmbd_confedit *ce, const struct addshare_opts *o)
{
	size_t i;

	for (i = 0; i < o->noptions; i++) {
		char *copy = strdup(o->options[i]), *line, *save = NULL;
		int rc = 0;

		if (!copy)
			return fail("out of memory");
		for (line = strtok_r(copy, "\n", &save); line && !rc;
		     line = strtok_r(NULL, "\n", &save))
			rc = apply_option(ce, o->t.name, line);
		free(copy);
		if (rc)
			return rc;
	}
	return 0;
}

static int edit(struct ksmbd_confedit *ce, const struct addshare_opts *o)
{
	bool exists = ksmbd_confedit_has_section(ce, o->t.name);
	int err;

	if (!strcasecmp(o->t.name, "global") || !strcasecmp(o->t.name, KSMBD_IPC_SHARE))
		return fail("[%s] is not a share that can be edited", o->t.name);
	switch (o->t.op) {
	case KSMBD_TOOL_ADD:
		if (exists)
			return fail("share '%s' already exists (use -u to change it)", o->t.name);
		err = ksmbd_confedit_add_section(ce, o->t.name);
		if (err)
			return fail("cannot add share '%s': %s", o->t.name,
				    err == -EINVAL ? "bad name" : strerror(-err));
		return apply_options(ce, o);
	case KSMBD_TOOL_UPDATE:
		if (!exists)
			return fail("share '%s' does not exist", o->t.name);
		return apply_options(ce, o);
	case KSMBD_TOOL_DELETE:
		if (ksmbd_confedit_delete_section(ce, o->t.name))
			return fail("share '%s' does not exist", o->t.name);
		return 0;
	case KSMBD_TOOL_NONE:
		break;
	}
	return 1;
}

/* The edited text must parse cleanly before it may replace the file. */
static int validate(const char *text, size_t len, const struct addshare_opts *o)
{
	struct ksmbd_diag *diag = ksmbd_diag_new();
	struct ksmbd_config *cfg;
	size_t i;

	if (!diag)
		return fail("out of memory");
	cfg = ksmbd_config_parse(text, len, o->t.conf_path, diag);
	for (i = 0; i < ksmbd_diag_count(diag); i++) {
		const char *line = ksmbd_diag_line(diag, i);

		if (!cfg || o->t.verbose)
			fprintf(stderr, "%s\n", line);
	}
	ksmbd_diag_free(diag);
	if (!cfg)
		return fail("the changed configuration would not be valid; %s is unchanged",
			    o->t.conf_path);
	ksmbd_config_free(cfg);
	return 0;
}

static int add_option(struct addshare_opts *o, const char *opt)
{
	const char **options = realloc(o->options, (o->noptions + 1) * sizeof(*options));

	if (!options)
		return fail("out of memory");
	options[o->noptions++] = opt;
	o->options = options;
	return 0;
}

static int own_opt(struct ksmbd_tool *t, int c, const char *arg)
{
	(void)c;	/* only -o */
	return add_option((struct addshare_opts *)t, arg);
}

static int parse_args(int argc, char **argv, struct addshare_opts *o)
{
	static const struct option own_long[] = {
		{ "options", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};

	o->t.prog = PROG;
	o->t.noun = "share";
	o->t.usage = usage;
	o->t.own_short = "o:";
	o->t.own_long = own_long;
	o->t.own = own_opt;
	if (ksmbd_tool_parse(&o->t, argc, argv))
		return 1;
	if (o->t.op == KSMBD_TOOL_DELETE && o->noptions)
		return fail("-o makes no sense with -d");
	if (o->t.op != KSMBD_TOOL_DELETE && !o->noptions)
		return fail("-a and -u need parameters given with -o");
	return 0;
}

/* The current text; a missing file is an empty one when adding. */
static int read_conf(const struct addshare_opts *o, char **text, size_t *len,
		     mode_t *mode)
{
	struct stat st;
	int err;

	*mode = 0644;
	err = ksmbd_read_file(o->t.conf_path, KSMBD_CONFIG_MAX_BYTES, text, len);
	if (err == -ENOENT && o->t.op == KSMBD_TOOL_ADD) {
		*text = strdup("");
		*len = 0;
		return *text ? 0 : fail("out of memory");
	}
	if (err)
		return fail("cannot read %s: %s", o->t.conf_path, strerror(-err));
	if (memchr(*text, '\0', *len)) {
		free(*text);
		return fail("%s contains NUL bytes; not editing it", o->t.conf_path);
	}
	if (!stat(o->t.conf_path, &st))
		*mode = st.st_mode & 07777;
	return 0;
}

int main(int argc, char **argv)
{
	struct addshare_opts o = {
		.t.conf_path = KSMBD_CONFIG_PATH,
		.t.pid_file = KSMBD_PIDFILE_DEFAULT,
	};
	struct ksmbd_confedit *ce = NULL;
	char *text = NULL, *out = NULL;
	size_t len, out_len;
	mode_t mode;
	int rc = 1, err;

	if (parse_args(argc, argv, &o) || read_conf(&o, &text, &len, &mode))
		goto out;
	ce = ksmbd_confedit_new(text, len);
	if (!ce) {
		fail("out of memory");
		goto out;
	}
	if (edit(ce, &o))
		goto out;
	out = ksmbd_confedit_text(ce, &out_len);
	if (!out) {
		fail("out of memory");
		goto out;
	}
	if (validate(out, out_len, &o))
		goto out;
	err = ksmbd_write_file_atomic(o.t.conf_path, out, out_len, mode);
	if (err) {
		fail("cannot write %s: %s", o.t.conf_path, strerror(-err));
		goto out;
	}
	if (o.t.verbose)
		printf("%s share '%s' in %s\n", ksmbd_tool_done(o.t.op), o.t.name,
		       o.t.conf_path);
	rc = ksmbd_daemon_reload(PROG, o.t.pid_file);
out:
	free(out);
	ksmbd_confedit_free(ce);
	free(text);
	free(o.options);
	return rc;
}
