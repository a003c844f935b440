/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text of every line ksmbdtop shows, shared by the curses and the batch
 * views: the views decide where a line goes and how it is highlighted,
 * never what it says.
 */
#ifndef KSMBDTOP_FORMAT_H
#define KSMBDTOP_FORMAT_H

#include <stddef.h>
#include <time.h>
#include "model.h"

#define KT_LINE_MAX	512
#define KT_HEADER_LINES	7

/* Where a column starts and how wide it is in a formatted row. */
struct kt_col_span {
	unsigned int start;
	unsigned int width;
};

/*
 * The header block: up to KT_HEADER_LINES lines (the note, when not
 * empty, is the last). Returns how many lines were written.
 */
unsigned int kt_fmt_header(const struct kt_model *m, const char *note,
			   time_t now, char lines[][KT_LINE_MAX]);

/* Column titles of the client table; span of the sort column in *sort. */
void kt_fmt_client_title(char *buf, size_t len, enum kt_col sort,
			 struct kt_col_span *span);
void kt_fmt_client_row(char *buf, size_t len, const struct kt_client *c);

/* The per-command view of one client. */
void kt_fmt_cmd_title(char *buf, size_t len);
void kt_fmt_cmd_row(char *buf, size_t len, const struct kt_client *c,
		    unsigned int cmd);

/* "1.23" style numbers that stay within their column. */
void kt_fmt_num(char *buf, size_t len, double v);

/* The help screen's lines, NULL-terminated. */
extern const char *const kt_help_lines[];

#endif
