// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 8.3 names made from long ones; see shortname.h.
 */
#include "shortname.h"

#define PREFIX_MAX	4
#define EXT_MAX		3
#define HASH_DIGITS	3

/* Characters an 8.3 name may hold besides letters and digits. */
static bool dos_char(u8 c)
{
	static const char extra[] = "!#$%&'()-@^_`{}~";
	u32 i;

	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return true;
	for (i = 0; i < sizeof(extra) - 1; i++)
		if (c == (u8)extra[i])
			return true;
	return false;
}

static char upper(u8 c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : (char)c;
}

static bool dot_or_dotdot(const char *name, u32 len)
{
	return (len == 1 && name[0] == '.') ||
	       (len == 2 && name[0] == '.' && name[1] == '.');
}

bool ksmbd_name_is_8dot3(const char *name, u32 len)
{
	u32 i, dot = len;

	if (!len || len > KSMBD_SHORT_NAME_MAX || dot_or_dotdot(name, len))
		return false;
	for (i = 0; i < len; i++) {
		if (name[i] == '.') {
			if (dot != len)
				return false;	/* a second dot */
			dot = i;
		} else if (!dos_char((u8)name[i])) {
			return false;
		}
	}
	if (dot == len)
		return len <= 8;
	/* "x.ext": a base of 1..8 and an extension of 1..3 */
	return dot >= 1 && dot <= 8 && len - dot - 1 >= 1 &&
	       len - dot - 1 <= EXT_MAX;
}

/*
 * Up to max characters of s[0..len) as 8.3 characters: dots and spaces
 * dropped, other characters an 8.3 name cannot hold (and each non-ASCII
 * UTF-8 sequence) as '_'.
 */
static u32 squeeze(const char *s, u32 len, char *out, u32 max)
{
	u32 i, n = 0;

	for (i = 0; i < len && n < max; i++) {
		u8 c = (u8)s[i];

		if (c == '.' || c == ' ')
			continue;
		if (c >= 0x80 && c < 0xc0)
			continue;	/* UTF-8 continuation byte */
		out[n++] = dos_char(c) ? upper(c) : '_';
	}
	return n;
}

/* FNV-1a of the name folded to upper case: the same for any case. */
static u32 name_hash(const char *name, u32 len)
{
	u32 h = 2166136261u, i;

	for (i = 0; i < len; i++)
		h = (h ^ (u8)upper((u8)name[i])) * 16777619u;
	return h;
}

u32 ksmbd_short_name(const char *name, u32 len, char *out)
{
	static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	u32 i, n, dot = 0, h;

	out[0] = '\0';
	if (!len || dot_or_dotdot(name, len))
		return 0;
	if (ksmbd_name_is_8dot3(name, len)) {
		for (i = 0; i < len; i++)
			out[i] = upper((u8)name[i]);
		out[len] = '\0';
		return len;
	}
	/* The extension follows the last dot that does not start the name. */
	for (i = 1; i < len; i++)
		if (name[i] == '.')
			dot = i;
	n = squeeze(name, dot ? dot : len, out, PREFIX_MAX);
	if (!n)
		out[n++] = '_';
	out[n++] = '~';
	h = name_hash(name, len);
	for (i = 0; i < HASH_DIGITS; i++) {
		out[n + HASH_DIGITS - 1 - i] = digits[h % 36];
		h /= 36;
	}
	n += HASH_DIGITS;
	if (dot) {
		u32 e = squeeze(name + dot + 1, len - dot - 1, out + n + 1,
				EXT_MAX);

		if (e) {
			out[n] = '.';
			n += 1 + e;
		}
	}
	out[n] = '\0';
	return n;
}
