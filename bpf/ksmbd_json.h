/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one JSON string writer of ksmbd-lat and ksmbdtop. Names come from
 * clients and the kernel, so anything may be in them: valid UTF-8 is
 * written as it is (José stays José), '"', '\' and control characters are
 * escaped, and every byte that does not begin a valid UTF-8 sequence
 * becomes U+FFFD, so the output is always valid JSON in valid UTF-8.
 */
#ifndef KSMBD_JSON_H
#define KSMBD_JSON_H

#include <stddef.h>
#include <stdio.h>

/* @s as a JSON string, quotes included; at most @max bytes, or to its NUL. */
void ksmbd_json_str(FILE *f, const char *s, size_t max);

/*
 * Length of the valid UTF-8 sequence at @s (at most @n bytes): 1 to 4, or
 * 0 when it is not one (a stray continuation byte, an overlong form, a
 * surrogate, a code point past U+10FFFF, a cut sequence).
 */
size_t ksmbd_utf8_len(const unsigned char *s, size_t n);

#endif
