/* SPDX-License-Identifier: GPL-2.0 */
/* UTF-8 to UTF-16LE, as SMB puts strings on the wire. */
#ifndef KSMBD_UTF16_H
#define KSMBD_UTF16_H

#include <stddef.h>
#include <stdint.h>

/*
 * Converts @len bytes of UTF-8 into a newly allocated UTF-16LE buffer
 * (*out, *out_len bytes, no terminator). 0, -EILSEQ on invalid UTF-8
 * (overlong forms, surrogates, > U+10FFFF), -ENOMEM.
 */
int ksmbd_utf8_to_utf16le(const char *in, size_t len, uint8_t **out,
			  size_t *out_len);

#endif
