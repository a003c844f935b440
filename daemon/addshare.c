// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.addshare: add, update or delete a share in ksmbd.conf. The file is
 * edited as text (comments and other sections stay as written), the result
 * is checked with the real parser, and only then replaces the file.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "confedit.h"
#include "config.h"
#include "fileio.h"

#define PROG	"ksmbd.addshare"

enum share_op { OP_NONE, OP_ADD, OP_UPDATE, OP_DELETE };

struct addshare_opts {
	enum share_op op;
	const char *share;
	const char *conf_path;
	const char **options;	/* each "key = value", possibly several lines */
	size_t noptions;
	bool verbose;
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
	      "  -v, --verbose             print warnings about the whole file, say what was done\n"
	      "  -V, --version             print the version\n"
	      "  -h, --help                print this help\n"
	      "\n"
	      "SHARE is case-insensitive, 1 to 63 characters, not 'global' or 'IPC$'.\n"
	      "A key already set in the share (or a synonym: 'writeable' for\n"
	      "'read only') is replaced in place; comments and other sections are kept.\n"
	      "The new file must pass the configuration checks, else nothing is written.\n"
	      "\n"
	      "Examples:\n"
	      "  " PROG " -a data -o 'path = /srv/data' -o 'read only = no'\n"
	      "  " PROG " -u data -o 'valid users = alice, @staff'\n"
	      "  " PROG " -d data -c /tmp/test.conf\n", out);
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
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
			rc = apply_option(ce, o->share, line);
		free(copy);
		if (rc)
			return rc;
	}
	return 0;
}

static int edit(struct ksmbd_confedit *ce, const struct addshare_opts *o)
{
	bool exists = ksmbd_confedit_has_section(ce, o->share);
	int err;

	if (!strcasecmp(o->share, "global") || !strcasecmp(o->share, KSMBD_IPC_SHARE))
		return fail("[%s] is not a share that can be edited", o->share);
	switch (o->op) {
	case OP_ADD:
		if (exists)
			return fail("share '%s' already exists (use -u to change it)", o->share);
		err = ksmbd_confedit_add_section(ce, o->share);
		if (err)
			return fail("cannot add share '%s': %s", o->share,
				    err == -EINVAL ? "bad name" : strerror(-err));
		return apply_options(ce, o);
	case OP_UPDATE:
		if (!exists)
			return fail("share '%s' does not exist", o->share);
		return apply_options(ce, o);
	case OP_DELETE:
		if (ksmbd_confedit_delete_section(ce, o->share))
			return fail("share '%s' does not exist", o->share);
		return 0;
	case OP_NONE:
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
	cfg = ksmbd_config_parse(text, len, o->conf_path, diag);
	for (i = 0; i < ksmbd_diag_count(diag); i++) {
		const char *line = ksmbd_diag_line(diag, i);

		if (!cfg || o->verbose)
			fprintf(stderr, "%s\n", line);
	}
	ksmbd_diag_free(diag);
	if (!cfg)
		return fail("the changed configuration would not be valid; %s is unchanged",
			    o->conf_path);
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

static int parse_args(int argc, char **argv, struct addshare_opts *o)
{
	static const struct option longopts[] = {
		{ "add-share", required_argument, NULL, 'a' },
		{ "update-share", required_argument, NULL, 'u' },
		{ "del-share", required_argument, NULL, 'd' },
		{ "options", required_argument, NULL, 'o' },
		{ "config", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;	/* one error line, ours */
	while ((c = getopt_long(argc, argv, "a:u:d:o:c:vVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
		case 'u':
		case 'd':
			if (o->op != OP_NONE)
				return fail("give only one of -a, -u and -d");
			o->op = c == 'a' ? OP_ADD : c == 'u' ? OP_UPDATE : OP_DELETE;
			o->share = optarg;
			break;
		case 'o':
			if (add_option(o, optarg))
				return 1;
			break;
		case 'c':
			o->conf_path = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'V':
			printf(PROG " (ksmbd) 0.1\n");
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return fail("bad option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return fail("unexpected argument '%s'", argv[optind]);
	if (o->op == OP_NONE)
		return fail("one of -a, -u or -d is needed (see --help)");
	if (o->op == OP_DELETE && o->noptions)
		return fail("-o makes no sense with -d");
	if (o->op != OP_DELETE && !o->noptions)
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
	err = ksmbd_read_file(o->conf_path, KSMBD_CONFIG_MAX_BYTES, text, len);
	if (err == -ENOENT && o->op == OP_ADD) {
		*text = strdup("");
		*len = 0;
		return *text ? 0 : fail("out of memory");
	}
	if (err)
		return fail("cannot read %s: %s", o->conf_path, strerror(-err));
	if (memchr(*text, '\0', *len)) {
		free(*text);
		return fail("%s contains NUL bytes; not editing it", o->conf_path);
	}
	if (!stat(o->conf_path, &st))
		*mode = st.st_mode & 07777;
	return 0;
}

int main(int argc, char **argv)
{
	struct addshare_opts o = { .conf_path = KSMBD_CONFIG_PATH };
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
	err = ksmbd_write_file_atomic(o.conf_path, out, out_len, mode);
	if (err) {
		fail("cannot write %s: %s", o.conf_path, strerror(-err));
		goto out;
	}
	if (o.verbose)
		printf("%s share '%s' in %s\n", o.op == OP_ADD ? "added" :
		       o.op == OP_UPDATE ? "updated" : "deleted", o.share, o.conf_path);
	rc = 0;
out:
	free(out);
	ksmbd_confedit_free(ce);
	free(text);
	free(o.options);
	return rc;
}
