// SPDX-License-Identifier: GPL-2.0-or-later
#include "testlib.h"
#include "proto/pattern.h"

/* -1: did not compile; else 0/1 for the match. */
static int m(const char *pat, const char *name)
{
	struct ksmbd_pattern *p;
	int r;

	if (ksmbd_pattern_compile(pat, (u32)strlen(pat), &p))
		return -1;
	r = ksmbd_pattern_match(p, name, (u32)strlen(name));
	ksmbd_pattern_free(p);
	return r;
}

TEST(star_matches_everything)
{
	CHECK_EQ_INT(m("*", "a"), 1);
	CHECK_EQ_INT(m("*", "."), 1);
	CHECK_EQ_INT(m("*", "no_dot"), 1);
	CHECK_EQ_INT(m("", "anything.txt"), 1);
	CHECK_EQ_INT(m("*.*", "no_dot"), 1);
	CHECK_EQ_INT(m("*.*", "x.y"), 1);
	CHECK_EQ_INT(m("**", "abc"), 1);
}

TEST(star_with_suffix)
{
	CHECK_EQ_INT(m("*.txt", "a.txt"), 1);
	CHECK_EQ_INT(m("*.txt", "A.TXT"), 1);
	CHECK_EQ_INT(m("*.txt", ".txt"), 1);
	CHECK_EQ_INT(m("*.txt", "a.txt.bak"), 0);
	CHECK_EQ_INT(m("*.txt", "atxt"), 0);
	CHECK_EQ_INT(m("a*b*c", "abc"), 1);
	CHECK_EQ_INT(m("a*b*c", "axxbyyc"), 1);
	CHECK_EQ_INT(m("a*b*c", "axxbyy"), 0);
	CHECK_EQ_INT(m("*a", "bbb"), 0);
}

TEST(question_mark_is_one_character)
{
	CHECK_EQ_INT(m("?", "a"), 1);
	CHECK_EQ_INT(m("?", ""), 0);
	CHECK_EQ_INT(m("?", "ab"), 0);
	CHECK_EQ_INT(m("a?c", "abc"), 1);
	CHECK_EQ_INT(m("a?c", "ac"), 0);
	/* one code point, not one byte */
	CHECK_EQ_INT(m("caf?", "caf\xc3\xa9"), 1);
	CHECK_EQ_INT(m("??", "\xe4\xb8\xad\xe6\x96\x87"), 1);
	CHECK_EQ_INT(m("?", "\xf0\x9f\x98\x80"), 1);
}

TEST(case_insensitive)
{
	CHECK_EQ_INT(m("README", "readme"), 1);
	CHECK_EQ_INT(m("readme", "ReadMe"), 1);
	CHECK_EQ_INT(m("CAF\xc3\x89", "caf\xc3\xa9"), 1);	/* É vs é */
	CHECK_EQ_INT(m("readme", "readme2"), 0);
	CHECK_EQ_INT(m("a[b]", "A[B]"), 1);
}

TEST(exact_names_and_literal_flag)
{
	struct ksmbd_pattern *p;

	CHECK_EQ_INT(ksmbd_pattern_compile("file.txt", 8, &p), 0);
	CHECK(ksmbd_pattern_is_literal(p));
	CHECK(!ksmbd_pattern_matches_all(p));
	CHECK(ksmbd_pattern_match(p, "FILE.TXT", 8));
	CHECK(!ksmbd_pattern_match(p, "file.tx", 7));
	ksmbd_pattern_free(p);

	CHECK_EQ_INT(ksmbd_pattern_compile("f*", 2, &p), 0);
	CHECK(!ksmbd_pattern_is_literal(p));
	ksmbd_pattern_free(p);

	CHECK_EQ_INT(ksmbd_pattern_compile("*", 1, &p), 0);
	CHECK(ksmbd_pattern_matches_all(p));
	ksmbd_pattern_free(p);
}

TEST(trailing_dot)
{
	CHECK_EQ_INT(m("foo.", "foo"), 1);
	CHECK_EQ_INT(m("foo.", "foo."), 1);
	CHECK_EQ_INT(m("foo.", "foo.c"), 0);
	CHECK_EQ_INT(m("foo", "foo."), 0);
}

