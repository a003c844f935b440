/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUERY_DIRECTORY search patterns (MS-FSA 2.1.4.4, FsRtlIsNameInExpression):
 * '*', '?' and the DOS wildcards '<' (DOS_STAR), '>' (DOS_QM) and '"'
 * (DOS_DOT), matched case-insensitively against UTF-8 names.
 *
 * Two deliberate departures from the bare algorithm, both what Windows
 * clients observe through Win32 and what Samba answers:
 *  - "*.*" matches every name, with or without a dot;
 *  - a '.' ending the pattern also matches the end of the name ("foo."
 *    finds "foo"), since Win32 strips trailing dots.
 *
 * The matcher simulates the pattern as an automaton over its positions,
 * so it runs in O(pattern * name) whatever the pattern: no backtracking
 * blow-up on "*a*a*a*..." and no loop that can fail to end.
 */
#ifndef KSMBD_PROTO_PATTERN_H
#define KSMBD_PROTO_PATTERN_H

#include "shim.h"

/* Longest pattern accepted, in code points (a name is at most 255 UTF-16 units). */
#define KSMBD_PATTERN_MAX	1024

struct ksmbd_pattern;

/*
 * Compile len bytes of UTF-8 (no NUL needed). An empty pattern means "*".
 * -EILSEQ on invalid UTF-8, -ENAMETOOLONG past KSMBD_PATTERN_MAX,
 * -ENOMEM. Free with ksmbd_pattern_free().
 */
int ksmbd_pattern_compile(const char *utf8, u32 len, struct ksmbd_pattern **out);
void ksmbd_pattern_free(struct ksmbd_pattern *p);

/*
 * Does name (len bytes of UTF-8) match? Invalid UTF-8 never matches.
 * Uses scratch space inside p: callers serialise matches on one pattern.
 */
bool ksmbd_pattern_match(struct ksmbd_pattern *p, const char *name, u32 len);

/* True when the pattern holds no wildcard: at most one name can match. */
bool ksmbd_pattern_is_literal(const struct ksmbd_pattern *p);
/* True when every name matches ("*", "*.*", ""). */
bool ksmbd_pattern_matches_all(const struct ksmbd_pattern *p);

/* Simple case folding used for names (ASCII and Latin-1). */
u32 ksmbd_pattern_fold(u32 cp);

#endif /* KSMBD_PROTO_PATTERN_H */
