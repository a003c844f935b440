/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ksmbd.conf(5) says about each key of the table in config_keys.c,
 * keyed by the name as written in the file. man/gen-ksmbd-conf joins the
 * two and refuses to write the page when a key has no entry here.
 */
#ifndef KSMBD_CONFIG_DOC_H
#define KSMBD_CONFIG_DOC_H

#include <stddef.h>

struct cfg_key_doc {
	const char *name;	/* as an admin writes it: "read only" */
	char scope;		/* 'G' [global], 'S' share (or [global] default) */
	const char *text;	/* NULL: a synonym, described with its key */
	const char *values;	/* NULL: derived from the key's type */
	const char *def;	/* NULL: derived from the built-in defaults */
	const char *upstream;	/* how ksmbd-tools differs, or NULL */
};

extern const struct cfg_key_doc cfg_key_docs[];
extern const size_t cfg_key_ndocs;

#endif
