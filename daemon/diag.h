/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnostics collected while reading configuration or the user database.
 *
 * Parsers never print: they append "file:line: warning: text" or
 * "file:line: error: text" lines here, and the caller decides where they go
 * (stderr for the tools, syslog for the daemon, a string compare for tests).
 */
#ifndef KSMBD_DIAG_H
#define KSMBD_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum ksmbd_diag_level {
	KSMBD_DIAG_WARNING,
	KSMBD_DIAG_ERROR,
};

struct ksmbd_diag;

/* NULL on allocation failure. */
struct ksmbd_diag *ksmbd_diag_new(void);
void ksmbd_diag_free(struct ksmbd_diag *d);

/*
 * Append one line. @file may be NULL ("<input>" is used); @line 0 leaves the
 * line number out ("file: error: text"). @d may be NULL: the line is dropped,
 * so parsers can be called without anyone listening.
 */
void ksmbd_diag_add(struct ksmbd_diag *d, enum ksmbd_diag_level level,
		    const char *file, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void ksmbd_diag_vadd(struct ksmbd_diag *d, enum ksmbd_diag_level level,
		     const char *file, unsigned int line, const char *fmt,
		     va_list ap) __attribute__((format(printf, 5, 0)));

size_t ksmbd_diag_count(const struct ksmbd_diag *d);
size_t ksmbd_diag_errors(const struct ksmbd_diag *d);
size_t ksmbd_diag_warnings(const struct ksmbd_diag *d);
/* The i-th line without a trailing newline; NULL when out of range. */
const char *ksmbd_diag_line(const struct ksmbd_diag *d, size_t i);
/* The first line containing @needle, or NULL: handy in tests. */
const char *ksmbd_diag_find(const struct ksmbd_diag *d, const char *needle);
/* One line per entry, each ending in '\n'. */
void ksmbd_diag_print(const struct ksmbd_diag *d, FILE *out);
void ksmbd_diag_clear(struct ksmbd_diag *d);

#endif
