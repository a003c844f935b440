// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>
#include "testlib.h"
#include "shortname.h"

static u32 sn(const char *name, char *out)
{
	return ksmbd_short_name(name, (u32)strlen(name), out);
}

static bool is83(const char *name)
{
	return ksmbd_name_is_8dot3(name, (u32)strlen(name));
}

TEST(valid_8dot3)
{
	CHECK(is83("A"));
	CHECK(is83("bufsize.txt"));
	CHECK(is83("ABCDEFGH.IJK"));
	CHECK(is83("x~1.{}"));
	CHECK(!is83(""));
	CHECK(!is83("."));
	CHECK(!is83(".."));
	CHECK(!is83("ABCDEFGHI"));		/* base of 9 */
	CHECK(!is83("ABCDEFGHI.TXT"));
	CHECK(!is83("A.TEXT"));			/* extension of 4 */
	CHECK(!is83("A.B.C"));
	CHECK(!is83(".bashrc"));
	CHECK(!is83("trail."));
	CHECK(!is83("sp ace.txt"));
	CHECK(!is83("a+b.txt"));
	CHECK(!is83("caf\xc3\xa9.txt"));	/* non-ASCII */
}

TEST(short_of_8dot3_is_the_name_upper_case)
{
	char out[KSMBD_SHORT_NAME_MAX + 1];

	CHECK_EQ_INT(sn("bufsize.txt", out), 11);
	CHECK_EQ_STR(out, "BUFSIZE.TXT");
	CHECK_EQ_INT(sn("a", out), 1);
	CHECK_EQ_STR(out, "A");
	CHECK_EQ_INT(sn(".", out), 0);
	CHECK_EQ_STR(out, "");
	CHECK_EQ_INT(sn("..", out), 0);
	CHECK_EQ_INT(sn("", out), 0);
}

/* PPPP~HHH.EEE: prefix, '~', three base-36 digits, extension */
static bool shape_ok(const char *s, const char *prefix, const char *ext)
{
	size_t p = strlen(prefix), i;

	if (strncmp(s, prefix, p) || s[p] != '~')
		return false;
	for (i = p + 1; i < p + 4; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	if (!*ext)
		return s[p + 4] == '\0';
	return s[p + 4] == '.' && !strcmp(s + p + 5, ext);
}

TEST(generated_shapes)
{
	char out[KSMBD_SHORT_NAME_MAX + 1];

	sn("torture_search.txt", out);
	CHECK(shape_ok(out, "TORT", "TXT"));
	CHECK(is83(out));
	sn("testsmb2_dir", out);
	CHECK(shape_ok(out, "TEST", ""));
	sn(".bashrc", out);
	CHECK(shape_ok(out, "BASH", ""));
	sn("a b+c.tar.gz", out);			/* space dropped, '+' as '_' */
	CHECK(shape_ok(out, "AB_C", "GZ"));
	sn("x.jpeg", out);
	CHECK(shape_ok(out, "X", "JPE"));
	sn("caf\xc3\xa9 au lait.txt", out);	/* one '_' per code point */
	CHECK(shape_ok(out, "CAF_", "TXT"));
	sn("...", out);
	CHECK(shape_ok(out, "_", ""));
	sn("name.+", out);
	CHECK(shape_ok(out, "NAME", "_"));
	sn("name. ", out);				/* nothing left of the extension */
	CHECK(shape_ok(out, "NAME", ""));
	CHECK_EQ_INT(sn("a-very-long-name-indeed.extension", out), 12);
	CHECK(is83(out));
}

TEST(stable_and_case_blind)
{
	char a[KSMBD_SHORT_NAME_MAX + 1], b[KSMBD_SHORT_NAME_MAX + 1];

	sn("Torture_Search.txt", a);
	sn("torture_search.TXT", b);
	CHECK_EQ_STR(a, b);
	sn("torture_search.txt", b);
	CHECK_EQ_STR(a, b);
	/* names that differ only past the prefix differ in the hash */
	sn("torture_search1.txt", a);
	sn("torture_search2.txt", b);
	CHECK(strcmp(a, b) != 0);
}

int main(void)
{
	RUN(valid_8dot3);
	RUN(short_of_8dot3_is_the_name_upper_case);
	RUN(generated_shapes);
	RUN(stable_and_case_blind);
	return test_report();
}