TEST(dos_star)
{
	/* '<' stops before the last dot */
	CHECK_EQ_INT(m("<.txt", "a.b.txt"), 1);
	CHECK_EQ_INT(m("<.txt", "a.txt"), 1);
	CHECK_EQ_INT(m("<", "abc"), 1);
	CHECK_EQ_INT(m("<", "a.b"), 0);
	CHECK_EQ_INT(m("<.*", "a.b"), 1);
	CHECK_EQ_INT(m("<.b", "a.b.c"), 0);
}

TEST(dos_qm_and_dot)
{
	/* '>' is one character, or nothing at a dot or at the end */
	CHECK_EQ_INT(m("a>>", "a"), 1);
	CHECK_EQ_INT(m("a>>", "abc"), 1);
	CHECK_EQ_INT(m("a>>", "abcd"), 0);
	CHECK_EQ_INT(m("a>>.txt", "a.txt"), 1);
	CHECK_EQ_INT(m("a>>.txt", "ab.txt"), 1);
	/* '"' is a dot, or nothing at the end */
	CHECK_EQ_INT(m("foo\"", "foo"), 1);
	CHECK_EQ_INT(m("foo\"", "foo."), 1);
	CHECK_EQ_INT(m("foo\"c", "foo.c"), 1);
	CHECK_EQ_INT(m("foo\"c", "foo"), 0);
	/* Win32's "*." becomes '<"': names without an extension */
	CHECK_EQ_INT(m("<\"", "noext"), 1);
	CHECK_EQ_INT(m("<\"", "has.ext"), 0);
}

TEST(dot_entries)
{
	CHECK_EQ_INT(m(".", "."), 1);
	CHECK_EQ_INT(m("..", ".."), 1);
	CHECK_EQ_INT(m("*", ".."), 1);
	CHECK_EQ_INT(m("x*", "."), 0);
}

TEST(bad_utf8)
{
	struct ksmbd_pattern *p;

	CHECK_EQ_INT(ksmbd_pattern_compile("\xc3", 1, &p), -EILSEQ);
	CHECK_EQ_INT(ksmbd_pattern_compile("\xc0\xaf", 2, &p), -EILSEQ);
	CHECK_EQ_INT(ksmbd_pattern_compile("\xed\xa0\x80", 3, &p), -EILSEQ);
	/* a name that is not UTF-8 never matches, not even a literal */
	CHECK_EQ_INT(m("?", "\xff"), 0);
	CHECK_EQ_INT(m("a*", "a\xc3"), 0);
	CHECK_EQ_INT(m("*", "\xff"), 1);	/* "*" answers without decoding */
}

TEST(long_patterns_stay_linear)
{
	char pat[2100], name[300];
	struct ksmbd_pattern *p;
	u32 i;

	/* "a*a*a*...b" against "aaaa...": exponential for a backtracker */
	for (i = 0; i < 1000; i += 2) {
		pat[i] = 'a';
		pat[i + 1] = '*';
	}
	pat[1000] = 'b';
	memset(name, 'a', 255);
	CHECK_EQ_INT(ksmbd_pattern_compile(pat, 1001, &p), 0);
	CHECK(!ksmbd_pattern_match(p, name, 255));
	ksmbd_pattern_free(p);

	memset(pat, '?', 2000);
	CHECK_EQ_INT(ksmbd_pattern_compile(pat, 2000, &p), -ENAMETOOLONG);
	/* but a thousand stars collapse into one */
	memset(pat, '*', 2000);
	CHECK_EQ_INT(ksmbd_pattern_compile(pat, 2000, &p), 0);
	CHECK(ksmbd_pattern_matches_all(p));
	ksmbd_pattern_free(p);
}

int main(void)
{
	RUN(star_matches_everything);
	RUN(star_with_suffix);
	RUN(question_mark_is_one_character);
	RUN(case_insensitive);
	RUN(exact_names_and_literal_flag);
	RUN(trailing_dot);
	RUN(dos_star);
	RUN(dos_qm_and_dot);
	RUN(dot_entries);
	RUN(bad_utf8);
	RUN(long_patterns_stay_linear);
	return test_report();
}
