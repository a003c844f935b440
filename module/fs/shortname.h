/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 8.3 ("short") names for FileAlternateNameInformation and the ShortName
 * of FileBoth/FileIdBothDirectoryInformation. Nothing is stored: the
 * short name of a long one is made from the name itself (up to four of
 * its characters, '~', three base-36 digits of a hash of the whole name
 * folded to upper case, and up to three characters of its extension), so
 * it is the same on every query and in every listing. Lookups by short
 * name are not supported. Plain C on proto/shim.h (host unit tests).
 */
#ifndef KSMBD_SHORTNAME_H
#define KSMBD_SHORTNAME_H

#include "proto/shim.h"

#define KSMBD_SHORT_NAME_MAX	12	/* 8 + '.' + 3 */

/* Is name (UTF-8, one component, len bytes) a valid 8.3 name already? */
bool ksmbd_name_is_8dot3(const char *name, u32 len);

/*
 * The 8.3 name of a component, upper case, NUL-terminated in out (at
 * least KSMBD_SHORT_NAME_MAX + 1 bytes): the name itself when it is
 * already 8.3, else a generated one. Returns its length (1..12), 0 for an
 * empty name or "." / "..".
 */
u32 ksmbd_short_name(const char *name, u32 len, char *out);

#endif
