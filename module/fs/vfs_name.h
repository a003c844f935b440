/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Client path names -> share-relative names the VFS layer resolves.
 *
 * A CREATE name is UTF-16LE with '\' separators, relative to the share
 * (MS-SMB2 2.2.13: it must not begin with '\'). The result is UTF-8 with
 * '/' separators and no leading or trailing separator; "" is the share
 * root. Every component is checked here, so the VFS layer never sees ".",
 * "..", empty components, wildcards or control characters. Plain C: the
 * same code runs in host tests and fuzzers.
 */
#ifndef KSMBD_VFS_NAME_H
#define KSMBD_VFS_NAME_H

#include "proto/shim.h"
#include "proto/buf.h"

/* Longest share-relative name, NUL included (the kernel's PATH_MAX). */
#define KSMBD_NAME_MAX_PATH	4096
/* Longest component in bytes (NAME_MAX). */
#define KSMBD_NAME_MAX_COMPONENT 255

/*
 * Convert and check a CREATE name; a ".." component takes away the one
 * before it ("a\\b\\.." is "a"). Returns the length of out (without
 * NUL), or:
 *   -EINVAL        leading separator, empty or "." component, reserved
 *                  character (STATUS_OBJECT_NAME_INVALID)
 *   -KSMBD_EPATH_SYNTAX_BAD  ".." with nothing before it
 *                  (STATUS_OBJECT_PATH_SYNTAX_BAD)
 *   -EILSEQ        not valid UTF-16 (STATUS_OBJECT_NAME_INVALID)
 *   -ENAMETOOLONG  component or whole name too long
 *   -EOPNOTSUPP    a stream name ("file:stream"): no streams yet
 */
int ksmbd_name_from_utf16(const struct ksmbd_buf *name, char *out, u32 cap);

/* Check a UTF-8 component as ksmbd_name_from_utf16() does; 0 or -errno. */
int ksmbd_name_check_component(const char *c, u32 len);

enum ksmbd_pipe_service {
	KSMBD_PIPE_SRVSVC,
	KSMBD_PIPE_WKSSVC,
	KSMBD_PIPE_LSARPC,
	KSMBD_PIPE_SAMR,
};

/*
 * The RPC service a pipe name (UTF-8, optional "\pipe\" or "pipe\"
 * prefix, ASCII case-insensitive) names, or -ENOENT.
 */
int ksmbd_name_pipe_service(const char *name);

/*
 * "hide dot files" and the share's veto list. patterns: veto_len bytes of
 * NUL-terminated patterns (the share config payload), with '*' and '?'
 * wildcards, ASCII case-insensitive. True when any component of name
 * matches one.
 */
bool ksmbd_name_vetoed(const char *patterns, u32 veto_len, const char *name);
bool ksmbd_name_match(const char *pattern, const char *s, u32 slen);

/* The last component of a share-relative name ("" for the root). */
const char *ksmbd_name_last(const char *name);

#endif
