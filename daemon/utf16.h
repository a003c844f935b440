/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UTF-8 <-> UTF-16LE for the daemon: allocating wrappers over the one
 * converter, module/proto/utf16.c, which ksmbd.ko uses too (so the server
 * and the daemon agree on what a valid name or password is).
 */
#ifndef KSMBD_UTF16_H
#define KSMBD_UTF16_H

#include <stddef.h>
#include <stdint.h>

/*
 * Converts @len bytes of UTF-8 into a newly allocated UTF-16LE buffer
 * (*out, *out_len bytes, no terminator). 0, -EILSEQ on invalid UTF-8
 * (overlong forms, surrogates, NUL, > U+10FFFF), -ENOMEM.
 */
int ksmbd_utf8_to_utf16le(const char *in, size_t len, uint8_t **out,
			  size_t *out_len);

/*
 * Converts @units UTF-16LE code units at @le into a newly allocated,
 * NUL-terminated UTF-8 string. 0, -EILSEQ on unpaired surrogates or NUL,
 * -ENOMEM.
 */
int ksmbd_utf16le_to_utf8(const uint8_t *le, size_t units, char **out);

#endif
