/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UTF-16LE <-> UTF-8 with strict validation: unpaired surrogates, embedded
 * NULs, overlong or truncated UTF-8 and code points past U+10FFFF are
 * errors (-EILSEQ), so a bad name never reaches the VFS as something else.
 * Case folding is ASCII-only for now; the Windows upcase table for the
 * whole BMP is still to come.
 */
#ifndef KSMBD_PROTO_UTF16_H
#define KSMBD_PROTO_UTF16_H

#include "shim.h"

/*
 * Convert in_len bytes of UTF-16LE to NUL-terminated UTF-8 in out (cap
 * bytes, NUL included).  Returns the length without the NUL, -EINVAL for an
 * odd byte count, -EILSEQ for invalid input, -ENAMETOOLONG if it does not
 * fit.
 */
int ksmbd_utf16_to_utf8(const u8 *in, u32 in_len, char *out, u32 cap);

/* UTF-8 (in_len bytes, no NUL needed) to UTF-16LE; returns bytes written. */
int ksmbd_utf8_to_utf16(const char *in, u32 in_len, u8 *out, u32 cap);

/*
 * NTOWFv2's UPPER() of a user name, UTF-16LE in place: ASCII, Latin-1,
 * Latin Extended-A, Greek and Cyrillic letters (utf16.c says which).
 */
void ksmbd_utf16_upper(u8 *s, u32 len);

/* Equal ignoring ASCII case; other code units must match exactly. */
bool ksmbd_utf16_eq_ascii_ci(const u8 *a, u32 alen, const u8 *b, u32 blen);

#endif /* KSMBD_PROTO_UTF16_H */
