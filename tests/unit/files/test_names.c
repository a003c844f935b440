// SPDX-License-Identifier: GPL-2.0-or-later
/* CREATE name conversion, veto patterns and pipe names (module/fs/vfs_name.c). */
#include "testlib.h"
#include "vfs_name.h"
#include "proto/ksmbd_errno.h"

/* ASCII (and \uXXXX-free) test names to UTF-16LE. */
static struct ksmbd_buf utf16_of(const char *s, u8 *store)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++) {
		store[2 * i] = (u8)s[i];
		store[2 * i + 1] = 0;
	}
	return ksmbd_buf_make(store, (u32)(2 * n));
}

static int conv(const char *in, char *out, u32 cap)
{
	u8 store[1024];
	struct ksmbd_buf b = utf16_of(in, store);

	return ksmbd_name_from_utf16(&b, out, cap);
}

TEST(plain_names)
{
	char out[256];

	CHECK_EQ_INT(conv("", out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "");
	CHECK_EQ_INT(conv("a.txt", out, sizeof(out)), 5);
	CHECK_EQ_STR(out, "a.txt");
	CHECK_EQ_INT(conv("dir\\sub\\f", out, sizeof(out)), 9);
	CHECK_EQ_STR(out, "dir/sub/f");
	/* One trailing separator names the directory itself. */
	CHECK_EQ_INT(conv("dir\\", out, sizeof(out)), 3);
	CHECK_EQ_STR(out, "dir");
	CHECK_EQ_INT(conv(".hidden", out, sizeof(out)), 7);
	CHECK_EQ_INT(conv("a..b", out, sizeof(out)), 4);
	/* ".." takes the component before it away, by name */
	CHECK_EQ_INT(conv("a\\x\\..", out, sizeof(out)), 1);
	CHECK_EQ_STR(out, "a");
	CHECK_EQ_INT(conv("a\\..\\b", out, sizeof(out)), 1);
	CHECK_EQ_STR(out, "b");
	CHECK_EQ_INT(conv("dir\\sub\\..\\..\\f.txt", out, sizeof(out)), 5);
	CHECK_EQ_STR(out, "f.txt");
	CHECK_EQ_INT(conv("a\\..", out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "");
}

TEST(invalid_names)
{
	char out[256];

	CHECK_EQ_INT(conv("\\a", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("\\", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("..", out, sizeof(out)), -KSMBD_EPATH_SYNTAX_BAD);
	CHECK_EQ_INT(conv("a\\..\\..", out, sizeof(out)),
		     -KSMBD_EPATH_SYNTAX_BAD);
	CHECK_EQ_INT(conv("..\\a", out, sizeof(out)), -KSMBD_EPATH_SYNTAX_BAD);
	CHECK_EQ_INT(conv("a\\.\\b", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a\\\\b", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a\\\\", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a/b", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a*b", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a?", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a<b", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a|b", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a\"b", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("a\tb", out, sizeof(out)), -EINVAL);
	CHECK_EQ_INT(conv("file:stream", out, sizeof(out)), -EOPNOTSUPP);
	CHECK_EQ_INT(conv("file::$DATA", out, sizeof(out)), -EOPNOTSUPP);
}

TEST(bad_utf16)
{
	u8 lone_surrogate[] = { 'a', 0, 0x00, 0xd8 };
	u8 odd[] = { 'a', 0, 'b' };
	u8 nul[] = { 'a', 0, 0, 0, 'b', 0 };
	struct ksmbd_buf b;
	char out[64];

	b = ksmbd_buf_make(lone_surrogate, sizeof(lone_surrogate));
	CHECK(ksmbd_name_from_utf16(&b, out, sizeof(out)) < 0);
	b = ksmbd_buf_make(odd, sizeof(odd));
	CHECK(ksmbd_name_from_utf16(&b, out, sizeof(out)) < 0);
	b = ksmbd_buf_make(nul, sizeof(nul));
	CHECK(ksmbd_name_from_utf16(&b, out, sizeof(out)) < 0);
}

TEST(non_ascii)
{
	/* "é\ü" : U+00E9 '\' U+00FC */
	u8 in[] = { 0xe9, 0x00, '\\', 0, 0xfc, 0x00 };
	struct ksmbd_buf b = ksmbd_buf_make(in, sizeof(in));
	char out[64];

	CHECK_EQ_INT(ksmbd_name_from_utf16(&b, out, sizeof(out)), 5);
	CHECK_EQ_STR(out, "\xc3\xa9/\xc3\xbc");
}

TEST(length_limits)
{
	char name[600], out[4096];
	u8 store[1300];
	struct ksmbd_buf b;

	memset(name, 'x', 255);
	name[255] = '\0';
	b = utf16_of(name, store);
	CHECK_EQ_INT(ksmbd_name_from_utf16(&b, out, sizeof(out)), 255);
	memset(name, 'x', 256);
	name[256] = '\0';
	b = utf16_of(name, store);
	CHECK_EQ_INT(ksmbd_name_from_utf16(&b, out, sizeof(out)), -ENAMETOOLONG);
	/* Output capacity: never written past, reported as too long. */
	memset(name, 'y', 20);
	name[20] = '\0';
	b = utf16_of(name, store);
	CHECK_EQ_INT(ksmbd_name_from_utf16(&b, out, 10), -ENAMETOOLONG);
	CHECK_EQ_INT(ksmbd_name_from_utf16(&b, out, 0), -ENAMETOOLONG);
}

TEST(wildcard_match)
{
	CHECK(ksmbd_name_match("*.tmp", "a.tmp", 5));
	CHECK(ksmbd_name_match("*.TMP", "a.tmp", 5));
	CHECK(!ksmbd_name_match("*.tmp", "a.tmpx", 6));
	CHECK(ksmbd_name_match("?b*", "abc", 3));
	CHECK(ksmbd_name_match("?b*", "bbc", 2));
	CHECK(ksmbd_name_match("*", "", 0));
	CHECK(!ksmbd_name_match("a", "", 0));
	CHECK(ksmbd_name_match("a*b*c", "aXXbYYc", 7));
	CHECK(!ksmbd_name_match("a*b*c", "aXXbYY", 6));
	/* slen bounds the subject: "abc" cut to "ab". */
	CHECK(!ksmbd_name_match("abc", "abc", 2));
}

TEST(veto)
{
	static const char pats[] = "*.tmp\0secret\0.?*\0";
	u32 len = sizeof(pats) - 1;	/* the list ends with a NUL */

	CHECK(ksmbd_name_vetoed(pats, len, "x.tmp"));
	CHECK(ksmbd_name_vetoed(pats, len, "dir/x.tmp"));
	CHECK(ksmbd_name_vetoed(pats, len, "secret/file"));
	CHECK(ksmbd_name_vetoed(pats, len, "a/SECRET"));
	CHECK(ksmbd_name_vetoed(pats, len, ".git"));
	CHECK(!ksmbd_name_vetoed(pats, len, "public/file"));
	CHECK(!ksmbd_name_vetoed(pats, len, ""));
	CHECK(!ksmbd_name_vetoed(pats, 0, "x.tmp"));
	/* An unterminated trailing pattern is never read past the list. */
	CHECK(!ksmbd_name_vetoed("abc", 3, "abc"));
}

TEST(pipes)
{
	CHECK_EQ_INT(ksmbd_name_pipe_service("srvsvc"), KSMBD_PIPE_SRVSVC);
	CHECK_EQ_INT(ksmbd_name_pipe_service("SRVSVC"), KSMBD_PIPE_SRVSVC);
	CHECK_EQ_INT(ksmbd_name_pipe_service("\\pipe\\wkssvc"), KSMBD_PIPE_WKSSVC);
	CHECK_EQ_INT(ksmbd_name_pipe_service("pipe\\lsarpc"), KSMBD_PIPE_LSARPC);
	CHECK_EQ_INT(ksmbd_name_pipe_service("samr"), KSMBD_PIPE_SAMR);
	CHECK_EQ_INT(ksmbd_name_pipe_service("spoolss"), -ENOENT);
	CHECK_EQ_INT(ksmbd_name_pipe_service("srvsvcx"), -ENOENT);
	CHECK_EQ_INT(ksmbd_name_pipe_service(""), -ENOENT);
}

TEST(last_component)
{
	CHECK_EQ_STR(ksmbd_name_last("a/b/c"), "c");
	CHECK_EQ_STR(ksmbd_name_last("c"), "c");
	CHECK_EQ_STR(ksmbd_name_last(""), "");
}

int main(void)
{
	RUN(plain_names);
	RUN(invalid_names);
	RUN(bad_utf16);
	RUN(non_ascii);
	RUN(length_limits);
	RUN(wildcard_match);
	RUN(veto);
	RUN(pipes);
	RUN(last_component);
	return test_report();
}
