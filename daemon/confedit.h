/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Editing ksmbd.conf as text for ksmbd.addshare: comments, blank lines,
 * key spelling and the other sections stay exactly as they were; only the
 * lines of the share being changed are touched.
 */
#ifndef KSMBD_CONFEDIT_H
#define KSMBD_CONFEDIT_H

#include <stdbool.h>
#include <stddef.h>

struct ksmbd_confedit;

/* NULL on allocation failure. The text need not be valid configuration. */
struct ksmbd_confedit *ksmbd_confedit_new(const char *text, size_t len);
void ksmbd_confedit_free(struct ksmbd_confedit *ce);

/* Section names compare without case. */
bool ksmbd_confedit_has_section(const struct ksmbd_confedit *ce, const char *name);
/* Appends "[name]" at the end. 0, -EEXIST, -EINVAL (bad name), -ENOMEM. */
int ksmbd_confedit_add_section(struct ksmbd_confedit *ce, const char *name);
/* Removes the header and its keys up to the next header. 0 or -ENOENT. */
int ksmbd_confedit_delete_section(struct ksmbd_confedit *ce, const char *name);
/*
 * Sets @key in share section @section: the line of that key or of any
 * synonym is replaced (further ones removed), else a line is added after
 * the section's last key. 0, -ENOENT (no section), -EINVAL (unknown share
 * key, or a line break in key or value), -ENOMEM.
 */
int ksmbd_confedit_set(struct ksmbd_confedit *ce, const char *section,
		       const char *key, const char *value);
/* The whole text, newly allocated and NUL-terminated; NULL on ENOMEM. */
char *ksmbd_confedit_text(const struct ksmbd_confedit *ce, size_t *len);

#endif
