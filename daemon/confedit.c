// SPDX-License-Identifier: GPL-2.0
/*
 * ksmbd.conf as a list of logical lines, for edits that keep everything
 * the user wrote (comments, order, spelling) outside the changed keys.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "confedit.h"
#include "config_int.h"

enum line_kind {
	LINE_BLANK,
	LINE_COMMENT,
	LINE_HEADER,
	LINE_KEY,
	LINE_OTHER,	/* not valid syntax: kept as is, the parser judges it */
};

struct line {
	char *raw;		/* physical line(s) with their '\n' */
	enum line_kind kind;
	char *name;		/* LINE_HEADER: section name, trimmed */
	int field;		/* LINE_KEY: cfg_key_field() in a share, or -1 */
};

struct ksmbd_confedit {
	struct line *lines;
	size_t count;
	size_t cap;
};

static void line_free(struct line *l)
{
	free(l->raw);
	free(l->name);
}

void ksmbd_confedit_free(struct ksmbd_confedit *ce)
{
	size_t i;

	if (!ce)
		return;
	for (i = 0; i < ce->count; i++)
		line_free(&ce->lines[i]);
	free(ce->lines);
	free(ce);
}

/* Copies [s, s + n) without the blanks around it. */
static char *dup_trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

/* Fills kind, name and field from the raw text (continuations joined). */
static int classify(struct line *l)
{
	char *text = strdup(l->raw), *r, *w, *t, *eq, *end;
	int err = 0;

	if (!text)
		return -ENOMEM;
	/* Drop "\\\n" pairs and line ends so the logical line reads as one. */
	for (r = w = text; *r; r++) {
		if (*r == '\\' && (r[1] == '\n' || (r[1] == '\r' && r[2] == '\n'))) {
			r += r[1] == '\r' ? 2 : 1;
			continue;
		}
		if (*r != '\n' && *r != '\r')
			*w++ = *r;
	}
	*w = '\0';
	for (t = text; isspace((unsigned char)*t); t++)
		;
	l->field = -1;
	if (!*t) {
		l->kind = LINE_BLANK;
	} else if (*t == '#' || *t == ';') {
		l->kind = LINE_COMMENT;
	} else if (*t == '[' && (end = strchr(t, ']'))) {
		l->kind = LINE_HEADER;
		l->name = dup_trimmed(t + 1, (size_t)(end - t - 1));
		if (!l->name)
			err = -ENOMEM;
	} else if ((eq = strchr(t, '='))) {
		*eq = '\0';
		l->kind = LINE_KEY;
		l->field = cfg_key_field(t, false);
	} else {
		l->kind = LINE_OTHER;
	}
	free(text);
	return err;
}

static int insert_line(struct ksmbd_confedit *ce, size_t at, const char *raw,
		       size_t n)
{
	struct line l = { 0 };

	if (ce->count == ce->cap) {
		size_t cap = ce->cap ? ce->cap * 2 : 32;
		struct line *lines = realloc(ce->lines, cap * sizeof(*lines));

		if (!lines)
			return -ENOMEM;
		ce->lines = lines;
		ce->cap = cap;
	}
	l.raw = strndup(raw, n);
	if (!l.raw || classify(&l)) {
		line_free(&l);
		return -ENOMEM;
	}
	memmove(&ce->lines[at + 1], &ce->lines[at],
		(ce->count - at) * sizeof(*ce->lines));
	ce->lines[at] = l;
	ce->count++;
	return 0;
}

static void remove_lines(struct ksmbd_confedit *ce, size_t from, size_t n)
{
	size_t i;

	for (i = from; i < from + n; i++)
		line_free(&ce->lines[i]);
	memmove(&ce->lines[from], &ce->lines[from + n],
		(ce->count - from - n) * sizeof(*ce->lines));
	ce->count -= n;
}

static bool is_comment_start(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	return n && (*s == '#' || *s == ';');
}

/* Length of the logical line at @s: physical lines joined by a final '\'. */
static size_t logical_len(const char *s, size_t left)
{
	size_t pos = 0;
	bool first = true;

	while (pos < left) {
		const char *nl = memchr(s + pos, '\n', left - pos);
		size_t n = nl ? (size_t)(nl - (s + pos)) : left - pos;
		size_t body = n && s[pos + n - 1] == '\r' ? n - 1 : n;
		bool cont = body && s[pos + body - 1] == '\\' &&
			    !(first && is_comment_start(s + pos, n));

		pos += n + (nl ? 1 : 0);
		first = false;
		if (!cont || !nl)
			break;
	}
	return pos;
}

struct ksmbd_confedit *ksmbd_confedit_new(const char *text, size_t len)
{
	struct ksmbd_confedit *ce = calloc(1, sizeof(*ce));
	size_t pos = 0;

	if (!ce)
		return NULL;
	while (pos < len) {
		size_t n = logical_len(text + pos, len - pos);

		if (insert_line(ce, ce->count, text + pos, n))
			goto err_free;
		pos += n;
	}
	/* Every line ends in '\n', so lines can be added after the last one. */
	if (ce->count) {
		struct line *last = &ce->lines[ce->count - 1];
		size_t n = strlen(last->raw);

		if (n && last->raw[n - 1] != '\n') {
			char *raw = realloc(last->raw, n + 2);

			if (!raw)
				goto err_free;
			raw[n] = '\n';
			raw[n + 1] = '\0';
			last->raw = raw;
		}
	}
	return ce;
err_free:
	ksmbd_confedit_free(ce);
	return NULL;
}

