// SPDX-License-Identifier: GPL-2.0
/*
 * Writes ksmbd.conf(5): the prose of ksmbd.conf.5.in with its @PARAMETERS@
 * line replaced by one entry per key of daemon/config_keys.c (scope,
 * accepted values and default from the table itself, words from
 * daemon/config_doc.c). A key without words, or words without a key, stop
 * the build: the page cannot drift from the parser.
 *
 * Usage: gen-ksmbd-conf TEMPLATE > ksmbd.conf.5
 *        gen-ksmbd-conf --keys     every key name, one a line (tests)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_doc.h"
#include "config_int.h"

struct entry {
	struct cfg_key_info info;
	const struct cfg_key_doc *doc;
	size_t index;
};

/* Text for roff: backslashes doubled, lines never start a request. */
static void roff(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

static const struct cfg_key_doc *doc_of(const struct cfg_key_info *k)
{
	char norm[64];
	size_t i;

	for (i = 0; i < cfg_key_ndocs; i++) {
		cfg_key_normalize(cfg_key_docs[i].name, norm, sizeof(norm));
		if (!strcmp(norm, k->name) &&
		    (cfg_key_docs[i].scope == 'G') == k->global)
			return &cfg_key_docs[i];
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->doc->name, y->doc->name);

	return c ? c : (int)y->info.global - (int)x->info.global;
}

/* Every key has words and every entry of words has a key. */
static int load(struct entry **out, size_t *n)
{
	size_t i, j, count = cfg_key_count(), used = 0;
	struct entry *e = calloc(count, sizeof(*e));
	bool *seen = calloc(cfg_key_ndocs, sizeof(*seen));
	int bad = 0;

	if (!e || !seen)
		return -1;
	for (i = 0; i < count; i++) {
		if (cfg_key_info(i, &e[used].info))
			continue;
		e[used].doc = doc_of(&e[used].info);
		e[used].index = i;
		if (!e[used].doc || (!e[used].doc->text && e[used].info.same_as < 0)) {
			fprintf(stderr, "gen-ksmbd-conf: key '%s' (%s) has no words in daemon/config_doc.c\n",
				e[used].info.name, e[used].info.global ? "global" : "share");
			bad = 1;
			continue;
		}
		seen[e[used].doc - cfg_key_docs] = true;
		used++;
	}
	for (j = 0; j < cfg_key_ndocs; j++) {
		if (!seen[j]) {
			fprintf(stderr, "gen-ksmbd-conf: daemon/config_doc.c describes '%s', which the key table does not have\n",
				cfg_key_docs[j].name);
			bad = 1;
		}
	}
	free(seen);
	*out = e;
	*n = used;
	return bad ? -1 : 0;
}

static void synonyms(FILE *out, const struct entry *all, size_t n,
		     const struct entry *e)
{
	bool first = true;
	size_t i;

	for (i = 0; i < n; i++) {
		if (all[i].info.same_as != (int)e->index)
			continue;
		fputs(first ? ".br\nSynonyms: " : ", ", out);
		fputs("\\fB", out);
		roff(out, all[i].doc->name);
		fputs("\\fR", out);
		if (all[i].info.invert)
			fputs(" (the opposite)", out);
		first = false;
	}
	if (!first)
		fputs(".\n", out);
}

static void entry(FILE *out, const struct entry *all, size_t n,
		  const struct entry *e)
{
	const struct cfg_key_doc *d = e->doc;
	const char *def = d->def ? d->def : e->info.def;

	fputs(".TP\n.B ", out);
	roff(out, d->name);
	fprintf(out, "\n(%s)\n", e->info.global ? "global" : "share");
	roff(out, d->text);
	fputs("\n.br\nValues: ", out);
	roff(out, d->values ? d->values : e->info.values);
	fputs(".\n.br\nDefault: ", out);
	roff(out, *def ? def : "empty");
	fputs(".\n", out);
	synonyms(out, all, n, e);
	if (!e->info.honoured) {
		fputs(".br\n\\fBNot honoured:\\fR ", out);
		roff(out, e->info.why);
		fputs(". A value that asks for what happens anyway is taken quietly, any other gives a warning.\n",
		      out);
	}
	if (d->upstream) {
		fputs(".br\nksmbd\\-tools: ", out);
		roff(out, d->upstream);
		fputc('\n', out);
	}
}

int main(int argc, char **argv)
{
	struct entry *e = NULL;
	char line[4096];
	size_t n, i;
	FILE *in;

	if (argc != 2) {
		fprintf(stderr, "usage: gen-ksmbd-conf TEMPLATE | --keys\n");
		return 2;
	}
	if (load(&e, &n)) {
		free(e);
		return 1;
	}
	if (!strcmp(argv[1], "--keys")) {
		for (i = 0; i < n; i++)
			printf("%s\n", e[i].doc->name);
		free(e);
		return 0;
	}
	qsort(e, n, sizeof(*e), by_name);
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		free(e);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (strcmp(line, "@PARAMETERS@\n")) {
			fputs(line, stdout);
			continue;
		}
		for (i = 0; i < n; i++)
			if (e[i].info.same_as < 0)
				entry(stdout, e, n, &e[i]);
	}
	fclose(in);
	free(e);
	return ferror(stdout) ? 1 : 0;
}
