// SPDX-License-Identifier: GPL-2.0
/* Collected "file:line: level: text" diagnostics. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"

struct ksmbd_diag {
	char **lines;
	enum ksmbd_diag_level *levels;
	size_t count;
	size_t cap;
	/* Out of memory while recording: still counted, so an error is never lost. */
	size_t dropped_errors;
};

struct ksmbd_diag *ksmbd_diag_new(void)
{
	return calloc(1, sizeof(struct ksmbd_diag));
}

void ksmbd_diag_clear(struct ksmbd_diag *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->count; i++)
		free(d->lines[i]);
	d->count = 0;
	d->dropped_errors = 0;
}

void ksmbd_diag_free(struct ksmbd_diag *d)
{
	if (!d)
		return;
	ksmbd_diag_clear(d);
	free(d->lines);
	free(d->levels);
	free(d);
}

static int diag_grow(struct ksmbd_diag *d)
{
	size_t cap = d->cap ? d->cap * 2 : 8;
	char **lines;
	enum ksmbd_diag_level *levels;

	lines = realloc(d->lines, cap * sizeof(*lines));
	if (!lines)
		return -1;
	d->lines = lines;
	levels = realloc(d->levels, cap * sizeof(*levels));
	if (!levels)
		return -1;
	d->levels = levels;
	d->cap = cap;
	return 0;
}

void ksmbd_diag_vadd(struct ksmbd_diag *d, enum ksmbd_diag_level level,
		     const char *file, unsigned int line, const char *fmt,
		     va_list ap)
{
	const char *tag = level == KSMBD_DIAG_ERROR ? "error" : "warning";
	char *text = NULL, *full = NULL;
	int n;

	if (!d)
		return;
	if (!file)
		file = "<input>";
	if (vasprintf(&text, fmt, ap) < 0)
		goto lost;
	if (line)
		n = asprintf(&full, "%s:%u: %s: %s", file, line, tag, text);
	else
		n = asprintf(&full, "%s: %s: %s", file, tag, text);
	free(text);
	if (n < 0)
		goto lost;
	if (d->count == d->cap && diag_grow(d)) {
		free(full);
		goto lost;
	}
	d->lines[d->count] = full;
	d->levels[d->count] = level;
	d->count++;
	return;
lost:
	if (level == KSMBD_DIAG_ERROR)
		d->dropped_errors++;
}

void ksmbd_diag_add(struct ksmbd_diag *d, enum ksmbd_diag_level level,
		    const char *file, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ksmbd_diag_vadd(d, level, file, line, fmt, ap);
	va_end(ap);
}

size_t ksmbd_diag_count(const struct ksmbd_diag *d)
{
	return d ? d->count : 0;
}

static size_t diag_count_level(const struct ksmbd_diag *d,
			       enum ksmbd_diag_level level)
{
	size_t i, n = 0;

	if (!d)
		return 0;
	for (i = 0; i < d->count; i++)
		n += d->levels[i] == level;
	return n;
}

size_t ksmbd_diag_errors(const struct ksmbd_diag *d)
{
	return diag_count_level(d, KSMBD_DIAG_ERROR) + (d ? d->dropped_errors : 0);
}

size_t ksmbd_diag_warnings(const struct ksmbd_diag *d)
{
	return diag_count_level(d, KSMBD_DIAG_WARNING);
}

const char *ksmbd_diag_line(const struct ksmbd_diag *d, size_t i)
{
	if (!d || i >= d->count)
		return NULL;
	return d->lines[i];
}

const char *ksmbd_diag_find(const struct ksmbd_diag *d, const char *needle)
{
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < d->count; i++)
		if (strstr(d->lines[i], needle))
			return d->lines[i];
	return NULL;
}

void ksmbd_diag_print(const struct ksmbd_diag *d, FILE *out)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->count; i++)
		fprintf(out, "%s\n", d->lines[i]);
	if (d->dropped_errors)
		fprintf(out, "(%zu more errors lost: out of memory)\n",
			d->dropped_errors);
}
