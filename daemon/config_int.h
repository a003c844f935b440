/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by config.c, config_keys.c and config_access.c. */
#ifndef KSMBD_CONFIG_INT_H
#define KSMBD_CONFIG_INT_H

#include "config.h"

struct ksmbd_config {
	struct ksmbd_global global;
	struct ksmbd_share **shares;	/* pointers stay valid while it lives */
	size_t nshares;
	size_t cap;
};

enum cfg_section {
	CFG_SEC_NONE,		/* before the first header */
	CFG_SEC_GLOBAL,
	CFG_SEC_SHARE,
	CFG_SEC_SKIP,		/* a rejected header: its keys are not checked */
};

/* One "key = value" as read, kept until the whole file is known. */
struct cfg_entry {
	char *key;
	char *value;
	unsigned int line;
};

/*
 * A section with every line that named it merged: ksmbd-tools treats a
 * repeated [name] as the continuation of the first one.
 */
struct cfg_section_text {
	char *name;			/* as first written */
	unsigned int line;		/* of the first header */
	bool global;
	struct cfg_entry *entries;
	size_t count, cap;
};

/* Upper bound on the key table (checked at build time in config_keys.c). */
#define CFG_KEYS_MAX	160

struct cfg_parser {
	const char *file;
	struct ksmbd_diag *diag;
	unsigned int line;		/* line of what is being parsed or applied */
	struct ksmbd_config *cfg;
	struct ksmbd_share *tmpl;	/* share defaults set in [global] */
	struct ksmbd_share *cur;	/* share being filled, owned by cfg */
	enum cfg_section section;
	bool oom;
	unsigned int errors;
	const char *key;		/* key being set, as written (for messages) */
	unsigned int min_proto_line;
	unsigned int max_proto_line;
	unsigned int interfaces_line;
	unsigned int bind_only_line;
	/* The text, read in the first pass and applied in the second. */
	struct cfg_section_text *secs;
	size_t nsecs, secs_cap;
	struct cfg_section_text *reading;	/* NULL outside a usable section */
	bool before_first_header;
	/*
	 * Line where each field was first set in the section being applied
	 * ([0] global fields, [1] share fields), 0 when not yet: a second
	 * setting keeps the first value, as ksmbd-tools does.
	 */
	unsigned int set_on[2][CFG_KEYS_MAX];
};

void cfg_error(struct cfg_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cfg_warn(struct cfg_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Applies one "key = value" of the current section (config_keys.c). */
void cfg_apply_key(struct cfg_parser *p, const char *key, const char *value);
/* Forgets which fields the previous section set (config_keys.c). */
void cfg_section_reset(struct cfg_parser *p);
void cfg_global_defaults(struct ksmbd_global *g);
void cfg_share_defaults(struct ksmbd_share *s);
void cfg_share_free(struct ksmbd_share *s);
/* Deep copy of every owned field; 0 or -ENOMEM (dst is then freeable). */
int cfg_share_copy(struct ksmbd_share *dst, const struct ksmbd_share *src);

void cfg_strlist_free(struct ksmbd_strlist *l);
int cfg_strlist_copy(struct ksmbd_strlist *dst, const struct ksmbd_strlist *src);
int cfg_strlist_push(struct ksmbd_strlist *l, const char *s, size_t n);

/* Case-insensitive compare ignoring blanks, as Samba compares keys. */
void cfg_key_normalize(const char *in, char *out, size_t cap);

/*
 * Which field @key sets (synonyms give the same number), in [global] when
 * @global, else in a share; -1 for an unknown key. Used by the editor to
 * replace "writeable = no" when "read only = yes" is set.
 */
int cfg_key_field(const char *key, bool global);

/*
 * The key table as the manual shows it (config_keys.c; man/ reads it):
 * key_table's entries, then the not-honoured ones key_table does not
 * shadow. same_as is the entry of the first key that sets the same
 * field (a synonym), or -1.
 */
struct cfg_key_info {
	const char *name;		/* normalized: lower case, no blanks */
	bool global;
	bool honoured;
	const char *why;		/* !honoured: what happens instead */
	int same_as;
	bool invert;			/* a boolean synonym meaning the opposite */
	char values[240];		/* what the key accepts */
	char def[96];			/* its built-in default */
};
size_t cfg_key_count(void);
/* -1 when @i is past the end or names a shadowed entry. */
int cfg_key_info(size_t i, struct cfg_key_info *out);

/* Host list syntax check of one item (config_access.c): 0 ok, 1 host name, -1 bad. */
int cfg_host_item_check(const char *item);

#endif
