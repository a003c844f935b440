// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Search-pattern matching for QUERY_DIRECTORY; see pattern.h for the
 * semantics. Each pattern position is one state; '*' and '<' loop on
 * themselves, every other element moves one position on. Epsilon moves
 * (a wildcard matching nothing) only ever go forward, so one pass in
 * increasing order closes a state set.
 */
#include "pattern.h"

/* Wildcards, stored above the Unicode range so they never equal a letter. */
enum {
	W_STAR = 0x110000,	/* '*' */
	W_QM,			/* '?' */
	W_DOS_STAR,		/* '<' */
	W_DOS_QM,		/* '>' */
	W_DOS_DOT,		/* '"' */
};

#define END_OF_NAME	0xffffffffu

struct ksmbd_pattern {
	u32 n;			/* elements */
	bool literal;
	bool all;
	u8 *cur, *next;		/* state bitmaps, n + 1 bits each */
	u32 el[];
};

u32 ksmbd_pattern_fold(u32 cp)
{
	if (cp >= 'a' && cp <= 'z')
		return cp - 0x20;
	/* Latin-1 lower case, except the division sign */
	if (cp >= 0xe0 && cp <= 0xfe && cp != 0xf7)
		return cp - 0x20;
	if (cp == 0xff)
		return 0x178;
	return cp;
}

