/* SPDX-License-Identifier: GPL-2.0 */
/* Standard base64 (RFC 4648 section 4) with '=' padding. */
#ifndef KSMBD_BASE64_H
#define KSMBD_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* Characters needed for @len bytes, without the NUL. */
#define KSMBD_BASE64_LEN(len)	((((len) + 2) / 3) * 4)

/* Writes KSMBD_BASE64_LEN(len) characters and a NUL; @out must hold them. */
void ksmbd_base64_encode(const uint8_t *in, size_t len, char *out);
/*
 * Decodes exactly @len characters (padding required, no blanks). Returns
 * the number of bytes written, or -1 when the text is not canonical base64
 * or would not fit in @cap bytes.
 */
long ksmbd_base64_decode(const char *in, size_t len, uint8_t *out, size_t cap);

#endif
