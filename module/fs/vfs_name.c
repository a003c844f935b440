// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CREATE names -> share-relative names (see vfs_name.h).
 */
#include "vfs_name.h"
#include "proto/utf16.h"
#include "proto/ksmbd_errno.h"

static char ascii_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/*
 * MS-FSCC 2.1.5.2: characters no file name component may hold. ':' is
 * the stream separator and reported apart; '/' cannot occur here because
 * it was the separator on the way in... except that clients send '\', so
 * a '/' from the client is refused too rather than becoming a separator.
 */
static bool reserved_char(unsigned char c)
{
	if (c < 0x20)
		return true;
	switch (c) {
	case '"': case '*': case '<': case '>': case '?': case '|': case '/':
		return true;
	default:
		return false;
	}
}

int ksmbd_name_check_component(const char *c, u32 len)
{
	u32 i;

	if (!len)
		return -EINVAL;
	if (len > KSMBD_NAME_MAX_COMPONENT)
		return -ENAMETOOLONG;
	if ((len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (c[i] == ':')
			return -EOPNOTSUPP;
		if (reserved_char((unsigned char)c[i]))
			return -EINVAL;
	}
	return 0;
}

static bool is_dotdot(const char *c, u32 len)
{
	return len == 2 && c[0] == '.' && c[1] == '.';
}

/*
 * Append component c (len bytes, already in out at or after *w) to the
 * name built so far in out[0..*w), or for ".." drop the last component
 * built: a ".." with nothing left to drop would climb above the share
 * root, which no name may (OBJECT_PATH_SYNTAX_BAD, as Windows answers).
 */
static int put_component(char *out, u32 *w, const char *c, u32 len)
{
	int ret;

	if (is_dotdot(c, len)) {
		if (!*w)
			return -KSMBD_EPATH_SYNTAX_BAD;
		while (*w && out[*w - 1] != '/')
			(*w)--;
		if (*w)
			(*w)--;	/* the separator before it */
		return 0;
	}
	ret = ksmbd_name_check_component(c, len);
	if (ret)
		return ret;
	if (*w)
		out[(*w)++] = '/';
	memmove(out + *w, c, len);
	*w += len;
	return 0;
}

int ksmbd_name_from_utf16(const struct ksmbd_buf *name, char *out, u32 cap)
{
	u32 i, start, len, w = 0;
	int n, ret;

	if (!cap)
		return -ENAMETOOLONG;
	n = ksmbd_utf16_to_utf8(name->p, name->len, out, cap);
	if (n < 0)
		return n;
	len = (u32)n;
	if (len && out[0] == '\\')
		return -EINVAL;
	/* A single trailing separator names the same directory. */
	if (len && out[len - 1] == '\\')
		out[--len] = '\0';
	for (i = 0; i < len; i++)
		if (out[i] == '/')
			return -EINVAL;

	/*
	 * Components are moved down in place (w never passes start); ".."
	 * is resolved here, by name, as Windows does ("a\\x\\.." is "a",
	 * whether or not x exists): a path never leaves the share root.
	 */
	start = 0;
	for (i = 0; len && i <= len; i++) {
		if (i < len && out[i] != '\\')
			continue;
		ret = put_component(out, &w, out + start, i - start);
		if (ret)
			return ret;
		start = i + 1;
	}
	out[w] = '\0';
	return (int)w;
}

static bool prefix_ci(const char *s, const char *prefix, u32 *plen)
{
	u32 i;

	for (i = 0; prefix[i]; i++)
		if (ascii_lower(s[i]) != prefix[i])
			return false;
	*plen = i;
	return true;
}

static bool equal_ci(const char *a, const char *b)
{
	while (*a && *b && ascii_lower(*a) == ascii_lower(*b)) {
		a++;
		b++;
	}
	return !*a && !*b;
}

int ksmbd_name_pipe_service(const char *name)
{
	static const char * const services[] = {
		[KSMBD_PIPE_SRVSVC] = "srvsvc",
		[KSMBD_PIPE_WKSSVC] = "wkssvc",
		[KSMBD_PIPE_LSARPC] = "lsarpc",
		[KSMBD_PIPE_SAMR] = "samr",
	};
	u32 skip, i;

	if (prefix_ci(name, "\\pipe\\", &skip) || prefix_ci(name, "pipe\\", &skip))
		name += skip;
	for (i = 0; i < ARRAY_SIZE(services); i++)
		if (equal_ci(name, services[i]))
			return (int)i;
	return -ENOENT;
}

/*
 * '*' matches any run, '?' one character. Iterative with one backtrack
 * point, so hostile patterns cost O(len(pattern) * len(s)) at worst.
 */
bool ksmbd_name_match(const char *p, const char *s, u32 slen)
{
	const char *star = NULL;
	u32 i = 0, mark = 0;

	while (i < slen) {
		if (*p == '*') {
			star = p++;
			mark = i;
		} else if (*p && (*p == '?' || ascii_lower(*p) == ascii_lower(s[i]))) {
			p++;
			i++;
		} else if (star) {
			p = star + 1;
			i = ++mark;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

static bool component_vetoed(const char *patterns, u32 veto_len,
			     const char *c, u32 clen)
{
	u32 pos = 0;

	while (pos < veto_len) {
		const char *pat = patterns + pos;
		u32 plen = (u32)strnlen(pat, veto_len - pos);

		/* An unterminated last pattern is ignored, never overread. */
		if (plen == veto_len - pos)
			break;
		if (plen && ksmbd_name_match(pat, c, clen))
			return true;
		pos += plen + 1;
	}
	return false;
}

bool ksmbd_name_vetoed(const char *patterns, u32 veto_len, const char *name)
{
	const char *c = name;

	if (!veto_len || !*name)
		return false;
	for (;;) {
		const char *slash = strchr(c, '/');
		u32 clen = slash ? (u32)(slash - c) : (u32)strlen(c);

		if (component_vetoed(patterns, veto_len, c, clen))
			return true;
		if (!slash)
			return false;
		c = slash + 1;
	}
}

const char *ksmbd_name_last(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash ? slash + 1 : name;
}