/* One code point from s[*i..len); false on anything that is not strict UTF-8. */
static bool utf8_next(const u8 *s, u32 len, u32 *i, u32 *cp)
{
	u32 c = s[*i], need, v, k;

	if (c < 0x80) {
		*cp = c;
		*i += 1;
		return true;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		v = c & 0x07;
	} else {
		return false;
	}
	if (len - *i <= need)
		return false;
	for (k = 1; k <= need; k++) {
		u8 b = s[*i + k];

		if ((b & 0xc0) != 0x80)
			return false;
		v = (v << 6) | (b & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((need == 2 && v < 0x800) || (need == 3 && v < 0x10000) ||
	    (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
		return false;
	*cp = v;
	*i += need + 1;
	return true;
}

static u32 wildcard_of(u32 cp)
{
	switch (cp) {
	case '*':
		return W_STAR;
	case '?':
		return W_QM;
	case '<':
		return W_DOS_STAR;
	case '>':
		return W_DOS_QM;
	case '"':
		return W_DOS_DOT;
	default:
		return ksmbd_pattern_fold(cp);
	}
}

/* Decode into el[]; returns the element count or a negative errno. */
static int decode_pattern(const u8 *s, u32 len, u32 *el, u32 max)
{
	u32 i = 0, n = 0, cp;

	while (i < len) {
		if (!utf8_next(s, len, &i, &cp))
			return -EILSEQ;
		cp = wildcard_of(cp);
		/* "**" is "*": keeps the automaton small */
		if (cp == W_STAR && n && el[n - 1] == W_STAR)
			continue;
		if (n == max)
			return -ENAMETOOLONG;
		el[n++] = cp;
	}
	return (int)n;
}

static void classify(struct ksmbd_pattern *p)
{
	u32 i;

	p->all = !p->n || (p->n == 1 && p->el[0] == W_STAR) ||
		 (p->n == 3 && p->el[0] == W_STAR && p->el[1] == '.' &&
		  p->el[2] == W_STAR);
	p->literal = true;
	for (i = 0; i < p->n; i++)
		if (p->el[i] >= W_STAR)
			p->literal = false;
	/* A trailing '.' matches a dot or the end of the name (Win32). */
	if (p->n && p->el[p->n - 1] == '.') {
		p->el[p->n - 1] = W_DOS_DOT;
		p->literal = false;
	}
}

int ksmbd_pattern_compile(const char *utf8, u32 len, struct ksmbd_pattern **out)
{
	struct ksmbd_pattern *p;
	u32 max = min_t(u32, len, KSMBD_PATTERN_MAX);
	u32 bytes;
	int n;

	/* Each element takes at least one byte, so len bounds the count. */
	p = kzalloc(sizeof(*p) + (max + 1) * sizeof(u32), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	n = decode_pattern((const u8 *)utf8, len, p->el, max);
	if (n < 0) {
		kfree(p);
		return n;
	}
	p->n = (u32)n;
	bytes = (p->n + 1 + 7) / 8;
	p->cur = kzalloc(2 * bytes, GFP_KERNEL);
	if (!p->cur) {
		kfree(p);
		return -ENOMEM;
	}
	p->next = p->cur + bytes;
	classify(p);
	*out = p;
	return 0;
}

void ksmbd_pattern_free(struct ksmbd_pattern *p)
{
	if (!p)
		return;
	kfree(p->cur);
	kfree(p);
}

bool ksmbd_pattern_is_literal(const struct ksmbd_pattern *p)
{
	return p->literal;
}

bool ksmbd_pattern_matches_all(const struct ksmbd_pattern *p)
{
	return p->all;
}

static bool state_on(const u8 *m, u32 i)
{
	return m[i >> 3] & (1u << (i & 7));
}

static void state_set(u8 *m, u32 i)
{
	m[i >> 3] |= (u8)(1u << (i & 7));
}

/* Epsilon moves, given the next name character (or END_OF_NAME). */
static void close_states(const struct ksmbd_pattern *p, u8 *m, u32 la)
{
	u32 i;

	for (i = 0; i < p->n; i++) {
		bool skip;

		if (!state_on(m, i))
			continue;
		switch (p->el[i]) {
		case W_STAR:
		case W_DOS_STAR:
			skip = true;
			break;
		case W_DOS_DOT:
			skip = la == END_OF_NAME;
			break;
		case W_DOS_QM:
			skip = la == '.' || la == END_OF_NAME;
			break;
		default:
			skip = false;
			break;
		}
		if (skip)
			state_set(m, i + 1);
	}
}

/* Consume c from every state in cur into next. */
static bool step(const struct ksmbd_pattern *p, u32 c, bool later_dot)
{
	u32 bytes = (p->n + 1 + 7) / 8, i, fc = ksmbd_pattern_fold(c);
	bool any = false;

	memset(p->next, 0, bytes);
	for (i = 0; i < p->n; i++) {
		u32 to = U32_MAX;

		if (!state_on(p->cur, i))
			continue;
		switch (p->el[i]) {
		case W_STAR:
			to = i;
			break;
		case W_DOS_STAR:
			/* never swallows the name's last dot */
			if (c != '.' || later_dot)
				to = i;
			break;
		case W_QM:
			to = i + 1;
			break;
		case W_DOS_QM:
			if (c != '.')
				to = i + 1;
			break;
		case W_DOS_DOT:
			if (c == '.')
				to = i + 1;
			break;
		default:
			if (p->el[i] == fc)
				to = i + 1;
			break;
		}
		if (to != U32_MAX) {
			state_set(p->next, to);
			any = true;
		}
	}
	memcpy(p->cur, p->next, bytes);
	return any;
}

static u32 last_dot(const u8 *s, u32 len)
{
	u32 i = len;

	/* '.' never occurs inside a multi-byte UTF-8 sequence */
	while (i--)
		if (s[i] == '.')
			return i;
	return U32_MAX;
}

bool ksmbd_pattern_match(struct ksmbd_pattern *p, const char *name, u32 len)
{
	const u8 *s = (const u8 *)name;
	u32 bytes = (p->n + 1 + 7) / 8, dot = last_dot(s, len);
	u32 i = 0, c = END_OF_NAME, at;

	if (p->all)
		return true;
	if (len && !utf8_next(s, len, &i, &c))
		return false;
	memset(p->cur, 0, bytes);
	state_set(p->cur, 0);
	while (c != END_OF_NAME) {
		u32 la = END_OF_NAME;

		close_states(p, p->cur, c);
		at = i;		/* byte offset just past c */
		if (i < len && !utf8_next(s, len, &i, &la))
			return false;
		if (!step(p, c, dot != U32_MAX && dot >= at))
			return false;
		c = la;
	}
	close_states(p, p->cur, END_OF_NAME);
	return state_on(p->cur, p->n);
}