/* Index of the header of @name, or -1. */
static long find_header(const struct ksmbd_confedit *ce, const char *name)
{
	size_t i;

	for (i = 0; i < ce->count; i++)
		if (ce->lines[i].kind == LINE_HEADER &&
		    !strcasecmp(ce->lines[i].name, name))
			return (long)i;
	return -1;
}

/* One past the last line of the section whose header is at @h. */
static size_t section_end(const struct ksmbd_confedit *ce, size_t h)
{
	size_t i;

	for (i = h + 1; i < ce->count; i++)
		if (ce->lines[i].kind == LINE_HEADER)
			break;
	return i;
}

/* The section's last key (or other content) line, or @h for none. */
static size_t last_content(const struct ksmbd_confedit *ce, size_t h)
{
	size_t i, end = section_end(ce, h), last = h;

	for (i = h + 1; i < end; i++)
		if (ce->lines[i].kind == LINE_KEY || ce->lines[i].kind == LINE_OTHER)
			last = i;
	return last;
}

bool ksmbd_confedit_has_section(const struct ksmbd_confedit *ce, const char *name)
{
	return find_header(ce, name) >= 0;
}

static bool plain_text(const char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\0')
			return false;
	return true;
}

int ksmbd_confedit_add_section(struct ksmbd_confedit *ce, const char *name)
{
	char *raw;
	int err;

	size_t n = strlen(name);

	/* Blanks around the name would be trimmed by the parser: refuse them. */
	if (!n || n >= KSMBD_SHARE_NAME_SZ || !plain_text(name) ||
	    strpbrk(name, "[]") || !strcasecmp(name, "global") ||
	    isspace((unsigned char)name[0]) || isspace((unsigned char)name[n - 1]))
		return -EINVAL;
	if (find_header(ce, name) >= 0)
		return -EEXIST;
	if (ce->count && ce->lines[ce->count - 1].kind != LINE_BLANK) {
		err = insert_line(ce, ce->count, "\n", 1);
		if (err)
			return err;
	}
	if (asprintf(&raw, "[%s]\n", name) < 0)
		return -ENOMEM;
	err = insert_line(ce, ce->count, raw, strlen(raw));
	free(raw);
	return err;
}

int ksmbd_confedit_delete_section(struct ksmbd_confedit *ce, const char *name)
{
	long h = find_header(ce, name);
	size_t last, start;

	if (h < 0)
		return -ENOENT;
	/*
	 * A section owns the comment lines right above its header (they
	 * describe it) and one blank line before them. Comments after its
	 * last key introduce the next section, so they stay.
	 */
	last = last_content(ce, (size_t)h);
	start = (size_t)h;
	while (start > 0 && ce->lines[start - 1].kind == LINE_COMMENT)
		start--;
	if (start > 0 && ce->lines[start - 1].kind == LINE_BLANK)
		start--;
	remove_lines(ce, start, last + 1 - start);
	return 0;
}

static char *indent_of(const struct ksmbd_confedit *ce, size_t h)
{
	size_t last = last_content(ce, h);
	const char *raw;

	if (last == h || ce->lines[last].kind != LINE_KEY)
		return strdup("\t");
	raw = ce->lines[last].raw;
	return strndup(raw, strspn(raw, " \t"));
}

int ksmbd_confedit_set(struct ksmbd_confedit *ce, const char *section,
		       const char *key, const char *value)
{
	long h = find_header(ce, section);
	int field = cfg_key_field(key, false);
	size_t i, end, at;
	char *raw, *indent;
	bool replaced = false;
	int err = 0;

	if (h < 0 || !strcasecmp(section, "global"))
		return h < 0 ? -ENOENT : -EINVAL;
	if (field < 0 || !plain_text(key) || !plain_text(value) ||
	    (*value && value[strlen(value) - 1] == '\\'))
		return -EINVAL;
	indent = indent_of(ce, (size_t)h);
	if (!indent)
		return -ENOMEM;
	if (asprintf(&raw, "%s%s = %s\n", indent, key, value) < 0) {
		free(indent);
		return -ENOMEM;
	}
	free(indent);
	end = section_end(ce, (size_t)h);
	for (i = (size_t)h + 1; i < end; i++) {
		if (ce->lines[i].kind != LINE_KEY || ce->lines[i].field != field)
			continue;
		if (replaced) {
			remove_lines(ce, i--, 1);
			end--;
			continue;
		}
		err = insert_line(ce, i + 1, raw, strlen(raw));
		if (err)
			goto out_free;
		remove_lines(ce, i, 1);
		replaced = true;
	}
	if (!replaced) {
		at = last_content(ce, (size_t)h) + 1;
		err = insert_line(ce, at, raw, strlen(raw));
	}
out_free:
	free(raw);
	return err;
}

char *ksmbd_confedit_text(const struct ksmbd_confedit *ce, size_t *len)
{
	size_t i, total = 0, used = 0;
	char *buf;

	for (i = 0; i < ce->count; i++)
		total += strlen(ce->lines[i].raw);
	buf = malloc(total + 1);
	if (!buf)
		return NULL;
	for (i = 0; i < ce->count; i++) {
		size_t n = strlen(ce->lines[i].raw);

		memcpy(buf + used, ce->lines[i].raw, n);
		used += n;
	}
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;
}
